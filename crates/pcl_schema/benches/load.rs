//! Load benchmark: what a few lookups in a big schema cost compared with
//! just reading the file.
//!
//! Run with `cargo bench -p pcl_schema --bench load`. Reads the largest
//! corpus schemas from `../shared/corpus/schemas/codegen` (or the files
//! given on the command line) and prints, per file, the median of several
//! runs of: reading the bytes (`read`); reading + loading + looking up
//! three resources (`read+3 looks`) and the ratio of the two, measured in
//! the same run (the goal is under 3× for azure-native); loading alone;
//! parsing everything with `serde_json::Value` (for scale); and decoding
//! every member.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pcl_schema::Package;

const RUNS: usize = 15;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    let mut samples = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        std::hint::black_box(f());
        samples.push(start.elapsed());
    }
    median(samples)
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

fn bench(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    if std::env::var_os("PCL_BENCH_PARSE_LOOP").is_some() {
        // For profilers: parse repeatedly and nothing else.
        for _ in 0..200 {
            std::hint::black_box(Package::parse_bytes(bytes.clone(), "bench", None).unwrap());
        }
        return;
    }
    let pkg = Package::parse_bytes(bytes.clone(), "bench", None).unwrap();
    // Three resources spread over the document.
    let tokens: Vec<String> = {
        let all: Vec<&str> = pkg.resource_tokens().collect();
        let n = all.len();
        [0, n / 2, n.saturating_sub(1)]
            .iter()
            .filter_map(|&i| all.get(i).map(|s| (*s).to_owned()))
            .collect()
    };

    if std::env::var_os("PCL_BENCH_LOOKUP_LOOP").is_some() {
        // For profilers: read, load and look up three resources, repeatedly.
        for _ in 0..2000 {
            let pkg = Package::parse_bytes(std::fs::read(path).unwrap(), "bench", None).unwrap();
            for t in &tokens {
                std::hint::black_box(pkg.lookup_resource(t).unwrap().unwrap());
            }
        }
        return;
    }
    let read = time(|| std::fs::read(path).unwrap());
    let lookup = time(|| {
        let bytes = std::fs::read(path).unwrap();
        let pkg = Package::parse_bytes(bytes, "bench", None).unwrap();
        for t in &tokens {
            pkg.lookup_resource(t).unwrap().unwrap();
        }
        pkg
    });
    // Where the time goes, stage by stage (medians of separately timed
    // stages of the same runs).
    let (mut t_read, mut t_load, mut t_first, mut t_rest, mut t_drop) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..RUNS {
        let start = Instant::now();
        let bytes = std::fs::read(path).unwrap();
        t_read.push(start.elapsed());
        let start = Instant::now();
        let pkg = Package::parse_bytes(bytes, "bench", None).unwrap();
        t_load.push(start.elapsed());
        let start = Instant::now();
        std::hint::black_box(pkg.lookup_resource(&tokens[0]).unwrap().unwrap());
        t_first.push(start.elapsed());
        let start = Instant::now();
        for t in tokens.iter().skip(1) {
            std::hint::black_box(pkg.lookup_resource(t).unwrap().unwrap());
        }
        t_rest.push(start.elapsed());
        let start = Instant::now();
        drop(pkg);
        t_drop.push(start.elapsed());
    }
    eprintln!(
        "  stages: read {} ms, load {} ms, first lookup {} ms, two more lookups {} ms, drop {} ms",
        ms(median(t_read)),
        ms(median(t_load)),
        ms(median(t_first)),
        ms(median(t_rest)),
        ms(median(t_drop))
    );
    let parse_only = time(|| Package::parse_bytes(bytes.clone(), "bench", None).unwrap());
    let value = time(|| serde_json::from_slice::<serde_json::Value>(&bytes).unwrap());
    let utf8 = time(|| std::str::from_utf8(&bytes).is_ok());
    let ignored = time(|| serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_ok());
    eprintln!(
        "  utf8 check {} ms, serde IgnoredAny {} ms",
        ms(utf8),
        ms(ignored)
    );
    let decode_all = time(|| {
        let pkg = Package::parse_bytes(bytes.clone(), "bench", None).unwrap();
        assert!(pkg.decode_all().len() < usize::MAX);
        pkg
    });
    let name = path.file_name().unwrap().to_string_lossy();
    println!(
        "{:<34} {:>9} {:>9} {:>13} {:>7.2}x {:>11} {:>12} {:>11}",
        name,
        format!("{:.1}", bytes.len() as f64 / 1_048_576.0),
        ms(read),
        ms(lookup),
        lookup.as_secs_f64() / read.as_secs_f64(),
        ms(parse_only),
        ms(value),
        ms(decode_all),
    );
}

fn main() {
    let args: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let files = if args.is_empty() {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/schemas/codegen");
        [
            "azure-native-2.41.0.json",
            "kubernetes-3.7.0.json",
            "docker-4.0.0-alpha.0.json",
        ]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .collect()
    } else {
        args
    };
    if files.is_empty() {
        println!("no schema files found; skipped");
        return;
    }
    println!("median of {RUNS} runs, times in ms");
    println!(
        "{:<34} {:>9} {:>9} {:>13} {:>8} {:>11} {:>12} {:>11}",
        "file", "MB", "read", "read+3 looks", "ratio", "parse only", "serde Value", "decode all"
    );
    for f in &files {
        bench(f);
    }
}
