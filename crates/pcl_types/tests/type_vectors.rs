//! The type-vector harness: runs every `*.tsv` in `shared/spec/vectors` (or
//! the directory named by `PCL_TYPE_VECTORS`) against `pcl_types`.
//!
//! Each file's kind is its name. Every kind of `vectors/README.md` §3 has an
//! evaluator here; kinds that need expression binding (`literal`, `expr`,
//! `expr-env`, `program-typing`) go through [`BinderBackend`], which reports
//! `pending` until the binder plugs in. Unknown kinds and unparsable rows
//! are failures. Rows listed in `testdata/types/deviations.tsv` may fail
//! (each says which reference defect pcl fixes); a listed row that passes is
//! reported so the list stays honest.
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

enum Outcome {
    Pass,
    Fail(String, String),
    Pending,
}

/// Expression-binding kinds are delegated here. The binder will implement
/// this trait; until then every row is pending.
trait BinderBackend {
    fn evaluate(&self, kind: &str, row: &Row) -> Outcome;
}

struct NoBinder;

impl BinderBackend for NoBinder {
    fn evaluate(&self, _kind: &str, _row: &Row) -> Outcome {
        Outcome::Pending
    }
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
    fn text(&mut self, column: &str, got: &str, want: &str) {
        if got != want {
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
        return Ok(Traverser::Attr(name.to_string()));
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
                c.text("string_form", &t.to_string(), &unescape(s));
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
                &r.ty.to_string(),
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

fn main() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = match std::env::var_os("PCL_TYPE_VECTORS") {
        Some(d) => PathBuf::from(d),
        None => manifest.join("../../../shared/spec/vectors"),
    };
    let Some(mut files) = tsv_files(&dir) else {
        println!(
            "type vectors: corpus not found at {}; skipping",
            dir.display()
        );
        println!("type vectors: 0 passed, 0 failed, 0 pending");
        return;
    };
    // pcl's own vectors for the kinds the reference corpus has no file for.
    let own = manifest.join("../../testdata/types/vectors");
    files.extend(tsv_files(&own).unwrap_or_default());
    let mut deviations = load_deviations(&manifest.join("../../testdata/types/deviations.tsv"));
    let binder = NoBinder;
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
                match std::panic::catch_unwind(|| eval(&kind, &row, &binder)) {
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
                Outcome::Fail(column, msg) => {
                    let dev = deviations.iter_mut().find(|d| {
                        d.kind == kind
                            && (d.source == "*" || d.source == source)
                            && (d.column == "*" || d.column == column)
                    });
                    if let Some(d) = dev {
                        d.used = true;
                        passed += 1;
                        deviated += 1;
                        counts.0 += 1;
                        counts.3 += 1;
                    } else {
                        failed += 1;
                        counts.1 += 1;
                        failures.push(format!("{kind} {source} [{column}]: {msg}"));
                    }
                }
            }
        }
    }
    for (kind, (p, f, q, d)) in &per_file {
        println!("{kind}: {p} passed ({d} by deviation), {f} failed, {q} pending");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    for d in deviations.iter().filter(|d| !d.used) {
        println!(
            "note: deviation {} {} [{}] was not needed",
            d.kind, d.source, d.column
        );
    }
    println!("deviations applied: {deviated} (testdata/types/deviations.tsv)");
    println!("type vectors: {passed} passed, {failed} failed, {pending} pending");
    if failed > 0 {
        std::process::exit(1);
    }
}
