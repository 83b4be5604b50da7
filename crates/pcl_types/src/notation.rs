//! The type notation of `vectors/README.md` §1: a reader (`Type::from_str`)
//! and a writer ([`to_notation`]). Print-then-parse gives back an equal type.
//!
//! The reader is not normalising: it builds exactly the written type
//! (unions keep their element order). Recursive types are written
//! `rec($X, object({…}))` with `$X` standing for the whole type; the reader
//! builds them as deferred objects, the writer finds objects that re-enter
//! themselves and names them `$T1`, `$T2`, … . The reader is used on test
//! data and user input: it never panics and limits nesting to
//! [`MAX_TYPE_DEPTH`].

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::eventual::{input_type, resolve_outputs, resolve_promises};
use crate::object::{Annotation, Annotations, ObjectOptions, Properties};
use crate::ty::{Type, TypeKind};
use crate::value::{json_quote, Number, Value};
use crate::MAX_TYPE_DEPTH;

/// The annotation the reader attaches for `annotated`.
#[derive(Debug)]
pub struct NotationAnnotation;

/// A notation syntax error at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for NotationError {}

const RESERVED: &[&str] = &[
    "none",
    "bool",
    "int",
    "number",
    "string",
    "id",
    "dynamic",
    "list",
    "map",
    "set",
    "tuple",
    "object",
    "union",
    "promise",
    "output",
    "const",
    "enum",
    "rec",
    "opaque",
    "annotated",
    "nonstrict",
    "true",
    "false",
    "null",
    "unknown",
];

const FUNCTIONS: &[&str] = &["InputType", "ResolveOutputs", "ResolvePromises"];

enum Node {
    Builtin(Type),
    Opaque(String),
    Wrap(&'static str, Box<Node>),
    Tuple(Vec<Node>),
    Object(Vec<(String, Node)>, bool, bool),
    Union(Vec<Node>, bool),
    Const(Box<Node>, Value),
    Enum(String, Box<Node>, Vec<Value>),
    Rec(String, Box<Node>),
    Var(String, usize),
    Func(String, Box<Node>),
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

type PResult<T> = Result<T, NotationError>;

impl<'a> Parser<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(NotationError {
            offset: self.pos,
            message: msg.into(),
        })
    }

    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start_matches([' ', '\t', '\n', '\r']);
        self.pos = self.src.len() - trimmed.len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> PResult<()> {
        if self.eat(s) {
            Ok(())
        } else {
            self.err(format!("expected `{s}`"))
        }
    }

    fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let rest = self.rest();
        let mut chars = rest.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
            _ => return None,
        }
        let end = chars
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
            .map_or(rest.len(), |(i, _)| i);
        let w = rest.get(..end)?;
        self.pos += end;
        Some(w)
    }

    fn string(&mut self) -> PResult<String> {
        self.skip_ws();
        if !self.eat("\"") {
            return self.err("expected a string");
        }
        let mut out = String::new();
        loop {
            let mut chars = self.rest().chars();
            let Some(c) = chars.next() else {
                return self.err("unterminated string");
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.rest().chars().next() else {
                        return self.err("unterminated escape");
                    };
                    self.pos += e.len_utf8();
                    match e {
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        '/' => out.push('/'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi)
                                && self.rest().starts_with("\\u")
                            {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3ff)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(ch) => out.push(ch),
                                None => return self.err("invalid \\u escape"),
                            }
                        }
                        _ => return self.err("invalid escape"),
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> PResult<u32> {
        let h = self.rest().get(..4).unwrap_or("");
        match u32::from_str_radix(h, 16) {
            Ok(v) if h.len() == 4 => {
                self.pos += 4;
                Ok(v)
            }
            _ => self.err("expected four hex digits"),
        }
    }

    fn value(&mut self) -> PResult<Value> {
        match self.peek() {
            Some('"') => Ok(Value::string(self.string()?)),
            Some(c) if c == '-' || c.is_ascii_digit() => {
                let rest = self.rest();
                let end = rest
                    .char_indices()
                    .find(|(_, c)| {
                        !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
                    })
                    .map_or(rest.len(), |(i, _)| i);
                let text = rest.get(..end).unwrap_or("");
                match Number::parse(text) {
                    Some(n) => {
                        self.pos += end;
                        Ok(Value::Number(n))
                    }
                    None => self.err(format!("invalid number `{text}`")),
                }
            }
            _ => match self.word() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                Some("null") => Ok(Value::Null),
                Some("unknown") => Ok(Value::Unknown),
                _ => self.err("expected a value"),
            },
        }
    }

    fn ty(&mut self) -> PResult<Node> {
        self.depth += 1;
        if self.depth > MAX_TYPE_DEPTH {
            return self.err("type nests too deeply");
        }
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn list_of_types(&mut self) -> PResult<Vec<Node>> {
        let mut items = Vec::new();
        if self.peek() == Some(')') {
            return Ok(items);
        }
        loop {
            items.push(self.ty()?);
            if !self.eat(",") {
                return Ok(items);
            }
        }
    }

    fn ty_inner(&mut self) -> PResult<Node> {
        if self.eat("$") {
            let at = self.pos;
            let Some(name) = self.word() else {
                return self.err("expected a variable name after `$`");
            };
            return Ok(Node::Var(name.to_string(), at));
        }
        let start = self.pos;
        let Some(word) = self.word() else {
            return self.err("expected a type");
        };
        let b = |t: Type| Ok(Node::Builtin(t));
        match word {
            "none" => return b(Type::none()),
            "bool" => return b(Type::bool()),
            "int" => return b(Type::int()),
            "number" => return b(Type::number()),
            "string" => return b(Type::string()),
            "id" => return b(Type::id()),
            "dynamic" => return b(Type::dynamic()),
            _ => {}
        }
        let is_call = self.peek() == Some('(');
        if !is_call {
            if RESERVED.contains(&word) {
                self.pos = start;
                return self.err(format!("`{word}` is reserved"));
            }
            return Ok(Node::Opaque(word.to_string()));
        }
        self.expect("(")?;
        let node = match word {
            "opaque" => Node::Opaque(self.string()?),
            "list" | "map" | "set" | "promise" | "output" => {
                let kind = match word {
                    "list" => "list",
                    "map" => "map",
                    "set" => "set",
                    "promise" => "promise",
                    _ => "output",
                };
                Node::Wrap(kind, Box::new(self.ty()?))
            }
            "tuple" => Node::Tuple(self.list_of_types()?),
            "union" => {
                let mut items = Vec::new();
                let mut annotated = false;
                if self.peek() != Some(')') {
                    loop {
                        let save = self.pos;
                        if self.word() == Some("annotated") && self.peek() == Some(')') {
                            annotated = true;
                            break;
                        }
                        self.pos = save;
                        items.push(self.ty()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                Node::Union(items, annotated)
            }
            "object" => {
                self.expect("{")?;
                let mut props = Vec::new();
                if self.peek() != Some('}') {
                    loop {
                        let key = if self.peek() == Some('"') {
                            self.string()?
                        } else {
                            self.bare_key()?
                        };
                        self.expect("=")?;
                        props.push((key, self.ty()?));
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                self.expect("}")?;
                let (mut annotated, mut nonstrict) = (false, false);
                while self.eat(",") {
                    match self.word() {
                        Some("annotated") if !annotated && !nonstrict => annotated = true,
                        Some("nonstrict") if !nonstrict => nonstrict = true,
                        _ => return self.err("expected `annotated` or `nonstrict`"),
                    }
                }
                Node::Object(props, annotated, nonstrict)
            }
            "const" => {
                let t = self.ty()?;
                self.expect(",")?;
                Node::Const(Box::new(t), self.value()?)
            }
            "enum" => {
                let token = self.string()?;
                self.expect(",")?;
                let t = self.ty()?;
                let mut values = Vec::new();
                while self.eat(",") {
                    values.push(self.value()?);
                }
                Node::Enum(token, Box::new(t), values)
            }
            "rec" => {
                self.expect("$")?;
                let Some(name) = self.word() else {
                    return self.err("expected a variable name");
                };
                let name = name.to_string();
                self.expect(",")?;
                Node::Rec(name, Box::new(self.ty()?))
            }
            f if FUNCTIONS.contains(&f) => Node::Func(f.to_string(), Box::new(self.ty()?)),
            other => {
                self.pos = start;
                return self.err(format!("unknown type constructor `{other}`"));
            }
        };
        self.expect(")")?;
        Ok(node)
    }

    fn bare_key(&mut self) -> PResult<String> {
        self.skip_ws();
        let rest = self.rest();
        let end = rest
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
            .map_or(rest.len(), |(i, _)| i);
        if end == 0 {
            return self.err("expected a property name");
        }
        let k = rest.get(..end).unwrap_or("").to_string();
        self.pos += end;
        Ok(k)
    }
}

fn marker() -> Annotations {
    let a: Annotation = Arc::new(NotationAnnotation);
    Annotations::new(vec![a])
}

fn build(node: &Node, env: &mut HashMap<String, Type>) -> PResult<Type> {
    Ok(match node {
        Node::Builtin(t) => t.clone(),
        Node::Opaque(n) => Type::opaque(n.as_str()),
        Node::Wrap(kind, e) => {
            let e = build(e, env)?;
            match *kind {
                "list" => Type::list(e),
                "map" => Type::map(e),
                "set" => Type::set(e),
                "promise" => Type::promise(e),
                _ => Type::output(e),
            }
        }
        Node::Tuple(es) => Type::tuple(
            es.iter()
                .map(|e| build(e, env))
                .collect::<PResult<Vec<_>>>()?,
        ),
        Node::Union(es, annotated) => {
            let es = es
                .iter()
                .map(|e| build(e, env))
                .collect::<PResult<Vec<_>>>()?;
            Type::union_raw(
                es,
                if *annotated {
                    marker()
                } else {
                    Annotations::none()
                },
            )
        }
        Node::Object(props, annotated, nonstrict) => {
            let t = Type::deferred_object(object_options(*annotated, *nonstrict));
            define(&t, props, env)?;
            t
        }
        Node::Const(t, v) => Type::constant(build(t, env)?, v.clone()),
        Node::Enum(tok, t, vs) => {
            let t = build(t, env)?;
            Type::enumeration(tok.as_str(), t, vs.clone(), Annotations::none()).map_err(|e| {
                NotationError {
                    offset: 0,
                    message: format!("invalid enum: {e:?}"),
                }
            })?
        }
        Node::Rec(name, body) => {
            let Node::Object(props, annotated, nonstrict) = body.as_ref() else {
                return Err(NotationError {
                    offset: 0,
                    message: "the body of rec(...) must be an object".into(),
                });
            };
            let t = Type::deferred_object(object_options(*annotated, *nonstrict));
            let prev = env.insert(name.clone(), t.clone());
            define(&t, props, env)?;
            match prev {
                Some(p) => env.insert(name.clone(), p),
                None => env.remove(name),
            };
            t
        }
        Node::Var(name, at) => env.get(name).cloned().ok_or_else(|| NotationError {
            offset: *at,
            message: format!("unbound type variable ${name}"),
        })?,
        Node::Func(f, t) => {
            let t = build(t, env)?;
            match f.as_str() {
                "InputType" => input_type(&t),
                "ResolveOutputs" => resolve_outputs(&t),
                _ => resolve_promises(&t),
            }
        }
    })
}

fn object_options(annotated: bool, nonstrict: bool) -> ObjectOptions {
    ObjectOptions {
        annotations: if annotated {
            marker()
        } else {
            Annotations::none()
        },
        strict: !nonstrict,
        name: None,
    }
}

fn define(t: &Type, props: &[(String, Node)], env: &mut HashMap<String, Type>) -> PResult<()> {
    let mut map = Properties::default();
    for (k, v) in props {
        map.insert(Arc::from(k.as_str()), build(v, env)?);
    }
    t.define_object(map);
    Ok(())
}

/// Parses the notation of `vectors/README.md` §1.
pub fn parse_type(text: &str) -> Result<Type, NotationError> {
    let mut p = Parser {
        src: text,
        pos: 0,
        depth: 0,
    };
    let node = p.ty()?;
    p.skip_ws();
    if p.pos != text.len() {
        return p.err("unexpected text after the type");
    }
    // One group for the whole type, so the cycles of nested `rec`s are
    // freed together (see `crate::group`).
    crate::group::within_some(|| build(&node, &mut HashMap::new()))
}

impl FromStr for Type {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Type, NotationError> {
        parse_type(s)
    }
}

/// Writes `t` in the notation.
pub fn to_notation(t: &Type) -> String {
    let mut w = Writer {
        recursive: Vec::new(),
        names: HashMap::new(),
        stack: Vec::new(),
        next: 0,
    };
    find_recursive(t, &mut Vec::new(), &mut w.recursive, &mut Vec::new(), 0);
    let mut out = String::new();
    w.write(t, &mut out, 0);
    out
}

fn find_recursive(
    t: &Type,
    stack: &mut Vec<usize>,
    rec: &mut Vec<usize>,
    done: &mut Vec<usize>,
    depth: usize,
) {
    if depth > MAX_TYPE_DEPTH {
        return;
    }
    let go = |e: &Type, stack: &mut Vec<usize>, rec: &mut Vec<usize>, done: &mut Vec<usize>| {
        find_recursive(e, stack, rec, done, depth + 1)
    };
    match t.kind() {
        TypeKind::List(e)
        | TypeKind::Map(e)
        | TypeKind::Set(e)
        | TypeKind::Promise(e)
        | TypeKind::Output(e) => go(e, stack, rec, done),
        TypeKind::Tuple(es) => es.iter().for_each(|e| go(e, stack, rec, done)),
        TypeKind::Union(u) => u.elements().iter().for_each(|e| go(e, stack, rec, done)),
        TypeKind::Const(c) => go(c.underlying(), stack, rec, done),
        TypeKind::Enum(e) => go(e.underlying(), stack, rec, done),
        TypeKind::Object(o) => {
            let addr = t.addr();
            if stack.contains(&addr) {
                if !rec.contains(&addr) {
                    rec.push(addr);
                }
                return;
            }
            if done.contains(&addr) {
                return;
            }
            stack.push(addr);
            o.properties()
                .values()
                .for_each(|p| go(p, stack, rec, done));
            stack.pop();
            done.push(addr);
        }
        _ => {}
    }
}

struct Writer {
    recursive: Vec<usize>,
    names: HashMap<usize, String>,
    stack: Vec<usize>,
    next: usize,
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn is_bare_key(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl Writer {
    fn write(&mut self, t: &Type, out: &mut String, depth: usize) {
        if depth > MAX_TYPE_DEPTH {
            out.push_str("dynamic");
            return;
        }
        let wrap = |w: &mut Writer, name: &str, e: &Type, out: &mut String| {
            out.push_str(name);
            out.push('(');
            w.write(e, out, depth + 1);
            out.push(')');
        };
        match t.kind() {
            TypeKind::None => out.push_str("none"),
            TypeKind::Bool => out.push_str("bool"),
            TypeKind::Int => out.push_str("int"),
            TypeKind::Number => out.push_str("number"),
            TypeKind::String => out.push_str("string"),
            TypeKind::Id => out.push_str("id"),
            TypeKind::Dynamic => out.push_str("dynamic"),
            TypeKind::Opaque(n) => {
                if is_ident(n)
                    && !RESERVED.contains(&n.as_ref())
                    && !FUNCTIONS.contains(&n.as_ref())
                {
                    out.push_str(n);
                } else {
                    out.push_str(&format!("opaque({})", json_quote(n)));
                }
            }
            TypeKind::List(e) => wrap(self, "list", e, out),
            TypeKind::Map(e) => wrap(self, "map", e, out),
            TypeKind::Set(e) => wrap(self, "set", e, out),
            TypeKind::Promise(e) => wrap(self, "promise", e, out),
            TypeKind::Output(e) => wrap(self, "output", e, out),
            TypeKind::Tuple(es) => {
                out.push_str("tuple(");
                self.items(es, out, depth);
                out.push(')');
            }
            TypeKind::Union(u) => {
                out.push_str("union(");
                self.items(u.elements(), out, depth);
                if !u.annotations().is_empty() {
                    if !u.elements().is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("annotated");
                }
                out.push(')');
            }
            TypeKind::Const(c) => {
                out.push_str("const(");
                self.write(c.underlying(), out, depth + 1);
                out.push_str(", ");
                out.push_str(&c.value().notation());
                out.push(')');
            }
            TypeKind::Enum(e) => {
                out.push_str("enum(");
                out.push_str(&json_quote(e.token()));
                out.push_str(", ");
                self.write(e.underlying(), out, depth + 1);
                for v in e.values() {
                    out.push_str(", ");
                    out.push_str(&v.notation());
                }
                out.push(')');
            }
            TypeKind::Object(o) => {
                let addr = t.addr();
                if self.stack.contains(&addr) {
                    let name = self
                        .names
                        .get(&addr)
                        .cloned()
                        .unwrap_or_else(|| "$T0".into());
                    out.push_str(&name);
                    return;
                }
                let is_rec = self.recursive.contains(&addr);
                if is_rec {
                    self.next += 1;
                    let name = format!("$T{}", self.next);
                    out.push_str(&format!("rec({name}, "));
                    self.names.insert(addr, name);
                }
                self.stack.push(addr);
                let entries: Vec<String> = o
                    .properties()
                    .iter()
                    .map(|(k, v)| {
                        let key = if is_bare_key(k) {
                            k.to_string()
                        } else {
                            json_quote(k)
                        };
                        let mut s = format!("{key} = ");
                        self.write(v, &mut s, depth + 1);
                        s
                    })
                    .collect();
                self.stack.pop();
                crate::print::push_object(
                    out,
                    entries,
                    !o.annotations().is_empty(),
                    !o.is_strict(),
                );
                if is_rec {
                    out.push(')');
                }
            }
        }
    }

    fn items(&mut self, es: &[Type], out: &mut String, depth: usize) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write(e, out, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "union(list(rec($T1, object({data = output(int), next = union(list($T1), none), sibling = $T1}))), none)",
            "object({\"\" = bool, 0 = string, a-b = int}, annotated, nonstrict)",
            "enum(\"pkg:index:F\", number, 1, 2.5)",
            "const(string, \"a\\\"b\\n\")",
            "opaque(\"pulumi:index:Token\")",
            "union(int, string, annotated)",
            "tuple()",
            "union()",
        ] {
            let t: Type = s.parse().unwrap();
            assert_eq!(to_notation(&t), s);
            let again: Type = to_notation(&t).parse().unwrap();
            assert_eq!(again, t);
        }
    }

    #[test]
    fn errors_do_not_panic() {
        for s in [
            "",
            "list(",
            "list(int",
            "object({a = })",
            "$X",
            "rec($X, int)",
            "\"",
            "const(int, 1e)",
            "union(,)",
        ] {
            assert!(s.parse::<Type>().is_err(), "{s}");
        }
        let deep = "list(".repeat(10_000);
        assert!(deep.parse::<Type>().is_err());
    }
}
