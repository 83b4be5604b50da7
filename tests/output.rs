//! End-to-end tests of what `pcl check` prints: terminal and CI-log
//! injection through user text (issue #18, finding 4), structured fixes in
//! the JSON and SARIF outputs, and output that stays linear in the number
//! of diagnostics.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

use pcl_diagnostics::is_unsafe_char;

/// `pcl args…` in `cwd`, with the environment the shared runner gives
/// every end-to-end test.
fn pcl(args: &[&str], cwd: &Path) -> Output {
    pcl_tests::run_in(cwd, args, b"")
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("output-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The characters of `text` that must not reach a terminal (line feeds
/// that end lines are fine).
fn unsafe_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| c != '\n' && is_unsafe_char(c))
        .collect()
}

/// A resource label holding ESC, LF, a forged workflow command and a bidi
/// override, in a file whose name holds ESC and a bidi override too.
const HOSTILE: &str = "resource r \"\\u001b[31mred\\n::warning file=x.pp,line=1::INJECTED\\u202e\\u2066\" {\n  a = nope\n}\n";

#[cfg(unix)]
#[test]
fn user_text_never_reaches_the_terminal_raw() {
    let dir = scratch("injection");
    let name = "ev\u{1b}[1mil\u{202e}.pp";
    std::fs::write(dir.join(name), HOSTILE).unwrap();
    for format in ["human", "short", "github", "json", "sarif"] {
        let out = pcl(&["check", "--format", format, "."], &dir);
        assert_eq!(out.status.code(), Some(1), "{format}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
            assert_eq!(
                unsafe_chars(text),
                Vec::<char>::new(),
                "{format} {stream}: {text:?}"
            );
            assert!(
                !text.lines().any(|l| l.starts_with("::warning file=x.pp")),
                "{format} {stream}: a forged workflow command: {text}"
            );
        }
        let all = format!("{stdout}{stderr}");
        assert!(all.contains("INJECTED"), "{format}: {all}");
        match format {
            "human" | "short" | "github" => {
                // The label and the file name, escaped visibly.
                assert!(
                    all.contains("\\u{1b}[31mred\\n::warning"),
                    "{format}: {all}"
                );
                assert!(all.contains("\\u{202e}\\u{2066}"), "{format}: {all}");
                assert!(
                    all.contains("ev\\u{1b}[1mil\\u{202e}.pp"),
                    "{format}: {all}"
                );
            }
            _ => {
                // JSON escapes, and a reader gets the exact text back.
                let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                let text = doc.to_string();
                assert!(text.contains("\\u001b[31mred\\n::warning"), "{text}");
                assert!(all.contains("\\u202e\\u2066"), "{format}: {all}");
            }
        }
        if format == "github" {
            for line in stdout.lines() {
                assert!(
                    line.starts_with("::error file=ev\\u{1b}[1mil\\u{202e}.pp,"),
                    "{line}"
                );
            }
        }
    }
}

/// A report of one program with one did-you-mean diagnostic carrying a fix
/// (the shape the binder gives `bukcet` in `examples/mistakes`).
fn report_with_a_fix() -> pcl_cli::formats::Report {
    use pcl_diagnostics::{Code, Diagnostic, SourceMap, Span, TextRange};
    let text = "resource logs \"aws:s3:Bucket\" {\n  bukcet = \"logs\"\n}\n";
    let mut sources = SourceMap::new();
    let file = sources.add("app/main.pp", text);
    let at = text.find("bukcet").unwrap();
    let span = Span::new(file, TextRange::from_usize(at..at + 6));
    let diagnostic = Diagnostic::error(
        Code("unsupported-attribute"),
        span,
        "unsupported attribute `bukcet`",
    )
    .with_help("did you mean `bucket`?")
    .with_fix(span, "bucket");
    let program = pcl_cli::formats::ProgramResult {
        path: "app".to_string(),
        program: pcl_binder::Program::default(),
        sources,
        diagnostics: vec![diagnostic],
    };
    pcl_cli::formats::Report::new(vec![program], None, false)
}

#[test]
fn json_lists_fixes() {
    let report = report_with_a_fix();
    let doc = pcl_cli::formats::json::document(&report);
    let diagnostic = &doc["programs"][0]["diagnostics"][0];
    let text = diagnostic.to_string();
    let want = serde_json::json!([{
        "message": "replace with `bucket`",
        "replacement": "bucket",
        "file": "app/main.pp",
        "range": {
            "start": {"line": 2, "column": 3, "byte": 34},
            "end": {"line": 2, "column": 9, "byte": 40},
        },
    }]);
    assert_eq!(diagnostic["fixes"], want, "{text}");
    // Left out when there are none.
    let mut report = report_with_a_fix();
    report.programs[0].diagnostics[0].clear_fixes();
    let doc = pcl_cli::formats::json::document(&report);
    assert!(doc["programs"][0]["diagnostics"][0].get("fixes").is_none());
}

#[test]
fn sarif_lists_fixes() {
    let report = report_with_a_fix();
    let doc = pcl_cli::formats::sarif::document(&report);
    let result = &doc["runs"][0]["results"][0];
    let want = serde_json::json!([{
        "description": {"text": "replace with `bucket`"},
        "artifactChanges": [{
            "artifactLocation": {"uri": "app/main.pp"},
            "replacements": [{
                "deletedRegion": {
                    "startLine": 2,
                    "startColumn": 3,
                    "endLine": 2,
                    "endColumn": 9,
                    "byteOffset": 34,
                    "byteLength": 6,
                },
                "insertedContent": {"text": "bucket"},
            }],
        }],
    }]);
    assert_eq!(result["fixes"], want);
    let mut report = report_with_a_fix();
    report.programs[0].diagnostics[0].clear_fixes();
    let doc = pcl_cli::formats::sarif::document(&report);
    assert!(doc["runs"][0]["results"][0].get("fixes").is_none());
}

/// Reads a JSON document deeper than `serde_json`'s default limit (the
/// model of 127-deep objects is about 600 levels deep).
fn read_deep_json(bytes: &[u8]) -> serde_json::Value {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    reader.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut reader).unwrap()
}

/// Issue #18, finding 6: `--emit model` printed a nested object's whole
/// type at every level. Each type string is now printed once, in the
/// document's `types` table, capped at 120 characters; type fields are
/// indices into it.
#[test]
fn model_prints_each_type_once() {
    let dir = scratch("model-types");
    let mut text = String::new();
    for i in 0..10 {
        text.push_str(&format!(
            "a{i} = {}1{}\n",
            "{a = ".repeat(127),
            "}".repeat(127)
        ));
    }
    std::fs::write(dir.join("main.pp"), &text).unwrap();
    let out = pcl(&["check", "--emit", "model", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0));
    let raw = String::from_utf8(out.stdout.clone()).unwrap();
    // Every object type string occurs once in the whole document.
    let objects = raw.matches("object({").count();
    let first = raw.find("object({").unwrap_or(0);
    let table = raw.rfind("\"types\": [").unwrap();
    assert!(first > table, "a type string outside the table");
    assert!(objects <= 130, "{objects} object type strings");
    assert!(raw.len() < 4 << 20, "{} bytes", raw.len());
    let doc = read_deep_json(&out.stdout);
    assert_eq!(doc["version"], 2);
    let types = doc["types"].as_array().unwrap();
    for t in types {
        assert!(t.as_str().unwrap().chars().count() <= 120, "{t}");
    }
    let mut distinct: Vec<&str> = types.iter().map(|t| t.as_str().unwrap()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), types.len(), "a type listed twice");
    let node = &doc["programs"][0]["nodes"][0];
    let ty = node["type"].as_u64().unwrap() as usize;
    assert!(types[ty].as_str().unwrap().ends_with('…'), "{}", types[ty]);
    assert!(node["value"]["type"].is_u64());
}

/// The model escapes unsafe characters in strings as JSON `\u` escapes.
#[test]
fn model_strings_are_escaped() {
    let dir = scratch("model-escape");
    std::fs::write(dir.join("main.pp"), "a = \"x\\u001b[31m\\u202ey\"\n").unwrap();
    let out = pcl(&["check", "--emit", "model", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0));
    let raw = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(unsafe_chars(&raw), Vec::<char>::new(), "{raw}");
    assert!(raw.contains("\"x\\u001b[31m\\u202ey\""), "{raw}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["programs"][0]["nodes"][0]["value"]["parts"][0]["value"],
        "x\u{1b}[31m\u{202e}y"
    );
}

/// A report of three programs: one with two diagnostics (related
/// locations, help, a fix, unsafe characters), one clean, one with one.
fn report_of_three() -> pcl_cli::formats::Report {
    use pcl_diagnostics::{Code, Diagnostic, SourceMap, Span, TextRange};
    let program = |path: &str, texts: &[&str]| {
        let mut sources = SourceMap::new();
        let mut diagnostics = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let file = sources.add(format!("{path}/f{i}\u{202e}.pp"), *text);
            let span = Span::new(file, TextRange::new(0, 1));
            diagnostics.push(
                Diagnostic::error(Code("c\u{1b}"), span, format!("s{i} \u{1b}[31m\n"))
                    .with_related(Span::new(file, TextRange::new(2, 3)), "r")
                    .with_help("h")
                    .with_fix(span, "x"),
            );
            diagnostics.push(Diagnostic::warning(Code("w"), span, "w"));
        }
        pcl_cli::formats::ProgramResult {
            path: path.to_string(),
            program: pcl_binder::Program::default(),
            sources,
            diagnostics,
        }
    };
    let programs = vec![
        program("a", &["a = 1\n", "b = 2\n"]),
        program("b", &[]),
        program("c", &["c = 3\n"]),
    ];
    pcl_cli::formats::Report::new(programs, None, false)
}

/// The JSON and SARIF writers stream their documents, byte for byte what
/// printing the whole document gives (empty lists included).
#[test]
fn streamed_json_and_sarif_match_the_documents() {
    for report in [report_of_three(), report_with_a_fix()] {
        let mut streamed = Vec::new();
        pcl_cli::formats::json::write(&report, &mut streamed).unwrap();
        let mut whole = Vec::new();
        pcl_cli::formats::safe_json::to_writer_pretty(
            &mut whole,
            &pcl_cli::formats::json::document(&report),
        )
        .unwrap();
        whole.push(b'\n');
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            String::from_utf8(whole).unwrap()
        );
        let mut streamed = Vec::new();
        pcl_cli::formats::sarif::write(&report, &mut streamed).unwrap();
        let mut whole = Vec::new();
        pcl_cli::formats::safe_json::to_writer_pretty(
            &mut whole,
            &pcl_cli::formats::sarif::document(&report),
        )
        .unwrap();
        whole.push(b'\n');
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }
    // No diagnostics at all: empty lists.
    let empty = pcl_cli::formats::Report::new(Vec::new(), None, false);
    let mut streamed = Vec::new();
    pcl_cli::formats::sarif::write(&empty, &mut streamed).unwrap();
    assert!(String::from_utf8(streamed)
        .unwrap()
        .contains("\"results\": []"));
}
