//! Paths, roots and components on disk (issues 13 §1 and 18, findings 1, 2
//! and 8): the root that component directories and listed files must stay
//! under, symbolic links that escape it or loop, component files that are
//! not UTF-8 or not regular files, and a PATH given twice. Every case builds
//! its files in a fresh directory under the system's temporary directory
//! (outside any repository, so no root marker is found above it unless the
//! case puts one there).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A fresh, empty directory (canonical) for one case.
fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pcl-paths-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::canonicalize(&dir).unwrap()
}

/// Whether a root marker lies at or above `dir` already (then the cases
/// that need none cannot run here).
fn marker_above(dir: &Path) -> bool {
    dir.ancestors().any(|a| {
        ["pcl.toml", "Pulumi.yaml", "Pulumi.yml", ".git"]
            .iter()
            .any(|m| a.join(m).symlink_metadata().is_ok())
    })
}

fn write(path: &Path, text: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// Runs `pcl` in `cwd`, failing the test if it takes more than a minute
/// (a FIFO opened, a symlink cycle followed without end).
fn pcl(args: &[&str], cwd: &Path) -> Output {
    let mut child = Command::new(pcl_tests::pcl_binary())
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("PULUMI_HOME", cwd.join("no-such-pulumi-home"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pcl");
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pcl {args:?} did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `pcl check --format short ARGS`: exit code and the diagnostic lines.
fn check_short(args: &[&str], cwd: &Path) -> (Option<i32>, Vec<String>) {
    let mut all = vec!["check", "--format", "short"];
    all.extend_from_slice(args);
    let out = pcl(&all, cwd);
    let lines = stdout(&out).lines().map(str::to_string).collect();
    (out.status.code(), lines)
}

/// A module with one required input and one output.
const MODULE: &str = "config name string {}\noutput greeting { value = \"hello ${name}\" }\n";

/// A program two levels down that uses the module beside its parent.
const SIBLING_USER: &str =
    "component m \"../../outer_mod\" {\n  name = \"x\"\n}\noutput o { value = m.greeting }\n";

fn sibling_layout(root: &Path) {
    write(&root.join("outer_mod/main.pp"), MODULE);
    write(&root.join("envs/dev/main.pp"), SIBLING_USER);
}

#[test]
fn sibling_modules_bind_under_a_marked_root() {
    for marker in ["pcl.toml", "Pulumi.yaml", "Pulumi.yml", ".git"] {
        let root = temp_dir("sibling");
        sibling_layout(&root);
        // A `.git` *file* (a worktree) counts as much as a directory.
        write(&root.join(marker), "");
        let (code, lines) = check_short(&["envs/dev"], &root);
        assert_eq!(code, Some(0), "{marker}: {lines:?}");
        assert!(lines.is_empty(), "{marker}: {lines:?}");
        // Checked from inside the program directory, and as a single file.
        let (code, lines) = check_short(&["."], &root.join("envs/dev"));
        assert_eq!(code, Some(0), "{marker}: {lines:?}");
        let (code, lines) = check_short(&["main.pp"], &root.join("envs/dev"));
        assert_eq!(code, Some(0), "{marker}: {lines:?}");
    }
}

#[test]
fn without_a_marker_the_root_is_the_program_directory() {
    let root = temp_dir("unmarked");
    if marker_above(&root) {
        eprintln!("skipped: a root marker lies above the temporary directory");
        return;
    }
    sibling_layout(&root);
    let (code, lines) = check_short(&["envs/dev"], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("envs/dev/main.pp:1:13: error[component-outside-root]"),
        "{lines:?}"
    );
    // `--root` draws it explicitly.
    let (code, lines) = check_short(&["--root", ".", "envs/dev"], &root);
    assert_eq!(code, Some(0), "{lines:?}");
    let (code, lines) = check_short(&["--root=../..", "."], &root.join("envs/dev"));
    assert_eq!(code, Some(0), "{lines:?}");
}

#[test]
fn a_program_outside_the_given_root_is_refused() {
    let base = temp_dir("outside-root-arg");
    write(&base.join("a/main.pp"), "x = 1\n");
    std::fs::create_dir_all(base.join("b")).unwrap();
    let out = pcl(&["check", "--root", "b", "a"], &base);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is not under the root"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn a_component_link_out_of_the_root_is_refused() {
    let base = temp_dir("escape");
    let secret = base.join("elsewhere");
    write(
        &secret.join("leak.pp"),
        "output stolen { value = \"SECRET-CONTENT\" }\n",
    );
    let root = base.join("project");
    write(&root.join("pcl.toml"), "");
    write(
        &root.join("main.pp"),
        "component x \"./link\" {}\noutput o { value = x.stolen }\n",
    );
    std::os::unix::fs::symlink(&secret, root.join("link")).unwrap();
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("main.pp:1:13: error[component-outside-root]"),
        "{lines:?}"
    );
    let out = pcl(&["check", "--emit", "model", "."], &root);
    assert!(!stdout(&out).contains("SECRET-CONTENT"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("leak.pp"), "{}", stdout(&out));
    // A link inside the root is fine, and binds as the directory it names.
    write(&root.join("inner/main.pp"), "output ok { value = 1 }\n");
    std::os::unix::fs::symlink(root.join("inner"), root.join("in-link")).unwrap();
    write(
        &root.join("main.pp"),
        "component y \"./in-link\" {}\noutput o { value = y.ok }\n",
    );
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(0), "{lines:?}");
}

#[cfg(unix)]
#[test]
fn a_listed_file_linked_out_of_the_root_is_not_read() {
    let base = temp_dir("file-escape");
    write(
        &base.join("elsewhere/secret.pp"),
        "output stolen { value = \"SECRET-CONTENT\" }\n",
    );
    let root = base.join("project");
    write(&root.join(".git/HEAD"), "");
    write(&root.join("main.pp"), "x = 1\n");
    std::os::unix::fs::symlink(base.join("elsewhere/secret.pp"), root.join("b.pp")).unwrap();
    // In the checked program's directory …
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(
        lines,
        ["b.pp:1:1: error[component-outside-root]: `b.pp` is a link to a file outside the program root"],
    );
    let out = pcl(&["check", "--emit", "model", "."], &root);
    assert!(!stdout(&out).contains("SECRET-CONTENT"), "{}", stdout(&out));
    // … and in a component's.
    std::fs::remove_file(root.join("b.pp")).unwrap();
    write(&root.join("main.pp"), "component c \"./comp\" {}\n");
    write(&root.join("comp/main.pp"), "output ok { value = 1 }\n");
    std::os::unix::fs::symlink(base.join("elsewhere/secret.pp"), root.join("comp/b.pp")).unwrap();
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(
        lines,
        ["comp/b.pp:1:1: error[component-outside-root]: `comp/b.pp` is a link to a file outside the program root"],
    );
}

/// `ln -s . l1; ln -s . l2` (and a third link) with one component per
/// link: each link is the program's own directory, found once each.
#[cfg(unix)]
#[test]
fn symlink_cycles_are_found_once() {
    for links in [2usize, 3] {
        let root = temp_dir("cycle");
        write(&root.join("pcl.toml"), "");
        let mut main = String::new();
        for i in 1..=links {
            std::os::unix::fs::symlink(".", root.join(format!("l{i}"))).unwrap();
            main.push_str(&format!("component c{i} \"./l{i}\" {{}}\n"));
        }
        write(&root.join("main.pp"), &main);
        let (code, lines) = check_short(&["."], &root);
        assert_eq!(code, Some(1), "{lines:?}");
        assert_eq!(lines.len(), links, "{lines:?}");
        for line in &lines {
            assert!(line.contains("error[component-cycle]"), "{lines:?}");
        }
    }
    // A cycle through a sub-directory: `sub/up` links back to the root.
    let root = temp_dir("cycle-deep");
    write(&root.join("pcl.toml"), "");
    write(
        &root.join("main.pp"),
        "component a \"./sub\" {}\ncomponent b \"./sub/up/sub\" {}\n",
    );
    write(
        &root.join("sub/main.pp"),
        "component back \"./up\" {}\ncomponent again \"./up/sub/up\" {}\n",
    );
    std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
}

#[test]
fn a_component_file_that_is_not_utf8_is_recovered() {
    let root = temp_dir("comp-utf8");
    write(&root.join("pcl.toml"), "");
    write(
        &root.join("main.pp"),
        "component c \"./comp\" {}\noutput o { value = c.fine }\n",
    );
    write(&root.join("comp/a.pp"), b"x = \"caf\xe9\"\n");
    write(
        &root.join("comp/b.pp"),
        "output fine { value = 1 }\ny = undefinedName\n",
    );
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("comp/a.pp:1:9: error[invalid-utf8]"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("comp/b.pp:2:5: error[undefined-variable]"),
        "{lines:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_component_directory_is_unreadable_and_never_opened() {
    let root = temp_dir("comp-fifo");
    write(&root.join("pcl.toml"), "");
    write(
        &root.join("main.pp"),
        "component c \"./comp\" {}\noutput o { value = c.fine }\n",
    );
    write(&root.join("comp/b.pp"), "output fine { value = 1 }\n");
    let made = Command::new("mkfifo")
        .arg(root.join("comp/pipe.pp"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    // A directory named like a program file, too.
    std::fs::create_dir_all(root.join("comp/dir.pp")).unwrap();
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(
        lines,
        [
            "comp/dir.pp:1:1: error[unreadable-file]: cannot read `comp/dir.pp`: not a regular file",
            "comp/pipe.pp:1:1: error[unreadable-file]: cannot read `comp/pipe.pp`: not a regular file",
        ]
    );
}

#[test]
fn a_path_given_twice_is_checked_once() {
    let root = temp_dir("twice");
    write(&root.join("x/main.pp"), "y = nope\n");
    write(&root.join("one.pp"), "z = nada\n");
    let (code, lines) = check_short(
        &["x", "./x", "x/", "one.pp", "./one.pp", "x/../one.pp"],
        &root,
    );
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
}

/// `pcl check main.pp` of a multi-file program (issue 13 §2): the names
/// the other files declare give one note per declaring file and the check
/// passes; a name nobody declares is still an error; the directory checked
/// whole needs no note.
#[test]
fn one_file_of_a_multi_file_program() {
    let root = temp_dir("alone");
    write(&root.join("pcl.toml"), "");
    write(
        &root.join("config.pp"),
        "config siteName string {}\nconfig port int {}\n",
    );
    write(&root.join("locals.pp"), "helper = siteName\n");
    write(
        &root.join("main.pp"),
        "output a { value = siteName }\noutput b { value = \"${siteName}:${port}\" }\noutput c { value = helper }\n",
    );
    let (code, lines) = check_short(&["main.pp"], &root);
    assert_eq!(code, Some(0), "{lines:?}");
    assert_eq!(
        lines,
        [
            "main.pp:1:20: note[declared-in-sibling]: `port` and `siteName` are declared in `config.pp`; check the directory to check the whole program",
            "main.pp:3:20: note[declared-in-sibling]: `helper` is declared in `locals.pp`; check the directory to check the whole program",
        ]
    );
    // Notes do not fail a check, even with `--deny warnings`.
    let (code, _) = check_short(&["--deny", "warnings", "main.pp"], &root);
    assert_eq!(code, Some(0));
    // An editor's buffer on standard input, named into the directory.
    let out = Command::new(pcl_tests::pcl_binary())
        .args([
            "check",
            "--format",
            "short",
            "--stdin-filename",
            "main.pp",
            "-",
        ])
        .current_dir(&root)
        .env("PULUMI_HOME", root.join("no-such-pulumi-home"))
        .stdin(std::fs::File::open(root.join("main.pp")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    // A name no file declares is still an error, with no note.
    write(&root.join("main.pp"), "output a { value = sightName }\n");
    let (code, lines) = check_short(&["main.pp"], &root);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("error[undefined-variable]"), "{lines:?}");
    // The directory is one program: nothing to say.
    write(&root.join("main.pp"), "output a { value = siteName }\n");
    let (code, lines) = check_short(&["."], &root);
    assert_eq!(code, Some(0), "{lines:?}");
    assert!(lines.is_empty(), "{lines:?}");
}
