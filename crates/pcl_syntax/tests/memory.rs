//! Peak memory of a parse per source byte on dense inputs (#18 finding 7).
//! The growth of this process's peak resident set (`VmHWM`) over one
//! parse is compared with the input's size. One test in its own binary,
//! so no other test allocates meanwhile; skipped where `/proc` is absent.
//!
//! `$${` escapes in one string took 54 bytes per source byte (one 120-byte
//! flat part per escape token); they now merge as they are parsed. The
//! other bounds pin the figures of the boxed tree that the flat tree of
//! #15 replaced (it measures well below them: an expression is a 24-byte
//! arena node, an integer literal needs no allocation); the bench prints
//! them all (`--shapes`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl_diagnostics::FileId;

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `open` + `unit` × n + `close`, built without reallocation (so building
/// it sets no high-water mark of its own).
fn dense(open: &str, unit: &str, n: usize, close: &str) -> String {
    let mut text = String::with_capacity(open.len() + unit.len() * n + close.len());
    text.push_str(open);
    for _ in 0..n {
        text.push_str(unit);
    }
    text.push_str(close);
    text
}

fn bytes_per_source_byte(text: &str) -> Option<f64> {
    let base = peak_rss_kib()?;
    let parse = pcl_syntax::parse(FileId(0), text);
    let peak = peak_rss_kib()?;
    assert_eq!(parse.print().len(), text.len());
    drop(parse);
    Some(peak.saturating_sub(base) as f64 * 1024.0 / text.len() as f64)
}

/// A shape: name, generator, bound in bytes per source byte.
type Case = (&'static str, fn() -> String, f64);

fn cases() -> Vec<Case> {
    vec![
        (
            "escapes",
            || dense("a = \"", "$${", 1_000_000, "\"\n"),
            16.0,
        ),
        (
            "interpolations",
            || dense("a = \"", "${a}", 750_000, "\"\n"),
            45.0,
        ),
        ("list", || dense("a = [", "1,", 1_500_000, "1]\n"), 70.0),
    ]
}

const CHILD_ENV: &str = "PCL_SYNTAX_MEMORY_SHAPE";

/// Each shape is measured in a fresh process (this test binary re-run on
/// [`measure_one_shape`]): in one process, a later shape would reuse the
/// memory an earlier one freed and measure low.
#[test]
fn dense_inputs_stay_within_their_memory_bounds() {
    let exe = std::env::current_exe().unwrap();
    let mut failures = Vec::new();
    for (name, _, bound) in cases() {
        let out = std::process::Command::new(&exe)
            .args([
                "--exact",
                "measure_one_shape",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, name)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let Some(ratio) = stdout
            .lines()
            .find_map(|l| l.split("ratio ").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|r| r.parse::<f64>().ok())
        else {
            assert!(
                peak_rss_kib().is_none(),
                "{name}: no measurement in {stdout}"
            );
            eprintln!("no /proc/self/status: skipping {name}");
            continue;
        };
        eprintln!("{name:<16} {ratio:.1} bytes per source byte (bound {bound})");
        if ratio > bound {
            failures.push(format!(
                "{name}: {ratio:.1} bytes per source byte, bound {bound}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The child side: measures the shape named by the environment variable
/// and prints `ratio R`; without it, does nothing.
#[test]
fn measure_one_shape() {
    let Ok(wanted) = std::env::var(CHILD_ENV) else {
        return;
    };
    let Some((_, generate, _)) = cases().into_iter().find(|(name, _, _)| *name == wanted) else {
        panic!("unknown shape {wanted}");
    };
    let text = generate();
    if let Some(ratio) = bytes_per_source_byte(&text) {
        println!("ratio {ratio:.2}");
    }
}
