//! The server state and the message loop.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOrCommand, CodeActionProviderCapability, CompletionOptions,
    CompletionResponse, DocumentSymbol, GotoDefinitionResponse, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, InitializeResult, Location, MarkupContent,
    MarkupKind, OneOf, PublishDiagnosticsParams, ServerCapabilities, ServerInfo, SignatureHelp,
    SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, TextEdit, Url, WorkspaceEdit,
};
use pcl_binder::{check_program_cached, BoundAttribute, Checked, FileProvider, NodeKind, Program};
use pcl_diagnostics::{FileId, Severity, Span};
use pcl_expr::{BoundExpr, BoundExprKind, Definition};
use pcl_schema::SchemaLoader;
use serde_json::Value as Json;

use crate::inbox::{Inbox, Next};
use crate::position::{Encoding, Lines};
use crate::settings::{Profile, Profiles, Settings};

/// Where the documentation of a diagnostic code lives (a placeholder until
/// the code catalogue is published).
pub const CODE_DOCS: &str = "https://github.com/pulumi/pcl/blob/main/docs/codes.md";

/// Which program a document belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ProgramKey {
    /// The directory of a `file:` document.
    Dir(PathBuf),
    /// A document that is not a file (`untitled:`): a program of its own.
    Alone(Url),
}

/// One checked program and where each of its files lives.
struct Analysis {
    checked: Checked<Program>,
    /// The URL of each file, by `FileId`.
    urls: Vec<Option<Url>>,
    /// Line starts of each file, by `FileId`.
    lines: Vec<Lines>,
    /// The URLs diagnostics were last published for.
    published: HashSet<Url>,
    /// What the program was checked with.
    profile: Arc<Profile>,
    /// The check's diagnostics, with the code levels of the settings
    /// applied.
    diagnostics: Vec<pcl_diagnostics::Diagnostic>,
}

impl Analysis {
    fn file_of(&self, uri: &Url) -> Option<FileId> {
        let i = self.urls.iter().position(|u| u.as_ref() == Some(uri))?;
        Some(FileId(u32::try_from(i).ok()?))
    }

    fn text(&self, file: FileId) -> &str {
        self.checked.sources().get(file).map_or("", |f| f.text())
    }

    fn range(&self, span: Span, enc: Encoding) -> lsp_types::Range {
        match self.lines.get(span.file.0 as usize) {
            Some(lines) => lines.range(self.text(span.file), span.range.to_usize(), enc),
            None => lsp_types::Range::default(),
        }
    }

    fn location(&self, span: Span, enc: Encoding) -> Option<Location> {
        let uri = self.urls.get(span.file.0 as usize)?.clone()?;
        Some(Location {
            uri,
            range: self.range(span, enc),
        })
    }

    fn offset(&self, file: FileId, pos: lsp_types::Position, enc: Encoding) -> usize {
        match self.lines.get(file.0 as usize) {
            Some(lines) => lines.offset(self.text(file), pos, enc),
            None => 0,
        }
    }
}

/// The answer to a request, or an LSP error.
type Answer = Result<Json, (ErrorCode, String)>;

pub(crate) struct Server {
    encoding: Encoding,
    profiles: Profiles,
    /// Open documents by URL.
    open: HashMap<Url, String>,
    analyses: HashMap<ProgramKey, Analysis>,
    /// Each program's names as of its last check without syntax errors.
    last_good: crate::completion::LastGood<ProgramKey>,
    /// Documents changed since their program was last checked.
    dirty: Vec<Url>,
    /// How long the last check took (see [`DEBOUNCE`]).
    last_check: std::time::Duration,
    /// The analysis a check replaced, dropped when no message waits:
    /// freeing a large program costs about a sixth of checking it, which
    /// the diagnostics of the new one need not wait for. At most one.
    replaced: Option<Analysis>,
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
    pub(crate) fn start(connection: &Connection) -> Result<Server, String> {
        let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
        let params: InitializeParams = serde_json::from_value(params)
            .map_err(|e| format!("invalid initialize parameters: {e}"))?;
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
        let settings = Settings::from_json(params.initialization_options.as_ref(), base.as_deref());
        let profiles = Profiles::new(settings, base);
        let result = InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "pcl".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        };
        let result = serde_json::to_value(result).map_err(|e| e.to_string())?;
        connection
            .initialize_finish(id, result)
            .map_err(|e| e.to_string())?;
        let dynamic_watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        if dynamic_watch {
            send(connection, watch_registration())?;
        }
        Ok(Server {
            encoding,
            profiles,
            open: HashMap::new(),
            analyses: HashMap::new(),
            last_good: crate::completion::LastGood::default(),
            dirty: Vec::new(),
            last_check: std::time::Duration::ZERO,
            replaced: None,
            shutdown: false,
        })
    }

    pub(crate) fn main_loop(mut self, connection: &Connection) -> Result<(), String> {
        let mut inbox = Inbox::default();
        loop {
            if self.replaced.is_some() && inbox.is_idle(&connection.receiver) {
                self.replaced = None;
            }
            // With changes pending, wait at most DEBOUNCE for more before
            // checking; a request checks them first.
            let timeout =
                (!self.dirty.is_empty()).then(|| DEBOUNCE.saturating_sub(self.last_check));
            let message = match inbox.next(&connection.receiver, timeout) {
                Next::Message(message) => message,
                Next::Timeout => {
                    self.flush(connection)?;
                    continue;
                }
                Next::Closed => break,
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
                    return if self.shutdown {
                        Ok(())
                    } else {
                        Err("exit before shutdown".to_string())
                    };
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
        Err("the client closed the connection without exit".to_string())
    }

    /// Checks the programs of the pending changes and publishes.
    fn flush(&mut self, connection: &Connection) -> Result<(), String> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut out = Vec::new();
        for uri in dirty {
            if catch_unwind(AssertUnwindSafe(|| self.recheck(&uri, &mut out))).is_err() {
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
                self.open
                    .insert(p.text_document.uri.clone(), p.text_document.text);
                p.text_document.uri
            }
            notif::DidChangeTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidChangeTextDocumentParams>(&n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                // Full sync: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.open.insert(uri.clone(), change.text);
                }
                // Debounced: checked when no change follows within
                // DEBOUNCE, or before the next request.
                let key = program_key(&uri);
                if !self.dirty.iter().any(|u| program_key(u) == key) {
                    self.dirty.push(uri);
                }
                return;
            }
            notif::DidSaveTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidSaveTextDocumentParams>(&n.params) else {
                    return;
                };
                if let Some(text) = p.text {
                    self.open.insert(p.text_document.uri.clone(), text);
                }
                p.text_document.uri
            }
            notif::DidCloseTextDocument::METHOD => {
                let Ok(p) = params::<lsp_types::DidCloseTextDocumentParams>(&n.params) else {
                    return;
                };
                self.open.remove(&p.text_document.uri);
                p.text_document.uri
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
                && self.analyses.contains_key(&program_key(&change.uri))
            {
                programs.push(change.uri.clone());
            }
        }
        let mut seen = HashSet::new();
        for uri in programs {
            if seen.insert(program_key(&uri)) {
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

    /// Checks the program `uri` belongs to and publishes its diagnostics.
    fn recheck(&mut self, uri: &Url, out: &mut Vec<Message>) {
        let key = program_key(uri);
        self.dirty.retain(|u| program_key(u) != key);
        let (previous, replaced_here) = match self.analyses.remove(&key) {
            Some(mut old) => {
                let published = std::mem::take(&mut old.published);
                // Replacing (and so dropping) an older one first.
                self.replaced = Some(old);
                (published, true)
            }
            None => (HashSet::new(), false),
        };
        let (profile, config_error) = self.profiles.of(match &key {
            ProgramKey::Dir(dir) => Some(dir.as_path()),
            ProgramKey::Alone(_) => None,
        });
        if let Some(message) = config_error {
            out.push(show_message(&message));
        }
        let started = std::time::Instant::now();
        let analysed = self.analyse(&key, profile);
        self.last_check = started.elapsed();
        let replaced = self
            .replaced
            .as_ref()
            .filter(|_| replaced_here)
            .map(|a| &a.checked);
        let Some(mut analysis) = analysed else {
            self.last_good.detach(&key, replaced);
            for gone in previous {
                out.push(publish(gone, Vec::new()));
            }
            return;
        };
        let mut by_file: Vec<Vec<lsp_types::Diagnostic>> = vec![Vec::new(); analysis.urls.len()];
        for d in &analysis.diagnostics {
            if let Some(list) = by_file.get_mut(d.span.file.0 as usize) {
                list.push(self.diagnostic(&analysis, d));
            }
        }
        let mut published = HashSet::new();
        for (url, diags) in analysis.urls.iter().zip(by_file) {
            if let Some(url) = url {
                published.insert(url.clone());
                out.push(publish(url.clone(), diags));
            }
        }
        for gone in previous.difference(&published) {
            out.push(publish(gone.clone(), Vec::new()));
        }
        analysis.published = published;
        let replaced = self
            .replaced
            .as_ref()
            .filter(|_| replaced_here)
            .map(|a| &a.checked);
        self.last_good
            .remember(key.clone(), &analysis.checked, replaced);
        self.analyses.insert(key, analysis);
    }

    fn analyse(&self, key: &ProgramKey, profile: Arc<Profile>) -> Option<Analysis> {
        let (sources, root, files): (Vec<(String, String)>, Option<&Path>, Overlay<'_>) = match key
        {
            ProgramKey::Dir(dir) => {
                let overlay = Overlay {
                    root: dir,
                    open: &self.open,
                };
                let sources = overlay.read_dir("").unwrap_or_default();
                (sources, Some(dir), overlay)
            }
            ProgramKey::Alone(url) => {
                let text = self.open.get(url)?.clone();
                let name = url
                    .path_segments()
                    .and_then(|mut s| s.next_back())
                    .filter(|s| !s.is_empty())
                    .unwrap_or("untitled.pp")
                    .to_string();
                let overlay = Overlay {
                    root: Path::new(""),
                    open: &self.open,
                };
                (vec![(name, text)], None, overlay)
            }
        };
        if sources.is_empty() {
            return None;
        }
        let files: &dyn FileProvider = match root {
            Some(_) => &files,
            None => &pcl_binder::NoFiles,
        };
        let checked = check_program_cached(&sources, &profile.schemas, &profile.policy, files);
        let mut diagnostics = checked.diagnostics().to_vec();
        profile.levels.apply(&mut diagnostics);
        let mut urls = Vec::new();
        let mut lines = Vec::new();
        for (_, file) in checked.sources().iter() {
            let url = match (key, root) {
                (ProgramKey::Alone(url), _) => Some(url.clone()),
                (_, Some(root)) => Url::from_file_path(root.join(file.name())).ok(),
                _ => None,
            };
            urls.push(url);
            lines.push(Lines::new(file.text()));
        }
        Some(Analysis {
            checked,
            urls,
            lines,
            published: HashSet::new(),
            profile,
            diagnostics,
        })
    }

    /// The analysis of the program holding `uri` and the file's id in it.
    fn find(&self, uri: &Url) -> Option<(&Analysis, FileId)> {
        let analysis = self.analyses.get(&program_key(uri))?;
        Some((analysis, analysis.file_of(uri)?))
    }

    fn diagnostic(&self, a: &Analysis, d: &pcl_diagnostics::Diagnostic) -> lsp_types::Diagnostic {
        let severity = match d.severity {
            Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
            Severity::Note => lsp_types::DiagnosticSeverity::INFORMATION,
        };
        let mut message = d.summary.clone();
        if let Some(detail) = &d.detail {
            message.push('\n');
            message.push_str(detail);
        }
        for help in &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        let related: Vec<lsp_types::DiagnosticRelatedInformation> = d
            .related
            .iter()
            .filter_map(|l| {
                Some(lsp_types::DiagnosticRelatedInformation {
                    location: a.location(l.span, self.encoding)?,
                    message: l.message.clone(),
                })
            })
            .collect();
        let code = d.code.as_str();
        lsp_types::Diagnostic {
            range: a.range(d.span, self.encoding),
            severity: Some(severity),
            code: Some(lsp_types::NumberOrString::String(code.to_string())),
            code_description: Url::parse(&format!("{CODE_DOCS}#{code}"))
                .ok()
                .map(|href| lsp_types::CodeDescription { href }),
            source: Some("pcl".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            tags: None,
            data: None,
        }
    }

    fn hover(&self, p: &lsp_types::HoverParams) -> Option<Hover> {
        let tdp = &p.text_document_position_params;
        let (a, file) = self.find(&tdp.text_document.uri)?;
        let offset = a.offset(file, tdp.position, self.encoding);
        let program = a.checked.value();
        let node = innermost_node(program, file, offset)?;
        let schema = match &node.kind {
            NodeKind::Resource(r) => r.schema.as_ref().and_then(|s| Self::schema_resource(a, s)),
            _ => None,
        };
        let inputs: &[BoundAttribute] = match &node.kind {
            NodeKind::Resource(r) => &r.inputs,
            _ => &[],
        };
        let mut markdown = None;
        let mut range = None;
        // An attribute name: the property it sets, its expected type and,
        // for a resource input, what the schema says of it.
        for attr in node_attributes(&node.kind) {
            if contains(attr.name_span.range, offset) {
                let ty = attr.expected.as_ref().unwrap_or(&attr.value.ty);
                let mut text = format!("```pcl\n{}: {}\n```", attr.name, ty);
                let is_input = inputs.iter().any(|i| std::ptr::eq(i, attr));
                if let Some(prop) = schema
                    .as_ref()
                    .filter(|_| is_input)
                    .and_then(|r| r.input(&attr.name))
                {
                    text.push_str(if prop.required {
                        "\n\nrequired"
                    } else {
                        "\n\noptional"
                    });
                    if let Some(d) = &prop.description {
                        text.push_str("\n\n");
                        text.push_str(d);
                    }
                }
                markdown = Some(text);
                range = Some(a.range(attr.name_span, self.encoding));
            }
        }
        if markdown.is_none() {
            if let Some((text, r)) = Self::invoke_hover(a, node, offset) {
                markdown = Some(text);
                range = Some(a.range(Span::new(file, r), self.encoding));
            }
        }
        if markdown.is_none() {
            if let Some((ty, r)) = innermost_expr(node, offset) {
                let mut text = format!("```pcl\n{ty}\n```");
                // A reference to a config: what its declaration says.
                let referenced = self
                    .target(tdp)
                    .and_then(|(_, target)| match target {
                        Target::Node(id) => program.node(id),
                        _ => None,
                    })
                    .filter(|n| n.id != node.id);
                if let Some(described) = referenced.and_then(|n| config_description(&n.kind)) {
                    text.push_str("\n\n");
                    text.push_str(described);
                }
                markdown = Some(text);
                range = Some(a.range(Span::new(file, r), self.encoding));
            }
        }
        if markdown.is_none() {
            let mut text = format!(
                "```pcl\n{} {}: {}\n```",
                node.kind_name(),
                node.name,
                node.ty
            );
            if let NodeKind::Resource(r) = &node.kind {
                text = format!(
                    "```pcl\n{} {} \"{}\"\n```",
                    node.kind_name(),
                    node.name,
                    r.token
                );
                if let Some(s) = &r.schema {
                    let version = s.package_version.as_deref().unwrap_or("unversioned");
                    text.push_str(&format!(
                        "\n\nschema token `{}` (package `{}` {version})",
                        s.schema_token, s.package
                    ));
                }
                if let Some(d) = schema.as_ref().and_then(|r| r.description.as_ref()) {
                    text.push_str("\n\n");
                    text.push_str(d);
                }
            }
            if let Some(described) = config_description(&node.kind) {
                text.push_str("\n\n");
                text.push_str(described);
            }
            markdown = Some(text);
            range = Some(a.range(node.name_span, self.encoding));
        }
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown?,
            }),
            range,
        })
    }

    /// On an `invoke` call's name or token: the function's token, its
    /// signature as checked, its description and its inputs with required
    /// markers and descriptions.
    fn invoke_hover(
        a: &Analysis,
        node: &pcl_binder::Node,
        offset: usize,
    ) -> Option<(String, pcl_diagnostics::TextRange)> {
        let mut found = None;
        for_each_expr(node, |e| {
            if let BoundExprKind::Call(call) = &e.kind {
                let on_token = call.args.first().is_some_and(|t| contains(t.range, offset));
                if call.name == "invoke" && (contains(call.name_range, offset) || on_token) {
                    found = Some(call);
                }
            }
        });
        let call = found?;
        let token = call.invoke_token.as_deref()?;
        let range = match call.args.first() {
            Some(t) if contains(t.range, offset) => t.range,
            _ => call.name_range,
        };
        let mut text = format!("```pcl\ninvoke(\"{token}\")\n{}\n```", call.signature);
        let package = token.split(':').next().unwrap_or("");
        let request = pcl_schema::PackageDescriptor::new(package.to_string());
        let function = a
            .profile
            .schemas
            .load(&request)
            .ok()
            .and_then(|p| p.lookup_function(token).ok().flatten());
        if let Some(found) = function {
            let f = &found.item;
            text.push_str(&format!("\n\nschema token `{}`", found.schema_token));
            if let Some(d) = &f.description {
                text.push_str("\n\n");
                text.push_str(d);
            }
            if let Some(inputs) = &f.inputs {
                text.push_str("\n\ninputs:");
                for prop in inputs.properties.values() {
                    let need = if prop.required {
                        "required"
                    } else {
                        "optional"
                    };
                    text.push_str(&format!("\n- `{}` ({need})", prop.name));
                    if let Some(d) = prop.description.as_deref().and_then(|d| d.lines().next()) {
                        text.push_str(": ");
                        text.push_str(d);
                    }
                }
            }
        }
        Some((text, range))
    }

    /// The schema of a resolved resource (loaded already by the check).
    fn schema_resource(
        a: &Analysis,
        s: &pcl_binder::SchemaResourceRef,
    ) -> Option<std::sync::Arc<pcl_schema::Resource>> {
        let request = pcl_schema::PackageDescriptor::new(s.package.clone());
        let package = a.profile.schemas.load(&request).ok()?;
        package.resource(&s.schema_token)?.ok()
    }

    fn definition(&self, p: &lsp_types::GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let tdp = &p.text_document_position_params;
        // On a component's source string: the files of its directory.
        if let Some((a, file)) = self.find(&tdp.text_document.uri) {
            let offset = a.offset(file, tdp.position, self.encoding);
            let range = |r| a.range(Span::new(file, r), self.encoding);
            let uri = &tdp.text_document.uri;
            let links = innermost_node(a.checked.value(), file, offset).and_then(|node| {
                crate::component::definition(a.text(file), node, uri, offset, range)
            });
            if let Some(links) = links {
                return Some(GotoDefinitionResponse::Link(links));
            }
        }
        let (a, target) = self.target(tdp)?;
        let location = a.location(Self::declaration(a, &target)?, self.encoding)?;
        Some(GotoDefinitionResponse::Scalar(location))
    }

    /// Where `target` is declared: a node's name, a variable's declaring
    /// identifier, or the `range` option of a resource.
    fn declaration(a: &Analysis, target: &Target) -> Option<Span> {
        let program = a.checked.value();
        match target {
            Target::Node(id) => program.node(*id).map(|n| n.name_span),
            Target::Variable(decl) => Some(*decl),
            Target::Range(id) => {
                let node = program.node(*id)?;
                let options = match &node.kind {
                    NodeKind::Resource(r) => r.options.as_ref(),
                    NodeKind::Component(c) => c.options.as_ref(),
                    _ => None,
                }?;
                options
                    .attributes
                    .iter()
                    .find(|attr| attr.name == "range")
                    .map(|attr| attr.name_span)
            }
        }
    }

    #[allow(deprecated)] // `DocumentSymbol::deprecated` must be written.
    fn symbols(&self, p: &lsp_types::DocumentSymbolParams) -> Option<Vec<DocumentSymbol>> {
        let (a, file) = self.find(&p.text_document.uri)?;
        let symbols = a
            .checked
            .value()
            .nodes()
            .iter()
            .filter(|n| n.file() == file)
            .map(|n| {
                let (kind, detail) = match &n.kind {
                    NodeKind::Local(_) => (SymbolKind::VARIABLE, "local".to_string()),
                    NodeKind::Config(c) => (
                        SymbolKind::CONSTANT,
                        format!("config {}", c.type_label.as_deref().unwrap_or("")),
                    ),
                    NodeKind::Output(_) => (SymbolKind::PROPERTY, "output".to_string()),
                    NodeKind::Resource(r) => (
                        SymbolKind::OBJECT,
                        format!("{} {}", n.kind_name(), r.written_token),
                    ),
                    NodeKind::Component(_) => (SymbolKind::MODULE, "component".to_string()),
                    NodeKind::Hook(_) => (SymbolKind::FUNCTION, "hook".to_string()),
                    NodeKind::Pulumi(_) => (SymbolKind::NAMESPACE, "pulumi".to_string()),
                };
                DocumentSymbol {
                    name: n.name.clone(),
                    detail: Some(detail.trim_end().to_string()),
                    kind,
                    tags: None,
                    deprecated: None,
                    range: a.range(n.span, self.encoding),
                    selection_range: a.range(n.name_span, self.encoding),
                    children: None,
                }
            })
            .collect();
        Some(symbols)
    }

    fn format(&self, p: &lsp_types::DocumentFormattingParams) -> Option<Vec<TextEdit>> {
        let text = self.open.get(&p.text_document.uri)?;
        let formatted = pcl_fmt::format(FileId(0), text).ok()?;
        Some(whole_text_edit(text, formatted, self.encoding))
    }

    fn format_range(&self, p: &lsp_types::DocumentRangeFormattingParams) -> Option<Vec<TextEdit>> {
        let text = self.open.get(&p.text_document.uri)?;
        let lines = Lines::new(text);
        let start = lines.offset(text, p.range.start, self.encoding);
        let end = lines.offset(text, p.range.end, self.encoding).max(start);
        let range = pcl_diagnostics::TextRange::from_usize(start..end);
        let formatted = pcl_fmt::format_range(FileId(0), text, range).ok()?;
        Some(whole_text_edit(text, formatted, self.encoding))
    }

    /// What a position names: a program node (by a reference or its own
    /// name), a variable (a `for` variable, by a use or its declaration),
    /// or a resource's `range`.
    fn target(&self, tdp: &lsp_types::TextDocumentPositionParams) -> Option<(&Analysis, Target)> {
        let (a, file) = self.find(&tdp.text_document.uri)?;
        let offset = a.offset(file, tdp.position, self.encoding);
        let program = a.checked.value();
        let node = innermost_node(program, file, offset)?;
        if contains(node.name_span.range, offset) {
            return Some((a, Target::Node(node.id)));
        }
        let mut target = None;
        for_each_expr(node, |e| {
            if let BoundExprKind::ScopeTraversal {
                root_range,
                definition: Some(def),
                ..
            } = &e.kind
            {
                let named = match def {
                    Definition::Node(id) => Some(Target::Node(*id)),
                    Definition::Variable {
                        range: Some(decl), ..
                    } => {
                        if decl.file == file && contains(decl.range, offset) {
                            // On the declaration itself.
                            target = Some(Target::Variable(*decl));
                        }
                        Some(Target::Variable(*decl))
                    }
                    Definition::Variable {
                        name, range: None, ..
                    } if name == "range" => Some(Target::Range(node.id)),
                    _ => None,
                };
                if contains(*root_range, offset) {
                    target = named;
                }
            }
        });
        Some((a, target?))
    }

    /// Every reference to `target` in the program (not its declaration).
    fn reference_spans(a: &Analysis, target: &Target) -> Vec<Span> {
        let mut out = Vec::new();
        for node in a.checked.value().nodes() {
            let in_scope = match target {
                Target::Node(_) => true,
                Target::Variable(decl) => {
                    node.file() == decl.file && contains_range(node.span.range, decl.range)
                }
                Target::Range(id) => node.id == *id,
            };
            if !in_scope {
                continue;
            }
            for_each_expr(node, |e| {
                if let BoundExprKind::ScopeTraversal {
                    root_range,
                    definition: Some(def),
                    ..
                } = &e.kind
                {
                    let hit = match (target, def) {
                        (Target::Node(id), Definition::Node(d)) => d == id,
                        (Target::Variable(decl), Definition::Variable { range: Some(d), .. }) => {
                            d == decl
                        }
                        (
                            Target::Range(_),
                            Definition::Variable {
                                name, range: None, ..
                            },
                        ) => name == "range",
                        _ => false,
                    };
                    if hit {
                        out.push(Span::new(node.file(), *root_range));
                    }
                }
            });
        }
        out.sort_by_key(|s| (s.file, s.range.start));
        out
    }

    fn references(&self, p: &lsp_types::ReferenceParams) -> Option<Vec<Location>> {
        let (a, target) = self.target(&p.text_document_position)?;
        let mut spans = Self::reference_spans(a, &target);
        if p.context.include_declaration {
            if let Some(decl) = Self::declaration(a, &target) {
                spans.insert(0, decl);
            }
        }
        Some(
            spans
                .into_iter()
                .filter_map(|s| a.location(s, self.encoding))
                .collect(),
        )
    }

    fn rename(
        &self,
        p: &lsp_types::RenameParams,
    ) -> Result<Option<WorkspaceEdit>, (ErrorCode, String)> {
        if !is_identifier(&p.new_name) {
            return Err((
                ErrorCode::InvalidParams,
                format!("`{}` is not a valid name", p.new_name.escape_debug()),
            ));
        }
        let Some((a, target)) = self.target(&p.text_document_position) else {
            return Ok(None);
        };
        let declaration = match &target {
            Target::Node(id) => match a.checked.value().node(*id) {
                Some(node) => unquoted(a, node.name_span),
                None => return Ok(None),
            },
            Target::Variable(decl) => *decl,
            Target::Range(_) => return Err((
                ErrorCode::InvalidRequest,
                "`range` is the name PCL gives a resource's range variable; it cannot be renamed"
                    .to_string(),
            )),
        };
        let mut spans = vec![declaration];
        spans.extend(Self::reference_spans(a, &target));
        let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
        for span in spans {
            if let Some(location) = a.location(span, self.encoding) {
                changes.entry(location.uri).or_default().push(TextEdit {
                    range: location.range,
                    new_text: p.new_name.clone(),
                });
            }
        }
        Ok(Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }))
    }

    #[allow(deprecated)] // `SymbolInformation::deprecated` must be written.
    fn workspace_symbols(
        &self,
        p: &lsp_types::WorkspaceSymbolParams,
    ) -> Option<Vec<lsp_types::SymbolInformation>> {
        let query = p.query.to_lowercase();
        let mut out = Vec::new();
        for a in self.analyses.values() {
            for n in a.checked.value().nodes() {
                if matches!(n.kind, NodeKind::Pulumi(_)) || !n.name.to_lowercase().contains(&query)
                {
                    continue;
                }
                let Some(location) = a.location(n.name_span, self.encoding) else {
                    continue;
                };
                out.push(lsp_types::SymbolInformation {
                    name: n.name.clone(),
                    kind: symbol_kind(&n.kind),
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: Some(n.kind_name().to_string()),
                });
            }
        }
        out.sort_by(|x, y| {
            (&x.location.uri, x.location.range.start)
                .cmp(&(&y.location.uri, y.location.range.start))
        });
        Some(out)
    }

    fn code_actions(&self, p: &lsp_types::CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
        let (a, file) = self.find(&p.text_document.uri)?;
        let start = a.offset(file, p.range.start, self.encoding);
        let end = a.offset(file, p.range.end, self.encoding);
        Some(quick_fixes(
            &a.diagnostics,
            file,
            start..end,
            |span| a.location(span, self.encoding),
            |d| self.diagnostic(a, d),
        ))
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
        let key = program_key(uri);
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

/// Every fix of the diagnostics of `file` that touch `range`, as a quick
/// fix; `locate` gives the location of a span, `convert` the LSP form of a
/// diagnostic.
fn quick_fixes(
    diagnostics: &[pcl_diagnostics::Diagnostic],
    file: FileId,
    range: std::ops::Range<usize>,
    locate: impl Fn(Span) -> Option<Location>,
    convert: impl Fn(&pcl_diagnostics::Diagnostic) -> lsp_types::Diagnostic,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    for d in diagnostics {
        let r = d.span.range.to_usize();
        if d.span.file != file || r.start > range.end || r.end < range.start {
            continue;
        }
        for fix in &d.fixes {
            let Some(location) = locate(fix.span) else {
                continue;
            };
            let edit = TextEdit {
                range: location.range,
                new_text: fix.replacement.clone(),
            };
            actions.push(CodeActionOrCommand::CodeAction(lsp_types::CodeAction {
                title: fix.message.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert(d)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(location.uri, vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(d.fixes.len() == 1),
                ..lsp_types::CodeAction::default()
            }));
        }
    }
    actions
}

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

/// The `.pp` files of a directory on disk, open buffers overriding them
/// (and open buffers not yet saved added).
struct Overlay<'a> {
    root: &'a Path,
    open: &'a HashMap<Url, String>,
}

impl FileProvider for Overlay<'_> {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        let path = if dir.is_empty() {
            self.root.to_path_buf()
        } else {
            self.root.join(dir)
        };
        let rel = |name: &str| {
            if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            }
        };
        let mut files: HashMap<String, String> = HashMap::new();
        // The files open in the editor, which are not read from disk.
        let open: HashSet<PathBuf> = self
            .open
            .keys()
            .filter_map(|u| u.to_file_path().ok())
            .filter(|p| p.parent() == Some(path.as_path()))
            .collect();
        if let Ok(entries) = std::fs::read_dir(&path) {
            for entry in entries.flatten() {
                let p = entry.path();
                if open.contains(&p) || p.extension().is_none_or(|e| e != "pp") || !p.is_file() {
                    continue;
                }
                let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let text = match std::fs::read(&p) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(_) => continue,
                };
                files.insert(name.to_string(), text);
            }
        }
        for (url, text) in self.open {
            let Ok(p) = url.to_file_path() else {
                continue;
            };
            if p.parent() != Some(path.as_path()) || p.extension().is_none_or(|e| e != "pp") {
                continue;
            }
            if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
                files.insert(name.to_string(), text.clone());
            }
        }
        if files.is_empty() && !path.is_dir() {
            return Err(format!("cannot read directory '{}'", rel("")));
        }
        let mut out: Vec<(String, String)> = files.into_iter().map(|(n, t)| (rel(&n), t)).collect();
        out.sort();
        Ok(out)
    }
}

/// The `description` of a config.
fn config_description(kind: &NodeKind) -> Option<&str> {
    match kind {
        NodeKind::Config(c) => c.description.as_deref(),
        _ => None,
    }
}

/// No edit when `new` is `text`, else one edit replacing the whole text.
fn whole_text_edit(text: &str, new: String, enc: Encoding) -> Vec<TextEdit> {
    if new == text {
        return Vec::new();
    }
    let lines = Lines::new(text);
    vec![TextEdit {
        range: lines.range(text, 0..text.len(), enc),
        new_text: new,
    }]
}

/// A valid HCL identifier: an `ID_Start` character or `_`, then
/// `ID_Continue` characters or `-`.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || unicode_ident::is_xid_start(c) => {}
        _ => return false,
    }
    chars.all(|c| c == '-' || unicode_ident::is_xid_continue(c))
}

/// A name label's span without its quotes, when it is quoted.
fn unquoted(a: &Analysis, span: Span) -> Span {
    let text = a.text(span.file).get(span.range.to_usize()).unwrap_or("");
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        Span::new(
            span.file,
            pcl_diagnostics::TextRange::new(span.range.start + 1, span.range.end - 1),
        )
    } else {
        span
    }
}

fn symbol_kind(kind: &NodeKind) -> SymbolKind {
    match kind {
        NodeKind::Local(_) => SymbolKind::VARIABLE,
        NodeKind::Config(_) => SymbolKind::CONSTANT,
        NodeKind::Output(_) => SymbolKind::PROPERTY,
        NodeKind::Resource(_) => SymbolKind::OBJECT,
        NodeKind::Component(_) => SymbolKind::MODULE,
        NodeKind::Hook(_) => SymbolKind::FUNCTION,
        NodeKind::Pulumi(_) => SymbolKind::NAMESPACE,
    }
}

fn program_key(uri: &Url) -> ProgramKey {
    match uri.to_file_path() {
        Ok(path) => match path.parent() {
            Some(dir) => ProgramKey::Dir(dir.to_path_buf()),
            None => ProgramKey::Alone(uri.clone()),
        },
        Err(()) => ProgramKey::Alone(uri.clone()),
    }
}

/// The schemas of a document not checked yet (completion and signature
/// help before the first check): none.
static NO_SCHEMAS: std::sync::LazyLock<pcl_schema::MemoryLoader> =
    std::sync::LazyLock::new(pcl_schema::MemoryLoader::default);

/// What a position names, for definition, references and rename.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Node(pcl_binder::NodeId),
    /// A variable with a declaration site (a `for` variable): that site.
    Variable(Span),
    /// The `range` variable of the resource or component with this id.
    Range(pcl_binder::NodeId),
}

fn contains_range(outer: pcl_diagnostics::TextRange, inner: pcl_diagnostics::TextRange) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn contains(r: pcl_diagnostics::TextRange, offset: usize) -> bool {
    (r.start as usize) <= offset && offset <= r.end as usize
}

/// The node of `file` whose block covers `offset` (the smallest, should
/// blocks nest).
fn innermost_node(program: &Program, file: FileId, offset: usize) -> Option<&pcl_binder::Node> {
    program
        .nodes()
        .iter()
        .filter(|n| n.file() == file && contains(n.span.range, offset))
        .min_by_key(|n| n.span.range.len())
}

pub(crate) fn node_attributes(kind: &NodeKind) -> Vec<&BoundAttribute> {
    let mut out: Vec<&BoundAttribute> = Vec::new();
    match kind {
        NodeKind::Config(c) => out.extend(&c.attributes),
        NodeKind::Resource(r) => {
            out.extend(&r.inputs);
            out.extend(r.options.iter().flat_map(|o| &o.attributes));
        }
        NodeKind::Component(c) => {
            out.extend(&c.inputs);
            out.extend(c.options.iter().flat_map(|o| &o.attributes));
        }
        NodeKind::Pulumi(p) => out.extend(&p.attributes),
        NodeKind::Local(_) | NodeKind::Output(_) | NodeKind::Hook(_) => {}
    }
    out
}

/// Every top-level expression of a node.
fn node_exprs(kind: &NodeKind) -> Vec<&BoundExpr> {
    let mut out: Vec<&BoundExpr> = node_attributes(kind).iter().map(|a| &a.value).collect();
    match kind {
        NodeKind::Local(l) => out.extend(&l.value),
        NodeKind::Config(c) => out.extend(&c.default),
        NodeKind::Output(o) => out.extend(&o.value),
        NodeKind::Hook(h) => {
            out.extend(&h.command);
            out.extend(&h.on_dry_run);
            out.extend(&h.ignore_errors);
        }
        _ => {}
    }
    out
}

/// Calls `f` on every expression of `node`, through an explicit stack (no
/// recursion in the depth of an expression).
pub(crate) fn for_each_expr<'a>(node: &'a pcl_binder::Node, mut f: impl FnMut(&'a BoundExpr)) {
    let mut stack = node_exprs(&node.kind);
    while let Some(e) = stack.pop() {
        f(e);
        e.for_each_child(&mut |c| stack.push(c));
    }
}

/// The type and range of the smallest expression (or traversal step) of
/// `node` covering `offset`.
fn innermost_expr(
    node: &pcl_binder::Node,
    offset: usize,
) -> Option<(pcl_types::Type, pcl_diagnostics::TextRange)> {
    let mut best: Option<(&pcl_types::Type, pcl_diagnostics::TextRange)> = None;
    for_each_expr(node, |e| {
        let mut candidates = vec![(&e.ty, e.range)];
        let steps = match &e.kind {
            BoundExprKind::ScopeTraversal { steps, .. }
            | BoundExprKind::RelativeTraversal { steps, .. } => steps.as_slice(),
            _ => &[],
        };
        candidates.extend(steps.iter().map(|s| (&s.ty, s.range)));
        for (ty, r) in candidates {
            if contains(r, offset) && best.is_none_or(|(_, b)| r.len() <= b.len()) {
                best = Some((ty, r));
            }
        }
    });
    best.map(|(t, r)| (t.clone(), r))
}

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

fn publish(uri: Url, diagnostics: Vec<lsp_types::Diagnostic>) -> Message {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version: None,
    };
    Message::Notification(Notification::new(
        notif::PublishDiagnostics::METHOD.to_string(),
        params,
    ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use pcl_diagnostics::{Code, Diagnostic, TextRange};

    #[test]
    fn every_fix_of_a_touched_diagnostic_is_a_quick_fix() {
        let file = FileId(0);
        let span = |a, b| Span::new(file, TextRange::new(a, b));
        let fixed = Diagnostic::error(Code("undefined-variable"), span(4, 7), "undefined `nme`")
            .with_fix(span(4, 7), "name");
        let elsewhere = Diagnostic::error(Code("undefined-variable"), span(40, 43), "far")
            .with_fix(span(40, 43), "far");
        let other_file = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(FileId(1), TextRange::new(4, 7)),
            "other",
        )
        .with_fix(Span::new(FileId(1), TextRange::new(4, 7)), "x");
        let uri = Url::parse("file:///p/main.pp").ok();
        let locate = |s: Span| {
            Some(Location {
                uri: uri.clone()?,
                range: lsp_types::Range::new(
                    lsp_types::Position::new(0, s.range.start),
                    lsp_types::Position::new(0, s.range.end),
                ),
            })
        };
        let convert = |d: &Diagnostic| lsp_types::Diagnostic {
            message: d.summary.clone(),
            ..lsp_types::Diagnostic::default()
        };
        let actions = quick_fixes(&[fixed, elsewhere, other_file], file, 5..5, locate, convert);
        assert_eq!(actions.len(), 1, "{actions:?}");
        let Some(CodeActionOrCommand::CodeAction(action)) = actions.first() else {
            panic!("not a code action: {actions:?}");
        };
        assert_eq!(action.kind, Some(CodeActionKind::QUICKFIX));
        let edits = action
            .edit
            .as_ref()
            .and_then(|e| e.changes.as_ref())
            .and_then(|c| c.values().next())
            .cloned()
            .unwrap_or_default();
        assert_eq!(edits.len(), 1);
        assert_eq!(edits.first().map(|e| e.new_text.as_str()), Some("name"));
        assert_eq!(
            edits.first().map(|e| e.range.start),
            Some(lsp_types::Position::new(0, 4))
        );
        let diags = action.diagnostics.clone().unwrap_or_default();
        assert_eq!(
            diags.first().map(|d| d.message.as_str()),
            Some("undefined `nme`")
        );
    }
}
