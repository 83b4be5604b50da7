//! Formatting against parsing, at 1×, 4× and 16× the input: the corpus
//! (`../shared/corpus`, every `.pp` file in a block of one file) or, when it
//! is absent, a generated program. `pcl_fmt::format` includes its parse,
//! and a lex of its output (the check that only whitespace changed), so
//! `fmt / parse` is the whole cost of formatting relative to a parse (the
//! goal: at most 2×), and the per-MB times show whether it stays linear.
//!
//! Unlike the other benches, this one runs with mimalloc, as `pcl` does.
//!
//! `cargo bench -p pcl_fmt --bench fmt`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use pcl_diagnostics::FileId;

/// The allocator of the `pcl` binary. With the system allocator the parse
/// inside `format` runs about three times slower than a parse on its own at
/// 1× (glibc's free lists after the formatter's large buffers), which
/// measures the allocator, not the formatter.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn corpus_text() -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/programs");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                files.push(path);
            }
        }
    }
    files.sort();
    // Each file in a block of its own, so that top-level attributes of
    // different files do not collide.
    let mut text = String::new();
    for file in files {
        text.push_str("file {\n");
        text.push_str(&std::fs::read_to_string(file).ok()?);
        text.push_str("\n}\n");
    }
    Some(text)
}

fn generated_text() -> String {
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!(
            "resource r{i} \"aws:s3/bucket:Bucket\" {{\n  bucket= \"b-${{i}}\"   # name\n  tags={{\n Name =\"x{i}\"\n    Env: \"dev\"\n  }}\n  list = [1,2, 3, -4 * (x+1)]\n}}\n\n"
        ));
    }
    text
}

/// The fastest of enough runs to fill about half a second.
fn time(f: impl Fn()) -> Duration {
    let mut best = Duration::MAX;
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || (started.elapsed() < Duration::from_millis(500) && runs < 50) {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn main() {
    let (what, base) = match corpus_text() {
        Some(text) => ("corpus", text),
        None => ("generated", generated_text()),
    };
    // The input must format, or the timings mean nothing.
    pcl_fmt::format(FileId(0), &base).expect("the input formats");
    println!("input: {what}, {} bytes at 1×\n", base.len());
    println!(
        "| input | bytes | lex (ms) | parse (ms) | fmt (ms) | fmt / parse | parse ms/MB | fmt ms/MB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for times in [1, 4, 16] {
        let text = base.repeat(times);
        let parse = time(|| {
            std::hint::black_box(pcl_syntax::parse(FileId(0), &text));
        });
        let lex = time(|| {
            std::hint::black_box(pcl_syntax::lex(&text));
        });
        let fmt = time(|| {
            std::hint::black_box(pcl_fmt::format(FileId(0), &text).unwrap());
        });
        let mb = text.len() as f64 / 1e6;
        let (l, p, f) = (
            lex.as_secs_f64() * 1e3,
            parse.as_secs_f64() * 1e3,
            fmt.as_secs_f64() * 1e3,
        );
        println!(
            "| {what} {times}× | {} | {l:.1} | {p:.1} | {f:.1} | {:.2} | {:.1} | {:.1} |",
            text.len(),
            f / p,
            p / mb,
            f / mb
        );
    }
}
