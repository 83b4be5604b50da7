//! Library-level tests: component depth limit, determinism across file
//! orders, each lenient option alone, the bound model's references and the
//! packages it uses (also when a schema's indentation lies).

use pcl_binder::{
    check_program, check_program_with_files, codes, BindPolicy, MemoryFiles, NodeKind,
};
use pcl_schema::MemoryLoader;

fn src(name: &str, text: &str) -> (String, String) {
    (name.to_string(), text.to_string())
}

#[test]
fn component_nesting_is_limited() {
    let mut files = MemoryFiles::new();
    let depth = 40;
    for i in 0..depth {
        let dir = (0..=i)
            .map(|j| format!("c{j}"))
            .collect::<Vec<_>>()
            .join("/");
        files.add(
            format!("{dir}/main.pp"),
            format!("component next \"./c{}\" {{}}\n", i + 1),
        );
    }
    let sources = vec![src("main.pp", "component first \"./c0\" {}\n")];
    let checked = check_program_with_files(
        &sources,
        &MemoryLoader::new(),
        &BindPolicy::strict(),
        &files,
    );
    assert!(
        checked
            .diagnostics()
            .iter()
            .any(|d| d.code == codes::COMPONENT_TOO_DEEP),
        "{:?}",
        checked.diagnostics()
    );
}

#[test]
fn file_order_does_not_matter() {
    let a = src("a.pp", "x = y\nz = 1\n");
    let b = src("b.pp", "y = 2\nq = undefinedName\n");
    let loader = MemoryLoader::new();
    let one = check_program(&[a.clone(), b.clone()], &loader, &BindPolicy::strict());
    let two = check_program(&[b, a], &loader, &BindPolicy::strict());
    let names = |c: &pcl_binder::Checked<pcl_binder::Program>| -> Vec<String> {
        c.value()
            .ordered_nodes()
            .map(|n| n.name.to_string())
            .collect()
    };
    assert_eq!(names(&one), names(&two));
    assert_eq!(names(&one), ["y", "q", "x", "z"]);
    let summaries = |c: &pcl_binder::Checked<pcl_binder::Program>| -> Vec<String> {
        c.diagnostics().iter().map(|d| d.summary.clone()).collect()
    };
    assert_eq!(summaries(&one), summaries(&two));
}

#[test]
fn missing_package_is_one_diagnostic_and_lenient_makes_it_dynamic() {
    let text = "resource a \"nope:index:A\" {}\nresource b \"nope:index:B\" { x = a.y }\n";
    let loader = MemoryLoader::new();
    let strict = check_program(&[src("main.pp", text)], &loader, &BindPolicy::strict());
    let count = strict
        .diagnostics()
        .iter()
        .filter(|d| d.code == codes::UNKNOWN_PACKAGE)
        .count();
    assert_eq!(count, 1, "{:?}", strict.diagnostics());
    assert!(strict.has_errors());
    let policy = BindPolicy {
        skip_resource_typecheck: true,
        ..BindPolicy::strict()
    };
    let lenient = check_program(&[src("main.pp", text)], &loader, &policy);
    assert!(!lenient.has_errors(), "{:?}", lenient.diagnostics());
    let node = lenient.value().find("a").map(|n| n.ty.clone());
    assert_eq!(node, Some(pcl_types::Type::dynamic()));
}

#[test]
fn allow_missing_variables_alone() {
    let text = "x = nothing\n";
    let loader = MemoryLoader::new();
    let strict = check_program(&[src("main.pp", text)], &loader, &BindPolicy::strict());
    let policy = BindPolicy {
        allow_missing_variables: true,
        ..BindPolicy::strict()
    };
    let lenient = check_program(&[src("main.pp", text)], &loader, &policy);
    // The strict check can only report an undefined variable once the
    // expression binder resolves names; leniency must never add errors.
    assert!(lenient.errors().count() <= strict.errors().count());
    assert!(!lenient.has_errors());
}

#[test]
fn labels_missing_do_not_panic() {
    let text = "resource {}\nread {}\nconfig {}\noutput {}\ncomponent {}\nhook {}\n";
    let checked = check_program(
        &[src("main.pp", text)],
        &MemoryLoader::new(),
        &BindPolicy::strict(),
    );
    let labels = checked
        .diagnostics()
        .iter()
        .filter(|d| d.code == codes::BLOCK_LABELS)
        .count();
    assert_eq!(labels, 6, "{:?}", checked.diagnostics());
    assert!(checked.value().nodes().is_empty());
}

/// A name declared in two files is the binder's `duplicate-declaration`,
/// pointing at the first declaration; the second node is dropped.
#[test]
fn duplicates_point_at_the_first_declaration() {
    let checked = check_program(
        &[src("a.pp", "a = 1\n"), src("b.pp", "a = 2\n")],
        &MemoryLoader::new(),
        &BindPolicy::strict(),
    );
    let d = checked
        .diagnostics()
        .iter()
        .find(|d| d.code == codes::DUPLICATE_DECLARATION)
        .cloned();
    let d = d.expect("duplicate diagnostic");
    assert_eq!(d.summary, "\"a\" already declared");
    assert_eq!(d.related().len(), 1);
    assert_eq!(d.related()[0].span.range.start, 0);
    assert_eq!(checked.value().nodes().len(), 1);
    assert!(matches!(
        checked.value().nodes()[0].kind,
        NodeKind::Local(_)
    ));
}

/// An attribute twice in one body is one problem: pcl_syntax's
/// `duplicate-attribute` (the reference's parser rejects it before its
/// binder sees it), not also a `duplicate-declaration`.
#[test]
fn a_duplicate_attribute_is_reported_once() {
    let checked = check_program(
        &[src("main.pp", "a = 1\na = 2\n")],
        &MemoryLoader::new(),
        &BindPolicy::strict(),
    );
    let codes: Vec<&str> = checked
        .diagnostics()
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["duplicate-attribute"]);
    assert_eq!(checked.value().nodes().len(), 1);
}

/// A 100 000-term operator chain checks clean on a 2 MiB stack: binary
/// chains are bound (and dropped) without recursion proportional to their
/// length.
#[test]
fn long_operator_chain_checks_on_a_small_stack() {
    let text = format!(
        "x = 1{}\noutput y {{\n  value = x\n}}\n",
        " + 1".repeat(99_999)
    );
    let (errors, ty) = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let checked = check_program(
                &[src("main.pp", &text)],
                &MemoryLoader::new(),
                &BindPolicy::strict(),
            );
            let ty = checked
                .value()
                .find("x")
                .map(|n| n.ty.to_string())
                .unwrap_or_default();
            let errors: Vec<String> = checked
                .diagnostics()
                .iter()
                .map(|d| d.summary.clone())
                .collect();
            (errors, ty)
        })
        .expect("spawn")
        .join()
        .expect("the check overflowed its stack");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(ty, "number");
}

/// Determinism at the library level: a three-file program whose nodes
/// depend on each other across files (with errors in two files) binds to
/// the same diagnostics (rendered in full) and the same node list and
/// order, whether bound twice or with its files in any of the six orders.
#[test]
fn binding_is_deterministic_across_runs_and_file_orders() {
    let files = [
        src(
            "network.pp",
            "config cidr string {\n  default = \"10.0.0.0/16\"\n}\n\nprefix = \"${app}-net\"\nbad = undefinedHere\n",
        ),
        src(
            "app.pp",
            "app = \"shop\"\nlabel = \"${prefix}/${cidr}\"\nloop = [for c in cidr : c]\n",
        ),
        src(
            "outputs.pp",
            "output label {\n  value = label\n}\n\noutput missing {\n  value = lable\n}\n",
        ),
    ];
    let loader = MemoryLoader::new();
    let policy = BindPolicy::strict();
    let fingerprint = |order: &[usize]| -> (Vec<String>, Vec<String>, Vec<String>) {
        let sources: Vec<(String, String)> = order.iter().map(|&i| files[i].clone()).collect();
        let checked = check_program(&sources, &loader, &policy);
        let diags = checked
            .diagnostics()
            .iter()
            .map(|d| pcl_diagnostics::render_short(d, checked.sources()))
            .collect();
        let ordered = checked
            .value()
            .ordered_nodes()
            .map(|n| n.name.to_string())
            .collect();
        let declared = checked
            .value()
            .nodes()
            .iter()
            .map(|n| format!("{} {}", n.kind_name(), n.name))
            .collect();
        (diags, ordered, declared)
    };
    let first = fingerprint(&[0, 1, 2]);
    assert!(first.0.len() >= 3, "expected errors: {:?}", first.0);
    // Dependencies cross files: `prefix` (network) needs `app` (app),
    // `label` (app) needs `prefix` and `cidr`, the output needs `label`.
    let pos = |name: &str| first.1.iter().position(|n| n == name);
    assert!(pos("app") < pos("prefix"), "{:?}", first.1);
    assert!(pos("prefix") < pos("label"), "{:?}", first.1);
    for order in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        assert_eq!(fingerprint(&order), first, "file order {order:?}");
    }
}

/// Packages reached through a resource's types (binder.md §6.1, E20) are
/// recorded in the order converting the closure meets them (inputs, then
/// outputs, depth first), although the types are converted lazily; and a
/// lazy type from another package is still usable after the check.
#[test]
fn packages_reached_through_types_are_used_in_order() {
    let schemas = [
        r##"{"name": "a", "version": "1.0.0", "resources": {"a:index:R": {
            "inputProperties": {"x": {"$ref": "/b/v1.0.0/schema.json#/types/b:index:T"}},
            "properties": {"y": {"$ref": "/d/v1.0.0/schema.json#/types/d:index:V"}},
            "required": ["y"]}}}"##,
        r##"{"name": "b", "version": "1.0.0", "types": {"b:index:T": {"type": "object",
            "properties": {"u": {"$ref": "/c/v2.0.0/schema.json#/types/c:index:U"}}}}}"##,
        r#"{"name": "c", "version": "2.0.0", "types": {"c:index:U": {"type": "object",
            "properties": {"n": {"type": "number"}}}}}"#,
        r#"{"name": "d", "version": "1.0.0", "types": {"d:index:V": {"type": "object",
            "properties": {"w": {"type": "string"}}, "required": ["w"]}}}"#,
    ];
    let mut loader = MemoryLoader::new();
    for s in schemas {
        loader = loader.with(s).unwrap_or_else(|e| panic!("{e}"));
    }
    let packages = |text: &str| {
        let checked = check_program(&[src("main.pp", text)], &loader, &BindPolicy::strict());
        let used: Vec<(String, Option<String>, bool)> = checked
            .value()
            .packages()
            .iter()
            .map(|p| (p.name.clone(), p.version.clone(), p.loaded))
            .collect();
        let errors = checked.errors().count();
        (checked, used, errors)
    };
    let v = |s: &str| Some(s.to_string());
    let expected = vec![
        ("a".to_string(), v("1.0.0"), true),
        ("b".to_string(), v("1.0.0"), true),
        ("c".to_string(), v("2.0.0"), true),
        ("d".to_string(), v("1.0.0"), true),
    ];
    let (_, used, errors) = packages("resource r \"a:index:R\" {\n  x = { u = { n = 1 } }\n}\n");
    assert_eq!(used, expected);
    assert_eq!(errors, 0);
    // A mismatch two packages down is found (c's type converted on use).
    let (_, _, errors) = packages("resource r \"a:index:R\" {\n  x = { u = { n = [1] } }\n}\n");
    assert_eq!(errors, 1);
    // Nothing of the closure touched: still every package, in order.
    let (checked, used, _) = packages("resource r \"a:index:R\" {}\n");
    assert_eq!(used, expected);
    // After the check, d's type is converted on first use.
    let output = checked.value().nodes().iter().find_map(|n| match &n.kind {
        NodeKind::Resource(r) => Some(r.output_type.clone()),
        _ => None,
    });
    let y = output.and_then(|t| t.as_object()?.property("y"));
    assert_eq!(
        y.map(|t| t.to_string()),
        Some("output(object({w = string}, annotated))".to_string())
    );
}

/// A schema whose indentation lies (a nested key of `a:index:A` indented
/// like a member) must not hide the package its type reaches: the raw
/// scan of the closure reads the member's real text, as decoding does.
#[test]
fn a_lying_indentation_does_not_hide_a_used_package() {
    let a = "{\n  \"name\": \"a\",\n  \"version\": \"1.0.0\",\n  \"resources\": {\n    \"a:index:R\": {\n      \"inputProperties\": {\n        \"x\": {\"$ref\": \"#/types/a:index:A\"}\n      }\n    }\n  },\n  \"types\": {\n    \"a:index:A\": {\"type\": \"object\", \"required\": [\n    ],\n    \"a:index:Phantom\": {\"type\": \"string\"},\n    \"properties\": {\n      \"t\": {\"$ref\": \"/b/v1.0.0/schema.json#/types/b:index:T\"}\n    }\n    },\n    \"a:index:B\": {\"type\": \"object\"}\n  }\n}\n";
    let b = r#"{"name": "b", "version": "1.0.0", "types": {"b:index:T": {"type": "object",
        "properties": {"n": {"type": "number"}}}}}"#;
    let loader = MemoryLoader::new()
        .with(a)
        .and_then(|l| l.with(b))
        .unwrap_or_else(|e| panic!("{e}"));
    for text in [
        "resource r \"a:index:R\" {}\n",
        "resource r \"a:index:R\" {\n  x = { t = { n = 1 } }\n}\n",
    ] {
        let checked = check_program(&[src("main.pp", text)], &loader, &BindPolicy::strict());
        let used: Vec<&str> = checked
            .value()
            .packages()
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(used, ["a", "b"], "{text}");
        assert_eq!(checked.errors().count(), 0, "{:?}", checked.diagnostics());
    }
}

/// A chain of 5 000 object types ending in another package's type: the
/// walk that finds the packages a resource reaches (objects are not
/// depth-limited any more) keeps its own stack, so it finishes on a
/// small one.
#[test]
fn long_type_chains_reach_their_packages_on_a_small_stack() {
    let n = 5_000;
    let types: Vec<String> = (0..n)
        .map(|i| {
            let target = if i + 1 < n {
                format!("#/types/a:index:T{}", i + 1)
            } else {
                "/b/v1.0.0/schema.json#/types/b:index:End".to_string()
            };
            format!(
                r#""a:index:T{i}": {{"type": "object", "properties": {{"next": {{"$ref": "{target}"}}}}}}"#
            )
        })
        .collect();
    let a = format!(
        r##"{{"name": "a", "version": "1.0.0", "types": {{{}}}, "resources": {{"a:index:R": {{"inputProperties": {{"next": {{"$ref": "#/types/a:index:T0"}}}}}}}}}}"##,
        types.join(",\n")
    );
    let b = r#"{"name": "b", "version": "1.0.0", "types": {"b:index:End": {"type": "object", "properties": {"v": {"type": "string"}}}}}"#;
    let loader = MemoryLoader::new()
        .with(a)
        .and_then(|l| l.with(b))
        .unwrap_or_else(|e| panic!("{e}"));
    let used = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let text = "resource r \"a:index:R\" {}\n";
            let checked = check_program(&[src("main.pp", text)], &loader, &BindPolicy::strict());
            assert_eq!(checked.errors().count(), 0);
            let names: Vec<String> = checked
                .value()
                .packages()
                .iter()
                .map(|p| p.name.clone())
                .collect();
            names
        })
        .map(|h| h.join());
    match used {
        Ok(Ok(names)) => assert_eq!(names, ["a", "b"]),
        _ => panic!("the check did not finish"),
    }
}

/// A program below the root may use a module beside it (issue 13 §1); its
/// `directory` is relative to the checked program; leaving the root is
/// still `component-outside-root`.
#[test]
fn sibling_components_bind_inside_the_root() {
    let files = MemoryFiles::new()
        .with(
            "outer_mod/main.pp",
            "config name string {}\noutput said { value = name }\n",
        )
        .with_program_dir("envs/dev");
    let sources = vec![src(
        "main.pp",
        "component m \"../../outer_mod\" {\n  name = \"x\"\n}\noutput o { value = m.said }\n",
    )];
    let checked = check_program_with_files(
        &sources,
        &MemoryLoader::new(),
        &BindPolicy::strict(),
        &files,
    );
    assert!(
        checked.diagnostics().is_empty(),
        "{:?}",
        checked.diagnostics()
    );
    let program = checked.value();
    assert_eq!(program.directory(), "");
    let component = program
        .nodes()
        .iter()
        .find_map(|n| match &n.kind {
            NodeKind::Component(c) => Some(c),
            _ => None,
        })
        .map(|c| {
            (
                c.directory.clone(),
                c.program.as_ref().map(|p| p.directory().to_string()),
            )
        });
    assert_eq!(
        component,
        Some((
            Some("../../outer_mod".to_string()),
            Some("../../outer_mod".to_string())
        ))
    );
    let outside = vec![src("main.pp", "component m \"../../../x\" {}\n")];
    let checked = check_program_with_files(
        &outside,
        &MemoryLoader::new(),
        &BindPolicy::strict(),
        &files,
    );
    let found: Vec<&str> = checked.diagnostics().iter().map(|d| d.code.0).collect();
    assert_eq!(found, ["component-outside-root"]);
}

/// A component with 20,000 configs, every one set, checks clean. (Each
/// attribute finds its config in constant time, and so does the
/// required-input check; both were a scan of every config per attribute.
/// Linearity is asserted by counts in `tests/program_scaling.rs`.)
#[test]
fn many_component_inputs_are_linear() {
    let n = 20_000;
    let mut module = String::new();
    let mut inputs = String::new();
    for i in 0..n {
        module.push_str(&format!("config c{i} int {{}}\n"));
        inputs.push_str(&format!("  c{i} = {i}\n"));
    }
    let files = MemoryFiles::new().with("m/main.pp", module);
    let sources = vec![src(
        "main.pp",
        &format!("component m \"./m\" {{\n{inputs}}}\n"),
    )];
    let checked = check_program_with_files(
        &sources,
        &MemoryLoader::new(),
        &BindPolicy::strict(),
        &files,
    );
    assert!(
        checked.diagnostics().is_empty(),
        "{:?}",
        checked.diagnostics()
    );
}
