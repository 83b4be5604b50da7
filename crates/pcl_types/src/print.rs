//! The compact `String()` form of types (types.md §1.14): `list(string)`,
//! `union(int, none)`, `object({a = int})`, in two flavours that differ
//! only in how literal (const) types and enum values print:
//!
//! * the *user* form ([`display_string`], `Display`, every message and
//!   hover): a const prints as the PCL literal it stands for (`1`,
//!   `"hello"`, `true`, `null`), so no text a person reads holds Go
//!   notation;
//! * the *reference* form ([`reference_string`],
//!   [`Type::to_reference_string`]): cty's Go syntax
//!   (`cty.NumberIntVal(1)`, `cty.StringVal("a")`), exactly what the
//!   reference's `String()` prints. The type-vector harness compares it,
//!   and union members are ordered by it (the reference sorts by its
//!   `String()`), so the order of a union does not depend on the flavour.
//!
//! Differences from the reference, both deliberate: annotated types print
//! `annotated` without a memory address (defect `annotated-address`), and
//! nothing is memoised, so objects filled in later print their real
//! properties (defect `string-memo-stale`). Re-entering an object already
//! being printed prints `...`; output deeper than [`MAX_TYPE_DEPTH`] prints `…`.

use std::fmt;

use crate::object::ObjectDef;
use crate::ty::{Type, TypeKind};
use crate::value::{go_quote, Value};
use crate::MAX_TYPE_DEPTH;

/// The user form of `t`: the `String()` form with literal types printed
/// as PCL literals (`object({a = 1})`).
pub fn display_string(t: &Type) -> String {
    let mut out = String::new();
    write_display(t, &mut out, &mut Walk::user(), 0, usize::MAX);
    out
}

/// The reference's own `String()` form of `t`, consts in cty's Go syntax
/// (`object({a = cty.NumberIntVal(1)})`): for comparisons with the
/// reference only, never for text a person reads.
pub fn reference_string(t: &Type) -> String {
    let mut out = String::new();
    write_display(t, &mut out, &mut Walk::default(), 0, usize::MAX);
    out
}

/// The reference `String()` form cut after about `limit` bytes (union sort
/// keys: two types that agree on so long a prefix keep their relative
/// order; the sort itself compares the same forms without printing them).
#[cfg(test)]
pub(crate) fn display_prefix(t: &Type, limit: usize) -> String {
    let mut out = String::new();
    write_display(t, &mut out, &mut Walk::default(), 0, limit);
    out
}

/// The user form cut at `max_chars` characters with `…`, for messages
/// that quote the reference's wording (`cannot traverse value of type
/// set(string)`). The printing stops near the cut, so a type whose whole
/// form is hundreds of kilobytes costs about `max_chars`.
pub fn display_string_capped(t: &Type, max_chars: usize) -> String {
    // The printing stops after about `limit` bytes; a character is at
    // most four.
    let mut prefix = String::new();
    write_display(
        t,
        &mut prefix,
        &mut Walk::user(),
        0,
        max_chars.saturating_mul(4),
    );
    pcl_diagnostics::elide(&prefix, max_chars).into_owned()
}

/// A type as a message that keeps the reference's wording names it
/// (`cannot iterate over a value of type set(int)`): the user form capped
/// at `max_chars`, except that a literal's type is its kind and value
/// (`bool true`, `number 2.5`), as in `found …`.
pub fn message_type_text(t: &Type, max_chars: usize) -> String {
    match t.kind() {
        TypeKind::Const(_) => crate::message::found_text(t),
        _ => display_string_capped(t, max_chars),
    }
}

impl Type {
    /// The reference's `String()` form (see [`reference_string`]).
    pub fn to_reference_string(&self) -> String {
        reference_string(self)
    }
}

/// The start of `t`'s `String()` form that can be named without printing
/// its elements, and whether that start is the whole form. Every
/// [`display_prefix`] of `t` (with any limit) begins with it, so two types
/// whose heads already differ are ordered by their heads alone.
pub(crate) fn display_head(t: &Type) -> (&str, bool) {
    match t.kind() {
        TypeKind::None => ("none", true),
        TypeKind::Bool => ("bool", true),
        TypeKind::Int => ("int", true),
        TypeKind::Number => ("number", true),
        TypeKind::String => ("string", true),
        TypeKind::Id => ("id", true),
        TypeKind::Dynamic => ("dynamic", true),
        TypeKind::Opaque(name) if is_hcl_identifier(name) => (name, true),
        TypeKind::Opaque(_) => ("type(", false),
        TypeKind::List(_) => ("list(", false),
        TypeKind::Map(_) => ("map(", false),
        TypeKind::Set(_) => ("set(", false),
        TypeKind::Promise(_) => ("promise(", false),
        TypeKind::Output(_) => ("output(", false),
        TypeKind::Tuple(_) => ("tuple(", false),
        TypeKind::Union(_) => ("union(", false),
        TypeKind::Object(_) => ("object({", false),
        TypeKind::Const(_) => ("cty.", false),
        TypeKind::Enum(_) => ("enum(", false),
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&display_string(self))
    }
}

/// True for a valid HCL identifier (`hclsyntax.ValidIdentifier`): an
/// `ID_Start` character or `_`, then `ID_Continue` characters or `-`.
pub fn is_hcl_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || unicode_ident::is_xid_start(c) => {}
        _ => return false,
    }
    chars.all(|c| c == '-' || unicode_ident::is_xid_continue(c))
}

/// cty's type name for a const's underlying type.
pub(crate) fn cty_type_name(t: &Type) -> &'static str {
    match t.kind() {
        TypeKind::String => "cty.String",
        TypeKind::Number | TypeKind::Int => "cty.Number",
        TypeKind::Bool => "cty.Bool",
        _ => "cty.DynamicPseudoType",
    }
}

/// cty's Go-syntax for a value of the given underlying type.
pub fn cty_go_string(v: &Value, underlying: &Type) -> String {
    match v {
        Value::Null => format!("cty.NullVal({})", cty_type_name(underlying)),
        Value::Unknown => format!("cty.UnknownVal({})", cty_type_name(underlying)),
        Value::Bool(true) => "cty.True".into(),
        Value::Bool(false) => "cty.False".into(),
        Value::String(s) => format!("cty.StringVal({})", go_quote(s)),
        Value::Number(n) => n.cty_go_string(),
        Value::List(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| cty_go_string(i, &Type::dynamic()))
                .collect();
            format!("cty.TupleVal([]cty.Value{{{}}})", parts.join(", "))
        }
    }
}

/// The PCL literal a const value stands for: `1`, `"a"`, `true`, `null`,
/// `[1, "a"]` (an unknown value, which has no literal, prints `unknown`).
pub fn source_literal(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Unknown => "unknown".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => go_quote(s),
        Value::Number(n) => n.notation(),
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(source_literal).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// A printing walk: the flavour (user or reference), the objects being
/// printed (a cycle prints `...`), the deepest level reached and whether a
/// not yet defined object was met.
#[derive(Default)]
struct Walk {
    user: bool,
    stack: Vec<usize>,
    deepest: usize,
    undefined: bool,
}

impl Walk {
    fn user() -> Walk {
        Walk {
            user: true,
            ..Walk::default()
        }
    }

    /// A const value in this walk's flavour.
    fn value(&self, v: &Value, underlying: &Type) -> String {
        if self.user {
            source_literal(v)
        } else {
            cty_go_string(v, underlying)
        }
    }
}

/// The longest printed form an object remembers (see [`write_object`]).
const CACHED_FORM_LIMIT: usize = 16 * 1024;

/// Deepest level at which an object's remembered form is used, and the
/// deepest its own printing may reach to be remembered: together they stay
/// within [`MAX_TYPE_DEPTH`], so no `…` cut differs.
const CACHED_FORM_DEPTH: usize = MAX_TYPE_DEPTH / 2;

fn write_display(t: &Type, out: &mut String, stack: &mut Walk, depth: usize, limit: usize) {
    if out.len() > limit {
        return;
    }
    stack.deepest = stack.deepest.max(depth);
    if depth > MAX_TYPE_DEPTH {
        out.push('…');
        return;
    }
    let wrap = |name: &str, e: &Type, out: &mut String, stack: &mut Walk| {
        out.push_str(name);
        out.push('(');
        write_display(e, out, stack, depth + 1, limit);
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
        TypeKind::Opaque(name) => {
            if is_hcl_identifier(name) {
                out.push_str(name);
            } else {
                out.push_str("type(");
                out.push_str(name);
                out.push(')');
            }
        }
        TypeKind::List(e) => wrap("list", e, out, stack),
        TypeKind::Map(e) => wrap("map", e, out, stack),
        TypeKind::Set(e) => wrap("set", e, out, stack),
        TypeKind::Promise(e) => wrap("promise", e, out, stack),
        TypeKind::Output(e) => wrap("output", e, out, stack),
        TypeKind::Tuple(es) => {
            out.push_str("tuple(");
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_display(e, out, stack, depth + 1, limit);
            }
            out.push(')');
        }
        TypeKind::Union(u) => {
            out.push_str("union(");
            for (i, e) in u.elements().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_display(e, out, stack, depth + 1, limit);
            }
            if !u.annotations().is_empty() {
                if !u.elements().is_empty() {
                    out.push_str(", ");
                }
                out.push_str("annotated");
            }
            out.push(')');
        }
        TypeKind::Object(o) => {
            // Only the reference form is remembered (union sort keys).
            if !stack.user && stack.stack.is_empty() && depth <= CACHED_FORM_DEPTH {
                if let Some(form) = cached_form(o, t.addr()) {
                    // The form printed here would be the remembered one
                    // unless `limit` cut it.
                    if out.len().saturating_add(form.len()) <= limit {
                        out.push_str(&form);
                        return;
                    }
                }
            }
            write_object(o, t.addr(), out, stack, depth, limit);
        }
        TypeKind::Const(c) => out.push_str(&stack.value(c.value(), c.underlying())),
        TypeKind::Enum(e) => {
            out.push_str("enum(");
            out.push_str(e.token());
            out.push('(');
            write_display(e.underlying(), out, stack, depth + 1, limit);
            out.push_str("): ");
            let vals: Vec<String> = e
                .values()
                .iter()
                .map(|v| stack.value(v, e.underlying()))
                .collect();
            out.push_str(&vals.join(","));
            out.push(')');
        }
    }
}

/// The printed form of an object outside any other object (empty stack, so
/// no `...`), remembered on the object: union sort keys print the same
/// objects again and again. It is remembered only once final: every object
/// it reaches is defined (a recursive placeholder still being built prints
/// differently later), it is not longer than [`CACHED_FORM_LIMIT`] (a
/// longer print may be cut) and it stays above [`CACHED_FORM_DEPTH`].
fn cached_form(o: &ObjectDef, addr: usize) -> Option<std::sync::Arc<str>> {
    if let Some(known) = o.printed_form() {
        return known.clone();
    }
    let mut walk = Walk::default();
    let mut form = String::new();
    write_object(o, addr, &mut form, &mut walk, 0, CACHED_FORM_LIMIT);
    if walk.undefined {
        // Not final yet: print it normally, remember nothing.
        return None;
    }
    // A print no longer than the limit was never cut.
    let keep = (form.len() <= CACHED_FORM_LIMIT && walk.deepest <= CACHED_FORM_DEPTH)
        .then(|| std::sync::Arc::from(form));
    o.set_printed_form(keep.clone());
    keep
}

fn write_object(
    o: &ObjectDef,
    addr: usize,
    out: &mut String,
    stack: &mut Walk,
    depth: usize,
    limit: usize,
) {
    stack.undefined |= !o.is_defined();
    if stack.stack.contains(&addr) {
        out.push_str("...");
        return;
    }
    stack.stack.push(addr);
    // The entries share what is left of `limit` (each is written
    // to its own string, so `out.len()` alone would not cut them).
    let mut used = out.len();
    let mut entries: Vec<String> = Vec::with_capacity(o.properties().len());
    for (k, v) in o.properties().iter() {
        if used > limit {
            break;
        }
        let mut s = format!("{k} = ");
        write_display(v, &mut s, stack, depth + 1, limit - used);
        used = used.saturating_add(s.len() + 2);
        entries.push(s);
    }
    stack.stack.pop();
    push_object(out, entries, !o.annotations().is_empty(), false);
}

/// `object({k = v, …}[, annotated][, nonstrict])` from the printed
/// entries (`k = v`), which it sorts; shared by the display form and the
/// notation.
pub(crate) fn push_object(
    out: &mut String,
    mut entries: Vec<String>,
    annotated: bool,
    nonstrict: bool,
) {
    entries.sort();
    out.push_str("object({");
    out.push_str(&entries.join(", "));
    out.push('}');
    if annotated {
        out.push_str(", annotated");
    }
    if nonstrict {
        out.push_str(", nonstrict");
    }
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ObjectOptions;

    #[test]
    fn prefix_limit_cuts_nested_objects() {
        // Each level holds the level below twice: the full form doubles
        // per level, the prefix must stay near the limit.
        let mut t = Type::string();
        for _ in 0..20 {
            t = Type::object([("a", t.clone()), ("b", Type::output(t))]);
        }
        let prefix = display_prefix(&t, 1000);
        assert!(prefix.len() < 2000, "{}", prefix.len());
        assert!(prefix.starts_with("object({a = object({a = "), "{prefix}");
        // Unlimited, it is the whole form.
        let small = Type::object([("a", Type::int()), ("b", Type::string())]);
        assert_eq!(display_prefix(&small, usize::MAX), small.to_string());
    }

    #[test]
    fn remembered_object_forms_follow_definition_and_limit() {
        // A placeholder printed before it is defined is not remembered.
        let d = Type::deferred_object(ObjectOptions::default());
        let l = Type::list(d.clone());
        assert_eq!(l.to_string(), "list(object({}))");
        assert!(d.define_object([("a", Type::string())]));
        assert_eq!(l.to_string(), "list(object({a = string}))");
        // Nor is an object that reaches a placeholder.
        let inner = Type::deferred_object(ObjectOptions::default());
        let outer = Type::object([("x", inner.clone())]);
        assert_eq!(outer.to_string(), "object({x = object({})})");
        assert!(inner.define_object([("y", Type::int())]));
        assert_eq!(outer.to_string(), "object({x = object({y = int})})");
        // A remembered form is used only where the limit would not cut it.
        let o = Type::object([("a", Type::string()), ("b", Type::bool())]);
        assert_eq!(o.to_string(), "object({a = string, b = bool})");
        assert_eq!(
            display_prefix(&Type::list(o.clone()), 10),
            "list(object({a = string}))"
        );
        assert_eq!(
            display_prefix(&Type::list(o), 1000),
            "list(object({a = string, b = bool}))"
        );
        // Inside a cycle the object prints `...`, not its remembered form.
        let r = Type::deferred_object(ObjectOptions::default());
        assert!(r.define_object([("next", Type::list(r.clone()))]));
        assert_eq!(r.to_string(), "object({next = list(...)})");
        assert_eq!(
            Type::list(r.clone()).to_string(),
            "list(object({next = list(...)}))"
        );
    }

    #[test]
    fn compact_forms() {
        assert_eq!(Type::list(Type::string()).to_string(), "list(string)");
        assert_eq!(Type::optional(Type::int()).to_string(), "union(int, none)");
        assert_eq!(
            Type::opaque("aws:s3:Bucket").to_string(),
            "type(aws:s3:Bucket)"
        );
        assert_eq!(
            Type::object([("b", Type::int()), ("a", Type::string())]).to_string(),
            "object({a = string, b = int})"
        );
        assert_eq!(Type::tuple([]).to_string(), "tuple()");
    }

    #[test]
    fn recursive_object_prints_ellipsis() {
        let o = Type::deferred_object(ObjectOptions::default());
        o.define_object([("a", Type::optional(o.clone()))]);
        assert_eq!(o.to_string(), "object({a = union(none, ...)})");
    }
}
