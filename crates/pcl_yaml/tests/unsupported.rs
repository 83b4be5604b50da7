//! What Pulumi YAML cannot express is an error naming it at its position
//! (the feature's source text is checked through the diagnostic's range),
//! and the rest of the program is still converted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl::{check_program, BindPolicy, MemoryLoader};

/// `(summary, text at the diagnostic's range)` of each error.
fn errors(source: &str) -> Vec<(String, String)> {
    let sources = vec![("main.pp".to_string(), source.to_string())];
    let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::lenient());
    let converted = pcl_yaml::convert(&checked);
    converted
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let text = source
                .get(d.span.range.start as usize..d.span.range.end as usize)
                .unwrap_or("")
                .to_string();
            (d.summary.clone(), text)
        })
        .collect()
}

fn one(source: &str) -> (String, String) {
    let found = errors(source);
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap()
}

#[test]
fn for_expressions_and_splats() {
    assert_eq!(
        one("xs = [1]\nys = [for x in xs : x]\n"),
        (
            "Failed to generate YAML program: For".into(),
            "[for x in xs : x]".into()
        )
    );
    assert_eq!(
        one("xs = [{ a = 1 }]\nys = xs[*].a\n"),
        (
            "Failed to generate YAML program: Splat".into(),
            "xs[*].a".into()
        )
    );
}

#[test]
fn operators() {
    assert_eq!(
        one("a = 1\nb = a + 1\n"),
        (
            "Failed to generate YAML program: binary operation".into(),
            "a + 1".into()
        )
    );
    assert_eq!(
        one("a = true\nb = a ? 1 : 2\n"),
        (
            "Failed to generate YAML program: conditional expression".into(),
            "a ? 1 : 2".into()
        )
    );
    assert_eq!(
        one("a = true\nb = !a\n"),
        (
            "Failed to generate YAML program: Unsupported unary operation".into(),
            "!a".into()
        )
    );
}

#[test]
fn functions_yaml_lacks() {
    assert_eq!(
        one("a = entries({ x = 1 })\n"),
        (
            "Failed to generate YAML program: Unknown Function".into(),
            "entries".into()
        )
    );
}

#[test]
fn components_hooks_and_range() {
    let found = errors(
        "component c \"./c\" {\n}\nresource r \"x:index:Y\" {\n  options {\n    range = 2\n  }\n}\n",
    );
    let kinds: Vec<&str> = found.iter().map(|(s, _)| s.as_str()).collect();
    assert!(
        kinds.contains(&"Failed to generate YAML program: Component"),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(s, t)| s.ends_with("Range") && t == "range"),
        "{found:?}"
    );
}

#[test]
fn a_convertible_program_has_no_errors() {
    assert!(errors("a = 1\nb = \"${a}\"\noutput o {\n  value = b\n}\n").is_empty());
}
