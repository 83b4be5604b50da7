//! The server driven through real JSON-RPC messages, in memory: settings
//! (`pcl.toml` and the editor's), semantic tokens, going to a component's
//! directory, cancellation and the lifecycle's edge cases.

mod client;

use client::{pos, program, started, url, Client};
use serde_json::{json, Value};

/// The (code, severity) of each diagnostic.
fn codes(diags: &[Value]) -> Vec<(String, i64)> {
    diags
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["severity"].as_i64().unwrap_or_default(),
            )
        })
        .collect()
}

fn watched(client: &Client, path: &std::path::Path) {
    let uri = lsp_types::Url::from_file_path(path).unwrap_or_else(|()| panic!("path"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    );
}

#[test]
fn pcl_toml_code_levels_take_effect_and_are_re_read() {
    let text = "x = nope\n";
    let dir = program(&[
        ("main.pp", text),
        ("pcl.toml", "[codes]\nwarn = [\"undefined-variable\"]\n"),
    ]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    // An error by default; the file makes it a warning.
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 2)]
    );
    // The file changes to `allow`: re-read on the watched-files notice.
    let toml = dir.join("pcl.toml");
    std::fs::write(&toml, "[codes]\nallow = [\"undefined-variable\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    // The file goes away: the default level is back.
    std::fs::remove_file(&toml).unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 1)]
    );
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn pcl_toml_schema_dirs_are_relative_to_the_file() {
    let text = "resource s \"shop:index:Store\" {\n  title = [1]\n}\n";
    let schema = r#"{"name": "shop", "version": "1.0.0", "resources": {"shop:index:Store": {"inputProperties": {"title": {"type": "string"}}}}}"#;
    let dir = program(&[("main.pp", text)]);
    std::fs::create_dir_all(dir.join("sub/schemas")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("sub/schemas/shop.json"), schema).unwrap_or_else(|e| panic!("{e}"));
    // The program lives in sub/prog, the pcl.toml in sub.
    let prog = dir.join("sub/prog");
    std::fs::create_dir_all(&prog).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(prog.join("main.pp"), text).unwrap_or_else(|e| panic!("{e}"));
    let mut client = started(&dir);
    let uri = url(&prog, "main.pp");
    client.open(&uri, text);
    // No schema for `shop`: one diagnostic about the package.
    let before = codes(&client.diagnostics(&uri));
    assert_eq!(before.len(), 1, "{before:?}");
    assert_ne!(before[0].0, "type-mismatch", "{before:?}");
    let toml = dir.join("sub/pcl.toml");
    std::fs::write(&toml, "schema-dirs = [\"schemas\"]\n").unwrap_or_else(|e| panic!("{e}"));
    watched(&client, &toml);
    // Now the schema is found: `title = [1]` is checked against `string`.
    let after = client.diagnostics(&uri);
    assert_eq!(after.len(), 1, "{after:?}");
    let message = after[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("string"), "{after:?}");
    assert_ne!(codes(&after), before);
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn did_change_configuration_re_reads_the_editor_settings() {
    let text = "x = nope\n";
    let dir = program(&[("main.pp", text)]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pcl": {"check": {"allow-missing-variables": true}}}}),
    );
    assert_eq!(
        codes(&client.diagnostics(&uri)),
        [("undefined-variable".to_string(), 2)]
    );
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"codes": {"allow": ["undefined-variable"]}}}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    assert_eq!(client.stop(), Ok(()));
}

#[test]
fn a_bad_pcl_toml_is_shown_and_the_program_still_checked() {
    let text = "x = nope\n";
    let dir = program(&[("main.pp", text), ("pcl.toml", "[check]\nlenent = true\n")]);
    let mut client = started(&dir);
    let uri = url(&dir, "main.pp");
    client.open(&uri, text);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    let shown: Vec<&str> = client
        .notifications
        .iter()
        .filter(|n| n.method == "window/showMessage")
        .filter_map(|n| n.params["message"].as_str())
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].contains("pcl.toml:2: unknown key `lenent`"),
        "{shown:?}"
    );
    assert_eq!(client.stop(), Ok(()));
}
