//! Every golden diagnostic speaks in the user's terms (issue 13): no
//! `location of type`, no literal singleton type (`of type 80`, `of type
//! "abc"`, a `tuple(…)` for a list literal), no printed type longer than
//! the cap. Scans every golden under `testdata/`: binder `.diag` files,
//! syntax goldens, robustness `.expect` files, the type goldens and the
//! `testdata/mistakes/` catalogue when present.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use pcl_types::MAX_TYPE_CHARS;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The golden files under `dir`, recursively.
fn goldens(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|x| x.to_str()).is_some_and(|x| {
                matches!(
                    x,
                    "diag" | "expect" | "txt" | "out" | "golden" | "stderr" | "stdout"
                )
            }) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The lines of a golden that are diagnostic text: not the `#` header of
/// a binder golden (node types, which print the types themselves), not the
/// reference's own reason quoted by the type goldens.
fn message_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        let t = l.trim_start();
        !t.starts_with('#')
            && !t.starts_with("reference reason:")
            // The reference's own words, kept beside pcl's.
            && !t.starts_with("reference-message:")
            && !t.starts_with("source:")
            && !t.starts_with("dest:")
            && !t.starts_with("src:")
    })
}

/// What is wrong with one line, if anything.
fn problem(line: &str) -> Option<String> {
    if line.contains("location of type") {
        return Some("says `location of type`".into());
    }
    for (at, _) in line.match_indices("of type ") {
        let rest = line.get(at + "of type ".len()..).unwrap_or("");
        let literal = rest.starts_with(|c: char| c.is_ascii_digit() || c == '"' || c == '-')
            || rest.starts_with("true")
            || rest.starts_with("false")
            || rest.starts_with("cty.")
            || rest.starts_with("tuple(");
        if literal {
            return Some("prints a literal's singleton type".into());
        }
        // `… of type T` ends the line with the type (quotes aside).
        if rest.chars().count() > MAX_TYPE_CHARS + 2 {
            return Some(format!(
                "prints a type of {} characters",
                rest.chars().count()
            ));
        }
    }
    if line.contains("found tuple(") || line.contains("value of type tuple(") {
        return Some("prints a list literal as `tuple(…)`".into());
    }
    // `expected X, found Y`: each printed type within the cap (a found
    // literal adds its kind, `string ` or `number `, to a capped value).
    if let Some(at) = line.find("expected ") {
        let rest = line.get(at + "expected ".len()..).unwrap_or("");
        if let Some(comma) = rest.find(", found ") {
            let expected = rest.get(..comma).unwrap_or("");
            let found = rest.get(comma + ", found ".len()..).unwrap_or("");
            if expected.chars().count() > MAX_TYPE_CHARS {
                return Some(format!(
                    "prints an expected type of {} characters",
                    expected.chars().count()
                ));
            }
            if found.chars().count() > MAX_TYPE_CHARS + "number ".len() {
                return Some(format!(
                    "prints a found type of {} characters",
                    found.chars().count()
                ));
            }
        }
    }
    None
}

#[test]
fn goldens_speak_in_the_users_terms() {
    let root = repo().join("testdata");
    let files = goldens(&root);
    assert!(
        files.len() > 100,
        "expected the goldens under {}",
        root.display()
    );
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for line in message_lines(&text) {
            if let Some(p) = problem(line) {
                let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
                bad.push(format!("{rel}: {p}: {line}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} golden lines are not in the user's terms:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_scan_catches_each_kind_of_problem() {
    for line in [
        "cannot assign expression of type string to location of type list(string)",
        "cannot assign value of type 80 to config 'p' of type list(int)",
        "cannot assign value of type \"abc\" to config 'p' of type int",
        "expected string, found tuple(string, string)",
        &format!("expected {}, found string", "x".repeat(MAX_TYPE_CHARS + 1)),
        &format!(
            "cannot traverse value of type {}",
            "x".repeat(MAX_TYPE_CHARS + 3)
        ),
    ] {
        assert!(problem(line).is_some(), "not caught: {line}");
    }
    for line in [
        "config `ports`: expected list(int), found number 80",
        "expected string, found a list of 2 strings",
        "cannot traverse value of type string",
    ] {
        assert_eq!(problem(line), None, "{line}");
    }
}
