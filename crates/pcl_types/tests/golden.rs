//! Golden tests for human-facing messages: failed conversions with their
//! paths, and capped printing of a huge azure-native-like union. Expected
//! files live in `testdata/types/golden/`; `UPDATE_EXPECT=1` rewrites them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use pcl_types::*;

const HEADER: &str =
    "# @generated — regenerate with UPDATE_EXPECT=1 cargo test -p pcl_types --test golden\n\
     # provenance: pcl's own output, not an outside source's; a change is reviewed by hand before it is committed\n";

fn check(name: &str, body: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/types/golden")
        .join(name);
    let actual = format!("{HEADER}{body}");
    if pcl_testkit::updating() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with UPDATE_EXPECT=1", path.display()));
    assert!(
        expected == actual,
        "golden {name} differs; run with UPDATE_EXPECT=1 to update\n--- actual ---\n{actual}"
    );
}

fn t(s: &str) -> Type {
    s.parse().unwrap()
}

fn schema_node() -> Type {
    let node = Type::deferred_object(ObjectOptions {
        name: Some("example:index:Node".into()),
        ..ObjectOptions::default()
    });
    node.define_object([
        ("next", Type::optional(node.clone())),
        ("value", Type::string()),
    ]);
    node
}

#[test]
fn conversion_failures() {
    let cases: Vec<(&str, Type, Type)> = vec![
        (
            "nested map value",
            t("object({tags = map(string)})"),
            t("object({tags = object({a = list(int)})})"),
        ),
        (
            "resource input (InputType) with a missing property",
            input_type(&t("object({name = string, ports = list(int)})")),
            t("object({ports = tuple(int, string)})"),
        ),
        (
            "tuple element inside an input",
            input_type(&t("object({ports = list(int)})")),
            t("object({ports = tuple(int, list(string))})"),
        ),
        (
            "string literal to list",
            t("list(string)"),
            t("const(string, \"foo\")"),
        ),
        ("tuple lengths", t("tuple(int, string)"), t("tuple(string)")),
        ("set of lists", t("set(number)"), t("list(list(int))")),
        (
            "enum from list",
            t("enum(\"aws:s3:Acl\", string, \"private\", \"public-read\")"),
            t("list(string)"),
        ),
        (
            "output from map",
            t("output(list(string))"),
            t("map(string)"),
        ),
        ("promise from output", t("promise(int)"), t("output(int)")),
        (
            "recursive schema type",
            Type::list(schema_node()),
            t("list(object({next = object({next = none, value = list(int)}), value = string}))"),
        ),
        ("unsafe is not an error", t("int"), t("string")),
    ];
    let mut out = String::new();
    for (title, dest, src) in cases {
        out.push_str(&format!("== {title}\n"));
        out.push_str(&format!(
            "dest: {}\nsrc:  {}\n",
            pretty_capped(&dest),
            pretty_capped(&src)
        ));
        out.push_str(&format!(
            "kind: {}\n",
            conversion_from(&dest, &src).as_str()
        ));
        match expr_not_convertible(&dest, &src) {
            Some(d) => {
                out.push_str(&format!("{}[{}]: {}\n", d.severity, d.code, d.summary));
                if let Some(detail) = d.detail {
                    out.push_str(&format!("  = {detail}\n"));
                }
            }
            None => out.push_str("(no diagnostic)\n"),
        }
        if let Some(e) = explain_conversion(&dest, &src) {
            out.push_str(&format!("  reference reason: {}\n", e.summary()));
        }
        out.push('\n');
    }
    check("conversion-failures.txt", &out);
}

/// A union shaped like azure-native's `Resource` input unions: hundreds of
/// named schema objects plus anonymous ones with many properties.
fn azure_like_union() -> Type {
    let mut members = Vec::new();
    for i in 0..300 {
        let props: Vec<(String, Type)> = (0..30)
            .map(|p| {
                (
                    format!("property{p}"),
                    input_type(&Type::optional(Type::string())),
                )
            })
            .collect();
        let name = if i % 2 == 0 {
            Some(format!("azure-native:network/v2023:Resource{i}").into())
        } else {
            None
        };
        members.push(Type::object_with(
            props.into_iter().chain([(
                format!("kind{i}"),
                Type::constant(Type::string(), Value::string(format!("K{i}"))),
            )]),
            ObjectOptions {
                name,
                ..ObjectOptions::default()
            },
        ));
    }
    Type::union(members)
}

#[test]
fn capped_printing() {
    let big = azure_like_union();
    let capped = pretty_capped(&big);
    let full_len = big.to_string().len();
    assert!(full_len > 100_000, "the uncapped form is {full_len} bytes");
    assert!(
        capped.chars().count() <= 241 && !capped.contains('\n'),
        "{capped}"
    );
    let diag = expr_not_convertible(&big, &t("list(int)")).unwrap();
    assert!(diag.summary.len() < 2000, "{} bytes", diag.summary.len());
    let mut out = String::new();
    out.push_str(&format!(
        "uncapped String(): {full_len} bytes\n\n-- capped --\n{capped}\n\n-- diagnostic --\n"
    ));
    out.push_str(&diag.summary);
    out.push('\n');
    if let Some(detail) = &diag.detail {
        out.push_str(&format!("  = {detail}\n"));
    }
    // The message form is capped at 120 characters per printed type, and
    // costs the cap, not the 700 KB the type prints to uncapped.
    let quoted = pcl_types::print::display_string_capped(&big, MAX_TYPE_CHARS);
    assert_eq!(quoted.chars().count(), MAX_TYPE_CHARS, "{quoted}");
    let shown = big.display_capped(MAX_TYPE_CHARS);
    assert_eq!(shown.chars().count(), MAX_TYPE_CHARS, "{shown}");
    out.push_str(&format!(
        "\n-- display_capped({MAX_TYPE_CHARS}) --\n{shown}\n"
    ));
    check("capped-union.txt", &out);
}
