//! The type-vector harness: runs every `*.tsv` in `shared/spec/vectors` (or
//! the directory named by `PCL_TYPE_VECTORS`), plus pcl's own vectors in
//! `testdata/types/vectors`, against the whole front end.
//!
//! Each file's kind is its name. Every kind of `vectors/README.md` §3 has an
//! evaluator here. The type-algebra kinds run against `pcl_types`; the
//! binder-backed kinds go through [`BinderBackend`], implemented by
//! [`Binder`]:
//! * `expr-env` rows define the scopes (one per `env` name) that `expr`
//!   rows bind in; a row passes when its type or signature parses and the
//!   entry is in its scope;
//! * `literal` rows bind in an empty scope with `pcl_expr`; `type`, `kind`,
//!   `string_form`, `pretty` (when given) and `diagnostics` are compared;
//! * `expr` rows bind in their environment (no builtins); `type`, `kind`,
//!   `diagnostics` and `convertible_to ← type` being `safe` are compared;
//! * `program-typing` rows are one-file programs bound with
//!   `pcl_binder::check_program` (strict, schemas from `testdata/schemas`);
//!   the type of top-level node `node` and all diagnostics are compared.
//!
//! Unknown kinds and unparsable rows are failures. A failing row passes
//! only when every failing column is listed in
//! `testdata/types/deviations.tsv` (each line says which reference defect
//! pcl fixes, or why the row cannot apply); a listed row that passes is
//! reported so the list stays honest. Prints one line per file and closes
//! with `type vectors: N passed, M failed, P pending`; exits non-zero on
//! any unlisted failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_types::pretty::{indent, Layout, NodeId};
use pcl_types::*;

/// A type predicate under test.
type Predicate = fn(&Type) -> bool;

/// One vector row: column name → raw cell.
type Row = HashMap<String, String>;

/// One mismatch: the column and a message.
type Failure = (String, String);

enum Outcome {
    Pass,
    Fail(String, String),
    /// Several columns failed; each must be covered by a deviation.
    Fails(Vec<Failure>),
    Pending,
}

/// Expression-binding kinds are delegated here.
trait BinderBackend {
    fn evaluate(&self, kind: &str, row: &Row) -> Outcome;
}

const KNOWN_KINDS: &[&str] = &[
    "conversion",
    "assignable",
    "unify",
    "unify-types",
    "traversal",
    "print",
    "input-type",
    "resolve-outputs",
    "resolve-promises",
    "predicates",
    "constructor",
    "equality",
    "literal",
    "type-expr",
    "expr-env",
    "expr",
    "program-typing",
    "lift",
    "collection",
    "conversion-diagnostics",
    "operator",
    "pretty-layout",
    "annotations",
];

const BINDER_KINDS: &[&str] = &["literal", "expr", "expr-env", "program-typing"];

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let h: String = chars.by_ref().take(4).collect();
                out.push(
                    u32::from_str_radix(&h, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .unwrap_or('\u{fffd}'),
                );
            }
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn ty(cell: &str) -> Result<Type, String> {
    cell.parse::<Type>()
        .map_err(|e| format!("cannot parse type `{cell}`: {e}"))
}

fn types(cell: &str) -> Result<Vec<Type>, String> {
    if cell == "-" {
        return Ok(Vec::new());
    }
    cell.split("; ").map(ty).collect()
}

fn col<'r>(row: &'r Row, name: &str) -> Result<&'r str, String> {
    row.get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("missing column `{name}`"))
}

fn boolean(cell: &str) -> Result<bool, String> {
    match cell {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("expected true/false, got `{cell}`")),
    }
}

fn kind_name(k: ConversionKind) -> &'static str {
    k.as_str()
}

/// Checks accumulate per column; the first failing column is reported.
struct Check {
    fails: Vec<(String, String)>,
}

impl Check {
    fn new() -> Check {
        Check { fails: Vec::new() }
    }
    fn ty(&mut self, column: &str, got: &Type, want: &Type) {
        if !got.equals(want) {
            self.fails.push((
                column.into(),
                format!("got {}, want {}", to_notation(got), to_notation(want)),
            ));
        }
    }
    /// Texts are compared with pcl's backtick quotes made the reference's
    /// single quotes (`pcl_testkit::without_quotes`): the one declared
    /// quoting deviation, `names-in-backticks`.
    fn text(&mut self, column: &str, got: &str, want: &str) {
        if pcl_testkit::without_quotes(got) != pcl_testkit::without_quotes(want) {
            self.fails
                .push((column.into(), format!("got {got:?}, want {want:?}")));
        }
    }
    fn done(self) -> Outcome {
        match self.fails.into_iter().next() {
            None => Outcome::Pass,
            Some((c, m)) => Outcome::Fail(c, m),
        }
    }
}

fn diags_string(ds: &[TypeDiagnostic]) -> String {
    if ds.is_empty() {
        return "-".into();
    }
    ds.iter()
        .map(TypeDiagnostic::to_vector_string)
        .collect::<Vec<_>>()
        .join("; ")
}

fn check_diags(c: &mut Check, column: &str, got: &[TypeDiagnostic], want: &str) {
    let want = unescape(want);
    if want == "+" {
        if !got.iter().any(TypeDiagnostic::is_error) {
            c.fails.push((
                column.into(),
                format!("want an error, got {}", diags_string(got)),
            ));
        }
    } else {
        c.text(column, &diags_string(got), &want);
    }
}

fn parse_traverser(s: &str) -> Result<Traverser, String> {
    if let Some(name) = s.strip_prefix('.') {
        return Ok(Traverser::Attr(name.into()));
    }
    let inner = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("bad traverser `{s}`"))?;
    if let Some(t) = inner.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        return Ok(Traverser::Typed(ty(t)?));
    }
    Ok(Traverser::Literal(parse_value(inner)?))
}

fn parse_value(s: &str) -> Result<Value, String> {
    match s {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        "null" => return Ok(Value::Null),
        _ => {}
    }
    if let Some(items) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let vals = if items.is_empty() {
            Vec::new()
        } else {
            items
                .split(", ")
                .map(parse_value)
                .collect::<Result<Vec<_>, _>>()?
        };
        return Ok(Value::List(vals.into()));
    }
    if s.starts_with('"') {
        // reuse the notation's string reader through a const type
        let t = ty(&format!("const(string, {s})"))?;
        return Ok(t
            .as_const()
            .map(|c| c.value().clone())
            .ok_or("bad string")?);
    }
    Number::parse(s)
        .map(Value::Number)
        .ok_or_else(|| format!("bad value `{s}`"))
}

fn eval(kind: &str, row: &Row, binder: &dyn BinderBackend) -> Result<Outcome, String> {
    let mut c = Check::new();
    match kind {
        "conversion" => {
            let got = conversion_from(&ty(col(row, "dest")?)?, &ty(col(row, "src")?)?);
            c.text("kind", kind_name(got), col(row, "kind")?);
        }
        "assignable" => {
            let got = assignable_from(&ty(col(row, "dest")?)?, &ty(col(row, "src")?)?);
            c.text(
                "assignable",
                &got.to_string(),
                &boolean(col(row, "assignable")?)?.to_string(),
            );
        }
        "equality" => {
            let (a, b) = (ty(col(row, "a")?)?, ty(col(row, "b")?)?);
            let want = boolean(col(row, "equal")?)?;
            c.text("equal", &a.equals(&b).to_string(), &want.to_string());
            c.text("equal", &b.equals(&a).to_string(), &want.to_string());
        }
        "unify" => {
            let (a, b) = (ty(col(row, "a")?)?, ty(col(row, "b")?)?);
            let (r, k) = unify(&a, &b);
            c.ty("result", &r, &ty(col(row, "result")?)?);
            c.text("kind", kind_name(k), col(row, "kind")?);
        }
        "unify-types" => {
            let u = unify_types(&types(col(row, "args")?)?);
            c.ty("safe", &u.safe, &ty(col(row, "safe")?)?);
            c.ty("unsafe", &u.unsafe_, &ty(col(row, "unsafe")?)?);
        }
        "traversal" => {
            let r = traverse(
                &ty(col(row, "receiver")?)?,
                &parse_traverser(col(row, "traverser")?)?,
            );
            c.ty("result", &r.ty, &ty(col(row, "result")?)?);
            check_diags(
                &mut c,
                "diagnostics",
                &r.diagnostics,
                col(row, "diagnostics")?,
            );
        }
        "print" => {
            let t = ty(col(row, "type")?)?;
            let s = col(row, "string_form")?;
            if !s.is_empty() {
                c.text("string_form", &t.to_reference_string(), &unescape(s));
            }
            let p = col(row, "pretty")?;
            if !p.is_empty() {
                c.text("pretty", &pretty(&t), &unescape(p));
            }
        }
        "input-type" | "resolve-outputs" | "resolve-promises" => {
            let t = ty(col(row, "type")?)?;
            let got = match kind {
                "input-type" => input_type(&t),
                "resolve-outputs" => resolve_outputs(&t),
                _ => resolve_promises(&t),
            };
            c.ty("result", &got, &ty(col(row, "result")?)?);
        }
        "predicates" => {
            let t = ty(col(row, "type")?)?;
            let preds: [(&str, Predicate); 4] = [
                ("is_optional", is_optional),
                ("is_const", is_const_type),
                ("contains_outputs", contains_outputs),
                ("contains_promises", contains_promises),
            ];
            for (name, f) in preds {
                let want = col(row, name)?;
                if !want.is_empty() {
                    c.text(name, &f(&t).to_string(), &boolean(want)?.to_string());
                }
            }
        }
        "constructor" => {
            let args = types(col(row, "args")?)?;
            let one = || args.first().cloned().ok_or("missing argument".to_string());
            let got = match col(row, "constructor")? {
                "NewOptionalType" => Type::optional(one()?),
                "NewOutputType" => Type::output(one()?),
                "NewPromiseType" => Type::promise(one()?),
                "NewListType" => Type::list(one()?),
                "NewMapType" => Type::map(one()?),
                "NewSetType" => Type::set(one()?),
                "NewUnionType" => Type::union(args.clone()),
                other => return Err(format!("unknown constructor `{other}`")),
            };
            let want = ty(col(row, "result")?)?;
            c.ty("result", &got, &want);
            c.text("result", &to_notation(&got), &to_notation(&want));
        }
        "type-expr" => {
            let r = pcl_types::bind_type_label(&unescape(col(row, "label")?));
            c.ty("type", &r.ty, &ty(col(row, "type")?)?);
            c.text(
                "string_form",
                &r.ty.to_reference_string(),
                &unescape(col(row, "string_form")?),
            );
            c.text("pretty", &pretty(&r.ty), &unescape(col(row, "pretty")?));
            check_diags(
                &mut c,
                "diagnostics",
                &r.diagnostics,
                col(row, "diagnostics")?,
            );
        }
        "lift" => {
            let args = types(col(row, "args")?)?;
            let got = lift_operation_type(&ty(col(row, "result")?)?, args.iter());
            c.ty("lifted", &got, &ty(col(row, "lifted")?)?);
        }
        "collection" => {
            let t = ty(col(row, "type")?)?;
            let strict = collection_types(&t, true);
            let lenient = collection_types(&t, false);
            c.ty("key", &strict.key, &ty(col(row, "key")?)?);
            c.ty("value", &strict.value, &ty(col(row, "value")?)?);
            check_diags(
                &mut c,
                "diagnostics_strict",
                &strict.diagnostics,
                col(row, "diagnostics_strict")?,
            );
            check_diags(
                &mut c,
                "diagnostics_nonstrict",
                &lenient.diagnostics,
                col(row, "diagnostics_nonstrict")?,
            );
            c.ty(
                "unwrapped",
                &unwrap_iterable_source_type(&t),
                &ty(col(row, "unwrapped")?)?,
            );
            let wrapped = wrap_iterable_result_type(&t, &Type::list(Type::bool()));
            c.ty(
                "wrapped_list_bool",
                &wrapped,
                &ty(col(row, "wrapped_list_bool")?)?,
            );
        }
        "conversion-diagnostics" => {
            let (d, s) = (ty(col(row, "dest")?)?, ty(col(row, "src")?)?);
            c.text(
                "kind",
                kind_name(conversion_from(&d, &s)),
                col(row, "kind")?,
            );
            let reasons = col(row, "reasons")?;
            if !reasons.is_empty() {
                let got = match explain_conversion(&d, &s) {
                    Some(e) => format!("error: {}", e.summary()),
                    None => "-".into(),
                };
                c.text("reasons", &got, &unescape(reasons));
            }
            let want = unescape(col(row, "expr_not_convertible")?);
            let got = expr_not_convertible(&d, &s).map_or("-".to_string(), |d| d.summary);
            c.text("expr_not_convertible", &got, &want);
        }
        "operator" => {
            let sig = pcl_types::operators::signature(col(row, "operator")?).ok_or_else(|| {
                format!("unknown operator `{}`", col(row, "operator").unwrap_or(""))
            })?;
            c.text(
                "signature",
                &sig.to_string(),
                &unescape(col(row, "signature")?),
            );
        }
        "pretty-layout" => {
            let (layout, root) = parse_layout(&unescape(col(row, "formatter")?))?;
            let cols = col(row, "cols")?;
            let cols = if cols.is_empty() {
                100
            } else {
                cols.parse().map_err(|_| "bad cols")?
            };
            let got = match root {
                LayoutRoot::Node(id) => layout.render(id, cols),
                LayoutRoot::Indent(p, t) => indent(&p, &t),
            };
            c.text("output", &got, &unescape(col(row, "output")?));
        }
        "annotations" => {
            let got = annotation_query(col(row, "annotations")?, col(row, "query")?)?;
            let want = col(row, "result")?;
            let want = want.split(" (").next().unwrap_or(want);
            c.text("result", &got, want);
        }
        k if BINDER_KINDS.contains(&k) => return Ok(binder.evaluate(k, row)),
        other => return Err(format!("unknown vector kind `{other}`")),
    }
    Ok(c.done())
}

#[derive(Debug)]
struct AnnX(String);
#[derive(Debug)]
struct AnnY(String);
#[derive(Debug)]
struct AnnZ(String);

fn annotation_query(list: &str, query: &str) -> Result<String, String> {
    let mut items: Vec<Annotation> = Vec::new();
    for name in list.split(", ") {
        let a: Annotation = match name.chars().next() {
            Some('x') => Arc::new(AnnX(name.into())),
            Some('y') => Arc::new(AnnY(name.into())),
            Some('z') => Arc::new(AnnZ(name.into())),
            _ => return Err(format!("bad annotation `{name}`")),
        };
        items.push(a);
    }
    let obj = Type::object_with(
        Vec::<(String, Type)>::new(),
        ObjectOptions {
            annotations: Annotations::new(items),
            ..ObjectOptions::default()
        },
    );
    let anns = obj.annotations();
    let name = |a: &(dyn Any + Send + Sync)| -> Option<String> {
        a.downcast_ref::<AnnX>()
            .map(|x| x.0.clone())
            .or_else(|| a.downcast_ref::<AnnY>().map(|y| y.0.clone()))
            .or_else(|| a.downcast_ref::<AnnZ>().map(|z| z.0.clone()))
    };
    let found = match query {
        "*x" => anns.first::<AnnX>().map(|x| x.0.clone()),
        "*y" => anns.first::<AnnY>().map(|y| y.0.clone()),
        "*z" => anns.first::<AnnZ>().map(|z| z.0.clone()),
        // interface i: implemented by x and y
        "i" => anns
            .find(|a| a.is::<AnnX>() || a.is::<AnnY>())
            .and_then(|a| name(a.as_ref())),
        other => return Err(format!("bad query `{other}`")),
    };
    Ok(found.unwrap_or_else(|| "not found".into()))
}

enum LayoutRoot {
    Node(NodeId),
    Indent(String, String),
}

struct LayoutParser<'a> {
    s: &'a str,
    pos: usize,
    layout: Layout,
    vars: HashMap<String, NodeId>,
}

impl LayoutParser<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }
    fn ws(&mut self) {
        while self.rest().starts_with(' ') {
            self.pos += 1;
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.rest().starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<(), String> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected `{t}` at `{}`", self.rest()))
        }
    }
    fn word(&mut self) -> String {
        self.ws();
        let end = self
            .rest()
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(self.rest().len());
        let w = self.rest()[..end].to_string();
        self.pos += end;
        w
    }
    fn string(&mut self) -> Result<String, String> {
        self.expect("\"")?;
        let end = self.rest().find('"').ok_or("unterminated string")?;
        let v = self.rest()[..end].to_string();
        self.pos += end + 1;
        Ok(v)
    }
    fn node(&mut self) -> Result<NodeId, String> {
        self.ws();
        if self.rest().starts_with('"') {
            let s = self.string()?;
            return Ok(self.layout.text(s));
        }
        let w = self.word();
        match w.as_str() {
            "Object" => {
                self.expect("{")?;
                let id = self.layout.object(Vec::new());
                while !self.eat("}") {
                    let k = self.word();
                    self.expect(":")?;
                    let v = self.node()?;
                    self.layout.add_entry(id, k, v);
                    self.eat(",");
                }
                Ok(id)
            }
            "Wrap" => {
                self.expect("(")?;
                let (mut prefix, mut value, mut postfix, mut same) =
                    (String::new(), None, String::new(), false);
                let mut positional = 0;
                while !self.eat(")") {
                    self.ws();
                    if self.rest().starts_with("value ") {
                        self.word();
                        value = Some(self.node()?);
                    } else if self.rest().starts_with("postfix ") {
                        self.word();
                        postfix = self.string()?;
                    } else if self.rest().starts_with("same-line") {
                        self.word();
                        same = true;
                    } else {
                        match positional {
                            0 => prefix = self.string()?,
                            1 => value = Some(self.node()?),
                            _ => postfix = self.string()?,
                        }
                        positional += 1;
                    }
                    self.eat(",");
                }
                let v = value.ok_or("Wrap without value")?;
                Ok(self.layout.wrap(&prefix, v, &postfix, same))
            }
            "List" => {
                self.expect("(")?;
                let sep = self.string()?;
                let adjoin = self.eat(",") && self.word() == "adjoin";
                self.expect(")")?;
                self.expect("[")?;
                let mut items = Vec::new();
                while !self.eat("]") {
                    items.push(self.node()?);
                    self.eat(",");
                }
                Ok(self.layout.list(&sep, adjoin, items))
            }
            "" => Err(format!("unexpected `{}`", self.rest())),
            name => Ok(match self.vars.get(name) {
                Some(id) => *id,
                None => self.layout.text(name),
            }),
        }
    }
}

fn parse_layout(src: &str) -> Result<(Layout, LayoutRoot), String> {
    let src = if src == "both of the above" {
        "O = Object{foo: val1}; O.rec = O; O.mutRec = Object{rec: O}".to_string()
    } else {
        src.to_string()
    };
    if let Some(args) = src
        .strip_prefix("indent(")
        .and_then(|r| r.strip_suffix(')'))
    {
        let mut p = LayoutParser {
            s: args,
            pos: 0,
            layout: Layout::new(),
            vars: HashMap::new(),
        };
        let a = p.string()?;
        p.expect(",")?;
        let b = p.string()?;
        return Ok((Layout::new(), LayoutRoot::Indent(a, b)));
    }
    let mut root = None;
    let mut layout = Layout::new();
    let mut vars = HashMap::new();
    for stmt in src.split("; ") {
        let mut p = LayoutParser {
            s: stmt,
            pos: 0,
            layout,
            vars,
        };
        if let Some((lhs, _)) = stmt.split_once(" = ") {
            p.pos = lhs.len() + 3;
            let id = p.node()?;
            match lhs.split_once('.') {
                Some((obj, field)) => {
                    let o = *p.vars.get(obj).ok_or("unknown variable")?;
                    p.layout.add_entry(o, field, id);
                }
                None => {
                    p.vars.insert(lhs.to_string(), id);
                    root.get_or_insert(id);
                }
            }
        } else {
            root = Some(p.node()?);
        }
        layout = p.layout;
        vars = p.vars;
    }
    Ok((layout, LayoutRoot::Node(root.ok_or("empty formatter")?)))
}

fn read_tsv(path: &Path) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .ok_or("empty file")?
        .split('\t')
        .map(String::from)
        .collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    Ok((header, rows))
}

/// The reference corpus's vector files (`../shared/spec/vectors`).
const MIN_REFERENCE_FILES: usize = 18;
/// pcl's own vector files (`testdata/types/vectors`).
const MIN_OWN_FILES: usize = 6;
/// Rows of a full run (reference and own vectors): 999 when this was
/// written.
const MIN_ROWS: usize = 990;

struct Deviation {
    kind: String,
    source: String,
    column: String,
    used: bool,
}

fn load_deviations(path: &Path) -> Vec<Deviation> {
    let Ok((header, rows)) = read_tsv(path) else {
        return Vec::new();
    };
    let idx = |n: &str| header.iter().position(|h| h == n).unwrap_or(usize::MAX);
    let (k, s, c, r) = (idx("kind"), idx("source"), idx("column"), idx("reason"));
    rows.into_iter()
        .filter(|row| row.get(r).is_some_and(|x| !x.trim().is_empty()))
        .map(|row| Deviation {
            kind: row.get(k).cloned().unwrap_or_default(),
            source: row.get(s).cloned().unwrap_or_default(),
            column: row.get(c).cloned().unwrap_or_default(),
            used: false,
        })
        .collect()
}

fn tsv_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    Some(files)
}

/// Counts a failing row as passed when every failing column is covered by
/// a deviation, else as failed (listing the unexplained columns).
fn fails_or_deviates(
    fails: Vec<Failure>,
    kind: &str,
    source: &str,
    deviations: &mut [Deviation],
    failures: &mut Vec<String>,
    totals: (&mut usize, &mut usize, &mut usize),
    counts: &mut (usize, usize, usize, usize),
) {
    let (passed, failed, deviated) = totals;
    let mut unexplained = Vec::new();
    for (column, msg) in fails {
        let dev = deviations.iter_mut().find(|d| {
            // Exact rows only: a deviation names the columns that differ.
            d.kind == kind && d.source == source && d.column == column
        });
        match dev {
            Some(d) => d.used = true,
            None => unexplained.push(format!("{kind} {source} [{column}]: {msg}")),
        }
    }
    if unexplained.is_empty() {
        *passed += 1;
        *deviated += 1;
        counts.0 += 1;
        counts.3 += 1;
    } else {
        *failed += 1;
        counts.1 += 1;
        failures.extend(unexplained);
    }
}

fn main() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // `PCL_TYPE_VECTORS` names another directory of reference vectors; it
    // must hold some (a misspelt directory would otherwise run nothing).
    let chosen = std::env::var_os("PCL_TYPE_VECTORS").map(PathBuf::from);
    let dir = match &chosen {
        Some(d) => {
            let files = tsv_files(d).unwrap_or_default();
            println!(
                "type vectors: PCL_TYPE_VECTORS={} ({} files) instead of ../shared/spec/vectors",
                d.display(),
                files.len()
            );
            assert!(
                !files.is_empty(),
                "PCL_TYPE_VECTORS={} holds no *.tsv file",
                d.display()
            );
            Some(d.clone())
        }
        None => pcl_testkit::shared("spec/vectors", "type vectors"),
    };
    let mut files = dir.as_deref().and_then(tsv_files).unwrap_or_default();
    let reference_files = files.len();
    if chosen.is_none() && dir.is_some() {
        // The reference corpus has 26 vector files; fewer means it was
        // truncated.
        pcl_testkit::at_least(
            "reference vector files",
            reference_files,
            MIN_REFERENCE_FILES,
        );
    }
    // pcl's own vectors for the kinds the reference corpus has no file for:
    // they run whether or not the shared ones are there.
    let own = manifest.join("../../testdata/types/vectors");
    let own_files = tsv_files(&own).unwrap_or_default();
    pcl_testkit::at_least("pcl's own vector files", own_files.len(), MIN_OWN_FILES);
    files.extend(own_files);
    let dir = dir.unwrap_or_else(|| own.clone());
    let mut deviations = load_deviations(&manifest.join("../../testdata/types/deviations.tsv"));
    let binder = Binder::new(&dir, &manifest.join("../../testdata/schemas"));
    let (mut passed, mut failed, mut pending, mut deviated) = (0usize, 0usize, 0usize, 0usize);
    let mut per_file: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    for path in &files {
        let kind = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        let label = match path.parent() {
            Some(p) if p.ends_with("testdata/types/vectors") => format!("pcl/{kind}"),
            _ => kind.clone(),
        };
        let counts = per_file.entry(label).or_default();
        if !KNOWN_KINDS.contains(&kind.as_str()) {
            failed += 1;
            counts.1 += 1;
            failures.push(format!(
                "{kind}: unknown vector kind (file {})",
                path.display()
            ));
            continue;
        }
        let (header, rows) = match read_tsv(path) {
            Ok(x) => x,
            Err(e) => {
                failed += 1;
                counts.1 += 1;
                failures.push(format!("{kind}: cannot read: {e}"));
                continue;
            }
        };
        for cells in rows {
            let row: Row = header.iter().cloned().zip(cells.iter().cloned()).collect();
            let source = row.get("source").cloned().unwrap_or_default();
            let outcome = if cells.len() != header.len() {
                Outcome::Fail(
                    "*".into(),
                    format!("{} cells, header has {}", cells.len(), header.len()),
                )
            } else {
                let run = std::panic::AssertUnwindSafe(|| eval(&kind, &row, &binder));
                match std::panic::catch_unwind(run) {
                    Ok(Ok(o)) => o,
                    Ok(Err(e)) => Outcome::Fail("*".into(), e),
                    Err(_) => Outcome::Fail("*".into(), "panicked".into()),
                }
            };
            match outcome {
                Outcome::Pass => {
                    passed += 1;
                    counts.0 += 1;
                }
                Outcome::Pending => {
                    pending += 1;
                    counts.2 += 1;
                }
                Outcome::Fail(column, msg) => fails_or_deviates(
                    vec![(column, msg)],
                    &kind,
                    &source,
                    &mut deviations,
                    &mut failures,
                    (&mut passed, &mut failed, &mut deviated),
                    counts,
                ),
                Outcome::Fails(fails) => fails_or_deviates(
                    fails,
                    &kind,
                    &source,
                    &mut deviations,
                    &mut failures,
                    (&mut passed, &mut failed, &mut deviated),
                    counts,
                ),
            }
        }
    }
    for (kind, (p, f, q, d)) in &per_file {
        println!("{kind}: {p} passed ({d} by deviation), {f} failed, {q} pending");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    // A deviation that no longer differs is stale: the list must say
    // exactly where pcl differs. Only a run over the reference corpus can
    // tell (the rows it names come from there).
    let full_run = chosen.is_none() && reference_files > 0;
    let mut stale = 0usize;
    for d in deviations.iter().filter(|d| !d.used) {
        if full_run {
            stale += 1;
            println!(
                "FAIL stale deviation {} {} [{}]: the row no longer differs; remove it from testdata/types/deviations.tsv",
                d.kind, d.source, d.column
            );
        } else {
            println!(
                "note: deviation {} {} [{}] not exercised (not a run over ../shared/spec/vectors)",
                d.kind, d.source, d.column
            );
        }
    }
    println!("deviations applied: {deviated} (testdata/types/deviations.tsv)");
    let total = passed + failed + pending;
    if full_run {
        pcl_testkit::at_least("type vector rows", total, MIN_ROWS);
    }
    println!("type vectors: {passed} passed, {failed} failed, {pending} pending");
    if failed > 0 || stale > 0 {
        std::process::exit(1);
    }
}

// ---------------------------------------------------------------------------
// The binder backend: `literal`, `expr`, `expr-env` (pcl_expr) and
// `program-typing` (pcl_binder).

use pcl_expr::{
    bind_expr, BindContext, Definition, EmptyEnvironment, ExprOptions, Function, Scope, Signature,
};
use pcl_schema::{CachingLoader, DirLoader};

struct Binder {
    /// The scopes of `expr-env.tsv`, by `env` name.
    envs: HashMap<String, Scope>,
    loader: CachingLoader<DirLoader>,
}

impl Binder {
    /// Builds the scopes from `dir/expr-env.tsv` (rows that do not parse
    /// are left out; their own row fails) and a loader over `schemas`.
    fn new(dir: &Path, schemas: &Path) -> Binder {
        let mut envs: HashMap<String, Scope> = HashMap::new();
        if let Ok((header, rows)) = read_tsv(&dir.join("expr-env.tsv")) {
            for cells in rows {
                let row: Row = header.iter().cloned().zip(cells).collect();
                let (Some(env), Ok(entry)) = (row.get("env"), env_entry(&row)) else {
                    continue;
                };
                let scope = envs.entry(env.clone()).or_insert_with(Scope::empty);
                // A duplicate keeps the first entry; its row still passes
                // because the name is in scope.
                match entry {
                    EnvEntry::Variable(name, t) => {
                        let _ = scope.define(name.clone(), Definition::variable(name, t), false);
                    }
                    EnvEntry::Function(name, sig) => {
                        let _ = scope.define_function(name, Function::Static(Arc::new(sig)));
                    }
                }
            }
        }
        Binder {
            envs,
            loader: CachingLoader::new(DirLoader::new([schemas.to_path_buf()])),
        }
    }
}

enum EnvEntry {
    Variable(String, Type),
    Function(String, Signature),
}

fn env_entry(row: &Row) -> Result<EnvEntry, String> {
    let name = col(row, "name")?.to_string();
    let cell = col(row, "type")?;
    match col(row, "entry")? {
        "variable" => Ok(EnvEntry::Variable(name, ty(cell)?)),
        "function" => Ok(EnvEntry::Function(name, Signature::parse(cell)?)),
        other => Err(format!("unknown entry kind `{other}`")),
    }
}

impl BinderBackend for Binder {
    fn evaluate(&self, kind: &str, row: &Row) -> Outcome {
        let fails = match kind {
            "expr-env" => self.eval_env(row),
            "literal" => eval_literal(row),
            "expr" => self.eval_expr(row),
            "program-typing" => self.eval_program(row),
            // A binder kind without an evaluator yet.
            _ => return Outcome::Pending,
        };
        match fails {
            Ok(fails) if fails.is_empty() => Outcome::Pass,
            Ok(fails) => Outcome::Fails(fails),
            Err(e) => Outcome::Fail("*".into(), e),
        }
    }
}

/// `severity: summary [detail: …]`, the vector form of a diagnostic.
fn diag_strings(diags: &[pcl_diagnostics::Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let mut s = format!("{}: {}", d.severity, d.summary);
            if let Some(detail) = d.detail() {
                s.push_str(&format!(" [detail: {detail}]"));
            }
            s
        })
        .collect()
}

/// Splits a diagnostics cell before each `; error: ` / `; warning: `.
fn split_diags(cell: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = cell;
    loop {
        let next = ["; error: ", "; warning: "]
            .iter()
            .filter_map(|sep| rest.find(sep))
            .min();
        match next {
            Some(i) => {
                out.push(rest[..i].to_string());
                rest = &rest[i + 2..];
            }
            None => {
                out.push(rest.to_string());
                return out;
            }
        }
    }
}

fn compare_diags(expected: &str, got: &[pcl_diagnostics::Diagnostic]) -> Option<Failure> {
    let got_s = diag_strings(got);
    let ok = match expected {
        "-" => got.is_empty(),
        "+" => got.iter().any(|d| d.is_error()),
        cell => {
            // Names in backticks (`names-in-backticks`), as in `Check::text`.
            let same = |v: Vec<String>| -> Vec<String> {
                v.iter().map(|s| pcl_testkit::without_quotes(s)).collect()
            };
            same(split_diags(&unescape(cell))) == same(got_s.clone())
        }
    };
    (!ok).then(|| {
        (
            "diagnostics".to_string(),
            format!("expected {expected:?}, got {got_s:?}"),
        )
    })
}

fn compare_type(column: &str, expected: &str, got: &Type) -> Option<Failure> {
    if expected.is_empty() {
        return None;
    }
    match ty(expected) {
        Ok(t) if t.equals(got) => None,
        Ok(_) => Some((
            column.into(),
            format!("expected {expected}, got {}", to_notation(got)),
        )),
        Err(e) => Some((column.into(), e)),
    }
}

struct BoundText {
    kind: &'static str,
    ty: Type,
    diagnostics: Vec<pcl_diagnostics::Diagnostic>,
}

/// Parses and binds one expression in `scope` (no builtins).
fn bind_text(text: &str, scope: &Scope) -> Result<BoundText, Failure> {
    let file = pcl_diagnostics::FileId(0);
    let parsed = pcl_syntax::parse_expr(file, text);
    if parsed.has_errors() {
        return Err((
            "*".into(),
            format!("parse errors: {:?}", diag_strings(parsed.diagnostics())),
        ));
    }
    let options = ExprOptions::default();
    let env = EmptyEnvironment;
    let mut cx = BindContext::new(file, &env, &options);
    let bound = bind_expr(parsed.expr(), scope, &mut cx);
    if let Some(d) = cx.diagnostics().iter().find(|d| d.span.range.is_empty()) {
        return Err((
            "*".into(),
            format!("diagnostic with an empty range: {}", d.summary),
        ));
    }
    Ok(BoundText {
        kind: bound.kind_name(),
        ty: bound.ty().clone(),
        diagnostics: cx.take_diagnostics(),
    })
}

fn eval_literal(row: &Row) -> Result<Vec<Failure>, String> {
    let b = match bind_text(&unescape(col(row, "text")?), &Scope::empty()) {
        Ok(b) => b,
        Err(f) => return Ok(vec![f]),
    };
    let mut fails = Vec::new();
    let kind = col(row, "kind")?;
    if b.kind != kind {
        fails.push(("kind".into(), format!("expected {kind}, got {}", b.kind)));
    }
    fails.extend(compare_type("type", col(row, "type")?, &b.ty));
    let sf = unescape(col(row, "string_form")?);
    if !sf.is_empty() && pcl_types::print::reference_string(&b.ty) != sf {
        fails.push((
            "string_form".into(),
            format!(
                "expected {sf}, got {}",
                pcl_types::print::reference_string(&b.ty)
            ),
        ));
    }
    let pr = unescape(col(row, "pretty")?);
    if !pr.is_empty() && pretty(&b.ty) != pr {
        fails.push((
            "pretty".into(),
            format!("expected {pr}, got {}", pretty(&b.ty)),
        ));
    }
    fails.extend(compare_diags(col(row, "diagnostics")?, &b.diagnostics));
    Ok(fails)
}

impl Binder {
    fn eval_env(&self, row: &Row) -> Result<Vec<Failure>, String> {
        let entry = match env_entry(row) {
            Ok(e) => e,
            Err(e) => return Ok(vec![("type".into(), e)]),
        };
        let env = col(row, "env")?;
        let name = col(row, "name")?;
        let defined = self.envs.get(env).is_some_and(|scope| match entry {
            EnvEntry::Variable(..) => scope.lookup(name).is_some(),
            EnvEntry::Function(..) => scope.lookup_function(name).is_some(),
        });
        Ok(if defined {
            Vec::new()
        } else {
            vec![("name".into(), format!("`{name}` is not in scope `{env}`"))]
        })
    }

    fn eval_expr(&self, row: &Row) -> Result<Vec<Failure>, String> {
        let scope = match col(row, "env")? {
            "-" => Scope::empty(),
            name => match self.envs.get(name) {
                Some(s) => s.clone(),
                None => return Ok(vec![("env".into(), format!("unknown environment {name}"))]),
            },
        };
        let b = match bind_text(&unescape(col(row, "expr")?), &scope) {
            Ok(b) => b,
            Err(f) => return Ok(vec![f]),
        };
        let mut fails = Vec::new();
        let kind = col(row, "kind")?;
        if !kind.is_empty() && b.kind != kind {
            fails.push(("kind".into(), format!("expected {kind}, got {}", b.kind)));
        }
        fails.extend(compare_type("type", col(row, "type")?, &b.ty));
        fails.extend(compare_diags(col(row, "diagnostics")?, &b.diagnostics));
        let conv = col(row, "convertible_to")?;
        if !conv.is_empty() {
            match ty(conv) {
                Ok(dest) => {
                    let k = conversion_from(&dest, &b.ty);
                    if k != ConversionKind::Safe {
                        fails.push((
                            "convertible_to".into(),
                            format!("{conv} <- {} is {}", to_notation(&b.ty), k.as_str()),
                        ));
                    }
                }
                Err(e) => fails.push(("convertible_to".into(), e)),
            }
        }
        Ok(fails)
    }

    fn eval_program(&self, row: &Row) -> Result<Vec<Failure>, String> {
        let sources = vec![("main.pp".to_string(), unescape(col(row, "program")?))];
        let policy = pcl_binder::BindPolicy::strict();
        let checked = pcl_binder::check_program(&sources, &self.loader, &policy);
        let mut fails = Vec::new();
        let node = col(row, "node")?;
        if !node.is_empty() {
            match checked.value().find(node) {
                Some(n) => fails.extend(compare_type("type", col(row, "type")?, &n.ty)),
                None => fails.push(("node".into(), format!("no top-level node `{node}`"))),
            }
        }
        fails.extend(compare_diags(
            col(row, "diagnostics")?,
            checked.diagnostics(),
        ));
        Ok(fails)
    }
}
