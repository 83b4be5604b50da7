//! The bound program: inert, fully resolved data for code generators.
//!
//! A [`Program`] holds its [`Node`]s in declaration order (indexable by
//! [`NodeId`]) and, separately, a deterministic topological order
//! ([`Program::ordered_nodes`], the reference's `Linearize`). Every
//! expression is a typed [`BoundTree`]; references inside expressions name
//! nodes by [`NodeId`] (`Definition::Node`). Resource inputs name the schema
//! property they set. Comments written before and after a declaration are
//! kept on the node.

use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, FileId, SourceMap, Span};
use pcl_expr::{BoundTree, NodeId};
use pcl_syntax::tree::{CommentKind, CommentRef};
use pcl_types::Type;
use smol_str::SmolStr;

/// A comment written before or after a declaration, copied out of the
/// syntax tree (the program outlives the parse). `text` is the raw
/// comment, delimiters included, without its line break.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    pub kind: CommentKind,
    pub text: String,
    pub range: pcl_diagnostics::TextRange,
}

impl Comment {
    pub(crate) fn new(view: CommentRef<'_>) -> Comment {
        Comment {
            kind: view.kind(),
            text: view.text().to_owned(),
            range: view.range(),
        }
    }

    /// The comment text with its delimiters (`#`, `//`, `/*`, `*/`)
    /// removed.
    pub fn content(&self) -> &str {
        let text = self.text.as_str();
        match self.kind {
            CommentKind::Hash => text.strip_prefix('#').unwrap_or(text),
            CommentKind::DoubleSlash => text.strip_prefix("//").unwrap_or(text),
            CommentKind::Block => {
                let inner = text.strip_prefix("/*").unwrap_or(text);
                inner.strip_suffix("*/").unwrap_or(inner)
            }
        }
    }
}

/// A value with the diagnostics found while producing it.
#[derive(Debug)]
pub struct Checked<T> {
    value: T,
    sources: SourceMap,
    diagnostics: Vec<Diagnostic>,
}

impl<T> Checked<T> {
    pub(crate) fn new(value: T, sources: SourceMap, diagnostics: Vec<Diagnostic>) -> Checked<T> {
        Checked {
            value,
            sources,
            diagnostics,
        }
    }

    /// The checked value (always present, even with errors).
    pub fn value(&self) -> &T {
        &self.value
    }

    /// Every file read (program files and component files).
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Diagnostics, sorted deterministically.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Only the errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    pub fn into_parts(self) -> (T, SourceMap, Vec<Diagnostic>) {
        (self.value, self.sources, self.diagnostics)
    }
}

/// A bound program (or component sub-program).
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub(crate) nodes: Vec<Node>,
    pub(crate) order: Vec<NodeId>,
    pub(crate) packages: Vec<PackageUse>,
    pub(crate) files: Vec<ProgramFile>,
    pub(crate) directory: String,
}

impl Program {
    /// Nodes in declaration order (files sorted by name; within a file,
    /// resources and reads first, then everything else, in source order).
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.0 as usize)
    }

    /// The node declared under `name` (outputs included).
    pub fn find(&self, name: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.name == name)
    }

    /// Node ids in topological order: a node after everything it depends on
    /// (cycles broken), otherwise source order, files grouped.
    pub fn order(&self) -> &[NodeId] {
        &self.order
    }

    /// Nodes in topological order.
    pub fn ordered_nodes(&self) -> impl Iterator<Item = &Node> {
        self.order.iter().filter_map(|id| self.node(*id))
    }

    /// Packages the program uses (resources, providers, invokes), in first
    /// use order.
    pub fn packages(&self) -> &[PackageUse] {
        &self.packages
    }

    /// The files of this program, sorted by name.
    pub fn files(&self) -> &[ProgramFile] {
        &self.files
    }

    /// The program's directory (symbolic links followed) relative to the
    /// checked program's directory (`""` for the checked program itself,
    /// `../x` for a sibling component).
    pub fn directory(&self) -> &str {
        &self.directory
    }
}

/// One source file of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramFile {
    pub id: FileId,
    pub name: String,
}

/// A package a program uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageUse {
    pub name: String,
    /// The loaded schema's version; `None` when it has none or did not load.
    pub version: Option<String>,
    /// Whether the schema loaded.
    pub loaded: bool,
}

/// A top-level declaration.
#[derive(Clone, Debug)]
pub struct Node {
    pub id: NodeId,
    /// The declared name (`resource <name> …`, `hook <kind> <name>`,
    /// `pulumi` for the pulumi block); names up to 23 bytes are stored
    /// inline.
    pub name: SmolStr,
    pub kind: NodeKind,
    /// The whole block or attribute.
    pub span: Span,
    /// The name label (or attribute name).
    pub name_span: Span,
    /// The node's type as references see it (a resource's output object,
    /// a local's value type, a config's declared type …).
    pub ty: Type,
    /// Nodes this node references (syntactically, in the root scope), in
    /// source order.
    pub dependencies: Box<[NodeId]>,
    /// What most nodes do not have: a logical name of their own, comments.
    pub(crate) extra: Option<Box<NodeExtra>>,
}

/// The parts of a [`Node`] most nodes leave empty, out of line so that a
/// program of many small locals does not pay for them in every node.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeExtra {
    /// `__logicalName`, when it is set.
    pub logical_name: Option<String>,
    pub leading_comments: Vec<Comment>,
    pub trailing_comments: Vec<Comment>,
}

impl NodeExtra {
    /// `None` when there is nothing to keep.
    pub(crate) fn boxed(self) -> Option<Box<NodeExtra>> {
        let empty = self.logical_name.is_none()
            && self.leading_comments.is_empty()
            && self.trailing_comments.is_empty();
        (!empty).then(|| Box::new(self))
    }
}

impl Node {
    pub fn file(&self) -> FileId {
        self.span.file
    }

    /// `__logicalName` when set, else the name.
    pub fn logical_name(&self) -> &str {
        self.extra
            .as_ref()
            .and_then(|e| e.logical_name.as_deref())
            .unwrap_or(&self.name)
    }

    /// The comments on the lines before the node.
    pub fn leading_comments(&self) -> &[Comment] {
        self.extra.as_ref().map_or(&[], |e| &e.leading_comments)
    }

    /// The comment after the node on its last line.
    pub fn trailing_comments(&self) -> &[Comment] {
        self.extra.as_ref().map_or(&[], |e| &e.trailing_comments)
    }

    /// A short name for the node's kind (`resource`, `read`, `config`, …).
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Local(_) => "local",
            NodeKind::Config(_) => "config",
            NodeKind::Output(_) => "output",
            NodeKind::Resource(r) if r.read => "read",
            NodeKind::Resource(_) => "resource",
            NodeKind::Component(_) => "component",
            NodeKind::Hook(_) => "hook",
            NodeKind::Pulumi(_) => "pulumi",
        }
    }
}

/// What a node is.
///
/// The block kinds are boxed: a program of many small locals would
/// otherwise pay for the largest kind in every node (a `Node` was 528
/// bytes with a hook's 368 inline; it is 128 now, a local's bound value
/// inline).
#[derive(Clone, Debug)]
pub enum NodeKind {
    Local(LocalNode),
    Config(Box<ConfigNode>),
    Output(Box<OutputNode>),
    /// `resource` and `read` blocks.
    Resource(Box<ResourceNode>),
    Component(Box<ComponentNode>),
    Hook(Box<HookNode>),
    Pulumi(PulumiNode),
}

/// `name = expr` at the top level.
#[derive(Clone, Debug)]
pub struct LocalNode {
    pub value: Option<BoundTree>,
}

/// `config <name> [<type>] { … }`.
#[derive(Clone, Debug)]
pub struct ConfigNode {
    /// The type label as written.
    pub type_label: Option<String>,
    pub default: Option<BoundTree>,
    pub description: Option<String>,
    /// `default = null` or `nullable = true`.
    pub nullable: bool,
    pub secret: bool,
    /// Other attributes (bound, otherwise ignored).
    pub attributes: Vec<BoundAttribute>,
}

/// `output <name> [<type>] { value = … }`.
#[derive(Clone, Debug)]
pub struct OutputNode {
    pub type_label: Option<String>,
    pub value: Option<BoundTree>,
}

/// How a `range` option multiplies a resource or component.
#[derive(Clone, Debug, PartialEq)]
pub enum RangeKind {
    /// `range = <bool>`: zero or one instance.
    Bool,
    /// `range = <number>`: a list of instances; `range.value` is the index.
    Count,
    /// A list (or tuple, or dynamic) collection: a list of instances.
    List { key: Type, value: Type },
    /// A map or object collection: a map of instances.
    Map { key: Type, value: Type },
}

/// `resource <name> "<token>" { … }` or `read <name> "<token>" { … }`.
#[derive(Clone, Debug)]
pub struct ResourceNode {
    pub read: bool,
    /// The token as written.
    pub written_token: String,
    /// The bound token (canonical when resolved, else as written).
    pub token: String,
    /// The schema resource, when resolved.
    pub schema: Option<SchemaResourceRef>,
    /// The type the inputs are checked against (`dynamic` when untyped).
    pub input_type: Type,
    /// The type of one instance (before the range rule).
    pub output_type: Type,
    pub inputs: Vec<BoundAttribute>,
    pub options: Option<ResourceOptions>,
    pub range: Option<RangeKind>,
}

/// Where a resource's schema came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaResourceRef {
    pub package: String,
    pub package_version: Option<String>,
    /// The token as written in the schema.
    pub schema_token: String,
    pub is_provider: bool,
    pub is_component: bool,
}

/// An attribute after binding, with the schema property it sets.
#[derive(Clone, Debug)]
pub struct BoundAttribute {
    pub name: String,
    pub name_span: Span,
    pub value: BoundTree,
    /// The type the value was checked against, when there was one.
    pub expected: Option<Type>,
    pub leading_comments: Vec<Comment>,
    pub trailing_comments: Vec<Comment>,
}

/// The `options { … }` block of a resource, read or component.
#[derive(Clone, Debug, Default)]
pub struct ResourceOptions {
    pub span: Option<Span>,
    /// Every option attribute in source order.
    pub attributes: Vec<BoundAttribute>,
}

impl ResourceOptions {
    /// The option named `name`.
    pub fn get(&self, name: &str) -> Option<&BoundTree> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| &a.value)
    }
}

/// `component <name> ["<dir>"] { … }`.
#[derive(Clone, Debug)]
pub struct ComponentNode {
    /// The source directory as written.
    pub source: Option<String>,
    /// The resolved directory (symbolic links followed) relative to the
    /// checked program's directory (`../x` for a sibling).
    pub directory: Option<String>,
    /// `token = "…"` of a sourceless component.
    pub token: Option<String>,
    /// The bound sub-program (shared between components with one source).
    pub program: Option<Arc<Program>>,
    pub inputs: Vec<BoundAttribute>,
    pub options: Option<ResourceOptions>,
    pub range: Option<RangeKind>,
}

/// Which hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookKind {
    Resource,
    Error,
}

/// `hook <kind> <name> { command = … }`.
#[derive(Clone, Debug)]
pub struct HookNode {
    pub hook_kind: HookKind,
    pub command: Option<BoundTree>,
    pub on_dry_run: Option<BoundTree>,
    pub ignore_errors: Option<BoundTree>,
}

/// `pulumi { requiredVersionRange = … }`.
#[derive(Clone, Debug)]
pub struct PulumiNode {
    pub attributes: Vec<BoundAttribute>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program holds one `Node` per top-level item, and most items of
    /// a large program are small locals: the block kinds stay boxed, the
    /// name is inline, the rare parts are out of line, so a node costs
    /// its own fields and a local's bound value (a 40-byte tree): 128
    /// bytes. It was 528 with a hook's 368 inline, then 280 with names as
    /// `String`s, comments inline and a 120-byte tree.
    #[test]
    fn a_node_is_its_own_fields_and_a_small_tree() {
        let node = std::mem::size_of::<Node>();
        assert!(node <= 128, "{node}");
        assert!(std::mem::size_of::<NodeKind>() <= std::mem::size_of::<LocalNode>() + 8);
        assert!(std::mem::size_of::<crate::program::Decl>() <= 12);
    }
}
