//! Helpers of the end-to-end tests of the `pcl` binary (`tests/e2e.rs`,
//! `tests/contracts.rs`): where the repository and its fixtures are, and
//! running the binary.
//!
//! The binary belongs to another package (`pcl_cli`), so cargo does not
//! build it for these tests: [`pcl_binary`] builds it once, with the same
//! cargo and profile as the tests, and runs it from the workspace's target
//! directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `testdata/cli/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    repo().join("testdata/cli").join(rel)
}

/// The shared corpus, `../shared/corpus`, when it is there; absent, `test`
/// is skipped locally and fails under `PCL_REQUIRE_CORPUS=1`.
pub fn corpus(test: &str) -> Option<PathBuf> {
    pcl_testkit::shared("corpus/manifest.tsv", test)?;
    Some(repo().join("../shared/corpus"))
}

/// The corpus programs of `manifest.tsv`, grouped by schema folder (one
/// `pcl check` per folder), as absolute paths; `None` when the corpus is
/// absent (see [`corpus`]).
pub fn corpus_groups(test: &str) -> Option<Vec<(String, Vec<String>)>> {
    let dir = corpus(test)?;
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for row in pcl_testkit::corpus_manifest(&dir) {
        let program = dir.join(&row.program_dir).to_string_lossy().into_owned();
        let schemas = dir.join(&row.schema_dir).to_string_lossy().into_owned();
        match groups.iter_mut().find(|(s, _)| *s == schemas) {
            Some((_, programs)) => programs.push(program),
            None => groups.push((schemas, vec![program])),
        }
    }
    Some(groups)
}

/// The built `pcl` binary.
pub fn pcl_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        // target/<profile>/deps/<test> -> target/<profile>/pcl
        let exe = std::env::current_exe().unwrap_or_else(|e| panic!("current_exe: {e}"));
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .unwrap_or_else(|| panic!("unexpected test path {}", exe.display()))
            .to_path_buf();
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build
            .current_dir(repo())
            .args(["build", "--quiet", "-p", "pcl_cli", "--bin", "pcl"]);
        if release {
            build.arg("--release");
        }
        let status = build
            .status()
            .unwrap_or_else(|e| panic!("cannot run cargo build: {e}"));
        assert!(status.success(), "cargo build -p pcl_cli failed");
        profile_dir.join(format!("pcl{}", std::env::consts::EXE_SUFFIX))
    })
}

/// Runs `pcl args…` in `dir`, with `stdin` as standard input, without the
/// environment that changes colours or the schema cache.
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(pcl_binary())
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("PULUMI_HOME", repo().join("testdata/cli/no-pulumi-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run pcl: {e}"));
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("pcl did not finish: {e}"))
}

/// Runs `pcl args…` in the repository root.
pub fn run(args: &[&str]) -> Output {
    run_in(&repo(), args, b"")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh scratch directory under the system's temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Writes `text` to `dir/rel`, creating directories.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
}
