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
fn an_expression_slot_is_16_bytes() {
    assert_eq!(std::mem::size_of::<Slot>(), 16);
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

/// The one expression of `text`'s first attribute.
fn first_expr(parse: &crate::Parse) -> ExprRef<'_> {
    match parse.body().attributes().next() {
        Some(attr) => attr.expr(),
        None => panic!("no attribute:\n{}", parse.dump()),
    }
}

#[test]
fn one_token_expressions_are_not_stored() {
    let text = "a = [1, x, true, null, \"s\", \"\", 2.5, \"t\\n\", \"${y}\"]\n";
    let parse = parse(FileId(0), text);
    let ExprKind::Tuple(items) = first_expr(&parse).kind() else {
        panic!("not a tuple:\n{}", parse.dump());
    };
    let kinds: Vec<String> = items
        .iter()
        .map(|e| match e.kind() {
            ExprKind::Literal(Literal::Number(n)) => format!("{:?}", n.value),
            ExprKind::Literal(l) => format!("{l:?}"),
            ExprKind::Variable(v) => format!("var {}", v.name),
            ExprKind::Template(t) => {
                let parts: Vec<String> = t
                    .parts()
                    .iter()
                    .map(|p| format!("{} {:?}", p.range(), p.kind()))
                    .collect();
                format!("{:?} {:?} {parts:?}", e.text(), t.literal_value())
            }
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds.len(), 9, "{kinds:#?}");
    assert_eq!(kinds[..4], ["Int(1)", "var x", "Bool(true)", "Null"]);
    assert!(
        kinds[4].starts_with("\"\\\"s\\\"\" Some(\"s\") [\"24..25 Literal"),
        "{}",
        kinds[4]
    );
    assert_eq!(kinds[5], "\"\\\"\\\"\" Some(\"\") []");
    assert_eq!(kinds[6], "Fraction(2.5)");
    assert!(kinds[7].contains("Some(\"t\\n\")"), "{}", kinds[7]);
    // Stored: the tuple, the escaped string and the interpolated one (the
    // `y` inside it is a leaf).
    assert_eq!(parse.tree().expr_count(), 3, "{}", parse.dump());
    for item in items {
        assert_eq!(item.parent().map(|p| p.id()), Some(first_expr(&parse).id()));
    }
}

#[test]
fn binary_operators_keep_their_positions_near_and_far() {
    let text = "a = (1+2  *  x ||\n  y     &&   z % 3 >= 4)\n";
    let parse = parse(FileId(0), text);
    let mut ops = Vec::new();
    let mut stack = vec![first_expr(&parse)];
    while let Some(e) = stack.pop() {
        if let ExprKind::Binary(b) = e.kind() {
            ops.push((b.op.as_str(), parse.text().get(b.op_range.to_usize())));
        }
        e.for_each_child(|c| stack.push(c));
    }
    ops.sort();
    let expected = [
        ("%", "%"),
        ("&&", "&&"),
        ("*", "*"),
        ("+", "+"),
        (">=", ">="),
        ("||", "||"),
    ];
    let expected: Vec<(&str, Option<&str>)> =
        expected.iter().map(|(o, t)| (*o, Some(*t))).collect();
    assert_eq!(ops, expected, "{}", parse.dump());
    // The table of the operators a tag can hold is in declaration order
    // (a tag is the index).
    for (index, op) in BinaryOp::ALL.iter().enumerate() {
        assert_eq!(*op as usize, index);
    }
}

#[test]
fn traversals_keep_their_source_leaf_or_node() {
    let text = "a = x.b[0].c\nb = f(1).d\nc = (x).e\n";
    let parse = parse(FileId(0), text);
    let sources: Vec<(&str, usize)> = parse
        .body()
        .attributes()
        .map(|a| match a.expr().kind() {
            ExprKind::Traversal(t) => (t.source().text(), t.steps().len()),
            other => panic!("not a traversal: {other:?}"),
        })
        .collect();
    assert_eq!(sources, [("x", 3), ("f(1)", 1), ("(x)", 1)]);
    let text = "a = x.0 .b[y]\n";
    let parse = crate::parse(FileId(0), text);
    let ExprKind::Traversal(t) = first_expr(&parse).kind() else {
        panic!("not a traversal:\n{}", parse.dump());
    };
    let steps: Vec<String> = t
        .steps()
        .iter()
        .map(|s| match s.kind() {
            StepKind::Attr(name) => format!("attr {} {}", name.name, name.range),
            StepKind::Index(e) => format!("index {}", e.text()),
            StepKind::LegacyIndex { text, value } => format!("legacy {text} {value}"),
        })
        .collect();
    assert_eq!(steps, ["legacy 0 0", "attr b 9..10", "index y"]);
}

/// Items in their common forms keep no side records (an empty block not
/// even its body); the other forms do, and read back what was parsed.
#[test]
fn items_are_compact_in_their_common_forms() {
    let text = "a=1\nbb = 2\nb{\n}\nc {\n  d = 3\n}\n";
    let parse = parse(FileId(0), text);
    let tree = parse.tree();
    assert!(tree.attr_extras.is_empty(), "{}", parse.dump());
    assert!(tree.blocks.is_empty(), "{}", parse.dump());
    // The root's and `c`'s bodies; `b`'s is empty and not stored.
    assert_eq!(tree.bodies.len(), 2, "{}", parse.dump());
    let b = block_of(&parse, "b");
    assert_eq!(b.open_brace_range(), TextRange::new(12, 13));
    assert_eq!(b.close_brace_range(), TextRange::new(14, 15));
    assert_eq!(b.body().range(), TextRange::new(13, 14));
    assert_eq!(b.body().items().len(), 0);
    let d: Vec<&str> = block_of(&parse, "c")
        .body()
        .attributes()
        .map(|a| a.name())
        .collect();
    assert_eq!(d, ["d"]);
    let bb = parse
        .body()
        .attributes()
        .nth(1)
        .map(|a| (a.name(), a.equals_range()));
    assert_eq!(bb, Some(("bb", TextRange::new(7, 8))));

    // A label, comments, a missing `}`, an `=` 64 KiB past the name.
    let gap = " ".repeat(70_000);
    let text = format!("# c\nr \"l\" {{\n}} # t\nx{gap}= 1\nu {{\n");
    let parse = crate::parse(FileId(0), &text);
    let tree = parse.tree();
    assert_eq!(tree.attr_extras.len(), 1, "{}", parse.dump());
    // `r` (its label); `u`'s missing `}` is where its body ends, which
    // the compact form can say.
    assert_eq!(tree.blocks.len(), 1, "{}", parse.dump());
    let r = block_of(&parse, "r");
    assert_eq!(
        r.labels().iter().map(|l| l.value()).collect::<Vec<_>>(),
        ["l"]
    );
    assert_eq!(
        r.leading_comments()
            .iter()
            .map(|c| c.text())
            .collect::<Vec<_>>(),
        ["# c"]
    );
    assert_eq!(
        r.trailing_comments()
            .iter()
            .map(|c| c.text())
            .collect::<Vec<_>>(),
        ["# t"]
    );
    let x = parse.body().attributes().next();
    let name = offset_of(&text, "\nx") + 1;
    let eq = name + 1 + 70_000;
    assert_eq!(
        x.map(|a| (a.name_range(), a.equals_range())),
        Some((TextRange::new(name, name + 1), TextRange::new(eq, eq + 1)))
    );
    let u = block_of(&parse, "u");
    let end = text.len() as u32;
    assert_eq!(u.close_brace_range(), TextRange::empty(end));
}

fn block_of<'p>(parse: &'p crate::Parse, name: &str) -> BlockRef<'p> {
    match parse.body().blocks().find(|b| b.type_name() == name) {
        Some(block) => block,
        None => panic!("no block {name}:\n{}", parse.dump()),
    }
}
