//! Unit tests of template parsing: the plain-string shortcut against the
//! general path, and the merging of adjacent literal tokens.

use super::*;

/// Plain quoted strings (the parser's shortcut) and strings that need the
/// general template path give the same shapes.
#[test]
fn plain_and_general_quoted_strings() {
    let cases: [(&str, &[&str]); 5] = [
        ("\"\"", &[]),
        ("\"abc\"", &["abc"]),
        ("\"a\\tb\"", &["a\tb"]),
        ("\"cost 5%\"", &["cost 5%"]),
        ("\"an\\u0303o\"", &["a\u{f1}o"]),
    ];
    for (text, want) in cases {
        let parse = parse_expr(FileId(0), text);
        assert!(!parse.has_errors(), "{text}: {}", parse.dump());
        let ExprKind::Template(t) = parse.expr().kind() else {
            panic!("{text}: {}", parse.dump())
        };
        let values = literal_values(t);
        assert_eq!(values, want, "{text}");
        assert_eq!(t.parts().len(), want.len(), "{text}");
        assert_eq!(parse.expr().range(), TextRange::from_usize(0..text.len()));
        if let Some(part) = t.parts().first() {
            assert_eq!(
                part.range(),
                TextRange::from_usize(1..text.len() - 1),
                "{text}"
            );
        }
    }
}

/// Adjacent literal tokens merge into one literal, whether they are
/// copied (escapes) or taken straight from the source (merged as one
/// slice): every mix gives the concatenated, NFC-normalised text, and the
/// literal covers all the tokens.
#[test]
fn merged_literals_mix_source_slices_and_decoded_text() {
    let cases: [(&str, &str); 8] = [
        ("<<EOT\na\nb\nc\nEOT\n", "a\nb\nc\n"),
        ("<<EOT\na\n$${x}\nc\nEOT\n", "a\n${x}\nc\n"),
        ("<<EOT\n$${x}\nb\nc\nEOT\n", "${x}\nb\nc\n"),
        ("<<EOT\na\nb\n%%{y}\nEOT\n", "a\nb\n%{y}\n"),
        ("\"a$$b$${c}\"", "a$$b${c}"),
        ("\"cost 5% $\"", "cost 5% $"),
        ("<<EOT\ne\u{301}\nx\nEOT\n", "\u{e9}\nx\n"),
        ("<<EOT\n\u{e9}t\u{e9}\nx\nEOT\n", "\u{e9}t\u{e9}\nx\n"),
    ];
    for (text, want) in cases {
        let parse = parse_expr(FileId(0), text);
        assert!(!parse.has_errors(), "{text:?}: {}", parse.dump());
        let ExprKind::Template(t) = parse.expr().kind() else {
            panic!("{text:?}: {}", parse.dump())
        };
        assert_eq!(t.literal_value(), Some(want), "{text:?}");
        let first = parse
            .tokens()
            .iter()
            .find(|t| matches!(t.kind, TokenKind::QuotedLit | TokenKind::StringLit))
            .map_or(0, |t| t.range.start);
        let last = parse
            .tokens()
            .iter()
            .rev()
            .find(|t| matches!(t.kind, TokenKind::QuotedLit | TokenKind::StringLit))
            .map_or(0, |t| t.range.end);
        assert_eq!(
            t.parts().get(0).unwrap().range(),
            TextRange::new(first, last),
            "{text:?}"
        );
    }
    // Literals around an interpolation stay apart.
    let parse = parse_expr(FileId(0), "<<EOT\na\nb ${x} c\nd\nEOT\n");
    let ExprKind::Template(t) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    let values = literal_values(t);
    assert_eq!(values, ["a\nb ", " c\nd\n"]);
}

/// Quoted literal tokens merged as they are parsed (a string of many
/// `$${` escapes is one growing literal) keep HCL's strip semantics: `~`
/// trims only the adjacent token, so whitespace-only tokens are never
/// merged early.
#[test]
fn early_merged_literals_keep_strip_semantics() {
    let text = "\"x  $${  ${~y} \\n $${ z ${y~}  $$x  $${q\"";
    let parse = parse_expr(FileId(0), text);
    assert!(!parse.has_errors(), "{}", parse.dump());
    let ExprKind::Template(t) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    assert_eq!(literal_values(t), ["x  ${", " \n ${ z ", "$$x  ${q"]);
    // Many escapes: one literal covering them all.
    let text = format!("\"{}\"", "$${".repeat(1000));
    let parse = parse_expr(FileId(0), &text);
    let ExprKind::Template(t) = parse.expr().kind() else {
        panic!("{}", parse.dump())
    };
    assert_eq!(t.parts().len(), 1);
    assert_eq!(t.literal_value(), Some("${".repeat(1000).as_str()));
    assert_eq!(
        t.parts().get(0).unwrap().range(),
        TextRange::from_usize(1..text.len() - 1)
    );
}

/// The values of a template's literal parts, in order.
fn literal_values(t: TemplateRef<'_>) -> Vec<&str> {
    t.parts()
        .iter()
        .filter_map(|p| match p.kind() {
            Part::Literal(lit) => Some(lit.value()),
            _ => None,
        })
        .collect()
}
