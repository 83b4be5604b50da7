//! Golden tests: every program under `testdata/check/{ok,err}` (a `.pp`
//! file or a directory whose `.pp` files form the program and whose
//! sub-directories hold components) is bound against the fixture schemas
//! in `testdata/schemas`, and the rendered diagnostics, the node order, the
//! node types and the types of each node's bound expressions (inputs,
//! options, `range.key`/`range.value`, config defaults, output values, hook
//! attributes), each node's dependencies and the packages used are
//! compared with the sibling `.diag` file
//! (`UPDATE_EXPECT=1` rewrites it). Cases under `ok/` must have no errors,
//! cases under `err/` at least one. A first line `// flags: --lenient …`
//! (in the program's first file) selects the policy. Every case is also
//! bound a second time with its files in reverse order, which must give
//! identical output, and through one [`SchemaCache`] shared by all cases
//! (in order, then again in reverse order), which must give the output of
//! the check of its own. A case directory named `NAME.alone` checks its
//! `main.pp` alone, its other files being the siblings a user did not
//! check (`declared-in-sibling`). Two more tests keep the goldens
//! complete: every diagnostic code and every builtin function has one.

use std::path::{Path, PathBuf};

use pcl_binder::{
    check_file_cached, check_file_with_files, check_program_cached, check_program_with_files,
    BindPolicy, Checked, DeclaredNames, MemoryFiles, Program, SchemaCache, Siblings,
};
use pcl_diagnostics::{render, RenderOptions};
use pcl_schema::{CachingLoader, DirLoader};

const HEADER: &str =
    "# @generated — regenerate with UPDATE_EXPECT=1 cargo test -p pcl_binder --test check\n\
     # provenance: pcl's own output, not an outside source's; a change is reviewed by hand before it is committed\n";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn policy_from_flags(flags: &str) -> BindPolicy {
    BindPolicy::from_flags(flags).unwrap_or_else(|e| panic!("{e}"))
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
    if !program.packages().is_empty() {
        s.push_str("# packages:");
        for p in program.packages() {
            s.push_str(&format!(
                " {}@{}{}",
                p.name,
                p.version.as_deref().unwrap_or("-"),
                if p.loaded { "" } else { " (not loaded)" }
            ));
        }
        s.push('\n');
    }
    for node in program.nodes() {
        s.push_str(&format!(
            "# {} {}: {}\n",
            node.kind_name(),
            node.name,
            one_line(&node.ty)
        ));
        if !node.dependencies.is_empty() {
            let names: Vec<&str> = node
                .dependencies
                .iter()
                .filter_map(|id| program.node(*id).map(|n| n.name.as_str()))
                .collect();
            s.push_str(&format!("#   depends on: {}\n", names.join(" ")));
        }
        for (what, ty) in bound_types(node) {
            s.push_str(&format!("#   {what}: {}\n", one_line(&ty)));
        }
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

fn one_line(ty: &pcl_types::Type) -> String {
    let text = ty.pretty();
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ")
}

/// The types of a node's bound expressions, so the golden asserts the
/// typing and not only the diagnostics: resource and component inputs and
/// options, the `range` key and value types, config defaults, output
/// values and hook attributes.
fn bound_types(node: &pcl_binder::Node) -> Vec<(String, pcl_types::Type)> {
    use pcl_binder::{NodeKind, RangeKind};
    let mut out = Vec::new();
    let attrs = |out: &mut Vec<(String, pcl_types::Type)>,
                 prefix: &str,
                 list: &[pcl_binder::BoundAttribute]| {
        for a in list {
            out.push((format!("{prefix}{}", a.name), a.value.ty().clone()));
        }
    };
    let range = |out: &mut Vec<(String, pcl_types::Type)>, r: &Option<RangeKind>| match r {
        Some(RangeKind::List { key, value }) | Some(RangeKind::Map { key, value }) => {
            out.push(("range.key".into(), key.clone()));
            out.push(("range.value".into(), value.clone()));
        }
        Some(RangeKind::Count) => out.push(("range.value".into(), pcl_types::Type::int())),
        Some(RangeKind::Bool) | None => {}
    };
    match &node.kind {
        NodeKind::Local(_) | NodeKind::Pulumi(_) => {}
        NodeKind::Config(c) => {
            if let Some(d) = &c.default {
                out.push(("default".into(), d.ty().clone()));
            }
        }
        NodeKind::Output(o) => {
            if let Some(v) = &o.value {
                out.push(("value".into(), v.ty().clone()));
            }
        }
        NodeKind::Resource(r) => {
            range(&mut out, &r.range);
            attrs(&mut out, "", &r.inputs);
            if let Some(o) = &r.options {
                attrs(&mut out, "options.", &o.attributes);
            }
        }
        NodeKind::Component(c) => {
            range(&mut out, &c.range);
            attrs(&mut out, "", &c.inputs);
            if let Some(o) = &c.options {
                attrs(&mut out, "options.", &o.attributes);
            }
        }
        NodeKind::Hook(h) => {
            for (name, e) in [
                ("command", &h.command),
                ("onDryRun", &h.on_dry_run),
                ("ignoreErrors", &h.ignore_errors),
            ] {
                if let Some(e) = e {
                    out.push((name.into(), e.ty().clone()));
                }
            }
        }
    }
    out
}

fn run_case(
    path: &Path,
    loader: &dyn pcl_schema::SchemaLoader,
    cache: &SchemaCache<CachingLoader<DirLoader>>,
) -> (String, bool) {
    let files = case_files(path);
    // The flags line is the first line of the program's first file (not of
    // a component's file, which may sort first).
    let flags = files
        .iter()
        .find(|(p, _)| !p.contains('/'))
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
    // A directory `NAME.alone` checks its `main.pp` alone, the other files
    // being its siblings (a file of a multi-file program checked on its own).
    if path.is_dir() && path.extension().is_some_and(|e| e == "alone") {
        let names = std::sync::Arc::new(DeclaredNames::from_files(&roots));
        let siblings = Siblings::new(names, "main.pp");
        let main: Vec<(String, String)> = roots
            .iter()
            .filter(|(p, _)| p == "main.pp")
            .cloned()
            .collect();
        let checked = check_file_with_files(&main, loader, &policy, &memory, &siblings);
        let text = output(&checked);
        let cached = check_file_cached(&main, cache, &policy, &memory, &siblings);
        assert_eq!(
            text,
            output(&cached),
            "{}: a check with cached schema types differs",
            path.display()
        );
        return (text, checked.has_errors());
    }
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
    let cached = check_program_cached(&roots, cache, &policy, &memory);
    assert_eq!(
        text,
        output(&cached),
        "{}: a check with cached schema types differs",
        path.display()
    );
    (text, checked.has_errors())
}

#[test]
fn golden() {
    let root = repo().join("testdata/check");
    let loader = CachingLoader::new(DirLoader::new([repo().join("testdata/schemas")]));
    let cache = SchemaCache::new(CachingLoader::new(DirLoader::new([
        repo().join("testdata/schemas")
    ])));
    let update = pcl_testkit::updating();
    let mut failures = Vec::new();
    let mut count = 0;
    let mut cases = Vec::new();
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
            cases.push(path.clone());
            let (text, has_errors) = run_case(&path, &loader, &cache);
            let expected_path = path.with_extension("diag");
            let expected_path = if path.is_dir() {
                PathBuf::from(format!("{}.diag", path.display()))
            } else {
                expected_path
            };
            // Schema paths in messages are machine-specific; show them
            // relative to the repository.
            let schemas = repo().join("testdata/schemas").display().to_string();
            let text = text.replace(&schemas, "testdata/schemas");
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
    // 99 cases when this was written, less a margin.
    pcl_testkit::at_least("check golden cases", count, 95);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Each case again, in reverse order, so that cached types converted
    // for later cases meet earlier ones.
    for path in cases.iter().rev() {
        run_case(path, &loader, &cache);
    }
}

/// Codes no golden program can show, each with the reason and the test
/// that covers it instead.
const NOT_IN_GOLDENS: &[(&str, &str)] = &[
    (
        "invalid-utf8",
        "goldens are read as text; a file's bytes on disk: pcl_cli tests/paths.rs and tests/check.rs",
    ),
    (
        "unreadable-file",
        "a FIFO, device or dangling link on disk: pcl_cli tests/paths.rs and tests/robustness.rs",
    ),
    (
        "list-index-not-number",
        "every literal key converts to number (strings, bools, null); pcl_types traversal vectors",
    ),
    (
        "map-key-not-string",
        "every literal key converts to string; pcl_types traversal vectors",
    ),
    (
        "object-key-not-string",
        "every literal key converts to string; pcl_types traversal vectors",
    ),
    (
        "type-too-deep",
        "traversal through more than MAX_TYPE_DEPTH layers, which only API-built const(const(…)) types have; pcl_cli depth_limits traversal_limit",
    ),
    (
        "expression-too-deep",
        "the parser's nesting limit is below MAX_EXPR_DEPTH; pcl_expr tests::depth",
    ),
    (
        "undefined-anonymous-symbol",
        "the parser puts splat items only inside splats; pcl_expr tests::depth::splat_item_outside_a_splat_is_reported",
    ),
    (
        "keyword-traversal",
        "programs define no keywords; pcl_expr tests::null_constant_and_keywords",
    ),
    (
        "component-too-deep",
        "needs dozens of nested directories; tests/api.rs component_nesting_is_limited",
    ),
    (
        "untyped-reference",
        "reserved: never emitted, every definition has a type",
    ),
    ("unsupported-literal", "reserved: never emitted"),
    (
        "tuple-length-mismatch",
        "reserved: a tuple-length failure is the detail of type-not-convertible",
    ),
    ("object-key-type", "reserved: never emitted"),
    (
        "no-source-files",
        "reserved: a component directory without files is a component-error",
    ),
];

/// Every diagnostic code the binder, the expression binder and the type
/// layer define appears in some golden `.diag` file (rendered as
/// `[code]`), unless it is listed in [`NOT_IN_GOLDENS`] — and a listed code
/// must not appear, so the list stays honest.
#[test]
fn every_code_has_a_golden() {
    let mut rendered = String::new();
    let mut stack = vec![repo().join("testdata/check")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "diag") {
                rendered.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    assert!(!rendered.is_empty(), "no golden files found");
    let all = pcl_binder::codes::ALL
        .iter()
        .chain(pcl_expr::codes::ALL)
        .chain(pcl_types::codes::ALL);
    let mut missing = Vec::new();
    let mut stale = Vec::new();
    for code in all {
        let shown = rendered.contains(&format!("[{}]", code.0));
        let exempt = NOT_IN_GOLDENS.iter().any(|(c, _)| *c == code.0);
        if exempt && shown {
            stale.push(code.0);
        }
        if !exempt && !shown {
            missing.push(code.0);
        }
    }
    assert!(
        missing.is_empty(),
        "codes without a golden under testdata/check: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "codes listed in NOT_IN_GOLDENS but shown by a golden: {stale:?}"
    );
}

/// Every builtin function (and `invoke` and `call`) is called in
/// `ok/builtins.pp`, whose golden records each call's result type, and
/// called wrongly in `err/builtins.pp` or another error golden.
#[test]
fn every_builtin_has_a_golden() {
    let read = |p: &str| std::fs::read_to_string(repo().join(p)).unwrap_or_default();
    let ok = read("testdata/check/ok/builtins.pp");
    let err = read("testdata/check/err/builtins.pp")
        + &read("testdata/check/err/vectors_e31_calls.pp")
        + &read("testdata/check/err/strict_invoke_typecheck.pp");
    assert!(!ok.is_empty() && !err.is_empty(), "builtin goldens missing");
    let names = pcl_expr::Builtin::ALL
        .iter()
        .map(|b| b.name())
        .chain(["invoke", "call"]);
    let mut missing = Vec::new();
    for name in names {
        let call = format!("{name}(");
        let called = |text: &str| {
            text.match_indices(&call).any(|(at, _)| {
                at == 0
                    || !text[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        };
        if !called(&ok) {
            missing.push(format!("{name} (ok/builtins.pp)"));
        }
        if !called(&err) {
            missing.push(format!("{name} (err goldens)"));
        }
    }
    assert!(missing.is_empty(), "builtins without a golden: {missing:?}");
}

/// No text pcl shows a person holds Go value notation (`cty.NumberIntVal(1)`,
/// `cty.StringVal("a")`, `cty.True`): every generated golden under
/// `testdata` (check, mistakes and syntax `.diag` files, robustness and
/// reference `.expect` files, type goldens) is free of `cty.`. The
/// reference cases' `source:` lines quote the reference's own Go tests and
/// are not pcl output.
#[test]
fn no_golden_shows_go_notation() {
    let mut stack = vec![repo().join("testdata")];
    let mut offenders = Vec::new();
    let mut scanned = 0;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                // The type vectors are the reference's own printing.
                if !p.ends_with("testdata/types/vectors") {
                    stack.push(p);
                }
                continue;
            }
            let golden = matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("diag" | "expect" | "txt")
            );
            if !golden {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            scanned += 1;
            for line in text.lines() {
                if line.contains("cty.") && !line.starts_with("source: ") {
                    offenders.push(format!("{}: {line}", p.display()));
                }
            }
        }
    }
    assert!(scanned > 100, "only {scanned} goldens found");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// Names are quoted one way, with backticks: no diagnostic line of a
/// generated golden quotes a name in single quotes (`'regoin'`) or leaves
/// an undefined variable bare (`undefined variable regoin`). The one
/// exception is text pcl passes on from a library that words its own
/// errors (the semver parser's `unexpected character 'x'`).
#[test]
fn goldens_quote_names_with_backticks() {
    let mut stack = vec![
        repo().join("testdata/check"),
        repo().join("testdata/mistakes"),
        repo().join("testdata/syntax"),
        repo().join("testdata/robustness"),
    ];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("diag" | "expect")
            ) {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for line in text.lines() {
                let message = ["] Error: ", "] Warning: ", "] Note: ", "error[", "warning["]
                    .iter()
                    .any(|m| line.contains(m));
                if !message || line.contains("unexpected character '") {
                    continue;
                }
                let single = line.split('\'').skip(1).step_by(2).any(|quoted| {
                    !quoted.is_empty()
                        && quoted.len() < 80
                        && quoted
                            .chars()
                            .all(|c| c.is_alphanumeric() || ":/._-{}".contains(c))
                });
                let bare = line
                    .split("undefined variable ")
                    .nth(1)
                    .is_some_and(|rest| !rest.starts_with('`'));
                if single || bare {
                    offenders.push(format!("{}: {line}", p.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}
