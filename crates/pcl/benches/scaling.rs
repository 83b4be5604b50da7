//! Scaling: does parse + check stay linear in the size of bad and big
//! inputs? For each generator of the robustness catalogue this times
//! `check_program` (parse, bind, type check) at sizes n, 2n and 4n and
//! prints the ratios; a linear generator doubles in time (ratio about 2;
//! the goal is at most about 2.5). It also prints the peak resident set
//! size of each run, measured by resetting the kernel's high-water mark
//! (`/proc/self/clear_refs`), where Linux allows it.
//!
//! Run with `cargo bench -p pcl --bench scaling` (release build). An
//! argument filters the generators by name; `SCALING_BASE=K` multiplies
//! every base size by K.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use pcl::{check_program, BindPolicy, MemoryLoader};

const SCHEMAS: [&str; 2] = [
    include_str!("../../../testdata/schemas/tiny-1.0.0.json"),
    include_str!("../../../testdata/robustness/schemas/wide-1.0.0.json"),
];

type Generator = fn(usize) -> Vec<(String, String)>;

fn one(text: String) -> Vec<(String, String)> {
    vec![("main.pp".to_string(), text)]
}

/// `(name, base n, generator)`.
const GENERATORS: &[(&str, usize, Generator)] = &[
    ("chain of locals", 20_000, |n| {
        let mut t = String::from("a0 = 0\n");
        for i in 1..n {
            let _ = writeln!(t, "a{i} = a{} + 1", i - 1);
        }
        one(t)
    }),
    ("cycle of locals", 20_000, |n| {
        let mut t = format!("a0 = a{}\n", n - 1);
        for i in 1..n {
            let _ = writeln!(t, "a{i} = a{}", i - 1);
        }
        one(t)
    }),
    ("diagnostic storm", 20_000, |n| {
        let mut t = String::from("v = [\n");
        for _ in 0..n {
            t.push_str("  nope,\n");
        }
        t.push_str("]\n");
        one(t)
    }),
    ("huge single line", 2_000_000, |n| {
        one(format!("a = \"{}\" + nope\n", "x".repeat(n)))
    }),
    ("deep legal nesting", 200, |n| {
        // n attributes, each nested 100 levels deep (under the limit).
        let mut t = String::new();
        for i in 0..n {
            let _ = writeln!(t, "a{i} = {}1{}", "[{k = ".repeat(50), "}]".repeat(50));
        }
        one(t)
    }),
    ("many resources", 2_000, |n| {
        let mut t = String::new();
        for i in 0..n {
            let _ = writeln!(
                t,
                "resource w{i} \"tiny:index:Widget\" {{\n  name = \"w{i}\"\n  kind = \"widget\"\n  tags = {{ a = \"b\" }}\n}}"
            );
        }
        one(t)
    }),
    ("union-heavy resources", 500, |n| {
        let mut t = String::new();
        for i in 0..n {
            let _ = writeln!(
                t,
                "resource c{i} \"wide:index:Canvas\" {{\n  shape = {{ kind = \"k\", p{} = {i} }}\n  choice = \"e1v2\"\n}}",
                i % 30
            );
        }
        one(t)
    }),
    ("wide object", 20_000, |n| {
        let mut t = String::from("o = {\n");
        for i in 0..n {
            let _ = writeln!(t, "  k{i} = {i}");
        }
        t.push_str("}\nv = o.k1\n");
        one(t)
    }),
    ("long operator chain", 20_000, |n| {
        one(format!("a = 1{}\n", " + 1".repeat(n)))
    }),
    ("long traversal chain", 20_000, |n| {
        one(format!("x = {{}}\na = x{}\n", ".b".repeat(n)))
    }),
    ("many files", 200, |n| {
        (0..n)
            .map(|f| {
                let mut t = String::new();
                for i in 0..10 {
                    let _ = writeln!(t, "f{f}_{i} = \"{f}\"");
                }
                (format!("f{f:05}.pp"), t)
            })
            .collect()
    }),
    ("garbage", 200_000, |n| {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet = b"abc = { } [ ] ( ) \" ${ } %{ <<EOT\n# /* */ . , : ? ! + 1 2.5e9 \\";
        let bytes: Vec<u8> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet
                    .get((state % alphabet.len() as u64) as usize)
                    .copied()
                    .unwrap_or(b' ')
            })
            .collect();
        one(String::from_utf8_lossy(&bytes).into_owned())
    }),
];

/// Resets the peak RSS (Linux); false where that is not possible.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The peak RSS since the last reset, in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Median time of `runs` checks, the peak RSS of one, and the diagnostic
/// count.
fn measure(
    sources: &[(String, String)],
    loader: &MemoryLoader,
    runs: usize,
) -> (Duration, Option<f64>, usize) {
    let mut times = Vec::new();
    let mut peak = None;
    let mut diags = 0;
    for _ in 0..runs {
        let can_reset = reset_peak();
        let start = Instant::now();
        let checked = check_program(black_box(sources), loader, &BindPolicy::strict());
        diags = checked.diagnostics().len();
        drop(black_box(checked));
        times.push(start.elapsed());
        if can_reset {
            peak = peak_mib();
        }
    }
    times.sort();
    (times[times.len() / 2], peak, diags)
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let scale: usize = std::env::var("SCALING_BASE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut loader = MemoryLoader::new();
    for schema in SCHEMAS {
        if let Err(e) = loader.add(schema) {
            eprintln!("fixture schema: {e}");
            std::process::exit(2);
        }
    }
    println!(
        "{:<24} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>8} {:>8} {:>7}",
        "generator",
        "n",
        "MB",
        "t(n) ms",
        "t(2n) ms",
        "t(4n) ms",
        "2n/n",
        "4n/2n",
        "RSS(4n)",
        "MiB/MB",
        "diags"
    );
    for (name, base, generate) in GENERATORS {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let n = base * scale;
        let mut row = Vec::new();
        let mut bytes = 0;
        let mut last = (Duration::ZERO, None, 0);
        for k in [1, 2, 4] {
            let sources = generate(n * k);
            bytes = sources.iter().map(|(_, t)| t.len()).sum::<usize>();
            // Warm up once (schema decoding, allocator), then measure.
            let _ = measure(&sources, &loader, 1);
            last = measure(&sources, &loader, 3);
            row.push(last.0);
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let ratio = |a: Duration, b: Duration| ms(b) / ms(a).max(1e-6);
        let mb = bytes as f64 / 1e6;
        let (rss, per_mb) = match last.1 {
            Some(p) => (format!("{p:.1}"), format!("{:.1}", p / mb.max(1e-6))),
            None => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{:<24} {:>9} {:>9.2} {:>9.1} {:>9.1} {:>9.1} {:>7.2} {:>7.2} {:>8} {:>8} {:>7}",
            name,
            n,
            mb / 4.0,
            ms(row[0]),
            ms(row[1]),
            ms(row[2]),
            ratio(row[0], row[1]),
            ratio(row[1], row[2]),
            rss,
            per_mb,
            last.2
        );
    }
}
