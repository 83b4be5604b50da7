//! Programs and their analyses: which program a document belongs to (the
//! directory of its file, open buffers overriding the disk), checking it,
//! the [`Analysis`] kept of each check (the bound program, each file's URL
//! and line table), and publishing its diagnostics in their LSP form.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Message, Notification};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::{Location, PublishDiagnosticsParams, Url};
use pcl_binder::{check_program_cached, Checked, FileProvider, Program};
use pcl_diagnostics::{FileId, Severity, Span};

use super::{show_message, Server};
use crate::position::{Encoding, Lines};
use crate::settings::Profile;

/// Where the documentation of a diagnostic code lives (a placeholder until
/// the code catalogue is published).
pub const CODE_DOCS: &str = "https://github.com/pulumi/pcl/blob/main/docs/codes.md";

/// Which program a document belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ProgramKey {
    /// The directory of a `file:` document.
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
    pub(super) fn find(&self, uri: &Url) -> Option<(&Analysis, FileId)> {
        let analysis = self.analyses.get(&program_key(uri))?;
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

pub(super) fn program_key(uri: &Url) -> ProgramKey {
    match uri.to_file_path() {
        Ok(path) => match path.parent() {
            Some(dir) => ProgramKey::Dir(dir.to_path_buf()),
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
