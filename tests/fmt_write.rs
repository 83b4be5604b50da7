//! How `pcl fmt` replaces files (issue 26 §1): an edit made while it
//! formats is never lost, a symbolic link swapped in is never followed, a
//! link to a file outside the paths is not written through, no temporary
//! copy is readable by more users than the original, mode, owner and hard
//! links are kept, read-only files are refused, long names work, `--check`
//! and `--diff` never write, and diffs escape control characters.
//!
//! The races are made deterministic with the test hook of debug builds,
//! `PCL_FMT_TEST_HOOK` (see `crates/pcl_cli/src/fmt_cmd/replace.rs`): a
//! shell command `pcl fmt` runs in the file's directory at each stage of a
//! replacement. Tests that need it say they skip in a release build; tests
//! that need root or the user `nobody` say they skip without them.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const UGLY: &str = "a=1\nbb = 2\n";
const PRETTY: &str = "a  = 1\nbb = 2\n";

/// A fresh directory under the system's temporary directory (reachable by
/// `nobody`), world-traversable.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-fmt-write-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn pcl_command(cwd: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(pcl_tests::pcl_binary());
    command
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("PCL_FMT_TEST_HOOK")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn pcl(cwd: &Path, args: &[&str]) -> Output {
    pcl_command(cwd, args).output().unwrap()
}

/// `pcl args…` with the test hook `hook`.
fn pcl_hooked(cwd: &Path, args: &[&str], hook: &str) -> Output {
    pcl_command(cwd, args)
        .env("PCL_FMT_TEST_HOOK", hook)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The names in `dir` that look like `pcl fmt`'s temporary files.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("pcl-fmt"))
        .collect()
}

/// Whether the hook runs: only debug builds of `pcl` have it.
fn hook_available(test: &str) -> bool {
    if cfg!(debug_assertions) {
        return true;
    }
    eprintln!("{test}: skipped: the test hook exists in debug builds only");
    false
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Whether this process is root and the user `nobody` can run `pcl`.
fn root_and_nobody(test: &str) -> bool {
    if !is_root() {
        eprintln!("{test}: skipped: needs root");
        return false;
    }
    let works = Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(pcl_tests::pcl_binary())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        eprintln!("{test}: skipped: cannot run pcl as `nobody` (runuser)");
    }
    works
}

fn nobody_ids() -> (u32, u32) {
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").args([flag, "nobody"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    (id("-u"), id("-g"))
}

/// D1: an edit made after `pcl fmt` read the file, at any stage before
/// the replacement, is kept; `pcl fmt` says so and exits 2.
#[test]
fn an_edit_made_while_formatting_is_kept() {
    if !hook_available("an_edit_made_while_formatting_is_kept") {
        return;
    }
    for stage in ["read", "created", "staged"] {
        let dir = scratch(&format!("edit-{stage}"));
        std::fs::write(dir.join("big.pp"), UGLY).unwrap();
        let hook = format!(
            "[ \"$PCL_FMT_STAGE\" = {stage} ] && echo 'edited = 1' > \"$PCL_FMT_NAME\"; true"
        );
        let out = pcl_hooked(&dir, &["fmt", "big.pp"], &hook);
        assert_eq!(out.status.code(), Some(2), "{stage}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("`big.pp` changed while formatting; it was left as it is"),
            "{stage}: {}",
            stderr(&out)
        );
        assert_eq!(
            read(&dir.join("big.pp")),
            "edited = 1\n",
            "{stage}: the edit is lost"
        );
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "{stage}");
        // An edit that keeps the size (and maybe the time): caught by the
        // contents read again.
        std::fs::write(dir.join("same.pp"), UGLY).unwrap();
        let hook = format!(
            "[ \"$PCL_FMT_STAGE\" = {stage} ] && printf 'b=1\\nbb = 2\\n' 1<> \"$PCL_FMT_NAME\"; true"
        );
        let out = pcl_hooked(&dir, &["fmt", "same.pp"], &hook);
        assert_eq!(out.status.code(), Some(2), "{stage}: {}", stderr(&out));
        assert_eq!(read(&dir.join("same.pp")), "b=1\nbb = 2\n", "{stage}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// D1, an editor's save: the name replaced by a new file (rename).
#[test]
fn a_file_renamed_over_while_formatting_is_kept() {
    if !hook_available("a_file_renamed_over_while_formatting_is_kept") {
        return;
    }
    let dir = scratch("renamed-over");
    std::fs::write(dir.join("a.pp"), UGLY).unwrap();
    let hook = "[ \"$PCL_FMT_STAGE\" = staged ] && echo 'saved = 1' > new && mv new a.pp; true";
    let out = pcl_hooked(&dir, &["fmt", "a.pp"], hook);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("changed while formatting"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&dir.join("a.pp")), "saved = 1\n");
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// D2: a symbolic link swapped in for the file after it was read is never
/// followed: its target is untouched and the link stays.
#[test]
fn a_symlink_swapped_in_before_the_replacement_is_not_followed() {
    if !hook_available("a_symlink_swapped_in_before_the_replacement_is_not_followed") {
        return;
    }
    for stage in ["read", "staged"] {
        let dir = scratch(&format!("swap-{stage}"));
        std::fs::create_dir_all(dir.join("proj")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("proj/a.pp"), UGLY).unwrap();
        std::fs::write(dir.join("outside/secret.pp"), UGLY).unwrap();
        let hook = format!(
            "[ \"$PCL_FMT_STAGE\" = {stage} ] && mv \"$PCL_FMT_NAME\" old && \
             ln -s ../outside/secret.pp \"$PCL_FMT_NAME\"; true"
        );
        let out = pcl_hooked(&dir, &["fmt", "proj"], &hook);
        assert_eq!(out.status.code(), Some(2), "{stage}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("`proj/a.pp` changed while formatting"),
            "{stage}: {}",
            stderr(&out)
        );
        assert_eq!(
            read(&dir.join("outside/secret.pp")),
            UGLY,
            "{stage}: written through"
        );
        let link = std::fs::symlink_metadata(dir.join("proj/a.pp")).unwrap();
        assert!(
            link.file_type().is_symlink(),
            "{stage}: the link was replaced"
        );
        assert_eq!(read(&dir.join("proj/old")), UGLY, "{stage}");
        assert_eq!(
            temporaries(&dir.join("proj")),
            Vec::<String>::new(),
            "{stage}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// D2: a directory of the path swapped for a link after the file was
/// opened changes nothing: the file is replaced in the directory it was
/// read from, never in the link's target.
#[test]
fn a_directory_swapped_for_a_link_is_not_followed() {
    if !hook_available("a_directory_swapped_for_a_link_is_not_followed") {
        return;
    }
    let dir = scratch("dir-swap");
    std::fs::create_dir_all(dir.join("proj/sub")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("proj/sub/a.pp"), UGLY).unwrap();
    std::fs::write(dir.join("outside/a.pp"), UGLY).unwrap();
    let hook = "[ \"$PCL_FMT_STAGE\" = staged ] && cd .. && mv sub sub.old && \
                ln -s ../outside sub; true";
    let out = pcl_hooked(&dir, &["fmt", "-r", "proj"], hook);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(&dir.join("outside/a.pp")),
        UGLY,
        "written through the link"
    );
    assert_eq!(read(&dir.join("proj/sub.old/a.pp")), PRETTY);
    assert_eq!(temporaries(&dir.join("outside")), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// D3: the temporary copy of a 0600 file is 0600 from its creation, and a
/// `pcl fmt` killed (`kill -9`) right after creating it leaves the
/// original intact and, at worst, a 0600 copy.
#[test]
fn the_temporary_copy_is_never_readable_by_more_users() {
    if !hook_available("the_temporary_copy_is_never_readable_by_more_users") {
        return;
    }
    let dir = scratch("temp-mode");
    std::fs::write(dir.join("secret.pp"), UGLY).unwrap();
    std::fs::set_permissions(
        dir.join("secret.pp"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    // `created`: the temporary file exists, nothing written yet; `staged`:
    // written and synced.
    let log = scratch("temp-mode-log").join("modes");
    let hook = format!(
        "stat -c \"$PCL_FMT_STAGE %a\" \"$PCL_FMT_TEMP\" >> '{}' 2>/dev/null; true",
        log.display()
    );
    let out = pcl_hooked(&dir, &["fmt", "secret.pp"], &hook);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let modes = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(log.parent().unwrap());
    assert_eq!(modes, "created 600\nstaged 600\n");
    assert_eq!(read(&dir.join("secret.pp")), PRETTY);
    let mode = std::fs::metadata(dir.join("secret.pp")).unwrap().mode();
    assert_eq!(mode & 0o7777, 0o600);

    // Killed after creating the temporary file (its parent is `pcl`).
    std::fs::write(dir.join("secret.pp"), UGLY).unwrap();
    let hook = "[ \"$PCL_FMT_STAGE\" = created ] && kill -9 $PPID; true";
    let out = pcl_hooked(&dir, &["fmt", "secret.pp"], hook);
    assert_eq!(out.status.code(), None, "killed: {}", stderr(&out));
    assert_eq!(read(&dir.join("secret.pp")), UGLY, "the original is intact");
    let left = temporaries(&dir);
    assert_eq!(left.len(), 1, "{left:?}");
    for name in left {
        let meta = std::fs::metadata(dir.join(&name)).unwrap();
        assert_eq!(meta.mode() & 0o077, 0, "{name}: {:o}", meta.mode());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// D3, what the mode means: while `pcl fmt` (root) writes the copy of a
/// 0600 file, another user cannot read it.
#[test]
fn another_user_cannot_read_the_temporary_copy() {
    if !hook_available("another_user_cannot_read_the_temporary_copy")
        || !root_and_nobody("another_user_cannot_read_the_temporary_copy")
    {
        return;
    }
    let dir = scratch("temp-other-user");
    std::fs::write(dir.join("secret.pp"), UGLY).unwrap();
    std::fs::set_permissions(
        dir.join("secret.pp"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    let log = scratch("temp-other-user-log").join("leaks");
    let hook = format!(
        "if [ \"$PCL_FMT_STAGE\" != read ]; then \
         if runuser -u nobody -- cat \"$PCL_FMT_TEMP\" >/dev/null 2>&1; \
         then echo \"$PCL_FMT_STAGE read\" >> '{log}'; \
         else echo \"$PCL_FMT_STAGE refused\" >> '{log}'; fi; fi; true",
        log = log.display()
    );
    let out = pcl_hooked(&dir, &["fmt", "secret.pp"], &hook);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let leaks = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(log.parent().unwrap());
    assert_eq!(leaks, "created refused\nstaged refused\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// D4: a symbolic link to a file outside the paths being formatted is
/// not written through (and the run says so, exit 2); a link to a file
/// inside them formats its target, once.
#[test]
fn a_link_outside_the_paths_is_not_written_through() {
    let dir = scratch("link-outside");
    for (path, text) in [
        ("proj/a.pp", UGLY),
        ("proj/sub/real.pp", UGLY),
        ("outside/vault.hcl", UGLY),
    ] {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), text).unwrap();
    }
    std::os::unix::fs::symlink("../outside/vault.hcl", dir.join("proj/z.pp")).unwrap();
    std::os::unix::fs::symlink("sub/real.pp", dir.join("proj/in.pp")).unwrap();
    let out = pcl(&dir, &["fmt", "-r", "proj"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`proj/z.pp` is a symbolic link to `")
            && stderr(&out)
                .contains("outside the paths being formatted; it was not written through"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        read(&dir.join("outside/vault.hcl")),
        UGLY,
        "written outside"
    );
    assert!(std::fs::symlink_metadata(dir.join("proj/z.pp"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        read(&dir.join("proj/a.pp")),
        PRETTY,
        "the rest is formatted"
    );
    assert_eq!(
        read(&dir.join("proj/sub/real.pp")),
        PRETTY,
        "a link inside: its target"
    );
    assert!(std::fs::symlink_metadata(dir.join("proj/in.pp"))
        .unwrap()
        .file_type()
        .is_symlink());
    // Named alone, the link's target is outside the paths given too.
    let out = pcl(&dir, &["fmt", "proj/z.pp"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(read(&dir.join("outside/vault.hcl")), UGLY);
    // Named with its target, it is formatted (once).
    let out = pcl(&dir, &["fmt", "proj/z.pp", "outside/vault.hcl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&dir.join("outside/vault.hcl")), PRETTY);
    let _ = std::fs::remove_dir_all(&dir);
}

/// D4: a read-only file is refused with exit 2, as the README says (even
/// for root, who could replace it), and left as it is.
#[test]
fn a_read_only_file_is_refused() {
    let dir = scratch("read-only");
    std::fs::write(dir.join("ro.pp"), UGLY).unwrap();
    std::fs::write(dir.join("rw.pp"), UGLY).unwrap();
    std::fs::set_permissions(dir.join("ro.pp"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = pcl(&dir, &["fmt", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`./ro.pp` is read-only; it was left as it is"),
        "{}",
        stderr(&out)
    );
    assert_eq!(read(&dir.join("ro.pp")), UGLY);
    assert_eq!(
        std::fs::metadata(dir.join("ro.pp")).unwrap().mode() & 0o7777,
        0o444
    );
    assert_eq!(read(&dir.join("rw.pp")), PRETTY);
    let _ = std::fs::remove_dir_all(&dir);
}

/// D4: a user who may write to the directory but not to the file (root's
/// 0644 file in a shared directory) cannot replace it with their own.
#[test]
fn a_file_this_user_may_not_write_is_refused() {
    if !root_and_nobody("a_file_this_user_may_not_write_is_refused") {
        return;
    }
    let dir = scratch("not-writable");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::write(dir.join("root.pp"), UGLY).unwrap();
    let out = Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(pcl_tests::pcl_binary())
        .args(["fmt", "root.pp"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`root.pp` is read-only"),
        "{}",
        stderr(&out)
    );
    let meta = std::fs::metadata(dir.join("root.pp")).unwrap();
    assert_eq!(
        (meta.uid(), read(&dir.join("root.pp"))),
        (0, UGLY.to_string())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// D4: root formatting another user's file keeps its owner, group and mode.
#[test]
fn the_owner_and_mode_are_kept() {
    if !root_and_nobody("the_owner_and_mode_are_kept") {
        return;
    }
    let (uid, gid) = nobody_ids();
    let dir = scratch("owner");
    std::fs::write(dir.join("theirs.pp"), UGLY).unwrap();
    std::os::unix::fs::chown(dir.join("theirs.pp"), Some(uid), Some(gid)).unwrap();
    std::fs::set_permissions(
        dir.join("theirs.pp"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    let out = pcl(&dir, &["fmt", "theirs.pp"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::metadata(dir.join("theirs.pp")).unwrap();
    assert_eq!(read(&dir.join("theirs.pp")), PRETTY);
    assert_eq!(
        (meta.uid(), meta.gid(), meta.mode() & 0o7777),
        (uid, gid, 0o640)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// D4: a file with several hard links stays one file: every name shows
/// the new text, formatted once.
#[test]
fn hard_links_are_kept() {
    let dir = scratch("hard-links");
    std::fs::write(dir.join("a.pp"), UGLY).unwrap();
    std::fs::hard_link(dir.join("a.pp"), dir.join("b.pp")).unwrap();
    let before = std::fs::metadata(dir.join("a.pp")).unwrap().ino();
    for args in [&["fmt", "a.pp"][..], &["fmt", "."][..]] {
        let out = pcl(&dir, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let (a, b) = (
            std::fs::metadata(dir.join("a.pp")).unwrap(),
            std::fs::metadata(dir.join("b.pp")).unwrap(),
        );
        assert_eq!(
            (a.ino(), b.ino(), a.nlink()),
            (before, before, 2),
            "{args:?}: split"
        );
        assert_eq!(read(&dir.join("b.pp")), PRETTY, "{args:?}");
        std::fs::write(dir.join("a.pp"), UGLY).unwrap();
    }
    assert_eq!(temporaries(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// D19: a name of 254 bytes (NAME_MAX is 255) can be formatted: the
/// temporary file's name does not grow with it.
#[test]
fn a_long_file_name_can_be_formatted() {
    let dir = scratch("long-name");
    let name = format!("{}.pp", "n".repeat(251));
    std::fs::write(dir.join(&name), UGLY).unwrap();
    let out = pcl(&dir, &["fmt", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read(&dir.join(&name)), PRETTY);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--check` and `--diff` never write, create or replace anything, even in
/// a directory they could write to.
#[test]
fn check_and_diff_never_write() {
    let dir = scratch("no-write");
    std::fs::write(dir.join("a.pp"), UGLY).unwrap();
    let before = std::fs::metadata(dir.join("a.pp")).unwrap();
    let listing = |dir: &Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let names = listing(&dir);
    let log = scratch("no-write-log").join("hook-ran");
    let hook = format!("touch '{}'", log.display());
    for args in [
        &["fmt", "--check", "."][..],
        &["fmt", "--diff", "a.pp"][..],
        &["fmt", "--check", "--diff", "-r", "."][..],
    ] {
        let out = pcl_hooked(&dir, args, &hook);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        let after = std::fs::metadata(dir.join("a.pp")).unwrap();
        assert_eq!(
            (after.ino(), after.mtime(), after.mtime_nsec(), after.size()),
            (
                before.ino(),
                before.mtime(),
                before.mtime_nsec(),
                before.size()
            ),
            "{args:?}"
        );
        assert_eq!(listing(&dir), names, "{args:?}");
    }
    assert!(!log.exists(), "no replacement began");
    let _ = std::fs::remove_dir_all(log.parent().unwrap());
    assert_eq!(read(&dir.join("a.pp")), UGLY);
    let _ = std::fs::remove_dir_all(&dir);
}

/// D20: `--diff` escapes control characters of the file (an escape
/// sequence in a comment or a string cannot reach the terminal).
#[test]
fn diff_escapes_control_characters() {
    let dir = scratch("diff-escape");
    std::fs::write(
        dir.join("a.pp"),
        "a=\"\u{1b}[31mred\"\nb = 1 # \u{202e}evil\u{7}\n",
    )
    .unwrap();
    let out = pcl(&dir, &["fmt", "--diff", "a.pp"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let diff = stdout(&out);
    assert!(
        !diff.contains('\u{1b}') && !diff.contains('\u{202e}') && !diff.contains('\u{7}'),
        "{diff:?}"
    );
    assert!(
        diff.contains("-a=\"\\u{1b}[31mred\"\n+a = \"\\u{1b}[31mred\"\n"),
        "{diff:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
