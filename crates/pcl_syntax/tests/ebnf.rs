//! `grammar/pcl.ebnf` is the source of truth for the grammar: every
//! syntactic production (the section after `Syntactic (grammar/)`) is a
//! function of the same name in `src/grammar/*.rs` or `src/template.rs`
//! whose doc comment starts with the rule, in backticks, and every
//! function whose doc comment starts with a backticked `name = …` rule is
//! a production of the EBNF. Rules are compared token by token (spacing
//! and line breaks aside, EBNF comments and the final `;` dropped), so a
//! rule edited on one side only fails here. All mismatches are listed at
//! once.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A rule's right-hand side as a list of EBNF tokens: quoted terminals,
/// names, and single punctuation characters (`@nl(off)` is `@ nl ( off )`).
fn rule_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' | '\'' => {
                let mut token = String::from(c);
                for d in chars.by_ref() {
                    token.push(d);
                    if d == c {
                        break;
                    }
                }
                tokens.push(token);
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut token = String::from(c);
                while let Some(&d) = chars.peek() {
                    if !(d.is_alphanumeric() || d == '_') {
                        break;
                    }
                    token.push(d);
                    chars.next();
                }
                tokens.push(token);
            }
            c => tokens.push(c.to_string()),
        }
    }
    if tokens.last().map(String::as_str) == Some(";") {
        tokens.pop();
    }
    tokens
}

/// `text` without its `(* … *)` comments (they do not nest in this file).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("(*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*)") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The syntactic productions of the EBNF, in order: name and rule tokens.
/// A production starts at the beginning of a line with `name =`; its
/// continuation lines are indented.
fn productions(ebnf: &str) -> Vec<(String, Vec<String>)> {
    let syntactic = match ebnf.find("Syntactic (grammar/)") {
        Some(at) => &ebnf[at..],
        None => return Vec::new(),
    };
    // Skip the rest of the section's heading comment.
    let syntactic = match syntactic.find("*)") {
        Some(end) => &syntactic[end + 2..],
        None => syntactic,
    };
    let text = strip_comments(syntactic);
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let starts_rule = line.starts_with(|c: char| c.is_ascii_lowercase());
        match line.split_once('=') {
            Some((name, rhs)) if starts_rule && is_name(name.trim()) => {
                out.push((name.trim().to_string(), rhs.to_string()));
            }
            _ => {
                if let Some((_, rhs)) = out.last_mut() {
                    rhs.push(' ');
                    rhs.push_str(line);
                }
            }
        }
    }
    out.into_iter()
        .map(|(name, rhs)| (name, rule_tokens(&rhs)))
        .collect()
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// A function whose doc comment starts with a backticked rule.
#[derive(Debug)]
struct RuleFn {
    /// `file:line` of the `fn`.
    at: String,
    name: String,
    /// The rule's name and right-hand side, as the doc comment gives them.
    rule_name: String,
    rule: Vec<String>,
}

/// Every function of `source` with a doc comment (the `///` lines right
/// above it, attributes and `//` comments in between allowed): its name and
/// its doc comment's text, lines joined by spaces.
fn documented_fns(source: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    for (idx, line) in source.lines().enumerate() {
        let line = line.trim();
        if let Some(text) = line.strip_prefix("///") {
            doc.push(text.trim());
            continue;
        }
        if line.starts_with("#[") || (line.starts_with("//") && !line.starts_with("//!")) {
            continue;
        }
        if let Some(name) = fn_name(line) {
            if !doc.is_empty() {
                out.push((idx + 1, name.to_string(), doc.join(" ")));
            }
        }
        doc.clear();
    }
    out
}

/// The name of the function a line declares (`fn name`, with any
/// visibility), if it does.
fn fn_name(line: &str) -> Option<&str> {
    let at = line.find("fn ")?;
    let before = &line[..at];
    let qualifiers_only = before
        .split_whitespace()
        .all(|word| word.starts_with("pub") || matches!(word, "const" | "unsafe" | "async"));
    if !qualifiers_only {
        return None;
    }
    let rest = &line[at + 3..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|name| !name.is_empty())
}

/// The rule a doc comment starts with: the text of its leading backticked
/// span, if that span is `name = …`.
fn doc_rule(doc: &str) -> Option<(String, Vec<String>)> {
    let inner = doc.strip_prefix('`')?;
    let inner = &inner[..inner.find('`')?];
    let (name, rhs) = inner.split_once('=')?;
    let name = name.trim();
    is_name(name).then(|| (name.to_string(), rule_tokens(rhs)))
}

fn rule_fns(files: &[(String, String)]) -> Vec<RuleFn> {
    let mut out = Vec::new();
    for (path, source) in files {
        for (line, name, doc) in documented_fns(source) {
            if let Some((rule_name, rule)) = doc_rule(&doc) {
                out.push(RuleFn {
                    at: format!("{path}:{line}"),
                    name,
                    rule_name,
                    rule,
                });
            }
        }
    }
    out
}

/// Every disagreement between the EBNF and the sources, one per line.
fn mismatches(ebnf: &str, files: &[(String, String)]) -> Vec<String> {
    let productions = productions(ebnf);
    let fns = rule_fns(files);
    let all_fns: Vec<(String, String)> = files
        .iter()
        .flat_map(|(path, source)| {
            documented_fns(source)
                .into_iter()
                .map(move |(line, name, _)| (name, format!("{path}:{line}")))
        })
        .collect();
    let mut problems = Vec::new();
    let mut missing = Vec::new();
    for (name, rule) in &productions {
        match fns.iter().find(|f| &f.name == name) {
            Some(f) if &f.rule != rule => problems.push(format!(
                "{}: `{name}`: the doc comment's rule `{}` is not the EBNF's `{}`",
                f.at,
                f.rule.join(" "),
                rule.join(" ")
            )),
            Some(_) => {}
            None => {
                let hint = match all_fns.iter().find(|(n, _)| n == name) {
                    Some((_, at)) => {
                        format!(" ({at}: its doc comment does not start with the rule)")
                    }
                    None => String::new(),
                };
                missing.push(format!("{name}{hint}"));
            }
        }
    }
    if !missing.is_empty() {
        problems.push(format!(
            "productions with no function whose doc comment starts with their rule: {}",
            missing.join(", ")
        ));
    }
    for f in &fns {
        if f.rule_name != f.name {
            problems.push(format!(
                "{}: `fn {}` documents the rule of `{}`",
                f.at, f.name, f.rule_name
            ));
        }
        if !productions.iter().any(|(name, _)| name == &f.rule_name) {
            problems.push(format!(
                "{}: `{}` is not a production of grammar/pcl.ebnf",
                f.at, f.rule_name
            ));
        }
    }
    problems
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `src/grammar/*.rs` and `src/template.rs`: path (relative to the crate)
/// and text.
fn grammar_sources() -> Vec<(String, String)> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(src.join("grammar"))
        .unwrap_or_else(|e| panic!("src/grammar: {e}"))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    paths.sort();
    paths.push(src.join("template.rs"));
    paths
        .iter()
        .map(|path| {
            let name = path.strip_prefix(&src).unwrap_or(path);
            (format!("src/{}", name.display()), read(path))
        })
        .collect()
}

#[test]

fn every_production_has_its_function_and_every_rule_function_a_production() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../grammar/pcl.ebnf");
    let ebnf = read(&root);
    assert!(
        productions(&ebnf).len() > 30,
        "grammar/pcl.ebnf: its syntactic section was not found"
    );
    let problems = mismatches(&ebnf, &grammar_sources());
    let mut report = String::new();
    for problem in &problems {
        let _ = writeln!(report, "  {problem}");
    }
    assert!(
        problems.is_empty(),
        "grammar/pcl.ebnf and src/grammar disagree:\n{report}"
    );
}

#[test]
fn the_check_finds_every_kind_of_drift() {
    let ebnf = "(* head *)\nlexical = \"x\" ;\n\
        (* ===== Syntactic (grammar/) ===== *)\n\
        top   = item { \",\" item } ;   (* a list *)\n\
        item  = NAME\n      | \"(\" top \")\" ;\n\
        gone  = \"g\" ;\n\
        (* not a rule:\n   inner = x ; *)\n";
    assert_eq!(
        productions(ebnf),
        [
            ("top".to_string(), rule_tokens("item { \",\" item }")),
            ("item".to_string(), rule_tokens("NAME | \"(\" top \")\"")),
            ("gone".to_string(), rule_tokens("\"g\"")),
        ]
    );
    let source = "/// `top = item {\",\" item}`: spacing differs.\n\
        pub(super) fn top() {}\n\
        /// `item = NAME | \"[\" top \"]\"`.\n\
        #[allow(dead_code)] // note\n\
        fn item() {}\n\
        /// `extra = \"e\"`.\n\
        fn extra() {}\n\
        /// `top = x`, under another name.\n\
        fn other() {}\n\
        /// A helper.\n\
        fn gone() {}\n";
    let problems = mismatches(ebnf, &[("a.rs".to_string(), source.to_string())]);
    let expected = [
        "a.rs:5: `item`: the doc comment's rule `NAME | \"[\" top \"]\"` is not the EBNF's `NAME | \"(\" top \")\"`",
        "productions with no function whose doc comment starts with their rule: gone (a.rs:11: its doc comment does not start with the rule)",
        "a.rs:7: `extra` is not a production of grammar/pcl.ebnf",
        "a.rs:9: `fn other` documents the rule of `top`",
    ];
    assert_eq!(problems, expected, "{problems:#?}");
}
