//! Tests of the flat tree: its views, navigation and size.

use pcl_diagnostics::FileId;

use super::*;
use crate::parse;

fn offset_of(text: &str, needle: &str) -> u32 {
    match text.find(needle) {
        Some(at) => at as u32,
        None => panic!("{needle:?} not in {text:?}"),
    }
}

#[test]
fn an_expression_node_is_24_bytes() {
    assert_eq!(std::mem::size_of::<ExprNode>(), 24);
}

#[test]
fn innermost_expression_and_parents() {
    let text = "a = f(x.y + 2, [3])\n";
    let parse = parse(FileId(0), text);
    let Some(two) = parse.body().expr_at(offset_of(text, "2")) else {
        panic!("no expression at 2:\n{}", parse.dump());
    };
    assert_eq!(two.text(), "2");
    let Some(sum) = two.parent() else {
        panic!("2 has no parent");
    };
    assert!(matches!(sum.kind(), ExprKind::Binary(b) if b.op == BinaryOp::Add));
    let Some(call) = sum.parent() else {
        panic!("the sum has no parent");
    };
    assert!(matches!(call.kind(), ExprKind::Call(c) if c.name() == "f"));
    assert!(
        call.parent().is_none(),
        "an attribute's expression is a root"
    );
    let Some(y) = parse.body().expr_at(offset_of(text, "y")) else {
        panic!("no expression at y");
    };
    assert_eq!(y.text(), "x.y", "a step belongs to its traversal");
}

#[test]
fn node_at_finds_comments_labels_and_bodies() {
    let text = "# lead\nresource r \"t:m:R\" {\n  a = 1 # trail\n\n}\n";
    let parse = parse(FileId(0), text);
    let body = parse.body();
    assert!(
        matches!(body.node_at(offset_of(text, "lead")), NodeRef::Comment(c) if c.text() == "# lead")
    );
    assert!(
        matches!(body.node_at(offset_of(text, "trail")), NodeRef::Comment(c) if c.content() == " trail")
    );
    assert!(
        matches!(body.node_at(offset_of(text, "t:m")), NodeRef::Label(l) if l.value() == "t:m:R")
    );
    assert!(matches!(body.node_at(offset_of(text, "1")), NodeRef::Expr(e) if e.text() == "1"));
    let blank = offset_of(text, "\n\n}") + 1;
    assert!(matches!(body.node_at(blank), NodeRef::Body(b) if b.range() != body.range()));
}

#[test]
fn lists_iterate_both_ways_and_index() {
    let text = "a = [1, 2, 3]\n";
    let parse = parse(FileId(0), text);
    let Some(attr) = parse.body().attributes().next() else {
        panic!("no attribute");
    };
    let ExprKind::Tuple(items) = attr.expr().kind() else {
        panic!("not a tuple");
    };
    let forward: Vec<&str> = items.iter().map(ExprRef::text).collect();
    let backward: Vec<&str> = items.iter().rev().map(ExprRef::text).collect();
    assert_eq!(forward, ["1", "2", "3"]);
    assert_eq!(backward, ["3", "2", "1"]);
    assert_eq!(items.get(1).map(ExprRef::text), Some("2"));
    assert!(items.get(3).is_none());
    assert_eq!(items.len(), 3);
}

#[test]
fn numbers_are_inline_up_to_u64_and_exact_beyond() {
    let text = "a = 18446744073709551615\nb = 18446744073709551616\nc = 1.5\n";
    let parse = parse(FileId(0), text);
    let values: Vec<String> = parse
        .body()
        .attributes()
        .map(|a| match a.expr().kind() {
            ExprKind::Literal(Literal::Number(n)) => format!("{:?}", n.value),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        values,
        [
            "Int(18446744073709551615)",
            "Big(18446744073709551616)",
            "Fraction(1.5)"
        ]
    );
    assert_eq!(parse.tree().bigs.len(), 1);
}

#[test]
fn decoded_text_lives_in_the_side_buffer_only_when_it_differs() {
    let text = "a = \"plain\"\nb = \"tab\\t\"\n";
    let parse = parse(FileId(0), text);
    let literals: Vec<&str> = parse
        .body()
        .attributes()
        .filter_map(|a| match a.expr().kind() {
            ExprKind::Template(t) => t.literal_value(),
            _ => None,
        })
        .collect();
    assert_eq!(literals, ["plain", "tab\t"]);
    assert_eq!(parse.tree().decoded, "tab\t");
}
