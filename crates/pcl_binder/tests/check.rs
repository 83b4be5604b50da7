//! Golden tests: every program under `testdata/check/{ok,err}` (a `.pp`
//! file or a directory whose `.pp` files form the program and whose
//! sub-directories hold components) is bound against the fixture schemas
//! in `testdata/schemas`, and the rendered diagnostics, the node order and
//! the node types are compared with the sibling `.diag` file
//! (`UPDATE_EXPECT=1` rewrites it). Cases under `ok/` must have no errors,
//! cases under `err/` at least one. A first line `// flags: --lenient …`
//! selects the policy. Every case is also bound a second time with its
//! files in reverse order, which must give identical output.

use std::path::{Path, PathBuf};

use pcl_binder::{check_program_with_files, BindPolicy, Checked, MemoryFiles, Program};
use pcl_diagnostics::{render, RenderOptions};
use pcl_schema::{CachingLoader, DirLoader};

const HEADER: &str =
    "# @generated — regenerate with UPDATE_EXPECT=1 cargo test -p pcl_binder --test check\n";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn policy_from_flags(flags: &str) -> BindPolicy {
    let mut p = BindPolicy::strict();
    for flag in flags.split_whitespace() {
        match flag {
            "--lenient" => p = BindPolicy::lenient(),
            "--allow-missing-variables" => p.allow_missing_variables = true,
            "--allow-missing-properties" => p.allow_missing_properties = true,
            "--skip-resource-typecheck" => p.skip_resource_typecheck = true,
            "--skip-invoke-typecheck" => p.skip_invoke_typecheck = true,
            "--skip-range-typecheck" => p.skip_range_typecheck = true,
            "--prefer-output-versioned-invokes" => p.prefer_output_versioned_invokes = true,
            other => panic!("unknown flag {other}"),
        }
    }
    p
}

/// All files of a case: `(relative path, text)`.
fn case_files(path: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if path.is_file() {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("main.pp")
            .to_string();
        out.push((name, std::fs::read_to_string(path).unwrap_or_default()));
        return out;
    }
    let mut stack = vec![(path.to_path_buf(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if p.is_dir() {
                stack.push((p, r));
            } else if name.ends_with(".pp") {
                out.push((r, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

fn output(checked: &Checked<Program>) -> String {
    let mut s = String::new();
    let program = checked.value();
    s.push_str("# order:");
    for node in program.ordered_nodes() {
        s.push(' ');
        s.push_str(&node.name);
    }
    s.push('\n');
    for node in program.nodes() {
        s.push_str(&format!(
            "# {} {}: {}\n",
            node.kind_name(),
            node.name,
            node.ty.pretty().replace('\n', " ")
        ));
    }
    for d in checked.diagnostics() {
        s.push('\n');
        s.push_str(&render(
            d,
            checked.sources(),
            RenderOptions { color: false },
        ));
    }
    s
}

fn run_case(path: &Path, loader: &dyn pcl_schema::SchemaLoader) -> (String, bool) {
    let files = case_files(path);
    let flags = files
        .first()
        .and_then(|(_, t)| t.lines().next())
        .and_then(|l| l.strip_prefix("// flags:"))
        .unwrap_or("")
        .to_string();
    let policy = policy_from_flags(&flags);
    let mut memory = MemoryFiles::new();
    for (p, t) in &files {
        memory.add(p.clone(), t.clone());
    }
    let roots: Vec<(String, String)> = files
        .iter()
        .filter(|(p, _)| !p.contains('/'))
        .cloned()
        .collect();
    let checked = check_program_with_files(&roots, loader, &policy, &memory);
    let mut reversed = roots.clone();
    reversed.reverse();
    let again = check_program_with_files(&reversed, loader, &policy, &memory);
    let text = output(&checked);
    assert_eq!(
        text,
        output(&again),
        "{}: binding is not deterministic",
        path.display()
    );
    (text, checked.has_errors())
}

#[test]
fn golden() {
    let root = repo().join("testdata/check");
    let loader = CachingLoader::new(DirLoader::new([repo().join("testdata/schemas")]));
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for kind in ["ok", "err"] {
        let Ok(entries) = std::fs::read_dir(root.join(kind)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let is_case = path.is_dir() || path.extension().is_some_and(|e| e == "pp");
            if !is_case {
                continue;
            }
            count += 1;
            let (text, has_errors) = run_case(&path, &loader);
            let expected_path = path.with_extension("diag");
            let expected_path = if path.is_dir() {
                PathBuf::from(format!("{}.diag", path.display()))
            } else {
                expected_path
            };
            let actual = format!("{HEADER}{text}");
            if kind == "ok" && has_errors {
                failures.push(format!("{}: ok case has errors:\n{text}", path.display()));
            }
            if kind == "err" && !has_errors {
                failures.push(format!("{}: err case has no errors", path.display()));
            }
            if update {
                let _ = std::fs::write(&expected_path, &actual);
                continue;
            }
            match std::fs::read_to_string(&expected_path) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!(
                    "{}: output differs\n--- expected\n{expected}\n--- actual\n{actual}",
                    path.display()
                )),
                Err(_) => failures.push(format!(
                    "{}: missing {}",
                    path.display(),
                    expected_path.display()
                )),
            }
        }
    }
    assert!(count > 0, "no golden cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
