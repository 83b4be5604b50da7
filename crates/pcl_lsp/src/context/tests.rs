use super::*;

/// The cursor at `|` in `marked`.
fn at(marked: &str) -> Cursor {
    let offset = marked
        .find('|')
        .unwrap_or_else(|| panic!("no cursor in {marked:?}"));
    let text = marked.replacen('|', "", 1);
    cursor(&text, offset)
}

fn set(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn top_level_starts_and_expressions() {
    assert_eq!(at("|").place, Place::TopLevel);
    assert_eq!(at("x = 1\nres|").place, Place::TopLevel);
    assert_eq!(at("x = 1\nres|").word, "res");
    assert_eq!(at("x = pre|").place, Place::Expression);
    assert_eq!(at("x = pre|").word, "pre");
    assert_eq!(
        at("x = a.b|").place,
        Place::Member {
            root: "a".into(),
            steps: vec![]
        }
    );
    assert_eq!(at("resource a |").place, Place::Nothing);
    assert_eq!(at("x = \"text |\"").place, Place::Nothing);
    assert_eq!(at("x = \"${na|}\"").place, Place::Expression);
    assert_eq!(at("x = <<EOT\nfoo|\nEOT\n").place, Place::Nothing);
    // Inside a comment: nothing; on the line after one: a new item.
    assert_eq!(at("# comment |").place, Place::Nothing);
    assert_eq!(at("x = 1 // note |").place, Place::Nothing);
    assert_eq!(at("# comment\n|").place, Place::TopLevel);
    assert_eq!(at("x = /* a */ |").place, Place::Expression);
}

#[test]
fn an_unterminated_string_ends_at_the_line_break() {
    assert_eq!(at("x = \"abc\ny = na|").place, Place::Expression);
    assert_eq!(at("resource a \"aws:\nres|").place, Place::TopLevel);
    let c = at("resource a \"aws:s3/bucket:Bucket\" {\n  tags = \"x\n  |\n}\n");
    assert!(matches!(c.place, Place::ResourceKey { .. }), "{c:?}");
}

#[test]
fn token_strings_of_headers_and_invokes() {
    let c = at("resource a \"aws:s3/b|");
    assert_eq!(c.place, Place::ResourceToken);
    assert_eq!(c.word, "aws:s3/b");
    assert_eq!(c.word_start, "resource a \"".len());
    assert_eq!(at("read a \"aws:|\" {\n}\n").place, Place::ResourceToken);
    let c = at("x = invoke(\"aws:get|");
    assert_eq!(c.place, Place::FunctionToken);
    assert_eq!(c.word, "aws:get");
    assert_eq!(at("x = invoke(\"aws:get\", \"|").place, Place::Nothing);
    assert_eq!(at("x = other(\"aws:|").place, Place::Nothing);
    assert_eq!(at("config a \"|").place, Place::Nothing);
}

#[test]
fn keys_of_resource_bodies_with_what_is_set_before_and_after() {
    let text = "resource b \"aws:s3/bucket:Bucket\" {\n  bucket = \"x\"\n  fo|\n  tags = {\n    inner = 1\n  }\n  website = {}\n}\nlater = 1\n";
    let c = at(text);
    assert_eq!(
        c.place,
        Place::ResourceKey {
            path: vec![],
            token: "aws:s3/bucket:Bucket".to_string(),
            set: set(&["bucket", "tags", "website"]),
        }
    );
    assert_eq!(c.word, "fo");
    assert!(c.in_resource);
    // After `=`: an expression, even mid-typing with the brace unclosed.
    assert_eq!(
        at("resource b \"t:m:R\" {\n  bucket = na|").place,
        Place::Expression
    );
    // Inside a nested object value: the keys of the object at `tags`.
    assert_eq!(
        at("resource b \"t:m:R\" {\n  tags = {\n    |\n  }\n}\n").place,
        Place::ResourceKey {
            token: "t:m:R".into(),
            path: vec!["tags".into()],
            set: vec![]
        }
    );
}

#[test]
fn keys_stop_at_a_top_level_item_when_the_body_is_unclosed() {
    let c = at("resource b \"t:m:R\" {\n  |\nx = 1\nresource c \"t:m:R\" {\n  y = 2\n}\n");
    assert_eq!(
        c.place,
        Place::ResourceKey {
            path: vec![],
            token: "t:m:R".to_string(),
            set: Vec::new()
        }
    );
}

#[test]
fn option_keys_only_in_a_resource() {
    let c = at("resource b \"t:m:R\" {\n  options {\n    protect = true\n    |\n  }\n}\n");
    assert_eq!(
        c.place,
        Place::OptionKey {
            set: set(&["protect"])
        }
    );
    assert_eq!(
        at("output o {\n  options {\n    |\n  }\n}\n").place,
        Place::Nothing
    );
}

#[test]
fn invoke_argument_objects() {
    let c =
        at("x = invoke(\"aws:ec2/getAmi:getAmi\", {\n  owners = []\n  mo|\n  filters = []\n})\n");
    assert_eq!(
        c.place,
        Place::InvokeKey {
            path: vec![],
            token: "aws:ec2/getAmi:getAmi".to_string(),
            set: set(&["owners", "filters"]),
        }
    );
    let c = at("x = invoke(\"aws:ec2/getAmi:getAmi\", { owners: [], |");
    assert_eq!(
        c.place,
        Place::InvokeKey {
            path: vec![],
            token: "aws:ec2/getAmi:getAmi".to_string(),
            set: set(&["owners"]),
        }
    );
    assert_eq!(
        at("x = invoke(\"a:b:c\", { owners = |").place,
        Place::Expression
    );
}

#[test]
fn calls_and_their_active_argument() {
    let c = at("x = join(\",\", [a, b|");
    let call = c.call.unwrap_or_else(|| panic!("no call"));
    assert_eq!(call.name, "join");
    assert_eq!(call.argument, 1);
    assert_eq!(call.first_string.as_deref(), Some(","));
    let c = at("x = invoke(\"aws:index/getRegion:getRegion\", {\n  a = f(1, 2)\n  |");
    let call = c.call.unwrap_or_else(|| panic!("no call"));
    assert_eq!(call.name, "invoke");
    assert_eq!(call.argument, 1);
    assert_eq!(
        call.first_string.as_deref(),
        Some("aws:index/getRegion:getRegion")
    );
    assert_eq!(at("x = (a + |").call, None);
    let c = at("x = length(|)");
    assert_eq!(
        c.call.map(|c| (c.name, c.argument)),
        Some(("length".to_string(), 0))
    );
}

#[test]
fn for_variables_are_in_scope_in_the_body_only() {
    let c = at("x = [for k, v in items : |]");
    assert_eq!(c.for_vars, set(&["k", "v"]));
    assert_eq!(c.place, Place::Expression);
    assert_eq!(at("x = [for k, v in |").for_vars, Vec::<String>::new());
    assert_eq!(at("x = [for k|").place, Place::Nothing);
    let c = at("x = {for k, v in items : k => |}");
    assert_eq!(c.for_vars, set(&["k", "v"]));
    assert_eq!(c.place, Place::Expression);
}

#[test]
fn deep_nesting_and_stray_closers_do_not_crash() {
    let deep = format!("x = {}|", "(".repeat(100_000));
    assert_eq!(at(&deep).place, Place::Expression);
    assert_eq!(at("}}}])\n|").place, Place::TopLevel);
    assert_eq!(at("x = \"é|").place, Place::Nothing);
    // An offset inside a character is no cursor at all.
    assert_eq!(cursor("é", 1), Cursor::default());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of PCL that open and close every kind of frame.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "resource",
            " a ",
            "\"t:m:R\"",
            " {",
            "}",
            "\n",
            "(",
            ")",
            "[",
            "]",
            "\"",
            "${",
            "%{",
            "<<EOT\n",
            "EOT\n",
            "for",
            " in ",
            ":",
            "=",
            ",",
            ".",
            "invoke(",
            "x",
            "é",
            "# c\n",
            "/*",
            "*/",
            "options",
            "=>",
            "\\",
        ])
    }

    proptest! {
        #[test]
        fn any_text_and_offset_give_a_cursor(
            pieces in prop::collection::vec(piece(), 0..40),
            at in 0usize..400,
        ) {
            let text: String = pieces.concat();
            let c = cursor(&text, at.min(text.len()));
            prop_assert!(c.word_start <= text.len());
            let _ = cursor_within(&text, at.min(text.len()), at.min(text.len()), text.len());
        }
    }
}

fn keys(path: &[&str]) -> Vec<String> {
    set(path)
}

#[test]
fn keys_of_nested_objects_have_their_path() {
    let k8s = "resource d \"kubernetes:apps/v1:Deployment\" {\n  spec = {\n    template = {\n      metadata = { anno|";
    assert_eq!(
        at(k8s).place,
        Place::ResourceKey {
            token: "kubernetes:apps/v1:Deployment".into(),
            path: keys(&["spec", "template", "metadata"]),
            set: vec![],
        }
    );
    assert_eq!(at(k8s).word, "anno");
    // Through a list of objects; keys set before and after are left out.
    let c =
        at("resource s \"k:v1:Service\" {\n  ports = [{ port = 80, | protocol = \"TCP\" }]\n}\n");
    assert_eq!(
        c.place,
        Place::ResourceKey {
            token: "k:v1:Service".into(),
            path: keys(&["ports"]),
            set: keys(&["port", "protocol"]),
        }
    );
    // A quoted key, an invoke's argument object, a component's body.
    let c = at("x = invoke(\"p:m:f\", { \"filters\" = [{\n  | }] })");
    assert_eq!(
        c.place,
        Place::InvokeKey {
            token: "p:m:f".into(),
            path: keys(&["filters"]),
            set: vec![],
        }
    );
    let c = at("component web \"./web\" {\n  settings = {\n    |\n  }\n}\n");
    assert_eq!(
        c.place,
        Place::ComponentKey {
            path: keys(&["settings"]),
            set: vec![]
        }
    );
    // An object that is a call's argument or a `for` body is no input's.
    assert_eq!(
        at("resource a \"p:m:T\" {\n  tags = merge({ |").place,
        Place::Nothing
    );
    assert_eq!(
        at("resource a \"p:m:T\" {\n  tags = [for x in y : { |").place,
        Place::Nothing
    );
    // A local's object is nobody's input.
    assert_eq!(at("x = { |").place, Place::Nothing);
}

#[test]
fn values_after_a_key_know_where_the_key_is() {
    let c = at("resource s \"k:v1:Service\" {\n  spec = {\n    type = |");
    assert_eq!(c.place, Place::Expression);
    assert_eq!(
        c.value_of,
        Some((
            Root::Resource("k:v1:Service".into()),
            keys(&["spec", "type"])
        ))
    );
    // Not past the first token of the value.
    let c = at("resource s \"k:v1:Service\" {\n  spec = {\n    type = a + |");
    assert_eq!(c.value_of, None);
}

#[test]
fn traversals_before_a_dot() {
    let member = |root: &str, steps: Vec<Step>| Place::Member {
        root: root.into(),
        steps,
    };
    assert_eq!(at("x = b.|").place, member("b", vec![]));
    assert_eq!(
        at("x = b.web[0].spec.|").place,
        member(
            "b",
            vec![
                Step::Attr("web".into()),
                Step::Index,
                Step::Attr("spec".into())
            ]
        )
    );
    assert_eq!(
        at("x = f(a[g(1)][\"k\"].v).|").place,
        Place::Nothing,
        "a call's result"
    );
    assert_eq!(at("x = a[b[0]].c|").place, member("a", vec![Step::Index]));
    assert_eq!(at("x = 1.|").place, Place::Nothing);
    assert_eq!(at("x = \"${r.|}\"").place, member("r", vec![]));
}

#[test]
fn resource_options_that_name_resources() {
    let r = |body: &str| {
        at(&format!(
            "resource a \"p:m:T\" {{\n  options {{\n    {body}\n  }}\n}}\n"
        ))
    };
    assert_eq!(r("provider = |").place, Place::ResourceName);
    assert_eq!(r("parent = pr|").place, Place::ResourceName);
    assert_eq!(r("dependsOn = [|]").place, Place::ResourceName);
    assert_eq!(r("dependsOn = [a, |]").place, Place::ResourceName);
    assert_eq!(r("protect = |").place, Place::Expression);
    assert_eq!(r("dependsOn = [a |]").place, Place::Expression);
}

#[test]
fn a_deep_path_is_read_without_recursion() {
    let depth = 100_000;
    let text = format!("resource a \"p:m:T\" {{\n  {}|", "k = { ".repeat(depth));
    match at(&text).place {
        Place::ResourceKey { path, .. } => assert_eq!(path.len(), depth),
        other => panic!("{other:?}"),
    }
    let text = format!("x = a{}.|", ".b".repeat(depth));
    match at(&text).place {
        Place::Member { steps, .. } => assert_eq!(steps.len(), depth),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_string_after_a_key_knows_where_the_key_is() {
    let c = at("resource s \"k:v1:Service\" {\n  spec = {\n    type = \"Clu|\"\n  }\n}\n");
    assert_eq!(c.place, Place::StringValue);
    assert_eq!(c.word, "Clu");
    assert_eq!(
        c.value_of,
        Some((
            Root::Resource("k:v1:Service".into()),
            keys(&["spec", "type"])
        ))
    );
    // Not in an interpolated string, nor in a local's string.
    assert_eq!(
        at("resource s \"k:v1:S\" {\n  t = \"${a} |\"").place,
        Place::Nothing
    );
    assert_eq!(at("x = \"a|\"").place, Place::Nothing);
}
