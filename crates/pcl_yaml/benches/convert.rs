//! Conversion benchmark: `cargo bench -p pcl_yaml --bench convert`.
//!
//! Prints one row: every program of the shared corpus
//! (`../shared/corpus/manifest.tsv`, each checked leniently against its
//! manifest's schema folder through one [`SchemaCache`] per folder, as
//! `pcl check` does for the programs of one run), the time to check them
//! all (parse, bind, type check) and the time to convert the checked
//! programs to YAML ([`pcl_yaml::convert`]), best of `PCL_BENCH_PASSES`
//! passes (default 5), and convert / check. The goal: converting is a
//! small fraction of checking (the generator walks what the binder built,
//! never re-parsing). Skipped with a message when the corpus is absent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pcl::{check_program_cached, BindPolicy, CachingLoader, DirLoader, FsFiles, SchemaCache};

struct Program {
    dir: PathBuf,
    sources: Vec<(String, String)>,
    schemas: usize,
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !corpus.join("manifest.tsv").is_file() {
        println!("corpus not found (../shared/corpus): skipping the conversion row");
        return;
    }
    let passes: usize = std::env::var("PCL_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut folders: Vec<String> = Vec::new();
    let mut programs = Vec::new();
    for row in pcl_testkit::corpus_manifest(&corpus) {
        let dir = corpus.join(&row.program_dir);
        let schemas = row.schema_dir.as_str();
        let mut sources: Vec<(String, String)> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "pp"))
            .filter_map(|e| {
                let text = std::fs::read_to_string(e.path()).ok()?;
                Some((e.file_name().to_string_lossy().into_owned(), text))
            })
            .collect();
        sources.sort();
        let schemas = match folders.iter().position(|f| f == schemas) {
            Some(i) => i,
            None => {
                folders.push(schemas.to_string());
                folders.len() - 1
            }
        };
        programs.push(Program {
            dir,
            sources,
            schemas,
        });
    }
    let caches: Vec<SchemaCache<CachingLoader<DirLoader>>> = folders
        .iter()
        .map(|f| SchemaCache::new(CachingLoader::new(DirLoader::new([corpus.join(f)]))))
        .collect();
    let policy = BindPolicy::lenient();
    let bytes: usize = programs
        .iter()
        .flat_map(|p| p.sources.iter().map(|(_, t)| t.len()))
        .sum();

    let check_all = || {
        programs
            .iter()
            .map(|p| {
                let files = FsFiles::new(&p.dir);
                check_program_cached(&p.sources, &caches[p.schemas], &policy, &files)
            })
            .collect::<Vec<_>>()
    };
    // Warm the schema caches, then time.
    let checked = check_all();
    let mut check_best = Duration::MAX;
    let mut convert_best = Duration::MAX;
    let mut yaml_bytes = 0;
    for _ in 0..passes {
        let start = Instant::now();
        black_box(check_all());
        check_best = check_best.min(start.elapsed());
        let start = Instant::now();
        let converted: Vec<_> = checked.iter().map(pcl_yaml::convert).collect();
        convert_best = convert_best.min(start.elapsed());
        yaml_bytes = converted.iter().map(|c| c.yaml.len()).sum();
        black_box(converted);
    }
    println!("PCL → YAML conversion (best of {passes} passes; schemas cached)");
    println!(
        "{:<28} {:>9} {:>12} {:>12} {:>14}",
        "input", "source", "check", "convert", "convert/check"
    );
    println!(
        "{:<28} {:>8}K {:>10.2}ms {:>10.2}ms {:>14.3}",
        format!("corpus ({} programs)", programs.len()),
        bytes / 1024,
        check_best.as_secs_f64() * 1e3,
        convert_best.as_secs_f64() * 1e3,
        convert_best.as_secs_f64() / check_best.as_secs_f64()
    );
    println!("({} KB of YAML written)", yaml_bytes / 1024);
}
