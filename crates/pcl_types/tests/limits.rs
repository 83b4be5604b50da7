//! Scale and depth limits: wide, deep unions and recursive schema types stay
//! polynomial, and types nested far beyond `MAX_TYPE_DEPTH` do not overflow
//! a 2 MiB stack.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl_types::*;

/// A 64-member union nested `depth` deep: each level holds `list` and `map`
/// of the level below plus 62 opaque members.
fn wide_deep(depth: usize, tag: &str) -> Type {
    let mut t = Type::union((0..64).map(|i| Type::opaque(format!("leaf{tag}{i}"))));
    for level in 0..depth {
        let mut members = vec![Type::list(t.clone()), Type::map(t.clone())];
        members.extend((0..62).map(|i| Type::opaque(format!("t{level}_{i}"))));
        t = Type::union(members);
    }
    t
}

fn schema_type(extra: &str) -> Type {
    // A recursive schema object: Node { next: Node?, children: list(Node), attrs: map(Node | string), extra: int }
    let node = Type::deferred_object(ObjectOptions {
        name: Some("test:index:Node".into()),
        ..ObjectOptions::default()
    });
    assert!(node.define_object([
        ("next", Type::optional(node.clone())),
        ("children", Type::list(node.clone())),
        (
            "attrs",
            Type::map(Type::union([node.clone(), Type::string()]))
        ),
        (extra, Type::int()),
    ]));
    node
}

#[test]
fn wide_deep_unions_are_polynomial() {
    let a = wide_deep(8, "a");
    let b = wide_deep(8, "b");
    let a2 = wide_deep(8, "a");
    assert_eq!(a, a2);
    assert_eq!(conversion_from(&a, &a2), ConversionKind::Safe);
    // b's leaves are unrelated opaque types: some members convert, some do not.
    assert_eq!(conversion_from(&a, &b), ConversionKind::Unsafe);
    assert_eq!(conversion_from(&b, &a), ConversionKind::Unsafe);
    let (_, k) = unify(&a, &b);
    assert!(k.exists());
    let u = unify_types(&[a.clone(), b.clone(), a2.clone()]);
    assert_ne!(conversion_from(&u.safe, &a), ConversionKind::None);
    let _ = input_type(&a);
    assert!(pretty_capped(&a).chars().count() < 1000);
}

#[test]
fn recursive_schema_types_convert_and_unify() {
    let a = schema_type("x");
    let b = schema_type("y");
    assert_eq!(conversion_from(&a, &schema_type("x")), ConversionKind::Safe);
    // missing `x` in b converts to int: none -> int is N.
    assert_eq!(conversion_from(&a, &b), ConversionKind::None);
    let input = input_type(&a);
    assert_eq!(conversion_from(&input, &a), ConversionKind::Safe);
    let (u, k) = unify(&a, &b);
    assert_eq!(k, ConversionKind::Safe);
    assert_ne!(conversion_from(&u, &a), ConversionKind::None);
    assert_ne!(conversion_from(&u, &b), ConversionKind::None);
    let text = to_notation(&u);
    let back: Type = text.parse().unwrap();
    assert_eq!(back, u);
    assert!(to_notation(&a).starts_with("rec($T1, object({"));
    assert_eq!(
        pretty_capped(&Type::list(a.clone())),
        "list(test:index:Node)"
    );
    let out = resolve_outputs(&Type::output(a.clone()));
    assert_eq!(out, a);
    assert!(explain_conversion(&a, &b)
        .unwrap()
        .message()
        .starts_with("`x`: missing, expected int"));
}

/// Runs `f` on a thread with a 2 MiB stack.
fn small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow");
}

fn nested(depth: usize, leaf: Type) -> Type {
    let mut t = leaf;
    for i in 0..depth {
        t = match i % 3 {
            0 => Type::list(t),
            1 => Type::object([("p", t)]),
            _ => Type::union([t, Type::none()]),
        };
    }
    t
}

#[test]
fn depth_limits_hold_on_a_small_stack() {
    small_stack(|| {
        let deep = 2000;
        let a = nested(deep, Type::int());
        let b = nested(deep, Type::string());
        let _ = conversion_from(&a, &b);
        let _ = assignable_from(&a, &b);
        let _ = a == b;
        let _ = unify(&a, &b);
        let _ = unify_types(&[a.clone(), b.clone()]);
        let _ = input_type(&a);
        let o = Type::output(a.clone());
        assert!(contains_outputs(&o));
        let _ = resolve_outputs(&o);
        let s = a.to_string();
        assert!(s.contains('…'));
        let _ = pretty(&a);
        let _ = pretty_capped(&a);
        let _ = to_notation(&a);
        let _ = explain_conversion(&a, &b);
        let mut t = a.clone();
        for _ in 0..deep {
            let r = traverse(&t, &Traverser::Literal(Value::int(0)));
            if r.has_errors() {
                break;
            }
            t = r.ty;
        }
        let deep_text = "list(".repeat(5000) + "int" + &")".repeat(5000);
        assert!(deep_text.parse::<Type>().is_err());
        let label = bind_type_label(&("list(".repeat(5000) + "int" + &")".repeat(5000)));
        assert!(!label.diagnostics.is_empty());
    });
}
