//! The wire (issue 26 §2): bytes in, bytes out, through the server's own
//! framing (`pcl_lsp::transport::serve`, which `pcl lsp` runs on
//! stdin/stdout). A bad frame gets an answer or is skipped, and the
//! session goes on (D12); a message size is bounded before memory is
//! allocated (D13); an id of any JSON shape is answered with the same id,
//! written as the client wrote it (D23).

use std::collections::HashMap;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use pcl_lsp::transport::{serve, Ending, Limits, MAX_MESSAGE_BYTES};
use serde_json::value::RawValue;
use serde_json::Value;

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
const SHUTDOWN: &str = r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

fn frame(json: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{json}", json.len())
}

/// Output shared with the writer thread.
#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut out) = self.0.lock() {
            out.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a session on `input`; returns how it ended and the bodies the
/// server wrote (checking their framing).
fn session(input: impl Into<Vec<u8>>, limits: Limits) -> (Ending, Vec<String>) {
    let out = Out::default();
    let ending = serve(Cursor::new(input.into()), out.clone(), limits);
    let bytes = out.0.lock().map(|b| b.clone()).unwrap_or_default();
    let mut text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("not UTF-8: {e}"));
    let mut bodies = Vec::new();
    while !text.is_empty() {
        let (header, rest) = text
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("bad frame: {text:?}"));
        let len: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("bad header: {header:?}"));
        let body = rest.get(..len).unwrap_or_else(|| panic!("short body"));
        bodies.push(body.to_string());
        text = rest.get(len..).unwrap_or_default().to_string();
    }
    (ending, bodies)
}

/// The id of an answer as written (`None` for a notification or request
/// from the server).
fn raw_id(body: &str) -> Option<String> {
    let members: HashMap<String, &RawValue> =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{body}: {e}"));
    if members.contains_key("method") {
        return None;
    }
    members.get("id").map(|id| id.get().to_string())
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// The answer with the id written `id`.
fn answer<'a>(bodies: &'a [String], id: &str) -> &'a str {
    bodies
        .iter()
        .find(|b| raw_id(b).as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no answer with id {id} in {bodies:#?}"))
}

fn logs(bodies: &[String]) -> Vec<String> {
    bodies
        .iter()
        .map(|b| json(b))
        .filter(|v| v["method"] == "window/logMessage")
        .map(|v| v["params"]["message"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_body_that_is_not_json_is_a_parse_error_and_the_session_goes_on() {
    let input = [INIT, INITIALIZED, "this is { not json", SHUTDOWN, EXIT]
        .map(frame)
        .concat();
    let (ending, bodies) = session(input, Limits::default());
    assert_eq!(ending, Ending::Exit);
    let error = json(answer(&bodies, "null"));
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(json(answer(&bodies, "2")).get("result").is_some());
    // JSON that is not a message: an invalid request, with its id.
    let input = [
        INIT,
        r#"{"jsonrpc":"2.0","id":7,"method":3}"#,
        "[1]",
        SHUTDOWN,
        EXIT,
    ]
    .map(frame)
    .concat();
    let (ending, bodies) = session(input, Limits::default());
    assert_eq!(ending, Ending::Exit);
    assert_eq!(json(answer(&bodies, "7"))["error"]["code"], -32600);
    assert_eq!(json(answer(&bodies, "null"))["error"]["code"], -32600);
}

#[test]
fn a_short_content_length_loses_one_message_not_the_session() {
    let long = r#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover"}"#;
    let input = [
        frame(INIT),
        format!("Content-Length: 10\r\n\r\n{long}"),
        frame(SHUTDOWN),
        frame(EXIT),
    ]
    .concat();
    let (ending, bodies) = session(input, Limits::default());
    assert_eq!(ending, Ending::Exit);
    // The first 10 bytes are not JSON; the rest is skipped up to the next
    // header, and said so.
    assert_eq!(json(answer(&bodies, "null"))["error"]["code"], -32700);
    let skipped = long.len() - 10;
    assert!(
        logs(&bodies)
            .iter()
            .any(|l| l.contains(&format!("skipped {skipped} bytes"))),
        "{bodies:#?}"
    );
    assert!(json(answer(&bodies, "2")).get("result").is_some());
}

#[test]
fn headers_ending_in_a_bare_line_feed_are_accepted() {
    let input: String = [INIT, INITIALIZED, SHUTDOWN, EXIT]
        .iter()
        .map(|m| format!("Content-Length: {}\n\n{m}", m.len()))
        .collect();
    let (ending, bodies) = session(input, Limits::default());
    assert_eq!(ending, Ending::Exit);
    assert_eq!(
        json(answer(&bodies, "1"))["result"]["serverInfo"]["name"],
        "pcl"
    );
    assert!(logs(&bodies).is_empty(), "{bodies:#?}");
}

#[test]
fn the_input_ending_inside_a_message_ends_the_session_with_the_reason() {
    // A header, then nothing.
    let input = [frame(INIT), "Content-Length: 52\r\n".to_string()].concat();
    let (ending, bodies) = session(input, Limits::default());
    assert!(json(answer(&bodies, "1")).get("result").is_some());
    match &ending {
        Ending::InputClosed(why) => assert!(why.contains("inside the header"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(ending.status(), 0);
    // A body cut short.
    let input = [
        frame(INIT),
        "Content-Length: 52\r\n\r\n{\"jsonrpc\"".to_string(),
    ]
    .concat();
    let (ending, _) = session(input, Limits::default());
    match &ending {
        Ending::InputClosed(why) => assert!(why.contains("10 of its 52 bytes"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Between messages, without shutdown or exit.
    let (ending, _) = session(frame(INIT), Limits::default());
    assert!(matches!(ending, Ending::InputClosed(_)), "{ending:?}");
    // `exit` before `shutdown`: status 1, as LSP asks.
    let (ending, _) = session([INIT, EXIT].map(frame).concat(), Limits::default());
    assert_eq!(
        (ending.clone(), ending.status()),
        (Ending::ExitBeforeShutdown, 1)
    );
}

#[test]
fn a_huge_content_length_allocates_nothing() {
    // 10^12 bytes announced: never allocated (the process would abort);
    // the body is skipped as it comes, and the input ends inside it.
    let input = [
        frame(INIT),
        "Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\":\"2.0\"}".to_string(),
    ]
    .concat();
    let (ending, bodies) = session(input, Limits::default());
    assert!(json(answer(&bodies, "1")).get("result").is_some());
    match &ending {
        Ending::InputClosed(why) => assert!(
            why.contains("1000000000000 bytes") && why.contains("over the limit"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(MAX_MESSAGE_BYTES, 64 << 20);
}

#[test]
fn a_message_over_the_limit_is_skipped_and_the_session_goes_on() {
    let text = "a = 1\n".repeat(400);
    let open = serde_json::json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": "untitled:big", "languageId": "pcl",
                                    "version": 1, "text": text}}
    })
    .to_string();
    let input = [INIT, INITIALIZED, &open, SHUTDOWN, EXIT]
        .map(frame)
        .concat();
    let (ending, bodies) = session(input, Limits { max_message: 1024 });
    assert_eq!(ending, Ending::Exit);
    let said = format!("skipped a message of {} bytes", open.len());
    assert!(
        logs(&bodies).iter().any(|l| l.contains(&said)),
        "{bodies:#?}"
    );
    // The document was never opened.
    assert!(!bodies.iter().any(|b| b.contains("publishDiagnostics")));
    assert!(json(answer(&bodies, "2")).get("result").is_some());
}

#[test]
fn ids_of_any_json_shape_are_answered_with_the_same_id() {
    let ids = [
        "1.5",
        "2147483648",
        "-2147483649",
        "99999999999999999999",
        "1e400",
        "-0",
        "{\"a\":[1]}",
        "\"\\u0000pcl-id:1\"",
        "\"text\"",
        "3",
    ];
    let mut input = frame(&INIT.replace("\"id\":1", "\"id\":0.5"));
    for id in ids {
        input.push_str(&frame(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"workspace/symbol","params":{{"query":"x"}}}}"#
        )));
    }
    input.push_str(&frame(&SHUTDOWN.replace("\"id\":2", "\"id\":2.0")));
    input.push_str(&frame(EXIT));
    let (ending, bodies) = session(input, Limits::default());
    assert_eq!(ending, Ending::Exit);
    assert!(json(answer(&bodies, "0.5"))["result"]["capabilities"].is_object());
    for id in ids {
        // Each member as written (`1e400` is not an `f64`).
        let body = answer(&bodies, id);
        let members: HashMap<String, &RawValue> =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(!members.contains_key("error"), "{body}");
        assert_eq!(members.get("result").map(|r| r.get()), Some("[]"), "{body}");
    }
    assert!(json(answer(&bodies, "2.0")).get("result").is_some());
}
