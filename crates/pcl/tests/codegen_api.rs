//! The code-generation API of issue #29 §1, item by item: tokens,
//! typed options, a traversal's root type, comment groups and the reasons
//! a lenient check keeps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl::{
    check_program, BindPolicy, BoundExprKind, Checked, MemoryLoader, NodeKind, Program,
    ResourceNode, TypeKind, OPTION_ORDER,
};

const SHOP: &str = r#"{
  "name": "shop",
  "version": "1.0.0",
  "meta": { "moduleFormat": "(.*)(?:/[^/]*)" },
  "provider": {},
  "resources": {
    "shop:sales/store:Store": {
      "inputProperties": { "name": { "type": "string" } },
      "properties": { "url": { "type": "string" } },
      "required": ["url"]
    }
  },
  "functions": {
    "shop:index/getItem:getItem": {
      "inputs": { "properties": { "id": { "type": "string" } } },
      "outputs": { "properties": { "price": { "type": "number" } } }
    }
  }
}"#;

fn check(program: &str, policy: &BindPolicy) -> Checked<Program> {
    let loader = MemoryLoader::new().with(SHOP).unwrap();
    let sources = vec![("main.pp".to_string(), program.to_string())];
    check_program(&sources, &loader, policy)
}

fn resource<'a>(program: &'a Program, name: &str) -> &'a ResourceNode {
    match &program.find(name).unwrap().kind {
        NodeKind::Resource(r) => r,
        other => panic!("{other:?}"),
    }
}

#[test]
fn resources_and_providers_have_three_tokens() {
    let checked = check(
        "resource s \"shop:sales:Store\" {\n}\nresource p \"pulumi:providers:shop\" {\n}\n",
        &BindPolicy::strict(),
    );
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
    let program = checked.value();
    let s = resource(program, "s");
    assert_eq!(
        (s.written_token(), s.schema_token(), s.canonical_token()),
        (
            "shop:sales:Store",
            Some("shop:sales/store:Store"),
            "shop:sales:Store"
        )
    );
    let p = resource(program, "p");
    assert_eq!(
        (p.written_token(), p.schema_token(), p.canonical_token()),
        (
            "pulumi:providers:shop",
            Some("pulumi:providers:shop"),
            "pulumi:providers:shop"
        )
    );
    assert!(p.is_provider() && !s.is_provider());
}

#[test]
fn invokes_have_three_tokens_and_keep_the_written_one_in_the_argument() {
    let checked = check(
        "i = invoke(\"shop:index/getItem:getItem\", { id = \"a\" })\n",
        &BindPolicy::strict(),
    );
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
    let NodeKind::Local(i) = &checked.value().nodes()[0].kind else {
        panic!()
    };
    let BoundExprKind::Call(call) = i.value.as_ref().unwrap().kind() else {
        panic!()
    };
    let invoke = call.invoke().unwrap();
    assert_eq!(invoke.written_token(), "shop:index/getItem:getItem");
    assert_eq!(invoke.schema_token(), Some("shop:index/getItem:getItem"));
    assert_eq!(invoke.canonical_token(), "shop::getItem");
    assert_eq!(call.invoke_token, Some("shop::getItem"));
    assert!(invoke.is_resolved() && invoke.unresolved().is_none());
    assert_eq!(
        call.args.first().unwrap().literal_string(),
        Some("shop:index/getItem:getItem")
    );
}

#[test]
fn unresolved_tokens_keep_their_reason_strict_or_lenient() {
    let program = "resource a \"shop:sales:Stor\" {\n}\nresource b \"nopkg:index:X\" {\n}\n\
                   f = invoke(\"shop:index:getIte\", {})\ng = invoke(\"nopkg:index:get\", {})\n";
    for (policy, reported) in [(BindPolicy::strict(), true), (BindPolicy::lenient(), false)] {
        let checked = check(program, &policy);
        let p = checked.value();
        let a = resource(p, "a").unresolved().unwrap();
        assert_eq!(a.code().as_str(), "unknown-resource-type");
        assert_eq!(a.message(), "unknown resource type `shop:sales:Stor`");
        assert_eq!(a.reported(), reported);
        let b = resource(p, "b").unresolved().unwrap();
        assert_eq!(b.code().as_str(), "unknown-package");
        assert!(
            b.reported(),
            "an unknown package is reported, a warning under lenient"
        );
        assert!(b.detail().is_some());
        for (name, code) in [("f", "unknown-function"), ("g", "unknown-package")] {
            let NodeKind::Local(l) = &p.find(name).unwrap().kind else {
                panic!()
            };
            let BoundExprKind::Call(call) = l.value.as_ref().unwrap().kind() else {
                panic!()
            };
            let invoke = call.invoke().unwrap();
            let why = invoke.unresolved().unwrap();
            assert_eq!(why.code().as_str(), code, "{name}");
            assert_eq!(why.reported(), reported, "{name}");
            assert_eq!(invoke.schema_token(), None);
            assert!(!invoke.is_resolved());
        }
        // What was reported is what the nodes say was reported (one
        // `unknown-package` per package, at its first use).
        let reported_codes: Vec<&str> = checked
            .diagnostics()
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        let expected = if reported {
            vec![
                "unknown-function",
                "unknown-package",
                "unknown-resource-type",
            ]
        } else {
            vec!["unknown-package"]
        };
        let mut sorted = reported_codes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, expected, "{:?}", checked.diagnostics());
    }
}

#[test]
fn options_are_typed_and_listed_in_go_order() {
    let checked = check(
        r#"
resource p "pulumi:providers:shop" {
}
resource s "shop:sales:Store" {
  options {
    pluginDownloadURL = "https://example.com"
    version = "1.0.0"
    ignoreChanges = [name]
    range = true
    retainOnDelete = true
    dependsOn = [p]
    provider = p
    customTimeouts = { create = "1m" }
    import = "id-1"
  }
}
"#,
        &BindPolicy::strict(),
    );
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
    let s = resource(checked.value(), "s");
    let options = s.options();
    let names: Vec<&str> = options.set_options().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "provider",
            "dependsOn",
            "ignoreChanges",
            "import",
            "customTimeouts",
            "retainOnDelete",
            "version",
            "pluginDownloadURL"
        ]
    );
    assert_eq!(
        options.import_id().and_then(|v| v.literal_string()),
        Some("id-1")
    );
    assert_eq!(
        options
            .plugin_download_url()
            .and_then(|v| v.literal_string()),
        Some("https://example.com")
    );
    assert!(options.custom_timeouts().is_some() && options.retain_on_delete().is_some());
    assert!(options.protect().is_none() && options.get("range").is_some());
    assert!(!OPTION_ORDER.contains(&"range"));
    assert!(s.range_value().is_some());
    // No block: an empty view, and the field says there was none.
    let p = resource(checked.value(), "p");
    assert!(p.options.is_none() && p.options().is_empty());
    assert_eq!(p.options().set_options().count(), 0);
}

#[test]
fn a_traversal_carries_its_root_type() {
    let checked = check(
        "config labels \"map(string)\" {\n}\nresource s \"shop:sales:Store\" {\n}\n\
         config names \"list(string)\" {\n}\n\
         a = labels.team\nb = s.url\nc = [for n in names : n]\nd = undefinedName.x\n",
        &BindPolicy::lenient(),
    );
    let program = checked.value();
    let root = |name: &str| {
        let NodeKind::Local(l) = &program.find(name).unwrap().kind else {
            panic!()
        };
        let value = l.value.as_ref().unwrap();
        // The last reference (for `c`, the variable `n`).
        let mut found = None;
        value.root().walk(&mut |e| {
            if let BoundExprKind::ScopeTraversal(t) = e.kind() {
                found = Some(t.root_type().clone());
            }
        });
        found.unwrap()
    };
    assert!(
        matches!(root("a").kind(), TypeKind::Map(_)),
        "{}",
        root("a")
    );
    assert!(
        matches!(root("b").kind(), TypeKind::Object(_)),
        "{}",
        root("b")
    );
    assert_eq!(root("c").to_string(), "string");
    assert!(root("d").is_dynamic());
}

#[test]
fn comments_come_grouped_as_go_groups_them() {
    let program = "\
// Copyright header.

# Section one.
# More of it.

/**
 * The count.
 *
 * Of things.
 */
# Line after a block.
# And another.
count = 1 /* inline */ # trailing
";
    let checked = check(program, &BindPolicy::strict());
    let node = checked.value().find("count").unwrap();
    let detached = node.detached_comment_groups();
    let lines: Vec<Vec<String>> = detached.iter().map(|g| g.lines()).collect();
    assert_eq!(
        lines,
        [
            vec![" Copyright header."],
            vec![" Section one.", " More of it."]
        ]
    );
    let leading = node.leading_comment_groups();
    assert_eq!(leading.len(), 2);
    assert!(leading[0].is_block());
    assert_eq!(leading[0].lines(), [" The count.", "", " Of things."]);
    assert_eq!(
        leading[1].lines(),
        [" Line after a block.", " And another."]
    );
    assert_eq!(
        leading[1].raw_text(program),
        Some("# Line after a block.\n# And another.")
    );
    let trailing = node.trailing_comment_groups();
    assert_eq!(trailing.len(), 1);
    assert_eq!(trailing[0].lines(), [" inline", " trailing"]);
}
