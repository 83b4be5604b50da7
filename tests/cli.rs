//! End-to-end tests of the `pcl` binary: exit statuses, the three emit
//! modes, directory arguments, invalid UTF-8 and bad arguments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

/// `pcl args…` in `cwd`, with the environment the shared runner gives
/// every end-to-end test.
fn pcl(args: &[&str], cwd: &Path) -> Output {
    pcl_tests::run_in(cwd, args, b"")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const VALID: &str = "resource web \"aws:ec2:Instance\" {\n  ami = \"ami-${id}\" # comment\n}\n\noutput ip {\n  value = web.ip\n}\n";
const INVALID: &str = "a = 1\nb = (1 +\n";

#[test]
fn valid_file_exits_zero_with_no_output() {
    let dir = scratch("valid");
    std::fs::write(dir.join("main.pp"), VALID).unwrap();
    let out = pcl(&["parse", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), "");
}

#[test]
fn syntax_error_exits_one_and_renders_relative_path() {
    let dir = scratch("invalid");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/bad.pp"), INVALID).unwrap();
    let out = pcl(&["parse", "sub/bad.pp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("sub/bad.pp:"), "{err}");
    assert!(err.contains("Error"), "{err}");
    assert!(err.contains("b = (1 +"), "{err}");
    assert!(!err.contains('\u{1b}'), "colour codes with NO_COLOR: {err}");
    assert!(
        !err.contains(&dir.display().to_string()),
        "absolute path in output: {err}"
    );
}

#[test]
fn emit_source_reproduces_the_file() {
    let dir = scratch("source");
    let text = "\u{feff}# bom and crlf\r\na = \"x ${y}\"\r\nb = <<-EOT\r\n  z\r\n  EOT\r\n";
    std::fs::write(dir.join("a.pp"), text).unwrap();
    let out = pcl(&["parse", "--emit", "source", "a.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, text.as_bytes());
    // An invalid file is printed back too.
    std::fs::write(dir.join("b.pp"), INVALID).unwrap();
    let out = pcl(&["parse", "--emit=source", "b.pp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), INVALID);
}

#[test]
fn emit_tree_prints_the_dump() {
    let dir = scratch("tree");
    std::fs::write(dir.join("main.pp"), VALID).unwrap();
    let out = pcl(&["parse", "--emit", "tree", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = pcl_syntax::parse(pcl_diagnostics::FileId(0), VALID).dump();
    assert_eq!(stdout(&out), expected);
    assert!(stdout(&out).contains("resource"));
}

#[test]
fn emit_tokens_prints_one_token_per_line_covering_the_file() {
    let dir = scratch("tokens");
    std::fs::write(dir.join("main.pp"), VALID).unwrap();
    let out = pcl(&["parse", "--emit", "tokens", "main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let tokens = pcl_syntax::lex(VALID);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), tokens.len());
    assert!(lines[0].starts_with("Ident 0..8 "), "{}", lines[0]);
    let mut end = 0;
    for (line, token) in lines.iter().zip(&tokens) {
        let range = format!(" {}..{} ", token.range.start, token.range.end);
        assert!(line.contains(&range), "{line} lacks {range}");
        assert!(line.starts_with(&format!("{:?} ", token.kind)), "{line}");
        assert_eq!(token.range.start, end);
        end = token.range.end;
    }
    assert_eq!(end as usize, VALID.len());
}

#[test]
fn directory_argument_parses_its_pp_files_in_order() {
    let dir = scratch("dir");
    std::fs::create_dir_all(dir.join("prog/nested")).unwrap();
    std::fs::write(dir.join("prog/b.pp"), "b = 2\n").unwrap();
    std::fs::write(dir.join("prog/a.pp"), "a = 1\n").unwrap();
    std::fs::write(dir.join("prog/notes.txt"), "not pcl {{{").unwrap();
    std::fs::write(dir.join("prog/nested/c.pp"), "c = (\n").unwrap();
    let out = pcl(&["parse", "--emit", "source", "prog"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "a = 1\nb = 2\n");
    let out = pcl(&["parse", "--emit", "tree", "prog"], &dir);
    let text = stdout(&out);
    let a = text.find("==> prog/a.pp <==").expect(&text);
    let b = text.find("==> prog/b.pp <==").expect(&text);
    assert!(a < b);
}

#[test]
fn errors_in_one_of_several_files_exit_one() {
    let dir = scratch("several");
    std::fs::write(dir.join("good.pp"), VALID).unwrap();
    std::fs::write(dir.join("bad.pp"), INVALID).unwrap();
    let out = pcl(&["parse", "good.pp", "bad.pp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("bad.pp"), "{err}");
    assert!(!err.contains("good.pp"), "{err}");
}

#[test]
fn invalid_utf8_is_reported_at_the_first_bad_byte() {
    let dir = scratch("utf8");
    std::fs::write(dir.join("bad.pp"), b"a = \"ok\"\nb = \"x\xffy\"\n").unwrap();
    let out = pcl(&["parse", "bad.pp"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("invalid-utf8"), "{err}");
    assert!(err.contains("bad.pp:2:7"), "{err}");
}

#[test]
fn unreadable_paths_exit_two() {
    let dir = scratch("missing");
    let out = pcl(&["parse", "does-not-exist.pp"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("does-not-exist.pp"),
        "{}",
        stderr(&out)
    );
    // A readable file with errors does not hide the unreadable one.
    std::fs::write(dir.join("bad.pp"), INVALID).unwrap();
    let out = pcl(&["parse", "bad.pp", "nope.pp"], &dir);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_arguments_exit_two_with_usage() {
    let dir = scratch("args");
    for args in [
        &[][..],
        &["frobnicate"][..],
        &["parse"][..],
        &["parse", "--emit"][..],
        &["parse", "--emit", "ast", "x.pp"][..],
        &["parse", "--colour", "x.pp"][..],
    ] {
        let out = pcl(args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        // clap's short error: the message, the usage line and a hint,
        // not the whole help.
        // (A bare `pcl` prints the command list, as cargo and git do.)
        let err = stderr(&out);
        assert!(err.contains("Usage: pcl"), "{args:?}: {err}");
        assert!(
            args.is_empty() || err.lines().count() < 12,
            "{args:?}: {err}"
        );
    }
}

#[test]
fn help_and_version_exit_zero() {
    let dir = scratch("help");
    let out = pcl(&["--help"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("check"));
    let out = pcl(&["parse", "--help"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("--emit"));
    let out = pcl(&["--version"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("pcl "));
}

// ---------------------------------------------------------------------------
// pcl check

/// The workspace root: the examples are checked from there, as the README
/// says.
fn workspace() -> PathBuf {
    pcl_tests::repo()
}

fn schemas() -> String {
    workspace().join("examples/schemas").display().to_string()
}

#[test]
fn check_clean_example_exits_zero() {
    let out = pcl(
        &[
            "check",
            "--schema-dir",
            "examples/schemas",
            "examples/webapp",
        ],
        &workspace(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err, "no problems found in 1 program\n");
    assert_eq!(stdout(&out), "");
}

#[test]
fn check_mistakes_example_reports_each_mistake() {
    let out = pcl(
        &[
            "check",
            "--schema-dir",
            "examples/schemas",
            "examples/mistakes",
        ],
        &workspace(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    for expected in [
        "[type-not-convertible] Error",
        "[unsupported-attribute] Error: unsupported attribute `bukcet`",
        "did you mean `bucket`?",
        "[attribute-type-mismatch] Error",
        "property `tags[\"Team\"]`",
        "[missing-required-attribute] Error: missing required attribute `ami`",
        "[undefined-variable] Error: undefined variable `regoin`",
        "did you mean `region`?",
        "[unknown-resource-type] Error: unknown resource type `aws:sqs/queue:Queue`",
        "[circular-reference] Error",
        "[unknown-property] Error: unknown property `publicIpAddress`",
        "did you mean `publicIp`?",
        "property `tags[\"Team\"]`: expected string, found a list of 1 string",
        "examples/mistakes/main.pp:18:12",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }
    assert!(
        err.ends_with("\n8 errors, 0 warnings in 1 program\n"),
        "{err}"
    );
    assert!(!err.contains(&workspace().display().to_string()), "{err}");
}

#[test]
fn check_short_format_prints_lines_on_stdout_sorted_by_path() {
    let args = [
        "check",
        "--format",
        "short",
        "--schema-dir",
        "examples/schemas",
        "examples/webapp",
        "examples/mistakes",
    ];
    let out = pcl(&args, &workspace());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(
        lines[0],
        "examples/mistakes/main.pp:10:13: error[type-not-convertible]: config `ports`: \
         expected list(int), found number 80"
    );
    assert!(lines
        .iter()
        .all(|l| l.starts_with("examples/mistakes/main.pp:")));
    assert_eq!(stderr(&out), "", "machine formats write to stdout only");
    // The order of the PATHs does not change the output.
    let reversed = [
        "check",
        "--format=short",
        "--schema-dir=examples/schemas",
        "examples/mistakes",
        "examples/webapp",
    ];
    let again = pcl(&reversed, &workspace());
    assert_eq!(stdout(&again), text);
}

#[test]
fn check_bad_flag_exits_two_with_usage() {
    let dir = scratch("check-args");
    for args in [
        &["check"][..],
        &["check", "--frobnicate", "x.pp"][..],
        &["check", "--format", "xml", "x.pp"][..],
        &["check", "--schema-dir"][..],
    ] {
        let out = pcl(args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("Usage: pcl check"),
            "{}",
            stderr(&out)
        );
        assert!(
            stderr(&out).contains("For more information, try '--help'."),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn check_missing_path_or_schema_dir_exits_two() {
    let dir = scratch("check-missing");
    std::fs::write(dir.join("bad.pp"), "x = nope\n").unwrap();
    let out = pcl(&["check", "nothing-here"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read `nothing-here`"),
        "{}",
        stderr(&out)
    );
    // A program with errors does not hide the unreadable path, and is
    // still reported.
    let out = pcl(&["check", "bad.pp", "nothing-here"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("undefined variable `nope`"),
        "{}",
        stderr(&out)
    );
    let out = pcl(&["check", "--schema-dir", "no-such-dir", "bad.pp"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no-such-dir"), "{}", stderr(&out));
    // A directory without programs is a usage error, not a clean check.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let out = pcl(&["check", "empty"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no .pp files in `empty`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_lenient_flags_change_the_verdict() {
    let dir = scratch("check-lenient");
    std::fs::write(
        dir.join("main.pp"),
        "resource q \"aws:sqs/queue:Queue\" {\n  name = \"jobs\"\n}\n\nlabel = \"${prefix}-jobs\"\n",
    )
    .unwrap();
    let schemas = schemas();
    let run = |flags: &[&str]| {
        let mut args = vec!["check", "--schema-dir", schemas.as_str()];
        args.extend_from_slice(flags);
        args.push("main.pp");
        pcl(&args, &dir)
    };
    let strict = run(&[]);
    assert_eq!(strict.status.code(), Some(1));
    let err = stderr(&strict);
    assert!(err.contains("[unknown-resource-type] Error"), "{err}");
    assert!(err.contains("[undefined-variable] Error"), "{err}");

    // One option at a time is not enough …
    let one = run(&["--skip-resource-typecheck"]);
    assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
    // (an unknown resource type is silently `dynamic` then, binder.md §7)
    assert!(
        !stderr(&one).contains("unknown-resource-type"),
        "{}",
        stderr(&one)
    );
    assert!(
        stderr(&one).contains("1 error, 0 warnings"),
        "{}",
        stderr(&one)
    );
    // … both are.
    let both = run(&["--skip-resource-typecheck", "--allow-missing-variables"]);
    assert_eq!(both.status.code(), Some(0), "{}", stderr(&both));
    assert!(stderr(&both).contains("[undefined-variable] Warning"));
    assert!(stderr(&both).ends_with("0 errors, 1 warning in 1 program\n"));
    let lenient = run(&["--lenient"]);
    assert_eq!(lenient.status.code(), Some(0), "{}", stderr(&lenient));
}

#[test]
fn check_single_file_program() {
    let dir = scratch("check-file");
    std::fs::create_dir_all(dir.join("infra/comp")).unwrap();
    std::fs::write(
        dir.join("infra/main.pp"),
        "config name string {\n  default = \"x\"\n}\n\ncomponent c \"./comp\" {\n  label = name\n}\n\noutput out {\n  value = c.result\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("infra/comp/main.pp"),
        "config label string {}\noutput result {\n  value = join(\"-\", [label])\n}\n",
    )
    .unwrap();
    // Another file in the same directory is not part of a one-file program.
    std::fs::write(dir.join("infra/other.pp"), "broken = undefinedThing\n").unwrap();
    let out = pcl(&["check", "infra/main.pp"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "no problems found in 1 program\n");

    let out = pcl(&["check", "infra"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("infra/other.pp:1:10"), "{err}");

    // An error inside the component is named by its path, relative to the
    // current directory, also when the PATH was absolute.
    std::fs::write(
        dir.join("infra/comp/main.pp"),
        "config label string {}\noutput result {\n  value = join(\"-\", [labl])\n}\n",
    )
    .unwrap();
    let absolute = dir.join("infra/main.pp").display().to_string();
    let out = pcl(&["check", "--format", "short", absolute.as_str()], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "infra/comp/main.pp:3:22: error[undefined-variable]: undefined variable `labl`; did you mean `label`?\n"
    );
}

#[test]
fn check_finds_the_program_through_pulumi_yaml() {
    let dir = scratch("check-project");
    std::fs::create_dir_all(dir.join("proj/src")).unwrap();
    std::fs::write(
        dir.join("proj/Pulumi.yaml"),
        "name: proj\nruntime: pcl\nmain: src/\n",
    )
    .unwrap();
    // Not part of the program: `main` points elsewhere.
    std::fs::write(dir.join("proj/scratch.pp"), "x = (\n").unwrap();
    std::fs::write(dir.join("proj/src/main.pp"), "y = missing\n").unwrap();
    let out = pcl(&["check", "--format", "short", "proj"], &dir);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "proj/src/main.pp:1:5: error[undefined-variable]: undefined variable `missing`\n"
    );

    // The block form of `runtime`, and no `main`: the project directory.
    std::fs::write(
        dir.join("proj/Pulumi.yaml"),
        "name: proj\nruntime:\n  name: pcl\n",
    )
    .unwrap();
    let out = pcl(&["check", "--format", "short", "proj"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("proj/scratch.pp:"),
        "{}",
        stdout(&out)
    );

    // Another runtime: the directory's own files.
    std::fs::write(
        dir.join("proj/Pulumi.yaml"),
        "name: proj\nruntime: nodejs\nmain: src/\n",
    )
    .unwrap();
    let out = pcl(&["check", "--format", "short", "proj"], &dir);
    assert!(
        stdout(&out).starts_with("proj/scratch.pp:"),
        "{}",
        stdout(&out)
    );

    // A `main` that does not exist is an unreadable input.
    std::fs::write(dir.join("proj/Pulumi.yaml"), "runtime: pcl\nmain: gone\n").unwrap();
    let out = pcl(&["check", "proj"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("proj/gone"), "{}", stderr(&out));
}
