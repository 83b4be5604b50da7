//! Determinism (robustness.md §2.3): the same input gives byte-identical
//! output across runs, `--jobs` values, the order in which a directory's
//! files were created (and so the order `read_dir` lists them), file names
//! that sort differently under different rules, and paths given relative,
//! absolute or with `.`/`..` components. Every format is compared, and the
//! `--emit model` dump too. The library gives the same diagnostics and node
//! order whatever the order of the sources it is handed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pcl_binder::{check_program, BindPolicy};
use pcl_diagnostics::render_short;
use pcl_schema::DirLoader;

fn workspace() -> PathBuf {
    pcl_tests::repo()
}

fn schemas() -> String {
    workspace().join("testdata/schemas").display().to_string()
}

fn pcl(args: &[&str], cwd: &Path) -> Output {
    Command::new(pcl_tests::pcl_binary())
        .args(args)
        .current_dir(cwd)
        .env_remove("PCL_INTERNAL_TEST_PANIC")
        .env_remove("NO_COLOR")
        .env("PULUMI_HOME", cwd.join("no-pulumi-home"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run pcl: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("determinism-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The files of one program: names chosen to sort differently by bytes,
/// case-insensitively and numerically; errors in every file, a cycle across
/// files, a component, schema problems.
fn program_files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "B.pp",
            "resource w \"tiny:index:Widget\" {\n  nmae = \"w\"\n  kind = \"widget\"\n}\nb = a + undefinedB\n",
        ),
        ("a.pp", "a = b\nx = w.arnn\n"),
        ("_z.pp", "output o {\n  value = comp.said\n}\nz = zzz\n"),
        ("10.pp", "ten = nine + missing10\n"),
        ("9.pp", "nine = \"9\"\ny = [for v in nine : v]\n"),
        (
            "main.pp",
            "component comp \"./comp\" {\n  greeting = 1\n  extra = true\n}\nconfig c \"lisst(string)\" {}\n",
        ),
        (
            "comp/main.pp",
            "config greeting string {}\noutput said {\n  value = greeting\n}\nbad = nope\n",
        ),
    ]
}

/// Writes the program into `dir`, creating the files in `order`.
fn write_program(dir: &Path, order: &[usize]) {
    let files = program_files();
    std::fs::create_dir_all(dir.join("comp")).unwrap_or_else(|e| panic!("{e}"));
    for &i in order {
        if let Some((name, text)) = files.get(i) {
            std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

const FORMATS: &[&[&str]] = &[
    &["--format", "short"],
    &["--format", "json"],
    &["--format", "sarif"],
    &["--format", "github"],
    &["--format", "human", "--color", "always"],
    &["--emit", "model"],
];

/// `pcl check` output (status, stdout, stderr) for each format.
fn outputs(paths: &[&str], extra: &[&str], cwd: &Path) -> Vec<(Option<i32>, Vec<u8>, Vec<u8>)> {
    let schemas = schemas();
    FORMATS
        .iter()
        .map(|format| {
            let mut args = vec!["check", "--schema-dir", &schemas, "--no-schema-cache"];
            args.extend_from_slice(format);
            args.extend_from_slice(extra);
            args.extend_from_slice(paths);
            let out = pcl(&args, cwd);
            (out.status.code(), out.stdout, out.stderr)
        })
        .collect()
}

fn assert_same(
    what: &str,
    a: &[(Option<i32>, Vec<u8>, Vec<u8>)],
    b: &[(Option<i32>, Vec<u8>, Vec<u8>)],
) {
    for ((format, x), y) in FORMATS.iter().zip(a).zip(b) {
        assert!(
            x == y,
            "{what}: output of {format:?} differs\n--- first\n{}{}\n--- second\n{}{}",
            String::from_utf8_lossy(&x.1),
            String::from_utf8_lossy(&x.2),
            String::from_utf8_lossy(&y.1),
            String::from_utf8_lossy(&y.2)
        );
    }
}

#[test]
fn file_creation_order_and_names_do_not_matter() {
    let root = scratch("order");
    let n = program_files().len();
    let forward: Vec<usize> = (0..n).collect();
    let backward: Vec<usize> = (0..n).rev().collect();
    let shuffled: Vec<usize> = (0..n).map(|i| (i * 3 + 1) % n).collect();
    let mut first = None;
    for (name, order) in [("f", &forward), ("b", &backward), ("s", &shuffled)] {
        let dir = root.join(name);
        write_program(&dir, order);
        let out = outputs(&["."], &[], &dir);
        assert_eq!(out[0].0, Some(1), "the program has errors");
        let short = String::from_utf8_lossy(&out[0].1).into_owned();
        for file in [
            "B.pp",
            "a.pp",
            "_z.pp",
            "10.pp",
            "9.pp",
            "main.pp",
            "comp/main.pp",
        ] {
            assert!(
                short.contains(&format!("{file}:")),
                "{file} missing:\n{short}"
            );
        }
        match &first {
            None => first = Some(out),
            Some(f) => assert_same(&format!("creation order {name}"), f, &out),
        }
    }
}

#[test]
fn runs_jobs_and_argument_order_do_not_matter() {
    let root = scratch("jobs");
    let n = program_files().len();
    let names = ["p1", "p2", "p3", "p4", "p5"];
    for (k, name) in names.iter().enumerate() {
        let order: Vec<usize> = (0..n).map(|i| (i + k) % n).collect();
        write_program(&root.join(name), &order);
    }
    let reversed: Vec<&str> = names.iter().rev().copied().collect();
    let base = outputs(&names, &["--jobs", "1"], &root);
    for _ in 0..2 {
        assert_same(
            "a second run",
            &base,
            &outputs(&names, &["--jobs", "1"], &root),
        );
    }
    assert_same("--jobs 2", &base, &outputs(&names, &["--jobs", "2"], &root));
    assert_same("--jobs 8", &base, &outputs(&names, &["--jobs", "8"], &root));
    assert_same(
        "reversed paths, --jobs 2",
        &base,
        &outputs(&reversed, &["--jobs", "2"], &root),
    );
}

#[test]
fn relative_and_absolute_paths_give_the_same_output() {
    let root = scratch("paths");
    let n = program_files().len();
    let dir = root.join("prog");
    write_program(&dir, &(0..n).collect::<Vec<_>>());
    let absolute = dir.display().to_string();
    let base = outputs(&["prog"], &[], &root);
    let short = String::from_utf8_lossy(&base[0].1).into_owned();
    assert!(short.starts_with("prog/"), "{short}");
    for path in [
        absolute.as_str(),
        "./prog",
        "prog/",
        "prog/../prog",
        "./prog/./",
    ] {
        assert_same(path, &base, &outputs(&[path], &[], &root));
    }
    // A one-file program, relative and absolute.
    let file = dir.join("a.pp").display().to_string();
    assert_same(
        "one file",
        &outputs(&["prog/a.pp"], &[], &root),
        &outputs(&[file.as_str()], &[], &root),
    );
}

/// The library gives the same diagnostics and the same node order for any
/// order of the same sources; diagnostics are grouped by file in name
/// order.
#[test]
fn library_result_does_not_depend_on_source_order() {
    let loader = DirLoader::new([workspace().join("testdata/schemas")]);
    let files: Vec<(String, String)> = program_files()
        .into_iter()
        .filter(|(name, _)| !name.contains('/'))
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let summary = |sources: &[(String, String)]| {
        let checked = check_program(sources, &loader, &BindPolicy::strict());
        let diags: Vec<String> = checked
            .diagnostics()
            .iter()
            .map(|d| render_short(d, checked.sources()))
            .collect();
        let nodes: Vec<String> = checked
            .value()
            .ordered_nodes()
            .map(|n| format!("{} {}: {}", n.kind_name(), n.name, n.ty))
            .collect();
        (diags, nodes)
    };
    // Files get their ids in name order whatever order they are given in,
    // so the whole result (diagnostics in order, node order) is identical.
    let base = summary(&files);
    assert!(!base.0.is_empty() && !base.1.is_empty());
    for order in [1, 2, 3] {
        let mut permuted = files.clone();
        permuted.rotate_left(order);
        if order == 3 {
            permuted.reverse();
        }
        assert_ne!(permuted, files);
        let result = summary(&permuted);
        assert_eq!(result, base, "rotation {order}");
        let mut seen: Vec<&str> = Vec::new();
        for d in &result.0 {
            let file = d.split(':').next().unwrap_or_default();
            if seen.last() != Some(&file) {
                seen.push(file);
            }
        }
        let mut by_name = seen.clone();
        by_name.sort_unstable();
        by_name.dedup();
        assert_eq!(seen, by_name, "diagnostics grouped by file in name order");
    }
}
