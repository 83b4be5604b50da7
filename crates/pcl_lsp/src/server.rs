//! The server: its state, the message loop, the dispatch of requests and
//! notifications to their handlers, and the capabilities it announces.
//!
//! The handlers are methods of [`Server`], each in the submodule of its
//! concern: `analysis` (which program a document belongs to, checking it
//! and publishing its diagnostics), `hover`, `navigation` (definition,
//! references, rename, document and workspace symbols) and `actions`
//! (code actions, formatting). Completion, signature help and semantic
//! tokens are answered here, by the crate modules of those names.

mod actions;
mod analysis;
mod hover;
mod navigation;

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, CompletionResponse, HoverProviderCapability,
    InitializeParams, InitializeResult, OneOf, ServerCapabilities, ServerInfo, SignatureHelp,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use serde_json::Value as Json;

use crate::inbox::{Inbox, Next};
use crate::position::{Encoding, Lines};
use crate::settings::{Profiles, Settings};
use crate::walk::innermost_node;
use analysis::{Analysis, Located, ProgramKey};

/// Why the message loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `exit` after `shutdown`.
    Exit,
    /// `exit` before `shutdown`.
    ExitBeforeShutdown,
    /// The client is gone (the input ended).
    Closed,
}

/// Runs a server over `connection`: the handshake, then every message
/// until `exit` or the end of the input (also before `initialize`).
pub(crate) fn run_to_stop(connection: &Connection) -> Result<Stop, String> {
    match Server::start(connection) {
        Ok(server) => server.main_loop(connection),
        Err(Started::Closed) => Ok(Stop::Closed),
        Err(Started::Failed(e)) => Err(e),
    }
}

/// Why the handshake did not finish.
pub(crate) enum Started {
    Closed,
    Failed(String),
}

/// The answer to a request, or an LSP error.
type Answer = Result<Json, (ErrorCode, String)>;

pub(crate) struct Server {
    encoding: Encoding,
    profiles: Profiles,
    /// Open documents by URL.
    open: HashMap<Url, String>,
    /// Where each open document lives.
    located: HashMap<Url, Located>,
    /// The open `file:` documents by real path.
    by_real: HashMap<std::path::PathBuf, Url>,
    /// What the server has done, for `pcl/stats`.
    stats: Stats,
    analyses: HashMap<ProgramKey, Analysis>,
    /// Each program's names as of its last check without syntax errors.
    last_good: crate::completion::LastGood<ProgramKey>,
    /// Documents changed since their program was last checked.
    dirty: Vec<Url>,
    /// How long a change waits for the next ([`DEBOUNCE`] unless the
    /// editor's `debounce-ms` says otherwise).
    debounce: std::time::Duration,
    /// How long the last check took (see [`DEBOUNCE`]).
    last_check: std::time::Duration,
    /// The analysis a check replaced, kept until the check's end and then
    /// handed to `dropper`. At most one.
    replaced: Option<Analysis>,
    /// Frees replaced programs on a thread of its own: freeing a large
    /// program costs about a sixth of checking it, which neither the
    /// diagnostics of the new one nor the next change need wait for.
    dropper: Dropper,
    shutdown: bool,
}

/// How long a change waits for the next before the check starts, less the
/// time the last check took: a burst of changes is coalesced either by
/// this wait (cheap checks) or by queueing behind the running check
/// (changes that arrive during a check are all applied before the next
/// one), so a program whose check takes 50 ms or more is checked at once
/// and its diagnostics come one check after the change.
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(50);

impl Server {
    /// The `initialize` handshake: negotiates the position encoding and
    /// reads the settings.
    pub(crate) fn start(connection: &Connection) -> Result<Server, Started> {
        let (id, params) = connection.initialize_start().map_err(|e| {
            if e.channel_is_disconnected() {
                Started::Closed
            } else {
                Started::Failed(e.to_string())
            }
        })?;
        let params: InitializeParams = serde_json::from_value(params)
            .map_err(|e| Started::Failed(format!("invalid initialize parameters: {e}")))?;
        let encoding = Encoding::negotiate(
            params
                .capabilities
                .general
                .as_ref()
                .and_then(|g| g.position_encodings.as_deref()),
        );
        let base = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .map(|f| &f.uri)
            .or(
                #[allow(deprecated)]
                params.root_uri.as_ref(),
            )
            .and_then(|u| u.to_file_path().ok());
        let settings = Settings::from_json(params.initialization_options.as_ref());
        let debounce = settings
            .debounce_ms
            .map_or(DEBOUNCE, std::time::Duration::from_millis);
        let profiles = Profiles::new(settings, base);
        let result = InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "pcl".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        };
        let result = serde_json::to_value(result).map_err(|e| Started::Failed(e.to_string()))?;
        // Answered without waiting for `initialized` (as
        // `initialize_finish` would, failing on any other message first):
        // the loop takes `initialized` like any notification.
        send(connection, Response::new_ok(id, result).into()).map_err(Started::Failed)?;
        let dynamic_watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        if dynamic_watch {
            send(connection, watch_registration()).map_err(Started::Failed)?;
        }
        Ok(Server {
            encoding,
            debounce,
            profiles,
            open: HashMap::new(),
            located: HashMap::new(),
            by_real: HashMap::new(),
            stats: Stats::default(),
            analyses: HashMap::new(),
            last_good: crate::completion::LastGood::default(),
            dirty: Vec::new(),
            last_check: std::time::Duration::ZERO,
            replaced: None,
            dropper: Dropper::default(),
            shutdown: false,
        })
    }

    pub(crate) fn main_loop(mut self, connection: &Connection) -> Result<Stop, String> {
        let mut inbox = Inbox::default();
        loop {
            self.retire();
            // With changes pending, wait at most `debounce` for more before
            // checking; a request checks them first.
            let timeout =
                (!self.dirty.is_empty()).then(|| self.debounce.saturating_sub(self.last_check));
            let message = match inbox.next(&connection.receiver, timeout) {
                Next::Message(message) => message,
                Next::Timeout => {
                    self.flush(connection)?;
                    continue;
                }
                Next::Closed => return Ok(Stop::Closed),
            };
            match message {
                Message::Request(request) => {
                    // Cancellations already sent apply before the answer
                    // (and again after the pending check, which may take
                    // a while).
                    inbox.drain(&connection.receiver, &request.id);
                    let mut cancelled = inbox.take_cancelled(&request.id);
                    if !cancelled {
                        self.flush(connection)?;
                        inbox.drain(&connection.receiver, &request.id);
                        cancelled = inbox.take_cancelled(&request.id);
                    }
                    let response = if cancelled {
                        error(request.id, ErrorCode::RequestCanceled, "cancelled")
                    } else {
                        self.request(request)
                    };
                    send(connection, response.into())?;
                }
                Message::Notification(n) if n.method == notif::Exit::METHOD => {
                    return Ok(if self.shutdown {
                        Stop::Exit
                    } else {
                        Stop::ExitBeforeShutdown
                    });
                }
                // After `shutdown`, only `exit` means anything.
                Message::Notification(_) if self.shutdown => {}
                Message::Notification(n) => {
                    let mut out = Vec::new();
                    let caught = catch_unwind(AssertUnwindSafe(|| self.notification(&n, &mut out)));
                    if caught.is_err() {
                        out.push(log_message(&format!(
                            "internal error while handling {}",
                            n.method
                        )));
                    }
                    for message in out {
                        send(connection, message)?;
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    /// Checks the programs of the pending changes and publishes.
    fn flush(&mut self, connection: &Connection) -> Result<(), String> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut out = Vec::new();
        for uri in dirty {
            if catch_unwind(AssertUnwindSafe(|| self.recheck_edited(&uri, &mut out))).is_err() {
                out.push(log_message("internal error while checking a program"));
            }
        }
        for message in out {
            send(connection, message)?;
        }
        Ok(())
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        if self.shutdown {
            return error(id, ErrorCode::InvalidRequest, "the server is shutting down");
        }
        if request.method == req::Shutdown::METHOD {
            self.shutdown = true;
            return Response::new_ok(id, Json::Null);
        }
        let caught = catch_unwind(AssertUnwindSafe(|| self.answer(&request)));
        match caught {
            Ok(Ok(value)) => Response {
                id,
                result: Some(value),
                error: None,
            },
            Ok(Err((code, message))) => error(id, code, &message),
            Err(_) => error(
                id,
                ErrorCode::InternalError,
                &format!("internal error while handling {}", request.method),
            ),
        }
    }

    fn answer(&mut self, request: &Request) -> Answer {
        let p = &request.params;
        match request.method.as_str() {
            req::HoverRequest::METHOD => to_json(self.hover(&params(p)?)),
            req::GotoDefinition::METHOD => to_json(self.definition(&params(p)?)),
            req::DocumentSymbolRequest::METHOD => to_json(self.symbols(&params(p)?)),
            req::Formatting::METHOD => to_json(self.format(&params(p)?)),
            req::RangeFormatting::METHOD => to_json(self.format_range(&params(p)?)),
            req::References::METHOD => to_json(self.references(&params(p)?)),
            req::Rename::METHOD => to_json(self.rename(&params(p)?)?),
            req::WorkspaceSymbolRequest::METHOD => to_json(self.workspace_symbols(&params(p)?)),
            req::CodeActionRequest::METHOD => to_json(self.code_actions(&params(p)?)),
            req::Completion::METHOD => to_json(self.completion(&params(p)?)),
            req::SignatureHelpRequest::METHOD => to_json(self.signature_help(&params(p)?)),
            req::SemanticTokensFullRequest::METHOD => {
                let p: lsp_types::SemanticTokensParams = params(p)?;
                to_json(self.semantic_tokens(&p.text_document.uri, None))
            }
            req::SemanticTokensRangeRequest::METHOD => {
                let p: lsp_types::SemanticTokensRangeParams = params(p)?;
                to_json(self.semantic_tokens(&p.text_document.uri, Some(p.range)))
            }
            TEST_PANIC_METHOD => panic!("{TEST_PANIC_METHOD} was asked for"),
            STATS_METHOD => Ok(serde_json::json!({
                "programs": self.analyses.len(),
                "documents": self.open.len(),
                "lastGood": self.last_good.len(),
                "checks": self.stats.checks,
                "incremental": self.stats.incremental,
                "dirReads": self.stats.dir_reads,
                "levelComparisons": self.profiles.level_comparisons(),
            })),
            m => Err((ErrorCode::MethodNotFound, format!("unknown method {m}"))),
        }
    }

    fn notification(&mut self, n: &Notification, out: &mut Vec<Message>) {
        let uri = match n.method.as_str() {
            TEST_PANIC_METHOD => panic!("{TEST_PANIC_METHOD} was sent"),
            notif::DidOpenTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidOpenTextDocumentParams>(&n.params) else {
                    return;
                };
                self.set_text(&p.text_document.uri, p.text_document.text);
                p.text_document.uri
            }
            notif::DidChangeTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidChangeTextDocumentParams>(&n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                // Full sync: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.set_text(&uri, change.text);
                }
                // Debounced: checked when no change follows within
                // DEBOUNCE, or before the next request.
                let key = self.key_of(&uri);
                if !self.dirty.iter().any(|u| self.key_of(u) == key) {
                    self.dirty.push(uri);
                }
                return;
            }
            notif::DidSaveTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidSaveTextDocumentParams>(&n.params) else {
                    return;
                };
                if let Some(text) = p.text {
                    self.set_text(&p.text_document.uri, text);
                }
                p.text_document.uri
            }
            notif::DidCloseTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidCloseTextDocumentParams>(&n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                let key = self.key_of(&uri);
                self.open.remove(&uri);
                if let Some(l) = self.located.remove(&uri) {
                    if let Some(real) = l.real {
                        if self.by_real.get(&real) == Some(&uri) {
                            self.by_real.remove(&real);
                            // The same file open under another name.
                            let other = self
                                .located
                                .iter()
                                .find(|(_, o)| o.real.as_ref() == Some(&real))
                                .map(|(u, _)| u.clone());
                            if let Some(other) = other {
                                self.by_real.insert(real, other);
                            }
                        }
                    }
                }
                // The program's other open documents keep it; without
                // any, it is forgotten (its diagnostics cleared).
                let still_open = self
                    .located
                    .iter()
                    .find(|(_, l)| l.key == key)
                    .map(|(u, _)| u.clone());
                match still_open {
                    Some(other) => other,
                    None => {
                        self.forget(&key, out);
                        return;
                    }
                }
            }
            notif::DidChangeConfiguration::METHOD => {
                let Ok(p) = params::<lsp_types::DidChangeConfigurationParams>(&n.params) else {
                    return;
                };
                self.profiles.configure(&p.settings);
                self.recheck_all(out);
                return;
            }
            notif::DidChangeWatchedFiles::METHOD => {
                let Ok(p) = params::<lsp_types::DidChangeWatchedFilesParams>(&n.params) else {
                    return;
                };
                self.files_changed(&p, out);
                return;
            }
            _ => return,
        };
        self.recheck(&uri, out);
    }

    /// `workspace/didChangeWatchedFiles`: a changed schema (`.json`) drops
    /// every loaded schema and re-checks every program; a changed `.pp`
    /// file re-checks its program.
    fn files_changed(
        &mut self,
        p: &lsp_types::DidChangeWatchedFilesParams,
        out: &mut Vec<Message>,
    ) {
        let schema_changed = p.changes.iter().any(|c| {
            let path = c.uri.path();
            path.ends_with(".json") || path.ends_with(pcl_config::FILE_NAME)
        });
        let mut programs: Vec<Url> = Vec::new();
        if schema_changed {
            self.profiles.reload();
            for a in self.analyses.values() {
                programs.extend(a.urls.iter().flatten().next().cloned());
            }
        }
        for change in &p.changes {
            if change.uri.path().ends_with(".pp")
                && self.analyses.contains_key(&self.key_of(&change.uri))
            {
                programs.push(change.uri.clone());
            }
        }
        let mut seen = HashSet::new();
        for uri in programs {
            if seen.insert(self.key_of(&uri)) {
                self.recheck(&uri, out);
            }
        }
    }

    /// Re-checks every program checked so far.
    fn recheck_all(&mut self, out: &mut Vec<Message>) {
        let firsts: Vec<Url> = self
            .analyses
            .values()
            .filter_map(|a| a.urls.iter().flatten().next().cloned())
            .collect();
        for uri in firsts {
            self.recheck(&uri, out);
        }
    }

    /// The semantic tokens of a document (of `range` of it when given).
    fn semantic_tokens(
        &self,
        uri: &Url,
        range: Option<lsp_types::Range>,
    ) -> Option<lsp_types::SemanticTokens> {
        let (a, file) = self.find(uri)?;
        let bytes = range
            .map(|r| a.offset(file, r.start, self.encoding)..a.offset(file, r.end, self.encoding));
        let data = crate::semantic::tokens(
            Some(a.checked.value()),
            file,
            a.text(file),
            self.encoding,
            bytes,
        );
        Some(lsp_types::SemanticTokens {
            result_id: None,
            data,
        })
    }

    /// Completion at the cursor: the place from the text around it, the
    /// candidates from the schemas and the analyses (see
    /// [`crate::completion`]).
    fn completion(&self, p: &lsp_types::CompletionParams) -> Option<CompletionResponse> {
        let tdp = &p.text_document_position;
        let uri = &tdp.text_document.uri;
        let found = self.find(uri);
        let key = self.key_of(uri);
        let (text, lines, offset) = self.cursor_text(uri, tdp.position)?;
        let (start, end) = crate::completion::window(
            found.map(|(a, file)| (a.checked.value(), file)),
            offset,
            text.len(),
        );
        let cursor = crate::context::cursor_within(text, start, offset, end);
        let node = found.and_then(|(a, file)| innermost_node(a.checked.value(), file, offset));
        let range = |start: usize, end: usize| lines.range(text, start..end, self.encoding);
        let inputs = crate::completion::Inputs {
            schemas: match found {
                Some((a, _)) => &a.profile.schemas,
                None => &*NO_SCHEMAS,
            },
            program: found.map(|(a, _)| a.checked.value()),
            node,
            last_good: self.last_good.get(&key),
            range: &range,
        };
        Some(crate::completion::complete(&cursor, offset, &inputs))
    }

    fn signature_help(&self, p: &lsp_types::SignatureHelpParams) -> Option<SignatureHelp> {
        let tdp = &p.text_document_position_params;
        let uri = &tdp.text_document.uri;
        let (text, _, offset) = self.cursor_text(uri, tdp.position)?;
        let program = self.find(uri).map(|(a, file)| (a.checked.value(), file));
        let (start, end) = crate::completion::window(program, offset, text.len());
        let cursor = crate::context::cursor_within(text, start, offset, end);
        let schemas: &dyn pcl_schema::SchemaLoader = match self.find(uri) {
            Some((a, _)) => &a.profile.schemas,
            None => &*NO_SCHEMAS,
        };
        crate::signature::help(&cursor, schemas)
    }

    /// The text of an open document (or its checked text), its lines and
    /// the byte offset of `position` in it.
    fn cursor_text(
        &self,
        uri: &Url,
        position: lsp_types::Position,
    ) -> Option<(&str, std::borrow::Cow<'_, Lines>, usize)> {
        if let Some((a, file)) = self.find(uri) {
            let lines = a.lines.get(file.0 as usize)?;
            let offset = a.offset(file, position, self.encoding);
            return Some((a.text(file), std::borrow::Cow::Borrowed(lines), offset));
        }
        let text = self.open.get(uri)?;
        let lines = Lines::new(text);
        let offset = lines.offset(text, position, self.encoding);
        Some((text, std::borrow::Cow::Owned(lines), offset))
    }
}

impl Server {
    /// Hands the replaced analysis, if any, to the dropper.
    fn retire(&mut self) {
        if let Some(old) = self.replaced.take() {
            self.dropper.drop_later(old);
        }
    }

    /// Sets the text of an open document (opening it when it was not).
    fn set_text(&mut self, uri: &Url, text: String) {
        self.open.insert(uri.clone(), text);
        if !self.located.contains_key(uri) {
            let located = Located::of(uri);
            if let Some(real) = &located.real {
                self.by_real.insert(real.clone(), uri.clone());
            }
            self.located.insert(uri.clone(), located);
        }
    }
}

/// A thread that frees what it is sent (started on first use). One value
/// waits at most: sending while the thread still frees the one before
/// blocks until it is done, so memory never grows behind it. Without the
/// thread (it could not be started, or it is gone), values are freed in
/// place.
#[derive(Default)]
struct Dropper {
    sender: Option<crossbeam_channel::Sender<Doomed>>,
}

/// What [`Dropper`] frees of an analysis: the program and its line tables,
/// nearly all of its memory (the rest is freed in place).
struct Doomed {
    _checked: pcl_binder::Checked<pcl_binder::Program>,
    _lines: Vec<Lines>,
}

impl Dropper {
    fn drop_later(&mut self, analysis: Analysis) {
        let doomed = Doomed {
            _checked: analysis.checked,
            _lines: analysis.lines,
        };
        if self.sender.is_none() {
            let (sender, receiver) = crossbeam_channel::bounded::<Doomed>(1);
            let started = std::thread::Builder::new()
                .name("pcl-lsp-drop".to_string())
                .spawn(move || receiver.iter().for_each(drop));
            if started.is_ok() {
                self.sender = Some(sender);
            }
        }
        if let Some(sender) = &self.sender {
            if let Err(crossbeam_channel::SendError(back)) = sender.send(doomed) {
                self.sender = None;
                drop(back);
            }
        }
    }
}

/// Counts of what the server has done since it started (`pcl/stats`).
#[derive(Default)]
struct Stats {
    /// Programs checked.
    checks: u64,
    /// Of `checks`, those that re-bound only an edited declaration.
    incremental: u64,
    /// Directories listed by checks (a program's and its components').
    dir_reads: u64,
}

/// A request answering the server's counts: the programs it holds
/// (`programs`, `lastGood`), the open documents (`documents`), the checks
/// run (`checks`; `incremental` of them re-bound only an edited
/// declaration), the directories they listed (`dirReads`) and the code
/// names compared while applying code levels (`levelComparisons`). For
/// tests and for looking at a running server; not part of LSP.
pub const STATS_METHOD: &str = "pcl/stats";

/// Test-only: a request or notification with this method panics inside
/// its handler, so tests can prove the panic is answered as an error (or
/// logged) and the server goes on.
pub const TEST_PANIC_METHOD: &str = "pcl/testPanic";

/// `client/registerCapability` for `workspace/didChangeWatchedFiles` on
/// `.pp` files and schemas (`.json`).
fn watch_registration() -> Message {
    let watchers = ["**/*.pp", "**/*.json", "**/pcl.toml"]
        .iter()
        .map(|glob| lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String((*glob).to_string()),
            kind: None,
        })
        .collect();
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions { watchers };
    let params = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "pcl-watched-files".to_string(),
            method: notif::DidChangeWatchedFiles::METHOD.to_string(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    Message::Request(Request::new(
        RequestId::from("pcl-register-watchers".to_string()),
        req::RegisterCapability::METHOD.to_string(),
        params,
    ))
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(["\"", ":", "/"].map(String::from).to_vec()),
            ..CompletionOptions::default()
        }),
        signature_help_provider: Some(lsp_types::SignatureHelpOptions {
            trigger_characters: Some(["(", ","].map(String::from).to_vec()),
            retrigger_characters: None,
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        }),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensOptions {
                legend: crate::semantic::legend(),
                range: Some(true),
                full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                ..lsp_types::SemanticTokensOptions::default()
            }
            .into(),
        ),
        ..ServerCapabilities::default()
    }
}

/// The schemas of a document not checked yet (completion and signature
/// help before the first check): none.
static NO_SCHEMAS: std::sync::LazyLock<pcl_schema::MemoryLoader> =
    std::sync::LazyLock::new(pcl_schema::MemoryLoader::default);

fn params<T: serde::de::DeserializeOwned>(value: &Json) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(value.clone())
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn to_json<T: serde::Serialize>(value: T) -> Answer {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn error(id: RequestId, code: ErrorCode, message: &str) -> Response {
    Response::new_err(id, code as i32, message.to_string())
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection
        .sender
        .send(message)
        .map_err(|e| format!("cannot send to the client: {e}"))
}

/// `window/showMessage`: an error the user should see (a bad `pcl.toml`).
fn show_message(message: &str) -> Message {
    Message::Notification(Notification::new(
        notif::ShowMessage::METHOD.to_string(),
        lsp_types::ShowMessageParams {
            typ: lsp_types::MessageType::ERROR,
            message: message.to_string(),
        },
    ))
}

fn log_message(message: &str) -> Message {
    Message::Notification(Notification::new(
        notif::LogMessage::METHOD.to_string(),
        lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::ERROR,
            message: message.to_string(),
        },
    ))
}
