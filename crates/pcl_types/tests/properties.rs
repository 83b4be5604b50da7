//! Property tests over generated types.
//!
//! * every type converts safely to itself;
//! * print (notation) then parse gives an equal type;
//! * the safe result of `UnifyTypes(a, b)` accepts both inputs, except that
//!   unifying mode ignores tuple lengths and one-sided properties, and scores
//!   tuple elements and object properties by their *unify* kinds, which are
//!   Safe even for unrelated types (types.md §2.6), so a safe result may
//!   reject a shorter tuple, or a tuple or object whose element or property
//!   does not convert (e.g. `tuple(bool)` against `promise(tuple(none))`,
//!   or, through a union member, `promise(object({b = bool}))` against
//!   `union(none, promise(object({b = none})))`);
//! * pairwise unification is commutative in its *type* except for the
//!   documented asymmetries: a const on either side (the left const wins,
//!   types.md §3.2), and ties where both directions convert equally but
//!   only unsafely (then the left operand's kind rule decides, §3.1 step 4).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;

use pcl_types::*;

fn leaf() -> impl Strategy<Value = Type> {
    prop_oneof![
        Just(Type::none()),
        Just(Type::bool()),
        Just(Type::int()),
        Just(Type::number()),
        Just(Type::string()),
        Just(Type::id()),
        Just(Type::dynamic()),
        Just(Type::opaque("Archive")),
        (0i64..3).prop_map(|v| Type::literal(Value::int(v))),
        Just(Type::constant(Type::string(), Value::string("a"))),
    ]
}

fn any_type() -> impl Strategy<Value = Type> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::list),
            inner.clone().prop_map(Type::map),
            inner.clone().prop_map(Type::set),
            inner.clone().prop_map(Type::output),
            inner.clone().prop_map(Type::promise),
            prop::collection::vec(inner.clone(), 0..3).prop_map(Type::tuple),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Type::union),
            prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c"]), inner, 0..3)
                .prop_map(|m| Type::object(m.into_iter())),
        ]
    })
}

/// Whether plain conversion of `src` to `dest` fails only where unifying
/// mode differs from it (types.md §2.6): a tuple length difference, or a
/// mismatch under a tuple element or an object property. The tuple and
/// object unifiers' kinds are the min of the element and property *unify*
/// kinds, and unrelated types unify Safely (to a union), so any mismatch
/// under a tuple element or a property qualifies. An explanation into a
/// union destination is given at the union itself, so there the rule is
/// asked of each member that could have been chosen; a union source
/// qualifies when each of its members converts or qualifies.
fn unifying_exception(dest: &Type, src: &Type) -> bool {
    let Some(why) = explain_conversion(dest, src) else {
        return true;
    };
    let under_unified_member = why
        .path
        .iter()
        .any(|p| matches!(p, PathSegment::Property(_) | PathSegment::Index(_)));
    if matches!(why.reason, MismatchReason::TupleLengths { .. }) || under_unified_member {
        return true;
    }
    if let Some(members) = src.as_union() {
        return members
            .elements()
            .iter()
            .all(|e| unifying_exception(dest, e));
    }
    if let Some(members) = dest.as_union() {
        return members
            .elements()
            .iter()
            .any(|e| explain_conversion(e, src).is_some_and(|_| unifying_exception(e, src)));
    }
    false
}

fn has_const(t: &Type) -> bool {
    to_notation(t).contains("const(")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn converts_safely_to_itself(t in any_type()) {
        prop_assert_eq!(conversion_from(&t, &t), ConversionKind::Safe);
        let copy: Type = to_notation(&t).parse().unwrap();
        prop_assert_eq!(conversion_from(&t, &copy), ConversionKind::Safe);
    }

    #[test]
    fn notation_round_trips(t in any_type()) {
        let text = to_notation(&t);
        let back: Type = text.parse().unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(to_notation(&back), text);
    }

    #[test]
    fn safe_unify_accepts_both(a in any_type(), b in any_type()) {
        let u = unify_types(&[a.clone(), b.clone()]);
        for input in [&a, &b] {
            if conversion_from(&u.safe, input) == ConversionKind::None {
                let why = explain_conversion(&u.safe, input).unwrap();
                prop_assert!(
                    unifying_exception(&u.safe, input),
                    "safe {} rejects {}: {}", u.safe, input, why.message()
                );
            }
        }
    }

    /// `UnifyTypes` as types.md §3.4 states it: two independent folds, each
    /// with its own pairwise unification. `unify_types` shares the step
    /// while both folds are at the same type; the results must not change.
    #[test]
    fn unify_types_is_two_independent_folds(ts in prop::collection::vec(any_type(), 1..5)) {
        let mut safe = ts[0].clone();
        let mut unsafe_ = ts[0].clone();
        for t in &ts[1..] {
            let (s, k) = unify(&safe, t);
            safe = if k == ConversionKind::Safe { s } else { Type::union([safe, t.clone()]) };
            let (u, k) = unify(&unsafe_, t);
            unsafe_ = if k.exists() { u } else { Type::union([unsafe_, t.clone()]) };
        }
        let got = unify_types(&ts);
        prop_assert_eq!(to_notation(&got.safe), to_notation(&safe));
        prop_assert_eq!(to_notation(&got.unsafe_), to_notation(&unsafe_));
        prop_assert_eq!(&got.safe, &safe);
        prop_assert_eq!(&got.unsafe_, &unsafe_);
        // The single folds give the same types.
        prop_assert_eq!(to_notation(&unify_types_safe(&ts)), to_notation(&safe));
        prop_assert_eq!(to_notation(&unify_types_unsafe(&ts)), to_notation(&unsafe_));
    }

    #[test]
    fn unify_commutes(a in any_type(), b in any_type()) {
        prop_assume!(!has_const(&a) && !has_const(&b));
        let (ab, kab) = unify(&a, &b);
        let (ba, kba) = unify(&b, &a);
        // documented exception: equal-strength unsafe ties
        let cf = conversion_from(&a, &b);
        let ct = conversion_from(&b, &a);
        prop_assume!(!(cf == ct && cf == ConversionKind::Unsafe));
        prop_assert_eq!(&ab, &ba, "{} vs {}", ab, ba);
        prop_assert_eq!(kab, kba);
    }
}
