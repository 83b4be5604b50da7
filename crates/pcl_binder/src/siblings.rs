//! Checking one file of a multi-file program (issue 13 §2): the names the
//! other `.pp` files of its directory declare ([`Siblings`], read from
//! their top-level items only), so that a use of one of them is not an
//! `undefined-variable` error with a wrong did-you-mean but, once per
//! declaring file, a `declared-in-sibling` note at the first use: "`siteName`
//! is declared in `config.pp`; check the directory to check the whole
//! program". Such a name is `dynamic` in the checked file, and the file's
//! verdict does not depend on it (a pre-commit hook that checks the changed
//! files one by one passes a correct multi-file program).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, FileId, Severity, Span};
use pcl_syntax::tree::{Item, ItemRef};

use crate::codes;

/// How many names one note lists before it counts the rest.
const NAMES_SHOWN: usize = 3;

/// The top-level names the `.pp` files of one directory declare, each with
/// the (display) names of the first two files declaring it: built once per
/// directory and shared by every file of it checked alone ([`Siblings`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeclaredNames {
    declared: HashMap<String, (String, Option<String>)>,
    /// The same for the names declared by anything but an `output` block:
    /// in the directory such a name shadows an output of the same name
    /// (a reference looks at definitions before outputs).
    defined: HashMap<String, (String, Option<String>)>,
}

/// Records that `file` declares `name` in `map` (the first two files).
fn note_declaration(map: &mut HashMap<String, (String, Option<String>)>, name: &str, file: &str) {
    match map.get_mut(name) {
        None => {
            map.insert(name.to_string(), (file.to_string(), None));
        }
        Some((first, second @ None)) if first != file => *second = Some(file.to_string()),
        Some(_) => {}
    }
}

/// The first file of `found` other than `checked`.
fn other_file<'a>(found: Option<&'a (String, Option<String>)>, checked: &str) -> Option<&'a str> {
    let (first, second) = found?;
    if first != checked {
        Some(first)
    } else {
        second.as_deref()
    }
}

impl DeclaredNames {
    /// The names declared by `files` (`(display name, text)`): locals,
    /// and the names of `resource`, `read`, `config`, `output`, `component`
    /// and `hook` blocks. Files are parsed, nothing is bound.
    pub fn from_files(files: &[(String, String)]) -> DeclaredNames {
        let mut sorted: Vec<&(String, String)> = files.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let mut names = DeclaredNames::default();
        for (file, text) in sorted {
            let parse = pcl_syntax::parse(FileId(0), text);
            for item in parse.body().items() {
                let Some(name) = declared_name(item) else {
                    continue;
                };
                note_declaration(&mut names.declared, name, file);
                let is_output = item.as_block().is_some_and(|b| b.type_name() == "output");
                if !is_output {
                    note_declaration(&mut names.defined, name, file);
                }
            }
            // After a block whose `}` is missing, the parser reads the
            // blocks that follow as nested in it; the binder declares their
            // names (`declare_swallowed`), so they are a sibling's too.
            if parse
                .diagnostics()
                .iter()
                .any(|d| d.severity == Severity::Error)
            {
                let mut stack: Vec<_> = parse
                    .body()
                    .blocks()
                    .flat_map(|b| b.body().blocks())
                    .collect();
                while let Some(b) = stack.pop() {
                    stack.extend(b.body().blocks());
                    if !matches!(
                        b.type_name(),
                        "resource" | "read" | "config" | "output" | "component"
                    ) {
                        continue;
                    }
                    if let Some(label) = b.labels().first() {
                        note_declaration(&mut names.declared, label.value(), file);
                        if b.type_name() != "output" {
                            note_declaration(&mut names.defined, label.value(), file);
                        }
                    }
                }
            }
        }
        names
    }

    pub fn is_empty(&self) -> bool {
        self.declared.is_empty()
    }
}

/// What the other files of a file's directory declare, for checking that
/// file alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Siblings {
    names: Arc<DeclaredNames>,
    checked: String,
}

impl Siblings {
    /// The names of `names` declared by files other than `checked` (the
    /// display name of the file checked alone).
    pub fn new(names: Arc<DeclaredNames>, checked: impl Into<String>) -> Siblings {
        Siblings {
            names,
            checked: checked.into(),
        }
    }

    /// The first file other than the checked one declaring `name`.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        other_file(self.names.declared.get(name), &self.checked)
    }

    /// Whether a file other than the checked one declares `name` by
    /// anything but an `output` block (so that, in the directory, `name`
    /// refers to that declaration and not to an output of the checked
    /// file).
    pub fn defines(&self, name: &str) -> bool {
        other_file(self.names.defined.get(name), &self.checked).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The name a top-level item declares, as the binder declares it.
fn declared_name(item: ItemRef<'_>) -> Option<&str> {
    match item.kind() {
        Item::Attribute(attr) => Some(attr.name()),
        Item::Block(block) => {
            let label = match block.type_name() {
                "resource" | "read" | "config" | "output" | "component" => block.labels().first(),
                "hook" => block.labels().get(1),
                _ => None,
            };
            label.map(|l| l.value())
        }
    }
}

/// The uses of sibling names in one check: per declaring file, the first
/// use and the distinct names used.
#[derive(Default)]
pub(crate) struct SiblingUses {
    by_file: RefCell<BTreeMap<String, Uses>>,
}

struct Uses {
    first: Span,
    names: Vec<String>,
    seen: HashSet<String>,
}

impl SiblingUses {
    /// Records a use of `name` at `span` when a sibling declares it.
    pub(crate) fn record(&self, siblings: &Siblings, name: &str, span: Span) -> bool {
        let Some(file) = siblings.file_of(name) else {
            return false;
        };
        let mut by_file = self.by_file.borrow_mut();
        let uses = by_file.entry(file.to_string()).or_insert_with(|| Uses {
            first: span,
            names: Vec::new(),
            seen: HashSet::new(),
        });
        let key = (span.file, span.range.start);
        if key < (uses.first.file, uses.first.range.start) {
            uses.first = span;
        }
        if uses.seen.insert(name.to_string()) {
            uses.names.push(name.to_string());
        }
        true
    }

    /// One `declared-in-sibling` note per declaring file, at the first use.
    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (file, uses) in self.by_file.into_inner() {
            let mut names: Vec<String> = uses.names;
            names.sort();
            let shown: Vec<String> = names
                .iter()
                .take(NAMES_SHOWN)
                .map(|n| format!("`{}`", pcl_diagnostics::elide_quoted(n)))
                .collect();
            let rest = names.len().saturating_sub(NAMES_SHOWN);
            let (list, verb) = match (shown.as_slice(), rest) {
                ([one], 0) => (one.clone(), "is"),
                (_, 0) => {
                    let (last, init) = shown
                        .split_last()
                        .map_or(("", &[][..]), |(l, i)| (l.as_str(), i));
                    (format!("{} and {last}", init.join(", ")), "are")
                }
                (_, n) => (
                    format!(
                        "{} and {n} more name{}",
                        shown.join(", "),
                        if n == 1 { "" } else { "s" }
                    ),
                    "are",
                ),
            };
            out.push(
                Diagnostic::new(
                    Severity::Note,
                    codes::DECLARED_IN_SIBLING,
                    uses.first,
                    format!(
                        "{list} {verb} declared in `{}`; check the directory to check the whole program",
                        pcl_diagnostics::elide_quoted(&file)
                    ),
                )
                .with_detail(
                    "This file was checked alone: names other files of its directory declare are not checked here.",
                ),
            );
        }
        out
    }
}
