//! The generator never panics: over every program of the shared corpus
//! (checked leniently against its manifest's schemas), over expressions
//! as deep as the binder allows, and over a wide program; and the crate
//! depends on the `pcl` façade only.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use pcl::{check_directory, check_program, BindPolicy, CachingLoader, DirLoader, MemoryLoader};

#[test]
fn the_manifest_depends_on_the_facade_only() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let mut section = "";
    let mut dependencies = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section == "[dependencies]" && !line.is_empty() && !line.starts_with('#') {
            dependencies.push(line.split(['=', ' ', '.']).next().unwrap_or("").to_string());
        }
    }
    assert_eq!(
        dependencies,
        ["pcl"],
        "pcl_yaml may depend on the `pcl` façade only"
    );
}

#[test]
fn every_corpus_program_converts_without_panicking() {
    let Some(corpus) = pcl_testkit::shared("corpus", "every_corpus_program_converts") else {
        return;
    };
    let manifest = std::fs::read_to_string(corpus.join("manifest.tsv")).unwrap();
    let mut loaders: Vec<(String, CachingLoader<DirLoader>)> = Vec::new();
    let mut converted = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(program), Some(schemas)) =
            (fields.first(), fields.get(1), fields.get(2))
        else {
            continue;
        };
        if !loaders.iter().any(|(s, _)| s == schemas) {
            let loader = CachingLoader::new(DirLoader::new([corpus.join(schemas)]));
            loaders.push((schemas.to_string(), loader));
        }
        let Some((_, loader)) = loaders.iter().find(|(s, _)| s == schemas) else {
            continue;
        };
        let Ok(checked) = check_directory(&corpus.join(program), loader, &BindPolicy::lenient())
        else {
            continue;
        };
        let result = catch_unwind(AssertUnwindSafe(|| pcl_yaml::convert(&checked)));
        let out = result.unwrap_or_else(|_| panic!("{name}: the generator panicked"));
        assert!(out.yaml.ends_with('\n'), "{name}: {:?}", out.yaml);
        assert!(std::str::from_utf8(out.yaml.as_bytes()).is_ok());
        converted += 1;
    }
    pcl_testkit::at_least("converted corpus programs", converted, 190);
}

fn convert_source(source: &str) -> pcl_yaml::Converted {
    let sources = vec![("main.pp".to_string(), source.to_string())];
    let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::lenient());
    pcl_yaml::convert(&checked)
}

#[test]
fn expressions_deeper_than_the_binder_allows_do_not_overflow() {
    // The binder stops at its depth limit (an error node below
    // it), so the generator's recursion is bounded by that depth.
    let depth = 5_000;
    let source = format!("x = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    // A test thread's default stack (2 MiB): the generator's recursion
    // must stay within the binder's bound, not the input's depth.
    let out = std::thread::spawn(move || convert_source(&source))
        .join()
        .expect("no stack overflow or panic");
    assert!(
        out.yaml.starts_with("variables:\n  x:"),
        "{}",
        &out.yaml[..out.yaml.len().min(200)]
    );

    // Just within the bound: every level is converted.
    let depth = 100;
    let source = format!("x = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    let out = std::thread::spawn(move || convert_source(&source))
        .join()
        .expect("no stack overflow or panic");
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    assert!(
        out.yaml.contains(&format!("{}1\n", "- ".repeat(depth))),
        "{}",
        out.yaml
    );
}

#[test]
fn a_wide_program_converts_in_one_pass() {
    let n = 20_000;
    let mut source = String::new();
    for i in 0..n {
        source.push_str(&format!("v{i} = \"item {i}\"\n"));
    }
    let out = convert_source(&source);
    assert!(!out.has_errors());
    assert_eq!(out.yaml.lines().count(), n + 1);
    assert!(out.yaml.ends_with("  v19999: item 19999\n"));
}
