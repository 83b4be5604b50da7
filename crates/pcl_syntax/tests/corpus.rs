//! Every program of the shared corpus (`../shared/corpus/programs`, next to
//! the workspace) parses without errors and prints back byte for byte. The
//! corpus is read in place; when it is absent the test says so and passes,
//! unless `PCL_REQUIRE_CORPUS=1`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use pcl_diagnostics::{render, RenderOptions, SourceMap};

#[test]
fn corpus_parses_cleanly_and_round_trips() {
    let Some(dir) = common::corpus_dir("syntax corpus") else {
        return;
    };
    let files = common::pp_files(&dir.join("programs"));
    pcl_testkit::at_least("corpus .pp files", files.len(), common::MIN_CORPUS_FILES);
    let mut failures = Vec::new();
    for path in &files {
        let text = common::read(path);
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), text.as_str());
        let parse = pcl_syntax::parse(file, &text);
        if parse.has_errors() {
            let rendered: String = parse
                .diagnostics()
                .iter()
                .map(|d| render(d, &sources, RenderOptions { color: false }))
                .collect();
            failures.push(format!("{name}: syntax errors\n{rendered}"));
        }
        if parse.print() != text {
            failures.push(format!("{name}: print(parse(x)) != x"));
        }
        if let Err(err) = common::check_tokens(&text, parse.tokens()) {
            failures.push(format!("{name}: {err}"));
        }
        if let Err(err) = common::check_tree_ranges(&text, parse.body()) {
            failures.push(format!("{name}: {err}"));
        }
    }
    println!("parsed {} corpus files", files.len());
    assert!(
        failures.is_empty(),
        "{} failures over {} corpus files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
