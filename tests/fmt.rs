//! `pcl fmt` as a command: flags, exit codes, atomic writes, standard
//! input, and that formatting never changes what a program means (the
//! bound model of every corpus program, positions aside).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `pcl args…` in `cwd`, with the environment the shared runner gives
/// every end-to-end test.
fn pcl(args: &[&str], cwd: &Path) -> Output {
    pcl_tests::run_in(cwd, args, b"")
}

fn pcl_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(pcl_tests::pcl_binary())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// A fresh directory holding `files` (relative path, contents).
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fmt-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn read(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

const UGLY: &str = "a=1\nbb = 2\n";
const PRETTY: &str = "a  = 1\nbb = 2\n";

fn sample(name: &str) -> PathBuf {
    tree(
        name,
        &[
            ("a.pp", UGLY),
            ("b.pp", PRETTY),
            ("notes.txt", UGLY),
            ("sub/c.pp", UGLY),
        ],
    )
}

#[test]
fn check_lists_the_files_that_would_change_and_changes_nothing() {
    let dir = sample("check");
    let out = pcl(&["fmt", "--check", "."], &dir);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "./a.pp\n");
    assert_eq!(read(&dir, "a.pp"), UGLY);
    // Recursive: the subdirectory too.
    let out = pcl(&["fmt", "--check", "-r", "."], &dir);
    assert_eq!(stdout(&out), "./a.pp\n./sub/c.pp\n");
    assert_eq!(out.status.code(), Some(1));
    // Already formatted: silent, 0.
    let out = pcl(&["fmt", "--check", "b.pp"], &dir);
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), String::new()));
}

#[test]
fn diff_prints_a_unified_diff_and_changes_nothing() {
    let dir = sample("diff");
    let out = pcl(&["fmt", "--diff", "a.pp", "b.pp"], &dir);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "--- a/a.pp\n+++ b/a.pp\n@@ -1,2 +1,2 @@\n-a=1\n+a  = 1\n bb = 2\n"
    );
    assert_eq!(read(&dir, "a.pp"), UGLY);
    // Both: the list, then the diff.
    let out = pcl(&["fmt", "--check", "--diff", "a.pp"], &dir);
    assert!(stdout(&out).starts_with("a.pp\n--- a/a.pp\n"));
}

#[test]
fn writes_in_place_atomically() {
    let dir = sample("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let perms = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(dir.join("a.pp"), perms).unwrap();
    }
    let out = pcl(&["fmt"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!((stdout(&out), stderr(&out)), (String::new(), String::new()));
    assert_eq!(read(&dir, "a.pp"), PRETTY);
    assert_eq!(
        read(&dir, "notes.txt"),
        UGLY,
        "only .pp files of a directory"
    );
    assert_eq!(read(&dir, "sub/c.pp"), UGLY, "not recursive without -r");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("a.pp"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "permissions kept");
    }
    // No temporary file left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("pcl-fmt")), "{names:?}");
    // A file given by name is formatted whatever its extension.
    let out = pcl(&["fmt", "notes.txt", "-r", "sub"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(read(&dir, "notes.txt"), PRETTY);
    assert_eq!(read(&dir, "sub/c.pp"), PRETTY);
    // Nothing left to do.
    let out = pcl(&["fmt", "--check", "-r", "."], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn files_with_syntax_errors_are_left_untouched_and_reported() {
    let bad = "a   = (1\n";
    let dir = tree("syntax", &[("bad.pp", bad), ("good.pp", UGLY)]);
    let out = pcl(&["fmt", "."], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(read(&dir, "bad.pp"), bad);
    assert_eq!(
        read(&dir, "good.pp"),
        PRETTY,
        "the other files are still formatted"
    );
    let err = stderr(&out);
    assert!(
        err.contains("bad.pp") && err.contains("syntax errors"),
        "{err}"
    );
    // Under --check too: 2 wins over 1.
    let dir = tree("syntax-check", &[("bad.pp", bad), ("good.pp", UGLY)]);
    let out = pcl(&["fmt", "--check", "."], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "./good.pp\n");
    // Not UTF-8: untouched, 2.
    let dir = tree("utf8", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.pp"), b"a  =  \"\xff\"\n").unwrap();
    let out = pcl(&["fmt", "x.pp"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read(dir.join("x.pp")).unwrap(),
        b"a  =  \"\xff\"\n"
    );
}

#[test]
fn standard_input_goes_to_standard_output() {
    let out = pcl_stdin(&["fmt", "-"], UGLY.as_bytes());
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(0), PRETTY.to_string())
    );
    let out = pcl_stdin(
        &["fmt", "--check", "--stdin-filename", "main.pp", "-"],
        UGLY.as_bytes(),
    );
    assert_eq!(
        (out.status.code(), stdout(&out)),
        (Some(1), "main.pp\n".to_string())
    );
    let out = pcl_stdin(&["fmt", "--check", "-"], PRETTY.as_bytes());
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), String::new()));
    // A syntax error: nothing on stdout, the errors (with the name) on stderr.
    let out = pcl_stdin(&["fmt", "--stdin-filename", "main.pp", "-"], b"a = [\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("main.pp"), "{}", stderr(&out));
}

#[test]
fn bad_arguments_and_unreadable_paths_exit_2() {
    let dir = sample("args");
    for args in [
        &["fmt", "--frobnicate"][..],
        &["fmt", "-", "a.pp"][..],
        &["fmt", "--stdin-filename", "x.pp", "a.pp"][..],
        &["fmt", "missing.pp"][..],
    ] {
        let out = pcl(args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A control character in a name is escaped in messages.
    let out = pcl(&["fmt", "no\u{1b}[31mfile.pp"], &dir);
    assert!(!stderr(&out).contains('\u{1b}'), "{}", stderr(&out));
}

/// The corpus programs (`../shared/corpus/manifest.tsv`): name and schema
/// directory.
fn corpus_programs(corpus: &Path) -> Vec<(String, String)> {
    pcl_testkit::corpus_manifest(corpus)
        .into_iter()
        .filter_map(|row| {
            let dir = row.program_dir.strip_prefix("programs/")?.to_string();
            Some((dir, row.schema_dir))
        })
        .collect()
}

/// Copies `from` to `to`, formatting its `.pp` files with `pcl_fmt`.
fn copy_formatted(from: &Path, to: &Path) -> usize {
    let mut changed = 0;
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            changed += copy_formatted(&src, &dst);
        } else if src.extension().is_some_and(|e| e == "pp") {
            let text = std::fs::read_to_string(&src).unwrap();
            let formatted = pcl_fmt::format(pcl_diagnostics::FileId(0), &text).unwrap();
            changed += usize::from(formatted != text);
            std::fs::write(dst, formatted).unwrap();
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
    changed
}

/// `value` without positions: every object member that is a range (an
/// object with `start` and `end`) is dropped.
fn strip_positions(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !(v.get("start").is_some() && v.get("end").is_some()));
            map.values_mut().for_each(strip_positions);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_positions),
        _ => {}
    }
}

fn model(cwd: &Path, schemas: &Path, programs: &[&str]) -> (Option<i32>, serde_json::Value) {
    let schemas = schemas.to_str().unwrap();
    let mut args = vec![
        "check",
        "--emit",
        "model",
        "--no-schema-cache",
        "--schema-dir",
        schemas,
    ];
    args.extend(programs);
    let out = pcl(&args, cwd);
    let mut value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    strip_positions(&mut value);
    (out.status.code(), value)
}

#[test]
fn formatting_keeps_the_bound_model_of_every_corpus_program() {
    let Some(corpus) = pcl_tests::corpus("formatting keeps the model") else {
        return;
    };
    let corpus = corpus.canonicalize().unwrap();
    let formatted = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt-corpus/programs");
    let _ = std::fs::remove_dir_all(&formatted);
    let programs = corpus_programs(&corpus);
    pcl_testkit::at_least("corpus programs", programs.len(), 200);
    let mut changed = 0;
    for (name, _) in &programs {
        changed += copy_formatted(&corpus.join("programs").join(name), &formatted.join(name));
    }
    assert!(
        changed > 0,
        "formatting changed nothing: the comparison would be empty"
    );
    // One `pcl check` per schema directory, on the originals and the copies.
    let mut by_schema: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (name, schema) in &programs {
        by_schema.entry(schema).or_default().push(name);
    }
    for (schema, names) in by_schema {
        let schemas = corpus.join(schema);
        let before = model(&corpus.join("programs"), &schemas, &names);
        let after = model(&formatted, &schemas, &names);
        assert_eq!(before.0, after.0, "exit status differs ({schema})");
        let (Some(b), Some(a)) = (before.1.get("programs"), after.1.get("programs")) else {
            panic!("no programs in the model ({schema})");
        };
        let (b, a) = (b.as_array().unwrap(), a.as_array().unwrap());
        assert_eq!(b.len(), names.len());
        for (b, a) in b.iter().zip(a) {
            assert!(b["nodes"].is_array(), "no nodes: {b}");
            assert!(b == a, "the model of {} changed", b["path"]);
        }
    }
    eprintln!(
        "{} programs ({changed} files changed): same models",
        programs.len()
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_stays_a_link_and_a_fifo_is_refused_unopened() {
    let dir = tree("links", &[("real.pp", UGLY)]);
    std::os::unix::fs::symlink("real.pp", dir.join("link.pp")).unwrap();
    // The target is among the paths given (a link to a file outside them
    // is not written through: `fmt_write.rs`), and formatted once.
    let out = pcl(&["fmt", "link.pp", "real.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(dir.join("link.pp"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read(&dir, "real.pp"), PRETTY);
    // A FIFO named on the command line or found in a directory: refused
    // (status 2) without blocking on it.
    let made = Command::new("mkfifo").arg(dir.join("pipe.pp")).status();
    if made.is_ok_and(|s| s.success()) {
        for args in [&["fmt", "pipe.pp"][..], &["fmt", "--check", "."][..]] {
            let out = pcl(args, &dir);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                stderr(&out).contains("not a regular file"),
                "{}",
                stderr(&out)
            );
        }
    }
}

/// The project's own examples and clean goldens are in the canonical
/// style, so `pcl fmt --check` can guard them (issue #16).
#[test]
fn the_projects_own_programs_are_formatted() {
    let out = pcl(
        &["fmt", "--check", "-r", "examples", "testdata/check/ok"],
        &pcl_tests::repo(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "files that would change:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
