//! The formatter on every `.pp` file of `../shared/corpus`: the same bytes
//! as hclwrite (checked against `testdata/fmt/corpus-hclwrite.tsv`, the
//! fingerprints of hclwrite's output, and against hclwrite itself when the
//! oracle is built), stable, and keeping every token and comment.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use common::*;
use pcl_diagnostics::FileId;

const TABLE: &str = "testdata/fmt/corpus-hclwrite.tsv";

#[test]
fn corpus_matches_hclwrite() {
    let Some(corpus) = corpus("fmt corpus_matches_hclwrite") else {
        return;
    };
    let files = pp_files(&corpus.join("programs"));
    pcl_testkit::at_least("corpus .pp files", files.len(), MIN_CORPUS_FILES);
    let rel = |f: &std::path::Path| {
        f.strip_prefix(&corpus)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    let table_path = root().join(TABLE);
    let mut mismatches = Vec::new();
    match oracle() {
        Some(oracle) => {
            let expected = run_oracle(&oracle, &corpus, &files, "corpus-oracle");
            let mut table = String::from("# corpus file\tFNV-1a 64 of hclwrite.Format's output\n");
            for (file, want) in files.iter().zip(expected) {
                let want = want.unwrap_or_else(|| panic!("hclwrite cannot parse {}", rel(file)));
                table.push_str(&format!("{}\t{}\n", rel(file), fnv64(&want)));
                let text = std::fs::read_to_string(file).unwrap();
                let got = pcl_fmt::format(FileId(0), &text).unwrap();
                if got.as_bytes() != want.as_slice() {
                    mismatches.push(format!(
                        "{}:\n--- hclwrite\n{}\n--- pcl fmt\n{got}",
                        rel(file),
                        String::from_utf8_lossy(&want)
                    ));
                }
            }
            assert!(
                mismatches.is_empty(),
                "{} files differ from hclwrite:\n{}",
                mismatches.len(),
                mismatches.join("\n")
            );
            if updating() {
                std::fs::write(&table_path, &table).unwrap();
            } else {
                let checked_in = std::fs::read_to_string(&table_path).unwrap_or_default();
                assert!(
                    checked_in == table,
                    "{TABLE} is out of date with the oracle; rerun with UPDATE_EXPECT=1"
                );
            }
            eprintln!(
                "compared {} corpus files with hclwrite (oracle {})",
                files.len(),
                oracle.display()
            );
        }
        None => {
            eprintln!(
                "oracle skipped: target/peers/hclfmt is not built and PCL_HCLFMT is unset; \
                 comparing with the checked-in fingerprints of {TABLE} only"
            );
            let table = std::fs::read_to_string(&table_path).unwrap();
            let want: BTreeMap<&str, &str> = table
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| l.split_once('\t'))
                .collect();
            assert_eq!(
                want.len(),
                files.len(),
                "{TABLE} does not list every corpus file"
            );
            for file in &files {
                let text = std::fs::read_to_string(file).unwrap();
                let got = pcl_fmt::format(FileId(0), &text).unwrap();
                if want.get(rel(file).as_str()) != Some(&fnv64(got.as_bytes()).as_str()) {
                    mismatches.push(rel(file));
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} files differ from hclwrite:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn corpus_formatting_is_stable_and_keeps_tokens_and_comments() {
    let Some(corpus) = corpus("fmt corpus stability") else {
        return;
    };
    let files = pp_files(&corpus.join("programs"));
    pcl_testkit::at_least("corpus .pp files", files.len(), MIN_CORPUS_FILES);
    let mut changed = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let formatted = pcl_fmt::format(FileId(0), &text).unwrap();
        changed += usize::from(formatted != text);
        check_invariants(&file.display().to_string(), &text, &formatted);
    }
    eprintln!("{changed} of {} corpus files change", files.len());
}
