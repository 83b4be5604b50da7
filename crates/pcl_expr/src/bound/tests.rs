//! Tests of the flat bound tree: node sizes, pushing and reading back
//! every kind through the views, post-order children, and whole-tree
//! walks, clones and comparisons of deep trees (see the parent module).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::scope::NodeId;
use pcl_types::Number;

fn r(start: u32) -> TextRange {
    TextRange::new(start, start + 1)
}

fn number(t: &mut BoundTree, n: i64, start: u32) -> BoundId {
    t.literal(Type::literal(Value::Number(Number::from_i64(n))), r(start))
}

fn reference(t: &mut BoundTree, name: &str, node: u32, start: u32) -> BoundId {
    t.scope_traversal(
        BoundScopeTraversal {
            root: name.into(),
            root_range: r(start),
            definition: Some(Definition::Node(NodeId(node))),
            steps: vec![BoundStep {
                kind: BoundStepKind::Attr("a".into()),
                ty: Type::dynamic(),
                range: r(start + 1),
            }],
        },
        Type::dynamic(),
        r(start),
    )
}

/// `1 + 1 + … + last`, as the binder shapes it: left-leaning.
fn chain(terms: u32, last: i64) -> BoundTree {
    let mut t = BoundTree::new();
    let mut acc = number(&mut t, 1, 0);
    for i in 1..terms {
        let rhs = number(&mut t, if i + 1 == terms { last } else { 1 }, 4 * i);
        acc = t.binary(
            BinaryOp::Add,
            acc,
            rhs,
            Type::number(),
            TextRange::new(0, 4 * i + 1),
        );
    }
    t
}

/// `f(1, r.a) ` in a `for`, in an object, in a tuple, splatted, under a
/// conditional: one of each kind with children, and fields beside them.
fn sample() -> BoundTree {
    let mut t = BoundTree::new();
    let not_operand = t.error(r(17));
    let condition = t.unary(UnaryOp::Not, not_operand, Type::bool(), r(16));
    let one = number(&mut t, 1, 7);
    let traversal = reference(&mut t, "r", 3, 1);
    let call = t.call(
        "f",
        r(5),
        None,
        &[one, traversal],
        true,
        Signature::dynamic(),
        Some("t".into()),
        Type::dynamic(),
        r(5),
    );
    let value = t.splat_item(Type::dynamic(), r(9));
    let zero = number(&mut t, 0, 10);
    let for_expr = t.for_expr(
        ForData {
            key_var: Some("k".into()),
            value_var: "v".into(),
            collection: call,
            key: None,
            value,
            condition: Some(zero),
            grouping: false,
        },
        Type::dynamic(),
        r(8),
    );
    let parens = t.parens(for_expr, Type::dynamic(), r(13));
    let two = number(&mut t, 2, 12);
    let key = t.template(&[two], Type::string(), r(11));
    let object = t.object(&[key, parens], Type::dynamic(), r(11));
    let tuple = t.tuple(&[object], Type::dynamic(), r(14));
    let item = t.splat_item(Type::dynamic(), r(15));
    let each = t.relative_traversal(item, Box::new([]), Type::dynamic(), r(15));
    let splat = t.splat(tuple, each, Type::dynamic(), r(14));
    let three = number(&mut t, 3, 19);
    let join = t.template_join(three, Type::string(), r(18));
    let four = number(&mut t, 4, 20);
    let index = t.index(join, four, Type::dynamic(), r(18));
    t.conditional([condition, splat, index], Type::dynamic(), r(16));
    t
}

/// A bound tree holds a node per expression, so these sizes are what a
/// check costs per source byte on dense input (#18 finding 7): `1+1+…`
/// is two nodes per `+1`. A tree holds its vectors and its first two
/// types inline (an attribute of one literal allocates only its node).
#[test]
fn sizes() {
    use std::mem::size_of;
    assert!(size_of::<BoundTree>() <= 120, "{}", size_of::<BoundTree>());
    let sizes = (
        size_of::<Node>(),
        size_of::<Value>(),
        size_of::<Definition>(),
        size_of::<BoundStep>(),
        size_of::<BoundRef<'_>>(),
    );
    assert_eq!(sizes.0, 20, "{sizes:?}");
    assert!(sizes.1 <= 24, "{sizes:?}");
    assert!(sizes.2 <= 16, "{sizes:?}");
    assert!(sizes.3 <= 40, "{sizes:?}");
    assert!(sizes.4 <= 16, "{sizes:?}");
}

/// A name reference's side entry stays at 56 bytes: a one-word root name
/// and a two-word definition (`${a}${a}…`, #18 finding 7).
#[test]
fn scope_traversal_fits_56_bytes() {
    use std::mem::size_of;
    let sizes = (
        size_of::<Option<Definition>>(),
        size_of::<BoundScopeTraversal>(),
    );
    assert!(sizes.0 <= 16, "{sizes:?}");
    assert!(sizes.1 <= 56, "{sizes:?}");
}

/// Every kind reads back through the views with its fields and its
/// children, in source order.
#[test]
fn every_kind_reads_back() {
    let t = sample();
    let root = t.root();
    assert_eq!(root.id() as usize, t.len() - 1);
    let BoundExprKind::Conditional {
        condition,
        then_expr,
        else_expr,
    } = root.kind()
    else {
        panic!("{root:?}")
    };
    assert_eq!(root.range(), r(16));
    let BoundExprKind::Unary { op, operand } = condition.kind() else {
        panic!("{condition:?}")
    };
    assert_eq!(op, UnaryOp::Not);
    assert!(matches!(operand.kind(), BoundExprKind::Error));
    assert_eq!(condition.ty(), &Type::bool());

    let BoundExprKind::Splat { source, each } = then_expr.kind() else {
        panic!("{then_expr:?}")
    };
    let BoundExprKind::RelativeTraversal {
        source: item,
        steps,
    } = each.kind()
    else {
        panic!("{each:?}")
    };
    assert!(steps.is_empty());
    assert!(matches!(item.kind(), BoundExprKind::SplatItem));
    let BoundExprKind::Tuple(items) = source.kind() else {
        panic!("{source:?}")
    };
    assert_eq!(items.len(), 1);
    let object = items.only().unwrap();
    let BoundExprKind::Object(pairs) = object.kind() else {
        panic!("{object:?}")
    };
    assert_eq!(pairs.len(), 1);
    let (key, value) = pairs.get(0).unwrap();
    assert_eq!(key.key_string(), None, "a template of a number is no key");
    let BoundExprKind::Template(parts) = key.kind() else {
        panic!("{key:?}")
    };
    assert!(matches!(
        parts.only().unwrap().kind(),
        BoundExprKind::Literal(Value::Number(n)) if n.notation() == "2"
    ));
    let BoundExprKind::For(f) = value.strip_parens().kind() else {
        panic!("{value:?}")
    };
    assert_eq!(
        (f.key_var, f.value_var, f.grouping),
        (Some("k"), "v", false)
    );
    assert!(f.key.is_none());
    assert!(matches!(f.value.kind(), BoundExprKind::SplatItem));
    assert_eq!(f.condition.map(|c| c.range()), Some(r(10)));
    let BoundExprKind::Call(c) = f.collection.kind() else {
        panic!("{:?}", f.collection)
    };
    assert_eq!(
        (c.name, c.expand_final, c.invoke_token),
        ("f", true, Some("t"))
    );
    assert_eq!(c.args.len(), 2);
    let BoundExprKind::ScopeTraversal(st) = c.args.last().unwrap().kind() else {
        panic!("{:?}", c.args)
    };
    assert_eq!(&*st.root, "r");
    assert_eq!(st.steps.len(), 1);

    let BoundExprKind::Index { collection, key } = else_expr.kind() else {
        panic!("{else_expr:?}")
    };
    let BoundExprKind::TemplateJoin(joined) = collection.kind() else {
        panic!("{collection:?}")
    };
    assert_eq!(joined.range(), r(19));
    assert_eq!(key.range(), r(20));
}

/// Children are stored before their parent, the last one just before it;
/// the pre-order walk visits every node once, in source order.
#[test]
fn children_come_first_and_the_walk_sees_every_node() {
    let t = sample();
    let mut visited = Vec::new();
    t.root().walk(&mut |e| {
        e.for_each_child(&mut |c| assert!(c.id() < e.id(), "{c:?} under {e:?}"));
        visited.push(e.id());
    });
    let mut sorted = visited.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), t.len(), "every node once");
    assert_eq!(visited.first(), Some(&t.root().id()));
    let names: Vec<&str> = visited.iter().map(|&id| t.get(id).kind_name()).collect();
    assert_eq!(names[1], "UnaryOpExpression");
    assert_eq!(names.last(), Some(&"LiteralValueExpression"));
}

/// References and calls are listed in source order, each once.
#[test]
fn references_and_calls_are_listed_once_in_order() {
    let mut t = BoundTree::new();
    let mut items = Vec::new();
    for (i, node) in [7, 3, 7, 9, 3].into_iter().enumerate() {
        let a = reference(&mut t, "x", node, 10 * i as u32);
        let call_name = ["g", "f", "g", "h", "f"][i];
        items.push(t.call(
            call_name,
            r(0),
            None,
            &[a],
            false,
            Signature::dynamic(),
            None,
            Type::dynamic(),
            r(0),
        ));
    }
    t.tuple(&items, Type::dynamic(), r(0));
    let refs = t.root().node_references();
    assert_eq!(refs, vec![NodeId(7), NodeId(3), NodeId(9)]);
    assert_eq!(t.root().called_functions(), vec!["g", "f", "h"]);
}

/// Many distinct references: each listed once, in order (a set beside the
/// list keeps this linear).
#[test]
fn many_distinct_references_are_each_listed() {
    let mut t = BoundTree::new();
    let items: Vec<BoundId> = (0..20_000)
        .map(|i| reference(&mut t, "x", i % 10_000, i))
        .collect();
    t.tuple(&items, Type::dynamic(), r(0));
    let refs = t.root().node_references();
    assert_eq!(refs.len(), 10_000);
    assert!(refs.iter().enumerate().all(|(i, n)| n.0 as usize == i));
}

/// An id outside the tree reads as an error node.
#[test]
fn ids_outside_the_tree_read_as_errors() {
    let t = chain(3, 1);
    let outside = t.get(1_000);
    assert_eq!(outside.kind_name(), "ErrorExpression");
    let empty = BoundTree::new();
    assert_eq!(empty.root().kind_name(), "ErrorExpression");
    assert!(empty.is_empty());
}

/// A folded `-<number>` removes its operand literal.
#[test]
fn pop_literal_only_removes_the_last_literal() {
    let mut t = chain(2, 1);
    let before = t.len();
    t.pop_literal(0);
    assert_eq!(t.len(), before, "not the last node");
    let lit = number(&mut t, 5, 9);
    t.pop_literal(lit);
    assert_eq!(t.len(), before);
}

/// Cloning, comparing, walking and dropping a 100 000-term chain on a
/// 2 MiB stack: a flat tree never recurses.
#[test]
fn long_chains_clone_compare_and_walk_on_a_small_stack() {
    let (same, differs, last, walked) = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let a = chain(100_000, 1);
            let b = a.clone();
            let c = chain(100_000, 2);
            let last = match b.kind() {
                BoundExprKind::Binary { rhs, .. } => rhs.range(),
                _ => TextRange::default(),
            };
            let mut walked = 0usize;
            b.root().walk(&mut |_| walked += 1);
            (a == b, a == c, last, walked)
        })
        .expect("spawn")
        .join()
        .expect("cloning, comparing or walking overflowed the stack");
    assert!(same);
    assert!(!differs);
    assert_eq!(last, TextRange::new(399_996, 399_997));
    assert_eq!(walked, 199_999);
}

/// Every node reads back the type it was pushed with, whether the type is
/// one of the two held inline, one of the recent ones in the table, or
/// one seen long before (pushed again then).
#[test]
fn types_read_back_through_the_table() {
    let distinct: Vec<Type> = (0..20)
        .map(|i| Type::literal(Value::Number(Number::from_i64(i))))
        .collect();
    let order: Vec<usize> = [
        0, 1, 0, 2, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 2, 0, 19, 3, 3,
    ]
    .into_iter()
    .chain((0..40).map(|i| (i * 7) % 20))
    .collect();
    let mut t = BoundTree::new();
    let ids: Vec<BoundId> = order
        .iter()
        .enumerate()
        .map(|(i, &k)| t.literal(distinct[k].clone(), r(i as u32)))
        .collect();
    for (&id, &k) in ids.iter().zip(&order) {
        assert!(t.get(id).ty().ptr_eq(&distinct[k]), "node {id}: type {k}");
        assert!(matches!(
            t.get(id).kind(),
            BoundExprKind::Literal(Value::Number(n)) if n.notation() == k.to_string()
        ));
    }
    assert!(t.types.len() + 2 < order.len(), "repeats share entries");
    let copy = BoundTree::new().take_exact();
    assert!(copy.is_empty());
    let mut scratch = t.clone();
    let taken = scratch.take_exact();
    assert_eq!(taken, t);
    assert!(scratch.is_empty() && scratch.types.is_empty());
}
