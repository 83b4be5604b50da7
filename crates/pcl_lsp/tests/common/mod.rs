//! A small JSON-RPC client for the in-memory server, shared by the test
//! files that drive it (`lsp.rs`, `completion.rs`, `depth.rs`, `capabilities.rs`:
//! each says `mod common;`), and the helpers they build programs and
//! positions with. It keeps every notification and server request it
//! receives, so the memory test (which must not grow) has its own.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::Url;
use serde_json::{json, Value};

/// A client talking to a server thread.
pub struct Client {
    pub conn: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    pub next_id: i32,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Notification>,
    /// Requests the server sent (each answered with `null`).
    pub server_requests: Vec<Request>,
}

impl Client {
    pub fn start() -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || pcl_lsp::run(server));
        Client {
            conn: client,
            server: Some(handle),
            next_id: 0,
            notifications: Vec::new(),
            server_requests: Vec::new(),
        }
    }

    /// `initialize` + `initialized`; returns the initialize result.
    pub fn initialize(&mut self, params: Value) -> Value {
        let result = self.request("initialize", params);
        self.notify("initialized", json!({}));
        result.result.unwrap_or(Value::Null)
    }

    pub fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn
            .sender
            .send(Message::Notification(n))
            .unwrap_or_else(|e| panic!("send: {e}"));
    }

    pub fn request(&mut self, method: &str, params: Value) -> Response {
        let id = self.send(method, params);
        self.wait(&id, method)
    }

    /// Sends a request without waiting for its answer.
    pub fn send(&mut self, method: &str, params: Value) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let r = Request::new(id.clone(), method.to_string(), params);
        self.conn
            .sender
            .send(Message::Request(r))
            .unwrap_or_else(|e| panic!("send: {e}"));
        id
    }

    /// The answer to request `id`, keeping what comes before it.
    pub fn wait(&mut self, id: &RequestId, method: &str) -> Response {
        let id = id.clone();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(120)) {
                Ok(Message::Response(resp)) if resp.id == id => return resp,
                Ok(Message::Notification(n)) => self.notifications.push(n),
                Ok(Message::Request(r)) => {
                    let answer = Response::new_ok(r.id.clone(), Value::Null);
                    self.server_requests.push(r);
                    self.conn
                        .sender
                        .send(Message::Response(answer))
                        .unwrap_or_else(|e| panic!("send: {e}"));
                }
                Ok(other) => panic!("unexpected message {other:?}"),
                Err(e) => panic!("no response to {method}: {e}"),
            }
        }
    }

    /// The result of a request that must succeed.
    pub fn ok(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request(method, params);
        assert!(resp.error.is_none(), "{method}: {:?}", resp.error);
        resp.result.unwrap_or(Value::Null)
    }

    /// The diagnostics last published for `uri`, after a round trip (the
    /// server answers in order, so every notification sent before the
    /// response has arrived).
    pub fn diagnostics(&mut self, uri: &Url) -> Vec<Value> {
        // An unknown method: answered "method not found", after everything
        // sent before it.
        let _ = self.request("pcl/roundTrip", Value::Null);
        self.notifications
            .iter()
            .rev()
            .find(|n| {
                n.method == "textDocument/publishDiagnostics"
                    && n.params.get("uri").and_then(Value::as_str) == Some(uri.as_str())
            })
            .and_then(|n| n.params.get("diagnostics"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_else(|| panic!("no diagnostics published for {uri}"))
    }

    pub fn open(&self, uri: &Url, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "pcl", "version": 1, "text": text}}),
        );
    }

    pub fn change(&self, uri: &Url, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }

    /// `shutdown` then `exit`; returns what the server's `run` returned.
    pub fn stop(mut self) -> Result<(), String> {
        let resp = self.request("shutdown", Value::Null);
        assert!(resp.error.is_none(), "{:?}", resp.error);
        self.notify("exit", Value::Null);
        self.join()
    }

    pub fn join(mut self) -> Result<(), String> {
        let handle = self.server.take().unwrap_or_else(|| panic!("joined twice"));
        handle
            .join()
            .unwrap_or_else(|_| Err("server thread panicked".to_string()))
    }
}

/// A fresh directory with `files` in it.
pub fn program(files: &[(&str, &str)]) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "pcl-lsp-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("mkdir: {e}"));
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("write: {e}"));
    }
    dir
}

pub fn url(dir: &Path, name: &str) -> Url {
    Url::from_file_path(dir.join(name)).unwrap_or_else(|()| panic!("not absolute"))
}

pub fn pos(uri: &Url, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

pub fn schemas() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/schemas")
        .display()
        .to_string()
}

pub fn started(dir: &Path) -> Client {
    let mut client = Client::start();
    let root = Url::from_directory_path(dir).unwrap_or_else(|()| panic!("not absolute"));
    client.initialize(json!({
        "capabilities": {},
        "rootUri": root,
        "initializationOptions": {"schema-dirs": [schemas()], "schema-cache": false},
    }));
    client
}

/// The items of a completion answer (an array or a list).
pub fn items(answer: &Value) -> Vec<Value> {
    answer
        .as_array()
        .or_else(|| answer.get("items").and_then(Value::as_array))
        .cloned()
        .unwrap_or_else(|| panic!("not a completion answer: {answer}"))
}

/// The labels of completion items.
pub fn labels(items: &[Value]) -> Vec<&str> {
    items.iter().filter_map(|i| i["label"].as_str()).collect()
}

/// The completion item labelled `label` (a failure when absent).
pub fn item<'a>(items: &'a [Value], label: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("{label} missing from {:?}", labels(items)))
}
