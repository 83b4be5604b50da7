//! The mistakes catalogue: every program under `testdata/mistakes` holds
//! exactly one deliberate mistake, named by its first line,
//! `# mistake: line N: CODE: what`. Bound against the fixture schemas in
//! `testdata/schemas`, each must give exactly one diagnostic, an error or
//! a warning with code CODE, starting on line N: one mistake, one
//! diagnostic, at the mistake. The whole rendered output (the renderer of
//! the `check` goldens) is compared with the sibling `.diag` file
//! (`UPDATE_EXPECT=1` rewrites it).
//!
//! A second test bounds the work of did-you-mean: 10,000 undefined names in
//! a program with 10,000 locals compare a bounded number of candidates per
//! error, not every visible name.

use std::path::{Path, PathBuf};

use pcl_binder::{check_program, BindPolicy, Checked, Program};
use pcl_diagnostics::{render, RenderOptions, Severity};
use pcl_schema::{CachingLoader, DirLoader};

const HEADER: &str =
    "# @generated — regenerate with UPDATE_EXPECT=1 cargo test -p pcl_binder --test mistakes\n\
     # provenance: pcl's own output, not an outside source's; a change is reviewed by hand before it is committed\n";

/// Cases that do not give one diagnostic at their mistake yet, each with
/// the reason (none today).
/// The test asserts they still fail, so a fix shows up as a failure that
/// says to remove the case from this list: the list can only shrink.
const PENDING: &[(&str, &str)] = &[];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.pp` cases of `dir`, in name order.
fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "pp"));
    paths.sort();
    paths
}

/// A case's file name and text.
fn read_case(path: &Path) -> (String, String) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("main.pp")
        .to_string();
    (name, std::fs::read_to_string(path).unwrap_or_default())
}

/// `(line, code)` from the case's first line.
fn expected(text: &str) -> Option<(u32, String)> {
    let rest = text.lines().next()?.strip_prefix("# mistake: line ")?;
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.trim().parse().ok()?;
    let code = parts.next()?.trim().to_string();
    Some((line, code))
}

#[test]
fn one_mistake_one_diagnostic() {
    let dir = repo().join("testdata/mistakes");
    let loader = CachingLoader::new(DirLoader::new([repo().join("testdata/schemas")]));
    let update = pcl_testkit::updating();
    let paths = cases(&dir);
    assert!(paths.len() >= 40, "only {} cases", paths.len());
    let mut failures = Vec::new();
    let mut pending_failed = Vec::new();
    for path in &paths {
        let (name, text) = read_case(path);
        let Some((line, code)) = expected(&text) else {
            failures.push(format!(
                "{name}: no `# mistake: line N: CODE: …` first line"
            ));
            continue;
        };
        let checked = check_program(&[(name.clone(), text)], &loader, &BindPolicy::strict());
        let diags = checked.diagnostics();
        let mut rendered = String::new();
        for d in diags {
            rendered.push('\n');
            rendered.push_str(&render(
                d,
                checked.sources(),
                RenderOptions { color: false },
            ));
        }
        let actual = format!("{HEADER}{rendered}");
        let golden = path.with_extension("diag");
        if update {
            let _ = std::fs::write(&golden, &actual);
        } else if std::fs::read_to_string(&golden).ok().as_deref() != Some(actual.as_str()) {
            failures.push(format!(
                "{name}: output differs from {}:\n{actual}",
                golden.display()
            ));
        }
        let problems: Vec<_> = diags
            .iter()
            .filter(|d| matches!(d.severity, Severity::Error | Severity::Warning))
            .collect();
        let summary: Vec<String> = diags
            .iter()
            .map(|d| {
                let at = checked
                    .sources()
                    .get(d.span.file)
                    .map(|f| f.position(d.span.range.start).line);
                format!(
                    "{:?} {} at line {:?}: {}",
                    d.severity, d.code, at, d.summary
                )
            })
            .collect();
        let pending = PENDING.iter().any(|(p, _)| *p == name);
        let wrong = |failures: &mut Vec<String>, pending_failed: &mut Vec<String>, msg: String| {
            if pending {
                pending_failed.push(name.clone());
            } else {
                failures.push(msg);
            }
        };
        let [only] = problems.as_slice() else {
            wrong(
                &mut failures,
                &mut pending_failed,
                format!(
                    "{name}: {} diagnostics, expected one {code} at line {line}:\n  {}",
                    diags.len(),
                    summary.join("\n  ")
                ),
            );
            continue;
        };
        let at = checked
            .sources()
            .get(only.span.file)
            .map(|f| f.position(only.span.range.start).line);
        if only.code.as_str() != code || at != Some(line) || diags.len() != 1 {
            wrong(
                &mut failures,
                &mut pending_failed,
                format!(
                    "{name}: expected one {code} at line {line}, got:\n  {}",
                    summary.join("\n  ")
                ),
            );
        }
    }
    for (p, why) in PENDING {
        if !pending_failed.iter().any(|f| f == p) {
            failures.push(format!(
                "{p} now gives one diagnostic at its mistake: remove it from PENDING ({why})"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

/// Every did-you-mean carries a fix, and the first fix of a case's one
/// diagnostic repairs it: applied to the text, the program checks clean.
#[test]
fn fixes_repair_the_typos() {
    let dir = repo().join("testdata/mistakes");
    let loader = CachingLoader::new(DirLoader::new([repo().join("testdata/schemas")]));
    let paths = cases(&dir);
    let mut fixed = Vec::new();
    let mut failures = Vec::new();
    for path in &paths {
        let (name, text) = read_case(path);
        let checked = check_program(
            &[(name.clone(), text.clone())],
            &loader,
            &BindPolicy::strict(),
        );
        for d in checked.diagnostics() {
            let suggests = d.help().iter().any(|h| h.starts_with("did you mean"));
            if suggests && d.fixes().is_empty() {
                failures.push(format!(
                    "{name}: a did-you-mean without a fix: {}",
                    d.summary
                ));
            }
        }
        let [only] = checked.diagnostics() else {
            continue;
        };
        let Some(fix) = only.fixes().first() else {
            continue;
        };
        let range = fix.span.range.to_usize();
        let (Some(before), Some(after)) = (text.get(..range.start), text.get(range.end..)) else {
            failures.push(format!("{name}: the fix's range is not in the text"));
            continue;
        };
        let repaired = format!("{before}{}{after}", fix.replacement);
        let again = check_program(&[(name.clone(), repaired)], &loader, &BindPolicy::strict());
        if !again.diagnostics().is_empty() {
            let left: Vec<String> = again
                .diagnostics()
                .iter()
                .map(|d| format!("{} {}", d.code, d.summary))
                .collect();
            failures.push(format!(
                "{name}: after replacing with `{}`: {}",
                fix.replacement,
                left.join("; ")
            ));
        }
        fixed.push(name);
    }
    assert!(
        fixed.len() >= 20,
        "only {} cases have a fix: {fixed:?}",
        fixed.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks `sources` without schemas, with how many did-you-mean
/// candidates the check compared.
fn check_counting(sources: &[(String, String)]) -> (Checked<Program>, u64) {
    let loader = pcl_schema::MemoryLoader::new();
    let before = pcl_expr::suggest::compared_on_this_thread();
    let checked = check_program(sources, &loader, &BindPolicy::strict());
    let compared = pcl_expr::suggest::compared_on_this_thread() - before;
    (checked, compared)
}

/// How many `undefined-variable` diagnostics `checked` kept.
fn undefined(checked: &Checked<Program>) -> usize {
    checked
        .diagnostics()
        .iter()
        .filter(|d| d.code.as_str() == "undefined-variable")
        .count()
}

/// A file reports its first 1,000 problems and counts the rest: the
/// names past the limit are not searched for suggestions, since nothing
/// would show them. 2,000 undefined names in one file compare as many
/// candidates as 1,000.
#[test]
fn no_suggestions_are_searched_for_dropped_diagnostics() {
    let compared = |uses: usize| {
        let mut text = String::new();
        for i in 0..2_000 {
            text.push_str(&format!("local{i:05} = {i}\n"));
        }
        for i in 0..uses {
            text.push_str(&format!("use{i:05} = locl{i:05}\n"));
        }
        let (checked, compared) = check_counting(&[("main.pp".to_string(), text)]);
        (compared, undefined(&checked), checked.diagnostics().len())
    };
    let limit = pcl_diagnostics::MAX_DIAGNOSTICS_PER_FILE;
    let (at_limit, shown, _) = compared(limit);
    assert_eq!(shown, limit);
    assert!(at_limit > 0);
    let (past_limit, shown, total) = compared(2 * limit);
    assert_eq!(shown, limit);
    // The rest are counted in one summary.
    assert_eq!(total, limit + 1);
    assert_eq!(past_limit, at_limit);
}

/// Did-you-mean is indexed per scope: 10,000 misspelt names among 10,000
/// locals compare at most a fixed number of candidates each (the scan of
/// every visible name per error took over 40 s for 2,400 errors).
#[test]
fn suggestions_are_linear_in_the_errors() {
    let n = 10_000;
    let mut locals = String::with_capacity(n * 20);
    for i in 0..n {
        locals.push_str(&format!("local{i:05} = {i}\n"));
    }
    let mut sources = vec![("locals.pp".to_string(), locals)];
    // The uses in files of 1,000 each: a file reports at most 1,000
    // problems (`pcl_diagnostics::MAX_DIAGNOSTICS_PER_FILE`).
    let per_file = pcl_diagnostics::MAX_DIAGNOSTICS_PER_FILE;
    for file in 0..n.div_ceil(per_file) {
        let uses: String = (file * per_file..((file + 1) * per_file).min(n))
            .map(|i| format!("use{i:05} = locl{i:05}\n"))
            .collect();
        sources.push((format!("uses{file:02}.pp"), uses));
    }
    let (checked, compared) = check_counting(&sources);
    assert_eq!(undefined(&checked), n);
    eprintln!(
        "did-you-mean: {compared} candidates compared for {n} undefined names among {n} locals"
    );
    // Two stages (edit distance, prefixes), each capped per error.
    let bound = (n * 2 * pcl_expr::suggest::MAX_COMPARED) as u64;
    assert!(compared <= bound, "{compared} comparisons for {n} errors");
    // The suggestions are still found: `locl00042` is one edit from
    // `local00042`.
    let first = checked
        .diagnostics()
        .iter()
        .find(|d| d.code.as_str() == "undefined-variable");
    assert!(
        first
            .is_some_and(|d| d.help().iter().any(|h| h.contains("local")) && !d.fixes().is_empty()),
        "{first:?}"
    );
}

/// The search for a constant that never converts looks 32 levels deep:
/// deeper constants are left alone (silently), never a crash.
#[test]
fn constant_search_has_a_depth_limit() {
    let loader = pcl_schema::MemoryLoader::new();
    let warnings = |depth: usize| {
        let label = format!("{}bool{}", "list(".repeat(depth), ")".repeat(depth));
        let value = format!("{}\"yes\"{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!("config c \"{label}\" {{\n  default = {value}\n}}\n");
        let checked = check_program(
            &[("main.pp".to_string(), text)],
            &loader,
            &BindPolicy::strict(),
        );
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
        checked
            .diagnostics()
            .iter()
            .filter(|d| d.code.as_str() == "constant-never-converts")
            .count()
    };
    assert_eq!(warnings(0), 1);
    assert_eq!(warnings(5), 1);
    assert_eq!(warnings(30), 1);
    assert_eq!(warnings(60), 0);
}
