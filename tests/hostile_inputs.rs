//! What a repository or a shared directory can carry (issue 26 §3): files
//! planted by another user, files that are not files (FIFOs, devices),
//! files and standard input of any size, names with control characters or
//! bytes that are not UTF-8, and a closed output pipe.
//!
//! Every `pcl` run here goes through [`run_guarded`]: a run that does not
//! finish within [`HANG_GUARD`] is killed and reported as hung (a guard
//! against a test that never ends, not a measure of speed), and the
//! address space of the process is capped at [`MEMORY_CAP_KIB`], so a run
//! that would read gigabytes fails here instead of exhausting the machine.

#![cfg(unix)]

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pcl_tests::{pcl_binary, repo, scratch, write};

/// A run still going after this long is killed and counted as hung.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// The address space a run may use, in KiB (`ulimit -v`): 4 GiB.
const MEMORY_CAP_KIB: u64 = 4 * 1024 * 1024;

/// The binary under test: `pcl_binary()`, or the one `PCL_HOSTILE_BIN`
/// names (to show that a fix is needed, run these tests against a build of
/// the code before it).
fn binary() -> PathBuf {
    match std::env::var_os("PCL_HOSTILE_BIN") {
        Some(path) => PathBuf::from(path),
        None => pcl_binary().to_path_buf(),
    }
}

/// What a guarded run gave.
struct Ran {
    /// The exit code; `None` after a signal or when it hung.
    code: Option<i32>,
    stdout: String,
    stderr: String,
    hung: bool,
}

impl Ran {
    fn describe(&self) -> String {
        format!(
            "code {:?}, hung {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            self.hung,
            self.stdout.get(..4000.min(self.stdout.len())).unwrap_or(""),
            self.stderr.get(..4000.min(self.stderr.len())).unwrap_or("")
        )
    }
}

/// What a run reads as standard input.
enum Input<'a> {
    Bytes(&'a [u8]),
    File(&'a Path),
}

/// Runs `pcl args…` in `dir` under the hang guard and the memory cap.
fn run_guarded(dir: &Path, args: &[&OsStr], input: Input<'_>) -> Ran {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KIB} && exec \"$0\" \"$@\""))
        .arg(binary())
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("PULUMI_HOME", repo().join("testdata/cli/no-pulumi-home"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match &input {
        Input::Bytes(_) => {
            command.stdin(Stdio::piped());
        }
        Input::File(path) => {
            let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{e}"));
            command.stdin(Stdio::from(file));
        }
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run pcl: {e}"));
    if let (Input::Bytes(bytes), Some(mut stdin)) = (&input, child.stdin.take()) {
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        });
    }
    let drain = |stream: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut stream) = stream {
                let _ = stream.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut hung = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > HANG_GUARD => {
                hung = true;
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("{e}"),
        }
    };
    Ran {
        code: status.and_then(|s| s.code()),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        hung,
    }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn pcl(dir: &Path, args: &[&str]) -> Ran {
    let args = os(args);
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    run_guarded(dir, &refs, Input::Bytes(b""))
}

fn pcl_os(dir: &Path, args: &[&OsStr]) -> Ran {
    run_guarded(dir, args, Input::Bytes(b""))
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// No panic, no abort, no hang: the run ended with an exit status of its
/// own, and said nothing about an internal error.
fn assert_clean_exit(ran: &Ran, what: &str) {
    assert!(!ran.hung, "{what}: hung\n{}", ran.describe());
    assert!(
        ran.code.is_some_and(|c| c <= 2),
        "{what}: no clean exit\n{}",
        ran.describe()
    );
    assert!(
        !ran.stderr.contains("internal error"),
        "{what}: internal error\n{}",
        ran.describe()
    );
}

// ---------------------------------------------------------------------------
// D7: files owned by another user

/// The uid and gid of `nobody`, when the tests run as root and it exists.
fn root_and_nobody() -> Option<(u32, u32)> {
    let me = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&me.stdout).trim() != "0" {
        eprintln!("skipped: the ownership tests need root (to chown a file to nobody)");
        return None;
    }
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    let found = passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        match fields.as_slice() {
            ["nobody", _, uid, gid, ..] => Some((uid.parse().ok()?, gid.parse().ok()?)),
            _ => None,
        }
    });
    if found.is_none() {
        eprintln!("skipped: there is no `nobody` user");
    }
    found
}

/// A world-writable sticky directory (like /tmp) holding a root-owned
/// program `proj/main.pp` that uses an undefined name and a component
/// `../sib` beside it.
fn shared_directory(name: &str) -> PathBuf {
    let shared = scratch(name);
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777))
        .unwrap_or_else(|e| panic!("{e}"));
    write(
        &shared,
        "proj/main.pp",
        "x = undefinedThing\ncomponent c \"../sib\" {}\noutput o { value = c.v }\n",
    );
    write(&shared, "sib/main.pp", "output v { value = 1 }\n");
    shared
}

fn chown(path: &Path, (uid, gid): (u32, u32)) {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid)).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn d7_planted_pcl_toml_in_a_shared_directory_is_not_applied() {
    let Some(nobody) = root_and_nobody() else {
        return;
    };
    let shared = shared_directory("d7-toml");
    let planted = shared.join("pcl.toml");
    std::fs::write(&planted, "[codes]\nallow = [\"undefined-variable\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    chown(&planted, nobody);
    let ran = pcl(&shared, &["check", "--format", "short", "proj/main.pp"]);
    assert_clean_exit(&ran, "check");
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    assert!(
        ran.stdout.contains("error[undefined-variable]"),
        "the planted `[codes] allow` was applied\n{}",
        ran.describe()
    );
    // The planted file does not move the root up to the shared directory.
    assert!(
        ran.stdout.contains("error[component-outside-root]"),
        "the planted file moved the project root\n{}",
        ran.describe()
    );
    // Said once, on stderr.
    let said = ran
        .stderr
        .lines()
        .filter(|l| l.contains("pcl.toml") && l.contains("owned by"))
        .count();
    assert_eq!(said, 1, "{}", ran.describe());
}

#[test]
fn d7_planted_root_markers_do_not_move_the_root() {
    let Some(nobody) = root_and_nobody() else {
        return;
    };
    for marker in [".git", "Pulumi.yaml"] {
        let shared = shared_directory(&format!("d7-marker-{}", marker.trim_start_matches('.')));
        let planted = shared.join(marker);
        if marker == ".git" {
            std::fs::create_dir(&planted).unwrap_or_else(|e| panic!("{e}"));
        } else {
            std::fs::write(&planted, "name: x\nruntime: pcl\nmain: sib\n")
                .unwrap_or_else(|e| panic!("{e}"));
        }
        chown(&planted, nobody);
        let ran = pcl(&shared, &["check", "--format", "short", "proj"]);
        assert_clean_exit(&ran, marker);
        assert!(
            ran.stdout.contains("error[component-outside-root]"),
            "{marker}: the planted marker moved the project root\n{}",
            ran.describe()
        );
        let said = ran
            .stderr
            .lines()
            .filter(|l| l.contains(marker) && l.contains("owned by"))
            .count();
        assert_eq!(said, 1, "{marker}: {}", ran.describe());
    }
    // A planted `Pulumi.yaml` in a directory walked by `--recursive` does
    // not redirect the program to its `main`.
    let shared = shared_directory("d7-project");
    write(
        &shared,
        "proj/Pulumi.yaml",
        "name: p\nruntime: pcl\nmain: ../sib\n",
    );
    chown(&shared.join("proj/Pulumi.yaml"), nobody);
    let ran = pcl(&shared, &["check", "--format", "short", "-r", "proj"]);
    assert_clean_exit(&ran, "recursive");
    assert!(
        ran.stdout.contains("proj/main.pp") && ran.stdout.contains("undefined-variable"),
        "the planted project file redirected the check\n{}",
        ran.describe()
    );
    assert!(ran.stderr.contains("owned by"), "{}", ran.describe());
}

#[test]
fn d7_explicit_config_owned_by_another_user_is_applied() {
    let Some(nobody) = root_and_nobody() else {
        return;
    };
    let shared = shared_directory("d7-explicit");
    let planted = shared.join("other.toml");
    std::fs::write(&planted, "[codes]\nallow = [\"undefined-variable\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    chown(&planted, nobody);
    write(&shared, "solo/main.pp", "x = undefinedThing\n");
    let ran = pcl(
        &shared,
        &[
            "check",
            "--format",
            "short",
            "--config",
            "other.toml",
            "solo",
        ],
    );
    assert_clean_exit(&ran, "check");
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(!ran.stderr.contains("owned by"), "{}", ran.describe());
}

// ---------------------------------------------------------------------------
// D9, D10, D22: project and settings files that are not regular files

#[test]
fn d9_a_fifo_pulumi_yaml_does_not_hang_a_recursive_check() {
    let dir = scratch("d9-fifo");
    write(&dir, "ok/main.pp", "a = 1\n");
    std::fs::create_dir_all(dir.join("p")).unwrap_or_else(|e| panic!("{e}"));
    write(&dir, "p/main.pp", "b = 1\n");
    if !mkfifo(&dir.join("p/Pulumi.yaml")) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    for args in [&["check", "-r", "."][..], &["check", "p"][..]] {
        let ran = pcl(&dir, args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            ran.stderr.contains("p/Pulumi.yaml") && ran.stderr.contains("not a regular file"),
            "{args:?}: {}",
            ran.describe()
        );
    }
}

#[test]
fn d10_a_pulumi_yaml_linked_to_dev_zero_is_refused() {
    let dir = scratch("d10-zero");
    write(&dir, "p/main.pp", "b = 1\n");
    std::os::unix::fs::symlink("/dev/zero", dir.join("p/Pulumi.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    for args in [&["check", "-r", "."][..], &["check", "p"][..]] {
        let ran = pcl(&dir, args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            ran.stderr.contains("p/Pulumi.yaml") && ran.stderr.contains("not a regular file"),
            "{args:?}: {}",
            ran.describe()
        );
    }
}

#[test]
fn d22_a_config_that_is_a_fifo_or_a_device_is_refused() {
    let dir = scratch("d22-config");
    write(&dir, "main.pp", "a = 1\n");
    let fifo = dir.join("fifo.toml");
    if !mkfifo(&fifo) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    for config in ["fifo.toml", "/dev/zero"] {
        let ran = pcl(&dir, &["check", "--config", config, "main.pp"]);
        assert_clean_exit(&ran, config);
        assert_eq!(ran.code, Some(2), "{config}: {}", ran.describe());
        assert!(
            ran.stderr.contains(config) && ran.stderr.contains("not a regular file"),
            "{config}: {}",
            ran.describe()
        );
    }
}

#[test]
fn d22_a_discovered_pcl_toml_that_is_not_a_file_is_reported() {
    let dir = scratch("d22-discovered");
    write(
        &dir,
        "pcl.toml",
        "[codes]\nallow = [\"undefined-variable\"]\n",
    );
    write(&dir, "fifo/main.pp", "x = undefinedThing\n");
    write(&dir, "zero/main.pp", "x = undefinedThing\n");
    if !mkfifo(&dir.join("fifo/pcl.toml")) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero/pcl.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    for program in ["fifo", "zero"] {
        let ran = pcl(&dir, &["check", program]);
        assert_clean_exit(&ran, program);
        assert_eq!(ran.code, Some(2), "{program}: {}", ran.describe());
        assert!(
            ran.stderr
                .contains(&format!("{program}/pcl.toml`: not a regular file")),
            "{program}: {}",
            ran.describe()
        );
    }
}

// ---------------------------------------------------------------------------
// D15: program files and standard input of any size

/// A sparse file of `len` bytes (no disk used).
fn sparse(path: &Path, len: u64) {
    let file = std::fs::File::create(path).unwrap_or_else(|e| panic!("{e}"));
    file.set_len(len).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn d15_oversized_program_files_are_refused() {
    let dir = scratch("d15-big");
    sparse(&dir.join("m6.pp"), 6 * 1024 * 1024 * 1024);
    for args in [
        &["check", "m6.pp"][..],
        &["parse", "m6.pp"][..],
        &["fmt", "--check", "m6.pp"][..],
    ] {
        let ran = pcl(&dir, args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            ran.stderr.contains("m6.pp") && ran.stderr.contains("limit"),
            "{args:?}: {}",
            ran.describe()
        );
    }
    // One oversized file of a program directory: the others are checked.
    write(&dir, "prog/main.pp", "x = undefinedThing\n");
    sparse(&dir.join("prog/big.pp"), 6 * 1024 * 1024 * 1024);
    let ran = pcl(&dir, &["check", "--format", "short", "prog"]);
    assert_clean_exit(&ran, "program directory");
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    assert!(
        ran.stdout
            .contains("prog/big.pp:1:1: error[unreadable-file]")
            && ran.stdout.contains("limit")
            && ran
                .stdout
                .contains("prog/main.pp:1:5: error[undefined-variable]"),
        "{}",
        ran.describe()
    );
}

#[test]
fn d15_endless_standard_input_is_bounded() {
    for args in [&["check", "-"][..], &["parse", "-"][..], &["fmt", "-"][..]] {
        let args = os(args);
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let ran = run_guarded(&repo(), &refs, Input::File(Path::new("/dev/zero")));
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            ran.stderr.contains("standard input") && ran.stderr.contains("limit"),
            "{args:?}: {}",
            ran.describe()
        );
    }
}

// ---------------------------------------------------------------------------
// D6: run errors escape what they quote

#[test]
fn d6_run_errors_escape_control_characters() {
    let dir = scratch("d6");
    write(&dir, "main.pp", "a = 1\n");
    let forged = "x\n::error file=main.pp::forged\u{1b}[31m";
    std::fs::create_dir_all(dir.join(forged)).unwrap_or_else(|e| panic!("{e}"));
    write(
        &dir,
        "proj/Pulumi.yaml",
        "name: p\nruntime: pcl\nmain: \"m\u{1b}[2J\"\n",
    );
    let forged_toml = format!("schema-dirs = [\"{}\"]\n", "s\\n::error file=x::forged");
    write(&dir, "cfg/pcl.toml", &forged_toml);
    write(&dir, "cfg/main.pp", "a = 1\n");
    let missing = "nope\n::error file=main.pp::forged\u{1b}[31m.pp";
    let cases: Vec<Vec<&str>> = vec![
        vec!["check", forged],
        vec!["check", "--format", "github", forged],
        vec!["check", missing],
        vec!["check", "--format", "github", missing],
        vec!["parse", missing],
        vec!["check", "--schema-dir", missing, "main.pp"],
        vec!["check", "--config", missing, "main.pp"],
        vec!["check", "--root", missing, "main.pp"],
        vec!["check", "proj"],
        vec!["check", "cfg"],
        vec!["check", "missing\u{1b}]0;title\u{7}.pp"],
        vec!["parse", "missing\u{1b}]0;title\u{7}.pp"],
    ];
    for args in cases {
        let ran = pcl(&dir, &args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            !ran.stderr.contains('\u{1b}') && !ran.stderr.contains('\u{7}'),
            "{args:?}: {}",
            ran.describe()
        );
        for stream in [&ran.stderr, &ran.stdout] {
            assert!(
                !stream
                    .lines()
                    .any(|l| l.starts_with("::error file=") && l.contains("forged")),
                "{args:?}: a forged workflow command\n{}",
                ran.describe()
            );
        }
    }
}

// ---------------------------------------------------------------------------
// D11: arguments that are not UTF-8

#[test]
fn d11_non_utf8_path_arguments_are_paths() {
    let dir = scratch("d11");
    let name = OsStr::from_bytes(b"caf\xe9.pp");
    std::fs::write(dir.join(name), "a   = 1\n").unwrap_or_else(|e| panic!("{e}"));
    let check = OsString::from("check");
    let parse = OsString::from("parse");
    let fmt = OsString::from("fmt");
    let flag = OsString::from("--check");
    for (args, code) in [
        (vec![check.as_os_str(), name], 0),
        (vec![parse.as_os_str(), name], 0),
        (vec![fmt.as_os_str(), flag.as_os_str(), name], 1),
    ] {
        let ran = pcl_os(&dir, &args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        assert_eq!(ran.code, Some(code), "{args:?}: {}", ran.describe());
    }
    // `fmt --check` names the file, the bad byte escaped.
    let ran = pcl_os(&dir, &[fmt.as_os_str(), flag.as_os_str(), name]);
    assert_eq!(ran.stdout.trim(), "caf\\xe9.pp", "{}", ran.describe());
    // Formatted in place.
    let ran = pcl_os(&dir, &[fmt.as_os_str(), name]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert_eq!(
        std::fs::read_to_string(dir.join(name)).unwrap_or_default(),
        "a = 1\n"
    );
    // Two such names in a program directory stay apart.
    let two = dir.join("two");
    std::fs::create_dir_all(&two).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(two.join(OsStr::from_bytes(b"caf\xe9.pp")), "a = 1\n")
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(two.join(OsStr::from_bytes(b"caf\xe8.pp")), "b = nope\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let ran = pcl(&dir, &["check", "--format", "short", "two"]);
    assert_clean_exit(&ran, "two");
    assert!(
        ran.stdout
            .starts_with("two/caf\\xe8.pp:1:5: error[undefined-variable]"),
        "{}",
        ran.describe()
    );
    // A flag's value that is not UTF-8 is a path too.
    let schema_flag = OsString::from("--schema-dir");
    let bad_dir = OsStr::from_bytes(b"sch\xff");
    std::fs::create_dir_all(dir.join(bad_dir)).unwrap_or_else(|e| panic!("{e}"));
    let ran = pcl_os(
        &dir,
        &[check.as_os_str(), schema_flag.as_os_str(), bad_dir, name],
    );
    assert_clean_exit(&ran, "--schema-dir");
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
}

// ---------------------------------------------------------------------------
// D21: a closed output pipe

#[test]
fn d21_completions_into_a_closed_pipe_end_quietly() {
    for shell in ["bash", "fish", "zsh", "elvish", "powershell"] {
        let mut child = Command::new(binary())
            .args(["completions", shell])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // The reading end is closed before pcl writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{shell}: {stderr}");
        assert!(
            out.status.code().is_some_and(|c| c <= 2),
            "{shell}: {:?}",
            out.status
        );
    }
}

// ---------------------------------------------------------------------------
// D18: `unused-ignore` warnings and the per-file limit

#[test]
fn d18_unused_ignore_warnings_stay_under_the_per_file_limit() {
    let dir = scratch("d18");
    let stale: String = (0..3_000)
        .map(|i| format!("# pcl-ignore: undefined-variable\na{i} = 1\n"))
        .collect();
    write(&dir, "stale.pp", &stale);
    // Past the limit already: 1,200 errors, then stale comments.
    let mut both: String = (0..1_200)
        .map(|i| format!("x{i} = undefinedThing\n"))
        .collect();
    both.push_str(&stale);
    write(&dir, "both.pp", &both);
    for (file, dropped) in [("stale.pp", "2,000"), ("both.pp", "3,200")] {
        let ran = pcl(&dir, &["check", "--format", "short", file]);
        assert_clean_exit(&ran, file);
        let lines: Vec<&str> = ran.stdout.lines().collect();
        // At most 1,000 diagnostics and one summary.
        assert_eq!(lines.len(), 1_001, "{file}: {}", ran.describe());
        let summaries: Vec<&&str> = lines
            .iter()
            .filter(|l| l.contains("[too-many-diagnostics]"))
            .collect();
        assert_eq!(summaries.len(), 1, "{file}: {summaries:?}");
        assert!(
            summaries
                .first()
                .is_some_and(|s| s.contains(&format!("{dropped} more problems"))),
            "{file}: {summaries:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Issue 28: a directory named like a source file

#[test]
fn a_directory_named_like_a_source_file_is_treated_alike() {
    let dir = scratch("dir-pp");
    write(&dir, "prog/main.pp", "a = 1\n");
    std::fs::create_dir_all(dir.join("prog/sub.pp")).unwrap_or_else(|e| panic!("{e}"));
    for args in [
        &["check", "prog"][..],
        &["parse", "prog"][..],
        &["fmt", "--check", "prog"][..],
    ] {
        let ran = pcl(&dir, args);
        assert_clean_exit(&ran, &format!("{args:?}"));
        let all = format!("{}{}", ran.stdout, ran.stderr);
        assert!(
            all.contains("prog/sub.pp") && all.contains("not a regular file"),
            "{args:?}: {}",
            ran.describe()
        );
        assert_ne!(ran.code, Some(0), "{args:?}: {}", ran.describe());
    }
}
