//! Tests of the bound tree's sizes and of its hand-written `Clone`,
//! `PartialEq` and `Drop` (see the parent module).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use pcl_types::Number;

fn expr(kind: BoundExprKind, start: u32) -> BoundExpr {
    BoundExpr {
        kind,
        ty: Type::dynamic(),
        range: TextRange::new(start, start + 1),
    }
}

fn number(n: i64, start: u32) -> BoundExpr {
    expr(
        BoundExprKind::Literal(Value::Number(Number::from_i64(n))),
        start,
    )
}

/// `1 + 1 + … + last`, as the binder shapes it: left-leaning.
fn chain(terms: u32, last: i64) -> BoundExpr {
    let mut e = number(1, 0);
    for i in 1..terms {
        let rhs = number(if i + 1 == terms { last } else { 1 }, 4 * i);
        e = expr(
            BoundExprKind::Binary {
                op: BinaryOp::Add,
                lhs: Box::new(e),
                rhs: Box::new(rhs),
            },
            0,
        );
    }
    e
}

/// One of each kind with children, and fields beside them.
fn sample() -> BoundExpr {
    let traversal = expr(
        BoundExprKind::ScopeTraversal(Box::new(BoundScopeTraversal {
            root: "r".into(),
            root_range: TextRange::new(1, 2),
            definition: Some(Definition::Node(NodeId(3))),
            steps: vec![BoundStep {
                kind: BoundStepKind::Attr("a".into()),
                ty: Type::dynamic(),
                range: TextRange::new(2, 4),
            }],
        })),
        1,
    );
    let call = expr(
        BoundExprKind::Call(Box::new(BoundCall {
            name: "f".into(),
            name_range: TextRange::new(5, 6),
            function: None,
            args: vec![number(1, 7), traversal.clone()],
            expand_final: true,
            signature: Signature::dynamic(),
            invoke_token: Some("t".into()),
        })),
        5,
    );
    let for_expr = expr(
        BoundExprKind::For(Box::new(BoundFor {
            key_var: Some("k".into()),
            value_var: "v".into(),
            collection: call,
            key: None,
            value: expr(BoundExprKind::SplatItem, 9),
            condition: Some(number(0, 10)),
            grouping: false,
        })),
        8,
    );
    let object = expr(
        BoundExprKind::Object(vec![(
            expr(BoundExprKind::Template(vec![number(2, 12)]), 11),
            expr(BoundExprKind::Parens(Box::new(for_expr)), 13),
        )]),
        11,
    );
    let splat = expr(
        BoundExprKind::Splat {
            source: Box::new(expr(BoundExprKind::Tuple(vec![object]), 14)),
            each: Box::new(expr(
                BoundExprKind::RelativeTraversal {
                    source: Box::new(expr(BoundExprKind::SplatItem, 15)),
                    steps: Box::new([]),
                },
                15,
            )),
        },
        14,
    );
    expr(
        BoundExprKind::Conditional {
            condition: Box::new(expr(
                BoundExprKind::Unary {
                    op: pcl_syntax::tree::UnaryOp::Not,
                    operand: Box::new(expr(BoundExprKind::Error, 17)),
                },
                16,
            )),
            then_expr: Box::new(splat),
            else_expr: Box::new(expr(
                BoundExprKind::Index {
                    collection: Box::new(expr(
                        BoundExprKind::TemplateJoin(Box::new(number(3, 19))),
                        18,
                    )),
                    key: Box::new(number(4, 20)),
                },
                18,
            )),
        },
        16,
    )
}

/// A bound tree holds a node per expression, so these sizes are what a
/// check costs per source byte on dense input (#18 finding 7).
#[test]
fn sizes() {
    use std::mem::size_of;
    let sizes = (
        size_of::<Value>(),
        size_of::<Definition>(),
        size_of::<BoundExprKind>(),
        size_of::<BoundExpr>(),
        size_of::<BoundStep>(),
        size_of::<pcl_types::Number>(),
    );
    assert!(sizes.0 <= 24, "{sizes:?}");
    assert!(sizes.1 <= 24, "{sizes:?}");
    assert!(sizes.2 <= 32, "{sizes:?}");
    assert!(sizes.3 <= 48, "{sizes:?}");
    assert!(sizes.4 <= 40, "{sizes:?}");
    assert!(sizes.5 <= 24, "{sizes:?}");
}

/// A name reference's box: 56 bytes, so that with the allocator's header
/// it takes a 64-byte block, not an 80-byte one (`${a}${a}…`, #18
/// finding 7). A one-word root name and a two-word definition keep it
/// there.
#[test]
fn scope_traversal_box_fits_56_bytes() {
    use std::mem::size_of;
    let sizes = (
        size_of::<Definition>(),
        size_of::<Option<Definition>>(),
        size_of::<BoundScopeTraversal>(),
    );
    assert!(sizes.0 <= 16, "{sizes:?}");
    assert!(sizes.1 <= 16, "{sizes:?}");
    assert!(sizes.2 <= 56, "{sizes:?}");
}

/// The clone is equal, prints the same, and differences anywhere —
/// in a child or in a field beside the children — are seen.
#[test]
fn clone_and_eq_cover_every_kind() {
    let a = sample();
    let b = a.clone();
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    let edits: Vec<fn(&mut BoundExpr)> = vec![
        |e| e.range = TextRange::new(0, 1),
        |e| e.ty = Type::string(),
        |e| {
            let BoundExprKind::Conditional { else_expr, .. } = &mut e.kind else {
                panic!()
            };
            let BoundExprKind::Index { key, .. } = &mut else_expr.kind else {
                panic!()
            };
            **key = number(5, 20);
        },
        |e| {
            let BoundExprKind::Conditional { condition, .. } = &mut e.kind else {
                panic!()
            };
            let BoundExprKind::Unary { op, .. } = &mut condition.kind else {
                panic!()
            };
            *op = pcl_syntax::tree::UnaryOp::Negate;
        },
    ];
    for (i, edit) in edits.into_iter().enumerate() {
        let mut c = a.clone();
        edit(&mut c);
        assert_ne!(a, c, "edit {i}");
    }
    // Deep inside: the for expression's fields and its call.
    fn find_for(e: &mut BoundExpr) -> &mut BoundFor {
        let BoundExprKind::Conditional { then_expr, .. } = &mut e.kind else {
            panic!()
        };
        let BoundExprKind::Splat { source, .. } = &mut then_expr.kind else {
            panic!()
        };
        let BoundExprKind::Tuple(items) = &mut source.kind else {
            panic!()
        };
        let BoundExprKind::Object(pairs) = &mut items[0].kind else {
            panic!()
        };
        let BoundExprKind::Parens(p) = &mut pairs[0].1.kind else {
            panic!()
        };
        let BoundExprKind::For(f) = &mut p.kind else {
            panic!()
        };
        f
    }
    let for_edits: Vec<fn(&mut BoundFor)> = vec![
        |f| f.key = Some(number(0, 9)),
        |f| f.grouping = true,
        |f| f.value_var = "w".into(),
        |f| {
            let BoundExprKind::Call(c) = &mut f.collection.kind else {
                panic!()
            };
            c.args.pop();
        },
        |f| {
            let BoundExprKind::Call(c) = &mut f.collection.kind else {
                panic!()
            };
            let BoundExprKind::ScopeTraversal(t) = &mut c.args[1].kind else {
                panic!()
            };
            t.steps.clear();
        },
    ];
    for (i, edit) in for_edits.into_iter().enumerate() {
        let mut c = a.clone();
        edit(find_for(&mut c));
        assert_ne!(a, c, "for edit {i}");
        assert_ne!(c, a, "for edit {i}");
    }
}

/// Cloning and comparing a 100 000-term chain (and dropping it) on a
/// 2 MiB stack: the derived implementations would recurse once per
/// term and overflow.
#[test]
fn long_chains_clone_and_compare_on_a_small_stack() {
    let (same, differs, last) = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let a = chain(100_000, 1);
            let b = a.clone();
            let c = chain(100_000, 2);
            let last = match &b.kind {
                BoundExprKind::Binary { rhs, .. } => rhs.range,
                _ => TextRange::default(),
            };
            (a == b, a == c, last)
        })
        .expect("spawn")
        .join()
        .expect("cloning or comparing overflowed the stack");
    assert!(same);
    assert!(!differs);
    assert_eq!(last, TextRange::new(399_996, 399_997));
}
