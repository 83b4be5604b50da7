//! Union normalisation (types.md §1.8): flatten, sort by `String()`,
//! deduplicate adjacent equal elements, collapse singletons.
//!
//! Sorting by the printed form reproduces the reference's element order, which
//! is observable (union equality is order-sensitive and `Pretty()` prints in
//! stored order). Elements are first compared by the head of their printed
//! form (`output(`, `object({`, `string`, …), which every printing starts
//! with, looking through equal one-element wrappers (`output(list(…))`);
//! the same node twice compares equal; two consts compare by the pieces of
//! their printed forms (a string's quoted text is compared character by
//! character, never built), so a union of n literals costs no printing;
//! only elements none of this can decide are printed, each at most once per
//! construction (and an object's printed form, once final, is remembered on
//! the object). The order is exactly that of the printed keys.

use std::cell::OnceCell;
use std::cmp::Ordering;
use std::sync::Arc;

use crate::object::Annotations;
use crate::print::{cty_type_name, display_head, display_prefix};
use crate::ty::{ConstType, Type, TypeKind};
use crate::value::{go_escape, GoEscaped, Value};

/// Longest sort key printed for one union element.
const SORT_KEY_LIMIT: usize = 16 * 1024;

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
    // Sorting compares the heads of the printed forms first (no printing);
    // only elements whose heads cannot decide are printed, each once.
    let mut keyed: Vec<(Type, OnceCell<String>)> =
        flat.into_iter().map(|t| (t, OnceCell::new())).collect();
    keyed.sort_by(|a, b| {
        if a.0.ptr_eq(&b.0) {
            // One node: one printed form.
            return Ordering::Equal;
        }
        compare_unprinted(&a.0, &b.0).unwrap_or_else(|| {
            let ka = a.1.get_or_init(|| display_prefix(&a.0, SORT_KEY_LIMIT));
            let kb = b.1.get_or_init(|| display_prefix(&b.0, SORT_KEY_LIMIT));
            ka.cmp(kb)
        })
    });
    let mut out: Vec<Type> = Vec::with_capacity(keyed.len());
    for (t, _) in keyed {
        if out.last().is_some_and(|last| last.equals(&t)) {
            continue;
        }
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
    let order = if a.ptr_eq(&b) {
        Ordering::Equal
    } else {
        compare_unprinted(&a, &b).unwrap_or_else(|| {
            display_prefix(&a, SORT_KEY_LIMIT).cmp(&display_prefix(&b, SORT_KEY_LIMIT))
        })
    };
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

/// Levels of equal one-element wrappers [`compare_unprinted`] looks
/// through.
const WRAPPER_LEVELS: usize = 8;

/// The order of the printed keys of `a` and `b` when it can be told without
/// printing: by their heads, or, when both are the same one-element wrapper
/// (`output(…)`, `list(…)`, …), by the heads of what they wrap. Inside a
/// wrapper only a differing byte decides (the wrapper's `)` follows a
/// shorter form), and two equal whole heads are equal forms. Heads are at
/// most a few bytes, so the decisive byte is far below the sort key's cut.
fn compare_unprinted(a: &Type, b: &Type) -> Option<Ordering> {
    let (mut a, mut b) = (a, b);
    for level in 0..=WRAPPER_LEVELS {
        let (ha, hb) = (display_head(a), display_head(b));
        if level == 0 {
            if let Some(order) = compare_heads(ha, hb) {
                return Some(order);
            }
        } else if let Some((x, y)) = ha.0.bytes().zip(hb.0.bytes()).find(|(x, y)| x != y) {
            return Some(x.cmp(&y));
        } else if ha.1 && hb.1 && ha.0 == hb.0 {
            return Some(Ordering::Equal);
        }
        if ha.0 != hb.0 {
            return None;
        }
        (a, b) = match (a.kind(), b.kind()) {
            (TypeKind::Const(x), TypeKind::Const(y)) if level == 0 => {
                return compare_consts(x, y);
            }
            (TypeKind::List(x), TypeKind::List(y))
            | (TypeKind::Map(x), TypeKind::Map(y))
            | (TypeKind::Set(x), TypeKind::Set(y))
            | (TypeKind::Promise(x), TypeKind::Promise(y))
            | (TypeKind::Output(x), TypeKind::Output(y)) => (x, y),
            _ => return None,
        };
    }
    None
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
    use super::{compare_heads, compare_unprinted, SORT_KEY_LIMIT};
    use crate::print::{display_head, display_prefix};
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
