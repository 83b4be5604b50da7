//! Unit tests of the whole pipeline: shapes, recovery, comments, limits
//! and the corpus round trip.

use super::*;
use crate::tree::*;

mod templates;

fn codes_of(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code.as_str()).collect()
}

fn attr_expr<'a>(parse: &'a Parse, name: &str) -> ExprRef<'a> {
    parse
        .body()
        .attributes()
        .find(|a| a.name() == name)
        .map(|a| a.expr())
        .unwrap_or_else(|| panic!("no attribute {name}:\n{}", parse.dump()))
}

#[test]
fn attributes_blocks_and_labels() {
    let text = "a = 1\nresource \"x\\ty\" lbl {\n  b = true\n}\none { c = null }\n";
    let parse = parse(FileId(0), text);
    assert!(!parse.has_errors(), "{}", parse.dump());
    assert_eq!(parse.print(), text);
    let blocks: Vec<BlockRef<'_>> = parse.body().blocks().collect();
    assert_eq!(blocks.len(), 2);
    let labels: Vec<&str> = blocks[0].labels().iter().map(|l| l.value()).collect();
    assert_eq!(labels, vec!["x\ty", "lbl"]);
    assert_eq!(blocks[1].body().attributes().count(), 1);
}

#[test]
fn precedence_and_unary() {
    let parse = parse_expr(FileId(0), "!a == b || -c * d + 1 > 2 ? x : y ? z : w");
    assert!(!parse.has_errors(), "{}", parse.dump());
    let ExprKind::Conditional(cond) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    assert!(matches!(cond.else_expr.kind(), ExprKind::Conditional(_)));
    let ExprKind::Binary(or) = cond.condition.kind() else {
        panic!()
    };
    assert_eq!(or.op, BinaryOp::Or);
    let parse = parse_expr(FileId(0), "-a.b[0]");
    let ExprKind::Unary(unary) = parse.expr().kind() else {
        panic!()
    };
    assert!(matches!(unary.operand.kind(), ExprKind::Traversal(_)));
}

#[test]
fn splat_scopes() {
    // `.*` takes only the attribute steps; the index applies to the result.
    let parse = parse_expr(FileId(0), "a.*.b[0]");
    let ExprKind::Traversal(t) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    assert!(matches!(t.source().kind(), ExprKind::Splat(_)));
    // `[*]` takes the whole rest of the chain.
    let parse = parse_expr(FileId(0), "a[*].b[0]");
    let ExprKind::Splat(s) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    let ExprKind::Traversal(each) = s.each().kind() else {
        panic!()
    };
    assert_eq!(each.steps().len(), 2);
    assert!(!parse_expr(FileId(0), "a.0.b").has_errors());
    assert_eq!(
        codes_of(parse_expr(FileId(0), "a.0.1").diagnostics()),
        vec!["invalid-legacy-index"]
    );
}

#[test]
fn calls_for_and_objects() {
    let text = "x = provider::ns::f(a, b...)\ny = [for k, v in m : v if k != \"\"]\nz = {for k, v in m : k => v... }\no = {\n  a = 1\n  \"b\" : 2, (c) = 3\n}\n";
    let parse = parse(FileId(0), text);
    assert!(!parse.has_errors(), "{}", parse.dump());
    let ExprKind::Call(call) = attr_expr(&parse, "x").kind() else {
        panic!()
    };
    assert_eq!(call.name(), "provider::ns::f");
    assert!(call.expand_final());
    let ExprKind::Object(items) = attr_expr(&parse, "o").kind() else {
        panic!()
    };
    assert_eq!(items.len(), 3);
    assert!(items.get(2).unwrap().force_non_literal());
    assert_eq!(
        codes_of(parse_expr(FileId(0), "[for k, v in m : k => v]").diagnostics()),
        vec!["invalid-for"]
    );
}

#[test]
fn templates_and_heredocs() {
    let text = "a = \"x ${b} \\u00e9 $${c}\"\nh = <<-EOT\n    one\n      two ${x}\n    EOT\nt = \"%{ if c ~} yes %{~ else }no%{ endif }\"\n";
    let parse = parse(FileId(0), text);
    assert!(!parse.has_errors(), "{}", parse.dump());
    assert_eq!(parse.print(), text);
    let ExprKind::Template(h) = attr_expr(&parse, "h").kind() else {
        panic!()
    };
    let Part::Literal(first) = h.parts().get(0).unwrap().kind() else {
        panic!()
    };
    assert_eq!(first.value(), "one\n  two ");
    let ExprKind::Template(t) = attr_expr(&parse, "t").kind() else {
        panic!()
    };
    let Part::If(dir) = t.parts().get(0).unwrap().kind() else {
        panic!("{}", parse.dump())
    };
    let then: Vec<&str> = dir
        .then_parts()
        .iter()
        .map(|p| match p.kind() {
            Part::Literal(lit) => lit.value(),
            _ => "<part>",
        })
        .collect();
    assert_eq!(then, ["yes"]);
    // NFC normalisation of string values.
    let parse = parse_expr(FileId(0), "\"an\\u0303o\"");
    let ExprKind::Template(t) = parse.expr().kind() else {
        panic!()
    };
    assert_eq!(t.literal_value(), Some("a\u{f1}o"));
}

#[test]
fn comments_attach() {
    let text = "# lead 1\n// lead 2\na = 1 # trail a\n\n# lonely\n\n/* b */ b = 2 /* t */\nblk {\n  # inner\n  c = 3\n} # after\n# end\n";
    let parse = parse(FileId(0), text);
    assert!(!parse.has_errors(), "{}", parse.dump());
    let items = parse.body().items();
    let lead: Vec<&str> = items
        .get(0)
        .unwrap()
        .leading_comments()
        .iter()
        .map(|c| c.text())
        .collect();
    assert_eq!(lead, vec!["# lead 1", "// lead 2"]);
    let trail: Vec<&str> = items
        .get(0)
        .unwrap()
        .trailing_comments()
        .iter()
        .map(|c| c.text())
        .collect();
    assert_eq!(trail, vec!["# trail a"]);
    assert_eq!(
        items
            .get(1)
            .unwrap()
            .leading_comments()
            .get(0)
            .unwrap()
            .text(),
        "/* b */"
    );
    assert_eq!(
        items
            .get(1)
            .unwrap()
            .trailing_comments()
            .get(0)
            .unwrap()
            .text(),
        "/* t */"
    );
    assert_eq!(
        items
            .get(2)
            .unwrap()
            .trailing_comments()
            .get(0)
            .unwrap()
            .text(),
        "# after"
    );
    let Item::Block(block) = items.get(2).unwrap().kind() else {
        panic!()
    };
    assert_eq!(
        block
            .body()
            .items()
            .get(0)
            .unwrap()
            .leading_comments()
            .get(0)
            .unwrap()
            .content(),
        " inner"
    );
    let dangling: Vec<&str> = parse
        .body()
        .dangling_comments()
        .iter()
        .map(|c| c.text())
        .collect();
    assert_eq!(dangling, vec!["# lonely", "# end"]);
}

#[test]
fn recovery_resumes_at_next_item() {
    for (text, code) in [
        ("a = \nb = 1\n", "missing-attribute-value"),
        ("a = [1 2]\nb = 1\n", "missing-comma"),
        ("a = \"abc\nb = 1\n", "multiline-string"),
        ("a = f(1,\nb = 1\n", "unclosed-call"),
        ("a = {\n  x = 1 y = 2\n}\nb = 1\n", "missing-item-separator"),
        ("a = 1 2\nb = 1\n", "missing-newline-after-attribute"),
        ("\"a\" = 1\nb = 1\n", "quoted-attribute-name"),
        ("a = (1\nb = 1\n", "unclosed-paren"),
        ("a = x.\nb = 1\n", "invalid-attribute-name"),
        ("a = 1e999999999\nb = 1\n", "number-out-of-range"),
    ] {
        let parse = parse(FileId(0), text);
        assert_eq!(
            codes_of(parse.diagnostics()),
            vec![code],
            "{text:?}\n{}",
            parse.dump()
        );
        assert!(
            parse.body().attributes().any(|a| a.name() == "b"),
            "{text:?}\n{}",
            parse.dump()
        );
        assert_eq!(parse.print(), text);
    }
}

/// Errors at the end of the input still cover a byte: the construct left
/// open, or what the error comes after.
#[test]
fn errors_at_end_of_input_have_nonempty_ranges() {
    for (text, code, covered) in [
        ("re", "expected-attribute-or-block", "re"),
        ("a = b[1", "unclosed-index", "["),
        ("a = b[1\n", "unclosed-index", "["),
        ("a = (1", "unclosed-paren", "("),
        ("a = { b", "unclosed-object", "{"),
        ("a = 1 +", "expected-expression", "+"),
        ("a =", "missing-attribute-value", "="),
        ("blk \"x\"", "expected-attribute-or-block", "blk"),
        ("blk x \"y\"", "invalid-block-header", "\""),
    ] {
        let parse = parse(FileId(0), text);
        let diag = parse
            .diagnostics()
            .iter()
            .find(|d| d.code.as_str() == code)
            .unwrap_or_else(|| panic!("{text:?}: no {code}:\n{}", parse.dump()));
        let range = diag.span.range;
        assert_eq!(
            text.get(range.to_usize()),
            Some(covered),
            "{text:?}: {code} at {range:?}"
        );
    }
    for text in [
        "x",
        "a = [",
        "a = f(",
        "a = \"${",
        "a = <<EOT\n",
        "a {",
        "a = 1 ?",
        "a = x.",
    ] {
        let parse = parse(FileId(0), text);
        assert!(parse.has_errors(), "{text:?}");
        for diag in parse.diagnostics() {
            assert!(
                !diag.span.range.is_empty(),
                "{text:?}: {} has an empty range {:?}",
                diag.code.as_str(),
                diag.span.range
            );
        }
    }
}

#[test]
fn wide_numbers_with_exponents_are_accepted() {
    for text in ["a = 1e100\n", "a = 1.5e300\n", "a = 10.0e200\n"] {
        let parse = parse(FileId(0), text);
        assert!(
            !parse.has_errors(),
            "{text:?}: {:?}",
            codes_of(parse.diagnostics())
        );
        let Some(attr) = parse.body().attributes().next() else {
            panic!("no attribute in {text:?}");
        };
        assert!(
            matches!(
                attr.expr().kind(),
                ExprKind::Literal(Literal::Number(n))
                    if n.text == text.trim_start_matches("a = ").trim_end()
                        && matches!(n.value, NumberValue::Fraction(_))
            ),
            "{text:?}\n{}",
            parse.dump()
        );
    }
    // A plain integer of the same size is exact (no diagnostic), up to
    // the length limit.
    let text = format!("a = 1{}\n", "0".repeat(100));
    assert!(codes_of(parse(FileId(0), &text).diagnostics()).is_empty());
    let text = format!("a = 1{}\n", "0".repeat(crate::literal::MAX_NUMBER_LEN));
    assert_eq!(
        codes_of(parse(FileId(0), &text).diagnostics()),
        vec![codes::NUMBER_TOO_LONG.as_str()]
    );
}

#[test]
fn lossless_on_odd_input() {
    for text in [
        "\u{feff}a = 1\r\nb = \"x\"\r\n",
        "a = <<EOT\r\nx\r\nEOT\r\n",
        "}}}{{{ ((( \"\\",
        "\u{0}\u{7f}\u{a0}“x” ; ` ' & | ^ ~",
        "a = \"${\"${",
        "/* unterminated",
        "x = <<EOT\nno end",
        "%{ if }",
    ] {
        assert_eq!(parse(FileId(0), text).print(), text);
        assert_eq!(parse_expr(FileId(0), text).print(), text);
        assert_eq!(parse_template(FileId(0), text).print(), text);
    }
}

/// Runs `f` on a thread with a 2 MiB stack, like a default test thread.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .map(|h| h.join())
        .expect("spawn")
        .expect("thread panicked");
}

/// The shortcuts for simple attribute values (`simple_atom`: names,
/// numbers, plain strings, `name.attr…` traversals) build exactly the node
/// of the full descent, which parses the same text as a condition
/// (followed by `?`, which no shortcut accepts).
#[test]
fn simple_expression_shortcuts_match_the_full_parser() {
    for text in [
        "a",
        "12",
        "true",
        "\"text\"",
        "a.b",
        "a.b.c.d",
        "true.x",
        "for.in",
        "café.naïve",
        "a.b-c.d_e",
    ] {
        fn value(parse: &Parse) -> ExprRef<'_> {
            match parse.body().attributes().next() {
                Some(attr) => attr.expr(),
                None => panic!("no attribute"),
            }
        }
        let short_parse = parse(FileId(0), format!("x = {text}\n"));
        let full_parse = parse(FileId(0), format!("x = {text} ? 1 : 2\n"));
        assert!(short_parse.diagnostics().is_empty(), "{text}");
        assert!(full_parse.diagnostics().is_empty(), "{text}");
        let (short, full) = (value(&short_parse), value(&full_parse));
        let ExprKind::Conditional(cond) = full.kind() else {
            panic!("{text}: not a conditional: {}", full_parse.dump());
        };
        assert_eq!(
            dump::dump_expr(short, &[]),
            dump::dump_expr(cond.condition, &[]),
            "{text}"
        );
    }
}

/// Long tokens are scanned by loops, not by recursion: a debug build's
/// lexer overflowed a 2 MiB stack on a long string with escapes (logos's
/// generated DFA calls itself once per byte there) and on a long comment.
#[test]
fn long_tokens_fit_a_small_stack() {
    on_small_stack(|| {
        let n = 2_000_000;
        let cases = [
            format!("a = \"{}\"\n", "x\\n".repeat(n / 3 + 1)),
            format!("a = \"{}\\\"\"\n", "y".repeat(n)),
            format!("a = \"{}\\\n", "z".repeat(n)),
            format!("# {}\na = 1\n", "c".repeat(n)),
            format!("// {}\na = 1\n", "c".repeat(n)),
            format!("a = 1 # {}", "c".repeat(n)),
            format!("a = \"${{\"{}\"}}\"\n", "w\\t".repeat(n / 3 + 1)),
        ];
        for text in cases {
            let parse = parse(FileId(0), &text);
            assert_eq!(parse.print(), text);
            // One literal (or comment) token covers the long run.
            assert!(
                parse.tokens().iter().any(|t| t.range.len() as usize >= n),
                "{:?}",
                &parse.tokens()[..parse.tokens().len().min(8)]
            );
        }
    });
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    on_small_stack(|| {
        let n = 100_000;
        let cases = [
            format!("a = {}1{}\n", "(".repeat(n), ")".repeat(n)),
            format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n)),
            format!("a = {}1{}\n", "{a=".repeat(n), "}".repeat(n)),
            format!("a = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
            format!("a = {}\n", "-".repeat(n) + "1"),
            format!("a = {}\n", "!".repeat(n) + "x"),
            format!("a = {}x\n", "a ? b : ".repeat(n)),
            format!("a = {}1{}\n", "\"${".repeat(n), "}\"".repeat(n)),
            format!(
                "a = \"{}{}\"\n",
                "%{ if x }".repeat(n),
                "%{ endif }".repeat(n)
            ),
            format!("{}{}", "b {\n".repeat(n), "}\n".repeat(n)),
            format!("a = x{}\n", "[*]".repeat(n)),
        ];
        for text in cases {
            let parse = parse(FileId(0), &text);
            assert!(
                parse
                    .diagnostics()
                    .iter()
                    .any(|d| d.code == codes::NESTING_TOO_DEEP),
                "{:?}",
                codes_of(parse.diagnostics())
            );
            assert_eq!(parse.print(), text);
            let _ = parse.dump();
            drop(parse);
            let expr = parse_expr(FileId(0), text.trim_start_matches("a = "));
            let _ = expr.dump();
        }
    });
}

/// Each construct nested just under the limit parses without a stack
/// overflow on a 2 MiB stack. Recursion is bounded by the depth limit,
/// and `grammar::run` grows the stack once per parse to what that limit
/// needs, because a debug build's frames for 128 levels (about 3 MiB, see
/// `examples/stackprobe.rs`) exceed 2 MiB.
#[test]
fn each_construct_at_the_limit_fits_a_small_stack() {
    on_small_stack(|| {
        let n = MAX_NESTING_DEPTH - 2;
        let cases = [
            format!("a = {}1{}\n", "(".repeat(n), ")".repeat(n)),
            format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n)),
            format!("a = {}1{}\n", "{a=".repeat(n), "}".repeat(n)),
            format!("a = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
            // A template and its interpolation are one level each.
            format!("a = {}1{}\n", "\"${".repeat(n / 2), "}\"".repeat(n / 2)),
            format!("a = {}1{}\n", "x[".repeat(n), "]".repeat(n)),
            format!("a = {}x\n", "-".repeat(n)),
            format!("a = {}x{}\n", "c ? x : (".repeat(n / 2), ")".repeat(n / 2)),
            format!(
                "a = [for v in {}x{} : v]\n",
                "[for v in ".repeat(n / 2 - 1),
                " : v]".repeat(n / 2 - 1)
            ),
            format!("{}a = 1\n{}", "b {\n".repeat(n), "}\n".repeat(n)),
        ];
        for text in cases {
            let parse = parse(FileId(0), &text);
            assert!(
                !parse.has_errors(),
                "{text:?}: {:?}",
                codes_of(parse.diagnostics())
            );
            let _ = parse.dump();
        }
    });
}

#[test]
fn nesting_just_under_the_limit_is_fine() {
    on_small_stack(|| {
        let n = MAX_NESTING_DEPTH - 2;
        let text = format!(
            "a = {}1{}\n",
            "([{a=\"${".repeat(n / 5),
            "}\"}])".repeat(n / 5)
        );
        let parse = parse(FileId(0), &text);
        assert!(!parse.has_errors(), "{:?}", codes_of(parse.diagnostics()));
    });
}

#[test]
fn long_flat_chains() {
    on_small_stack(|| {
        let n = 100_000;
        let sum = format!("a = 1{}\n", " + 1".repeat(n));
        let chain = format!("a = x{}\n", ".b[0]".repeat(n));
        for text in [sum, chain] {
            let parse = parse(FileId(0), &text);
            assert!(!parse.has_errors(), "{:?}", codes_of(parse.diagnostics()));
            assert_eq!(parse.print(), text);
        }
    });
}

/// Duplicate attributes are reported the same way in small bodies and in
/// bodies with many attributes.
#[test]
fn duplicate_attributes_small_and_large() {
    for n in [3, 40] {
        let mut text: String = (0..n).map(|i| format!("a{i} = {i}\n")).collect();
        text.push_str("a1 = 0\na2 = 0\n");
        let parse = parse(FileId(0), &text);
        let dups: Vec<_> = parse
            .diagnostics()
            .iter()
            .filter(|d| d.code == codes::DUPLICATE_ATTRIBUTE)
            .map(|d| d.span.range)
            .collect();
        let first = text.find("a1 = 0\n").unwrap_or(0);
        assert_eq!(dups.len(), 2, "{n}: {:?}", parse.diagnostics());
        assert_eq!(dups.first().map(|r| r.start as usize), Some(first), "{n}");
    }
}

/// The validation pass's quick check (is there any duplicate at all?)
/// agrees with its walk around the size where a body's names move from a
/// fixed array to a set, in nested bodies, and for names repeated only
/// across bodies (no duplicate).
#[test]
fn duplicate_check_around_the_small_body_size() {
    for n in 14..=19 {
        let names: String = (0..n).map(|i| format!("  a{i} = {i}\n")).collect();
        let across = format!(
            "b {{\n{names}}}\nc {{\n{names}}}\n{}",
            names.replace("  ", "")
        );
        let diags = parse(FileId(0), &across).into_diagnostics();
        assert!(diags.is_empty(), "{n}: {diags:?}");
        for dup in [0, n / 2, n - 1] {
            let text = format!("b {{\n  c {{\n{names}  a{dup} = 0\n  }}\n}}\n");
            let parse = parse(FileId(0), &text);
            let dups: Vec<u32> = parse
                .diagnostics()
                .iter()
                .filter(|d| d.code == codes::DUPLICATE_ATTRIBUTE)
                .map(|d| d.span.range.start)
                .collect();
            let at = text.rfind(&format!("a{dup} = 0")).unwrap_or(0) as u32;
            assert_eq!(dups, [at], "{n} {dup}: {:?}", parse.diagnostics());
        }
    }
}

/// Duplicates found by the validation pass join the parser's diagnostics
/// in source order, nested bodies included.
#[test]
fn duplicates_merge_into_the_parse_diagnostics_by_position() {
    let text = "a = (\nx = 1\nx = 2\nb {\n  c = 1\n  c = 2\n}\nd = [1 2]\n";
    let parse = parse(FileId(0), text);
    let got: Vec<(&str, u32)> = parse
        .diagnostics()
        .iter()
        .map(|d| (d.code.as_str(), d.span.range.start))
        .collect();
    let at = |s: &str| text.find(s).unwrap_or(0) as u32;
    assert_eq!(
        got,
        [
            ("expected-expression", at("(") + 1),
            ("duplicate-attribute", at("x = 2")),
            ("duplicate-attribute", at("c = 2")),
            ("missing-comma", at("2]")),
        ],
        "{}",
        parse.dump()
    );
}

/// The tree's memory per source byte depends on these sizes (every stored
/// expression is a `Slot` plus a one-byte tag, every list element one of
/// the others); a new variant or field that grows them should go to a side
/// arena instead.
#[test]
fn node_sizes_stay_small() {
    use std::mem::size_of;
    assert_eq!(size_of::<Slot>(), 16);
    assert!(
        size_of::<StepNode>() <= 16,
        "StepNode is {} bytes",
        size_of::<StepNode>()
    );
    // A template's flat parts are all alive while its parts are written.
    assert!(
        size_of::<crate::template::Flat<'_>>() <= 24,
        "Flat is {} bytes",
        size_of::<crate::template::Flat<'_>>()
    );
    assert!(
        size_of::<StoredPart>() <= 16,
        "StoredPart is {} bytes",
        size_of::<StoredPart>()
    );
    assert!(
        size_of::<ObjectItemNode>() <= 16,
        "ObjectItemNode is {} bytes",
        size_of::<ObjectItemNode>()
    );
    assert!(
        size_of::<ItemNode>() <= 24,
        "ItemNode is {} bytes",
        size_of::<ItemNode>()
    );
    assert!(
        size_of::<BodyNode>() <= 20,
        "BodyNode is {} bytes",
        size_of::<BodyNode>()
    );
}

/// The parser's compact token store gives back exactly the tokens `lex`
/// produces, by index, forwards, backwards and by binary search.
#[test]
fn compact_tokens_match_lex() {
    let inputs = [
        "",
        "a = 1\n",
        "\u{feff}resource r \"t\" {\n  x = \"${a.b[0]} %{ if c }d%{ endif }\" # c\n}\n",
        "x = <<-EOT\n  hi ${y}\n  EOT\n/* c */ z = [1,\r\n2]",
        "bad = 'q' ; `t` & | ^ ~ \u{201c}",
    ];
    for text in inputs {
        let expected = crate::lex(text);
        let compact = crate::lexer::lex_compact(text);
        assert_eq!(compact.len(), expected.len(), "{text:?}");
        assert_eq!(compact.to_vec(), expected, "{text:?}");
        for (idx, token) in expected.iter().enumerate() {
            assert_eq!(compact.get(idx), Some(*token), "{text:?} {idx}");
            assert_eq!(compact.kind(idx), Some(token.kind), "{text:?} {idx}");
            let back: Vec<Token> = compact.iter_back(idx).collect();
            let want: Vec<Token> = expected
                .get(..idx)
                .unwrap_or(&[])
                .iter()
                .rev()
                .copied()
                .collect();
            assert_eq!(back, want, "{text:?} {idx}");
            let from: Vec<Token> = compact.iter_from(idx).collect();
            assert_eq!(from, expected.get(idx..).unwrap_or(&[]), "{text:?} {idx}");
        }
        assert_eq!(compact.get(expected.len()), None);
        for offset in 0..=text.len() as u32 + 1 {
            assert_eq!(
                compact.count_ending_by(offset),
                expected.partition_point(|t| t.range.end <= offset),
                "{text:?} {offset}"
            );
        }
        assert_eq!(parse(FileId(0), text).tokens(), expected.as_slice());
    }
}

/// Dangling comments, found through the list of comment tokens, are
/// exactly the comments that lie between a body's items (or before the
/// first, after the last) and attach to none, in every body.
#[test]
fn dangling_comments_match_a_scan_of_the_gaps() {
    fn check(parse: &Parse, body: BodyRef<'_>, text: &str) {
        let attached: Vec<u32> = body
            .items()
            .iter()
            .flat_map(|i| i.leading_comments().iter().chain(i.trailing_comments()))
            .map(|c| c.range().start)
            .collect();
        let mut gaps = Vec::new();
        let mut gap_start = body.range().start;
        for item in body.items() {
            gaps.push((gap_start, item.range().start));
            gap_start = item.range().end.max(gap_start);
        }
        gaps.push((gap_start, body.range().end));
        let want: Vec<u32> = parse
            .tokens()
            .iter()
            .filter(|t| t.kind.is_comment() && !attached.contains(&t.range.start))
            .filter(|t| {
                gaps.iter()
                    .any(|(s, e)| t.range.start >= *s && t.range.start < *e)
            })
            .map(|t| t.range.start)
            .collect();
        let got: Vec<u32> = body
            .dangling_comments()
            .iter()
            .map(|c| c.range().start)
            .collect();
        assert_eq!(got, want, "{text:?}");
        for block in body.blocks() {
            check(parse, block.body(), text);
        }
    }
    let texts = [
        "# head\n\na = 1 # trailing\n\n# lonely\n\nb = 2\n# end\n",
        "/* x */\nblock \"l\" {\n  # inner\n\n  c = 3\n  /* mid */\n\n  d {\n    # deep\n  }\n  # tail\n}\n// last",
        "a = { # in object\n  k = 1\n}\n# after\n",
        "x = 1\n\n\n",
        "# only\n",
    ];
    for text in texts {
        let parse = parse(FileId(0), text);
        check(&parse, parse.body(), text);
    }
}

/// Postfix chains nested in index steps each keep exactly their own
/// steps (they share one scratch stack), before and after a splat.
#[test]
fn nested_chains_keep_their_own_steps() {
    fn steps(expr: ExprRef<'_>) -> (usize, ExprRef<'_>) {
        match expr.kind() {
            ExprKind::Traversal(t) => (t.steps().len(), t.source()),
            _ => panic!("not a traversal: {}", expr.text()),
        }
    }
    let parse = parse_expr(FileId(0), "a.b[c.d[e.f.g].h].i[*].j.k");
    assert!(!parse.has_errors(), "{}", parse.dump());
    let ExprKind::Splat(splat) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    // The source `a.b[…].i`: three steps, the second indexed by `c.d[…].h`.
    let ExprKind::Traversal(source) = splat.source().kind() else {
        panic!("{}", parse.dump())
    };
    assert_eq!(source.steps().len(), 3, "{}", parse.dump());
    let StepKind::Index(key) = source.steps().get(1).unwrap().kind() else {
        panic!("{}", parse.dump())
    };
    let ExprKind::Traversal(key) = key.kind() else {
        panic!("{}", parse.dump())
    };
    assert_eq!(key.steps().len(), 3, "{}", parse.dump());
    let StepKind::Index(inner) = key.steps().get(1).unwrap().kind() else {
        panic!("{}", parse.dump())
    };
    assert_eq!(steps(inner).0, 2, "{}", parse.dump());
    // The per-element `.j.k`.
    assert_eq!(steps(splat.each()).0, 2, "{}", parse.dump());
    assert!(matches!(steps(splat.each()).1.kind(), ExprKind::SplatItem));
}

/// A number literal past the length limit is one `number-too-long` error
/// whose message cuts the literal; the next item still parses.
#[test]
fn overlong_number_literal_is_rejected_and_cut() {
    let text = format!(
        "a = {}\nb = 2\nc = x.{}\n",
        "1".repeat(100_000),
        "2".repeat(10_001)
    );
    let parse = parse(FileId(0), &text);
    let codes: Vec<&str> = parse
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["number-too-long", "number-too-long"], "{codes:?}");
    for diag in parse.diagnostics() {
        assert!(
            diag.summary.len() + diag.detail().map_or(0, str::len) < 400,
            "{}",
            diag.summary
        );
    }
    assert_eq!(parse.body().items().len(), 3);
    assert_eq!(parse.print(), text);
}
