//! Union normalisation (types.md §1.8): flatten, sort by `String()`,
//! deduplicate adjacent equal elements, collapse singletons.
//!
//! Sorting by the printed form reproduces the reference's element order, which
//! is observable (union equality is order-sensitive and `Pretty()` prints in
//! stored order). Elements are first compared by the head of their printed
//! form (`output(`, `object({`, `string`, …), which every printing starts
//! with, looking through equal one-element wrappers (`output(list(…))`);
//! the same node twice compares equal; only elements whose heads cannot
//! decide are printed, each at most once per construction (and an object's
//! printed form, once final, is remembered on the object). The order is exactly that of the printed keys.

use std::cell::OnceCell;
use std::cmp::Ordering;
use std::sync::Arc;

use crate::object::Annotations;
use crate::print::{display_head, display_prefix};
use crate::ty::{Type, TypeKind};

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
    use crate::value::Value;

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
