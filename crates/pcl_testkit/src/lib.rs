//! Test-only helpers that every crate's tests share, so that one rule
//! decides when a test may skip, when goldens are rewritten and when a
//! filter is allowed to shrink a run. Only tests depend on this crate
//! (as a dev-dependency); no library or binary may.
//!
//! * **Shared material** ([`shared`]): `../shared` beside the repository
//!   holds the reference vectors, the corpus and the schemas. Locally a
//!   test whose material is absent says so and passes; with
//!   `PCL_REQUIRE_CORPUS=1` (set by `.ci/run`) it fails instead.
//! * **Update mode** ([`updating`]): goldens are rewritten only when
//!   `UPDATE_EXPECT` is exactly `1`; any other value (`0`, empty) is an
//!   ordinary run that compares.
//! * **Filters** ([`Filter`]): a variable such as `GOLDEN_FILTER` may
//!   restrict a run to matching cases; the run says what was filtered
//!   and fails when the filter matched nothing.
//! * **Minimum counts** ([`at_least`]): a data-driven test names the
//!   number of cases it must see, so an emptied directory fails too.
//! * **Counts instead of clocks** ([`CountingAlloc`], [`assert_linear`]):
//!   a test that guards against a quadratic path counts the heap
//!   allocations of the work at 1×, 4× and 16× the input and requires the
//!   count to grow at most linearly. Where a quadratic path would not
//!   allocate, [`instructions`] counts the instructions of the work with
//!   callgrind (the test binary runs one of its own tests under valgrind).
//!   Wall-clock time belongs in the benches.

// The counting allocator is the one place that needs `unsafe`: it
// forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// The variable under which missing shared material fails a test.
pub const REQUIRE_VAR: &str = "PCL_REQUIRE_CORPUS";

/// The repository root (this crate lives at `crates/pcl_testkit`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether shared material is required (`PCL_REQUIRE_CORPUS=1`).
pub fn required() -> bool {
    std::env::var_os(REQUIRE_VAR).is_some_and(|v| v == "1")
}

/// `../shared/<rel>` beside the repository, when it exists and is not an
/// empty directory. When it is absent or empty: with
/// `PCL_REQUIRE_CORPUS=1` this panics, naming `test`; otherwise it prints
/// that `test` is skipped and returns `None`.
pub fn shared(rel: &str, test: &str) -> Option<PathBuf> {
    let dir = repo().join("../shared").join(rel);
    material(&dir, test)
}

/// One program line of the corpus's `manifest.tsv` (its columns, in order).
#[derive(Clone, Debug)]
pub struct ManifestRow {
    pub name: String,
    /// Relative to the corpus directory.
    pub program_dir: String,
    /// Relative to the corpus directory.
    pub schema_dir: String,
    /// Whether every schema the program needs is present.
    pub checkable: bool,
    /// `clean` or `error`.
    pub expect: String,
    /// The policy flags, `-` for none.
    pub flags: String,
    /// Expected error substrings, separated by ` | `, `-` for none.
    pub messages: String,
}

/// The program lines of `corpus`'s `manifest.tsv`, in order (comment
/// lines and lines without all seven columns left out); panics when the
/// manifest cannot be read.
pub fn corpus_manifest(corpus: &Path) -> Vec<ManifestRow> {
    let path = corpus.join("manifest.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let [name, program_dir, schema_dir, checkable, expect, flags, messages] =
                cols.as_slice()
            else {
                return None;
            };
            Some(ManifestRow {
                name: (*name).to_string(),
                program_dir: (*program_dir).to_string(),
                schema_dir: (*schema_dir).to_string(),
                checkable: *checkable == "yes",
                expect: (*expect).to_string(),
                flags: (*flags).to_string(),
                messages: (*messages).to_string(),
            })
        })
        .collect()
}

/// Like [`shared`] for any directory or file (for example one named by a
/// variable such as `PCL_TYPE_VECTORS`).
pub fn material(path: &Path, test: &str) -> Option<PathBuf> {
    let present = if path.is_dir() {
        std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_some())
    } else {
        path.is_file()
    };
    if present {
        return Some(path.to_path_buf());
    }
    let what = if path.exists() { "empty" } else { "absent" };
    assert!(
        !required(),
        "{test}: {} is {what}, and {REQUIRE_VAR}=1 requires it",
        path.display()
    );
    println!(
        "{test}: skipped: {} is {what} (set {REQUIRE_VAR}=1 to make this a failure)",
        path.display()
    );
    None
}

/// A message without its name quotes, for comparison with the
/// reference's text: pcl quotes every name, code and token with backticks
/// (`` unknown package `aws` ``, `` undefined variable `args` ``) where
/// the reference uses single quotes or none (`unknown package 'aws'`,
/// `undefined variable args`). This is the one deviation class
/// `names-in-backticks` (README, differences from the reference):
/// comparisons with the reference's text apply this to both sides, so
/// quoting is the only difference they forgive.
pub fn without_quotes(message: &str) -> String {
    message.replace(['`', '\''], "")
}

/// Whether golden files are being rewritten: `UPDATE_EXPECT=1` exactly.
pub fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

/// Fails unless a data-driven test saw at least `min` cases of `what`.
pub fn at_least(what: &str, seen: usize, min: usize) {
    assert!(
        seen >= min,
        "{what}: {seen} cases found, at least {min} expected (was the data removed or emptied?)"
    );
}

/// A case filter read from an environment variable: a case runs when its
/// name contains the variable's value. [`Filter::finish`] reports what was
/// left out and fails when the filter matched nothing.
#[derive(Debug)]
pub struct Filter {
    var: &'static str,
    pattern: Option<String>,
    kept: usize,
    dropped: usize,
}

impl Filter {
    /// The filter in `var`, if set (an empty value filters nothing).
    pub fn from_env(var: &'static str) -> Filter {
        let pattern = std::env::var(var).ok().filter(|p| !p.is_empty());
        Filter {
            var,
            pattern,
            kept: 0,
            dropped: 0,
        }
    }

    /// Whether a filter is set.
    pub fn active(&self) -> bool {
        self.pattern.is_some()
    }

    /// Whether the case `name` runs; counts it either way.
    pub fn keep(&mut self, name: &str) -> bool {
        let keep = self.pattern.as_deref().is_none_or(|p| name.contains(p));
        if keep {
            self.kept += 1;
        } else {
            self.dropped += 1;
        }
        keep
    }

    /// Prints what the filter left out and fails when it matched no case.
    /// Without a filter this does nothing.
    pub fn finish(&self) {
        let Some(pattern) = &self.pattern else {
            return;
        };
        println!(
            "{}={pattern:?}: {} cases run, {} filtered out",
            self.var, self.kept, self.dropped
        );
        assert!(
            self.kept > 0,
            "{}={pattern:?} matched none of {} cases",
            self.var,
            self.dropped
        );
    }
}

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// A global allocator that counts the allocations of the current thread
/// (so tests running in parallel do not disturb each other's counts).
/// A test binary opts in with
/// `#[global_allocator] static A: pcl_testkit::CountingAlloc = pcl_testkit::CountingAlloc;`
/// and measures with [`allocations`].
pub struct CountingAlloc;

// SAFETY: every call forwards to `System` unchanged; the counter is a
// thread-local `Cell` without a destructor, which never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: as for `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `work` and returns its result with the number of allocations
/// (and reallocations) it made on this thread. Counts are zero unless the
/// test binary installed [`CountingAlloc`].
pub fn allocations<T>(work: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = work();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

/// Fails unless `counts` (of work at 1×, 4× and 16× the input) grow at
/// most about linearly: 16× the input may cost at most 20× the count.
/// The room above 16× is for amortised growth (vectors doubling, hash
/// tables rehashing) and `n log n` sorts; a quadratic term shows as up to
/// 256×. The counts must not be zero (a count of nothing proves nothing).
pub fn assert_linear(what: &str, counts: [u64; 3]) {
    const MAX_GROWTH: u64 = 20;
    let [one, four, sixteen] = counts;
    println!("{what}: 1x {one}, 4x {four}, 16x {sixteen}");
    assert!(
        one > 0,
        "{what}: nothing was counted (is CountingAlloc installed?)"
    );
    assert!(
        sixteen <= one.saturating_mul(MAX_GROWTH),
        "{what}: 16x the input cost {sixteen}, more than {MAX_GROWTH}x the 1x cost {one} (4x: {four})"
    );
}

/// The variable under which a missing valgrind fails a test.
pub const REQUIRE_VALGRIND_VAR: &str = "PCL_REQUIRE_VALGRIND";

/// Set in the environment of a test run by [`instructions`]: the child
/// test does its work only when it is set.
pub const CHILD_VAR: &str = "PCL_TESTKIT_CHILD";

/// Whether this process is a child run by [`instructions`].
pub fn is_instruction_child() -> bool {
    std::env::var_os(CHILD_VAR).is_some()
}

/// A number the parent passed to a child of [`instructions`] in `name`.
pub fn child_number(name: &str) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} is not set"))
}

/// Counts the instructions of the test `test` of this test binary, run
/// alone under callgrind with `env` added to its environment (and
/// [`CHILD_VAR`] set, so the child test knows to do its work). Returns
/// `None` when valgrind is not installed (printed; a failure under
/// `PCL_REQUIRE_VALGRIND=1`, which `.ci/run` sets). The count includes the
/// test harness's start-up: subtract a baseline run of the same test with
/// an empty input.
pub fn instructions(test: &str, env: &[(&str, String)]) -> Option<u64> {
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("current_exe: {e}"));
    let mut command = std::process::Command::new("valgrind");
    command
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(&exe)
        .args(["--exact", test, "--test-threads=1", "--nocapture"])
        .env(CHILD_VAR, "1");
    for (k, v) in env {
        command.env(k, v);
    }
    let out = match command.output() {
        Ok(out) => out,
        Err(e) => {
            assert!(
                std::env::var_os(REQUIRE_VALGRIND_VAR).is_none_or(|v| v != "1"),
                "{test}: cannot run valgrind ({e}), and {REQUIRE_VALGRIND_VAR}=1 requires it"
            );
            println!("{test}: skipped: cannot run valgrind ({e})");
            return None;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{test} under callgrind failed:\n{}{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    let count = collected(&stderr)
        .unwrap_or_else(|| panic!("{test}: no instruction count in callgrind's output:\n{stderr}"));
    Some(count)
}

/// Instructions of the whole process `program args…`, counted by
/// callgrind (for benches); `None` when valgrind cannot be run or its
/// report has no count.
pub fn process_instructions<S: AsRef<std::ffi::OsStr>>(program: &Path, args: &[S]) -> Option<u64> {
    let output = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(program)
        .args(args)
        .output()
        .ok()?;
    collected(&String::from_utf8_lossy(&output.stderr))
}

/// The count of callgrind's `==pid== Collected : N` line.
fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .find_map(|l| l.split_once("Collected :"))
        .and_then(|(_, n)| n.trim().parse().ok())
}

/// [`instructions`] of `test` at 1×, 4× and 16× of `base` (passed in
/// `var`), less a run at 0, checked with [`assert_linear`]. `None` when
/// valgrind is not installed.
pub fn assert_linear_instructions(
    what: &str,
    test: &str,
    var: &str,
    base: usize,
    extra: &[(&str, String)],
) -> Option<()> {
    let run = |n: usize| {
        let mut env: Vec<(&str, String)> = extra.to_vec();
        env.push((var, n.to_string()));
        instructions(test, &env)
    };
    let zero = run(0)?;
    let mut counts = [0u64; 3];
    for (slot, factor) in counts.iter_mut().zip([1, 4, 16]) {
        *slot = run(base * factor)?.saturating_sub(zero);
    }
    assert_linear(&format!("{what}: instructions"), counts);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_has_an_instruction_count_under_callgrind() {
        let exe = std::env::current_exe().unwrap_or_else(|e| panic!("current_exe: {e}"));
        let count = process_instructions(&exe, &["--list"]);
        if std::process::Command::new("valgrind")
            .arg("--version")
            .output()
            .is_err()
        {
            assert_eq!(count, None);
            println!("valgrind is not installed: only the missing count is checked");
            return;
        }
        assert!(count.is_some_and(|n| n > 10_000), "{count:?}");
        assert_eq!(collected("==1== Collected : 1234\n"), Some(1234));
        assert_eq!(collected("==1== nothing\n"), None);
    }

    #[test]
    fn a_filter_that_matches_nothing_fails() {
        let mut f = Filter {
            var: "X",
            pattern: Some("zzz".into()),
            kept: 0,
            dropped: 0,
        };
        assert!(!f.keep("abc"));
        assert!(std::panic::catch_unwind(|| f.finish()).is_err());
        assert!(f.keep("zzz-1"));
        f.finish();
    }

    #[test]
    fn quadratic_counts_fail_and_linear_ones_pass() {
        assert!(std::panic::catch_unwind(|| assert_linear("q", [10, 160, 2560])).is_err());
        assert!(std::panic::catch_unwind(|| assert_linear("zero", [0, 0, 0])).is_err());
        assert_linear("l", [10, 40, 195]);
        assert!(std::panic::catch_unwind(|| assert_linear("q", [10, 40, 205])).is_err());
    }

    #[test]
    fn missing_or_empty_material_fails_only_when_required() {
        let absent =
            std::env::temp_dir().join(format!("pcl-testkit-absent-{}", std::process::id()));
        let empty = std::env::temp_dir().join(format!("pcl-testkit-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap_or_else(|e| panic!("{e}"));
        // This is the only test of this binary that reads the variable.
        std::env::set_var(REQUIRE_VAR, "0");
        assert_eq!(material(&absent, "t"), None);
        assert_eq!(material(&empty, "t"), None);
        std::env::set_var(REQUIRE_VAR, "1");
        assert!(std::panic::catch_unwind(|| material(&absent, "t")).is_err());
        assert!(std::panic::catch_unwind(|| material(&empty, "t")).is_err());
        std::fs::write(empty.join("x"), "x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(material(&empty, "t"), Some(empty.clone()));
        std::env::remove_var(REQUIRE_VAR);
        let _ = std::fs::remove_dir_all(&empty);
    }

    #[test]
    fn too_few_cases_fail() {
        assert!(std::panic::catch_unwind(|| at_least("x", 0, 1)).is_err());
        at_least("x", 1, 1);
    }
}
