//! Programs and their analyses: which program a document belongs to (the
//! directory of its file, open buffers overriding the disk), checking it
//! (an edit of one open document by re-binding only the edited
//! declaration when `pcl_binder::recheck_edit` can, else in full), the
//! [`Analysis`] kept of each check (the bound program, each file's URL
//! and line table), and publishing its diagnostics in their LSP form.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Message, Notification};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::{Location, PublishDiagnosticsParams, Url};
use pcl_binder::{check_program_for_edits, Checked, FileProvider, Program, Recheck};

use crate::files::{real_path, Overlay};
use pcl_diagnostics::{FileId, Severity, Span};

use super::{show_message, Server};
use crate::position::{Encoding, Lines};
use crate::settings::Profile;

/// Which program a document belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ProgramKey {
    /// The directory of a `file:` document (its real path when it has one:
    /// two spellings of a directory are one program).
    Dir(PathBuf),
    /// A document that is not a file (`untitled:`): a program of its own.
    Alone(Url),
}

/// One checked program and where each of its files lives.
pub(super) struct Analysis {
    pub(super) checked: Checked<Program>,
    /// The URL of each file, by `FileId`.
    pub(super) urls: Vec<Option<Url>>,
    /// Line starts of each file, by `FileId`.
    pub(super) lines: Vec<Lines>,
    /// The URLs diagnostics were last published for.
    pub(super) published: HashSet<Url>,
    /// What the program was checked with.
    pub(super) profile: Arc<Profile>,
    /// The check's diagnostics, with the code levels of the settings
    /// applied.
    pub(super) diagnostics: Vec<pcl_diagnostics::Diagnostic>,
    /// The `.pp` entries of the program's directory that could not be
    /// read, as its listing found them (reported with the diagnostics).
    pub(super) problems: Vec<pcl_binder::files::FileProblem>,
}

/// Where an open document lives.
#[derive(Clone, Debug)]
pub(super) struct Located {
    /// Its program.
    pub(super) key: ProgramKey,
    /// Its real path (links resolved), for a `file:` document.
    pub(super) real: Option<PathBuf>,
}

impl Located {
    pub(super) fn of(uri: &Url) -> Located {
        let path = uri.to_file_path().ok();
        let real = path.as_deref().and_then(real_path);
        Located {
            key: program_key(uri),
            real,
        }
    }
}

impl Analysis {
    pub(super) fn file_of(&self, uri: &Url) -> Option<FileId> {
        let i = self.urls.iter().position(|u| u.as_ref() == Some(uri))?;
        Some(FileId(u32::try_from(i).ok()?))
    }

    pub(super) fn text(&self, file: FileId) -> &str {
        self.checked.sources().get(file).map_or("", |f| f.text())
    }

    pub(super) fn range(&self, span: Span, enc: Encoding) -> lsp_types::Range {
        match self.lines.get(span.file.0 as usize) {
            Some(lines) => lines.range(self.text(span.file), span.range.to_usize(), enc),
            None => lsp_types::Range::default(),
        }
    }

    pub(super) fn location(&self, span: Span, enc: Encoding) -> Option<Location> {
        let uri = self.urls.get(span.file.0 as usize)?.clone()?;
        Some(Location {
            uri,
            range: self.range(span, enc),
        })
    }

    pub(super) fn offset(&self, file: FileId, pos: lsp_types::Position, enc: Encoding) -> usize {
        match self.lines.get(file.0 as usize) {
            Some(lines) => lines.offset(self.text(file), pos, enc),
            None => 0,
        }
    }
}

impl Server {
    /// Checks the program `uri` belongs to and publishes its diagnostics.
    pub(super) fn recheck(&mut self, uri: &Url, out: &mut Vec<Message>) {
        self.recheck_with(uri, out, false);
    }

    /// [`Server::recheck`] after `uri`'s text changed (and nothing else):
    /// when the previous check of its program allows, only the edited
    /// declaration is re-bound (see `pcl_binder::recheck_edit`); else the
    /// program is checked in full.
    pub(super) fn recheck_edited(&mut self, uri: &Url, out: &mut Vec<Message>) {
        self.recheck_with(uri, out, true);
    }

    fn recheck_with(&mut self, uri: &Url, out: &mut Vec<Message>, edited: bool) {
        let key = self.key_of(uri);
        let dirty = std::mem::take(&mut self.dirty);
        self.dirty = dirty
            .into_iter()
            .filter(|u| self.key_of(u) != key)
            .collect();
        let started = std::time::Instant::now();
        let mut existing = self.analyses.remove(&key);
        let (profile, config_error) = self.profiles.of(match &key {
            ProgramKey::Dir(dir) => Some(dir.as_path()),
            ProgramKey::Alone(_) => None,
        });
        if let Some(message) = config_error {
            out.push(show_message(&message));
        }
        if let (true, Some(old)) = (edited, existing.take()) {
            let (mut analysis, rebound) = self.incremental(&key, uri, old, &profile);
            if !rebound {
                existing = Some(analysis);
            } else {
                self.last_check = started.elapsed();
                self.stats.checks += 1;
                self.stats.incremental += 1;
                let previous = std::mem::take(&mut analysis.published);
                self.publish_analysis(key, analysis, previous, false, out);
                return;
            }
        }
        let (previous, replaced_here) = match existing {
            Some(mut old) => {
                let published = std::mem::take(&mut old.published);
                // Retiring an older one first.
                self.retire();
                self.replaced = Some(old);
                (published, true)
            }
            None => (HashSet::new(), false),
        };
        let analysed = self.analyse(&key, uri, profile);
        self.last_check = started.elapsed();
        self.stats.checks += 1;
        let Some(analysis) = analysed else {
            let replaced = self
                .replaced
                .as_ref()
                .filter(|_| replaced_here)
                .map(|a| &a.checked);
            self.last_good.detach(&key, replaced);
            for gone in previous {
                out.push(publish(gone, Vec::new()));
            }
            return;
        };
        self.publish_analysis(key, analysis, previous, replaced_here, out);
    }

    /// Publishes the diagnostics of every file of `analysis` (and clears
    /// those of `previous` files it no longer has), then keeps it.
    fn publish_analysis(
        &mut self,
        key: ProgramKey,
        mut analysis: Analysis,
        previous: HashSet<Url>,
        replaced_here: bool,
        out: &mut Vec<Message>,
    ) {
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

    /// The analysis of `old`'s program after `uri`'s text changed, with
    /// only the edited declaration re-bound, and `true`; `old` back, and
    /// `false`, when the program must be checked in full: other settings, a document of the program
    /// opened or changed besides `uri`, or an edit `recheck_edit` does
    /// not take. Nothing is read from disk: the other files are as the
    /// last check read them (a change on disk comes as
    /// `didChangeWatchedFiles` or `didSave`, which check in full).
    fn incremental(
        &self,
        key: &ProgramKey,
        uri: &Url,
        old: Analysis,
        profile: &Arc<Profile>,
    ) -> (Analysis, bool) {
        if !Arc::ptr_eq(&old.profile, profile) {
            return (old, false);
        }
        let (Some(file), Some(text)) = (old.file_of(uri), self.open.get(uri)) else {
            return (old, false);
        };
        let others_unchanged = self
            .located
            .iter()
            .filter(|(u, l)| l.key == *key && *u != uri)
            .all(|(u, _)| match (old.file_of(u), self.open.get(u)) {
                (Some(f), Some(t)) => old.text(f) == t,
                _ => false,
            });
        if !others_unchanged {
            return (old, false);
        }
        let Analysis {
            checked,
            urls,
            mut lines,
            published,
            profile,
            diagnostics,
            problems,
        } = old;
        let (checked, diagnostics, rebound) = match pcl_binder::recheck_edit(
            checked,
            file,
            text,
            &profile.schemas,
            &profile.policy,
        ) {
            Recheck::Rebound(checked) => {
                if let Some(slot) = lines.get_mut(file.0 as usize) {
                    *slot = Lines::new(text);
                }
                let diagnostics = with_problems(&checked, &problems, &profile);
                (checked, diagnostics, true)
            }
            Recheck::Full(checked, _) => (checked, diagnostics, false),
        };
        let analysis = Analysis {
            checked,
            urls,
            lines,
            published,
            profile,
            diagnostics,
            problems,
        };
        (analysis, rebound)
    }

    fn analyse(&mut self, key: &ProgramKey, uri: &Url, profile: Arc<Profile>) -> Option<Analysis> {
        // The open documents by real path.
        let open: HashMap<PathBuf, &str> = self
            .located
            .iter()
            .filter_map(|(url, l)| Some((l.real.clone()?, self.open.get(url)?.as_str())))
            .collect();
        let (checked, problems, dir_reads) = match key {
            ProgramKey::Dir(dir) => match Overlay::new(dir, &open) {
                Some(files) => {
                    let listing = files.list_dir(&files.program_dir()).ok()?;
                    if listing.files.is_empty() {
                        return None;
                    }
                    let checked = check_program_for_edits(
                        &listing.files,
                        &profile.schemas,
                        &profile.policy,
                        &files,
                    );
                    (checked, listing.problems, files.dir_reads.get())
                }
                // A directory that cannot be read: its open documents
                // alone, without components.
                None => {
                    let mut sources: Vec<(String, String)> = open
                        .iter()
                        .filter(|(p, _)| p.parent() == Some(dir.as_path()))
                        .filter_map(|(p, text)| {
                            Some((p.file_name()?.to_str()?.to_string(), (*text).to_string()))
                        })
                        .collect();
                    if sources.is_empty() {
                        return None;
                    }
                    sources.sort();
                    let files = pcl_binder::NoFiles;
                    let checked = check_program_for_edits(
                        &sources,
                        &profile.schemas,
                        &profile.policy,
                        &files,
                    );
                    (checked, Vec::new(), 0)
                }
            },
            ProgramKey::Alone(url) => {
                let text = self.open.get(url)?.clone();
                let name = url
                    .path_segments()
                    .and_then(|mut s| s.next_back())
                    .filter(|s| !s.is_empty())
                    .unwrap_or("untitled.pp")
                    .to_string();
                let files = pcl_binder::NoFiles;
                let checked = check_program_for_edits(
                    &[(name, text)],
                    &profile.schemas,
                    &profile.policy,
                    &files,
                );
                (checked, Vec::new(), 0)
            }
        };
        drop(open);
        self.stats.dir_reads += dir_reads;
        let diagnostics = with_problems(&checked, &problems, &profile);
        // Files of the program's own directory are named as the editor
        // spells that directory; component files by their real path
        // (unless open).
        let spelled = uri
            .to_file_path()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let mut urls = Vec::new();
        let mut lines = Vec::new();
        for (_, file) in checked.sources().iter() {
            let url = match key {
                ProgramKey::Alone(url) => Some(url.clone()),
                ProgramKey::Dir(dir) => {
                    let name = file.name();
                    let real = normalize(&dir.join(name));
                    match self.by_real.get(&real) {
                        Some(open) => Some(open.clone()),
                        None => {
                            let path = match &spelled {
                                Some(base) if !name.contains('/') => base.join(name),
                                _ => real,
                            };
                            Url::from_file_path(path).ok()
                        }
                    }
                }
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
            problems,
        })
    }

    /// The program of a document: remembered for an open one.
    pub(super) fn key_of(&self, uri: &Url) -> ProgramKey {
        match self.located.get(uri) {
            Some(l) => l.key.clone(),
            None => program_key(uri),
        }
    }

    /// Forgets the program `key` (its last open document closed): its
    /// analysis, its names, and the diagnostics published for its files
    /// (cleared).
    pub(super) fn forget(&mut self, key: &ProgramKey, out: &mut Vec<Message>) {
        let dirty = std::mem::take(&mut self.dirty);
        self.dirty = dirty
            .into_iter()
            .filter(|u| self.key_of(u) != *key)
            .collect();
        if let Some(analysis) = self.analyses.remove(key) {
            for gone in &analysis.published {
                out.push(publish(gone.clone(), Vec::new()));
            }
        }
        self.last_good.forget(key);
    }

    /// The analysis of the program holding `uri` and the file's id in it.
    pub(super) fn find(&self, uri: &Url) -> Option<(&Analysis, FileId)> {
        let analysis = self.analyses.get(&self.key_of(uri))?;
        Some((analysis, analysis.file_of(uri)?))
    }

    pub(super) fn diagnostic(
        &self,
        a: &Analysis,
        d: &pcl_diagnostics::Diagnostic,
    ) -> lsp_types::Diagnostic {
        let severity = match d.severity {
            Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
            Severity::Note => lsp_types::DiagnosticSeverity::INFORMATION,
        };
        let mut message = d.summary.clone();
        if let Some(detail) = d.detail() {
            message.push('\n');
            message.push_str(detail);
        }
        for help in d.help() {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        let related: Vec<lsp_types::DiagnosticRelatedInformation> = d
            .related()
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
            // No link: the project has no public address yet; hover on
            // the diagnostic shows the code's explanation instead.
            code_description: None,
            source: Some("pcl".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            tags: None,
            data: None,
        }
    }
}

/// The diagnostics of `checked`, with `problems` (the `.pp` entries of
/// the program's directory that were not read, or not valid UTF-8, as
/// `pcl check` reports them) and the code levels of `profile` applied.
fn with_problems(
    checked: &Checked<Program>,
    problems: &[pcl_binder::files::FileProblem],
    profile: &Profile,
) -> Vec<pcl_diagnostics::Diagnostic> {
    let mut diagnostics = checked.diagnostics().to_vec();
    if !problems.is_empty() {
        let ids: HashMap<&str, FileId> = checked
            .sources()
            .iter()
            .map(|(id, f)| (f.name(), id))
            .collect();
        for problem in problems {
            if let Some(id) = ids.get(problem.name.as_str()) {
                diagnostics.push(problem.diagnostic(*id));
            }
        }
        pcl_diagnostics::sort_and_dedup(&mut diagnostics);
    }
    profile.levels.apply(&mut diagnostics);
    diagnostics
}

/// `path` with `.` and `..` segments folded (the path of a file of a
/// canonical directory, named relative to it).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The program of a document: the real path of its directory (the
/// directory as written when it has none), or the document alone.
pub(super) fn program_key(uri: &Url) -> ProgramKey {
    match uri.to_file_path() {
        Ok(path) => match path.parent() {
            Some(dir) => {
                ProgramKey::Dir(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()))
            }
            None => ProgramKey::Alone(uri.clone()),
        },
        Err(()) => ProgramKey::Alone(uri.clone()),
    }
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
