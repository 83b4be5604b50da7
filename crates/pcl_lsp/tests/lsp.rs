//! The server driven through real JSON-RPC messages, in memory: one test
//! per capability, and a property test of random edits and requests.

mod common;

use std::time::Duration;

use common::{pos, program, schemas, started, url, Client};
use lsp_server::Message;
use lsp_types::Url;
use serde_json::{json, Value};

#[test]
fn lifecycle_encoding_panics_and_shutdown() {
    // UTF-8 offered: chosen.
    let mut client = Client::start();
    let init = client.initialize(json!({
        "capabilities": {"general": {"positionEncodings": ["utf-16", "utf-8"]}}
    }));
    assert_eq!(init["capabilities"]["positionEncoding"], json!("utf-8"));
    assert_eq!(init["serverInfo"]["name"], json!("pcl"));

    // A panicking handler is answered as an internal error; the server goes on.
    let resp = client.request("pcl/testPanic", Value::Null);
    let err = resp
        .error
        .unwrap_or_else(|| panic!("the panic was not answered as an error"));
    assert_eq!(err.code, lsp_server::ErrorCode::InternalError as i32);
    let resp = client.request("no/suchMethod", Value::Null);
    assert_eq!(
        resp.error.map(|e| e.code),
        Some(lsp_server::ErrorCode::MethodNotFound as i32)
    );

    // After shutdown, requests are refused; exit then ends the loop cleanly.
    let resp = client.request("shutdown", Value::Null);
    assert!(resp.error.is_none());
    let resp = client.request("textDocument/hover", Value::Null);
    assert_eq!(
        resp.error.map(|e| e.code),
        Some(lsp_server::ErrorCode::InvalidRequest as i32)
    );
    client.notify("exit", Value::Null);
    assert_eq!(client.join(), Ok(()));

    // No encoding offered: UTF-16. Exit without shutdown is an error.
    let mut client = Client::start();
    let init = client.initialize(json!({"capabilities": {}}));
    assert_eq!(init["capabilities"]["positionEncoding"], json!("utf-16"));
    client.notify("exit", Value::Null);
    assert!(client.join().is_err());
}

#[test]
fn utf16_positions_in_diagnostics() {
    // `é` and `𝄞` before the undefined name: 3 UTF-16 units, 6 bytes.
    let dir = program(&[("main.pp", "a = \"é𝄞\"\nb = [a, nope]\n")]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, "a = \"é𝄞\"\nb = [\"é𝄞\", nope]\n");
    let diags = client.diagnostics(&uri);
    let d = diags
        .first()
        .unwrap_or_else(|| panic!("no diagnostic: {diags:?}"));
    // `nope` starts at UTF-16 column 12 on line 1 (byte 15).
    assert_eq!(d["range"]["start"], json!({"line": 1, "character": 12}));
    assert_eq!(d["range"]["end"], json!({"line": 1, "character": 16}));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn diagnostics_for_every_file_of_the_program() {
    let dir = program(&[
        ("a.pp", "x = \"hello\"\n"),
        ("b.pp", "y = x\nz = missing\n"),
    ]);
    let mut client = started(&dir);
    let a = url(&dir, "a.pp");
    let b = url(&dir, "b.pp");
    // Opening a.pp checks the whole directory: b.pp's problem is published.
    client.open(&a, "x = \"hello\"\n");
    assert_eq!(client.diagnostics(&a), Vec::<Value>::new());
    let diags = client.diagnostics(&b);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["severity"], json!(1));
    assert_eq!(d["source"], json!("pcl"));
    let code = d["code"].as_str().unwrap_or_default().to_string();
    assert!(!code.is_empty(), "{d}");
    // No link to a placeholder address (the explanation is on hover).
    assert!(d.get("codeDescription").is_none(), "{d}");
    assert_eq!(d["range"]["start"], json!({"line": 1, "character": 4}));

    // The open buffer overrides the disk: defining `missing` in a.pp clears b.pp.
    client.change(&a, 2, "x = \"hello\"\nmissing = 1\n");
    assert_eq!(client.diagnostics(&b), Vec::<Value>::new());

    // Closing a.pp while b.pp is open goes back to the disk: the problem
    // returns.
    client.open(&b, "y = x\nz = missing\n");
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": a}}));
    assert_eq!(client.diagnostics(&b).len(), 1);
    // Closing the last one forgets the program: its diagnostics are
    // cleared.
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": b}}));
    assert_eq!(client.diagnostics(&b), Vec::<Value>::new());
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn diagnostics_carry_related_locations() {
    // A cycle names the other half of it.
    let text = "p = q\nq = p\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let diags = client.diagnostics(&uri);
    let related: Vec<&Value> = diags
        .iter()
        .filter_map(|d| d.get("relatedInformation"))
        .collect();
    assert!(!related.is_empty(), "{diags:?}");
    assert_eq!(related[0][0]["location"]["uri"], json!(uri));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn hover_shows_types_and_resource_tokens() {
    let text = "name = \"web\"\nn = length(name)\n\
                resource bucket \"aws:s3/bucket:Bucket\" {\n  bucket = name\n}\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // `name` inside `length(name)`.
    let hover = client.ok("textDocument/hover", pos(&uri, 1, 12));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("string"), "{hover}");
    assert_eq!(hover["range"]["start"], json!({"line": 1, "character": 11}));
    // `length(name)` itself: a number.
    let hover = client.ok("textDocument/hover", pos(&uri, 1, 5));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("int") || value.contains("number"), "{hover}");
    // The resource's name: its token and schema.
    let hover = client.ok("textDocument/hover", pos(&uri, 2, 11));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("aws:s3/bucket:Bucket"), "{hover}");
    assert!(value.contains("package `aws`"), "{hover}");
    assert!(value.contains("An S3 bucket."), "{hover}");
    // A property name: its expected type.
    let hover = client.ok("textDocument/hover", pos(&uri, 3, 3));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.starts_with("```pcl\nbucket: "), "{hover}");
    assert!(value.contains("\n\noptional"), "{hover}");
    // Outside any declaration: nothing.
    let hover = client.ok("textDocument/hover", pos(&uri, 40, 0));
    assert_eq!(hover, Value::Null);
    assert_eq!(client.stop(), Ok(()));
}

/// Hover on a literal shows the PCL literal it is, never Go notation
/// (`cty.NumberIntVal(80)`, `cty.StringVal("hello")`).
#[test]
fn hover_on_literals_shows_pcl_values() {
    let text = "x = \"hello\"\nport = 80\npi = 3.5\nyes = true\no = { a = 1 }\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    for (line, col, shown) in [
        (0, 6, "\"hello\""),
        (1, 8, "80"),
        (2, 6, "3.5"),
        (3, 7, "true"),
        (4, 10, "1"),
    ] {
        let hover = client.ok("textDocument/hover", pos(&uri, line, col));
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(!value.contains("cty."), "{hover}");
        assert_eq!(value, format!("```pcl\n{shown}\n```"), "{hover}");
    }
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn definition_of_locals_config_and_resources_across_files() {
    let decls = "config region string {\n}\nprefix = \"p\"\n";
    let uses = "out = \"${prefix}-${region}\"\n";
    let dir = program(&[("decls.pp", decls), ("uses.pp", uses)]);
    let mut client = started(&dir);
    let u = url(&dir, "uses.pp");
    client.open(&u, uses);
    let def = client.ok("textDocument/definition", pos(&u, 0, 10));
    assert_eq!(def["uri"], json!(url(&dir, "decls.pp")));
    assert_eq!(def["range"]["start"], json!({"line": 2, "character": 0}));
    let def = client.ok("textDocument/definition", pos(&u, 0, 21));
    assert_eq!(def["uri"], json!(url(&dir, "decls.pp")));
    assert_eq!(def["range"]["start"], json!({"line": 0, "character": 7}));
    // On a string literal: nowhere to go.
    let def = client.ok("textDocument/definition", pos(&u, 0, 16));
    assert_eq!(def, Value::Null);
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn document_symbols_outline_the_file() {
    let text = "config c int {\n}\nl = 1\n\
                resource r \"aws:s3/bucket:Bucket\" {\n}\noutput o {\n  value = l\n}\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let symbols = client.ok(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let mut names: Vec<(String, u64)> = symbols
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_string(),
                s["kind"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    names.sort();
    // CONSTANT 14, VARIABLE 13, PROPERTY 7, OBJECT 19.
    assert_eq!(
        names,
        vec![
            ("c".to_string(), 14),
            ("l".to_string(), 13),
            ("o".to_string(), 7),
            ("r".to_string(), 19)
        ]
    );
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn formatting_goes_through_pcl_fmt() {
    let text = "a   =   1\nbb = 2\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let params =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = client.ok("textDocument/formatting", params.clone());
    let expected =
        pcl_fmt::format(pcl_diagnostics::FileId(0), text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_ne!(expected, text);
    assert_eq!(edits[0]["newText"], json!(expected));
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 2, "character": 0}));
    // Formatted already: no edits.
    client.change(&uri, 2, &expected);
    assert_eq!(client.ok("textDocument/formatting", params), json!([]));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn code_actions_answer_for_the_file() {
    // The quick-fix conversion itself is unit-tested in `server/actions.rs`; here
    // the request round-trips on a file with a problem and no fix.
    let text = "a = nope\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let actions = client.ok(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 4}},
               "context": {"diagnostics": []}}),
    );
    assert_eq!(client.diagnostics(&uri).len(), 1);
    // No name is close to `nope`, so there is nothing to offer.
    assert_eq!(actions, json!([]));
    // A document of no known program: no answer.
    let other = url(&dir, "elsewhere/x.pp");
    let actions = client.ok(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": other},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": []}}),
    );
    assert_eq!(actions, Value::Null);
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn completion_offers_keywords_and_names_in_scope() {
    let text = "config region string {\n}\nprefix = \"p\"\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let items = client.ok("textDocument/completion", pos(&uri, 2, 0));
    let labels: Vec<&str> = items
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for want in [
        "resource",
        "config",
        "output",
        "component",
        "region",
        "prefix",
    ] {
        assert!(labels.contains(&want), "{want} missing from {labels:?}");
    }
    assert_eq!(client.stop(), Ok(()));
}

fn labels(items: &Value) -> Vec<String> {
    items
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|i| i["label"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn completion_offers_schema_tokens_inside_headers_and_invokes() {
    let text = "resource a \"aws:s3/bucket:Bucket\" {\n}\nresource b \"aws:\"\nr = invoke(\"aws:\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // Inside the token string of `resource b "aws:`: resource tokens only.
    let items = labels(&client.ok("textDocument/completion", pos(&uri, 2, 16)));
    assert!(
        items.iter().any(|l| l == "aws:s3/bucket:Bucket"),
        "{items:?}"
    );
    assert!(!items.iter().any(|l| l == "resource"), "{items:?}");
    assert!(
        !items.iter().any(|l| l == "aws:index/getRegion:getRegion"),
        "{items:?}"
    );
    // Inside `invoke("aws:`: function tokens.
    let items = labels(&client.ok("textDocument/completion", pos(&uri, 3, 15)));
    assert!(
        items.iter().any(|l| l == "aws:index/getRegion:getRegion"),
        "{items:?}"
    );
    assert!(
        !items.iter().any(|l| l == "aws:s3/bucket:Bucket"),
        "{items:?}"
    );
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn definition_of_a_for_variable() {
    let text = "xs = [1, 2]\nys = [for x in xs : x + 1]\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // The `x` of `x + 1` goes to the `x` after `for`.
    let def = client.ok("textDocument/definition", pos(&uri, 1, 20));
    assert_eq!(def["range"]["start"], json!({"line": 1, "character": 10}));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn watched_schema_and_program_changes_are_picked_up() {
    // A private schema directory, so it can change under the server.
    let schema_dir = program(&[]);
    let dir = program(&[(
        "main.pp",
        "resource s \"shop:index:Store\" {\n  name = \"x\"\n}\n",
    )]);
    let schema = |props: &str| {
        format!(
            r#"{{"name": "shop", "version": "1.0.0", "resources": {{"shop:index:Store": {{"inputProperties": {{{props}}}}}}}}}"#
        )
    };
    std::fs::write(
        schema_dir.join("shop.json"),
        schema(r#""title": {"type": "string"}"#),
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let mut client = Client::start();
    client.initialize(json!({
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}},
        "initializationOptions": {"schema-dirs": [schema_dir], "schema-cache": false},
    }));
    let uri = url(&dir, "main.pp");
    client.open(
        &uri,
        "resource s \"shop:index:Store\" {\n  name = \"x\"\n}\n",
    );
    assert_eq!(
        client.diagnostics(&uri).len(),
        1,
        "`name` is not a property yet"
    );
    // The client offered dynamic registration: the server asked to watch.
    let registration = client
        .server_requests
        .iter()
        .find(|r| r.method == "client/registerCapability")
        .unwrap_or_else(|| panic!("no registration: {:?}", client.server_requests));
    let watchers = &registration.params["registrations"][0]["registerOptions"]["watchers"];
    assert_eq!(watchers[0]["globPattern"], json!("**/*.pp"));
    assert_eq!(watchers[1]["globPattern"], json!("**/*.json"));

    // The schema gains `name`: after the change notice, the problem is gone.
    let schema_file = schema_dir.join("shop.json");
    std::fs::write(&schema_file, schema(r#""name": {"type": "string"}"#))
        .unwrap_or_else(|e| panic!("write: {e}"));
    let schema_uri = Url::from_file_path(&schema_file).unwrap_or_else(|()| panic!("path"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": schema_uri, "type": 2}]}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());

    // A new file on disk in the program: re-checked on its change notice.
    std::fs::write(dir.join("more.pp"), "y = nope\n").unwrap_or_else(|e| panic!("write: {e}"));
    let more = url(&dir, "more.pp");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": more, "type": 1}]}),
    );
    assert_eq!(client.diagnostics(&more).len(), 1);
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn references_and_rename_across_files() {
    let decls = "config \"region\" string {\n}\nprefix = \"p\"\n";
    let uses = "out = \"${prefix}-${region}\"\nmore = [prefix, region]\n";
    let dir = program(&[("decls.pp", decls), ("uses.pp", uses)]);
    let mut client = started(&dir);
    let u = url(&dir, "uses.pp");
    let d = url(&dir, "decls.pp");
    client.open(&u, uses);
    // From a use of `region`, with the declaration.
    let refs = client.ok(
        "textDocument/references",
        json!({"textDocument": {"uri": u}, "position": {"line": 0, "character": 21},
               "context": {"includeDeclaration": true}}),
    );
    let got: Vec<(String, Value)> = refs
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap_or_default().to_string(),
                l["range"]["start"].clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (d.to_string(), json!({"line": 0, "character": 7})),
            (u.to_string(), json!({"line": 0, "character": 19})),
            (u.to_string(), json!({"line": 1, "character": 16})),
        ]
    );
    // Rename from the (quoted) declaration: the quotes stay.
    let edit = client.ok(
        "textDocument/rename",
        json!({"textDocument": {"uri": d}, "position": {"line": 0, "character": 9}, "newName": "zone"}),
    );
    let decl_edits = edit["changes"][d.as_str()]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(decl_edits.len(), 1, "{edit}");
    assert_eq!(
        decl_edits[0]["range"]["start"],
        json!({"line": 0, "character": 8})
    );
    assert_eq!(
        decl_edits[0]["range"]["end"],
        json!({"line": 0, "character": 14})
    );
    assert_eq!(decl_edits[0]["newText"], json!("zone"));
    let use_edits = edit["changes"][u.as_str()]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(use_edits.len(), 2, "{edit}");
    // Not an identifier: refused.
    let resp = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": d}, "position": {"line": 0, "character": 9}, "newName": "a b"}),
    );
    assert_eq!(
        resp.error.map(|e| e.code),
        Some(lsp_server::ErrorCode::InvalidParams as i32)
    );
    // Workspace symbols: by substring, any case.
    let symbols = client.ok("workspace/symbol", json!({"query": "REG"}));
    let names: Vec<&str> = symbols
        .as_array()
        .map(|a| a.iter().filter_map(|s| s["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, vec!["region"]);
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn range_formatting_touches_only_the_range() {
    let text = "a   =   1\n\nb   =   2\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    let edits = client.ok(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 3}},
               "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits[0]["newText"], json!("a   =   1\n\nb = 2\n"));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn changes_are_debounced() {
    let dir = program(&[("main.pp", "x = 1\n")]);
    // A debounce of ten minutes: no change is checked by the clock during
    // this test, so the count below does not depend on how busy the
    // machine is. Only the request checks.
    let mut client = Client::start();
    let root = Url::from_directory_path(&dir).unwrap_or_else(|()| panic!("not absolute"));
    client.initialize(json!({
        "capabilities": {},
        "rootUri": root,
        "initializationOptions": {"schema-dirs": [schemas()], "schema-cache": false,
                                  "debounce-ms": 600_000},
    }));
    let uri = url(&dir, "main.pp");
    client.open(&uri, "x = 1\n");
    let _ = client.diagnostics(&uri);
    let before = client.notifications.len();
    // A burst of 40 changes followed by a request is one check.
    for v in 2..42 {
        client.change(&uri, v, &format!("x = {v}\ny = nope\n"));
    }
    let diags = client.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let publishes = client.notifications[before..]
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics")
        .count();
    assert_eq!(publishes, 1, "{publishes} publishes for 40 changes");
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn a_change_is_checked_after_a_pause_without_a_request() {
    let dir = program(&[("main.pp", "x = 1\n")]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, "x = 1\n");
    let _ = client.diagnostics(&uri);
    // Without a request, the check still comes, after the default pause
    // (the wait below only bounds a hang; it asserts no time).
    client.change(&uri, 50, "x = nope\n");
    let n = client
        .conn
        .receiver
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("no diagnostics after a pause: {e}"));
    let Message::Notification(n) = n else {
        panic!("unexpected {n:?}");
    };
    assert_eq!(n.method, "textDocument/publishDiagnostics");
    assert_eq!(n.params["diagnostics"].as_array().map(Vec::len), Some(1));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn hover_on_config_shows_its_description() {
    let text = "config site string {\n  description = \"The site's name.\"\n}\nx = site\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // On the declaration's name.
    let hover = client.ok("textDocument/hover", pos(&uri, 0, 8));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("config site: string"), "{hover}");
    assert!(value.contains("The site's name."), "{hover}");
    // On a reference: the type, then the description.
    let hover = client.ok("textDocument/hover", pos(&uri, 3, 5));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.starts_with("```pcl\nstring\n```"), "{hover}");
    assert!(value.contains("The site's name."), "{hover}");
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn deep_expressions_are_walked_without_recursion() {
    // A 20,000-term chain: hover, definition and references walk it with
    // an explicit stack.
    let mut text = String::from("a = 1\nx = a");
    for _ in 0..20_000 {
        text.push_str(" + a");
    }
    text.push('\n');
    let dir = program(&[("main.pp", &text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, &text);
    let last = u32::try_from(text.len() - 8).unwrap_or(0);
    let hover = client.ok("textDocument/hover", pos(&uri, 1, last));
    assert!(hover["contents"]["value"].is_string(), "{hover}");
    let refs = client.ok(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0},
               "context": {"includeDeclaration": false}}),
    );
    assert!(refs.as_array().is_some_and(|r| !r.is_empty()), "{refs}");
    assert_eq!(client.stop(), Ok(()));
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Step {
        Change(String),
        Hover(u32, u32),
        Definition(u32, u32),
        Symbols,
        Format,
        Complete(u32, u32),
        Actions(u32, u32),
        Close,
        References(u32, u32),
        Rename(u32, u32),
    }

    fn step() -> impl Strategy<Value = Step> {
        let text = "(resource|config|output|[a-z]{1,3}|=|\"|\\$\\{|\\}|\\{|\n| |é|𝄞|[0-9]){0,40}";
        prop_oneof![
            text.prop_map(Step::Change),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::Hover(l, c)),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::Definition(l, c)),
            Just(Step::Symbols),
            Just(Step::Format),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::Complete(l, c)),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::Actions(l, c)),
            Just(Step::Close),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::References(l, c)),
            (0u32..6, 0u32..40).prop_map(|(l, c)| Step::Rename(l, c)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_edits_and_requests_never_crash(steps in proptest::collection::vec(step(), 1..25)) {
            let dir = program(&[("main.pp", "x = 1\n")]);
            let mut client = started(&dir);
            let uri = url(&dir, "main.pp");
            client.open(&uri, "x = 1\n");
            let mut version = 1;
            for s in steps {
                let resp = match s {
                    Step::Change(text) => {
                        version += 1;
                        client.change(&uri, version, &text);
                        None
                    }
                    Step::Hover(l, c) => Some(client.request("textDocument/hover", pos(&uri, l, c))),
                    Step::Definition(l, c) => Some(client.request("textDocument/definition", pos(&uri, l, c))),
                    Step::Complete(l, c) => Some(client.request("textDocument/completion", pos(&uri, l, c))),
                    Step::Symbols => Some(client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}))),
                    Step::Format => Some(client.request("textDocument/formatting", json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}))),
                    Step::Actions(l, c) => Some(client.request("textDocument/codeAction", json!({"textDocument": {"uri": uri}, "range": {"start": {"line": l, "character": c}, "end": {"line": l, "character": c}}, "context": {"diagnostics": []}}))),
                    Step::References(l, c) => Some(client.request("textDocument/references", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": c}, "context": {"includeDeclaration": true}}))),
                    Step::Rename(l, c) => Some(client.request("textDocument/rename", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": c}, "newName": "renamed"}))),
                    Step::Close => {
                        client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
                        client.open(&uri, "x = 1\n");
                        None
                    }
                };
                if let Some(resp) = resp {
                    prop_assert!(resp.error.is_none(), "{:?}", resp.error);
                }
            }
            // No handler panicked (a caught panic is logged).
            let logged = client.notifications.iter().any(|n| n.method == "window/logMessage");
            prop_assert!(!logged);
            prop_assert_eq!(client.stop(), Ok(()));
        }
    }
}

/// The start positions of a list of locations.
fn starts(locations: &Value) -> Vec<Value> {
    locations
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|l| l["range"]["start"].clone())
        .collect()
}

#[test]
fn references_and_rename_of_for_variables() {
    let text = "xs = [1, 2]\nys = [for x in xs : x + x]\nzs = [for x in xs : x]\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // From a use: the declaration and both uses of that `x`, not the other
    // `for`'s `x`.
    let refs = client.ok(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 20},
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(
        starts(&refs),
        vec![
            json!({"line": 1, "character": 10}),
            json!({"line": 1, "character": 20}),
            json!({"line": 1, "character": 24}),
        ]
    );
    // From the declaration, without it.
    let refs = client.ok(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 10},
               "context": {"includeDeclaration": false}}),
    );
    assert_eq!(starts(&refs), vec![json!({"line": 2, "character": 20})]);
    // Rename: declaration and uses of the first `x` only.
    let edit = client.ok(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 24}, "newName": "item"}),
    );
    let edits = edit["changes"][uri.as_str()]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut at: Vec<Value> = edits.iter().map(|e| e["range"]["start"].clone()).collect();
    at.sort_by_key(|p| p["character"].as_u64());
    assert_eq!(
        at,
        vec![
            json!({"line": 1, "character": 10}),
            json!({"line": 1, "character": 20}),
            json!({"line": 1, "character": 24}),
        ]
    );
    assert!(edits.iter().all(|e| e["newText"] == json!("item")));
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn range_variables_have_definition_and_references_but_no_rename() {
    let text = "resource b \"aws:s3/bucket:Bucket\" {\n  options {\n    range = 2\n  }\n  bucket = \"b-${range.value}\"\n  acl = \"${range.value}\"\n}\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // `range` in `range.value` goes to the `range` option.
    let def = client.ok("textDocument/definition", pos(&uri, 4, 17));
    assert_eq!(def["range"]["start"], json!({"line": 2, "character": 4}));
    let refs = client.ok(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 12},
               "context": {"includeDeclaration": false}}),
    );
    assert_eq!(
        starts(&refs),
        vec![
            json!({"line": 4, "character": 16}),
            json!({"line": 5, "character": 11}),
        ]
    );
    let resp = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 17}, "newName": "r"}),
    );
    assert_eq!(
        resp.error.map(|e| e.code),
        Some(lsp_server::ErrorCode::InvalidRequest as i32)
    );
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn hover_on_an_invoke_shows_the_function() {
    let text = "ami = invoke(\"aws:ec2/getAmi:getAmi\", { mostRecent = true })\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    for character in [8, 20] {
        let hover = client.ok("textDocument/hover", pos(&uri, 0, character));
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        // The canonical token the call binds to, and the schema's own.
        assert!(value.contains("invoke(\"aws:ec2:getAmi\")"), "{value}");
        assert!(
            value.contains("schema token `aws:ec2/getAmi:getAmi`"),
            "{value}"
        );
        assert!(value.contains("Finds a machine image."), "{value}");
        assert!(value.contains("- `mostRecent` (optional)"), "{value}");
        assert!(value.contains("- `owners` (optional)"), "{value}");
    }
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn hover_on_a_nested_key_shows_the_schema_property() {
    let text = "resource b \"aws:s3/bucket:Bucket\" {\n  website = {\n    indexDocument = \"index.html\"\n  }\n}\nresource sg \"aws:ec2/securityGroup:SecurityGroup\" {\n  ingress = [{ protocol = \"tcp\", fromPort = 80, toPort = 80 }]\n}\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // A key of an object typed by a named schema type.
    let hover = client.ok("textDocument/hover", pos(&uri, 2, 8));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("indexDocument: string"), "{value}");
    assert!(value.contains("optional"), "{value}");
    assert!(
        value.contains("The object returned for requests to the root."),
        "{value}"
    );
    assert_eq!(hover["range"]["start"], json!({"line": 2, "character": 4}));
    // Through a list: an element's key, required by its type.
    let hover = client.ok("textDocument/hover", pos(&uri, 6, 16));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("protocol: string"), "{value}");
    assert!(value.contains("required"), "{value}");
    // The value of a nested key is still an expression: its type.
    let hover = client.ok("textDocument/hover", pos(&uri, 2, 24));
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(!value.contains("optional"), "{value}");
    assert_eq!(client.stop(), Ok(()));
}
