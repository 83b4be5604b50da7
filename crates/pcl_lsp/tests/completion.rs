//! Completion and signature help driven through real JSON-RPC messages,
//! in memory (through the shared client of `common`).

mod common;

use std::path::Path;

use common::{item, items, labels, program, url, Client};
use lsp_types::Url;
use serde_json::{json, Value};

/// A schema with descriptions, required inputs and a function, written
/// next to the example `aws` schema.
const SHOP: &str = r#"{
  "name": "shop",
  "version": "1.0.0",
  "resources": {
    "shop:index:Store": {
      "description": "A store.",
      "inputProperties": {
        "size": { "type": "integer" },
        "name": { "type": "string", "description": "The store's name." },
        "labels": { "type": "object", "additionalProperties": { "type": "string" } },
        "shelves": { "type": "array", "items": { "type": "string" } }
      },
      "requiredInputs": ["name"],
      "properties": { "url": { "type": "string" } },
      "required": ["url"]
    }
  },
  "functions": {
    "shop:index:getStore": {
      "description": "Finds a store.",
      "inputs": {
        "properties": {
          "city": { "type": "string" },
          "name": { "type": "string", "description": "Its name." }
        },
        "required": ["name"]
      },
      "outputs": { "properties": { "url": { "type": "string" } }, "required": ["url"] }
    }
  }
}"#;

/// A server for a program holding `main.pp` with `marked` in it (the
/// cursor at `|`), opened; returns the client, the document and the
/// cursor's position.
fn at(marked: &str) -> (Client, Url, Value) {
    let offset = marked.find('|').unwrap_or_else(|| panic!("no cursor"));
    let text = marked.replacen('|', "", 1);
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
    let dir = program(&[("main.pp", &text)]);
    let schema_dir = dir.join("schemas");
    std::fs::create_dir_all(&schema_dir).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::write(schema_dir.join("shop.json"), SHOP).unwrap_or_else(|e| panic!("write: {e}"));
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas");
    let mut client = Client::start();
    let root = Url::from_directory_path(&dir).unwrap_or_else(|()| panic!("not absolute"));
    client.initialize(json!({
        "capabilities": {},
        "rootUri": root,
        "initializationOptions": {
            "schema-dirs": [examples.display().to_string(), "schemas"],
            "schema-cache": false,
        },
    }));
    let uri = url(&dir, "main.pp");
    client.open(&uri, &text);
    let position =
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": column}});
    (client, uri, position)
}

/// Completion at the cursor of `marked`.
fn complete(marked: &str) -> Vec<Value> {
    let (mut client, _, position) = at(marked);
    let answer = client.ok("textDocument/completion", position);
    assert_eq!(client.stop(), Ok(()));
    items(&answer)
}

#[test]
fn property_names_of_a_resource_body_with_type_required_and_description() {
    let got = complete("resource s \"shop:index:Store\" {\n  size = 3\n  |\n}\n");
    let names = labels(&got);
    // Required first, then schema order; `size` is set already.
    assert_eq!(names, ["name", "labels", "shelves", "options"]);
    let name = item(&got, "name");
    assert_eq!(name["detail"], "string (required)");
    assert_eq!(name["documentation"]["value"], "The store's name.");
    assert_eq!(item(&got, "labels")["detail"], "map(string)");
    assert_eq!(item(&got, "shelves")["detail"], "list(string)");
    assert_eq!(item(&got, "options")["kind"], 14, "a keyword");
}

#[test]
fn property_names_while_the_body_is_unclosed() {
    let got = complete("resource s \"shop:index:Store\" {\n  name = \"a\"\n  sh|\n");
    assert_eq!(labels(&got), ["shelves"]);
    // A property set after the cursor is left out too.
    let got =
        complete("resource s \"shop:index:Store\" {\n  |\n  name = \"a\"\n  labels = {}\n}\n");
    assert_eq!(labels(&got), ["size", "shelves", "options"]);
}

#[test]
fn argument_names_of_an_invoke() {
    let got = complete("r = invoke(\"shop:index:getStore\", {\n  city = \"x\"\n  |\n})\n");
    assert_eq!(labels(&got), ["name"]);
    let name = item(&got, "name");
    assert_eq!(name["detail"], "string (required)");
    assert_eq!(name["documentation"]["value"], "Its name.");
    let got = complete("r = invoke(\"aws:ec2/getAmi:getAmi\", { owners = [], |");
    assert_eq!(labels(&got), ["mostRecent", "filters"]);
    assert_eq!(item(&got, "filters")["detail"], "list(getAmiFilter)");
}

#[test]
fn option_keys_inside_options() {
    let got = complete(
        "resource s \"shop:index:Store\" {\n  name = \"a\"\n  options {\n    protect = true\n    |\n  }\n}\n",
    );
    let names = labels(&got);
    for want in ["dependsOn", "ignoreChanges", "range", "provider"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(!names.contains(&"protect"), "{names:?}");
    assert!(!names.contains(&"name"), "{names:?}");
}

#[test]
fn names_in_scope_and_builtins_in_expressions() {
    let text = "config region string {\n}\nprefix = \"p\"\nresource s \"shop:index:Store\" {\n  name = [for k, v in [\"a\"] : |]\n  options {\n    range = 2\n  }\n}\n";
    let got = complete(text);
    let names = labels(&got);
    for want in [
        "k", "v", "range", "region", "prefix", "s", "join", "invoke", "lookup",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(!names.contains(&"resource"), "no keywords in an expression");
    // Innermost first: the for variables lead.
    assert_eq!(names.first(), Some(&"v"));
    assert_eq!(
        item(&got, "join")["detail"],
        "join(separator: string, strings: list(string))"
    );
    // Without a range option there is no `range`, and outside the for no
    // `k`.
    let got = complete("resource s \"shop:index:Store\" {\n  name = |\n}\n");
    let names = labels(&got);
    // (`range` the builtin function is there; the variable is not.)
    assert_eq!(item(&got, "range")["kind"], 3, "the builtin function");
    assert!(!names.contains(&"k"), "{names:?}");
    assert!(names.contains(&"s"), "{names:?}");
}

#[test]
fn the_word_typed_filters_and_ranks() {
    let got = complete("toJsonText = 1\njoinedNames = 2\nother = 3\nx = jn|\n");
    let names = labels(&got);
    // Subsequence matches only, any case.
    assert!(
        names.iter().all(|n| n.to_lowercase().contains('j')),
        "{names:?}"
    );
    assert!(!names.contains(&"other"), "{names:?}");
    // Both letters on word boundaries (`j…N`) first; then `join`, whose
    // `j` starts it; then `toJsonText`, whose `J` is a boundary inside.
    let at = |n: &str| names.iter().position(|x| *x == n);
    assert_eq!(names.first(), Some(&"joinedNames"));
    assert!(at("join") < at("toJsonText"), "{names:?}");
    assert!(at("toJsonText").is_some(), "{names:?}");
}

#[test]
fn schema_tokens_ranked_fuzzily_with_the_typed_text_replaced() {
    let (mut client, _, position) = at("resource b \"aws:buob|\"\n");
    let got = items(&client.ok("textDocument/completion", position));
    assert_eq!(
        labels(&got).first(),
        Some(&"aws:s3/bucketObject:BucketObject")
    );
    let edit = &item(&got, "aws:s3/bucketObject:BucketObject")["textEdit"];
    assert_eq!(edit["range"]["start"], json!({"line": 0, "character": 12}));
    assert_eq!(edit["range"]["end"], json!({"line": 0, "character": 20}));
    assert_eq!(client.stop(), Ok(()));
    // A package the program does not use yet, named by the typed prefix.
    let got = complete("x = 1\nresource c \"shop:|\n");
    assert_eq!(labels(&got), ["shop:index:Store"]);
    let got = complete("x = invoke(\"shop:|\n");
    assert_eq!(labels(&got), ["shop:index:getStore"]);
}

#[test]
fn nothing_inside_other_strings_and_outputs_after_a_dot() {
    assert!(complete("x = \"hello |\"\n").is_empty());
    // After a resource's name and a dot: its outputs (issue 27 §2).
    let got = complete("resource s \"shop:index:Store\" {\n  name = \"a\"\n}\ny = s.|\n");
    assert_eq!(labels(&got), ["id", "url", "urn"]);
    assert_eq!(item(&got, "url")["detail"], "string (required)");
}

#[test]
fn names_of_the_last_good_check_survive_a_syntax_error() {
    let good = "alpha = 1\nresource s \"shop:index:Store\" {\n  name = \"a\"\n}\nalpine = 2\n";
    let (mut client, uri, _) = at(&format!("{good}|"));
    // Mid-typing: the body's brace is not closed yet, so what follows
    // is read as part of the body and `alpine` is no longer declared.
    let broken = "alpha = 1\nresource s \"shop:index:Store\" {\n  name = al\nalpine = 2\n";
    client.change(&uri, 2, broken);
    let got = items(&client.ok(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 11}}),
    ));
    let names = labels(&got);
    assert!(names.contains(&"alpha"), "{names:?}");
    assert!(names.contains(&"alpine"), "{names:?}");
    // Still broken, differently: the names of the last good check stay.
    let broken = "alpha = 1\nresource s \"shop:index:Store\" {\n  name = alp\nalpine = 2\n";
    client.change(&uri, 3, broken);
    let got = items(&client.ok(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 12}}),
    ));
    let names = labels(&got);
    assert!(names.contains(&"alpine"), "{names:?}");
    // Good again without `alpine`: it is gone.
    client.change(&uri, 4, "alpha = 1\nx = al\n");
    let got = items(&client.ok(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 6}}),
    ));
    let names = labels(&got);
    assert!(names.contains(&"alpha"), "{names:?}");
    assert!(!names.contains(&"alpine"), "{names:?}");
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn long_lists_are_cut_and_marked_incomplete() {
    let mut text: String = (0..600).map(|i| format!("name{i} = {i}\n")).collect();
    text.push_str("x = |\n");
    let (mut client, uri, position) = at(&text);
    let answer = client.ok("textDocument/completion", position);
    assert_eq!(answer["isIncomplete"], true, "a list marked incomplete");
    let got = items(&answer);
    assert_eq!(got.len(), 500);
    // Ranked and numbered in order: the client keeps the order.
    assert_eq!(got[0]["sortText"], "0000");
    assert_eq!(got[499]["sortText"], "0499");
    // A word that narrows the list below the cut: a plain array.
    let text: String = (0..600)
        .map(|i| format!("name{i} = {i}\n"))
        .collect::<String>()
        + "x = name59\n";
    client.change(&uri, 2, &text);
    let answer = client.ok(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 600, "character": 10}}),
    );
    let got = labels(&items(&answer))
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
    assert!(answer.is_array(), "{answer}");
    assert_eq!(got.first().map(String::as_str), Some("name59"));
    assert!(got.len() < 500, "{got:?}");
    assert_eq!(client.stop(), Ok(()));
}

/// Signature help at the cursor of `marked`.
fn signature(marked: &str) -> Value {
    let (mut client, _, position) = at(marked);
    let answer = client.ok("textDocument/signatureHelp", position);
    assert_eq!(client.stop(), Ok(()));
    answer
}

/// The labels of the parameters of the first signature.
fn parameters(help: &Value) -> Vec<String> {
    let label = help["signatures"][0]["label"].as_str().unwrap_or("");
    let utf16: Vec<u16> = label.encode_utf16().collect();
    help["signatures"][0]["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|p| {
            let start = p["label"][0].as_u64().unwrap_or(0) as usize;
            let end = p["label"][1].as_u64().unwrap_or(0) as usize;
            String::from_utf16_lossy(utf16.get(start..end).unwrap_or(&[]))
        })
        .collect()
}

#[test]
fn signature_help_for_builtins_with_the_active_argument() {
    let help = signature("x = join(\",\", [|])\n");
    assert_eq!(
        help["signatures"][0]["label"],
        "join(separator: string, strings: list(string))"
    );
    assert_eq!(
        parameters(&help),
        ["separator: string", "strings: list(string)"]
    );
    assert_eq!(help["activeParameter"], 1);
    let help = signature("x = join(|\n");
    assert_eq!(help["activeParameter"], 0);
    // A variadic builtin: every argument past the last parameter is it.
    let help = signature("x = try(a, b, c, |)\n");
    assert_eq!(help["activeParameter"], 1);
    assert_eq!(signature("x = unknownFunction(|)\n"), Value::Null);
    assert_eq!(signature("x = (1 + |)\n"), Value::Null);
}

#[test]
fn signature_help_for_invoke_shows_the_function_inputs() {
    let help = signature("r = invoke(\"shop:index:getStore\", {\n  name = \"a\"\n  |\n})\n");
    assert_eq!(
        parameters(&help),
        [
            "token: \"shop:index:getStore\"",
            "args: { city?: string, name: string }",
            "options?: { provider, parent, version, pluginDownloadUrl, dependsOn }"
        ]
    );
    assert_eq!(help["activeParameter"], 1);
    assert_eq!(
        help["signatures"][0]["documentation"]["value"],
        "Finds a store."
    );
    // An unknown token: the generic signature.
    let help = signature("r = invoke(\"shop:index:nothing\", |)\n");
    assert_eq!(
        parameters(&help).first().map(String::as_str),
        Some("token: string")
    );
    assert_eq!(help["activeParameter"], 1);
}

#[test]
fn capabilities_advertise_completion_and_signature_triggers() {
    let mut client = Client::start();
    let result = client.initialize(json!({"capabilities": {}}));
    let caps = &result["capabilities"];
    assert_eq!(
        caps["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
    let triggers = caps["completionProvider"]["triggerCharacters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(triggers.contains(&json!("\"")), "{triggers:?}");
    assert_eq!(client.stop(), Ok(()));
}
