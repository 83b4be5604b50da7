//! The wire: LSP's base protocol (headers, a blank line, a JSON body of
//! `Content-Length` bytes) over any byte stream, in place of
//! `lsp_server`'s stdio transport, which ended the session on the first
//! bad frame, zero-filled memory for any `Content-Length`, and took a
//! request whose id is not an `i32` or a string for a notification.
//!
//! - A well-framed body that is not JSON is answered with a parse error
//!   (-32700, id `null`); JSON that is not a message, with an invalid
//!   request (-32600). The session goes on.
//! - Header lines may end with CRLF or a bare LF. Bytes that are not a
//!   header (the rest of a body whose `Content-Length` was too short) are
//!   skipped up to the next `Content-Length:` and logged.
//! - A body over [`MAX_MESSAGE_BYTES`] is never held in memory: it is read
//!   and discarded in small chunks, logged, and the session goes on.
//! - An id of any JSON shape (a float, an integer outside `i32`, an
//!   object…) is carried through the server as a marked string and
//!   written back exactly as the client wrote it.
//! - The input ending (between messages or inside one) ends the session;
//!   the reason is returned ([`Ending::InputClosed`]).

use std::collections::HashMap;
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, RequestId, Response};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

/// The largest message body read: 64 MiB, far above any real message (a
/// 1 MB program opened in the editor is a body of about 1 MB). A larger
/// body is skipped, not read into memory.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;

/// Header lines longer than this are not headers (kept only up to it).
const MAX_HEADER_LINE: usize = 8 << 10;

/// Marks an id that `lsp_server::RequestId` cannot hold (anything but an
/// `i32` or a string not starting with this): the rest is the id's JSON
/// text as the client wrote it.
const ID_MARK: &str = "\u{0}pcl-id:";

/// How a session over a byte stream ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `exit` after `shutdown`: exit status 0.
    Exit,
    /// `exit` before `shutdown`: exit status 1, as LSP asks.
    ExitBeforeShutdown,
    /// The input ended before `exit`, between messages or inside one (the
    /// text says which): exit status 0, the text logged.
    InputClosed(String),
    /// The output could not be written, or the handshake failed: exit
    /// status 1.
    Failed(String),
}

impl Ending {
    /// The process exit status for this ending.
    pub fn status(&self) -> i32 {
        match self {
            Ending::Exit | Ending::InputClosed(_) => 0,
            Ending::ExitBeforeShutdown | Ending::Failed(_) => 1,
        }
    }
}

/// What the transport accepts.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest body read (see [`MAX_MESSAGE_BYTES`]).
    pub max_message: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message: MAX_MESSAGE_BYTES,
        }
    }
}

/// Runs the server over `input` and `output` until `exit` or the end of
/// the input.
pub fn serve<R, W>(input: R, output: W, limits: Limits) -> Ending
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(0);
    let (to_client, server_out) = crossbeam_channel::bounded::<Message>(0);
    let (replies, reader_out) = crossbeam_channel::unbounded::<Message>();
    let closed = Arc::new(Mutex::new(None::<String>));
    let reader_closed = Arc::clone(&closed);
    let reader = std::thread::Builder::new()
        .name("pcl-lsp-reader".to_string())
        .spawn(move || {
            let why = read_loop(input, limits, &to_server, &replies);
            if let Ok(mut slot) = reader_closed.lock() {
                *slot = why;
            }
        });
    let writer = std::thread::Builder::new()
        .name("pcl-lsp-writer".to_string())
        .spawn(move || write_loop(output, &server_out, &reader_out));
    let (reader, writer): (JoinHandle<()>, JoinHandle<io::Result<()>>) = match (reader, writer) {
        (Ok(r), Ok(w)) => (r, w),
        _ => return Ending::Failed("cannot start the transport's threads".to_string()),
    };
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    let stopped = crate::server::run_to_stop(&connection);
    drop(connection);
    let written = writer
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")));
    let ending = match stopped {
        Ok(crate::server::Stop::Exit) => Ending::Exit,
        Ok(crate::server::Stop::ExitBeforeShutdown) => Ending::ExitBeforeShutdown,
        Ok(crate::server::Stop::Closed) => {
            // The reader ended first; it has stored why.
            let _ = reader.join();
            let why = closed.lock().ok().and_then(|mut s| s.take());
            Ending::InputClosed(why.unwrap_or_else(|| "the input ended".to_string()))
        }
        Err(e) => Ending::Failed(e),
    };
    match (ending, written) {
        (Ending::Failed(e), Err(w)) => Ending::Failed(format!("{e} ({w})")),
        (Ending::Exit | Ending::ExitBeforeShutdown, Err(w)) => {
            Ending::Failed(format!("cannot write to the client: {w}"))
        }
        (ending, _) => ending,
    }
}

/// Reads messages until `exit`, the end of the input, or the server
/// going away; returns why the input ended (`None` after `exit`).
fn read_loop<R: BufRead>(
    mut input: R,
    limits: Limits,
    to_server: &Sender<Message>,
    replies: &Sender<Message>,
) -> Option<String> {
    let mut frames = Frames {
        input: &mut input,
        limits,
        skipped: 0,
    };
    loop {
        let frame = frames.next();
        if frames.skipped > 0 {
            let _ = replies.send(log(&format!(
                "skipped {} bytes of input that were not part of a message",
                frames.skipped
            )));
            frames.skipped = 0;
        }
        let body = match frame {
            Ok(Frame::Body(body)) => body,
            Ok(Frame::TooLarge(len)) => {
                let _ = replies.send(log(&format!(
                    "skipped a message of {len} bytes: messages are limited to {} bytes",
                    limits.max_message
                )));
                continue;
            }
            Ok(Frame::End) => {
                return Some("the client closed the connection without `exit`".to_string())
            }
            Err(why) => return Some(why),
        };
        match decode(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() {
                    return None;
                }
                if exit {
                    return None;
                }
            }
            Err(reply) => {
                let _ = replies.send(Message::Response(*reply));
            }
        }
    }
}

/// One frame of the input.
enum Frame {
    Body(Vec<u8>),
    /// A body over the limit, skipped (its length).
    TooLarge(u64),
    /// The input ended between messages.
    End,
}

struct Frames<'a, R> {
    input: &'a mut R,
    limits: Limits,
    /// Bytes skipped since the last frame (not a header).
    skipped: u64,
}

impl<R: BufRead> Frames<'_, R> {
    /// The next frame; `Err` says how the input ended inside a message.
    fn next(&mut self) -> Result<Frame, String> {
        let mut length: Option<u64> = None;
        loop {
            let line = read_line(self.input, MAX_HEADER_LINE)
                .map_err(|e| format!("cannot read from the client: {e}"))?;
            let Some((line, ended)) = line else {
                return match length {
                    None => Ok(Frame::End),
                    Some(len) => Err(format!(
                        "the client closed the connection inside the header of a message of {len} bytes"
                    )),
                };
            };
            if !ended {
                return Err(match length {
                    None if line.is_empty() => "the input ended".to_string(),
                    None => "the client closed the connection inside a header line".to_string(),
                    Some(len) => format!(
                        "the client closed the connection inside the header of a message of {len} bytes"
                    ),
                });
            }
            let text = trim_line_end(&line);
            if text.is_empty() {
                match length {
                    Some(len) => return self.body(len),
                    // A blank line with no `Content-Length` before it.
                    None => {
                        self.skipped += line.len() as u64;
                        continue;
                    }
                }
            }
            match find_content_length(text) {
                Some((junk, value)) => {
                    self.skipped += junk as u64;
                    match value {
                        Some(len) => length = Some(len),
                        None => self.skipped += (line.len() - junk) as u64,
                    }
                }
                // Another header (`Content-Type`) after a length or not.
                None if is_header(text) => {}
                None => self.skipped += line.len() as u64,
            }
        }
    }

    fn body(&mut self, len: u64) -> Result<Frame, String> {
        if len > self.limits.max_message {
            let read = io::copy(&mut self.input.by_ref().take(len), &mut io::sink())
                .map_err(|e| format!("cannot read from the client: {e}"))?;
            if read < len {
                return Err(format!(
                    "the client closed the connection inside a message of {len} bytes (over the limit of {} bytes, being skipped) after {read} bytes",
                    self.limits.max_message
                ));
            }
            return Ok(Frame::TooLarge(len));
        }
        // Grows as bytes arrive: a length that is a lie costs nothing.
        let mut body = Vec::new();
        self.input
            .by_ref()
            .take(len)
            .read_to_end(&mut body)
            .map_err(|e| format!("cannot read from the client: {e}"))?;
        if (body.len() as u64) < len {
            return Err(format!(
                "the client closed the connection inside a message: {} of its {len} bytes came",
                body.len()
            ));
        }
        Ok(Frame::Body(body))
    }
}

/// The next line (up to and with its `\n`, at most `max` bytes kept; the
/// rest of a longer line is read and dropped) and whether it ended with a
/// `\n`; `None` at the end of the input.
fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let (done, used) = {
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(any.then_some((line, false)));
            }
            any = true;
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    let take = (i + 1).min(max.saturating_sub(line.len()));
                    line.extend_from_slice(buf.get(..take).unwrap_or_default());
                    (true, i + 1)
                }
                None => {
                    let take = buf.len().min(max.saturating_sub(line.len()));
                    line.extend_from_slice(buf.get(..take).unwrap_or_default());
                    (false, buf.len())
                }
            }
        };
        input.consume(used);
        if done {
            // A line cut at `max` still counts as ended.
            return Ok(Some((line, true)));
        }
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Where `Content-Length:` starts in a header line (any case; bytes before
/// it are junk) and its value when it is a number.
fn find_content_length(line: &[u8]) -> Option<(usize, Option<u64>)> {
    const NAME: &[u8] = b"content-length:";
    let at = line
        .windows(NAME.len())
        .position(|w| w.eq_ignore_ascii_case(NAME))?;
    let value = line.get(at + NAME.len()..).unwrap_or_default();
    let value = std::str::from_utf8(value).ok().map(str::trim);
    Some((at, value.and_then(|v| v.parse::<u64>().ok())))
}

/// `Name: value` with a token for a name.
fn is_header(line: &[u8]) -> bool {
    match line.iter().position(|b| *b == b':') {
        Some(colon) if colon > 0 => line
            .get(..colon)
            .unwrap_or_default()
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(b)),
        _ => false,
    }
}

/// A body as a message, or the error answer to send.
fn decode(body: &[u8]) -> Result<Message, Box<Response>> {
    // Each member as its text, so that an id is kept as written (a number
    // out of `f64`'s range included).
    let members: HashMap<String, &RawValue> = match serde_json::from_slice(body) {
        Ok(members) => members,
        Err(e) => {
            return Err(match serde_json::from_slice::<&RawValue>(body) {
                Err(_) => reply(
                    None,
                    ErrorCode::ParseError,
                    &format!("the message is not JSON: {e}"),
                ),
                Ok(_) => reply(
                    None,
                    ErrorCode::InvalidRequest,
                    "the message is not a JSON-RPC object",
                ),
            })
        }
    };
    let id = members.get("id").map(|raw| wire_id(raw));
    let request_id = || id.clone().and_then(|v| serde_json::from_value(v).ok());
    let method = members.get("method").map(|m| m.get());
    let mut map = serde_json::Map::new();
    for (key, raw) in &members {
        let value = match key.as_str() {
            "id" => id.clone().unwrap_or(Json::Null),
            // `$/cancelRequest` names an id the same way.
            "params" if method == Some("\"$/cancelRequest\"") => {
                let mut params: serde_json::Map<String, Json> = serde_json::Map::new();
                let inner: HashMap<String, &RawValue> =
                    serde_json::from_str(raw.get()).unwrap_or_default();
                for (k, v) in inner {
                    let v = if k == "id" {
                        wire_id(v)
                    } else {
                        serde_json::from_str(v.get()).unwrap_or(Json::Null)
                    };
                    params.insert(k, v);
                }
                Json::Object(params)
            }
            _ => serde_json::from_str(raw.get()).map_err(|e| {
                reply(
                    request_id(),
                    ErrorCode::InvalidRequest,
                    &format!("invalid `{key}`: {e}"),
                )
            })?,
        };
        map.insert(key.clone(), value);
    }
    match serde_json::from_value::<Message>(Json::Object(map)) {
        Ok(Message::Response(_)) if method.is_some() => Err(reply(
            request_id(),
            ErrorCode::InvalidRequest,
            "the method is not a string",
        )),
        Ok(message) => Ok(message),
        Err(e) => Err(reply(
            request_id(),
            ErrorCode::InvalidRequest,
            &format!("not a JSON-RPC message: {e}"),
        )),
    }
}

/// The id as `lsp_server` carries it: an `i32` or a string as they are,
/// anything else marked (see [`ID_MARK`]).
fn wire_id(raw: &RawValue) -> Json {
    let text = raw.get();
    if let Ok(n) = serde_json::from_str::<i32>(text) {
        if n.to_string() == text {
            return Json::from(n);
        }
    }
    if let Ok(s) = serde_json::from_str::<String>(text) {
        if !s.starts_with(ID_MARK) {
            return Json::String(s);
        }
    }
    Json::String(format!("{ID_MARK}{text}"))
}

/// An error answer; `None` for the id is `null`.
fn reply(id: Option<RequestId>, code: ErrorCode, message: &str) -> Box<Response> {
    let id = id.unwrap_or_else(|| RequestId::from(format!("{ID_MARK}null")));
    Box::new(Response::new_err(id, code as i32, message.to_string()))
}

fn log(message: &str) -> Message {
    Message::Notification(Notification::new(
        "window/logMessage".to_string(),
        serde_json::json!({ "type": 2, "message": format!("pcl lsp: {message}") }),
    ))
}

/// Writes what the server and the reader send until the server is done.
fn write_loop<W: Write>(
    mut output: W,
    server: &Receiver<Message>,
    reader: &Receiver<Message>,
) -> io::Result<()> {
    let mut reader_open = true;
    loop {
        let message = if reader_open {
            crossbeam_channel::select! {
                recv(server) -> m => match m {
                    Ok(m) => m,
                    Err(_) => break,
                },
                recv(reader) -> m => match m {
                    Ok(m) => m,
                    Err(_) => {
                        reader_open = false;
                        continue;
                    }
                },
            }
        } else {
            match server.recv() {
                Ok(m) => m,
                Err(_) => break,
            }
        };
        write_message(&mut output, &message)?;
    }
    // What the reader queued before the server ended (a last parse error).
    while let Ok(message) = reader.try_recv() {
        write_message(&mut output, &message)?;
    }
    output.flush()
}

/// One message, framed, with a marked id written back as it came.
pub(crate) fn write_message<W: Write>(output: &mut W, message: &Message) -> io::Result<()> {
    let text = encode(message)?;
    write!(output, "Content-Length: {}\r\n\r\n", text.len())?;
    output.write_all(text.as_bytes())?;
    output.flush()
}

fn encode(message: &Message) -> io::Result<String> {
    #[derive(Serialize)]
    struct JsonRpc<'a> {
        jsonrpc: &'static str,
        #[serde(flatten)]
        msg: &'a Message,
    }
    #[derive(Serialize)]
    struct Marked<'a> {
        jsonrpc: &'static str,
        id: &'a RawValue,
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<&'a Json>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'a lsp_server::ResponseError>,
    }
    if let Message::Response(r) = message {
        if let Ok(Json::String(id)) = serde_json::to_value(&r.id) {
            if let Some(raw) = id.strip_prefix(ID_MARK) {
                let raw = RawValue::from_string(raw.to_string())
                    .or_else(|_| RawValue::from_string("null".to_string()))?;
                return Ok(serde_json::to_string(&Marked {
                    jsonrpc: "2.0",
                    id: &raw,
                    result: r.result.as_ref(),
                    error: r.error.as_ref(),
                })?);
            }
        }
    }
    Ok(serde_json::to_string(&JsonRpc {
        jsonrpc: "2.0",
        msg: message,
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], max: u64) -> Vec<Result<String, String>> {
        let mut input = input;
        let mut f = Frames {
            input: &mut input,
            limits: Limits { max_message: max },
            skipped: 0,
        };
        let mut out = Vec::new();
        loop {
            match f.next() {
                Ok(Frame::Body(b)) => out.push(Ok(String::from_utf8_lossy(&b).into_owned())),
                Ok(Frame::TooLarge(n)) => out.push(Ok(format!("<{n} skipped>"))),
                Ok(Frame::End) => return out,
                Err(e) => {
                    out.push(Err(e));
                    return out;
                }
            }
            if f.skipped > 0 {
                out.push(Ok(format!("<junk {}>", f.skipped)));
                f.skipped = 0;
            }
        }
    }

    #[test]
    fn lf_headers_junk_and_short_lengths() {
        let input = b"Content-Length: 2\n\n{}content-length: 3\r\nContent-Type: x\r\n\r\n[1]";
        assert_eq!(frames(input, 100), [Ok("{}".into()), Ok("[1]".into())]);
        // A length too short: the rest of the body is junk up to the
        // next header.
        let input = b"Content-Length: 3\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}";
        assert_eq!(
            frames(input, 100),
            [Ok("{\"a".into()), Ok("{}".into()), Ok("<junk 4>".into())]
        );
        assert!(matches!(
            frames(b"Content-Length: 5\r\n", 100).last(),
            Some(Err(e)) if e.contains("inside the header")
        ));
        assert!(matches!(
            frames(b"Content-Length: 5\r\n\r\n{}", 100).last(),
            Some(Err(e)) if e.contains("2 of its 5 bytes")
        ));
    }

    #[test]
    fn a_body_over_the_limit_is_skipped_not_read() {
        let mut input = b"Content-Length: 10\r\n\r\n0123456789".to_vec();
        input.extend_from_slice(b"Content-Length: 2\r\n\r\n{}");
        assert_eq!(
            frames(&input, 5),
            [Ok("<10 skipped>".into()), Ok("{}".into())]
        );
        // At the limit: read.
        assert_eq!(
            frames(b"Content-Length: 5\r\n\r\n[1,2]", 5),
            [Ok("[1,2]".into())]
        );
        let huge = b"Content-Length: 1000000000000\r\n\r\n{}";
        assert!(matches!(
            frames(huge, MAX_MESSAGE_BYTES).last(),
            Some(Err(e)) if e.contains("over the limit")
        ));
    }

    #[test]
    fn ids_of_any_shape_round_trip() {
        for id in [
            "1.5",
            "4294967296",
            "-0",
            "1e400",
            "null",
            "{\"a\":[1]}",
            "\"\\u0000pcl-id:x\"",
        ] {
            let body = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"m\"}}");
            let Ok(Message::Request(r)) = decode(body.as_bytes()) else {
                panic!("{id}: not a request");
            };
            let out =
                encode(&Message::Response(Response::new_ok(r.id, Json::Null))).unwrap_or_default();
            assert_eq!(
                out,
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":null}}")
            );
        }
        let Ok(Message::Request(r)) = decode(br#"{"jsonrpc":"2.0","id":7,"method":"m"}"#) else {
            panic!("not a request");
        };
        assert_eq!(r.id, RequestId::from(7));
    }
}
