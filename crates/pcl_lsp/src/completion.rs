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
#[derive(Debug)]
pub(crate) struct LastGood<K> {
    names: HashMap<K, Arc<Vec<Name>>>,
}

impl<K: Hash + Eq> Default for LastGood<K> {
    fn default() -> LastGood<K> {
        LastGood {
            names: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq> LastGood<K> {
    /// Remembers the names of `checked` when it has no syntax error.
    pub(crate) fn remember(&mut self, key: K, checked: &Checked<Program>) {
        let syntax_error = checked
            .diagnostics()
            .iter()
            .any(|d| pcl_syntax::codes::ALL.contains(&d.code));
        if !syntax_error {
            self.names.insert(key, Arc::new(names(checked.value())));
        }
    }

    pub(crate) fn get(&self, key: &K) -> Option<Arc<Vec<Name>>> {
        self.names.get(key).cloned()
    }
}

/// The declared names of a program (locals, config, resources, outputs,
/// components), in declaration order.
pub(crate) fn names(program: &Program) -> Vec<Name> {
    program
        .nodes()
        .iter()
        .filter_map(|n| {
            let kind = match n.kind {
                NodeKind::Pulumi(_) | NodeKind::Hook(_) => return None,
                NodeKind::Resource(_) | NodeKind::Component(_) => CompletionItemKind::MODULE,
                NodeKind::Config(_) => CompletionItemKind::CONSTANT,
                NodeKind::Local(_) | NodeKind::Output(_) => CompletionItemKind::VARIABLE,
            };
            Some(Name {
                name: n.name.clone(),
                kind,
                detail: n.kind_name(),
            })
        })
        .collect()
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

/// The completion answer at `cursor`, at byte `offset`.
pub(crate) fn complete(cursor: &Cursor, offset: usize, inputs: &Inputs<'_>) -> CompletionResponse {
    let candidates = match &cursor.place {
        Place::TopLevel => {
            let mut c: Vec<CompletionItem> = KEYWORDS.iter().map(|k| keyword(k)).collect();
            c.extend(scope_items(cursor, inputs));
            c
        }
        Place::ResourceToken => token_items(cursor, offset, inputs, Section::Resources),
        Place::FunctionToken => token_items(cursor, offset, inputs, Section::Functions),
        Place::ResourceKey { token, set } => {
            let resource = lookup(inputs.schemas, token, Section::Resources);
            let mut c = match &resource {
                Some(Found::Resource(r)) => property_items(r.input_properties.values(), set),
                _ => Vec::new(),
            };
            if !set.iter().any(|s| s == "options") {
                c.push(keyword("options"));
            }
            c
        }
        Place::OptionKey { set } => pcl_binder::OPTION_NAMES
            .iter()
            .filter(|o| !set.iter().any(|s| s == *o))
            .map(|o| CompletionItem {
                label: (*o).to_string(),
                kind: Some(CompletionItemKind::PROPERTY),
                detail: Some("resource option".to_string()),
                ..CompletionItem::default()
            })
            .collect(),
        Place::InvokeKey { token, set } => {
            match lookup(inputs.schemas, token, Section::Functions) {
                Some(Found::Function(f)) => match &f.inputs {
                    Some(object) => property_items(object.properties.values(), set),
                    None => Vec::new(),
                },
                _ => Vec::new(),
            }
        }
        Place::Expression => {
            let mut c = scope_items(cursor, inputs);
            // A name in scope shadows the builtin of that name.
            let shadowed: HashSet<String> = c.iter().map(|i| i.label.clone()).collect();
            c.extend(
                builtin_items()
                    .into_iter()
                    .filter(|b| !shadowed.contains(&b.label)),
            );
            c
        }
        Place::Nothing => Vec::new(),
    };
    ranked(&cursor.word, candidates)
}

/// The candidates matching `word`, best first, at most [`MAX_ITEMS`].
fn ranked(word: &str, candidates: Vec<CompletionItem>) -> CompletionResponse {
    let order = fuzzy::rank(word, candidates.iter().map(|c| filter_text(c)));
    let truncated = order.len() > MAX_ITEMS;
    let mut slots: Vec<Option<CompletionItem>> = candidates.into_iter().map(Some).collect();
    let items: Vec<CompletionItem> = order
        .into_iter()
        .take(MAX_ITEMS)
        .enumerate()
        .filter_map(|(rank, i)| {
            let mut item = slots.get_mut(i)?.take()?;
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

fn filter_text(item: &CompletionItem) -> &str {
    item.filter_text.as_deref().unwrap_or(&item.label)
}

fn keyword(k: &str) -> CompletionItem {
    CompletionItem {
        label: k.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }
}

/// Names in scope: the variables of enclosing `for` expressions, `range`
/// in a ranged resource, then the program's declarations (current and
/// last good, once each).
fn scope_items(cursor: &Cursor, inputs: &Inputs<'_>) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for var in cursor.for_vars.iter().rev() {
        if seen.insert(var.clone()) {
            items.push(CompletionItem {
                label: var.clone(),
                kind: Some(CompletionItemKind::VARIABLE),
                detail: Some("for variable".to_string()),
                ..CompletionItem::default()
            });
        }
    }
    let ranged = inputs.node.is_some_and(|n| match &n.kind {
        NodeKind::Resource(r) => r.range.is_some(),
        NodeKind::Component(c) => c.range.is_some(),
        _ => false,
    });
    if cursor.in_resource && ranged && seen.insert("range".to_string()) {
        items.push(CompletionItem {
            label: "range".to_string(),
            kind: Some(CompletionItemKind::VARIABLE),
            detail: Some("range variable (range.key, range.value)".to_string()),
            ..CompletionItem::default()
        });
    }
    let current = inputs.program.map(names).unwrap_or_default();
    let last = inputs
        .last_good
        .as_deref()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for n in current.iter().chain(last) {
        if seen.insert(n.name.clone()) {
            items.push(CompletionItem {
                label: n.name.clone(),
                kind: Some(n.kind),
                detail: Some(n.detail.to_string()),
                ..CompletionItem::default()
            });
        }
    }
    items
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
        .filter(|p| !set.iter().any(|s| *s == p.name))
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
