//! The README's promise that `pcl check` never touches the network and
//! never starts another program (no plugins, no `pulumi` process), tested:
//! the whole corpus is checked under `strace -f`, and any socket, connect
//! or process start (an `execve` after the first) fails the test.
//!
//! Needs strace (Debian's `strace`); without it the test says so and
//! passes, except under `PCL_REQUIRE_STRACE=1`, which `.ci/run` sets.

use std::path::Path;
use std::process::Command;

use pcl_tests::{corpus_groups, pcl_binary, scratch};

/// The system calls that reach the network or start a program.
const WATCHED: &str = "trace=socket,connect,sendto,execve,execveat";

/// Runs `program args…` under `strace -f` and returns every watched
/// system call it made, less the first `execve` (strace starting the
/// program itself). `None` when strace cannot run.
fn watched_calls(program: &Path, args: &[&str], log: &Path) -> Option<Vec<String>> {
    let out = Command::new("strace")
        .args(["-f", "--seccomp-bpf", "-qq", "-e", WATCHED, "-o"])
        .arg(log)
        .arg(program)
        .args(args)
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            assert!(
                std::env::var_os("PCL_REQUIRE_STRACE").is_none_or(|v| v != "1"),
                "cannot run strace ({e}), and PCL_REQUIRE_STRACE=1 requires it"
            );
            println!("skipped: cannot run strace ({e})");
            return None;
        }
    };
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{} under strace: {:?}\n{}",
        program.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("strace log: {e}"));
    let mut calls: Vec<String> = text
        .lines()
        .filter(|l| !l.contains("+++ exited") && !l.contains("--- SIG"))
        .map(str::to_string)
        .collect();
    // strace's own start of the program.
    if let Some(first) = calls.iter().position(|l| l.contains("execve(")) {
        calls.remove(first);
    }
    Some(calls)
}

#[test]
fn checking_the_corpus_opens_no_socket_and_starts_no_program() {
    let Some(groups) = corpus_groups("isolation") else {
        return;
    };
    let log = scratch("isolation").join("strace.log");
    let mut programs = 0;
    for (schemas, paths) in &groups {
        let mut args = vec!["check", "--no-config", "--schema-dir", schemas.as_str()];
        args.extend(paths.iter().map(String::as_str));
        let Some(calls) = watched_calls(pcl_binary(), &args, &log) else {
            return;
        };
        assert!(
            calls.is_empty(),
            "checking the programs of {schemas} reached the network or started a program:\n{}",
            calls.join("\n")
        );
        programs += paths.len();
    }
    pcl_testkit::at_least("corpus programs checked under strace", programs, 200);
}

/// The harness sees what it watches for: a shell that starts a program is
/// caught, so an empty list above means something.
#[test]
fn the_harness_sees_a_program_start() {
    let log = scratch("isolation-self").join("strace.log");
    let Some(calls) = watched_calls(Path::new("/bin/sh"), &["-c", "/bin/true; exit 0"], &log)
    else {
        return;
    };
    assert!(
        calls.iter().any(|c| c.contains("execve(")),
        "no process start seen: {calls:?}"
    );
}
