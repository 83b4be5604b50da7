//! A proptest over generated programs (random spacing, tabs, blank lines,
//! comments, nesting, templates and heredocs): formatting keeps every token
//! and comment, is idempotent, and formatting a range then the whole file
//! gives what formatting the whole file gives.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use pcl_diagnostics::{FileId, TextRange};
use proptest::prelude::*;

fn sp() -> impl Strategy<Value = String> {
    prop_oneof![Just(""), Just(" "), Just("  "), Just("\t"), Just(" \t ")].prop_map(String::from)
}

/// Whitespace that must separate two tokens.
fn rsp() -> impl Strategy<Value = String> {
    prop_oneof![Just(" "), Just("   "), Just("\t")].prop_map(String::from)
}

fn ident() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a"),
        Just("bb"),
        Just("name"),
        Just("très"),
        Just("x_long_name")
    ]
    .prop_map(String::from)
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        ident(),
        Just("1".to_string()),
        Just("2.5".to_string()),
        Just("true".to_string()),
        Just("\"text  kept \"".to_string()),
        (sp(), ident(), sp()).prop_map(|(a, x, b)| format!("\"pre ${{{a}{x}{b}}} post\"")),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                sp(),
                prop_oneof![Just("+"), Just("*"), Just("=="), Just("&&"), Just("-")],
                sp(),
                inner.clone()
            )
                .prop_map(|(a, s1, op, s2, b)| format!("({a}{s1}{op}{s2}{b})")),
            (prop_oneof![Just("-"), Just("!")], sp(), inner.clone())
                .prop_map(|(op, s, e)| format!("{op}{s}({e})")),
            (
                sp(),
                prop::collection::vec((inner.clone(), sp(), prop::bool::ANY), 0..4),
                sp()
            )
                .prop_map(|(s1, items, s2)| {
                    let mut out = format!("[{s1}");
                    for (e, s, nl) in items {
                        out.push_str(&format!("{e}{s},{}", if nl { "\n" } else { " " }));
                    }
                    out.push_str(&format!("{s2}]"));
                    out
                }),
            (prop::collection::vec((ident(), sp(), sp(), inner.clone(), prop::bool::ANY), 0..4))
                .prop_map(|items| {
                    let mut out = String::from("{\n");
                    for (k, s1, s2, v, colon) in items {
                        let sep = if colon { ":" } else { "=" };
                        out.push_str(&format!("{s1}{k}{s1}{sep}{s2}{v}{s2}\n"));
                    }
                    out.push('}');
                    out
                }),
            (ident(), sp(), inner.clone(), sp(), inner.clone())
                .prop_map(|(f, s1, a, s2, b)| format!("{f}({s1}{a}{s2},{s1}{b}{s2})")),
            (inner.clone(), sp(), inner.clone(), sp(), inner.clone())
                .prop_map(|(c, s1, a, s2, b)| format!("{c}{s1}?{s2}{a}{s1}:{s2}{b}")),
            (rsp(), ident(), rsp(), inner.clone(), sp(), inner.clone()).prop_map(
                |(s1, x, s2, xs, s3, e)| format!("[for{s1}{x}{s2}in{s2}{xs}{s3}:{s3}{e}]")
            ),
            (inner.clone(), sp(), ident()).prop_map(|(e, s, x)| format!("({e}){s}.{s}{x}")),
            (inner.clone(), sp(), inner.clone()).prop_map(|(e, s, i)| format!("({e})[{s}{i}{s}]")),
            (sp(), ident())
                .prop_map(|(s, x)| format!("<<EOT\n{s}heredoc ${{{s}{x}{s}}} {s}\nEOT\n")),
        ]
    })
}

fn comment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(String::new()),
        (sp(), Just("# note  ")).prop_map(|(s, c)| format!("{s}{c}")),
        (sp(), Just("// note")).prop_map(|(s, c)| format!("{s}{c}")),
        (sp(), Just("/* b */")).prop_map(|(s, c)| format!("{s}{c}")),
    ]
}

fn attribute() -> impl Strategy<Value = String> {
    (sp(), ident(), sp(), sp(), expr(), sp(), comment())
        .prop_map(|(s0, k, s1, s2, v, s3, c)| format!("{s0}{k}{s1}={s2}{v}{s3}{c}\n"))
}

fn body() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        4 => attribute(),
        1 => sp().prop_map(|s| format!("{s}\n")),
        1 => (sp(), Just("# a comment line  ")).prop_map(|(s, c)| format!("{s}{c}\n")),
    ];
    let block = (
        sp(),
        rsp(),
        rsp(),
        prop::collection::vec(line.clone(), 0..5),
        sp(),
        comment(),
    )
        .prop_map(|(s0, s1, s2, lines, s3, c)| {
            format!(
                "{s0}resource{s1}r{s2}\"p:m:R\"{s1}{{{c}\n{}{s3}}}\n",
                lines.concat()
            )
        });
    prop::collection::vec(prop_oneof![3 => line, 1 => block], 0..8).prop_map(|items| items.concat())
}

/// One case: what must hold for `text` and the range `a..b` (clamped).
fn check(text: &str, a: usize, b: usize) -> Result<(), TestCaseError> {
    let parse = pcl_syntax::parse(FileId(0), text);
    prop_assume!(!parse.has_errors());
    let formatted = pcl_fmt::format(FileId(0), text).unwrap();
    check_invariants("generated", text, &formatted);

    // A range: only its lines change, and formatting the rest agrees.
    let mut cut = [a.min(text.len()), b.min(text.len())];
    cut.sort();
    while !text.is_char_boundary(cut[0]) {
        cut[0] -= 1;
    }
    while !text.is_char_boundary(cut[1]) {
        cut[1] -= 1;
    }
    let range = TextRange::from_usize(cut[0]..cut[1]);
    let partly = pcl_fmt::format_range(FileId(0), text, range).unwrap();
    prop_assert_eq!(significant_tokens(text), significant_tokens(&partly));
    prop_assert_eq!(pcl_fmt::format(FileId(0), &partly).unwrap(), formatted);
    let line_start = text[..cut[0]].rfind('\n').map_or(0, |p| p + 1);
    prop_assert_eq!(
        &partly[..line_start],
        &text[..line_start],
        "a line before the range changed"
    );
    Ok(())
}

#[test]
fn formatting_generated_programs_is_safe_and_stable() {
    // The generated values are deeply nested strategy trees: give them room.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let config = ProptestConfig {
                cases: 400,
                ..ProptestConfig::default()
            };
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let result = runner.run(&(body(), 0usize..2000, 0usize..2000), |(text, a, b)| {
                check(&text, a, b)
            });
            if let Err(e) = result {
                panic!("{e}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
