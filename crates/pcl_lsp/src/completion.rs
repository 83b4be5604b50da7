//! `textDocument/completion`: what may be written at the cursor.
//!
//! The place comes from the tokens around the cursor ([`crate::context`]),
//! so completion works while the file does not parse; what is offered
//! comes from the schemas (tokens, properties), the program's last good
//! analysis (names in scope), `pcl_expr`'s builtin table and the binder's
//! list of resource options. Candidates are ranked against the word typed
//! so far with [`crate::fuzzy`].

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::Arc;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, Documentation, MarkupContent,
    MarkupKind,
};
use pcl_binder::{Checked, NodeKind, Program};
use pcl_schema::{PackageDescriptor, Property, SchemaLoader, SchemaType, SchemaTypeKind};

use crate::context::{Cursor, Place};
use crate::fuzzy;

/// Block keywords offered at the start of a top-level item.
pub(crate) const KEYWORDS: &[&str] = &["resource", "read", "config", "output", "component", "hook"];

/// At most this many items are sent; beyond it the list is marked
/// incomplete, so the client asks again as the word grows.
pub(crate) const MAX_ITEMS: usize = 500;

/// The deepest schema type printed in full (deeper parts print as `…`).
const MAX_TYPE_DEPTH: usize = 8;

/// A declared name of a program, as completion offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Name {
    pub(crate) name: String,
    pub(crate) kind: CompletionItemKind,
    /// `local`, `config`, `resource`, …
    pub(crate) detail: &'static str,
}

/// The names of each program's last analysis without syntax errors, for
/// completion while the text does not parse (a parse error can drop the
/// declarations after it).
///
/// While a program's latest check is good, its names are not copied (a
/// 1 MB program has some 27,000; copying them on every edit cost about
/// 15 M instructions, 3 % of an edit): they are taken from that analysis
/// when the next check has syntax errors, before it is dropped.
#[derive(Debug)]
pub(crate) struct LastGood<K> {
    entries: HashMap<K, Entry>,
}

#[derive(Debug)]
enum Entry {
    /// The program's current analysis is good: the names are its own.
    Current,
    /// The names of the last good analysis, and whether the latest check
    /// had syntax errors (only then do they add to the current analysis).
    Names(Arc<Vec<Name>>, bool),
}

impl<K: Hash + Eq> Default for LastGood<K> {
    fn default() -> LastGood<K> {
        LastGood {
            entries: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq> LastGood<K> {
    /// Remembers whether `checked`, the program's new analysis, has syntax
    /// errors; `previous` is the analysis it replaces (whose names are
    /// copied now when it was the last good one).
    pub(crate) fn remember(
        &mut self,
        key: K,
        checked: &Checked<Program>,
        previous: Option<&Checked<Program>>,
    ) {
        let syntax_error = checked
            .diagnostics()
            .iter()
            .any(|d| pcl_syntax::codes::ALL.contains(&d.code));
        if !syntax_error {
            self.entries.insert(key, Entry::Current);
            return;
        }
        match self.entries.get_mut(&key) {
            Some(Entry::Names(_, stale)) => *stale = true,
            Some(entry @ Entry::Current) => match previous {
                Some(good) => *entry = Entry::Names(Arc::new(names(good.value())), true),
                None => {
                    self.entries.remove(&key);
                }
            },
            None => {}
        }
    }

    /// The program's analysis `previous` is dropped without a new one:
    /// its names are kept when it was the last good one.
    pub(crate) fn detach(&mut self, key: &K, previous: Option<&Checked<Program>>) {
        if let Some(entry @ Entry::Current) = self.entries.get_mut(key) {
            match previous {
                Some(good) => *entry = Entry::Names(Arc::new(names(good.value())), false),
                None => {
                    self.entries.remove(key);
                }
            }
        }
    }

    /// Forgets the program `key` (closed).
    pub(crate) fn forget(&mut self, key: &K) {
        self.entries.remove(key);
    }

    /// How many programs have an entry.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The names of the last good check, when the latest check of the
    /// program had syntax errors.
    pub(crate) fn get(&self, key: &K) -> Option<Arc<Vec<Name>>> {
        match self.entries.get(key)? {
            Entry::Names(names, true) => Some(Arc::clone(names)),
            _ => None,
        }
    }
}

/// The declared names of a program (locals, config, resources, outputs,
/// components), in declaration order.
pub(crate) fn names(program: &Program) -> Vec<Name> {
    program
        .nodes()
        .iter()
        .filter_map(|n| {
            Some(Name {
                name: n.name.to_string(),
                kind: name_kind(&n.kind)?,
                detail: n.kind_name(),
            })
        })
        .collect()
}

/// How a declaration shows in completion; `None` for those that are not
/// names (hooks, `pulumi` blocks).
fn name_kind(kind: &NodeKind) -> Option<CompletionItemKind> {
    Some(match kind {
        NodeKind::Pulumi(_) | NodeKind::Hook(_) => return None,
        NodeKind::Resource(_) | NodeKind::Component(_) => CompletionItemKind::MODULE,
        NodeKind::Config(_) => CompletionItemKind::CONSTANT,
        NodeKind::Local(_) | NodeKind::Output(_) => CompletionItemKind::VARIABLE,
    })
}

/// What completion reads besides the cursor.
pub(crate) struct Inputs<'a> {
    pub(crate) schemas: &'a dyn SchemaLoader,
    /// The program's current analysis and the node around the cursor in
    /// it, when there is one.
    pub(crate) program: Option<&'a Program>,
    pub(crate) node: Option<&'a pcl_binder::Node>,
    /// The names of the last analysis without syntax errors.
    pub(crate) last_good: Option<Arc<Vec<Name>>>,
    /// The LSP range of the bytes `start..end` of the file.
    pub(crate) range: &'a dyn Fn(usize, usize) -> lsp_types::Range,
}

/// One thing completion may offer: built in full, or (for the many
/// names of a large program) borrowed, and built only when it is among
/// the items sent.
enum Candidate<'a> {
    Item(Box<CompletionItem>),
    Name {
        label: &'a str,
        kind: CompletionItemKind,
        detail: &'static str,
    },
}

impl Candidate<'_> {
    fn item(item: CompletionItem) -> Self {
        Candidate::Item(Box::new(item))
    }

    fn label(&self) -> &str {
        match self {
            Candidate::Item(item) => item.filter_text.as_deref().unwrap_or(&item.label),
            Candidate::Name { label, .. } => label,
        }
    }

    fn into_item(self) -> CompletionItem {
        match self {
            Candidate::Item(item) => *item,
            Candidate::Name {
                label,
                kind,
                detail,
            } => CompletionItem {
                label: label.to_string(),
                kind: Some(kind),
                detail: Some(detail.to_string()),
                ..CompletionItem::default()
            },
        }
    }
}

/// The part of a file worth lexing for a cursor at `offset`: from the
/// start of the last top-level item of the analysis starting at or before
/// it (the analysis is of the current text) to the start of the next
/// one, so that the cost follows the item's size, not the file's.
pub(crate) fn window(
    program: Option<(&Program, pcl_diagnostics::FileId)>,
    offset: usize,
    len: usize,
) -> (usize, usize) {
    let Some((program, file)) = program else {
        return (0, len);
    };
    let (mut start, mut end) = (0, len);
    for n in program.nodes().iter().filter(|n| n.file() == file) {
        let at = n.span.range.start as usize;
        if at <= offset {
            start = start.max(at);
        } else {
            end = end.min(at);
        }
    }
    (start, end)
}

/// The completion answer at `cursor`, at byte `offset`.
pub(crate) fn complete(cursor: &Cursor, offset: usize, inputs: &Inputs<'_>) -> CompletionResponse {
    let items = |v: Vec<CompletionItem>| v.into_iter().map(Candidate::item).collect();
    let candidates: Vec<Candidate<'_>> = match &cursor.place {
        Place::TopLevel => {
            let mut c: Vec<Candidate<'_>> = KEYWORDS
                .iter()
                .map(|k| Candidate::item(keyword(k)))
                .collect();
            c.extend(scope_candidates(cursor, inputs));
            c
        }
        Place::ResourceToken => items(token_items(cursor, offset, inputs, Section::Resources)),
        Place::FunctionToken => items(token_items(cursor, offset, inputs, Section::Functions)),
        Place::ResourceKey { token, path, set } if path.is_empty() => {
            let resource = lookup(inputs.schemas, token, Section::Resources);
            let mut c = match &resource {
                Some(Found::Resource(r)) => property_items(r.input_properties.values(), set),
                _ => Vec::new(),
            };
            if !set.iter().any(|s| s == "options") {
                c.push(keyword("options"));
            }
            items(c)
        }
        Place::ResourceKey { token, path, set } => {
            items(nested_items(inputs, token, Section::Resources, path, set))
        }
        Place::InvokeKey { token, path, set } if !path.is_empty() => {
            items(nested_items(inputs, token, Section::Functions, path, set))
        }
        Place::ComponentKey { path, set } => items(component_keys(inputs, path, set)),
        Place::Member { root, steps } => {
            items(crate::members::complete(cursor, inputs, root, steps))
        }
        Place::ResourceName => resource_names(inputs),
        Place::StringValue => items(string_enum_items(cursor, offset, inputs)),
        Place::OptionKey { set } => items(
            pcl_binder::OPTION_NAMES
                .iter()
                .filter(|o| !set.iter().any(|s| s == *o))
                .map(|o| CompletionItem {
                    label: (*o).to_string(),
                    kind: Some(CompletionItemKind::PROPERTY),
                    detail: Some("resource option".to_string()),
                    ..CompletionItem::default()
                })
                .collect(),
        ),
        Place::InvokeKey { token, set, .. } => {
            match lookup(inputs.schemas, token, Section::Functions) {
                Some(Found::Function(f)) => match &f.inputs {
                    Some(object) => items(property_items(object.properties.values(), set)),
                    None => Vec::new(),
                },
                _ => Vec::new(),
            }
        }
        Place::Expression => {
            let mut c: Vec<Candidate<'_>> = enum_items(cursor, inputs)
                .into_iter()
                .map(Candidate::item)
                .collect();
            c.extend(scope_candidates(cursor, inputs));
            // A name in scope shadows the builtin of that name (a sorted
            // list and binary search: hashing every name of a large
            // program costs more).
            let mut builtins = builtin_items();
            builtins.sort_by(|a, b| a.label.cmp(&b.label));
            let mut shadowed = vec![false; builtins.len()];
            for label in c.iter().map(Candidate::label) {
                if let Ok(i) = builtins.binary_search_by(|b| b.label.as_str().cmp(label)) {
                    if let Some(s) = shadowed.get_mut(i) {
                        *s = true;
                    }
                }
            }
            let mut kept: Vec<(usize, CompletionItem)> = builtins
                .into_iter()
                .zip(shadowed)
                .filter(|(_, s)| !s)
                .map(|(b, _)| (builtin_order(&b.label), b))
                .collect();
            kept.sort_by_key(|(order, _)| *order);
            c.extend(kept.into_iter().map(|(_, b)| Candidate::item(b)));
            c
        }
        Place::Nothing => Vec::new(),
    };
    ranked(&cursor.word, candidates)
}

/// The property `path` names below the inputs of the resource or function
/// `token`.
fn nested(
    schemas: &dyn SchemaLoader,
    token: &str,
    section: Section,
    path: &[String],
) -> Option<crate::schema_path::Found> {
    let (package, _) = token.split_once(':')?;
    let loaded = schemas.load(&PackageDescriptor::new(package)).ok()?;
    match section {
        Section::Resources => {
            let r = loaded.lookup_resource(token).ok()??.item;
            crate::schema_path::property_at(&loaded, |k| r.input(k), path, schemas)
        }
        Section::Functions => {
            let f = loaded.lookup_function(token).ok()??.item;
            let inputs = f.inputs.as_ref()?;
            crate::schema_path::property_at(&loaded, |k| inputs.property(k), path, schemas)
        }
    }
}

/// The keys an object written at `path` below the inputs of `token` may
/// set, not yet `set`.
fn nested_items(
    inputs: &Inputs<'_>,
    token: &str,
    section: Section,
    path: &[String],
    set: &[String],
) -> Vec<CompletionItem> {
    let found = nested(inputs.schemas, token, section, path);
    let props = found.and_then(|f| crate::schema_path::object_properties(&f, inputs.schemas));
    property_items(props.iter().flatten(), set)
}

/// At the value of an enum-typed property: its values, as PCL literals,
/// with their names and descriptions.
fn enum_items(cursor: &Cursor, inputs: &Inputs<'_>) -> Vec<CompletionItem> {
    use crate::context::Root;
    let Some((root, path)) = &cursor.value_of else {
        return Vec::new();
    };
    let found = match root {
        Root::Resource(token) => nested(inputs.schemas, token, Section::Resources, path),
        Root::Invoke(token) => nested(inputs.schemas, token, Section::Functions, path),
        Root::Component => None,
    };
    let Some(found) = found else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in crate::schema_path::enums(&found, inputs.schemas) {
        let member = e.token.rsplit(':').next().unwrap_or(&e.token).to_string();
        for v in &e.values {
            let label = match &v.value {
                pcl_schema::Literal::String(text) => {
                    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
                }
                other => other.to_string(),
            };
            if out.iter().any(|i: &CompletionItem| i.label == label) {
                continue;
            }
            let detail = match &v.name {
                Some(name) => format!("{member}.{name}"),
                None => member.clone(),
            };
            out.push(CompletionItem {
                label,
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                detail: Some(detail),
                documentation: v.description.as_ref().map(|d| markdown(d)),
                deprecated: v.deprecation_message.as_ref().map(|_| true),
                ..CompletionItem::default()
            });
        }
    }
    out
}

/// Inside the string written at an enum-typed property: the enum's
/// string values, each replacing the text typed in the string.
fn string_enum_items(cursor: &Cursor, offset: usize, inputs: &Inputs<'_>) -> Vec<CompletionItem> {
    let range = (inputs.range)(cursor.word_start, offset);
    enum_items(cursor, inputs)
        .into_iter()
        .filter_map(|mut item| {
            let text: String = serde_json::from_str(&item.label).ok()?;
            item.text_edit = Some(lsp_types::CompletionTextEdit::Edit(lsp_types::TextEdit {
                range,
                new_text: text.clone(),
            }));
            item.filter_text = Some(text.clone());
            item.label = text;
            Some(item)
        })
        .collect()
}

fn markdown(text: &str) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value: text.to_string(),
    })
}

/// The resources (and components) of the program, for a resource
/// option that names one.
fn resource_names<'a>(inputs: &Inputs<'a>) -> Vec<Candidate<'a>> {
    let nodes = inputs.program.map(Program::nodes).unwrap_or(&[]);
    nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Resource(_) | NodeKind::Component(_)))
        .map(|n| Candidate::Name {
            label: &n.name,
            kind: CompletionItemKind::MODULE,
            detail: n.kind_name(),
        })
        .collect()
}

/// The inputs of the component around the cursor (its configs), or the
/// keys of an object written at `path` in one, not yet `set`.
fn component_keys(inputs: &Inputs<'_>, path: &[String], set: &[String]) -> Vec<CompletionItem> {
    let Some(NodeKind::Component(c)) = inputs.node.map(|n| &n.kind) else {
        return Vec::new();
    };
    let Some(program) = &c.program else {
        return Vec::new();
    };
    let configs = program.nodes().iter().filter_map(|n| match &n.kind {
        NodeKind::Config(config) => Some((n, config)),
        _ => None,
    });
    match path.split_first() {
        None => configs
            .filter(|(n, _)| !set.contains(&n.name.to_string()))
            .map(|(n, config)| CompletionItem {
                label: n.name.to_string(),
                kind: Some(CompletionItemKind::PROPERTY),
                // The type as the config declares it.
                detail: Some(
                    config
                        .type_label
                        .clone()
                        .unwrap_or_else(|| crate::members::plain_type(&n.ty)),
                ),
                documentation: config.description.as_deref().map(markdown),
                ..CompletionItem::default()
            })
            .collect(),
        Some((first, rest)) => {
            let Some((n, _)) = configs.into_iter().find(|(n, _)| n.name.as_str() == first) else {
                return Vec::new();
            };
            let steps: Vec<crate::context::Step> = rest
                .iter()
                .map(|k| crate::context::Step::Attr(k.clone()))
                .collect();
            let Some(ty) = crate::members::walk(&n.ty, &steps, true) else {
                return Vec::new();
            };
            crate::members::properties(&ty, inputs.schemas)
                .into_iter()
                .filter(|i| !set.contains(&i.label))
                .collect()
        }
    }
}

/// The candidates matching `word`, best first, at most [`MAX_ITEMS`].
fn ranked(word: &str, candidates: Vec<Candidate<'_>>) -> CompletionResponse {
    let order = fuzzy::rank(word, candidates.iter().map(Candidate::label));
    let truncated = order.len() > MAX_ITEMS;
    let mut slots: Vec<Option<Candidate<'_>>> = candidates.into_iter().map(Some).collect();
    let items: Vec<CompletionItem> = order
        .into_iter()
        .take(MAX_ITEMS)
        .enumerate()
        .filter_map(|(rank, i)| {
            let mut item = slots.get_mut(i)?.take()?.into_item();
            item.sort_text = Some(format!("{rank:04}"));
            Some(item)
        })
        .collect();
    if truncated {
        CompletionResponse::List(lsp_types::CompletionList {
            is_incomplete: true,
            items,
        })
    } else {
        CompletionResponse::Array(items)
    }
}

fn keyword(k: &str) -> CompletionItem {
    CompletionItem {
        label: k.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }
}

/// Names in scope: the variables of enclosing `for` expressions, `range`
/// in a ranged resource, then the program's declarations (and, while the
/// text has syntax errors, those of its last good check; each name once).
fn scope_candidates<'a>(cursor: &'a Cursor, inputs: &'a Inputs<'_>) -> Vec<Candidate<'a>> {
    let mut out = Vec::new();
    // The few names declared around the cursor, which shadow the
    // program's.
    let mut local: Vec<&str> = Vec::new();
    for var in cursor.for_vars.iter().rev() {
        if !local.contains(&var.as_str()) {
            local.push(var);
            out.push(Candidate::Name {
                label: var,
                kind: CompletionItemKind::VARIABLE,
                detail: "for variable",
            });
        }
    }
    let ranged = inputs.node.is_some_and(|n| match &n.kind {
        NodeKind::Resource(r) => r.range.is_some(),
        NodeKind::Component(c) => c.range.is_some(),
        _ => false,
    });
    if cursor.in_resource && ranged && !local.contains(&"range") {
        local.push("range");
        out.push(Candidate::Name {
            label: "range",
            kind: CompletionItemKind::VARIABLE,
            detail: "range variable (range.key, range.value)",
        });
    }
    // Declarations are unique within a program (the binder reports
    // duplicates), so only the merge with the last good check needs a set.
    let nodes = inputs.program.map(Program::nodes).unwrap_or(&[]);
    for n in nodes {
        let Some(kind) = name_kind(&n.kind) else {
            continue;
        };
        if !local.contains(&n.name.as_str()) {
            out.push(Candidate::Name {
                label: &n.name,
                kind,
                detail: n.kind_name(),
            });
        }
    }
    if let Some(last) = inputs.last_good.as_deref() {
        let current: HashSet<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
        for n in last {
            if !current.contains(n.name.as_str()) && !local.contains(&n.name.as_str()) {
                out.push(Candidate::Name {
                    label: &n.name,
                    kind: n.kind,
                    detail: n.detail,
                });
            }
        }
    }
    out
}

/// The position of a builtin in `pcl_expr`'s table (`invoke` last).
fn builtin_order(name: &str) -> usize {
    pcl_expr::Builtin::ALL
        .iter()
        .position(|b| b.name() == name)
        .unwrap_or(usize::MAX)
}

/// Every builtin, with its signature, and `invoke`.
fn builtin_items() -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = pcl_expr::Builtin::ALL
        .iter()
        .map(|b| CompletionItem {
            label: b.name().to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(b.usage().to_string()),
            ..CompletionItem::default()
        })
        .collect();
    items.push(CompletionItem {
        label: "invoke".to_string(),
        kind: Some(CompletionItemKind::FUNCTION),
        detail: Some(crate::signature::INVOKE_USAGE.to_string()),
        ..CompletionItem::default()
    });
    items
}

/// The properties not yet `set`, each with its type, whether it is
/// required, and its description; required ones first.
fn property_items<'a>(
    properties: impl Iterator<Item = &'a Property>,
    set: &[String],
) -> Vec<CompletionItem> {
    let mut items: Vec<(bool, CompletionItem)> = properties
        .filter(|p| !set.contains(&p.name))
        .map(|p| {
            let ty = type_label(&p.ty);
            let detail = if p.required {
                format!("{ty} (required)")
            } else {
                ty
            };
            let item = CompletionItem {
                label: p.name.clone(),
                kind: Some(CompletionItemKind::PROPERTY),
                detail: Some(detail),
                documentation: p.description.as_ref().map(|d| {
                    Documentation::MarkupContent(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: d.clone(),
                    })
                }),
                deprecated: p.deprecation_message.as_ref().map(|_| true),
                ..CompletionItem::default()
            };
            (p.required, item)
        })
        .collect();
    // Stable: schema order within required and within optional.
    items.sort_by_key(|(required, _)| !*required);
    items.into_iter().map(|(_, i)| i).collect()
}

/// Which tokens a string asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    Resources,
    Functions,
}

/// A resolved schema member.
pub(crate) enum Found {
    Resource(Arc<pcl_schema::Resource>),
    Function(Arc<pcl_schema::Function>),
}

/// The resource or function `token` names, from the package its first
/// segment names.
pub(crate) fn lookup(schemas: &dyn SchemaLoader, token: &str, section: Section) -> Option<Found> {
    let (package, _) = token.split_once(':')?;
    let loaded = schemas.load(&PackageDescriptor::new(package)).ok()?;
    match section {
        Section::Resources => loaded
            .lookup_resource(token)
            .ok()
            .flatten()
            .map(|f| Found::Resource(f.item)),
        Section::Functions => loaded
            .lookup_function(token)
            .ok()
            .flatten()
            .map(|f| Found::Function(f.item)),
    }
}

/// The resource or function tokens of the packages the program uses, and
/// of the package the word typed so far names (`gcp:` loads `gcp`). Each
/// replaces the whole string typed so far.
fn token_items(
    cursor: &Cursor,
    offset: usize,
    inputs: &Inputs<'_>,
    section: Section,
) -> Vec<CompletionItem> {
    let mut packages: Vec<String> = inputs
        .program
        .map(|p| {
            p.packages()
                .iter()
                .filter(|p| p.loaded)
                .map(|p| p.name.clone())
                .collect()
        })
        .unwrap_or_default();
    if let Some((typed, _)) = cursor.word.split_once(':') {
        if !typed.is_empty() && !packages.iter().any(|p| p == typed) {
            packages.push(typed.to_string());
        }
    }
    let range = (inputs.range)(cursor.word_start, offset);
    let kind = match section {
        Section::Resources => CompletionItemKind::CLASS,
        Section::Functions => CompletionItemKind::FUNCTION,
    };
    let mut items = Vec::new();
    for name in packages {
        let Ok(loaded) = inputs.schemas.load(&PackageDescriptor::new(name.clone())) else {
            continue;
        };
        let tokens: Vec<&str> = match section {
            Section::Resources => loaded.resource_tokens().collect(),
            Section::Functions => loaded.function_tokens().collect(),
        };
        for token in tokens {
            items.push(CompletionItem {
                label: token.to_string(),
                kind: Some(kind),
                detail: Some(format!("package {name}")),
                text_edit: Some(lsp_types::CompletionTextEdit::Edit(lsp_types::TextEdit {
                    range,
                    new_text: token.to_string(),
                })),
                ..CompletionItem::default()
            });
        }
    }
    items
}

/// A schema type as PCL writes it in its plain shape (`list(string)`,
/// `map(int)`, an object type by its name), without `output(…)` or input
/// wrappers.
pub(crate) fn type_label(ty: &SchemaType) -> String {
    let mut out = String::new();
    write_type(ty, 0, &mut out);
    out
}

/// Recursion is bounded by [`MAX_TYPE_DEPTH`].
fn write_type(ty: &SchemaType, depth: usize, out: &mut String) {
    if depth >= MAX_TYPE_DEPTH {
        out.push('…');
        return;
    }
    match &ty.kind {
        SchemaTypeKind::Primitive(p) => out.push_str(match p {
            pcl_schema::Primitive::Boolean => "bool",
            pcl_schema::Primitive::Integer => "int",
            pcl_schema::Primitive::Number => "number",
            pcl_schema::Primitive::String => "string",
        }),
        SchemaTypeKind::Builtin(b) => out.push_str(match b {
            pcl_schema::Builtin::Any | pcl_schema::Builtin::Json => "dynamic",
            pcl_schema::Builtin::Archive => "Archive",
            pcl_schema::Builtin::Asset => "Asset | Archive",
        }),
        SchemaTypeKind::Array(element) => {
            out.push_str("list(");
            write_type(element, depth + 1, out);
            out.push(')');
        }
        SchemaTypeKind::Map(element) => {
            out.push_str("map(");
            write_type(element, depth + 1, out);
            out.push(')');
        }
        SchemaTypeKind::Ref(r) => {
            let member = r.token.rsplit(':').next().unwrap_or(&r.token);
            out.push_str(member);
        }
        SchemaTypeKind::Union(u) => {
            for (i, m) in u.members.iter().enumerate() {
                if i > 0 {
                    out.push_str(" | ");
                }
                write_type(m, depth + 1, out);
            }
        }
        SchemaTypeKind::Invalid(_) => out.push_str("invalid"),
    }
}
