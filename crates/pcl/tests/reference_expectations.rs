//! Reference expectations: outcomes that Pulumi's own Go tests state for PCL
//! source text, machine-checked against pcl.
//!
//! Every `testdata/reference/cases/<name>.expect` is one record (format in
//! `testdata/reference/README.md`). It names its source (the pulumi commit,
//! test file and test), the program (`<name>.pp`, a directory `<name>/`, or
//! a program of the shared corpus), the schema folders and policy flags,
//! and what the reference states: the verdict (`ok` or `error`), the number
//! of diagnostics or errors, and, per stated diagnostic, its severity,
//! position, message (a substring of pcl's summary and detail) or, where
//! pcl words it differently, the pcl code with the reference's text kept
//! beside it. A record whose schemas or program are unavailable is skipped
//! and counted.
//!
//! A failing aspect passes only when the record lists it as a known
//! deviation with a reason; a listed deviation that no longer fails is a
//! failure too, so the list stays honest. Prints one line per disagreement
//! and deviation, a count per source file and
//! `N reference expectations: X agree, D known deviations, S skipped,
//! F disagree`; fails on any disagreement and when fewer records than
//! [`MIN_RECORDS`] are found. `REFERENCE_VERBOSE=1` prints every diagnostic
//! pcl reports for each record.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pcl::{check_directory, check_program, BindPolicy, CachingLoader, Checked, DirLoader, Program};

/// The number of records written; an emptied or truncated directory fails.
const MIN_RECORDS: usize = 197;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `../shared/corpus`: absent, the records that need it are skipped
/// locally and fail under `PCL_REQUIRE_CORPUS=1` (`pcl_testkit`).
fn corpus() -> PathBuf {
    let dir = repo().join("../shared/corpus");
    // Panics when the corpus is required and absent.
    let _ = pcl_testkit::shared("corpus/manifest.tsv", "reference expectations");
    dir
}

/// A 1-based `(line, column)`.
type LineCol = (u32, u32);

/// One diagnostic the reference states.
#[derive(Default, Debug)]
struct StatedDiag {
    severity: Option<String>,
    /// `(line, column)` of the start and optionally of the end, as the
    /// reference states them (see [`reference_position`]).
    at: Option<(LineCol, Option<LineCol>)>,
    /// Byte offsets of the start and end.
    bytes: Option<(u32, u32)>,
    /// Every one must be in pcl's text.
    messages: Vec<String>,
    /// pcl's summary must be exactly this (the reference asserts equality).
    summary: Option<String>,
    code: Option<String>,
    reference_message: Option<String>,
}

#[derive(Default, Debug)]
struct Record {
    name: String,
    source: String,
    schemas: Vec<String>,
    flags: String,
    file: String,
    program: Option<String>,
    verdict: Option<String>,
    /// `(n, at_least)`: exactly `n` diagnostics, or at least `n`.
    count: Option<(usize, bool)>,
    errors: Option<usize>,
    diags: Vec<StatedDiag>,
    /// `(node, type, resolved)`: `resolved` compares the type with its
    /// outputs resolved (the reference's `ResolveOutputs`).
    types: Vec<(String, String, bool)>,
    deviations: BTreeMap<String, String>,
    skip: Option<String>,
    /// The reference states the diagnostics in this order.
    ordered: bool,
}

fn parse_pos(s: &str) -> Result<(u32, u32), String> {
    let (l, c) = s
        .split_once(':')
        .ok_or_else(|| format!("bad position {s:?}"))?;
    Ok((
        l.trim().parse().map_err(|_| format!("bad line {l:?}"))?,
        c.trim().parse().map_err(|_| format!("bad column {c:?}"))?,
    ))
}

fn parse_record(name: &str, text: &str) -> Result<Record, String> {
    let mut r = Record {
        name: name.to_string(),
        file: "main.pp".to_string(),
        ..Record::default()
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("line {}: expected `key: value`", n + 1))?;
        let value = value.strip_prefix(' ').unwrap_or(value).to_string();
        let current = |r: &mut Record| -> Result<usize, String> {
            if r.diags.is_empty() {
                Err(format!("line {}: `{key}` before any `diag:`", n + 1))
            } else {
                Ok(r.diags.len() - 1)
            }
        };
        match key.trim() {
            "source" => r.source = value,
            "schemas" => r.schemas = value.split_whitespace().map(str::to_string).collect(),
            "flags" => r.flags = value,
            "file" => r.file = value,
            "program" => r.program = Some(value),
            "verdict" => {
                if value != "ok" && value != "error" {
                    return Err(format!("line {}: verdict is ok or error", n + 1));
                }
                r.verdict = Some(value);
            }
            "count" => {
                let (at_least, n) = match value.strip_prefix(">=") {
                    Some(rest) => (true, rest.trim()),
                    None => (false, value.as_str()),
                };
                r.count = Some((n.parse().map_err(|_| "bad count".to_string())?, at_least));
            }
            "errors" => r.errors = Some(value.parse().map_err(|_| "bad errors".to_string())?),
            "type" | "resolved-type" => {
                let (node, ty) = value
                    .split_once('=')
                    .ok_or_else(|| format!("line {}: `type: NODE = TYPE`", n + 1))?;
                r.types.push((
                    node.trim().to_string(),
                    ty.trim().to_string(),
                    key.trim() == "resolved-type",
                ));
            }
            "diag" => r.diags.push(StatedDiag::default()),
            "severity" => {
                let i = current(&mut r)?;
                r.diags[i].severity = Some(value);
            }
            "at" => {
                let i = current(&mut r)?;
                let (start, end) = match value.split_once('-') {
                    Some((s, e)) => (parse_pos(s)?, Some(parse_pos(e)?)),
                    None => (parse_pos(&value)?, None),
                };
                r.diags[i].at = Some((start, end));
            }
            "bytes" => {
                let i = current(&mut r)?;
                let (a, b) = value
                    .split_once('-')
                    .ok_or_else(|| format!("line {}: `bytes: START-END`", n + 1))?;
                let num = |x: &str| {
                    x.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("bad byte {x:?}"))
                };
                r.diags[i].bytes = Some((num(a)?, num(b)?));
            }
            "message" => {
                let i = current(&mut r)?;
                r.diags[i].messages.push(value);
            }
            "summary" => {
                let i = current(&mut r)?;
                r.diags[i].summary = Some(value);
            }
            "code" => {
                let i = current(&mut r)?;
                r.diags[i].code = Some(value);
            }
            "reference-message" => {
                let i = current(&mut r)?;
                r.diags[i].reference_message = Some(value);
            }
            "deviation" => {
                let (aspect, reason) = value
                    .split_once(':')
                    .ok_or_else(|| format!("line {}: `deviation: ASPECT: reason`", n + 1))?;
                if reason.trim().is_empty() {
                    return Err(format!("line {}: a deviation needs a reason", n + 1));
                }
                r.deviations
                    .insert(aspect.trim().to_string(), reason.trim().to_string());
            }
            "skip" => r.skip = Some(value),
            "ordered" => r.ordered = value == "yes",
            "note" => {}
            other => return Err(format!("line {}: unknown key `{other}`", n + 1)),
        }
    }
    if r.source.is_empty() {
        return Err("no `source:`".into());
    }
    if !r.source.starts_with("pulumi/pulumi@") {
        return Err("`source:` must start with pulumi/pulumi@<commit>".into());
    }
    if r.verdict.is_none() && r.count.is_none() {
        return Err("no `verdict:` (nor `count:`)".into());
    }
    for (i, d) in r.diags.iter().enumerate() {
        if d.reference_message.is_some() && d.code.is_none() && d.messages.is_empty() {
            return Err(format!(
                "diag{}: a reference-message needs a code or message to compare",
                i + 1
            ));
        }
        if d.severity.is_none()
            && d.at.is_none()
            && d.bytes.is_none()
            && d.messages.is_empty()
            && d.summary.is_none()
            && d.code.is_none()
        {
            return Err(format!("diag{}: states nothing", i + 1));
        }
    }
    Ok(r)
}

/// The source file of a record's `source:` line (`pkg/.../x_test.go`).
fn source_file(source: &str) -> String {
    source.split_whitespace().nth(1).unwrap_or("?").to_string()
}

fn schema_dir(s: &str) -> PathBuf {
    match s.strip_prefix("corpus/") {
        Some(rest) => corpus().join("schemas").join(rest),
        None => repo().join(s),
    }
}

enum Run {
    Skipped(String),
    Checked(Box<Checked<Program>>),
    Failed(String),
}

fn run(record: &Record, cases: &Path) -> Run {
    if let Some(reason) = &record.skip {
        return Run::Skipped(reason.clone());
    }
    let dirs: Vec<PathBuf> = record.schemas.iter().map(|s| schema_dir(s)).collect();
    if let Some(missing) = dirs.iter().find(|d| !d.is_dir()) {
        return Run::Skipped(format!("schema folder {} is absent", missing.display()));
    }
    let policy = match BindPolicy::from_flags(&record.flags) {
        Ok(p) => p,
        Err(e) => return Run::Failed(format!("flags: {e}")),
    };
    // The builtin `pulumi` package (StackReference, providers) comes with
    // the caching layer, as in every pcl check.
    let loader = CachingLoader::new(DirLoader::new(dirs));
    let program = match &record.program {
        Some(p) => match p.strip_prefix("corpus/") {
            Some(rest) => corpus().join(rest),
            None => cases.join(p),
        },
        None => {
            let file = cases.join(format!("{}.pp", record.name));
            if file.is_file() {
                file
            } else {
                cases.join(&record.name)
            }
        }
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if program.is_dir() {
            check_directory(&program, &loader, &policy)
        } else {
            std::fs::read_to_string(&program)
                .map_err(|e| format!("{}: {e}", program.display()))
                .map(|text| check_program(&[(record.file.clone(), text)], &loader, &policy))
        }
    }));
    match result {
        Ok(Ok(checked)) => Run::Checked(Box::new(checked)),
        Ok(Err(e)) if !program.exists() => Run::Skipped(format!("program absent: {e}")),
        Ok(Err(e)) => Run::Failed(e),
        Err(_) => Run::Failed("pcl panicked".into()),
    }
}

/// A pcl position (1-based line and column) as the reference states it.
/// Pulumi's parser starts HCL at `hcl.Pos{}` (line 0, column 0), so its
/// lines are one less than pcl's, and so are its columns on the first
/// line; later lines start again at column 1.
fn reference_position(line: u32, column: u32) -> (u32, u32) {
    if line <= 1 {
        (0, column.saturating_sub(1))
    } else {
        (line - 1, column)
    }
}

/// The aspects of `stated` that `actual` fails.
fn diag_failures(
    index: usize,
    stated: &StatedDiag,
    actual: &pcl::Diagnostic,
    checked: &Checked<Program>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let tag = format!("diag{}", index + 1);
    if let Some(sev) = &stated.severity {
        let got = actual.severity.as_str();
        if got != sev {
            out.push((format!("{tag}.severity"), format!("pcl says {got}")));
        }
    }
    if let Some((start, end)) = stated.bytes {
        let range = actual.span.range;
        if (range.start, range.end) != (start, end) {
            out.push((
                format!("{tag}.bytes"),
                format!("pcl reports bytes {}-{}", range.start, range.end),
            ));
        }
    }
    if let Some((start, end)) = stated.at {
        let file = checked.sources().get(actual.span.file);
        let pos = |offset: u32| {
            file.map(|f| f.position(offset))
                .map(|p| reference_position(p.line, p.column))
        };
        let got_start = pos(actual.span.range.start);
        let got_end = pos(actual.span.range.end);
        let same = got_start == Some(start) && end.is_none_or(|e| got_end == Some(e));
        if !same {
            let show = |p: Option<(u32, u32)>| p.map_or("?".into(), |(l, c)| format!("{l}:{c}"));
            out.push((
                format!("{tag}.at"),
                format!("pcl reports {}-{}", show(got_start), show(got_end)),
            ));
        }
    }
    let text = format!(
        "{}{}",
        actual.summary,
        actual
            .detail()
            .map(|d| format!(" | {d}"))
            .unwrap_or_default()
    );
    // Names in backticks are one declared deviation (`names-in-backticks`).
    let text = pcl_testkit::without_quotes(&text);
    if let Some(summary) = &stated.summary {
        if pcl_testkit::without_quotes(&actual.summary) != pcl_testkit::without_quotes(summary) {
            out.push((
                format!("{tag}.summary"),
                format!("pcl says {:?}", actual.summary),
            ));
        }
    }
    for message in &stated.messages {
        if !text.contains(pcl_testkit::without_quotes(message).as_str()) {
            out.push((
                format!("{tag}.message"),
                format!("pcl says [{}] {text:?}", actual.code.as_str()),
            ));
        }
    }
    if let Some(code) = &stated.code {
        if actual.code.as_str() != code {
            out.push((
                format!("{tag}.code"),
                format!("pcl says [{}] {text:?}", actual.code.as_str()),
            ));
        }
    }
    out
}

/// Every failing aspect of a checked record: `(aspect, what pcl did)`.
fn failures(record: &Record, checked: &Checked<Program>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let diags = checked.diagnostics();
    let errors = checked.errors().count();
    let summary = || {
        diags
            .iter()
            .map(|d| format!("[{}] {}", d.code.as_str(), d.summary))
            .collect::<Vec<_>>()
            .join("; ")
    };
    match record.verdict.as_deref() {
        Some("ok") if errors > 0 => out.push((
            "verdict".into(),
            format!("pcl reports errors: {}", summary()),
        )),
        Some("error") if errors == 0 => out.push(("verdict".into(), "pcl reports no error".into())),
        _ => {}
    }
    if let Some((n, at_least)) = record.count {
        let fits = if at_least {
            diags.len() >= n
        } else {
            diags.len() == n
        };
        if !fits {
            out.push((
                "count".into(),
                format!("pcl reports {} diagnostics: {}", diags.len(), summary()),
            ));
        }
    }
    if let Some(n) = record.errors {
        if errors != n {
            out.push((
                "errors".into(),
                format!("pcl reports {errors} errors: {}", summary()),
            ));
        }
    }
    // Each stated diagnostic takes the unused actual one it fits best.
    let mut used = vec![false; diags.len()];
    let mut matched = Vec::new();
    for (i, stated) in record.diags.iter().enumerate() {
        let best = diags
            .iter()
            .enumerate()
            .filter(|(j, _)| !used[*j])
            .map(|(j, d)| (j, diag_failures(i, stated, d, checked)))
            .min_by_key(|(_, f)| f.len());
        match best {
            Some((j, f)) => {
                used[j] = true;
                matched.push(j);
                out.extend(f);
            }
            None => out.push((
                format!("diag{}", i + 1),
                "pcl reports no such diagnostic".into(),
            )),
        }
    }
    if record.ordered && matched.windows(2).any(|w| w[0] > w[1]) {
        out.push((
            "order".into(),
            format!("pcl reports the stated diagnostics as its {matched:?}"),
        ));
    }
    for (node, ty, resolved) in &record.types {
        let program = checked.value();
        match program.nodes().iter().find(|n| n.name == *node) {
            Some(n) => {
                // An output's type is its value's.
                let ty_of = match &n.kind {
                    pcl::NodeKind::Output(o) => o.value.as_ref().map(|v| v.ty().clone()),
                    _ => None,
                }
                .unwrap_or_else(|| n.ty.clone());
                let ty_of = if *resolved {
                    pcl::types::resolve_outputs(&ty_of)
                } else {
                    ty_of
                };
                let got = ty_of
                    .pretty()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                if &got != ty {
                    out.push((format!("type.{node}"), format!("pcl types it {got}")));
                }
            }
            None => out.push((format!("type.{node}"), "no such node".into())),
        }
    }
    out
}

#[test]
fn reference_expectations() {
    let cases = repo().join("testdata/reference/cases");
    let mut names: Vec<String> = std::fs::read_dir(&cases)
        .expect("testdata/reference/cases")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".expect").map(str::to_string)
        })
        .collect();
    names.sort();
    // `REFERENCE_VERBOSE=1` prints every diagnostic pcl reports.
    let verbose = std::env::var_os("REFERENCE_VERBOSE").is_some();
    let (mut agree, mut deviating, mut skipped) = (0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    let mut per_source: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for name in &names {
        let text = std::fs::read_to_string(cases.join(format!("{name}.expect"))).unwrap();
        let record = match parse_record(name, &text) {
            Ok(r) => r,
            Err(e) => {
                disagreements.push(format!("{name}: bad record: {e}"));
                continue;
            }
        };
        let tally = per_source.entry(source_file(&record.source)).or_default();
        let checked = match run(&record, &cases) {
            Run::Skipped(reason) => {
                skipped += 1;
                tally[2] += 1;
                println!("skipped {name}: {reason}");
                continue;
            }
            Run::Failed(e) => {
                tally[3] += 1;
                disagreements.push(format!("{name}: {e}"));
                continue;
            }
            Run::Checked(c) => c,
        };
        if verbose {
            for d in checked.diagnostics() {
                println!("  {name}: {}", pcl::render_short(d, checked.sources()));
            }
        }
        let fails = failures(&record, &checked);
        let mut unlisted = Vec::new();
        let mut listed = Vec::new();
        for (aspect, what) in &fails {
            // A whole-diagnostic deviation (`diag2`) covers its aspects.
            let whole = aspect.split('.').next().unwrap_or(aspect);
            match record
                .deviations
                .get(aspect)
                .or_else(|| record.deviations.get(whole))
            {
                Some(reason) => listed.push(format!("{aspect} ({what}) — {reason}")),
                None => unlisted.push(format!("{aspect}: {what}")),
            }
        }
        let stale: Vec<&String> = record
            .deviations
            .keys()
            .filter(|k| {
                !fails
                    .iter()
                    .any(|(a, _)| a == *k || a.split('.').next() == Some(k.as_str()))
            })
            .collect();
        if !unlisted.is_empty() || !stale.is_empty() {
            tally[3] += 1;
            let mut msg = format!("DISAGREE {name} [{}]", record.source);
            for u in &unlisted {
                msg.push_str(&format!("\n    {u}"));
            }
            for s in &stale {
                msg.push_str(&format!("\n    deviation `{s}` is listed but pcl agrees"));
            }
            disagreements.push(msg);
        } else if !listed.is_empty() {
            deviating += 1;
            tally[1] += 1;
            println!("deviation {name}: {}", listed.join("; "));
        } else {
            agree += 1;
            tally[0] += 1;
        }
    }
    println!("by source file (agree / known deviations / skipped / disagree):");
    for (file, [a, d, s, f]) in &per_source {
        println!("  {file}: {a} / {d} / {s} / {f}");
    }
    for d in &disagreements {
        println!("{d}");
    }
    println!(
        "{} reference expectations: {agree} agree, {deviating} known deviations, {skipped} skipped, {} disagree",
        names.len(),
        disagreements.len()
    );
    assert!(
        names.len() >= MIN_RECORDS,
        "only {} records in testdata/reference/cases, expected at least {MIN_RECORDS}",
        names.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} reference expectations disagree",
        disagreements.len()
    );
}
