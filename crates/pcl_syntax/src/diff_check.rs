//! Temporary differential check: the hand-written parser vs the chumsky grammar.

use crate::*;

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "pp") {
                out.push(p);
            }
        }
    }
}

fn render(body_dump: String, diags: &[Diagnostic]) -> String {
    let mut s = body_dump;
    for d in diags {
        s.push_str(&format!("\n{} {:?}", d.code.as_str(), d.span.range));
    }
    s
}

#[test]
#[ignore]
fn differential() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("../../testdata/syntax"), &mut files);
    walk(&root.join("../../../shared/corpus/programs"), &mut files);
    let mut bad = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let tokens = lexer::lex(&text);
        for mode in 0..3 {
            let (a, b) = match mode {
                0 => {
                    let (b1, d1) = parser::parse_file(FileId(0), &text, &tokens);
                    let (b2, d2) = grammar::parse_file(FileId(0), &text, &tokens);
                    (
                        render(dump::dump_body(&b1, &[]), &d1),
                        render(dump::dump_body(&b2, &[]), &d2),
                    )
                }
                1 => {
                    let (b1, d1) = parser::parse_expression_file(FileId(0), &text, &tokens);
                    let (b2, d2) = grammar::parse_expression_file(FileId(0), &text, &tokens);
                    (
                        render(dump::dump_expr(&b1, &[]), &d1),
                        render(dump::dump_expr(&b2, &[]), &d2),
                    )
                }
                _ => {
                    let tokens = lexer::lex_template(&text);
                    let r = TextRange::from_usize(0..text.len());
                    let (b1, d1) = parser::parse_template_file(FileId(0), &text, &tokens);
                    let (b2, d2) = grammar::parse_template_file(FileId(0), &text, &tokens);
                    (
                        render(dump::dump_template(&b1, r, &[]), &d1),
                        render(dump::dump_template(&b2, r, &[]), &d2),
                    )
                }
            };
            if a != b {
                bad += 1;
                if std::env::var("DIFF_SHOW").is_ok() {
                    let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
                    eprintln!(
                        "DIFF mode {mode} {}: first differing line {:?}",
                        f.display(),
                        first
                    );
                    if let Some(i) = first {
                        eprintln!(
                            "  old: {:?}\n  new: {:?}",
                            a.lines().nth(i),
                            b.lines().nth(i)
                        );
                    } else {
                        eprintln!(
                            "  old lines {} new lines {}",
                            a.lines().count(),
                            b.lines().count()
                        );
                    }
                } else {
                    eprintln!("DIFF mode {mode} {}", f.display());
                }
            }
        }
    }
    eprintln!("{} files, {bad} differences", files.len());
    assert_eq!(bad, 0);
}
