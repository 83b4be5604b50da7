//! Goldens: every `testdata/fmt/NAME.pp` formats to `NAME.pp.out`
//! (regenerate with `UPDATE_EXPECT=1`), keeps its tokens and comments and
//! is stable; when the hclwrite oracle is built, each `.pp.out` is also
//! exactly hclwrite's output, except for inputs marked `hclwrite-rejects`
//! (which hclwrite 2.14 cannot parse, and must indeed reject) and
//! `pcl-deviation` (a deliberate difference, listed in docs/differences.md, which
//! must indeed differ).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use pcl_diagnostics::FileId;

fn inputs() -> Vec<std::path::PathBuf> {
    let files = pp_files(&root().join("testdata/fmt"));
    assert!(files.len() >= 10, "goldens missing");
    files
}

fn expected_path(input: &std::path::Path) -> std::path::PathBuf {
    input.with_extension("pp.out")
}

#[test]
fn goldens() {
    let mut failures = Vec::new();
    for input in inputs() {
        let text = std::fs::read_to_string(&input).unwrap();
        let got = pcl_fmt::format(FileId(0), &text).unwrap();
        check_invariants(&input.display().to_string(), &text, &got);
        let expected = expected_path(&input);
        if updating() {
            std::fs::write(&expected, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected).unwrap_or_default();
        if want != got {
            failures.push(format!(
                "{}:\n--- expected\n{want}\n--- got\n{got}",
                input.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn goldens_match_hclwrite() {
    let Some(oracle) = oracle() else {
        eprintln!(
            "oracle skipped: target/peers/hclfmt is not built and PCL_HCLFMT is unset \
             (the checked-in .pp.out files are still compared by `goldens`)"
        );
        return;
    };
    let base = root().join("testdata/fmt");
    let files = inputs();
    let outputs = run_oracle(&oracle, &base, &files, "golden-oracle");
    for (input, hclwrite) in files.iter().zip(outputs) {
        let text = std::fs::read_to_string(input).unwrap();
        let marked = text.contains("hclwrite-rejects");
        match hclwrite {
            None => assert!(
                marked,
                "hclwrite rejects {} but it is not marked",
                input.display()
            ),
            Some(want) => {
                assert!(
                    !marked,
                    "{} is marked hclwrite-rejects but hclwrite accepts it",
                    input.display()
                );
                let golden = std::fs::read(expected_path(input)).unwrap();
                if text.contains("pcl-deviation") {
                    assert!(
                        golden != want,
                        "{} is marked pcl-deviation but matches hclwrite",
                        input.display()
                    );
                    // The one deviation: the byte-order mark hclwrite drops.
                    assert_eq!(golden.strip_prefix("\u{feff}".as_bytes()), Some(&want[..]));
                    continue;
                }
                assert!(
                    golden == want,
                    "{}: hclwrite gives\n{}",
                    input.display(),
                    String::from_utf8_lossy(&want)
                );
            }
        }
    }
    eprintln!("compared {} goldens with hclwrite", files.len());
}

/// Every `.pp` file of the project (`examples/`, `testdata/`) that parses
/// without errors keeps its tokens and comments, is stable, and, with the
/// oracle built, formats as hclwrite formats it (a byte-order mark aside,
/// the one deliberate difference).
#[test]
fn project_files_keep_their_meaning_and_match_hclwrite() {
    let mut files = pp_files(&root().join("examples"));
    files.extend(pp_files(&root().join("testdata")));
    let mut formatted = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue; // not UTF-8: robustness cases
        };
        let Ok(got) = pcl_fmt::format(FileId(0), &text) else {
            continue; // syntax errors: never formatted
        };
        check_invariants(&file.display().to_string(), &text, &got);
        formatted.push((file.clone(), got));
    }
    assert!(
        formatted.len() > 200,
        "only {} project files",
        formatted.len()
    );
    let Some(oracle) = oracle() else {
        eprintln!("oracle skipped: target/peers/hclfmt is not built and PCL_HCLFMT is unset");
        return;
    };
    let paths: Vec<_> = formatted.iter().map(|(f, _)| f.clone()).collect();
    let outputs = run_oracle(&oracle, &root(), &paths, "project-oracle");
    let mut compared = 0;
    for ((file, got), want) in formatted.iter().zip(outputs) {
        let Some(want) = want else {
            continue; // hclwrite rejects it (e.g. a namespaced function)
        };
        let got = got.strip_prefix('\u{feff}').unwrap_or(got);
        assert!(
            got.as_bytes() == want.as_slice(),
            "{}: hclwrite gives\n{}\n--- pcl fmt gives\n{got}",
            file.display(),
            String::from_utf8_lossy(&want)
        );
        compared += 1;
    }
    eprintln!("compared {compared} project files with hclwrite");
}
