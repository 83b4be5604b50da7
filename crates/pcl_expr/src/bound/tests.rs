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
            root_type: Type::dynamic(),
            steps: Box::new([BoundStep {
                kind: BoundStepKind::Attr("a".into()),
                ty: Type::dynamic(),
                range: r(start + 1),
            }]),
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
        Some(Box::new(InvokeTokens {
            written: "w".into(),
            schema: Some("s".into()),
            canonical: Some("t".into()),
            unresolved: None,
        })),
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
/// is two nodes per `+1`. Every definition and attribute of a program
/// holds a tree, which is 40 bytes (120 when it held its vectors inline),
/// an optional one too; the small shapes live in those 40 bytes.
#[test]
fn sizes() {
    use std::mem::size_of;
    let trees = (size_of::<BoundTree>(), size_of::<Option<BoundTree>>());
    assert!(trees.0 <= 40, "{trees:?}");
    assert_eq!(trees.0, trees.1, "{trees:?}");
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
    let invoke = c.invoke().unwrap();
    assert_eq!(
        (
            invoke.written_token(),
            invoke.schema_token(),
            invoke.canonical_token()
        ),
        ("w", Some("s"), "t")
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
    assert!(
        flat(&t).types.len() + 2 < order.len(),
        "repeats share entries"
    );
    let copy = BoundTree::new().take_exact();
    assert!(copy.is_empty());
    let mut scratch = t.clone();
    let taken = scratch.take_exact();
    assert_eq!(taken, t);
    assert!(scratch.is_empty() && flat(&scratch).types.is_empty());
}

/// The flat form of a tree being built (or of a large frozen one).
fn flat(t: &BoundTree) -> &Flat {
    match &t.repr {
        Repr::Flat(f) => f,
        other => panic!("not flat: {other:?}"),
    }
}

/// The form a tree is stored in.
fn form(t: &BoundTree) -> &'static str {
    match &t.repr {
        Repr::Empty => "empty",
        Repr::One { .. } => "one",
        Repr::Ref { .. } => "ref",
        Repr::Pair { .. } => "pair",
        Repr::Flat(_) => "flat",
    }
}

/// Everything the views show of node `id` and of its children, with
/// child ids: two trees with equal descriptions of every node read the
/// same.
fn describe(t: &BoundTree, id: BoundId) -> String {
    let e = t.get(id);
    let mut children = Vec::new();
    e.for_each_child(&mut |c| children.push(c.id()));
    let detail = match e.kind() {
        BoundExprKind::Literal(v) => format!("{v:?}"),
        BoundExprKind::Unary { op, .. } => format!("{op:?}"),
        BoundExprKind::Binary { op, .. } => format!("{op:?}"),
        BoundExprKind::ScopeTraversal(st) => format!("{st:?}"),
        BoundExprKind::RelativeTraversal { steps, .. } => format!("{steps:?}"),
        BoundExprKind::Call(c) => format!("{:?} {:?}", c.name, c.invoke_token),
        BoundExprKind::Object(pairs) => format!("{} pairs", pairs.len()),
        _ => String::new(),
    };
    assert!(std::ptr::eq(e.ty(), t.ty_of(id)));
    format!(
        "{}#{id}@{:?}: {:?} {detail} {children:?}",
        e.kind_name(),
        e.range(),
        e.ty()
    )
}

fn describe_all(t: &BoundTree) -> Vec<String> {
    (0..t.len() as BoundId + 1)
        .map(|id| describe(t, id))
        .collect()
}

/// Small trees of each shape, built as the binder builds them, with the
/// form each freezes into.
fn small_shapes() -> Vec<(&'static str, &'static str, BoundTree)> {
    let string = || Type::literal(Value::String("x".into()));
    let mut out = Vec::new();
    let mut shape = |name, form, build: &dyn Fn(&mut BoundTree)| {
        let mut t = BoundTree::new();
        build(&mut t);
        out.push((name, form, t));
    };
    shape("literal", "one", &|t| {
        number(t, 1, 0);
    });
    shape("error", "one", &|t| {
        t.error(r(0));
    });
    shape("empty tuple", "one", &|t| {
        t.tuple(&[], Type::dynamic(), r(0));
    });
    shape("empty object", "one", &|t| {
        t.object(&[], Type::dynamic(), r(0));
    });
    shape("empty template", "one", &|t| {
        t.template(&[], Type::string(), r(0));
    });
    shape("folded negation", "one", &|t| {
        let one = number(t, 1, 1);
        t.pop_literal(one);
        number(t, -1, 0);
    });
    shape("name", "ref", &|t| {
        reference(t, "x", 4, 0);
    });
    shape("string", "pair", &|t| {
        let text = t.literal(string(), r(1));
        t.template(&[text], Type::string(), TextRange::new(0, 3));
    });
    shape("one-item tuple", "pair", &|t| {
        let one = number(t, 1, 1);
        t.tuple(&[one], Type::dynamic(), TextRange::new(0, 3));
    });
    shape("negation", "pair", &|t| {
        let e = t.error(r(1));
        t.unary(UnaryOp::Negate, e, Type::number(), TextRange::new(0, 2));
    });
    shape("not", "pair", &|t| {
        let e = t.error(r(1));
        t.unary(UnaryOp::Not, e, Type::bool(), TextRange::new(0, 2));
    });
    shape("parentheses", "pair", &|t| {
        let one = number(t, 1, 1);
        t.parens(one, Type::number(), TextRange::new(0, 3));
    });
    shape("template join", "pair", &|t| {
        let inner = t.tuple(&[], Type::dynamic(), r(3));
        t.template_join(inner, Type::string(), r(2));
    });
    shape("tuple of an empty object", "pair", &|t| {
        let inner = t.object(&[], Type::dynamic(), r(1));
        t.tuple(&[inner], Type::dynamic(), TextRange::new(0, 4));
    });
    shape("template of a name", "flat", &|t| {
        let x = reference(t, "x", 4, 3);
        t.template(&[x], Type::string(), TextRange::new(0, 6));
    });
    shape("parenthesised name", "flat", &|t| {
        let x = reference(t, "x", 4, 1);
        t.parens(x, Type::dynamic(), TextRange::new(0, 3));
    });
    shape("object of one item", "flat", &|t| {
        let k = t.literal(string(), r(1));
        let v = number(t, 1, 3);
        t.object(&[k, v], Type::dynamic(), TextRange::new(0, 5));
    });
    shape("tuple of a one-item tuple", "flat", &|t| {
        let one = number(t, 1, 2);
        let inner = t.tuple(&[one], Type::dynamic(), r(1));
        t.tuple(&[inner], Type::dynamic(), TextRange::new(0, 5));
    });
    shape("call without arguments", "flat", &|t| {
        let sig = Signature::dynamic();
        t.call(
            "f",
            r(0),
            None,
            &[],
            false,
            sig,
            None,
            Type::dynamic(),
            r(0),
        );
    });
    shape("two references", "flat", &|t| {
        let a = reference(t, "a", 1, 1);
        let b = reference(t, "b", 2, 3);
        t.binary(BinaryOp::Add, a, b, Type::number(), r(0));
    });
    out
}

/// Each small shape freezes into its inline form (the rest into the flat
/// one) and reads back through the views exactly as the tree it was built
/// in; the scratch is left empty, ready for the next tree.
#[test]
fn small_trees_freeze_inline_and_read_back_the_same() {
    let mut scratch = BoundTree::new();
    for (name, expected, built) in small_shapes() {
        scratch = built.clone();
        let frozen = scratch.take_exact();
        assert_eq!(form(&frozen), expected, "{name}");
        assert_eq!(describe_all(&frozen), describe_all(&built), "{name}");
        assert_eq!(frozen.len(), built.len(), "{name}");
        assert_eq!(frozen.root().id(), built.root().id(), "{name}");
        assert!(scratch.is_empty(), "{name}: the scratch is emptied");
        assert_eq!(form(&scratch), "flat", "{name}: and keeps its vectors");
        assert_eq!(frozen.clone(), frozen, "{name}");
        let mut again = frozen.clone();
        assert_eq!(again.take_exact(), frozen, "{name}: freezing twice");
    }
    assert_eq!(form(&scratch), "flat");
}

/// Pushing onto a frozen inline tree turns it back into the flat form
/// first: its nodes keep their ids, types and children.
#[test]
fn pushing_onto_an_inline_tree_keeps_its_nodes() {
    for (name, _, built) in small_shapes() {
        let mut frozen = built.clone().take_exact();
        let before = describe_all(&frozen);
        let root = frozen.root().id();
        let wrapped = frozen.parens(root, Type::dynamic(), TextRange::new(0, 9));
        assert_eq!(form(&frozen), "flat", "{name}");
        assert_eq!(wrapped, root + 1, "{name}");
        let after = describe_all(&frozen);
        assert_eq!(
            after[..before.len() - 1],
            before[..before.len() - 1],
            "{name}"
        );
        let BoundExprKind::Parens(inner) = frozen.kind() else {
            panic!("{name}: {:?}", frozen.root())
        };
        assert_eq!(inner.id(), root, "{name}");
    }
}

/// The inline forms read no node, type or list beyond their own: ids past
/// the end read as errors, as in the flat form.
#[test]
fn inline_trees_read_ids_past_the_end_as_errors() {
    for (name, form_name, built) in small_shapes() {
        let frozen = built.clone().take_exact();
        let past = frozen.get(frozen.len() as BoundId);
        assert_eq!(past.kind_name(), "ErrorExpression", "{name} ({form_name})");
        assert!(past.ty().ptr_eq(missing_type()), "{name}");
        assert_eq!(frozen.get(u32::MAX).kind_name(), "ErrorExpression");
    }
}

/// The scratch tree keeps its vectors' room across small trees, which are
/// copied out at their exact size; a tree over the copy limit is moved
/// out and shrunk, leaving the scratch without room to hold on to.
#[test]
fn large_trees_are_moved_out_of_the_scratch() {
    let mut scratch = chain(3, 1);
    let small = scratch.take_exact();
    assert_eq!(form(&small), "flat");
    assert_eq!(flat(&small).nodes.capacity(), 5);
    assert!(
        flat(&scratch).nodes.capacity() >= 5,
        "the scratch keeps its room"
    );

    let large = chain(2_000, 7);
    let mut scratch = large.clone();
    let moved = scratch.take_exact();
    assert_eq!(moved, large);
    assert_eq!(flat(&moved).nodes.capacity(), flat(&moved).nodes.len());
    assert!(scratch.is_empty());
    assert_eq!(
        flat(&scratch).nodes.capacity(),
        0,
        "the room left with the tree"
    );
    let BoundExprKind::Binary { rhs, .. } = moved.kind() else {
        panic!("{:?}", moved.root())
    };
    assert_eq!(rhs.kind_name(), "LiteralValueExpression");
    assert_eq!(rhs.range(), r(4 * 1_999));
}
