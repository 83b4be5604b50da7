//! pulumi-yaml's own golden pairs (`testdata/<name>/expected.yaml`, stored
//! unmodified; `testdata/PROVENANCE.tsv` names the commit and paths):
//! each program is checked leniently against the shared corpus schemas (and
//! the repository's AWS slice, `examples/schemas`, for aws programs),
//! converted, and compared byte for byte with the expected YAML.
//!
//! The input is `testdata/<name>/input/` when stored here (programs the
//! shared corpus lacks or holds in another version), else the shared
//! corpus's `programs/<name>/`. `tests/deviations.tsv` lists each pair
//! that does not match, with the reason; the test fails when a listed pair
//! matches (a stale entry) or an unlisted one differs, and prints a diff
//! of the first lines that differ. The expected files are test oracles
//! from upstream: there is no update mode for them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pcl::{check_directory, BindPolicy, CachingLoader, DirLoader};

/// The stored pairs upstream's `TestGenerateProgram` compares at the stored commit (pulumi
/// v3.255.0's program tests through pulumi-yaml's skip list, and its three own cases): the
/// generator it tests is the one these expected files were written by, so none may deviate.
const UPSTREAM_COMPARED: [&str; 8] = [
    "direct-invoke",
    "join-template",
    "negative-literals",
    "output-name-conflict",
    "read-file-func",
    "third-party-package",
    "unknown-invoke",
    "using-dashes",
];

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn deviations() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/deviations.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(name, reason)| (name.to_string(), reason.to_string()))
        .collect()
}

/// The first differing lines of two texts.
fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let a: Vec<&str> = actual.split_inclusive('\n').collect();
    let at = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    format!(
        "line {}:\n  expected: {:?}\n  actual:   {:?}",
        at + 1,
        e.get(at).copied().unwrap_or("<end>"),
        a.get(at).copied().unwrap_or("<end>")
    )
}

#[test]
fn pulumi_yaml_golden_pairs_convert_byte_identical() {
    let Some(corpus) = pcl_testkit::shared("corpus", "pulumi_yaml_golden_pairs") else {
        return;
    };
    // The corpus has no aws schema; the repository's AWS slice (examples/schemas) stands in for it,
    // so invokes of aws functions resolve to their canonical tokens as Go's generator writes them.
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas");
    let loader = CachingLoader::new(DirLoader::new([corpus.join("schemas/codegen"), examples]));
    let deviations = deviations();
    let mut filter = pcl_testkit::Filter::from_env("GOLDEN_FILTER");
    let mut names: Vec<String> = std::fs::read_dir(testdata())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("expected.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    pcl_testkit::at_least("pulumi-yaml golden pairs", names.len(), 53);

    let mut failures = Vec::new();
    let mut identical = 0;
    let mut seen = 0;
    for name in &names {
        if !filter.keep(name) {
            continue;
        }
        seen += 1;
        let local = testdata().join(name).join("input");
        let dir = if local.is_dir() {
            local
        } else {
            corpus.join("programs").join(name)
        };
        let expected = std::fs::read_to_string(testdata().join(name).join("expected.yaml"))
            .unwrap_or_default();
        let actual = match check_directory(&dir, &loader, &BindPolicy::lenient()) {
            Ok(checked) => pcl_yaml::convert(&checked).yaml,
            Err(e) => format!("<cannot read {}: {e}>", dir.display()),
        };
        let matches = actual == expected;
        identical += usize::from(matches);
        match (matches, deviations.get(name)) {
            (true, Some(reason)) => failures.push(format!(
                "{name}: listed in tests/deviations.tsv ({reason}) but now matches: remove the entry"
            )),
            (false, None) => failures.push(format!(
                "{name}: differs and is not listed in tests/deviations.tsv; {}",
                first_difference(&expected, &actual)
            )),
            _ => {}
        }
    }
    filter.finish();
    for compared in UPSTREAM_COMPARED {
        if !names.iter().any(|n| n == compared) {
            failures.push(format!("{compared}: compared upstream but not stored here"));
        }
        if let Some(reason) = deviations.get(compared) {
            failures.push(format!(
                "{compared}: upstream compares it, so it cannot be a deviation ({reason})"
            ));
        }
    }
    for listed in deviations.keys() {
        if !names.contains(listed) {
            failures.push(format!(
                "{listed}: listed in tests/deviations.tsv but no such pair"
            ));
        }
    }
    println!("{identical} of {seen} pairs byte-identical");
    for failure in &failures {
        println!("{failure}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
