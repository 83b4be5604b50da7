//! Checking one file alone never reports an error that checking its
//! directory does not (issue 28 §1c). Every multi-file program (two or
//! more `.pp` files in its directory) of the shared corpus, with its
//! manifest's schemas and flags, and every directory case of
//! `testdata/check`, is checked as a whole and then file by file, each
//! file alone with the names its siblings declare (as `pcl check FILE`
//! does, see `pcl_cli::check_cmd::with_siblings`): each file's errors,
//! compared by code, file and range, must be among the directory's.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_binder::{
    check_file_with_files, check_program_with_files, BindPolicy, Checked, DeclaredNames,
    FileProvider, FsFiles, Program, Siblings,
};
use pcl_diagnostics::render_short;
use pcl_schema::{CachingLoader, DirLoader, SchemaLoader};

use common::{corpus_dir, manifest};

/// An error as the comparison sees it: code, file name and range.
type Key = (String, String, u32, u32);

fn errors(checked: &Checked<Program>) -> Vec<(Key, String)> {
    checked
        .errors()
        .map(|d| {
            let file = checked
                .sources()
                .iter()
                .find(|(id, _)| *id == d.span.file)
                .map(|(_, f)| f.name().to_string())
                .unwrap_or_default();
            let key = (
                d.code.as_str().to_string(),
                file,
                d.span.range.start,
                d.span.range.end,
            );
            (key, render_short(d, checked.sources()))
        })
        .collect()
}

/// The program's root `.pp` files, `(name, text)`, by name.
fn root_files(dir: &Path) -> Vec<(String, String)> {
    let files = FsFiles::new(dir);
    files.list_dir("").map(|l| l.files).unwrap_or_default()
}

/// Checks `dir` whole and file by file; returns the failures and the
/// number of files checked alone.
fn compare(
    name: &str,
    dir: &Path,
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> (Vec<String>, usize) {
    let roots = root_files(dir);
    if roots.len() < 2 {
        return (Vec::new(), 0);
    }
    let files = FsFiles::new(dir);
    let whole = check_program_with_files(&roots, loader, policy, &files);
    let whole_errors: HashSet<Key> = errors(&whole).into_iter().map(|(k, _)| k).collect();
    let names = Arc::new(DeclaredNames::from_files(&roots));
    let mut failures = Vec::new();
    for file in &roots {
        let siblings = Siblings::new(Arc::clone(&names), file.0.clone());
        let alone = check_file_with_files(
            std::slice::from_ref(file),
            loader,
            policy,
            &files,
            &siblings,
        );
        for (key, text) in errors(&alone) {
            if !whole_errors.contains(&key) {
                failures.push(format!(
                    "{name}: {} checked alone reports an error its directory does not: {text}",
                    file.0
                ));
            }
        }
    }
    (failures, roots.len())
}

#[test]
fn a_file_alone_reports_no_error_its_directory_does_not() {
    let mut failures = Vec::new();
    let mut files = 0;
    // The corpus's multi-file programs.
    if let (Some(rows), Some(_)) = (
        manifest(),
        pcl_testkit::shared("corpus/programs", "a file alone (corpus)"),
    ) {
        let dir = corpus_dir();
        for row in &rows {
            let policy = if row.checkable {
                row.policy()
            } else {
                BindPolicy::lenient()
            };
            let loader = row.loader();
            let (f, n) = compare(&row.name, &dir.join(&row.program_dir), &loader, &policy);
            failures.extend(f);
            files += n;
        }
        // 30 multi-file programs' files when this was written, less a margin.
        pcl_testkit::at_least("corpus files checked alone", files, 20);
    }
    // The directory cases of the check goldens.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loader = CachingLoader::new(DirLoader::new([repo.join("testdata/schemas")]));
    let mut cases = 0;
    for kind in ["ok", "err"] {
        let Ok(entries) = std::fs::read_dir(repo.join("testdata/check").join(kind)) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let roots = root_files(&dir);
            let flags = roots
                .first()
                .and_then(|(_, t)| t.lines().next())
                .and_then(|l| l.strip_prefix("// flags:"))
                .unwrap_or("");
            let policy = BindPolicy::from_flags(flags).unwrap_or_else(|e| panic!("{e}"));
            let name = dir.display().to_string();
            let (f, n) = compare(&name, &dir, &loader, &policy);
            failures.extend(f);
            cases += usize::from(n > 0);
        }
    }
    eprintln!("a file alone: {files} corpus files, {cases} testdata/check cases");
    pcl_testkit::at_least("testdata/check multi-file cases", cases, 3);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
