//! Binds every program of `../shared/corpus/manifest.tsv` and compares the
//! verdict with Pulumi's: `clean` programs must bind without errors,
//! `error` programs must report errors containing each expected substring,
//! and programs whose schemas are missing must bind in lenient mode without
//! a panic. Prints `corpus: N agree, M disagree` and fails on any
//! disagreement.

mod common;

use pcl_binder::{check_directory, BindPolicy};
use pcl_diagnostics::render_short;

use common::{corpus_dir, manifest};

#[test]
fn corpus() {
    let dir = corpus_dir();
    let Some(rows) = manifest() else {
        return;
    };
    let mut filter = pcl_testkit::Filter::from_env("CORPUS_FILTER");
    let (mut agree, mut disagree) = (0usize, 0usize);
    let mut report = String::new();
    for row in &rows {
        let (name, expect, messages) = (&row.name, row.expect.as_str(), &row.messages);
        if !filter.keep(name) {
            continue;
        }
        let loader = row.loader();
        let checkable = row.checkable;
        let policy = if checkable {
            row.policy()
        } else {
            BindPolicy::lenient()
        };
        let path = dir.join(&row.program_dir);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_directory(&path, &loader, &policy)
        }));
        let checked = match result {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                disagree += 1;
                report.push_str(&format!("DISAGREE {name}: cannot read: {e}\n"));
                continue;
            }
            Err(_) => {
                disagree += 1;
                report.push_str(&format!("DISAGREE {name}: panic\n"));
                continue;
            }
        };
        let errors: Vec<String> = checked
            .errors()
            .map(|d| {
                let mut s = render_short(d, checked.sources());
                if let Some(detail) = d.detail() {
                    s.push_str(" | ");
                    s.push_str(detail);
                }
                // Names in backticks: the one declared quoting deviation.
                pcl_testkit::without_quotes(&s)
            })
            .collect();
        let ok = if !checkable {
            true
        } else {
            match expect {
                "clean" => errors.is_empty(),
                "error" => {
                    !errors.is_empty()
                        && messages
                            .split(" | ")
                            .map(pcl_testkit::without_quotes)
                            .all(|m| errors.iter().any(|e| e.contains(&m)))
                }
                _ => true,
            }
        };
        if ok {
            agree += 1;
        } else {
            disagree += 1;
            report.push_str(&format!(
                "DISAGREE {name} (expect {expect}, {} errors)\n",
                errors.len()
            ));
            for e in errors.iter().take(6) {
                report.push_str(&format!("    {e}\n"));
            }
        }
    }
    eprint!("{report}");
    filter.finish();
    eprintln!("corpus: {agree} agree, {disagree} disagree");
    assert_eq!(disagree, 0, "corpus: {agree} agree, {disagree} disagree");
}
