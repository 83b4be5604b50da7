// Shared by the `memory` tests of `pcl_syntax` (parse) and `pcl` (check),
// which `include!` it after defining `SIZE`, `BOUND`, `KNOWN_OVER`,
// `run` and `mod shapes`.

const CHILD_ENV: &str = "PCL_MEMORY_SHAPE";

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn peak_rss_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

/// The resident set now, with the high-water mark reset to it (Linux 4.0
/// and later), so that the input's generation leaves no peak of its own;
/// else the high-water mark so far.
fn baseline_kib() -> Option<u64> {
    match std::fs::write("/proc/self/clear_refs", "5") {
        Ok(()) => status_kib("VmRSS:"),
        Err(_) => peak_rss_kib(),
    }
}

/// Runs every MEMORY shape in a fresh child process (in one process, a
/// later shape would reuse the memory an earlier one freed and measure
/// low) and checks each against [`BOUND`], or against its ceiling in
/// [`KNOWN_OVER`]: such a shape may not grow, and once it is under the
/// bound its entry must go.
fn run_all_shapes() {
    let exe = std::env::current_exe().unwrap();
    let mut failures = Vec::new();
    for (name, _) in KNOWN_OVER {
        if !shapes::MEMORY.iter().any(|(shape, _)| shape == name) {
            failures.push(format!("{name}: in KNOWN_OVER but not a MEMORY shape"));
        }
    }
    for (name, _) in shapes::MEMORY {
        let out = std::process::Command::new(&exe)
            .args(["--exact", "measure_one_shape", "--nocapture", "--test-threads=1"])
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
            assert!(peak_rss_kib().is_none(), "{name}: no measurement in {stdout}");
            eprintln!("no /proc/self/status: skipping {name}");
            continue;
        };
        let known = KNOWN_OVER.iter().find(|(n, _)| n == name).map(|(_, c)| *c);
        eprintln!("{name:<40} {ratio:5.1} bytes per source byte (bound {BOUND}, ceiling {known:?})");
        match known {
            None if ratio > BOUND => failures.push(format!("{name}: {ratio:.1} > {BOUND}")),
            Some(ceiling) if ratio > ceiling => {
                failures.push(format!("{name}: {ratio:.1} > its ceiling {ceiling}"))
            }
            Some(_) if ratio <= BOUND => failures.push(format!(
                "{name}: {ratio:.1} is under the bound now: remove it from KNOWN_OVER"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The child side: measures the shape named by the environment variable
/// and prints `ratio R`; without it, does nothing.
fn measure_named_shape() {
    let Ok(wanted) = std::env::var(CHILD_ENV) else {
        return;
    };
    let Some((_, generate)) = shapes::MEMORY.iter().find(|(name, _)| *name == wanted) else {
        panic!("unknown shape {wanted}");
    };
    // A small input of the same shape first: the program text the parse
    // runs is then resident before the baseline. A first parse faults
    // in about 1.5 MB of a debug build's code (0.4 MB of a release
    // build's) whatever the input's size, which is not memory per source
    // byte (it was the whole difference between the two builds' figures).
    run(generate(64));
    let text = sized(*generate);
    let Some(base) = baseline_kib() else {
        return;
    };
    let len = text.len();
    run(text);
    // The high-water mark outlives what `run` freed.
    let Some(peak) = peak_rss_kib() else {
        return;
    };
    let ratio = peak.saturating_sub(base) as f64 * 1024.0 / len as f64;
    println!("ratio {ratio:.2}");
}

/// The shape at about [`SIZE`] bytes (its unit's length decides the
/// repetition count).
fn sized(generate: fn(usize) -> String) -> String {
    let unit = generate(1024).len().saturating_sub(generate(0).len()) / 1024;
    generate(SIZE / unit.max(1))
}
