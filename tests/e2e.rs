//! End-to-end tests of the `pcl` binary: every command, the formats' run
//! errors, `pcl.toml` discovery, `pcl-ignore`, `--recursive`, and the exit
//! statuses. Fixtures live in `testdata/cli/`.

use pcl_tests::{fixture, repo, run, run_in, scratch, stderr, stdout, write};
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

// ---------------------------------------------------------------------------
// help, usage errors, completions

#[test]
fn every_command_has_its_own_help() {
    for (args, usage) in [
        (&["check", "--help"][..], "Usage: pcl check"),
        (&["check", "-h"][..], "Usage: pcl check"),
        (&["help", "check"][..], "Usage: pcl check"),
        (&["parse", "--help"][..], "Usage: pcl parse"),
        (&["help", "parse"][..], "Usage: pcl parse"),
        (&["fmt", "--help"][..], "Usage: pcl fmt"),
        (&["explain", "--help"][..], "Usage: pcl explain"),
        (&["completions", "--help"][..], "Usage: pcl completions"),
        (&["--help"][..], "Usage: pcl <COMMAND>"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).contains(usage), "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).is_empty(), "{args:?}: {}", stderr(&out));
    }
    // Every documented flag of `check` is in its help.
    let help = stdout(&run(&["check", "--help"]));
    for flag in [
        "--schema-dir",
        "--no-schema-cache",
        "--lenient",
        "--allow-missing-variables",
        "--allow-missing-properties",
        "--skip-resource-typecheck",
        "--skip-invoke-typecheck",
        "--skip-range-typecheck",
        "--prefer-output-versioned-invokes",
        "--format",
        "--color",
        "--deny",
        "--warn",
        "--allow",
        "--max-diagnostics",
        "--jobs",
        "--stdin-filename",
        "--emit",
        "--recursive",
        "--config",
        "--no-config",
        "--root",
    ] {
        assert!(help.contains(flag), "`check --help` lacks {flag}");
    }
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("pcl "));
}

#[test]
fn usage_errors_are_short_with_a_suggestion() {
    for (args, tip, usage) in [
        (
            &["check", "--fromat", "json", "x.pp"][..],
            "a similar argument exists: '--format'",
            "Usage: pcl check",
        ),
        (
            &["chek", "x.pp"][..],
            "a similar subcommand exists: 'check'",
            "Usage: pcl",
        ),
        (
            &["check", "--format", "xml", "x.pp"][..],
            "possible values",
            "Usage: pcl check",
        ),
        (
            &["parse", "--emit", "ast", "x.pp"][..],
            "possible values",
            "Usage: pcl parse",
        ),
        (&["check"][..], "PATH", "Usage: pcl check"),
        (
            &["check", "-", "-"][..],
            "more than once",
            "Usage: pcl check",
        ),
    ] {
        let out = run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(tip), "{args:?}: {err}");
        assert!(err.contains(usage), "{args:?}: {err}");
        assert!(
            err.contains("For more information, try '--help'."),
            "{args:?}: {err}"
        );
        assert!(err.lines().count() <= 8, "{args:?}: not short: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn attached_short_forms_work() {
    let warning = fixture("warning");
    let warning = warning.to_string_lossy();
    let out = run(&["check", "-j2", &warning]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(&["check", "-Dwarnings", "-j2", &warning]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(warnings denied)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains("pcl"), "{shell}");
        assert!(
            script.contains("schema-dir"),
            "{shell}: flags are completed"
        );
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------------------
// explain

#[test]
fn explain_prints_every_section_for_every_code() {
    for entry in pcl_cli::catalogue::ENTRIES {
        let out = run(&["explain", entry.code]);
        assert_eq!(out.status.code(), Some(0), "{}", entry.code);
        let text = stdout(&out);
        assert!(
            text.starts_with(&format!("{} ({})", entry.code, entry.severity.as_str())),
            "{text}"
        );
        for section in [entry.meaning, entry.fix, entry.reference] {
            assert!(text.contains(section), "{}: {text}", entry.code);
        }
        assert!(text.contains("Example"), "{}", entry.code);
    }
    let out = run(&["explain", "undefined-variabel"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `undefined-variable`?"),
        "{}",
        stderr(&out)
    );
}

/// `pcl explain --list`: every code once, in catalogue order, with its
/// severity and one-line summary; a code and `--list` together are a
/// usage error.
#[test]
fn explain_list_names_every_code_with_its_summary() {
    let out = run(&["explain", "--list"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let entries = pcl_cli::catalogue::ENTRIES;
    assert_eq!(text.lines().count(), entries.len(), "{text}");
    for (line, entry) in text.lines().zip(entries) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&entry.code), "{line}");
        assert_eq!(words.get(1), Some(&entry.severity.as_str()), "{line}");
        assert!(line.ends_with(entry.summary()), "{line}");
    }
    let out = run(&["explain", "--list", "undefined-variable"]);
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------------------
// run errors

#[test]
fn run_errors_are_never_clean_runs() {
    let dir = scratch("run-errors");
    write(&dir, "empty/readme.md", "");
    for args in [
        &["check", "nothing-here"][..],
        &["check", "empty"][..],
        &["check", "-r", "empty"][..],
    ] {
        let out = run_in(&dir, args, b"");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("no problems found"), "{args:?}: {err}");
        assert!(err.contains("1 run error;"), "{args:?}: {err}");
    }
    let out = run_in(&dir, &["check", "--format", "json", "nothing-here"], b"");
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&stdout(&out));
    assert_eq!(doc["run_errors"][0]["path"], "nothing-here");
    assert!(doc["run_errors"][0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("cannot read `nothing-here`")));
    let out = run_in(&dir, &["check", "--format", "sarif", "nothing-here"], b"");
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&stdout(&out));
    let invocation = &doc["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let note = &invocation["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert!(note["message"]["text"]
        .as_str()
        .is_some_and(|m| m.contains("nothing-here")));
    // A clean run succeeds, in SARIF too.
    let clean = fixture("clean");
    let out = run(&["check", "--format", "sarif", &clean.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&stdout(&out));
    assert_eq!(
        doc["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
    let out = run(&["check", "--format", "json", &clean.to_string_lossy()]);
    assert_eq!(json(&stdout(&out))["run_errors"], Value::Array(Vec::new()));
}

#[test]
fn sarif_rules_come_from_the_catalogue() {
    let errors = fixture("errors");
    let out = run(&["check", "--format", "sarif", &errors.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&stdout(&out));
    let rule = &doc["runs"][0]["tool"]["driver"]["rules"][0];
    let entry = pcl_cli::catalogue::lookup("undefined-variable");
    assert_eq!(rule["id"], "undefined-variable");
    assert_eq!(
        rule["fullDescription"]["text"].as_str(),
        entry.map(|e| e.meaning)
    );
    assert!(rule["help"]["text"]
        .as_str()
        .is_some_and(|h| h.contains("How to fix")));
    assert_eq!(rule["defaultConfiguration"]["level"], "error");
    assert!(!stdout(&out).contains("github.com/pulumi/pulumi/tree"));
}

// ---------------------------------------------------------------------------
// parse

#[test]
fn parse_reads_stdin_sorts_and_takes_format_and_color() {
    let out = run_in(&repo(), &["parse", "--format", "short", "-"], b"x = \n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("<stdin>:1:3: error[missing-attribute-value]"),
        "{}",
        stdout(&out)
    );
    let out = run_in(
        &repo(),
        &["parse", "--emit", "source", "-"],
        b"x = 1 # kept\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "x = 1 # kept\n");
    // Files given in reverse order are reported in path order.
    let out = run(&[
        "parse",
        "--format",
        "short",
        "testdata/cli/syntax/b.pp",
        "testdata/cli/syntax/a.pp",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split(": ").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        lines,
        [
            "testdata/cli/syntax/a.pp:1:8",
            "testdata/cli/syntax/b.pp:1:3",
            "testdata/cli/syntax/b.pp:2:5"
        ]
    );
    let out = run(&["parse", "--format", "json", "testdata/cli/syntax"]);
    let doc = json(&stdout(&out));
    assert_eq!(doc["summary"]["errors"], 3);
    let out = run(&["parse", "--color", "always", "testdata/cli/syntax/a.pp"]);
    assert!(stderr(&out).contains('\u{1b}'), "coloured");
    let out = run(&["parse", "--color", "never", "testdata/cli/syntax/a.pp"]);
    assert!(!stderr(&out).contains('\u{1b}'), "not coloured");
    let out = run(&["parse", "nothing-here.pp"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("1 run error;"), "{}", stderr(&out));
}

// ---------------------------------------------------------------------------
// pcl.toml

#[test]
fn config_is_found_upward_and_overridden_by_flags() {
    // testdata/cli/project/pcl.toml: schemas from testdata/schemas,
    // undefined-variable allowed, missing-required-attribute a warning.
    let out = run(&["check", "--format", "short", "testdata/cli/project/app"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "testdata/cli/project/app/main.pp:1:32: warning[missing-required-attribute]: \
         missing required attribute `name`\n"
    );
    // From inside the project, with the file as PATH, too.
    let out = run_in(
        &fixture("project/app"),
        &["check", "--format", "short", "main.pp"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The command line wins over the file.
    let out = run(&[
        "check",
        "--format",
        "short",
        "--deny",
        "undefined-variable",
        "testdata/cli/project/app",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[undefined-variable]"));
    let out = run(&["check", "-Dwarnings", "testdata/cli/project/app"]);
    assert_eq!(out.status.code(), Some(1));
    // --no-config: no schemas, nothing allowed.
    let out = run(&[
        "check",
        "--format",
        "short",
        "--no-config",
        "testdata/cli/project/app",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("error[unknown-package]"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("error[undefined-variable]"));
    // --config names a file for every program.
    let out = run(&[
        "check",
        "--format",
        "short",
        "--config",
        "testdata/cli/project/pcl.toml",
        "testdata/cli/errors",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
}

#[test]
fn bad_config_is_a_run_error_naming_file_line_and_key() {
    for format in ["human", "json"] {
        let out = run(&["check", "--format", format, "testdata/cli/badconfig"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(
            err.contains(
                "testdata/cli/badconfig/pcl.toml:2: unknown key `lenent`; did you mean `lenient`?"
            ),
            "{err}"
        );
        if format == "json" {
            let doc = json(&stdout(&out));
            assert_eq!(
                doc["run_errors"][0]["path"],
                "testdata/cli/badconfig/pcl.toml"
            );
        }
    }
    let dir = scratch("bad-values");
    write(
        &dir,
        "pcl.toml",
        "[codes]\nallow = [\"undefined-variabel\"]\n",
    );
    write(&dir, "main.pp", "x = 1\n");
    let out = run_in(&dir, &["check", "."], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("pcl.toml:2: `[codes] allow`: unknown diagnostic code"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("did you mean `undefined-variable`?"));
    let out = run_in(
        &dir,
        &["check", "--no-config", "--allow", "nosuch-code", "."],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown diagnostic code `nosuch-code`"));
}

// ---------------------------------------------------------------------------
// pcl-ignore

#[test]
fn pcl_ignore_silences_lines_and_reports_unused_codes() {
    let out = run(&["check", "--format", "short", "testdata/cli/ignore"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "testdata/cli/ignore/main.pp:6:5: error[undefined-variable]: undefined variable `stillNope`\n\
         testdata/cli/ignore/main.pp:8:1: warning[unused-ignore]: `pcl-ignore: unknown-function` \
         silences nothing on line 9\n"
    );
    let out = run(&[
        "check",
        "--format",
        "short",
        "--allow",
        "unused-ignore",
        "--warn",
        "undefined-variable",
        "testdata/cli/ignore",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "testdata/cli/ignore/main.pp:6:5: warning[undefined-variable]: undefined variable `stillNope`\n"
    );
}

// ---------------------------------------------------------------------------
// --recursive

#[test]
fn recursive_checks_every_program_and_skips_the_rest() {
    let out = run(&["check", "-r", "--format", "json", "testdata/cli/tree"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&stdout(&out));
    let paths: Vec<&str> = doc["programs"]
        .as_array()
        .map(|p| p.iter().filter_map(|p| p["path"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        paths,
        [
            "testdata/cli/tree/a",
            "testdata/cli/tree/a/nested/b",
            "testdata/cli/tree/proj/src"
        ]
    );
    assert_eq!(doc["summary"]["errors"], 1);
    // Without -r a directory of directories is a run error, which says
    // how to check it.
    let out = run(&["check", "testdata/cli/tree"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("add `--recursive`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn recursive_output_is_deterministic_and_has_no_progress_bar_off_a_terminal() {
    let dir = scratch("many");
    for i in 0..60 {
        let body = if i % 7 == 0 {
            "output o {\n  value = nope\n}\n"
        } else {
            "output o {\n  value = 1\n}\n"
        };
        write(&dir, &format!("p{:02}/sub{}/main.pp", 59 - i, i % 3), body);
    }
    let one = run_in(&dir, &["check", "-r", "-j1", "--color", "never", "."], b"");
    let four = run_in(&dir, &["check", "-r", "-j4", "--color", "never", "."], b"");
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(stderr(&one), stderr(&four));
    assert!(
        stderr(&one).ends_with("9 errors, 0 warnings in 60 programs\n"),
        "{}",
        stderr(&one)
    );
    assert!(
        !stderr(&one).contains("checking"),
        "no progress bar when stderr is a pipe"
    );
}

// ---------------------------------------------------------------------------
// exit statuses

#[test]
fn exit_statuses() {
    for (args, code) in [
        (&["check", "testdata/cli/clean"][..], 0),
        (&["check", "testdata/cli/warning"][..], 0),
        (&["check", "testdata/cli/errors"][..], 1),
        (
            &["check", "--deny", "warnings", "testdata/cli/warning"][..],
            1,
        ),
        (&["check", "testdata/cli/clean", "nothing-here"][..], 2),
        (&["parse", "testdata/cli/clean/main.pp"][..], 0),
        (&["parse", "testdata/cli/syntax"][..], 1),
        (&["explain", "undefined-variable"][..], 0),
        (&["explain", "nope"][..], 2),
        (&["frobnicate"][..], 2),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
    }
}

/// On a terminal (a pseudo-terminal from util-linux `script`), a human run
/// of more than 50 programs shows a progress bar on stderr; a machine
/// format, or a small run, does not. Skipped where `script` is missing.
#[test]
fn progress_bar_only_on_a_terminal_for_big_human_runs() {
    let has_script = cfg!(target_os = "linux")
        && std::process::Command::new("script")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !has_script {
        eprintln!("skipped: no util-linux `script` to make a terminal");
        return;
    }
    let dir = scratch("progress");
    for i in 0..60 {
        write(
            &dir,
            &format!("p{i}/main.pp"),
            "output o {\n  value = 1\n}\n",
        );
    }
    write(&dir, "small/one/main.pp", "output o {\n  value = 1\n}\n");
    let on_terminal = |args: &str| -> String {
        let command = format!("'{}' {args}", pcl_tests::pcl_binary().display());
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(&dir)
            .env("TERM", "xterm")
            .env("PULUMI_HOME", dir.join("no-pulumi-home"))
            .output()
            .unwrap_or_else(|e| panic!("script: {e}"));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let big = on_terminal("check -r .");
    assert!(big.contains("/61 programs"), "{big:?}");
    assert!(big.contains("no problems found in 61 programs"), "{big:?}");
    let machine = on_terminal("check -r --format short .");
    assert!(!machine.contains("programs"), "{machine:?}");
    let small = on_terminal("check -r small");
    assert!(!small.contains("/1 programs"), "{small:?}");
}
