//! Parse-throughput benchmark: `cargo bench -p pcl_syntax --bench parse`.
//!
//! Prints one table comparing pcl's lossless `parse`, hcl-edit's
//! `parse_body` and pcl's tokenizer alone (`lex`, for reference) on
//! (a) every `.pp` file of the shared corpus (`../shared/corpus`, repeated
//! until about 20 MB were parsed; the row is skipped when the corpus is
//! absent) and (b) generated programs of about 1, 5 and 10 MB. It also reports
//! how parse time scales from 1 and 5 to 10 MB (#15: 10× the input for at
//! most 11× the time) and the peak RSS of one parse of
//! the 10 MB program, measured in a child process (this binary re-run with
//! `--rss-child`), as the growth of `VmHWM` over the baseline taken after
//! reading the input.
//!
//! The generator is a Rust port of `../shared/peers/gen_large.py`: a seeded
//! mix of configs, locals, invokes, resources with options blocks, nested
//! objects and lists, templates, heredocs with directives, `for`
//! expressions, conditionals, operators, splats, components, outputs and
//! comments. Its output is deterministic but not byte-identical to the
//! Python script's (different random generator).
//!
//! The `pcl lex` scaling ratio is above 2.00 because of glibc, not the
//! lexer: `lex` returns a `Vec<Token>` of about 3.6 bytes per source byte.
//! glibc keeps freed blocks below its adaptive mmap threshold (at most
//! 32 MiB) in the heap, so at 5 MB (18 MB of tokens) every repetition
//! after the first reuses pages already faulted in, while at 10 MB (36 MB)
//! each call maps and faults in fresh pages. With the threshold fixed
//! (`GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967296`) both sizes
//! pay for page faults and lexing scales linearly (30.1 ms and 62.1 ms on
//! this machine, ratio 2.06).
//!
//! Two more tables cover hostile shapes (`../tests/common/shapes.rs`): the
//! parse time of each `SCALING` shape at 1×, 4× and 16× its base size (the
//! 16×/1× ratio is about 16 when linear), and the peak RSS per source byte
//! of one parse of about 10 MB of each dense `MEMORY` shape (child
//! process, as above). `--shapes` prints only these two tables. Each time
//! in the scaling table is the median of three cold parses, each in a
//! fresh process: the best of three parses in one process (as an earlier
//! version measured) timed the small sizes in memory the first parse left
//! mapped and the large ones faulting their pages in again, and showed
//! linear shapes at up to 22x. Instruction counts remain the reliable
//! check: `valgrind --tool=callgrind <this binary> --rss-child pcl FILE`
//! on each shape at 10,000 and 160,000 repetitions gave ratios of 12.5 to
//! 16.2 for every shape after the comment-attachment fix.
//!
//! On a loaded machine wall-clock rows are noisy; instruction counts are
//! not. `--write-generated N PATH` writes a generated program of about N
//! bytes, and `valgrind --tool=callgrind <this binary> --rss-child pcl PATH`
//! (or `hcl-edit`, or `lex`) counts the instructions of one parse of PATH
//! (plus reading it), for comparing optimisations or the two parsers;
//! `--corpus-once pcl` (or `hcl-edit`, `lex`) parses every corpus file once
//! (`--corpus-once pcl N`: N times, for a sampling profiler).
//! `--instructions` prints only the row issue #30 sets its parse goal on:
//! one parse of the generated 1 MB program, whole process, in callgrind
//! instructions, for pcl, for this build's hcl-edit (0.9) and for
//! hcl-edit 0.10 as the peers' harness builds it (`../shared/peers/rust`,
//! fat LTO; found at `$PCL_HCLPEERS` or `target/peers/hclpeers`, built by
//! `cargo build --release --manifest-path ../shared/peers/rust/Cargo.toml
//! --target-dir target/peers-build` and copied there); the full run prints
//! it too, after the memory rows. It needs valgrind on `PATH`.
//! `--shapes-instructions [BASE]` prints the scaling table of the hostile
//! shapes in instructions instead of wall clock: it runs each shape at 1×,
//! 4× and 16× BASE repetitions (default 10,000) under
//! `valgrind --tool=callgrind` and subtracts the count for an empty file
//! (process start-up and reading). It needs valgrind on `PATH`.

#[path = "../tests/common/shapes.rs"]
mod shapes;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pcl_diagnostics::FileId;

const CORPUS_TARGET_BYTES: usize = 20_000_000;
const MB: f64 = 1e6;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--rss-child") {
        let parser = args.get(pos + 1).map(String::as_str).unwrap_or("pcl");
        let path = args.get(pos + 2).map(PathBuf::from).unwrap_or_default();
        rss_child(parser, &path);
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--corpus-once") {
        // For profiling: parses every corpus file once.
        let parser = args.get(pos + 1).map(String::as_str).unwrap_or("pcl");
        let reps = args.get(pos + 2).and_then(|n| n.parse().ok()).unwrap_or(1);
        corpus_once(parser, reps);
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--write-generated") {
        // For profiling: writes a generated program of about N bytes.
        let bytes = args
            .get(pos + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1_000_000);
        let path = args.get(pos + 2).map(PathBuf::from).unwrap_or_default();
        if std::fs::write(&path, generate(bytes, 1)).is_err() {
            println!("error");
        }
        return;
    }
    if args.iter().any(|a| a == "--instructions") {
        instruction_row();
        return;
    }
    if args.iter().any(|a| a == "--shapes") {
        shape_tables();
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--shapes-instructions") {
        let base = args
            .get(pos + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(INSTRUCTIONS_BASE);
        shape_instructions(base);
        return;
    }
    let passes: usize = std::env::var("PCL_BENCH_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut rows = Vec::new();

    match corpus_files() {
        Some(files) if !files.is_empty() => {
            let texts: Vec<String> = files
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect();
            let bytes: usize = texts.iter().map(String::len).sum();
            let reps = CORPUS_TARGET_BYTES.div_ceil(bytes.max(1));
            let label = format!("corpus ({} files, {bytes} B) x{reps}", texts.len());
            check_accepts(&label, &texts);
            rows.push(measure(&label, &texts, reps, 1));
        }
        _ => println!(
            "corpus not found next to the workspace (../shared/corpus): skipping the corpus row"
        ),
    }

    let big10 = generate(10_000_000, 1);
    let big5 = generate(5_000_000, 1);
    let big1 = generate(1_000_000, 1);
    check_accepts("generated 10 MB", std::slice::from_ref(&big10));
    let row1 = measure(
        &format!("generated 1 MB ({} B)", big1.len()),
        std::slice::from_ref(&big1),
        1,
        passes,
    );
    let row5 = measure(
        &format!("generated 5 MB ({} B)", big5.len()),
        std::slice::from_ref(&big5),
        1,
        passes,
    );
    let row10 = measure(
        &format!("generated 10 MB ({} B)", big10.len()),
        std::slice::from_ref(&big10),
        1,
        passes,
    );

    println!();
    println!("| input | pcl parse MB/s | hcl-edit MB/s | pcl / hcl-edit | pcl lex MB/s |");
    println!("|---|---:|---:|---:|---:|");
    rows.push(row1.clone());
    rows.push(row5.clone());
    rows.push(row10.clone());
    for row in &rows {
        println!(
            "| {} | {:.1} | {:.1} | {:.2} | {:.1} |",
            row.label,
            row.mbps(row.pcl),
            row.mbps(row.hcl_edit),
            row.hcl_edit.as_secs_f64() / row.pcl.as_secs_f64().max(1e-12),
            row.mbps(row.lex),
        );
    }

    println!();
    println!("Scaling (best pass time; 10/1 is 10.0 and 10/5 is 2.00 when linear):");
    for (name, t1, t5, t10) in [
        ("pcl parse", row1.pcl, row5.pcl, row10.pcl),
        ("hcl-edit", row1.hcl_edit, row5.hcl_edit, row10.hcl_edit),
        ("pcl lex", row1.lex, row5.lex, row10.lex),
    ] {
        let ratio = |a: Duration, b: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-12);
        println!(
            "  {name:<10} 1 MB {:>7.1} ms   5 MB {:>8.1} ms   10 MB {:>8.1} ms   10/1 {:>5.2}   10/5 {:.2}",
            t1.as_secs_f64() * 1e3,
            t5.as_secs_f64() * 1e3,
            t10.as_secs_f64() * 1e3,
            ratio(t1, t10),
            ratio(t5, t10),
        );
    }

    println!();
    let path = std::env::temp_dir().join(format!("pcl-bench-10mb-{}.pp", std::process::id()));
    if std::fs::write(&path, &big10).is_ok() {
        println!(
            "Peak RSS of one parse of the 10 MB program ({} B), child process:",
            big10.len()
        );
        for parser in ["pcl", "hcl-edit"] {
            match run_rss_child(parser, &path) {
                Some((base, peak)) => {
                    let delta = peak.saturating_sub(base);
                    println!(
                        "  {parser:<9} baseline {:>7.1} MiB  peak {:>7.1} MiB  delta {:>7.1} MiB  = {:.1} bytes per source byte",
                        kib_to_mib(base),
                        kib_to_mib(peak),
                        kib_to_mib(delta),
                        (delta as f64 * 1024.0) / big10.len() as f64
                    );
                }
                None => println!("  {parser}: could not measure (no /proc/self/status?)"),
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    println!();
    instruction_row();
    println!();
    shape_tables();
}

/// Base repetition count of the scaling rows (16× is 800,000 lines or
/// items; large enough that even 1× is past the caches, which otherwise
/// make a linear path look superlinear between 1× and 4×).
const SHAPE_BASE: usize = 50_000;
/// Source size of each memory row.
const MEMORY_BYTES: usize = 10_000_000;

/// Default base repetition count of `--shapes-instructions` (callgrind
/// runs about 50 times slower than the program, so smaller than
/// `SHAPE_BASE`; instruction counts do not suffer from caches).
const INSTRUCTIONS_BASE: usize = 10_000;

/// Instructions of one `--rss-child pcl` run on `text`, counted by
/// callgrind; `None` when valgrind is missing or its report is unreadable.
fn callgrind_instructions(text: &str) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let path = std::env::temp_dir().join(format!("pcl-bench-cg-{}.pp", std::process::id()));
    std::fs::write(&path, text).ok()?;
    let count = pcl_testkit::process_instructions::<&std::ffi::OsStr>(
        &exe,
        &["--rss-child".as_ref(), "pcl".as_ref(), path.as_ref()],
    );
    let _ = std::fs::remove_file(&path);
    count
}

/// The peers' Rust harness (`../shared/peers/rust`, hcl-edit 0.10 built
/// with fat LTO, the build issue #30's figures compare with): `$PCL_HCLPEERS`,
/// else `target/peers/hclpeers` of this workspace.
fn hclpeers() -> Option<PathBuf> {
    let path = match std::env::var_os("PCL_HCLPEERS") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/peers/hclpeers"),
    };
    path.is_file().then_some(path)
}

/// The parse row of issue #30 in instructions: one parse of the generated
/// 1 MB program, whole process (start-up and reading the file included),
/// by pcl, by the hcl-edit of this build (0.9, no LTO) and by the peers'
/// hcl-edit 0.10 ([`hclpeers`]), all counted by callgrind in this run.
fn instruction_row() {
    let text = generate(1_000_000, 1);
    let path = std::env::temp_dir().join(format!("pcl-bench-row-{}.pp", std::process::id()));
    if std::fs::write(&path, &text).is_err() {
        println!("could not write {}: no instruction row", path.display());
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let child = |parser: &str| {
        pcl_testkit::process_instructions::<&std::ffi::OsStr>(
            &exe,
            &["--rss-child".as_ref(), parser.as_ref(), path.as_ref()],
        )
    };
    let Some(pcl) = child("pcl") else {
        println!("valgrind is not available: no instruction row");
        let _ = std::fs::remove_file(&path);
        return;
    };
    let mut rows = vec![("hcl-edit 0.9 (this build)".to_string(), child("hcl-edit"))];
    match hclpeers() {
        Some(peers) => rows.push((
            "hcl-edit 0.10 (peers' build, fat LTO)".to_string(),
            pcl_testkit::process_instructions::<&std::ffi::OsStr>(
                &peers,
                &[
                    "hcl-edit".as_ref(),
                    "-n".as_ref(),
                    "1".as_ref(),
                    "--warmup".as_ref(),
                    "0".as_ref(),
                    "-q".as_ref(),
                    path.as_ref(),
                ],
            ),
        )),
        None => println!(
            "the peers' hclpeers is not built (target/peers/hclpeers or $PCL_HCLPEERS): no hcl-edit 0.10 row"
        ),
    }
    let _ = std::fs::remove_file(&path);
    println!(
        "Parse of the generated 1 MB program ({} B) in instructions (callgrind, whole process, one parse; #30 asks pcl >= 3.5x fewer than hcl-edit 0.10):",
        text.len()
    );
    println!();
    println!("| parser | instructions | pcl fewer by |");
    println!("|---|---:|---:|");
    println!("| pcl parse | {:.1} M | |", pcl as f64 / 1e6);
    for (name, count) in rows {
        match count {
            Some(n) => println!(
                "| {name} | {:.1} M | {:.2}x |",
                n as f64 / 1e6,
                n as f64 / pcl.max(1) as f64
            ),
            None => println!("| {name} | ? | |"),
        }
    }
}

/// The scaling table of the hostile shapes in instructions (callgrind).
fn shape_instructions(base: usize) {
    let Some(empty) = callgrind_instructions("") else {
        println!("valgrind is not available: no instruction table");
        return;
    };
    println!("Scaling of hostile shapes in instructions (callgrind, one parse, start-up of {empty} subtracted; base {base} repetitions):");
    println!();
    println!("| shape | 1x | 4x | 16x | 16x/1x |");
    println!("|---|---:|---:|---:|---:|");
    for (name, generate) in shapes::SCALING {
        let counts: Vec<Option<u64>> = [1, 4, 16]
            .iter()
            .map(|k| callgrind_instructions(&generate(base * k)).map(|n| n.saturating_sub(empty)))
            .collect();
        let m = |n: &Option<u64>| n.map_or("?".to_string(), |n| format!("{:.1} M", n as f64 / 1e6));
        let ratio = match (counts[0], counts[2]) {
            (Some(a), Some(b)) if a > 0 => format!("{:.1}", b as f64 / a as f64),
            _ => "?".to_string(),
        };
        println!(
            "| {name} | {} | {} | {} | {ratio} |",
            m(&counts[0]),
            m(&counts[1]),
            m(&counts[2])
        );
    }
}

/// The scaling and memory tables of the hostile shapes.
fn shape_tables() {
    println!(
        "Scaling of hostile shapes (median of 3 cold parses, each in a fresh process; 16x/1x is about 16 when linear):"
    );
    println!();
    println!("| shape | 1x | 4x | 16x | 16x/1x |");
    println!("|---|---:|---:|---:|---:|");
    let path = std::env::temp_dir().join(format!("pcl-bench-scale-{}.pp", std::process::id()));
    for (name, generate) in shapes::SCALING {
        let times: Vec<Duration> = [1, 4, 16]
            .iter()
            .map(|k| {
                if std::fs::write(&path, generate(SHAPE_BASE * k)).is_err() {
                    return Duration::ZERO;
                }
                let mut runs: Vec<Duration> =
                    (0..3).filter_map(|_| cold_parse_time(&path)).collect();
                runs.sort();
                runs.get(runs.len() / 2).copied().unwrap_or_default()
            })
            .collect();
        let ms = |d: &Duration| d.as_secs_f64() * 1e3;
        let (t1, t4, t16) = (&times[0], &times[1], &times[2]);
        println!(
            "| {name} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} |",
            ms(t1),
            ms(t4),
            ms(t16),
            t16.as_secs_f64() / t1.as_secs_f64().max(1e-9)
        );
    }
    let _ = std::fs::remove_file(&path);
    println!();
    println!("Peak RSS of one parse of about 10 MB of each dense shape (child process):");
    println!();
    println!("| shape | source bytes | peak delta MiB | bytes per source byte |");
    println!("|---|---:|---:|---:|");
    for (name, generate) in shapes::MEMORY {
        let unit = generate(1000).len().max(1) / 1000;
        let text = generate(MEMORY_BYTES / unit.max(1));
        let path = std::env::temp_dir().join(format!("pcl-bench-shape-{}.pp", std::process::id()));
        if std::fs::write(&path, &text).is_err() {
            println!("| {name} | could not write {} |", path.display());
            continue;
        }
        match run_rss_child("pcl", &path) {
            Some((base, peak)) => {
                let delta = peak.saturating_sub(base);
                println!(
                    "| {name} | {} | {:.1} | {:.1} |",
                    text.len(),
                    kib_to_mib(delta),
                    (delta as f64 * 1024.0) / text.len() as f64
                );
            }
            None => println!("| {name} | {} | could not measure | |", text.len()),
        }
        let _ = std::fs::remove_file(&path);
    }
}

#[derive(Clone)]
struct Row {
    label: String,
    /// Bytes parsed per pass.
    bytes: usize,
    /// Best time of one pass for each contender.
    pcl: Duration,
    hcl_edit: Duration,
    lex: Duration,
}

impl Row {
    fn mbps(&self, time: Duration) -> f64 {
        self.bytes as f64 / MB / time.as_secs_f64().max(1e-12)
    }
}

/// Times `reps` repetitions of the input set as one pass, `passes` times
/// after a warm-up, and keeps the best pass for each contender.
fn measure(label: &str, texts: &[String], reps: usize, passes: usize) -> Row {
    let bytes = texts.iter().map(String::len).sum::<usize>() * reps;
    let time = |f: &dyn Fn(&str)| {
        for text in texts {
            f(text);
        }
        let mut best = Duration::MAX;
        for _ in 0..passes.max(1) {
            let start = Instant::now();
            for _ in 0..reps {
                for text in texts {
                    f(text);
                }
            }
            best = best.min(start.elapsed());
        }
        best
    };
    let pcl = time(&|text| {
        black_box(pcl_syntax::parse(FileId(0), black_box(text)));
    });
    let hcl_edit = time(&|text| {
        let _ = black_box(hcl_edit::parser::parse_body(black_box(text)));
    });
    let lex = time(&|text| {
        black_box(pcl_syntax::lex(black_box(text)));
    });
    eprintln!("measured {label}");
    Row {
        label: label.to_string(),
        bytes,
        pcl,
        hcl_edit,
        lex,
    }
}

/// Warns when an input the benchmark relies on does not parse cleanly.
fn check_accepts(label: &str, texts: &[String]) {
    let pcl_rejects = texts
        .iter()
        .filter(|t| pcl_syntax::parse(FileId(0), *t).has_errors())
        .count();
    let hcl_rejects = texts
        .iter()
        .filter(|t| hcl_edit::parser::parse_body(t).is_err())
        .count();
    if pcl_rejects + hcl_rejects > 0 {
        println!(
            "warning: {label}: pcl rejects {pcl_rejects}, hcl-edit rejects {hcl_rejects} input(s)"
        );
    }
}

fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/programs");
    if !dir.is_dir() {
        return None;
    }
    let mut found = Vec::new();
    let mut stack = vec![dir];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                found.push(path);
            }
        }
    }
    found.sort();
    Some(found)
}

// ----------------------------------------------------------------------------
// Peak RSS in a child process.

fn kib_to_mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// `VmHWM` (peak resident set) of this process, in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Child side: read the file, take the baseline, parse once, report.
fn rss_child(parser: &str, path: &Path) {
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("error");
        return;
    };
    let base = peak_rss_kib().unwrap_or(0);
    match parser {
        "hcl-edit" => {
            let body = hcl_edit::parser::parse_body(&text);
            black_box(&body);
            let peak = peak_rss_kib().unwrap_or(0);
            drop(body);
            println!("{base} {peak}");
        }
        "lex" => {
            let tokens = pcl_syntax::lex(&text);
            black_box(&tokens);
            let peak = peak_rss_kib().unwrap_or(0);
            drop(tokens);
            println!("{base} {peak}");
        }
        _ => {
            let start = Instant::now();
            // The parse takes the text over (as `pcl parse` does): no copy.
            let parse = pcl_syntax::parse(FileId(0), text);
            black_box(&parse);
            let time = start.elapsed();
            let peak = peak_rss_kib().unwrap_or(0);
            drop(parse);
            println!("{base} {peak} {}", time.as_nanos());
        }
    }
}

/// Parses every corpus file once with `parser` (`pcl`, `hcl-edit` or
/// `lex`), for instruction counts of the corpus; `reps` times over, for a
/// sampling profiler (`--corpus-once pcl 100`).
fn corpus_once(parser: &str, reps: usize) {
    let texts: Vec<String> = corpus_files()
        .unwrap_or_default()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    for text in std::iter::repeat_n(&texts, reps).flatten() {
        match parser {
            "hcl-edit" => drop(black_box(hcl_edit::parser::parse_body(text))),
            "lex" => drop(black_box(pcl_syntax::lex(text))),
            _ => drop(black_box(pcl_syntax::parse(FileId(0), text))),
        }
    }
    println!("{} files", texts.len());
}

fn run_rss_child(parser: &str, path: &Path) -> Option<(u64, u64)> {
    run_child(parser, path).map(|(base, peak, _)| (base, peak))
}

/// The time of one cold parse of `path` by pcl, in a fresh process.
fn cold_parse_time(path: &Path) -> Option<Duration> {
    run_child("pcl", path).and_then(|(_, _, time)| time)
}

/// Runs this binary with `--rss-child PARSER PATH`: the baseline and peak
/// RSS in KiB, and for pcl the parse time.
fn run_child(parser: &str, path: &Path) -> Option<(u64, u64, Option<Duration>)> {
    let exe = std::env::current_exe().ok()?;
    let output = Command::new(exe)
        .arg("--rss-child")
        .arg(parser)
        .arg(path)
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let mut fields = text.split_whitespace();
    let base = fields.next()?.parse().ok()?;
    let peak = fields.next()?.parse().ok()?;
    let time = fields
        .next()
        .and_then(|t| t.parse().ok())
        .map(Duration::from_nanos);
    (peak > 0).then_some((base, peak, time))
}

// ----------------------------------------------------------------------------
// The program generator (a port of ../shared/peers/gen_large.py).

const WORDS: &[&str] = &[
    "app", "web", "api", "data", "cache", "queue", "worker", "edge", "store", "log", "metric",
    "alert", "net", "vpc", "subnet", "gateway", "route", "policy", "role", "user", "group", "key",
    "secret", "bucket", "table", "stream", "topic", "cluster", "node", "pool", "service",
    "ingress", "config", "zone", "record", "cert", "domain", "image", "repo", "build", "deploy",
    "stage", "prod", "dev", "test", "primary", "replica", "backup", "archive", "shard",
];

const PROVIDERS: &[(&str, &[&str])] = &[
    (
        "aws",
        &[
            "s3/bucket:Bucket",
            "ec2/instance:Instance",
            "ec2/securityGroup:SecurityGroup",
            "iam/role:Role",
            "iam/rolePolicy:RolePolicy",
            "lambda/function:Function",
            "dynamodb/table:Table",
            "ec2/vpc:Vpc",
            "ec2/subnet:Subnet",
            "ecs/service:Service",
        ],
    ),
    (
        "azure-native",
        &[
            "storage:StorageAccount",
            "resources:ResourceGroup",
            "web:WebApp",
            "network:VirtualNetwork",
            "compute:VirtualMachine",
        ],
    ),
    (
        "gcp",
        &[
            "storage/bucket:Bucket",
            "compute/instance:Instance",
            "container/cluster:Cluster",
        ],
    ),
    (
        "kubernetes",
        &[
            "apps/v1:Deployment",
            "core/v1:Service",
            "core/v1:ConfigMap",
            "networking.k8s.io/v1:Ingress",
        ],
    ),
    (
        "random",
        &[
            "index/randomPet:RandomPet",
            "index/randomString:RandomString",
        ],
    ),
];

const INVOKES: &[&str] = &[
    "aws:ec2/getVpc:getVpc",
    "aws:ec2/getSubnets:getSubnets",
    "aws:index/getAmi:getAmi",
    "aws:iam/getPolicyDocument:getPolicyDocument",
    "azure-native:resources:getResourceGroup",
    "gcp:compute/getZones:getZones",
    "kubernetes:core/v1:getNamespace",
];

const FUNCS1: &[&str] = &[
    "toJSON",
    "length",
    "secret",
    "toBase64",
    "fromBase64",
    "sha1",
    "mimeType",
    "fileAsset",
    "stringAsset",
    "readFile",
    "filebase64",
    "lower",
    "upper",
    "entries",
];

/// SplitMix64: small, seedable, good enough for test data.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `lo..=hi`.
    fn randint(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
    /// A uniform index below `len` (which must not be 0).
    fn pick(&mut self, len: usize) -> usize {
        (self.next_u64() % len as u64) as usize
    }
    fn choice<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.pick(items.len())]
    }
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

struct Gen {
    r: Rng,
    n: u64,
    configs: Vec<String>,
    resources: Vec<String>,
    locals: Vec<String>,
    invokes: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Pool {
    Resources,
    Locals,
    Configs,
    Invokes,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            r: Rng(seed),
            n: 0,
            configs: Vec::new(),
            resources: Vec::new(),
            locals: Vec::new(),
            invokes: Vec::new(),
        }
    }

    fn word(&mut self) -> &'static str {
        self.r.choice(WORDS)
    }

    fn name(&mut self, kind: &str) -> String {
        self.n += 1;
        let (a, b) = (self.word(), self.word());
        format!("{a}{}{kind}{}", capitalize(b), self.n)
    }

    fn prop(&mut self) -> String {
        let (a, b) = (self.word(), self.word());
        format!("{a}{}", capitalize(b))
    }

    fn keys(&mut self, k: u64) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        while (seen.len() as u64) < k {
            let p = self.prop();
            if !seen.contains(&p) {
                seen.push(p);
            }
        }
        seen
    }

    fn pool(&self, pool: Pool) -> &Vec<String> {
        match pool {
            Pool::Resources => &self.resources,
            Pool::Locals => &self.locals,
            Pool::Configs => &self.configs,
            Pool::Invokes => &self.invokes,
        }
    }

    fn reference(&mut self) -> String {
        let pools: Vec<Pool> = [Pool::Resources, Pool::Locals, Pool::Configs, Pool::Invokes]
            .into_iter()
            .filter(|p| !self.pool(*p).is_empty())
            .collect();
        if pools.is_empty() {
            return "\"seed\"".to_string();
        }
        let pool = self.r.choice(&pools);
        let idx = (self.r.next_u64() % self.pool(pool).len() as u64) as usize;
        let base = self.pool(pool)[idx].clone();
        let k = self.r.random();
        match pool {
            Pool::Resources => {
                if k < 0.5 {
                    format!("{base}.{}", self.r.choice(&["id", "arn", "name", "urn"]))
                } else if k < 0.7 {
                    let (p1, i, p2) = (self.prop(), self.r.randint(0, 3), self.prop());
                    format!("{base}.{p1}[{i}].{p2}")
                } else if k < 0.8 {
                    format!("{base}.tags[\"{}\"]", self.word())
                } else {
                    let (p1, p2) = (self.prop(), self.prop());
                    format!("{base}.{p1}[*].{p2}")
                }
            }
            Pool::Invokes => format!(
                "{base}.{}",
                self.r.choice(&["id", "ids", "arn", "location", "json"])
            ),
            _ => base,
        }
    }

    fn string(&mut self) -> String {
        let k = self.r.random();
        let w = self.word();
        if k < 0.45 {
            format!("\"{w}-{}\"", self.word())
        } else if k < 0.75 {
            format!("\"{w}-${{{}}}\"", self.reference())
        } else if k < 0.85 {
            format!("\"arn:aws:s3:::${{{}}}/*\"", self.reference())
        } else if k < 0.92 {
            format!("\"{w}\\n{}\\t\\\"quoted\\\"\"", self.word())
        } else {
            let (a, f, b) = (self.reference(), self.r.choice(FUNCS1), self.reference());
            format!("\"prefix-${{{a}}}-${{{f}({b})}}\"")
        }
    }

    fn scalar(&mut self) -> String {
        let k = self.r.random();
        if k < 0.35 {
            self.string()
        } else if k < 0.5 {
            self.r
                .choice(&[0, 1, 2, 3, 80, 443, 8080, 3600, 65535])
                .to_string()
        } else if k < 0.55 {
            format!("{:.2}", self.r.random() * 100.0)
        } else if k < 0.65 {
            self.r.choice(&["true", "false", "null"]).to_string()
        } else {
            self.reference()
        }
    }

    fn expr(&mut self, depth: i32) -> String {
        let k = self.r.random();
        if depth <= 0 || k < 0.45 {
            return self.scalar();
        }
        if k < 0.55 {
            let f = self.r.choice(FUNCS1);
            format!("{f}({})", self.expr(depth - 1))
        } else if k < 0.62 {
            let (r, s, a, b) = (
                self.reference(),
                self.string(),
                self.expr(depth - 1),
                self.expr(depth - 1),
            );
            format!("{r} == {s} ? {a} : {b}")
        } else if k < 0.67 {
            let (a, i, j, b) = (
                self.reference(),
                self.r.randint(1, 9),
                self.r.randint(2, 5),
                self.reference(),
            );
            format!("({a} + {i}) * {j} - length({b}) / 2")
        } else if k < 0.70 {
            let (a, b, c, i) = (
                self.reference(),
                self.reference(),
                self.reference(),
                self.r.randint(1, 99),
            );
            format!("!{a} && ({b} || {c} >= {i})")
        } else if k < 0.76 {
            let (r, e) = (self.reference(), self.expr(depth - 1));
            format!("[for x in {r} : {e}]")
        } else if k < 0.80 {
            format!("{{for k, v in {} : k => v if v != null}}", self.reference())
        } else if k < 0.84 {
            let n = self.r.randint(1, 4);
            let items: Vec<String> = (0..n).map(|_| self.scalar()).collect();
            format!("join(\",\", [{}])", items.join(", "))
        } else if k < 0.88 {
            let (r, i) = (self.reference(), self.r.randint(0, 3));
            format!("element(split(\"/\", {r}), {i})")
        } else if k < 0.94 {
            self.obj(depth - 1, 1)
        } else {
            let n = self.r.randint(0, 5);
            let items: Vec<String> = (0..n).map(|_| self.scalar()).collect();
            format!("[{}]", items.join(", "))
        }
    }

    fn obj(&mut self, depth: i32, indent: usize) -> String {
        let pad = "\t".repeat(indent + 1);
        let n = self.r.randint(1, 5);
        let mut items = Vec::new();
        for mut key in self.keys(n) {
            if self.r.random() < 0.1 {
                key = format!("\"{}.{}/{}\"", self.word(), self.word(), self.word());
            }
            let v = if depth > 0 && self.r.random() < 0.35 {
                self.obj(depth - 1, indent + 1)
            } else if depth > 0 && self.r.random() < 0.15 {
                format!("[{}]", self.obj(depth - 1, indent + 1))
            } else {
                self.expr(depth - 1)
            };
            items.push(format!("{pad}{key} = {v}"));
        }
        format!("{{\n{}\n{}}}", items.join("\n"), "\t".repeat(indent))
    }

    fn heredoc(&mut self) -> String {
        let tag = self.r.choice(&["EOF", "EOT", "SCRIPT", "POLICY"]);
        let dash = self.r.random() < 0.7;
        let mut lines = vec![
            "#!/bin/bash".to_string(),
            format!("echo \"starting {}\"", self.word()),
        ];
        for _ in 0..self.r.randint(2, 8) {
            let k = self.r.random();
            if k < 0.4 {
                let w = self.word().to_uppercase();
                lines.push(format!("export {w}=${{{}}}", self.reference()));
            } else if k < 0.55 {
                let (r, w) = (self.reference(), self.word());
                lines.push(format!(
                    "%{{ if {r} }}enable {w}%{{ else }}disable%{{ endif }}"
                ));
            } else if k < 0.65 {
                lines.push(format!("%{{ for item in {} ~}}", self.reference()));
                lines.push("  process ${item} --flag".to_string());
                lines.push("%{ endfor ~}".to_string());
            } else {
                let (w, p) = (self.word(), self.r.randint(1000, 9999));
                lines.push(format!("curl -s http://{w}.local:{p}/path $$HOME 100%"));
            }
        }
        if dash {
            let body: Vec<String> = lines.iter().map(|l| format!("\t\t{l}")).collect();
            format!("<<-{tag}\n{}\n\t{tag}", body.join("\n"))
        } else {
            format!("<<{tag}\n{}\n{tag}", lines.join("\n"))
        }
    }

    fn comment(&mut self) -> String {
        let k = self.r.random();
        let (a, b, c) = (self.word(), self.word(), self.word());
        if k < 0.6 {
            format!("// {a} {b} for the {c} tier\n")
        } else if k < 0.8 {
            format!("# {a} settings\n")
        } else {
            format!("/* {a}:\n   multi-line {b} note */\n")
        }
    }

    fn config(&mut self) -> String {
        let name = self.name("Cfg");
        let choice = self.r.randint(0, 5);
        let (typ, default) = match choice {
            0 => ("string".to_string(), self.string()),
            1 => ("int".to_string(), self.r.randint(1, 100).to_string()),
            2 => ("bool".to_string(), "true".to_string()),
            3 => (
                "\"list(string)\"".to_string(),
                "[\"a\", \"b\", \"c\"]".to_string(),
            ),
            4 => (
                "\"map(string)\"".to_string(),
                "{ env = \"dev\", team = \"core\" }".to_string(),
            ),
            _ => (
                "\"object({name=string, port=int})\"".to_string(),
                "{ name = \"svc\", port = 8080 }".to_string(),
            ),
        };
        let mut body = Vec::new();
        if self.r.random() < 0.7 {
            body.push(format!("\tdefault = {default}"));
        }
        let (a, b) = (self.word(), self.word());
        body.push(format!("\tdescription = \"The {a} {b} setting\""));
        if self.r.random() < 0.2 {
            body.push("\tnullable = true".to_string());
        }
        let label = if self.r.random() < 0.3 {
            format!("\"{name}\"")
        } else {
            name.clone()
        };
        self.configs.push(name);
        format!("config {label} {typ} {{\n{}\n}}\n", body.join("\n"))
    }

    fn local(&mut self) -> String {
        let name = self.name("Var");
        let v = self.expr(3);
        self.locals.push(name.clone());
        format!("{name} = {v}\n")
    }

    fn invoke(&mut self) -> String {
        let name = self.name("Result");
        let args = self.obj(1, 0);
        let mut opts = String::new();
        if self.r.random() < 0.2 && !self.resources.is_empty() {
            let parent = self.resources[self.r.pick(self.resources.len())].clone();
            opts = format!(", {{ parent = {parent} }}");
        }
        self.invokes.push(name.clone());
        let token = self.r.choice(INVOKES);
        format!("{name} = invoke(\"{token}\", {args}{opts})\n")
    }

    fn resource(&mut self) -> String {
        let name = self.name("");
        let (prov, types) = self.r.choice(PROVIDERS);
        let token = format!("{prov}:{}", self.r.choice(types));
        let mut lines = Vec::new();
        let mut opts = Vec::new();
        if self.r.random() < 0.3 {
            let k = self.r.random();
            if k < 0.4 {
                opts.push(format!("\t\trange = {}", self.r.randint(2, 5)));
            } else if k < 0.7 && !self.locals.is_empty() {
                let local = self.locals[self.r.pick(self.locals.len())].clone();
                opts.push(format!("\t\trange = {local}"));
            } else {
                opts.push(format!(
                    "\t\trange = {{for k, v in {} : k => v}}",
                    self.reference()
                ));
            }
        }
        if !self.resources.is_empty() && self.r.random() < 0.3 {
            let n = self.r.randint(1, 3);
            let deps: Vec<String> = (0..n)
                .map(|_| self.resources[self.r.pick(self.resources.len())].clone())
                .collect();
            opts.push(format!("\t\tdependsOn = [{}]", deps.join(", ")));
        }
        if !self.resources.is_empty() && self.r.random() < 0.15 {
            let parent = self.resources[self.r.pick(self.resources.len())].clone();
            opts.push(format!("\t\tparent = {parent}"));
        }
        if self.r.random() < 0.1 {
            opts.push("\t\tprotect = true".to_string());
        }
        if self.r.random() < 0.1 {
            let (a, b) = (self.prop(), self.prop());
            opts.push(format!("\t\tignoreChanges = [{a}, {b}]"));
        }
        if !opts.is_empty() {
            lines.push(format!("\toptions {{\n{}\n\t}}", opts.join("\n")));
        }
        let n = self.r.randint(2, 9);
        for key in self.keys(n) {
            let k = self.r.random();
            let v = if k < 0.45 {
                self.expr(2)
            } else if k < 0.75 {
                let depth = self.r.randint(1, 4) as i32;
                self.obj(depth, 1)
            } else if k < 0.85 {
                format!("[{}, {}]", self.obj(2, 1), self.obj(1, 1))
            } else if k < 0.92 {
                self.heredoc()
            } else if !opts.is_empty() {
                format!("\"{}-${{range.value}}-${{range.key}}\"", self.word())
            } else {
                self.string()
            };
            let mut line = format!("\t{key} = {v}");
            if self.r.random() < 0.1 && !v.starts_with("<<") {
                line.push_str(&format!(" // {}", self.word()));
            }
            lines.push(line);
        }
        let label = if self.r.random() < 0.2 {
            format!("\"{name}\"")
        } else {
            name.clone()
        };
        self.resources.push(name);
        format!(
            "resource {label} \"{token}\" {{\n{}\n}}\n",
            lines.join("\n")
        )
    }

    fn component(&mut self) -> String {
        let name = self.name("Component");
        let n = self.r.randint(1, 4);
        let lines: Vec<String> = self
            .keys(n)
            .into_iter()
            .map(|key| format!("\t{key} = {}", self.expr(2)))
            .collect();
        self.resources.push(name.clone());
        let w = self.word();
        format!(
            "component {name} \"./components/{w}\" {{\n{}\n}}\n",
            lines.join("\n")
        )
    }

    fn output(&mut self) -> String {
        let name = self.name("Out");
        let v = self.expr(2);
        if self.r.random() < 0.3 {
            let value = if v.contains('\n') {
                self.reference()
            } else {
                v
            };
            format!("output {name} {{ value = {value} }}\n")
        } else {
            format!("output {name} {{\n\tvalue = {v}\n}}\n")
        }
    }

    fn item(&mut self) -> String {
        let k = self.r.random();
        if k < 0.10 {
            self.config()
        } else if k < 0.22 {
            self.local()
        } else if k < 0.30 {
            self.invoke()
        } else if k < 0.80 {
            self.resource()
        } else if k < 0.85 {
            self.component()
        } else {
            self.output()
        }
    }
}

/// A program of at least `target` bytes (it stops after the item that
/// crosses the target).
fn generate(target: usize, seed: u64) -> String {
    let mut gen = Gen::new(seed);
    let mut out = String::with_capacity(target + 4096);
    for idx in 0..11 {
        let chunk = match idx {
            0..=5 => gen.config(),
            6..=8 => gen.local(),
            _ => gen.invoke(),
        };
        out.push_str(&chunk);
        out.push('\n');
    }
    while out.len() < target {
        if gen.r.random() < 0.3 {
            out.push_str(&gen.comment());
        }
        out.push_str(&gen.item());
        out.push('\n');
    }
    out
}
