//! Scaling: does parse + check stay linear in the size of bad and big
//! inputs? For each generator of the robustness catalogue this times
//! `check_program` (parse, bind, type check) at sizes n, 2n and 4n and
//! prints the ratios; a linear generator doubles in time (ratio about 2;
//! the goal is at most about 2.5). It also prints the peak resident set
//! size of each run, measured by resetting the kernel's high-water mark
//! (`/proc/self/clear_refs`), where Linux allows it.
//!
//! A second table holds the growth rows of issues #13 and #18: each input
//! grows 1×, 4× and 16×, and the table prints the three times, the 16×/1×
//! ratio (16 is linear; the bound is 20), the peak memory the step added
//! per source byte at 16× (the kernel's high-water mark after the step
//! minus the resident set before it), the output size for the output rows
//! and the diagnostic count. The steps are a parse (`pcl::parse`), a check
//! (`check_program`), or one output of `pcl check` (`--format human`,
//! `short`, `json`, `sarif`, `github`, or `--emit model`) written to a
//! counting sink, timed alone after an untimed check. Each size runs in
//! three fresh child processes (this binary with `--growth-child ROW K`),
//! each timing one cold run, and the median is printed: its memory is not
//! hidden by pages an earlier run left mapped, and every size pays its own
//! page faults (see `growth_child`). A size is
//! skipped (`skip`) when the previous one, times 16, would exceed
//! [`GROWTH_BUDGET`]: a quadratic row would otherwise run for hours.
//!
//! Run with `cargo bench -p pcl --bench scaling` (release build). An
//! argument filters the rows of both tables by name; `SCALING_BASE=K`
//! multiplies every base size of the first table by K. The generated
//! program rows run `../shared/peers/gen_large.py` (with `python3`) and are
//! skipped with a note when it is absent.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use pcl::{check_program, BindPolicy, FileId, MemoryLoader};
use pcl_cli::formats::{github, human, json, sarif, short, ProgramResult, Report};

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

/// A step of `pcl` a growth row times.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Parse,
    Check,
    Human,
    Short,
    Json,
    Sarif,
    Github,
    Model,
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Parse => "parse",
            Step::Check => "check",
            Step::Human => "human",
            Step::Short => "short",
            Step::Json => "json",
            Step::Sarif => "sarif",
            Step::Github => "github",
            Step::Model => "model",
        }
    }
}

/// The next size of a growth row is skipped when the current one, times
/// 16 (a quadratic row's growth), would take longer than this.
const GROWTH_BUDGET: Duration = Duration::from_secs(45);

/// `(name, base n, step, generator)`: the rows grow n 1×, 4× and 16×.
type GrowthRow = (&'static str, usize, Step, Generator);

/// `x{i} = y{i}`: n undefined names, each with n visible names around it.
fn undefined_names(n: usize) -> Vec<(String, String)> {
    let mut t = String::new();
    for i in 0..n {
        let _ = writeln!(t, "x{i} = y{i}");
    }
    one(t)
}

/// n lines of `= = =`: n syntax errors.
fn syntax_errors(n: usize) -> Vec<(String, String)> {
    one("= = =\n".repeat(n))
}

/// n resources whose `name` is a list: n type mismatches.
fn type_mismatches(n: usize) -> Vec<(String, String)> {
    let mut t = String::new();
    for i in 0..n {
        let _ = writeln!(
            t,
            "resource w{i} \"tiny:index:Widget\" {{\n  name = [{i}]\n  kind = \"widget\"\n}}"
        );
    }
    one(t)
}

/// A program full of errors for the output rows: per unit, a type
/// mismatch, a misspelt attribute (a help line, a did-you-mean over the
/// resource's few properties) and a two-node cycle (related locations).
fn full_of_errors(n: usize) -> Vec<(String, String)> {
    let mut t = String::new();
    for i in 0..n {
        let _ = writeln!(
            t,
            "resource w{i} \"tiny:index:Widget\" {{\n  name = [{i}]\n  kind = \"widget\"\n  labelz = []\n}}\nc{i} = d{i}\nd{i} = c{i}"
        );
    }
    one(t)
}

/// n lines of 127-deep nested objects.
fn nested_objects(n: usize) -> Vec<(String, String)> {
    let mut t = String::new();
    for i in 0..n {
        let _ = writeln!(t, "a{i} = {}1{}", "{a = ".repeat(127), "}".repeat(127));
    }
    one(t)
}

/// A program generated by `../shared/peers/gen_large.py` of about n bytes;
/// no files when the script or `python3` is missing.
fn generated(n: usize) -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let script = root.join("shared/peers/gen_large.py");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gen-{n}.pp"));
    if !out.exists() {
        let ok = std::process::Command::new("python3")
            .arg(&script)
            .arg(&out)
            .arg("--mb")
            .arg(format!("{}", n as f64 / 1e6))
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            return Vec::new();
        }
    }
    std::fs::read_to_string(&out).map_or_else(|_| Vec::new(), one)
}

const GROWTH: &[GrowthRow] = &[
    ("undefined names", 2_400, Step::Check, undefined_names),
    ("syntax errors", 6_250, Step::Check, syntax_errors),
    ("type mismatches", 2_000, Step::Check, type_mismatches),
    ("syntax errors", 6_250, Step::Human, syntax_errors),
    ("errors", 500, Step::Human, full_of_errors),
    ("errors", 500, Step::Short, full_of_errors),
    ("errors", 500, Step::Json, full_of_errors),
    ("errors", 500, Step::Sarif, full_of_errors),
    ("errors", 500, Step::Github, full_of_errors),
    ("errors", 500, Step::Model, full_of_errors),
    ("syntax errors", 6_250, Step::Short, syntax_errors),
    ("syntax errors", 6_250, Step::Json, syntax_errors),
    ("syntax errors", 6_250, Step::Sarif, syntax_errors),
    ("syntax errors", 6_250, Step::Github, syntax_errors),
    ("syntax errors", 6_250, Step::Model, syntax_errors),
    ("`# c` comments", 20_000, Step::Parse, |n| {
        one("# c\n".repeat(n))
    }),
    ("one-line files", 2_000, Step::Check, |n| {
        (0..n)
            .map(|i| (format!("f{i:06}.pp"), format!("a{i} = {i}\n")))
            .collect()
    }),
    ("127-deep objects", 25, Step::Model, nested_objects),
    ("n-digit literal", 6_250, Step::Check, |n| {
        one(format!("a = {}\n", "1".repeat(n)))
    }),
    ("`$${` escapes", 250_000, Step::Parse, |n| {
        one(format!("a = \"{}\"\n", "$${".repeat(n / 3)))
    }),
    ("`$${` escapes", 250_000, Step::Check, |n| {
        one(format!("a = \"{}\"\n", "$${".repeat(n / 3)))
    }),
    ("`${a}` interpolations", 250_000, Step::Parse, |n| {
        one(format!("a = 1\nb = \"{}\"\n", "${a}".repeat(n / 4)))
    }),
    ("`${a}` interpolations", 250_000, Step::Check, |n| {
        one(format!("a = 1\nb = \"{}\"\n", "${a}".repeat(n / 4)))
    }),
    ("`[1,1,…]`", 250_000, Step::Parse, |n| {
        one(format!("a = [{}1]\n", "1,".repeat(n / 2)))
    }),
    ("`[1,1,…]`", 250_000, Step::Check, |n| {
        one(format!("a = [{}1]\n", "1,".repeat(n / 2)))
    }),
    ("generated program", 625_000, Step::Parse, generated),
    ("generated program", 625_000, Step::Check, generated),
];

/// The current resident set size, in bytes (Linux).
fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The peak resident set size since the last reset, in bytes (Linux).
fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A writer that only counts bytes.
#[derive(Default)]
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One run of `step` on `sources`: its time, the memory it added at its
/// peak, the diagnostic count and the bytes written.
fn growth_once(
    step: Step,
    sources: &[(String, String)],
    loader: &MemoryLoader,
) -> (Duration, Option<u64>, usize, usize) {
    let before = |()| {
        let reset = reset_peak();
        (reset, rss_bytes())
    };
    let added = |(reset, rss): (bool, Option<u64>)| match (reset, rss, peak_bytes()) {
        (true, Some(rss), Some(peak)) => Some(peak.saturating_sub(rss)),
        _ => None,
    };
    match step {
        Step::Parse => {
            let mark = before(());
            let start = Instant::now();
            let mut diags = 0;
            for (i, (_, text)) in sources.iter().enumerate() {
                let parsed = pcl::parse(FileId(i as u32), black_box(text));
                diags += parsed.diagnostics().len();
                drop(black_box(parsed));
            }
            let time = start.elapsed();
            (time, added(mark), diags, 0)
        }
        Step::Check => {
            let mark = before(());
            let start = Instant::now();
            let checked = check_program(black_box(sources), loader, &BindPolicy::strict());
            let diags = checked.diagnostics().len();
            drop(black_box(checked));
            let time = start.elapsed();
            (time, added(mark), diags, 0)
        }
        _ => {
            let checked = check_program(sources, loader, &BindPolicy::strict());
            let (program, sources, diagnostics) = checked.into_parts();
            let diags = diagnostics.len();
            let result = ProgramResult {
                path: "main".to_string(),
                program,
                sources,
                diagnostics,
            };
            let report = Report::new(vec![result], None, false);
            let mut out = Count::default();
            let mark = before(());
            let start = Instant::now();
            let written = match step {
                Step::Human => human::write(&report, &mut out, false),
                Step::Short => short::write(&report, &mut out),
                Step::Json => json::write(&report, &mut out),
                Step::Sarif => sarif::write(&report, &mut out),
                Step::Github => github::write(&report, &mut out),
                _ => pcl_cli::model::write(&report.programs, &mut out),
            };
            let time = start.elapsed();
            if let Err(e) = written {
                eprintln!("writing {}: {e}", step.name());
            }
            (time, added(mark), diags, out.0)
        }
    }
}

/// In a child process (this binary run with `--growth-child ROW K`): runs
/// growth row `ROW` at K times its base once and prints `time_ns
/// peak_bytes diags out_bytes` (its memory `-` when unknown). The parent
/// runs three such children per size and keeps the median time, so every
/// size is timed cold, in a fresh process: repeating a run inside one
/// process times the small sizes in memory the first run left mapped,
/// while the large ones (past glibc's trim and mmap thresholds) fault
/// their pages in again, which showed linear rows (in instructions) at
/// over 20× for 16× the input.
fn growth_child(row: usize, k: usize, loader: &MemoryLoader) {
    let Some(&(_, base, step, generate)) = GROWTH.get(row) else {
        return;
    };
    let sources = generate(base * k);
    let bytes = sources.iter().map(|(_, t)| t.len()).sum::<usize>();
    let first = growth_once(step, &sources, loader);
    let peak = first.1.map_or("-".to_string(), |p| p.to_string());
    println!(
        "{} {peak} {} {} {bytes}",
        first.0.as_nanos(),
        first.2,
        first.3
    );
}

/// One size of a growth row, measured in three fresh child processes (so
/// the memory figure is not hidden by pages an earlier run left mapped):
/// `(median time, added peak bytes, diagnostics, bytes written, source
/// bytes)`, the figures other than the time from the first child.
fn growth_sample(row: usize, k: usize) -> Option<(Duration, Option<u64>, usize, usize, usize)> {
    let first = growth_sample_once(row, k)?;
    let mut times = vec![first.0];
    times.extend((0..2).filter_map(|_| growth_sample_once(row, k).map(|s| s.0)));
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or(first.0);
    Some((median, first.1, first.2, first.3, first.4))
}

/// One child process of [`growth_sample`].
fn growth_sample_once(
    row: usize,
    k: usize,
) -> Option<(Duration, Option<u64>, usize, usize, usize)> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new(exe)
        .args(["--growth-child", &row.to_string(), &k.to_string()])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fields = text.split_whitespace();
    let time = Duration::from_nanos(fields.next()?.parse().ok()?);
    let peak = fields.next()?.parse().ok();
    let diags = fields.next()?.parse().ok()?;
    let written = fields.next()?.parse().ok()?;
    let bytes = fields.next()?.parse().ok()?;
    Some((time, peak, diags, written, bytes))
}

/// Prints the growth table.
fn growth_table(filter: Option<&str>) {
    println!();
    println!(
        "{:<30} {:>7} {:>8} {:>9} {:>9} {:>9} {:>7} {:>8} {:>8} {:>8}",
        "growth row (step)",
        "n",
        "MB(16×)",
        "t(1×) ms",
        "t(4×) ms",
        "t(16×) ms",
        "16×/1×",
        "B/B",
        "out MB",
        "diags"
    );
    for (row, &(name, base, step, generate)) in GROWTH.iter().enumerate() {
        let label = format!("{name} ({})", step.name());
        if filter.is_some_and(|f| !label.contains(f)) {
            continue;
        }
        if generate(base).is_empty() {
            println!("{label:<30} skipped: ../shared/peers/gen_large.py or python3 is missing");
            continue;
        }
        let mut times: Vec<Option<Duration>> = Vec::new();
        let mut last = None;
        for k in [1, 4, 16] {
            if times
                .last()
                .is_some_and(|t| t.is_none_or(|t| t * 16 > GROWTH_BUDGET))
            {
                times.push(None);
                continue;
            }
            let sample = growth_sample(row, k);
            times.push(sample.map(|s| s.0));
            last = sample;
        }
        let ms = |t: &Option<Duration>| match t {
            Some(t) => format!("{:.1}", t.as_secs_f64() * 1000.0),
            None => "skip".to_string(),
        };
        let ratio = match (times.first(), times.get(2)) {
            (Some(Some(a)), Some(Some(b))) => {
                format!("{:.1}", b.as_secs_f64() / a.as_secs_f64().max(1e-9))
            }
            _ => "-".to_string(),
        };
        let full = times.get(2).is_some_and(|t| t.is_some());
        let (mb, per_byte, out, diags) = match &last {
            Some((_, peak, diags, out, bytes)) if full => (
                *bytes as f64 / 1e6,
                peak.map_or("-".to_string(), |p| {
                    format!("{:.1}", p as f64 / (*bytes).max(1) as f64)
                }),
                if *out > 0 {
                    format!("{:.2}", *out as f64 / 1e6)
                } else {
                    "-".to_string()
                },
                diags.to_string(),
            ),
            _ => (0.0, "-".to_string(), "-".to_string(), "-".to_string()),
        };
        println!(
            "{:<30} {:>7} {:>8.2} {:>9} {:>9} {:>9} {:>7} {:>8} {:>8} {:>8}",
            label,
            base,
            mb,
            ms(times.first().unwrap_or(&None)),
            ms(times.get(1).unwrap_or(&None)),
            ms(times.get(2).unwrap_or(&None)),
            ratio,
            per_byte,
            out,
            diags
        );
    }
}

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
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--growth-child") {
        let number = |i: usize| args.get(at + i).and_then(|a| a.parse::<usize>().ok());
        if let (Some(row), Some(k)) = (number(1), number(2)) {
            let mut loader = MemoryLoader::new();
            for schema in SCHEMAS {
                let _ = loader.add(schema);
            }
            growth_child(row, k, &loader);
        }
        return;
    }
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
    growth_table(filter.as_deref());
}
