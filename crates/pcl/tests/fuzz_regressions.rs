//! Replays the minimised fuzz findings in `testdata/robustness/fuzz/` through
//! the same invariants the fuzz targets check (`fuzz/src/lib.rs`, included
//! here with `#[path]` so there is one definition).
//!
//! Every input must pass, except those in [`KNOWN_OPEN`], which must still
//! fail (so the table can't go stale: delete an entry when its fix lands).

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod invariants;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Directory under `testdata/robustness/fuzz/` → the invariant it checks.
type Invariant = fn(&[u8]) -> Result<(), String>;
const TARGETS: &[(&str, Invariant)] = &[
    ("parse", invariants::parse),
    ("parse_nonempty", invariants::parse_nonempty),
    ("expr_template", invariants::expr_template),
    ("check", invariants::check_program_bytes),
    ("type_notation", invariants::type_notation),
];

/// `(directory, file, reason)` for findings not fixed yet.
const KNOWN_OPEN: &[(&str, &str, &str)] = &[];

/// Runs `invariant` on `data`, turning a panic into `Err`.
fn outcome(invariant: Invariant, data: &[u8]) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(|| invariant(data))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            Err(format!("panic: {message}"))
        }
    }
}

#[test]
fn fuzz_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/robustness/fuzz");
    let mut failures = Vec::new();
    let mut seen_open = Vec::new();
    let mut count = 0;
    for (dir, invariant) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            count += 1;
            let result = outcome(*invariant, &data);
            let open = KNOWN_OPEN.iter().find(|(d, f, _)| d == dir && *f == name);
            match (open, result) {
                (None, Ok(())) => {}
                (None, Err(e)) => failures.push(format!("{dir}/{name}: {e}")),
                (Some(_), Err(_)) => seen_open.push((*dir, name)),
                (Some((_, _, reason)), Ok(())) => failures.push(format!(
                    "{dir}/{name} is in KNOWN_OPEN ({reason}) but passes now: remove the entry"
                )),
            }
        }
    }
    for (dir, name, _) in KNOWN_OPEN {
        if !seen_open.iter().any(|(d, n)| d == dir && n == name)
            && !failures
                .iter()
                .any(|f| f.starts_with(&format!("{dir}/{name} ")))
        {
            failures.push(format!("KNOWN_OPEN entry {dir}/{name} has no input file"));
        }
    }
    assert!(count > 0, "no inputs under {}", root.display());
    assert!(
        failures.is_empty(),
        "fuzz regressions failed:\n{}",
        failures.join("\n")
    );
}

/// Found through `check/type-label-unclosed`: type-label diagnostics had the
/// label offset added twice (once by the binder, once by
/// `TypeDiagnostic::into_diagnostic`), so they pointed past the culprit or
/// at an empty range.
#[test]
fn type_label_diagnostics_point_at_the_culprit() {
    let loader = pcl_schema::MemoryLoader::new();
    let cases = [
        (
            "output o \"map(lisst(string))\" {\n  value = {}\n}\n",
            "lisst",
        ),
        ("config c \"list(\" {}\n", "\"list(\""),
    ];
    for (text, culprit) in cases {
        let sources = vec![("main.pp".to_string(), text.to_string())];
        let checked =
            pcl_binder::check_program(&sources, &loader, &pcl_binder::BindPolicy::strict());
        let found: Vec<(&str, &str)> = checked
            .diagnostics()
            .iter()
            .filter_map(|d| Some((d.code.0, text.get(d.span.range.to_usize())?)))
            .collect();
        assert!(
            found.iter().any(|(_, s)| s.starts_with(culprit)),
            "{text:?}: expected a diagnostic at `{culprit}`, got {found:?}"
        );
    }
}
