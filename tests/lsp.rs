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
