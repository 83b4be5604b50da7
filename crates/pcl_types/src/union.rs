//! Union normalisation (types.md §1.8): flatten, sort by `String()`,
//! deduplicate adjacent equal elements, collapse singletons.
//!
//! Sorting by the printed form reproduces the reference's element order, which
//! is observable (union equality is order-sensitive and `Pretty()` prints in
//! stored order). Each element's sort key is printed once per construction.

use crate::object::Annotations;
use crate::print::display_prefix;

/// Longest sort key printed for one union element.
const SORT_KEY_LIMIT: usize = 16 * 1024;
use crate::ty::{Type, TypeKind};

pub(crate) fn normalise_union(elements: Vec<Type>, annotations: Annotations) -> Type {
    let mut flat: Vec<Type> = Vec::with_capacity(elements.len());
    for e in elements {
        match e.kind() {
            TypeKind::Union(u) => flat.extend(u.elements().iter().cloned()),
            _ => flat.push(e),
        }
    }
    let mut keyed: Vec<(String, Type)> = flat
        .into_iter()
        .map(|t| (display_prefix(&t, SORT_KEY_LIMIT), t))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<Type> = Vec::with_capacity(keyed.len());
    for (_, t) in keyed {
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

#[cfg(test)]
mod tests {
    use crate::ty::Type;

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
}
