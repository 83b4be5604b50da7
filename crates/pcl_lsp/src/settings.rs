//! Settings: the editor's (`initializationOptions`, then each
//! `workspace/didChangeConfiguration`) on top of each program's `pcl.toml`,
//! read by `pcl_config` exactly as `pcl check` reads it.
//!
//! The editor's settings use the keys of `pcl.toml`:
//!
//! ```json
//! { "schema-dirs": ["schemas"], "schema-cache": true,
//!   "check": { "lenient": false, "skip-range-typecheck": true },
//!   "codes": { "allow": ["unknown-block-type"], "deny": [] } }
//! ```
//!
//! (the `[check]` options are also accepted at the top level, as the first
//! version of the server read them). Relative `schema-dirs` are relative
//! to each program's project root: the directory of its `pcl.toml`, else
//! the root `pcl check` finds (`pcl_binder::files::find_root`: the nearest
//! `Pulumi.yaml` or `.git`), never to the file or the editor's working
//! directory; a document that is not a file uses the first workspace
//! folder. They combine with a `pcl.toml` as the
//! command line does: the file's schema directories come first, an option
//! set in either is set, and a code level from the editor overrides the
//! file's.
//!
//! Each distinct `pcl.toml` (and "none", per project root when the editor
//! names relative directories) is a [`Profile`]: a bind policy, code
//! levels and one schema cache shared by every program under that file. Profiles are built on first use and dropped together when the
//! settings, a `pcl.toml` or a schema file change.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pcl_binder::{BindPolicy, SchemaCache};
use pcl_config::{CodeLevels, Discovery, Level, PolicyFlags};
use pcl_diagnostics::Diagnostic;
use pcl_schema::{ChainLoader, DirLoader, SchemaLoader};
use serde_json::Value as Json;

/// The editor's settings, in `pcl.toml`'s keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `schema-dirs` as written; relative ones are joined to each
    /// program's project root when its profile is built.
    pub schema_dirs: Vec<PathBuf>,
    /// `schema-cache`; `None` when not set.
    pub schema_cache: Option<bool>,
    /// `check`'s options (or the same keys at the top level).
    pub policy: PolicyFlags,
    /// `codes` and `check.deny`.
    pub codes: CodeLevels,
    /// `debounce-ms` (initialization only): how long a change waits for
    /// the next before its program is checked; `None` for the default
    /// (50 ms). At most ten minutes.
    pub debounce_ms: Option<u64>,
}

impl Settings {
    /// Reads `options` (unknown keys and values of the wrong type are
    /// ignored).
    pub fn from_json(options: Option<&Json>) -> Settings {
        let mut s = Settings::default();
        let Some(Json::Object(map)) = options else {
            return s;
        };
        s.schema_dirs = strings(map.get("schema-dirs")).map(PathBuf::from).collect();
        s.schema_cache = map.get("schema-cache").and_then(Json::as_bool);
        s.debounce_ms = map
            .get("debounce-ms")
            .and_then(Json::as_u64)
            .map(|ms| ms.min(600_000));
        let check = map.get("check").and_then(Json::as_object);
        let flag = |name: &str| {
            let at = |m: Option<&serde_json::Map<String, Json>>| {
                m.and_then(|m| m.get(name)).and_then(Json::as_bool)
            };
            at(check).or(at(Some(map))).unwrap_or(false)
        };
        s.policy = PolicyFlags {
            lenient: flag("lenient"),
            allow_missing_variables: flag("allow-missing-variables"),
            allow_missing_properties: flag("allow-missing-properties"),
            skip_resource_typecheck: flag("skip-resource-typecheck"),
            skip_invoke_typecheck: flag("skip-invoke-typecheck"),
            skip_range_typecheck: flag("skip-range-typecheck"),
            prefer_output_versioned_invokes: flag("prefer-output-versioned-invokes"),
        };
        let codes = map.get("codes");
        let list = |key: &str| -> Vec<String> {
            strings(codes.and_then(|c| c.get(key)))
                .map(str::to_string)
                .collect()
        };
        s.codes.allow = list("allow");
        s.codes.warn = list("warn");
        s.codes.deny = list("deny");
        // `check.deny` names codes too ("warnings" only changes an exit
        // status, which an editor does not have).
        s.codes.deny.extend(
            strings(check.and_then(|c| c.get("deny")))
                .filter(|c| *c != "warnings")
                .map(str::to_string),
        );
        s
    }
}

/// The strings of a JSON array (nothing for anything else).
fn strings(value: Option<&Json>) -> impl Iterator<Item = &str> {
    value
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
}

/// What the programs under one `pcl.toml` (or under none) are checked
/// with.
pub(crate) struct Profile {
    pub(crate) policy: BindPolicy,
    pub(crate) levels: CodeMap,
    pub(crate) schemas: SchemaCache<ChainLoader>,
}

/// The editor's settings and the profile of each `pcl.toml` met so far.
pub(crate) struct Profiles {
    editor: Settings,
    /// The first workspace folder: what relative editor paths are joined to
    /// for a document that is not a file.
    base: Option<PathBuf>,
    discovery: Discovery,
    /// The project root of each program directory without a `pcl.toml`.
    roots: HashMap<PathBuf, PathBuf>,
    /// By `pcl.toml` and the project root relative editor paths are
    /// joined to (`None` when the editor names none).
    by_file: HashMap<(Option<PathBuf>, Option<PathBuf>), Arc<Profile>>,
    /// Code names compared by every profile's [`CodeMap`].
    comparisons: Arc<AtomicU64>,
}

impl Profiles {
    pub(crate) fn new(editor: Settings, base: Option<PathBuf>) -> Profiles {
        Profiles {
            editor,
            base,
            discovery: Discovery::default(),
            roots: HashMap::new(),
            by_file: HashMap::new(),
            comparisons: Arc::default(),
        }
    }

    /// Code names compared so far while applying code levels.
    pub(crate) fn level_comparisons(&self) -> u64 {
        self.comparisons.load(Ordering::Relaxed)
    }

    /// New editor settings from `workspace/didChangeConfiguration`: the
    /// `pcl` section when there is one, else the whole object; `null`
    /// keeps the current settings. Every profile is rebuilt.
    pub(crate) fn configure(&mut self, settings: &Json) {
        let section = settings.get("pcl").unwrap_or(settings);
        if section.is_object() {
            self.editor = Settings::from_json(Some(section));
        }
        self.reload();
    }

    /// Forgets every `pcl.toml` found and every schema loaded (a settings
    /// file or a schema changed).
    pub(crate) fn reload(&mut self) {
        self.discovery = Discovery::default();
        self.roots.clear();
        self.by_file.clear();
    }

    /// The profile of a program in `dir` (`None`: not a file on disk),
    /// and the error of its `pcl.toml` when it could not be read the
    /// first time it was (the profile then has the editor's settings
    /// alone).
    pub(crate) fn of(&mut self, dir: Option<&Path>) -> (Arc<Profile>, Option<String>) {
        let file = dir.and_then(|d| self.discovery.find(d));
        let root = self.root(dir, file.as_deref());
        let key = (file, root);
        if let Some(profile) = self.by_file.get(&key) {
            return (profile.clone(), None);
        }
        let (file, root) = &key;
        // Code names are not checked here: the server never reports the
        // command line's own codes, and `pcl check` reports a misspelt one.
        let (config, error) = match &file {
            Some(path) => match pcl_config::load(path, None) {
                Ok(config) => (Some(config), None),
                Err(e) => (None, Some(e)),
            },
            None => (None, None),
        };
        let profile = Arc::new(self.build(config.as_ref(), root.as_deref()));
        self.by_file.insert(key, profile.clone());
        (profile, error)
    }

    /// The project root the editor's relative paths are joined to for a
    /// program in `dir` whose `pcl.toml` is `file`: the file's directory,
    /// else the root `pcl check` finds, else (not a file) the first
    /// workspace folder. `None` when the editor names no relative path,
    /// so that such programs share one profile.
    fn root(&mut self, dir: Option<&Path>, file: Option<&Path>) -> Option<PathBuf> {
        if !self.editor.schema_dirs.iter().any(|d| d.is_relative()) {
            return None;
        }
        if let Some(file) = file {
            return file.parent().map(Path::to_path_buf);
        }
        let Some(dir) = dir else {
            return self.base.clone();
        };
        let root = self
            .roots
            .entry(dir.to_path_buf())
            .or_insert_with(|| pcl_binder::files::find_root(dir));
        Some(root.clone())
    }

    /// The editor's settings on top of `config`, the editor's relative
    /// paths joined to `root`.
    fn build(&self, config: Option<&pcl_config::Config>, root: Option<&Path>) -> Profile {
        let empty = pcl_config::Config::default();
        let config = config.unwrap_or(&empty);
        let editor = &self.editor;
        let policy = config.policy.or(&editor.policy).bind_policy();
        let mut dirs = config.schema_dirs.clone();
        dirs.extend(editor.schema_dirs.iter().map(|d| match root {
            Some(root) if d.is_relative() => root.join(d),
            _ => d.clone(),
        }));
        let cache = editor.schema_cache != Some(false) && config.schema_cache != Some(false);
        let mut loaders: Vec<Box<dyn SchemaLoader>> = vec![Box::new(DirLoader::new(dirs))];
        if cache {
            if let Some(dir) = pcl_schema::pulumi_schema_cache_dir().filter(|d| d.is_dir()) {
                loaders.push(Box::new(DirLoader::new([dir])));
            }
        }
        Profile {
            policy,
            levels: CodeMap::new(
                &[&config.codes, &editor.codes],
                Arc::clone(&self.comparisons),
            ),
            schemas: SchemaCache::new(ChainLoader::new(loaders)),
        }
    }
}

/// The level of each code named by the settings, built once per profile
/// (per settings change) and looked up by hash for each diagnostic: the
/// cost of applying it follows the number of diagnostics, not the number
/// of codes named. (`pcl_config::Levels` searches its list, which is
/// fine for a command line's handful of codes.)
pub(crate) struct CodeMap {
    /// Entries by the hash of their code (a collision shares a bucket).
    buckets: HashMap<u64, Vec<(Box<str>, Level)>>,
    hasher: foldhash::fast::FixedState,
    /// Code names compared (shared by the profiles of one server).
    comparisons: Arc<AtomicU64>,
}

impl CodeMap {
    /// `sources` merged, later ones winning (as `pcl_config::Levels::merge`:
    /// within one source, deny over warn over allow).
    pub(crate) fn new(sources: &[&CodeLevels], comparisons: Arc<AtomicU64>) -> CodeMap {
        let mut map = CodeMap {
            buckets: HashMap::new(),
            hasher: foldhash::fast::FixedState::default(),
            comparisons,
        };
        for source in sources {
            for (list, level) in [
                (&source.allow, Level::Allow),
                (&source.warn, Level::Warn),
                (&source.deny, Level::Deny),
            ] {
                for code in list {
                    let bucket = map
                        .buckets
                        .entry(map.hasher.hash_one(code.as_str()))
                        .or_default();
                    match bucket.iter_mut().find(|(c, _)| **c == **code) {
                        Some(entry) => entry.1 = level,
                        None => bucket.push((code.as_str().into(), level)),
                    }
                }
            }
        }
        map
    }

    /// The level `code` is reported at, when one was chosen.
    pub(crate) fn level(&self, code: &str) -> Option<Level> {
        let bucket = self.buckets.get(&self.hasher.hash_one(code))?;
        let mut compared = 0;
        let found = bucket.iter().find(|(c, _)| {
            compared += 1;
            **c == *code
        });
        self.comparisons.fetch_add(compared, Ordering::Relaxed);
        found.map(|(_, l)| *l)
    }

    /// Drops the allowed codes' diagnostics and sets the severity of the
    /// warned and denied ones.
    pub(crate) fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.buckets.is_empty() {
            return;
        }
        pcl_config::apply_levels(diagnostics, |code| self.level(code));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn editor_settings_use_pcl_toml_keys() {
        let options = json!({
            "schema-dirs": ["schemas", "/abs"],
            "schema-cache": false,
            "check": {"skip-range-typecheck": true, "deny": ["warnings", "unknown-property"]},
            "lenient": true,
            "codes": {"allow": ["undefined-variable"], "warn": 3}
        });
        let s = Settings::from_json(Some(&options));
        assert_eq!(
            s.schema_dirs,
            [PathBuf::from("schemas"), PathBuf::from("/abs")]
        );
        assert_eq!(s.schema_cache, Some(false));
        assert!(s.policy.skip_range_typecheck && s.policy.lenient);
        assert!(!s.policy.allow_missing_properties);
        assert_eq!(s.codes.allow, ["undefined-variable"]);
        assert!(s.codes.warn.is_empty());
        assert_eq!(s.codes.deny, ["unknown-property"]);
    }

    #[test]
    fn the_editor_overrides_a_files_code_levels() {
        let editor = Settings {
            codes: CodeLevels {
                deny: vec!["x".into()],
                ..CodeLevels::default()
            },
            ..Settings::default()
        };
        let profiles = Profiles::new(editor, None);
        let config = pcl_config::Config {
            codes: CodeLevels {
                allow: vec!["x".into(), "y".into()],
                ..CodeLevels::default()
            },
            ..pcl_config::Config::default()
        };
        let profile = profiles.build(Some(&config), None);
        assert_eq!(profile.levels.level("x"), Some(pcl_config::Level::Deny));
        assert_eq!(profile.levels.level("y"), Some(pcl_config::Level::Allow));
    }
}
