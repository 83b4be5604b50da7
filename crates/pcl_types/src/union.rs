//! Union normalisation (types.md §1.8): flatten, sort, deduplicate
//! adjacent equal elements, collapse singletons.
//!
//! The reference sorts by the printed form (`String()`), and the order is
//! observable (union equality is order-sensitive and `Pretty()` prints in
//! stored order). Printing to sort costs time in the size of what is
//! printed, and a union of n objects that print alike (a crafted schema's
//! `U_i = object{p: oneOf[U_{i+1}, U_{i+2}, string]}`) made each union
//! print n long forms: a traversal `r.a.p.p…` of k steps, whose unions
//! grow by one element per step, took time quadratic in k times the
//! printed length. So elements are ordered by a *structural key* instead,
//! never printed (only a const's or an opaque name's own text is read):
//! the tokens of a type's printed form, read from the type itself (the
//! head of each node, `list(`, `object({`, …, an object's keys in order,
//! the end of each list of children), compared token by token, cut at
//! [`KEY_OBJECT_DEPTH`] nested objects and after [`KEY_BUDGET`] nodes.
//! Tokens compare as their printed texts do, so the order is the printed
//! one whenever the printed forms differ within the cut (every union in
//! the goldens and the type vectors); elements equal up to the cut keep
//! their order of construction (a stable sort), which is deterministic.
//! The cut is a prefix of a fixed token sequence per type, so the order
//! is a total preorder, whatever the pair.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::object::Annotations;
use crate::print::{cty_go_string, cty_type_name, display_head};
use crate::ty::{ConstType, Type, TypeKind};
use crate::value::{go_escape, GoEscaped, Value};

/// How many objects deep a structural key looks: an object below this
/// many enclosing objects compares by its head alone. Reading an object's
/// properties defines it if it is lazy, so the cut also bounds the
/// conversions an ordering can cause.
pub(crate) const KEY_OBJECT_DEPTH: usize = 3;

/// How many nodes of each element a comparison of structural keys reads
/// at most (nested wrappers, wide objects).
pub(crate) const KEY_BUDGET: usize = 512;

thread_local! {
    /// (union elements ordered, key nodes read) on this thread.
    static WORK: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// How much ordering work unions built on this thread have done so far:
/// the elements ordered (those of unions of three or more elements) and
/// the nodes their structural keys read. For tests that bound the work
/// per element (it must not grow with the size of what the elements
/// would print).
#[doc(hidden)]
pub fn union_order_work() -> (usize, usize) {
    WORK.with(std::cell::Cell::get)
}

pub(crate) fn normalise_union(elements: Vec<Type>, annotations: Annotations) -> Type {
    let elements = match <[Type; 2]>::try_from(elements) {
        Ok([a, b]) if a.as_union().is_none() && b.as_union().is_none() => {
            return normalise_pair(a, b, annotations)
        }
        Ok(pair) => Vec::from(pair),
        Err(elements) => elements,
    };
    let mut flat: Vec<Type> = Vec::with_capacity(elements.len());
    for e in elements {
        match e.kind() {
            TypeKind::Union(u) => flat.extend(u.elements().iter().cloned()),
            _ => flat.push(e),
        }
    }
    WORK.with(|w| w.set((w.get().0 + flat.len(), w.get().1)));
    define_members(&flat);
    // A stable sort: elements whose keys are equal keep their order.
    flat.sort_by(compare_keys);
    // Equal elements have equal keys, so each is in the run of elements
    // whose keys are equal, though not always next to its twin (a stable
    // sort keeps the run's order): within a run, the same node twice is
    // dropped by address, and an element equal to the one before it as
    // the reference does.
    let mut out: Vec<Type> = Vec::with_capacity(flat.len());
    let mut run_start = 0;
    let mut run: HashSet<usize> = HashSet::new();
    for t in flat {
        let in_run = out
            .get(run_start)
            .is_some_and(|first| compare_keys(first, &t) == Ordering::Equal);
        if !in_run {
            run_start = out.len();
            run.clear();
        }
        if run.contains(&t.addr()) || out.last().is_some_and(|last| in_run && last.equals(&t)) {
            continue;
        }
        run.insert(t.addr());
        out.push(t);
    }
    if out.len() == 1 {
        if let Some(only) = out.pop() {
            return only;
        }
    }
    Type::union_raw(out, annotations)
}

/// [`normalise_union`] of two elements that are not unions (`optional(T)`,
/// `InputType`'s `union(T, output(T))`): the same order, deduplication and
/// collapse, without the intermediate vectors.
pub(crate) fn normalise_pair(a: Type, b: Type, annotations: Annotations) -> Type {
    define_members(&[a.clone(), b.clone()]);
    let order = compare_keys(&a, &b);
    // A stable sort keeps equal keys in their order.
    let (first, second) = if order == Ordering::Greater {
        (b, a)
    } else {
        (a, b)
    };
    if first.equals(&second) {
        return first;
    }
    Type::union_of(Arc::from([first, second]), annotations)
}

/// The order of two union elements by their structural keys (see the
/// module documentation).
pub(crate) fn compare_keys(a: &Type, b: &Type) -> Ordering {
    let mut budget = KEY_BUDGET;
    compare_nodes((a, None), (b, None), 0, &mut budget)
}

/// Defines the lazy objects among the elements (through wrappers, not
/// inside other objects) before they are ordered, where two elements
/// could be compared by those objects' entries (the same wrappers around
/// an object): comparing keys never defines an object (a pending one has
/// a key of its own), so that no object changes while a sort compares it,
/// and a union whose elements differ before any object is reached
/// (`optional(T)`, `union(T, output(T))`) leaves its objects undefined.
fn define_members(elements: &[Type]) {
    /// The wrappers around the objects an element holds (`None` for
    /// none), tuples and unions as one shape: only elements of the same
    /// shape reach their objects in a comparison.
    fn shape(t: &Type, depth: usize, out: &mut Vec<u8>) -> bool {
        if depth > KEY_BUDGET {
            return false;
        }
        let (tag, inner) = match t.kind() {
            TypeKind::Object(_) => return true,
            TypeKind::List(e) => (1, e),
            TypeKind::Map(e) => (2, e),
            TypeKind::Set(e) => (3, e),
            TypeKind::Promise(e) => (4, e),
            TypeKind::Output(e) => (5, e),
            TypeKind::Tuple(es) => {
                out.push(6);
                return es.iter().any(|e| shape(e, depth + 1, &mut Vec::new()));
            }
            TypeKind::Union(u) => {
                out.push(6);
                return u
                    .elements()
                    .iter()
                    .any(|e| shape(e, depth + 1, &mut Vec::new()));
            }
            _ => return false,
        };
        out.push(tag);
        shape(inner, depth + 1, out)
    }
    fn define(t: &Type, depth: usize) {
        if depth > KEY_BUDGET {
            return;
        }
        match t.kind() {
            TypeKind::Object(o) => {
                o.properties();
            }
            TypeKind::List(e)
            | TypeKind::Map(e)
            | TypeKind::Set(e)
            | TypeKind::Promise(e)
            | TypeKind::Output(e) => define(e, depth + 1),
            TypeKind::Tuple(es) => es.iter().for_each(|e| define(e, depth + 1)),
            TypeKind::Union(u) => u.elements().iter().for_each(|e| define(e, depth + 1)),
            _ => {}
        }
    }
    let shapes: Vec<Option<Vec<u8>>> = elements
        .iter()
        .map(|e| {
            let mut out = Vec::new();
            shape(e, 0, &mut out).then_some(out)
        })
        .collect();
    if shapes.iter().flatten().count() < 2 {
        return;
    }
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for s in shapes.iter().flatten() {
        *counts.entry(s.as_slice()).or_default() += 1;
    }
    for (e, s) in elements.iter().zip(&shapes) {
        if s.as_ref()
            .is_some_and(|s| counts.get(s.as_slice()).is_some_and(|n| *n > 1))
        {
            define(e, 0);
        }
    }
}

/// A node and the byte its printed form is followed by in its parent's
/// (`None` at the end of the whole form).
type Placed<'t> = (&'t Type, Option<u8>);

/// One step of [`compare_keys`]: the node's own token, then its children
/// in printed order, then the end of the children. `objects` is the number
/// of enclosing objects. Both keys are read in lockstep, so stopping when
/// the budget is spent compares the same prefix of each key.
fn compare_nodes(a: Placed<'_>, b: Placed<'_>, objects: usize, budget: &mut usize) -> Ordering {
    if (a.0.ptr_eq(b.0) && a.1 == b.1) || *budget == 0 {
        // One node: one key. A spent budget: equal prefixes.
        return Ordering::Equal;
    }
    *budget -= 1;
    WORK.with(|w| w.set((w.get().0, w.get().1 + 1)));
    let order = compare_tokens(a, b);
    if order != Ordering::Equal {
        return order;
    }
    use TypeKind as K;
    let close = Some(b')');
    match (a.0.kind(), b.0.kind()) {
        (K::List(x), K::List(y))
        | (K::Map(x), K::Map(y))
        | (K::Set(x), K::Set(y))
        | (K::Promise(x), K::Promise(y))
        | (K::Output(x), K::Output(y)) => compare_nodes((x, close), (y, close), objects, budget),
        (K::Tuple(x), K::Tuple(y)) => compare_lists(x, y, (false, false), objects, budget),
        (K::Union(x), K::Union(y)) => {
            let annotated = |u: &crate::ty::UnionType| !u.annotations().is_empty();
            let flags = (annotated(x), annotated(y));
            compare_lists(x.elements(), y.elements(), flags, objects, budget)
        }
        (K::Enum(x), K::Enum(y)) => compare_nodes(
            (x.underlying(), close),
            (y.underlying(), close),
            objects,
            budget,
        ),
        (K::Object(x), K::Object(y)) => {
            if objects >= KEY_OBJECT_DEPTH {
                return Ordering::Equal;
            }
            // A lazy object not yet defined has no entries to read: its
            // key ends before any entry or end of entries.
            match (x.is_pending(), y.is_pending()) {
                (true, true) => return Ordering::Equal,
                (true, false) => return Ordering::Less,
                (false, true) => return Ordering::Greater,
                (false, false) => {}
            }
            let (px, py) = (x.properties(), y.properties());
            // After an entry's type: `, ` before another entry, else `}`.
            let follow = |i: usize, n: usize| Some(if i + 1 < n { b',' } else { b'}' });
            for (i, ((kx, tx), (ky, ty))) in px.iter().zip(py.iter()).enumerate() {
                // `k = …`: the key, then its type.
                let order = kx
                    .bytes()
                    .chain(*b" = ")
                    .cmp(ky.bytes().chain(*b" = "))
                    .then_with(|| {
                        compare_nodes(
                            (tx, follow(i, px.len())),
                            (ty, follow(i, py.len())),
                            objects + 1,
                            budget,
                        )
                    });
                if order != Ordering::Equal || *budget == 0 {
                    return order;
                }
            }
            // `}` after the last entry sorts after the `,` of another one:
            // the object with more entries comes first; then `})` before
            // `}, annotated)`.
            py.len().cmp(&px.len()).then_with(|| {
                let annotated = |o: &crate::object::ObjectDef| !o.annotations().is_empty();
                annotated(x).cmp(&annotated(y))
            })
        }
        _ => Ordering::Equal,
    }
}

/// Elements in order (each followed by `, ` or, last, by the `, annotated`
/// of an annotated union or the closing `)`), then the shorter list first
/// (`)` sorts before `,`), then the unannotated one.
fn compare_lists(
    x: &[Type],
    y: &[Type],
    (ax, ay): (bool, bool),
    objects: usize,
    budget: &mut usize,
) -> Ordering {
    let follow = |i: usize, n: usize, annotated: bool| {
        Some(if i + 1 < n || annotated { b',' } else { b')' })
    };
    for (i, (p, q)) in x.iter().zip(y).enumerate() {
        let order = compare_nodes(
            (p, follow(i, x.len(), ax)),
            (q, follow(i, y.len(), ay)),
            objects,
            budget,
        );
        if order != Ordering::Equal || *budget == 0 {
            return order;
        }
    }
    x.len().cmp(&y.len()).then(ax.cmp(&ay))
}

/// The order of two nodes' own tokens: their heads, a const's printed
/// form, a token type's `type(name`, an enum's `enum(token(`; a token
/// that is a whole printed form (a primitive, a named opaque type, a
/// const) is followed by the byte that follows it in the parent's form.
/// Each token is a prefix of what the node and its parent print from
/// there, so tokens order as the printed forms they start.
fn compare_tokens(a: Placed<'_>, b: Placed<'_>) -> Ordering {
    use TypeKind as K;
    match (a.0.kind(), b.0.kind()) {
        (K::Const(x), K::Const(y)) => compare_consts(x, y).unwrap_or_else(|| {
            let form = |c: &ConstType, follow: Option<u8>| {
                let mut text = cty_go_string(c.value(), c.underlying()).into_bytes();
                text.extend(follow);
                text
            };
            form(x, a.1).cmp(&form(y, b.1))
        }),
        (K::Opaque(x), K::Opaque(y)) if !is_named(x) && !is_named(y) => x
            .bytes()
            .chain(std::iter::once(b')'))
            .cmp(y.bytes().chain(std::iter::once(b')'))),
        (K::Enum(x), K::Enum(y)) => x
            .token()
            .bytes()
            .chain(std::iter::once(b'('))
            .cmp(y.token().bytes().chain(std::iter::once(b'('))),
        _ => {
            let ((ha, wa), (hb, wb)) = (display_head(a.0), display_head(b.0));
            if ha == hb {
                // The same kind: a whole form is followed by its parent's
                // next byte (`None`, the end, sorts first).
                return if wa && wb {
                    a.1.cmp(&b.1)
                } else {
                    Ordering::Equal
                };
            }
            head_text(a).cmp(head_text(b))
        }
    }
}

/// A node's head, followed by the byte after it when it is the whole form.
fn head_text<'t>(t: Placed<'t>) -> impl Iterator<Item = u8> + 't {
    let (head, whole) = display_head(t.0);
    let follow = if whole { t.1 } else { None };
    head.bytes().chain(follow)
}

/// Whether an opaque type prints as its bare name.
fn is_named(name: &str) -> bool {
    crate::print::is_hcl_identifier(name)
}

/// The order of the printed forms (`cty_go_string`) of two consts, told
/// without printing them: by the forms' heads (`cty.StringVal("`,
/// `cty.NumberIntVal(`, `cty.True` …), which differ between kinds of
/// value, then by their bodies: a string's `go_quote` text, a non-zero
/// integer below 10^6's digits, a null's or unknown's type name. `None`
/// when the bodies of other numbers or of lists would have to decide.
fn compare_consts(a: &ConstType, b: &ConstType) -> Option<Ordering> {
    if let (Value::String(x), Value::String(y)) = (a.value(), b.value()) {
        return Some(compare_go_quoted(x, y));
    }
    let (a, b) = (const_form(a), const_form(b));
    let (ha, hb) = (a.head.as_bytes(), b.head.as_bytes());
    if let Some((x, y)) = ha.iter().zip(hb).find(|(x, y)| x != y) {
        return Some(x.cmp(y));
    }
    if ha.len() != hb.len() {
        // One head is a proper prefix of the other (no two kinds' heads
        // are): the body would decide.
        return None;
    }
    match (a.body?, b.body?) {
        (FormBody::Fixed(x), FormBody::Fixed(y)) => Some(
            x.bytes()
                .chain(a.tail.bytes())
                .cmp(y.bytes().chain(b.tail.bytes())),
        ),
        (FormBody::Digits(x, xn), FormBody::Digits(y, yn)) => {
            let x = x.iter().take(xn).copied().chain(a.tail.bytes());
            Some(x.cmp(y.iter().take(yn).copied().chain(b.tail.bytes())))
        }
        _ => None,
    }
}

/// The order of `cty.StringVal(go_quote(a))` and of the same for `b`.
/// `go_quote` writes each character on its own, as itself or as an escape
/// starting with `\`, and no character's bytes are a prefix of another's,
/// so the first character where `a` and `b` differ decides, by its written
/// bytes; a string that ends there continues with `")`, and `"` starts no
/// character's bytes (it is escaped).
fn compare_go_quoted(a: &str, b: &str) -> Ordering {
    let common = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    // Back to the start of the character that differs.
    let mut at = common;
    while at > 0 && !a.is_char_boundary(at) {
        at -= 1;
    }
    let written = |s: &str| -> ([u8; 10], usize) {
        let mut bytes = [0u8; 10];
        match s.get(at..).and_then(|rest| rest.chars().next()) {
            None => {
                bytes[0] = b'"';
                bytes[1] = b')';
                (bytes, 2)
            }
            Some(c) => match go_escape(c) {
                GoEscaped::Plain(c) => {
                    let len = c.encode_utf8(&mut bytes).len();
                    (bytes, len)
                }
                GoEscaped::Ascii(escaped, len) => (escaped, usize::from(len)),
            },
        }
    };
    let ((x, xn), (y, yn)) = (written(a), written(b));
    x.iter().take(xn).cmp(y.iter().take(yn))
}

/// A const's printed form in pieces: a head that tells the kind of value,
/// a body when it can be told without printing, and a tail.
struct ConstForm {
    head: &'static str,
    body: Option<FormBody>,
    tail: &'static str,
}

#[derive(Clone, Copy)]
enum FormBody {
    Fixed(&'static str),
    /// An integer's decimal digits (sign included), in a buffer.
    Digits([u8; 24], usize),
}

fn const_form(c: &ConstType) -> ConstForm {
    let form = |head, body, tail| ConstForm { head, body, tail };
    match c.value() {
        Value::Bool(true) => form("cty.True", Some(FormBody::Fixed("")), ""),
        Value::Bool(false) => form("cty.False", Some(FormBody::Fixed("")), ""),
        Value::Null => form(
            "cty.NullVal(",
            Some(FormBody::Fixed(cty_type_name(c.underlying()))),
            ")",
        ),
        Value::Unknown => form(
            "cty.UnknownVal(",
            Some(FormBody::Fixed(cty_type_name(c.underlying()))),
            ")",
        ),
        // Strings are compared by `compare_go_quoted`; against another
        // kind the head decides.
        Value::String(_) => form("cty.StringVal(\"", None, "\")"),
        Value::Number(n) => match n.small_integer() {
            Some(v) => form(
                "cty.NumberIntVal(",
                Some(integer_digits(n.is_negative(), v)),
                ")",
            ),
            None if n.is_integer() => form("cty.NumberIntVal(", None, ")"),
            None if n.is_exact_f64() => form("cty.NumberFloatVal(", None, ")"),
            None => form("cty.MustParseNumberVal(", None, ")"),
        },
        Value::List(_) => form("cty.TupleVal(", None, ")"),
    }
}

/// The decimal digits of `v`, after a `-` when `negative`.
fn integer_digits(negative: bool, v: u64) -> FormBody {
    let mut digits = [0u8; 24];
    let mut len = 0;
    let mut push = |b: u8| {
        if let Some(slot) = digits.get_mut(len) {
            *slot = b;
            len += 1;
        }
    };
    if negative {
        push(b'-');
    }
    let mut scale = 1u64;
    while scale <= v / 10 {
        scale *= 10;
    }
    while scale > 0 {
        push(b'0' + (v / scale % 10) as u8);
        scale /= 10;
    }
    FormBody::Digits(digits, len)
}

#[cfg(test)]
/// The order of two printed forms known only by their heads (a prefix of
/// each, and whether it is the whole form), when the heads decide it.
fn compare_heads((a, a_whole): (&str, bool), (b, b_whole): (&str, bool)) -> Option<Ordering> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if let Some((x, y)) = a.iter().zip(b).find(|(x, y)| x != y) {
        return Some(x.cmp(y));
    }
    // One head is a prefix of the other.
    match a.len().cmp(&b.len()) {
        _ if a_whole && b_whole => Some(a.len().cmp(&b.len())),
        // A whole form that is a proper prefix of the other's start.
        Ordering::Less if a_whole => Some(Ordering::Less),
        Ordering::Greater if b_whole => Some(Ordering::Greater),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{compare_heads, compare_keys};
    use crate::print::{display_head, display_prefix};
    use std::cmp::Ordering;

    /// Long enough for every printed form here.
    const SORT_KEY_LIMIT: usize = 16 * 1024;

    /// The structural order, which must agree with the printed one on
    /// these small types.
    fn compare_unprinted(a: &Type, b: &Type) -> Option<Ordering> {
        Some(compare_keys(a, b))
    }
    use crate::ty::Type;
    use crate::value::{Number, Value};
    use proptest::prelude::*;

    /// Const types of every kind the shortcut reads, and some it leaves
    /// to printing.
    fn sample_consts() -> Vec<Type> {
        let strings = [
            "",
            "a",
            "ab",
            "a\"",
            "a\\",
            "\"",
            "\\",
            "a\nb",
            "a\tb",
            "\r",
            "\u{7}",
            "\u{8}",
            "\u{b}",
            "\u{c}",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "\u{85}",
            "\u{9f}",
            "\u{a0}",
            "é",
            "e\u{301}",
            "\u{2028}",
            "\u{feff}",
            "😀",
            "\u{10ffff}",
            "\u{e000}",
            "~",
            "!",
            " ",
            "#",
            "(",
            ")",
            ")x",
            "\")",
            "cty",
            "Z",
            "z",
            "0",
            "-1",
            "abc\u{0}def",
            "\u{ad}",
        ];
        let numbers = [
            "0",
            "-0",
            "1",
            "-1",
            "2",
            "9",
            "10",
            "11",
            "99",
            "100",
            "-10",
            "123",
            "-123",
            "999999",
            "-999999",
            "1000000",
            "-1000000",
            "12345678901234567890",
            "1e21",
            "1.5",
            "-1.5",
            "0.1",
            "1e-7",
            "3.14159",
            "2147483647",
            "-2147483648",
            "4294967296",
        ];
        let mut out = Vec::new();
        for s in strings {
            out.push(Type::literal(Value::string(s)));
        }
        for n in numbers {
            if let Some(n) = Number::parse(n) {
                out.push(Type::literal(Value::Number(n.clone())));
                out.push(Type::constant(Type::number(), Value::Number(n)));
            }
        }
        for underlying in [
            Type::string(),
            Type::int(),
            Type::number(),
            Type::bool(),
            Type::dynamic(),
        ] {
            out.push(Type::constant(underlying.clone(), Value::Null));
            out.push(Type::constant(underlying, Value::Unknown));
        }
        out.push(Type::literal(Value::Bool(true)));
        out.push(Type::literal(Value::Bool(false)));
        out.push(Type::literal(Value::List(vec![Value::int(1)].into())));
        out
    }

    fn assert_orders_like_printed(types: &[Type]) -> usize {
        let mut decided = 0;
        for a in types {
            let key_a = display_prefix(a, SORT_KEY_LIMIT);
            for b in types {
                let key_b = display_prefix(b, SORT_KEY_LIMIT);
                if let Some(order) = compare_unprinted(a, b) {
                    decided += 1;
                    assert_eq!(order, key_a.cmp(&key_b), "{key_a} vs {key_b}");
                }
            }
        }
        decided
    }

    /// Consts compare without printing exactly as their printed forms do.
    #[test]
    fn consts_order_like_printed_keys() {
        let types = sample_consts();
        let decided = assert_orders_like_printed(&types);
        // Strings, bools, nulls, unknowns and small integers are decided
        // without printing (about 100 of them): most pairs.
        assert!(decided > types.len() * types.len() / 2, "{decided}");
        let string = |s: &str| Type::literal(Value::string(s));
        for (a, b) in [
            ("a", "b"),
            ("a", "a\""),
            ("\u{1}", "a"),
            ("é", "z"),
            ("", "a"),
        ] {
            assert!(
                compare_unprinted(&string(a), &string(b)).is_some(),
                "{a:?} {b:?}"
            );
        }
        let int = |v: i64| Type::literal(Value::int(v));
        assert!(compare_unprinted(&int(12), &int(-3)).is_some());
        assert!(compare_unprinted(&int(7), &string("7")).is_some());
        // The union's order is the printed keys' order.
        let mut by_key = types.clone();
        by_key.sort_by_key(|t| display_prefix(t, SORT_KEY_LIMIT));
        let union = Type::union(types.iter().rev().cloned());
        let mut printed: Vec<String> = union
            .as_union()
            .map(|u| {
                u.elements()
                    .iter()
                    .map(|t| display_prefix(t, SORT_KEY_LIMIT))
                    .collect()
            })
            .unwrap_or_default();
        // Sorted; consts that print alike but differ (`int` and `number`
        // underlying) are kept side by side.
        assert!(printed.windows(2).all(|w| w[0] <= w[1]), "{printed:?}");
        printed.dedup();
        let mut want: Vec<String> = by_key
            .iter()
            .map(|t| display_prefix(t, SORT_KEY_LIMIT))
            .collect();
        want.dedup();
        assert_eq!(printed, want);
    }

    fn const_strategy() -> impl Strategy<Value = Type> {
        // A small alphabet, so that strings often share prefixes and differ
        // at a quote, an escape or the end.
        let small = prop_oneof![
            Just('a'),
            Just(' '),
            Just('!'),
            Just('"'),
            Just('\\'),
            Just('\u{1}'),
            Just('\n'),
            Just('é'),
            Just('\u{85}'),
            Just('\u{2028}'),
        ];
        let text = proptest::collection::vec(
            prop_oneof![
                6 => small,
                1 => proptest::char::range('\u{0}', '\u{ff}'),
                1 => any::<char>(),
            ],
            0..5,
        )
        .prop_map(|cs| Type::literal(Value::string(cs.into_iter().collect::<String>())));
        prop_oneof![
            text,
            any::<i64>().prop_map(|v| Type::literal(Value::int(v))),
            (-1_100_000i64..1_100_000).prop_map(|v| Type::literal(Value::int(v))),
            any::<bool>().prop_map(|v| Type::literal(Value::Bool(v))),
            any::<f64>().prop_filter_map("finite", |f| {
                Number::parse(&f.to_string()).map(|n| Type::literal(Value::Number(n)))
            }),
            Just(Type::constant(Type::string(), Value::Null)),
            Just(Type::constant(Type::int(), Value::Unknown)),
        ]
    }

    proptest! {
        #[test]
        fn const_shortcut_agrees_with_printed_order(
            types in proptest::collection::vec(const_strategy(), 2..12)
        ) {
            assert_orders_like_printed(&types);
            let mut want: Vec<String> = types
                .iter()
                .map(|t| display_prefix(t, SORT_KEY_LIMIT))
                .collect();
            want.sort();
            want.dedup();
            let union = Type::union(types.clone());
            let mut got: Vec<String> = match union.as_union() {
                Some(u) => u.elements().iter().map(|t| display_prefix(t, SORT_KEY_LIMIT)).collect(),
                None => vec![display_prefix(&union, SORT_KEY_LIMIT)],
            };
            prop_assert!(got.windows(2).all(|w| w[0] <= w[1]), "{:?}", got);
            got.dedup();
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn heads_order_like_printed_keys() {
        let obj = Type::object([("a", Type::int())]);
        let types = vec![
            Type::none(),
            Type::bool(),
            Type::int(),
            Type::number(),
            Type::string(),
            Type::id(),
            Type::dynamic(),
            Type::opaque("Archive"),
            Type::opaque("cty"),
            Type::opaque("object"),
            Type::opaque("objectx"),
            Type::opaque("output"),
            Type::opaque("list"),
            Type::opaque("type"),
            Type::opaque("a:b:C"),
            Type::opaque("a:b:D"),
            Type::list(Type::string()),
            Type::list(Type::int()),
            Type::map(obj.clone()),
            Type::set(Type::none()),
            Type::promise(Type::int()),
            Type::output(obj.clone()),
            Type::output(Type::list(obj.clone())),
            Type::output(Type::int()),
            Type::output(Type::int()),
            Type::output(Type::opaque("int-x")),
            Type::output(Type::optional(Type::int())),
            Type::output(Type::list(Type::map(Type::string()))),
            Type::output(Type::list(Type::map(Type::number()))),
            Type::output(Type::list(Type::map(Type::opaque("string")))),
            Type::output(Type::list(Type::opaque("map"))),
            Type::list(Type::opaque("list")),
            Type::list(Type::list(Type::string())),
            Type::list(Type::set(obj.clone())),
            Type::list(Type::set(Type::object([("b", Type::int())]))),
            Type::tuple([Type::int()]),
            obj.clone(),
            Type::object([("a", Type::string())]),
            Type::literal(Value::string("x")),
            Type::literal(Value::int(3)),
            Type::literal(Value::Bool(true)),
            Type::enumeration(
                "t:a",
                Type::string(),
                vec![Value::string("v")],
                Default::default(),
            )
            .unwrap_or_else(|_| Type::none()),
        ];
        for a in &types {
            let (head, whole) = display_head(a);
            let key_a = display_prefix(a, SORT_KEY_LIMIT);
            assert!(key_a.starts_with(head), "{key_a} / {head}");
            assert_eq!(whole, key_a == head, "{key_a}");
            for b in &types {
                let key_b = display_prefix(b, SORT_KEY_LIMIT);
                if let Some(order) = compare_heads(display_head(a), display_head(b)) {
                    assert_eq!(order, key_a.cmp(&key_b), "{key_a} vs {key_b}");
                }
                if let Some(order) = compare_unprinted(a, b) {
                    assert_eq!(order, key_a.cmp(&key_b), "{key_a} vs {key_b}");
                }
            }
        }
        // Every order is decided the same way as by the printed keys.
        let mut by_key = types.clone();
        by_key.sort_by_key(|t| display_prefix(t, SORT_KEY_LIMIT));
        let union = Type::union(types.clone());
        let elements = union
            .as_union()
            .map(|u| u.elements().to_vec())
            .unwrap_or_default();
        let mut deduplicated: Vec<Type> = Vec::new();
        for t in by_key {
            if !deduplicated.last().is_some_and(|l| l.equals(&t)) {
                deduplicated.push(t);
            }
        }
        assert_eq!(elements.len(), deduplicated.len());
        for (x, y) in elements.iter().zip(&deduplicated) {
            assert!(x.ptr_eq(y), "{x} vs {y}");
        }
    }

    #[test]
    fn sorted_flat_deduplicated() {
        let u = Type::union([Type::string(), Type::int(), Type::bool(), Type::int()]);
        assert_eq!(format!("{u}"), "union(bool, int, string)");
        let nested = Type::union([Type::optional(Type::string()), Type::optional(Type::int())]);
        assert_eq!(format!("{nested}"), "union(int, none, string)");
        assert_eq!(Type::union([Type::bool(), Type::bool()]), Type::bool());
        assert_eq!(format!("{}", Type::union([])), "union()");
        assert_eq!(Type::optional(Type::none()), Type::none());
    }

    #[test]
    fn pairs_normalise_like_the_general_path() {
        // Two non-union elements take the pair path; the same two with a
        // duplicate take the general one (flatten, sort, dedup): the
        // results must print and compare the same, in both argument orders.
        let obj = |t: Type| Type::object([("a", t)]);
        let types = vec![
            Type::none(),
            Type::string(),
            Type::opaque("Archive"),
            Type::output(Type::string()),
            Type::output(Type::int()),
            Type::list(Type::string()),
            obj(Type::int()),
            obj(Type::string()),
            Type::literal(Value::string("x")),
            Type::literal(Value::int(3)),
        ];
        for a in &types {
            for b in &types {
                let pair = Type::union([a.clone(), b.clone()]);
                let general = Type::union([a.clone(), b.clone(), b.clone()]);
                let swapped = Type::union([b.clone(), a.clone()]);
                let text = crate::to_notation(&pair);
                assert_eq!(text, crate::to_notation(&general), "{a} | {b}");
                assert_eq!(text, crate::to_notation(&swapped), "{a} | {b}");
                if b.is_none() && a.as_union().is_none() {
                    assert_eq!(text, crate::to_notation(&Type::optional(a.clone())));
                }
            }
        }
    }
}
