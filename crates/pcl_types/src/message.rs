//! Types in the user's terms, for diagnostics: what was expected and what
//! was found, in plain shapes and capped in length.
//!
//! * [`Type::display_capped`] prints a type in the single-line message form
//!   (`list(string)`, `int | string`, `{ a: int }`, `(int, string)`), names
//!   schema object types by their token
//!   (`kubernetes:apps/v1:DeploymentSpec`) and stops at `max` characters
//!   with `…`. It is *linear in the cap*: the text is written into a
//!   bounded buffer and the walk stops as soon as the buffer is full, so a
//!   type whose full form is 283 KB costs no more than a short one.
//! * [`expected_text`] is the capped form of a destination type without
//!   the internal input unions: `string | output(string)` prints `string`,
//!   `list(output(string) | string) | output(list(string))` prints
//!   `list(string)`, and an optional `T` prints `T` (leaving it out is
//!   allowed anyway; optional parts inside it keep their `?`).
//! * [`found_text`] describes the type of the value found: a literal's
//!   singleton type is its kind and value (`number 80`, `string "abc"`,
//!   `bool true`), a list literal is `a list of 2 strings`, and object
//!   literals show their keys with plain kinds (`{ a: number }`).
//!
//! Text from the input (string literals, keys) is quoted with escapes and
//! cut with `pcl_diagnostics::elide` before it is printed.

use pcl_diagnostics::elide::{elide, ELLIPSIS, MAX_QUOTED_CHARS};

use crate::print::is_hcl_identifier;
use crate::ty::{Type, TypeKind};
use crate::value::{go_quote, Value};
use crate::MAX_TYPE_DEPTH;

/// The longest type a diagnostic prints, in characters.
pub const MAX_TYPE_CHARS: usize = MAX_QUOTED_CHARS;

/// How a walk prints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every type as it is (eventuals and `none` included).
    Faithful,
    /// A destination: input unions collapse to their plain member, `none`
    /// members are left out.
    Expected,
    /// A value's type: literal singleton types print as their kind.
    Found,
}

/// A string that stops growing at `max` characters; the last one is then
/// replaced by `…`.
struct Capped {
    out: String,
    chars: usize,
    max: usize,
    full: bool,
}

impl Capped {
    fn new(max: usize) -> Capped {
        Capped {
            out: String::new(),
            chars: 0,
            max: max.max(1),
            full: false,
        }
    }

    fn push(&mut self, s: &str) {
        for c in s.chars() {
            if self.full {
                return;
            }
            if self.chars == self.max {
                // One character too many: the last one kept becomes `…`.
                self.out.pop();
                self.out.push(ELLIPSIS);
                self.full = true;
                return;
            }
            self.out.push(c);
            self.chars += 1;
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

struct Walk {
    buf: Capped,
    /// Addresses of the objects being printed (a cycle prints `...`).
    stack: Vec<usize>,
}

impl Walk {
    fn ty(&mut self, t: &Type, mode: Mode, depth: usize) {
        if self.buf.full {
            return;
        }
        if depth > MAX_TYPE_DEPTH {
            self.buf.push("…");
            return;
        }
        let inner = mode;
        match t.kind() {
            TypeKind::None => self.buf.push("none"),
            TypeKind::Bool => self.buf.push("bool"),
            TypeKind::Int => self.buf.push("int"),
            TypeKind::Number => self.buf.push("number"),
            TypeKind::String => self.buf.push("string"),
            TypeKind::Id => self.buf.push("id"),
            TypeKind::Dynamic => self.buf.push("dynamic"),
            TypeKind::Opaque(name) => self.buf.push(&name_text(name)),
            TypeKind::List(e) => self.wrap("list(", e, inner, depth),
            TypeKind::Map(e) => self.wrap("map(", e, inner, depth),
            TypeKind::Set(e) => self.wrap("set(", e, inner, depth),
            TypeKind::Promise(e) => self.wrap("promise(", e, inner, depth),
            TypeKind::Output(e) => self.wrap("output(", e, inner, depth),
            TypeKind::Tuple(es) if mode == Mode::Found && es.is_empty() => self.buf.push("[]"),
            TypeKind::Tuple(es) if mode == Mode::Found && shared_kind(es).is_some() => {
                // A list literal inside a value: `list(number)`.
                if let Some(first) = es.first() {
                    self.wrap("list(", first, inner, depth);
                }
            }
            TypeKind::Tuple(es) => {
                self.buf.push("(");
                for (i, e) in es.iter().enumerate() {
                    if self.buf.full {
                        return;
                    }
                    if i > 0 {
                        self.buf.push(", ");
                    }
                    self.ty(e, inner, depth + 1);
                }
                self.buf.push(")");
            }
            TypeKind::Union(u) => {
                // A message leaves out the `none` of an optional value it
                // expects or finds, but not of an optional part of it
                // (`T?`). Members are visited lazily and `none` is noticed
                // on the way, so printing stops with the buffer.
                let question = mode == Mode::Faithful || depth > 0;
                let plain_only = mode != Mode::Faithful;
                let (mut saw_none, mut first) = (false, true);
                for m in shown_members(u.elements(), plain_only) {
                    if self.buf.full {
                        return;
                    }
                    if m.is_none() {
                        saw_none = true;
                        continue;
                    }
                    if !first {
                        self.buf.push(" | ");
                    }
                    first = false;
                    self.ty(m, inner, depth + 1);
                }
                if first {
                    self.buf.push(if saw_none { "none" } else { "union()" });
                } else if saw_none && question {
                    self.buf.push("?");
                }
            }
            TypeKind::Object(o) => {
                if let Some(name) = o.name() {
                    self.buf.push(&name_text(name));
                    return;
                }
                if self.stack.contains(&t.addr()) {
                    self.buf.push("...");
                    return;
                }
                self.stack.push(t.addr());
                let props = o.properties();
                if props.is_empty() {
                    self.buf.push("{}");
                } else {
                    self.buf.push("{ ");
                    for (i, (k, v)) in props.iter().enumerate() {
                        if self.buf.full {
                            break;
                        }
                        if i > 0 {
                            self.buf.push(", ");
                        }
                        self.key(k);
                        self.buf.push(": ");
                        self.ty(v, inner, depth + 1);
                    }
                    self.buf.push(" }");
                }
                self.stack.pop();
            }
            TypeKind::Const(c) => {
                if mode == Mode::Found {
                    self.ty(&kind_of_const(c.underlying(), c.value()), mode, depth + 1);
                } else {
                    self.buf.push(&value_text(c.value()));
                }
            }
            TypeKind::Enum(e) => {
                if mode == Mode::Faithful {
                    self.buf.push("enum(");
                    for (i, v) in e.values().iter().enumerate() {
                        if self.buf.full {
                            return;
                        }
                        if i > 0 {
                            self.buf.push(" | ");
                        }
                        self.buf.push(&value_text(v));
                    }
                    self.buf.push(")");
                } else {
                    // A schema enum: its token, then its values.
                    self.buf.push(&name_text(e.token()));
                    self.buf.push(" (");
                    for (i, v) in e.values().iter().enumerate() {
                        if self.buf.full {
                            return;
                        }
                        if i > 0 {
                            self.buf.push(", ");
                        }
                        self.buf.push(&value_text(v));
                    }
                    self.buf.push(")");
                }
            }
        }
    }

    fn wrap(&mut self, prefix: &str, e: &Type, mode: Mode, depth: usize) {
        self.buf.push(prefix);
        self.ty(e, mode, depth + 1);
        self.buf.push(")");
    }

    fn key(&mut self, k: &str) {
        if is_hcl_identifier(k) && k.chars().count() <= MAX_QUOTED_CHARS {
            self.buf.push(k);
        } else {
            self.buf.push(&elide(
                &go_quote(&elide(k, MAX_QUOTED_CHARS)),
                MAX_QUOTED_CHARS,
            ));
        }
    }
}

/// The members of a union a message shows, `none` included (the caller
/// prints it as `?`). All of them in the faithful form; otherwise, when the
/// union has members that are not eventual (`output(…)`, `promise(…)`),
/// those alone: the eventual ones are the input union's other forms. Lazy:
/// the scan for a plain member stops at the first one.
fn shown_members(members: &[Type], plain_only: bool) -> Box<dyn Iterator<Item = &Type> + '_> {
    let eventual = |t: &Type| matches!(t.kind(), TypeKind::Output(_) | TypeKind::Promise(_));
    if plain_only && members.iter().any(|t| !eventual(t) && !t.is_none()) {
        return Box::new(members.iter().filter(move |t| !eventual(t)));
    }
    Box::new(members.iter())
}

/// A type's name (an opaque type, a schema token), cut at the usual
/// length; quoted with escapes if it holds a control character, so that
/// nothing from a schema file reaches a terminal raw.
fn name_text(name: &str) -> String {
    let cut = elide(name, MAX_QUOTED_CHARS);
    if cut.chars().any(char::is_control) {
        go_quote(&cut)
    } else {
        cut.into_owned()
    }
}

/// The kind a literal stands for in a message: `number` for every number
/// (the user wrote a number, not an `int`).
fn kind_of_const(underlying: &Type, value: &Value) -> Type {
    match (underlying.kind(), value) {
        (TypeKind::Int, _) | (_, Value::Number(_)) => Type::number(),
        (TypeKind::Dynamic, Value::Null) => Type::none(),
        _ => underlying.clone(),
    }
}

/// A literal value, quoted and capped.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => {
            // Escapes can lengthen the text: cut before and after quoting.
            elide(&go_quote(&elide(s, MAX_QUOTED_CHARS)), MAX_QUOTED_CHARS).into_owned()
        }
        Value::Number(n) => elide(&n.go_pretty(), MAX_QUOTED_CHARS).into_owned(),
        Value::List(items) => {
            let mut buf = Capped::new(MAX_QUOTED_CHARS);
            buf.push("[");
            for (i, item) in items.iter().enumerate() {
                if buf.full {
                    break;
                }
                if i > 0 {
                    buf.push(", ");
                }
                buf.push(&value_text(item));
            }
            buf.push("]");
            buf.finish()
        }
        other => other.pretty(),
    }
}

fn print(t: &Type, mode: Mode, max: usize) -> String {
    let mut w = Walk {
        buf: Capped::new(max),
        stack: Vec::new(),
    };
    w.ty(t, mode, 0);
    w.buf.finish()
}

impl Type {
    /// The single-line message form of this type, cut at `max` characters
    /// with `…` (see the module documentation). Schema object types print
    /// as their token; optional types end in `?`; outputs stay visible. The
    /// work done is proportional to `max` (times the nesting depth, itself
    /// bounded by [`MAX_TYPE_DEPTH`]), never to the size of the type.
    pub fn display_capped(&self, max: usize) -> String {
        print(self, Mode::Faithful, max)
    }
}

/// A destination type as a message says what it expects: input unions
/// collapse to their plain member and `none` is left out, capped at
/// [`MAX_TYPE_CHARS`].
pub fn expected_text(t: &Type) -> String {
    print(t, Mode::Expected, MAX_TYPE_CHARS)
}

/// What a message says was found: a literal's singleton type is its kind
/// and value (`number 80`, `string "abc"`, `bool true`, `null`), a list
/// literal is `a list of 2 strings` (or `an empty list`, or `a list of 3
/// values` when its elements differ in kind), other types print as in
/// [`expected_text`] but with literal kinds (`{ a: number }`).
pub fn found_text(t: &Type) -> String {
    match t.kind() {
        TypeKind::Const(c) => match c.value() {
            Value::Null => "null".into(),
            Value::Unknown => print(&kind_of_const(c.underlying(), c.value()), Mode::Found, 40),
            v => {
                let kind = print(&kind_of_const(c.underlying(), v), Mode::Found, 40);
                format!("{kind} {}", value_text(v))
            }
        },
        TypeKind::Tuple(es) => list_literal_text(es),
        _ => print(t, Mode::Found, MAX_TYPE_CHARS),
    }
}

/// A cheap key for the kind a message gives an element of a list literal:
/// equal keys print the same word. `None` for kinds that need printing.
fn kind_key(t: &Type) -> Option<&'static str> {
    Some(match t.kind() {
        TypeKind::Const(c) => match (c.underlying().kind(), c.value()) {
            (_, Value::Number(_)) | (TypeKind::Int | TypeKind::Number, _) => "number",
            (_, Value::Bool(_)) | (TypeKind::Bool, _) => "bool",
            (_, Value::String(_)) | (TypeKind::String, _) => "string",
            _ => return None,
        },
        TypeKind::String => "string",
        TypeKind::Int | TypeKind::Number => "number",
        TypeKind::Bool => "bool",
        TypeKind::Tuple(_) => "list",
        TypeKind::Object(o) if o.name().is_none() => "object",
        _ => return None,
    })
}

/// The element kind shared by all of `es` (literal elements by their
/// kind), or `None`. Linear in `es` for the cheap kinds; other kinds are
/// compared by their printed form only for short lists.
fn shared_kind(es: &[Type]) -> Option<String> {
    let first = es.first()?;
    if let Some(k) = kind_key(first) {
        return es
            .iter()
            .all(|e| kind_key(e) == Some(k))
            .then(|| k.to_string());
    }
    const COMPARED: usize = 64;
    if es.len() > COMPARED {
        return None;
    }
    let w = print(first, Mode::Found, MAX_TYPE_CHARS);
    es.iter()
        .skip(1)
        .all(|e| print(e, Mode::Found, MAX_TYPE_CHARS) == w)
        .then_some(w)
}

/// `a list of 2 strings`: the kind of a list literal's elements when they
/// agree (`objects` for object literals, `lists` for nested lists).
fn list_literal_text(es: &[Type]) -> String {
    let n = es.len();
    if n == 0 {
        return "an empty list".into();
    }
    let plural = if n == 1 { "" } else { "s" };
    match shared_kind(es) {
        Some(w) if w == "dynamic" => format!("a list of {n} value{plural}"),
        Some(w) if w.chars().all(|c| c.is_ascii_alphabetic()) => {
            format!("a list of {n} {w}{plural}")
        }
        Some(w) => format!("a list of {n} element{plural} of type {w}"),
        None => format!("a list of {n} value{plural}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eventual::input_type;
    use crate::object::ObjectOptions;

    #[test]
    fn literals_are_described_by_kind_and_value() {
        assert_eq!(found_text(&Type::literal(Value::int(80))), "number 80");
        assert_eq!(
            found_text(&Type::literal(Value::string("abc"))),
            "string \"abc\""
        );
        assert_eq!(found_text(&Type::literal(Value::Bool(true))), "bool true");
        let two = Type::tuple([
            Type::literal(Value::string("a")),
            Type::literal(Value::string("b")),
        ]);
        assert_eq!(found_text(&two), "a list of 2 strings");
        let one = Type::tuple([Type::literal(Value::string("a"))]);
        assert_eq!(found_text(&one), "a list of 1 string");
        let mixed = Type::tuple([
            Type::literal(Value::string("a")),
            Type::literal(Value::int(1)),
        ]);
        assert_eq!(found_text(&mixed), "a list of 2 values");
        assert_eq!(found_text(&Type::tuple([])), "an empty list");
        assert_eq!(
            found_text(&Type::tuple([Type::dynamic()])),
            "a list of 1 value"
        );
        assert_eq!(
            found_text(&Type::tuple([
                Type::list(Type::int()),
                Type::list(Type::int())
            ])),
            "a list of 2 elements of type list(int)"
        );
        let obj = Type::object([
            ("owners", Type::literal(Value::string("x"))),
            ("mostRecnt", Type::literal(Value::Bool(true))),
        ]);
        assert_eq!(found_text(&obj), "{ mostRecnt: bool, owners: string }");
    }

    #[test]
    fn expected_drops_input_unions() {
        let t = input_type(&Type::list(Type::string()));
        assert_eq!(expected_text(&t), "list(string)");
        assert_eq!(expected_text(&input_type(&Type::int())), "int");
        assert_eq!(expected_text(&Type::optional(Type::int())), "int");
        assert_eq!(Type::optional(Type::int()).display_capped(100), "int?");
        assert_eq!(
            input_type(&Type::int()).display_capped(100),
            "int | output(int)"
        );
    }

    #[test]
    fn schema_objects_print_their_token() {
        let named = Type::object_with(
            [("replicas", Type::int())],
            ObjectOptions {
                name: Some("kubernetes:apps/v1:DeploymentSpec".into()),
                ..ObjectOptions::default()
            },
        );
        assert_eq!(
            expected_text(&Type::list(named)),
            "list(kubernetes:apps/v1:DeploymentSpec)"
        );
    }

    #[test]
    fn cap_is_respected_and_cheap() {
        // A union of 20,000 object types: printing stops at the cap.
        let members: Vec<Type> = (0..20_000)
            .map(|i| Type::object([(format!("p{i}"), Type::string())]))
            .collect();
        let big = Type::union(members);
        let s = big.display_capped(120);
        assert_eq!(s.chars().count(), 120, "{s}");
        assert!(s.ends_with('…'));
        // Exactly at the cap: nothing is cut.
        let t = Type::list(Type::string());
        assert_eq!(t.display_capped(12), "list(string)");
        assert_eq!(t.display_capped(11), "list(strin…");
        // A name with a control character is quoted with escapes.
        let odd = Type::opaque("bad\u{1b}[2Jname");
        assert_eq!(odd.display_capped(100), "\"bad\\x1b[2Jname\"");
        // A long string literal is quoted, escaped and cut.
        let long = Type::literal(Value::string("\u{1b}[31m".repeat(1000)));
        let f = found_text(&long);
        assert!(!f.contains('\u{1b}'), "{f}");
        assert!(f.chars().count() < 140, "{f}");
    }

    #[test]
    fn recursive_objects_stop() {
        let o = Type::deferred_object(ObjectOptions::default());
        o.define_object([("next", Type::optional(o.clone()))]);
        assert_eq!(o.display_capped(100), "{ next: ...? }");
    }
}
