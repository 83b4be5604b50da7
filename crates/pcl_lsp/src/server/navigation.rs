//! Navigation: what a position names (a [`Target`]), where it is declared
//! (go to definition, and a component's directory), every reference to it
//! (find references, rename), and the outlines of a document and of the
//! workspace (document and workspace symbols).

use std::collections::HashMap;

use lsp_server::ErrorCode;
use lsp_types::{
    DocumentSymbol, GotoDefinitionResponse, Location, SymbolKind, TextEdit, Url, WorkspaceEdit,
};
use pcl_binder::NodeKind;
use pcl_diagnostics::Span;
use pcl_expr::{BoundExprKind, Definition};

use super::analysis::Analysis;
use super::Server;
use crate::walk::{contains, contains_range, for_each_expr, innermost_node};

impl Server {
    pub(super) fn definition(
        &self,
        p: &lsp_types::GotoDefinitionParams,
    ) -> Option<GotoDefinitionResponse> {
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
    pub(super) fn symbols(
        &self,
        p: &lsp_types::DocumentSymbolParams,
    ) -> Option<Vec<DocumentSymbol>> {
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
                    name: n.name.to_string(),
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

    /// What a position names: a program node (by a reference or its own
    /// name), a variable (a `for` variable, by a use or its declaration),
    /// or a resource's `range`.
    pub(super) fn target(
        &self,
        tdp: &lsp_types::TextDocumentPositionParams,
    ) -> Option<(&Analysis, Target)> {
        let (a, file) = self.find(&tdp.text_document.uri)?;
        let offset = a.offset(file, tdp.position, self.encoding);
        let program = a.checked.value();
        let node = innermost_node(program, file, offset)?;
        if contains(node.name_span.range, offset) {
            return Some((a, Target::Node(node.id)));
        }
        let mut target = None;
        for_each_expr(node, |e| {
            let BoundExprKind::ScopeTraversal(t) = e.kind() else {
                return;
            };
            if let Some(def) = &t.definition {
                let named = match def {
                    Definition::Node(id) => Some(Target::Node(*id)),
                    Definition::Variable(v) => match v.range {
                        Some(decl) => {
                            if decl.file == file && contains(decl.range, offset) {
                                // On the declaration itself.
                                target = Some(Target::Variable(decl));
                            }
                            Some(Target::Variable(decl))
                        }
                        None if v.name == "range" => Some(Target::Range(node.id)),
                        None => None,
                    },
                    _ => None,
                };
                if contains(t.root_range, offset) {
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
                let BoundExprKind::ScopeTraversal(t) = e.kind() else {
                    return;
                };
                if let Some(def) = &t.definition {
                    let hit = match (target, def) {
                        (Target::Node(id), Definition::Node(d)) => d == id,
                        (Target::Variable(decl), Definition::Variable(v)) => {
                            v.range.as_ref() == Some(decl)
                        }
                        (Target::Range(_), Definition::Variable(v)) => {
                            v.range.is_none() && v.name == "range"
                        }
                        _ => false,
                    };
                    if hit {
                        out.push(Span::new(node.file(), t.root_range));
                    }
                }
            });
        }
        out.sort_by_key(|s| (s.file, s.range.start));
        out
    }

    pub(super) fn references(&self, p: &lsp_types::ReferenceParams) -> Option<Vec<Location>> {
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

    pub(super) fn rename(
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
    pub(super) fn workspace_symbols(
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
                    name: n.name.to_string(),
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

/// What a position names, for definition, references and rename.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Target {
    Node(pcl_binder::NodeId),
    /// A variable with a declaration site (a `for` variable): that site.
    Variable(Span),
    /// The `range` variable of the resource or component with this id.
    Range(pcl_binder::NodeId),
}
