//! `pcl lsp` end to end over stdio: framed JSON-RPC in, framed JSON-RPC
//! out, and the exit status the LSP specification asks for. (The
//! capabilities themselves are tested in-process in `pcl_lsp`.)

use std::io::Write;
use std::process::{Command, Stdio};

fn frame(json: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{json}", json.len())
}

/// Runs `pcl lsp` with `messages` on stdin; returns (status, stdout).
fn run(messages: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(pcl_tests::pcl_binary())
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start pcl lsp: {e}"));
    let input: String = messages.iter().map(|m| frame(m)).collect();
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("write: {e}"));
    }
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
const SHUTDOWN: &str = r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

#[test]
fn publishes_diagnostics_and_exits_cleanly_after_shutdown() {
    let open = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:Untitled-1","languageId":"pcl","version":1,"text":"a = nope\n"}}}"#;
    let (status, stdout) = run(&[INIT, INITIALIZED, open, SHUTDOWN, EXIT]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains(r#""positionEncoding":"utf-16""#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""code":"undefined-variable""#),
        "{stdout}"
    );
    assert!(stdout.contains(r#""id":2,"result":null"#), "{stdout}");
}

#[test]
fn exit_before_shutdown_is_status_1() {
    let (status, _) = run(&[INIT, INITIALIZED, EXIT]);
    assert_eq!(status, Some(1));
}

#[test]
fn unknown_arguments_are_usage_errors() {
    let out = Command::new(pcl_tests::pcl_binary())
        .args(["lsp", "--tcp"])
        .output()
        .unwrap_or_else(|e| panic!("cannot start pcl: {e}"));
    assert_eq!(out.status.code(), Some(2));
}

/// The initialization options of the guide's Neovim set-up
/// (`docs/editors.md`), which the test below sends as JSON.
const DOCUMENTED_INIT_OPTIONS: &str = r#"init_options = { ["schema-dirs"] = { "schemas" } }"#;

/// The guide's Neovim set-up on the repository's own example: the client's
/// root is the open file's directory (`examples/webapp`) and the editor
/// names `schemas`, which is relative to the project root
/// (`examples/pcl.toml`), so the program's `aws` package is found and the
/// clean program stays clean. (Relative to the file's directory, as the
/// server once read it, every use of `aws` was an `unknown package`.)
#[test]
fn the_documented_settings_check_examples_webapp_cleanly() {
    let guide = std::fs::read_to_string(pcl_tests::repo().join("docs/editors.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        guide.contains(DOCUMENTED_INIT_OPTIONS),
        "docs/editors.md no longer names {DOCUMENTED_INIT_OPTIONS}"
    );
    let webapp = std::fs::canonicalize(pcl_tests::repo().join("examples/webapp"))
        .unwrap_or_else(|e| panic!("{e}"));
    let root = lsp_types_url(&webapp, "");
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "capabilities": {},
        "rootUri": root,
        "workspaceFolders": [{"uri": root, "name": "webapp"}],
        "initializationOptions": {"schema-dirs": ["schemas"]},
    }})
    .to_string();
    let file = webapp.join("network.pp");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
    let uri = lsp_types_url(&webapp, "network.pp");
    let open = serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "pcl", "version": 1, "text": text},
    }})
    .to_string();
    let mut child = Command::new(pcl_tests::pcl_binary())
        .arg("lsp")
        // No schema cache of this machine's: only the settings find `aws`.
        .env("PULUMI_HOME", pcl_tests::fixture("no-pulumi-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start pcl lsp: {e}"));
    let input: String = [init.as_str(), INITIALIZED, &open, SHUTDOWN, EXIT]
        .iter()
        .map(|m| frame(m))
        .collect();
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("write: {e}"));
    }
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let published: Vec<serde_json::Value> = stdout
        .split("Content-Length")
        .filter_map(|m| m.split_once("\r\n\r\n"))
        .filter_map(|(_, body)| serde_json::from_str::<serde_json::Value>(body).ok())
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    let files: Vec<&str> = published
        .iter()
        .filter_map(|m| m["params"]["uri"].as_str())
        .collect();
    assert!(files.contains(&uri.as_str()), "{stdout}");
    assert!(files.len() >= 4, "every file of the program: {files:?}");
    assert!(!stdout.contains("unknown package"), "{stdout}");
    for m in &published {
        assert_eq!(m["params"]["diagnostics"], serde_json::json!([]), "{m}");
    }
}

/// The `file:` URL of `name` in the absolute directory `dir`.
fn lsp_types_url(dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name);
    let text = path.to_str().unwrap_or_else(|| panic!("not UTF-8"));
    format!("file://{}", text.replace(' ', "%20"))
}
