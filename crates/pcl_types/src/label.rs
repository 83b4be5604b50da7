//! Config and output type labels (types.md §1.16): `config names
//! "list(string)" {}`.
//!
//! The label's text is an HCL expression bound in a tiny scope: variables
//! `any` (= `dynamic`), `string`, `number`, `int`, `bool`; functions `list`,
//! `set`, `map`, `object`, `tuple`, `optional`; object constructions
//! `{a = string}` and tuple constructions `[string, int]`; literals give
//! literal types. This module has its own small reader for that subset so the
//! crate stays independent of the parser. It never panics; every diagnostic
//! carries a byte range relative to the label text (or none for "the whole
//! label"). One deliberate difference: the reference's message
//! `the argument to tuple() must be an tuple type` is spelled correctly here.

use std::sync::Arc;

use pcl_diagnostics::TextRange;

use crate::error::{codes, TypeDiagnostic};
use crate::object::Properties;
use crate::ty::{Type, TypeKind};
use crate::unify::unify_types_safe;
use crate::value::{Number, Value};
use crate::MAX_TYPE_DEPTH;

/// The type a label denotes and the problems found.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelResult {
    pub ty: Type,
    pub diagnostics: Vec<TypeDiagnostic>,
}

enum Expr {
    Var(String, TextRange),
    Call(String, TextRange, Vec<Expr>, TextRange),
    Literal(Value),
    Template,
    Object(Vec<(Key, Expr)>),
    Tuple(Vec<Expr>),
    Error,
}

enum Key {
    Literal(String),
    Computed(Expr),
}

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
    diags: Vec<TypeDiagnostic>,
}

fn range(a: usize, b: usize) -> TextRange {
    TextRange::new(a as u32, b as u32)
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn skip_ws(&mut self) {
        loop {
            let r = self.rest();
            let t = r.trim_start_matches([' ', '\t', '\n', '\r']);
            self.pos += r.len() - t.len();
            if t.starts_with('#') || t.starts_with("//") {
                let end = t.find('\n').unwrap_or(t.len());
                self.pos += end;
                continue;
            }
            return;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Records a syntax error; only the first one of a label is kept (the
    /// rest follow from it, e.g. one per unclosed level after "nested too
    /// deeply"), and the label becomes `dynamic`.
    fn error(&mut self, msg: &str) -> Expr {
        if !self.diags.is_empty() {
            return Expr::Error;
        }
        let end =
            (self.pos + self.rest().chars().next().map_or(0, char::len_utf8)).min(self.src.len());
        self.diags.push(
            TypeDiagnostic::error(
                codes::INVALID_TYPE_LABEL,
                format!("invalid type label: {msg}"),
            )
            .with_range(range(self.pos, end)),
        );
        Expr::Error
    }

    fn ident(&mut self) -> Option<(String, TextRange)> {
        self.skip_ws();
        let r = self.rest();
        let mut it = r.char_indices();
        match it.next() {
            Some((_, c)) if c == '_' || unicode_ident::is_xid_start(c) => {}
            _ => return None,
        }
        let end = it
            .find(|(_, c)| !(*c == '-' || unicode_ident::is_xid_continue(*c)))
            .map_or(r.len(), |(i, _)| i);
        let name = r.get(..end)?.to_string();
        let start = self.pos;
        self.pos += end;
        Some((name, range(start, self.pos)))
    }

    fn expr(&mut self) -> Expr {
        self.depth += 1;
        let e = if self.depth > MAX_TYPE_DEPTH {
            self.error("nested too deeply")
        } else {
            self.primary()
        };
        self.depth -= 1;
        e
    }

    fn primary(&mut self) -> Expr {
        match self.peek() {
            Some('"') => self.string(),
            Some('{') => self.object(),
            Some('[') => {
                self.pos += 1;
                let items = self.items(']');
                Expr::Tuple(items)
            }
            Some('(') => {
                self.pos += 1;
                let e = self.expr();
                if !self.eat(')') {
                    return self.error("expected `)`");
                }
                e
            }
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            _ => {
                let Some((name, r)) = self.ident() else {
                    return self.error("expected a type");
                };
                match name.as_str() {
                    "null" => return Expr::Literal(Value::Null),
                    "true" => return Expr::Literal(Value::Bool(true)),
                    "false" => return Expr::Literal(Value::Bool(false)),
                    _ => {}
                }
                if self.peek() == Some('(') {
                    self.pos += 1;
                    let args = self.items(')');
                    let whole = range(r.start as usize, self.pos);
                    Expr::Call(name, r, args, whole)
                } else {
                    Expr::Var(name, r)
                }
            }
        }
    }

    fn items(&mut self, close: char) -> Vec<Expr> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return items;
            }
            if self.peek().is_none() {
                self.error(&format!("expected `{close}`"));
                return items;
            }
            let before = self.pos;
            items.push(self.expr());
            if self.eat(',') {
                continue;
            }
            if self.eat(close) {
                return items;
            }
            if self.pos == before || self.peek().is_some() {
                self.error(&format!("expected `,` or `{close}`"));
                // skip one character to make progress
                let step = self.rest().chars().next().map_or(0, char::len_utf8);
                self.pos += step;
                if step == 0 {
                    return items;
                }
            }
        }
    }

    fn number(&mut self) -> Expr {
        let r = self.rest();
        let end = r
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))
            .map_or(r.len(), |(i, _)| i);
        let text = r.get(..end).unwrap_or("");
        match Number::parse(text) {
            Some(n) => {
                self.pos += end;
                Expr::Literal(Value::Number(n))
            }
            None => self.error("invalid number"),
        }
    }

    fn string(&mut self) -> Expr {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                self.pos = start;
                return self.error("unterminated string");
            };
            self.pos += c.len_utf8();
            match c {
                '"' => break,
                '\\' => {
                    if let Some(e) = self.rest().chars().next() {
                        self.pos += e.len_utf8();
                        out.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            other => other,
                        });
                    }
                }
                c => out.push(c),
            }
        }
        if out.contains("${") || out.contains("%{") {
            return Expr::Template;
        }
        Expr::Literal(Value::string(out))
    }

    fn object(&mut self) -> Expr {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            if self.eat('}') {
                return Expr::Object(items);
            }
            if self.peek().is_none() {
                return self.error("expected `}`");
            }
            let key = match self.peek() {
                Some('(') => {
                    self.pos += 1;
                    let e = self.expr();
                    if !self.eat(')') {
                        return self.error("expected `)`");
                    }
                    Key::Computed(e)
                }
                Some('"') => match self.string() {
                    Expr::Literal(v) => Key::Literal(v.to_key_string().unwrap_or_default()),
                    e => Key::Computed(e),
                },
                Some(c) if c == '-' || c.is_ascii_digit() => match self.number() {
                    Expr::Literal(v) => Key::Literal(v.to_key_string().unwrap_or_default()),
                    e => Key::Computed(e),
                },
                _ => match self.ident() {
                    Some((name, _)) => Key::Literal(name),
                    None => return self.error("expected a property name"),
                },
            };
            if !(self.eat('=') || self.eat(':')) {
                return self.error("expected `=` or `:`");
            }
            let value = self.expr();
            items.push((key, value));
            let _ = self.eat(',');
        }
    }
}

struct Binder {
    diags: Vec<TypeDiagnostic>,
}

fn arity_error(n: usize, whole: TextRange) -> TypeDiagnostic {
    if n == 0 {
        TypeDiagnostic::error(
            codes::MISSING_ARGUMENT,
            "missing required parameter `elementType`",
        )
        .with_range(whole)
    } else {
        TypeDiagnostic::error(
            codes::TOO_MANY_ARGUMENTS,
            format!("too many arguments to call: expected 1, got {n}"),
        )
        .with_range(whole)
    }
}

impl Binder {
    fn bind(&mut self, e: &Expr) -> Type {
        match e {
            Expr::Error => Type::dynamic(),
            Expr::Template => Type::string(),
            // Quoted strings are templates: type `string`, never const.
            Expr::Literal(Value::String(_)) => Type::string(),
            Expr::Literal(v) => Type::literal(v.clone()),
            Expr::Var(name, r) => match name.as_str() {
                "any" => Type::dynamic(),
                "string" => Type::string(),
                "number" => Type::number(),
                "int" => Type::int(),
                "bool" => Type::bool(),
                _ => {
                    self.diags.push(
                        TypeDiagnostic::error(
                            codes::UNDEFINED_VARIABLE,
                            format!("undefined variable `{name}`"),
                        )
                        .with_range(*r),
                    );
                    Type::dynamic()
                }
            },
            Expr::Tuple(items) => {
                Type::tuple(items.iter().map(|i| self.bind(i)).collect::<Vec<_>>())
            }
            Expr::Object(items) => {
                let mut literal = true;
                let mut props = Properties::default();
                let mut values = Vec::new();
                for (k, v) in items {
                    let vt = self.bind(v);
                    match k {
                        Key::Literal(name) => {
                            props.insert(Arc::from(name.as_str()), vt.clone());
                        }
                        Key::Computed(ke) => {
                            let _ = self.bind(ke);
                            literal = false;
                        }
                    }
                    values.push(vt);
                }
                if literal {
                    Type::object(props)
                } else {
                    Type::map(unify_types_safe(&values))
                }
            }
            Expr::Call(name, name_range, args, whole) => self.call(name, *name_range, args, *whole),
        }
    }

    fn call(&mut self, name: &str, name_range: TextRange, args: &[Expr], whole: TextRange) -> Type {
        let arg_types: Vec<Type> = args.iter().map(|a| self.bind(a)).collect();
        if !matches!(
            name,
            "list" | "set" | "map" | "object" | "tuple" | "optional"
        ) {
            self.diags.push(
                TypeDiagnostic::error(
                    codes::UNKNOWN_FUNCTION,
                    format!("unknown function `{name}`"),
                )
                .with_range(name_range),
            );
            return Type::dynamic();
        }
        if name == "optional" && arg_types.len() != 1 {
            self.diags.push(TypeDiagnostic::error(
                codes::OPTIONAL_ARITY,
                "optional() requires exactly one argument",
            ));
        }
        let [arg] = arg_types.as_slice() else {
            self.diags.push(arity_error(arg_types.len(), whole));
            return Type::dynamic();
        };
        let arg_range = args.first().map(|_| whole);
        match name {
            "list" => Type::list(arg.clone()),
            "set" => Type::set(arg.clone()),
            "map" => Type::map(arg.clone()),
            "optional" => Type::optional(arg.clone()),
            "object" => {
                if matches!(arg.kind(), TypeKind::Object(_)) {
                    arg.clone()
                } else {
                    let mut d = TypeDiagnostic::error(
                        codes::OBJECT_TYPE_ARGUMENT,
                        "the argument to object() must be an object type",
                    );
                    d.range = arg_range;
                    self.diags.push(d);
                    Type::dynamic()
                }
            }
            _ => {
                if matches!(arg.kind(), TypeKind::Tuple(_)) {
                    arg.clone()
                } else {
                    let mut d = TypeDiagnostic::error(
                        codes::TUPLE_TYPE_ARGUMENT,
                        "the argument to tuple() must be a tuple type",
                    );
                    d.range = arg_range;
                    self.diags.push(d);
                    Type::dynamic()
                }
            }
        }
    }
}

/// Binds the text of a config/output type label (without its quotes).
pub fn bind_type_label(text: &str) -> LabelResult {
    let mut r = Reader {
        src: text,
        pos: 0,
        depth: 0,
        diags: Vec::new(),
    };
    let e = r.expr();
    if r.peek().is_some() && r.diags.is_empty() {
        r.error("unexpected text after the type");
    }
    if !r.diags.is_empty() {
        return LabelResult {
            ty: Type::dynamic(),
            diagnostics: r.diags,
        };
    }
    let mut b = Binder { diags: Vec::new() };
    let ty = b.bind(&e);
    LabelResult {
        ty,
        diagnostics: b.diags,
    }
}

/// The pcl binder's post-processing of a two-label `config` type: a top-level
/// object, or the element object of a `list(object)` / `map(object)`, gets
/// every non-optional property made optional (one level deep).
pub fn config_type(t: &Type) -> Type {
    fn optionalise(o: &Type) -> Type {
        match o.as_object() {
            Some(def) => {
                let props: Properties = def
                    .properties()
                    .iter()
                    .map(|(k, v)| (k.clone(), Type::optional(v.clone())))
                    .collect();
                Type::object_with(props, def.options())
            }
            None => o.clone(),
        }
    }
    match t.kind() {
        TypeKind::Object(_) => optionalise(t),
        TypeKind::List(e) if e.as_object().is_some() => Type::list(optionalise(e)),
        TypeKind::Map(e) if e.as_object().is_some() => Type::map(optionalise(e)),
        _ => t.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> String {
        let r = bind_type_label(text);
        let d: Vec<String> = r.diagnostics.iter().map(|d| d.summary.clone()).collect();
        format!("{} {:?}", crate::notation::to_notation(&r.ty), d)
    }

    #[test]
    fn labels() {
        assert_eq!(
            s("list(object({a=string, b=list(int)}))"),
            "list(object({a = string, b = list(int)})) []"
        );
        assert_eq!(s("{\"a-b\" = int}"), "object({a-b = int}) []");
        assert_eq!(s("list(5)"), "list(const(int, 5)) []");
        assert_eq!(
            s("{(x) = string}"),
            "map(string) [\"undefined variable `x`\"]"
        );
        assert_eq!(s("foo"), "dynamic [\"undefined variable `foo`\"]");
        assert!(s("list(").contains("invalid type label"));
        assert!(s(&"list(".repeat(1000)).contains("invalid type label"));
    }

    #[test]
    fn ranges_are_relative() {
        let r = bind_type_label("list(foo)");
        assert_eq!(r.diagnostics[0].range, Some(TextRange::new(5, 8)));
    }

    #[test]
    fn config_optional() {
        let t = bind_type_label("list(object({a=string, b=optional(int)}))").ty;
        assert_eq!(
            config_type(&t).to_string(),
            "list(object({a = union(none, string), b = union(int, none)}))"
        );
    }
}
