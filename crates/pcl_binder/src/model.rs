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
use pcl_expr::{BoundTree, NodeId, Unresolved};
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
    /// Whether a blank line separates this comment from the one before it
    /// in its list (only [`Node::detached_comments`] has such gaps).
    pub blank_line_before: bool,
}

impl Comment {
    pub(crate) fn new(view: CommentRef<'_>) -> Comment {
        Comment {
            kind: view.kind(),
            text: view.text().to_owned(),
            range: view.range(),
            blank_line_before: false,
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

/// Comments grouped the way Pulumi's generators write them: a run of
/// adjacent line comments (`#` or `//`) is one group, a block comment is a
/// group of its own, and the comments after a node on its last line are
/// one trailing group. [`Node::leading_comment_groups`],
/// [`Node::trailing_comment_groups`] and the same two on
/// [`BoundAttribute`] group the comments each keeps (leading comments
/// never span a blank line, so a run there is a run of lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommentGroup<'a> {
    comments: &'a [Comment],
}

impl<'a> CommentGroup<'a> {
    /// The comments of the group, in source order (never empty).
    pub fn comments(&self) -> &'a [Comment] {
        self.comments
    }

    /// From the first comment's start to the last one's end.
    pub fn range(&self) -> pcl_diagnostics::TextRange {
        let start = self.comments.first().map_or(0, |c| c.range.start);
        let end = self.comments.last().map_or(start, |c| c.range.end);
        pcl_diagnostics::TextRange::new(start, end)
    }

    /// The group's source text as written, delimiters, line breaks and
    /// indentation between its comments included (`text` is the text of
    /// the file the comments are in, e.g.
    /// `checked.sources().get(node.file())`'s); `None` when the range is
    /// not in `text`.
    pub fn raw_text<'t>(&self, text: &'t str) -> Option<&'t str> {
        text.get(self.range().to_usize())
    }

    /// The group's lines with the comment delimiters removed, as Pulumi's
    /// syntax layer splits them (`processComment`): one line per line
    /// comment; a block comment split at its line breaks, `/*` and `*/`
    /// removed, a ` *` prefix shared by every line after the first
    /// removed, and an empty first or last line dropped.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in self.comments {
            match c.kind {
                CommentKind::Block => out.extend(block_comment_lines(&c.text)),
                _ => out.push(c.content().to_string()),
            }
        }
        out
    }

    /// Whether this is one block comment.
    pub fn is_block(&self) -> bool {
        matches!(self.comments, [c] if c.kind == CommentKind::Block)
    }
}

/// Groups `comments` (one list a node or attribute keeps, in source
/// order) into [`CommentGroup`]s: each run of line comments on adjacent
/// lines is one group, each block comment another.
pub fn comment_groups(comments: &[Comment]) -> Vec<CommentGroup<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in comments.iter().enumerate() {
        let block = c.kind == CommentKind::Block;
        let continues = i > start
            && !block
            && !c.blank_line_before
            && comments
                .get(i - 1)
                .is_some_and(|p| p.kind != CommentKind::Block);
        if i > start && !continues {
            if let Some(run) = comments.get(start..i) {
                out.push(CommentGroup { comments: run });
            }
            start = i;
        }
    }
    if let Some(run) = comments.get(start..).filter(|r| !r.is_empty()) {
        out.push(CommentGroup { comments: run });
    }
    out
}

/// The trailing comments of a line as one group (they share the line).
fn trailing_group(comments: &[Comment]) -> Vec<CommentGroup<'_>> {
    if comments.is_empty() {
        Vec::new()
    } else {
        vec![CommentGroup { comments }]
    }
}

/// A block comment's lines as Pulumi's `processBlockComment` gives them.
fn block_comment_lines(text: &str) -> Vec<String> {
    fn prefix_of(line: &str) -> &str {
        let trimmed = line.trim_start();
        if trimmed.starts_with('*') {
            let ws = line.len() - trimmed.len();
            line.get(..ws + 1).unwrap_or("")
        } else {
            ""
        }
    }
    /// `[[:space:]]*\*+/$` removed.
    fn strip_end(line: &str) -> &str {
        match line.strip_suffix("*/") {
            Some(rest) => rest.trim_end_matches('*').trim_end(),
            None => line,
        }
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut prefix: Option<&str> = None;
    for l in lines.iter().skip(1) {
        let m = prefix_of(l);
        match prefix {
            None => prefix = Some(m),
            Some(p) if p != m => {
                prefix = Some("");
                break;
            }
            Some(_) => {}
        }
    }
    let prefix = prefix.unwrap_or("");
    let last = lines.len().saturating_sub(1);
    let mut out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let l = if i == 0 {
                // `^/\*+`
                let l = match l.strip_prefix("/*") {
                    Some(rest) => rest.trim_start_matches('*'),
                    None => l,
                };
                if last == 0 {
                    strip_end(l)
                } else {
                    l
                }
            } else if i == last {
                if l.len().saturating_sub(prefix.len()) == 1 {
                    ""
                } else {
                    strip_end(l.get(prefix.len()..).unwrap_or(""))
                }
            } else {
                l.get(prefix.len()..).unwrap_or("")
            };
            l.to_string()
        })
        .collect();
    if out.first().is_some_and(String::is_empty) {
        out.remove(0);
    }
    if out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
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
    /// What re-binding one edited declaration needs of the check (see
    /// `incremental`); `None` when the program cannot be re-bound that
    /// way.
    pub(crate) incremental: Option<Arc<crate::incremental::State>>,
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
    pub detached_comments: Vec<Comment>,
}

impl NodeExtra {
    /// `None` when there is nothing to keep.
    pub(crate) fn boxed(self) -> Option<Box<NodeExtra>> {
        let empty = self.logical_name.is_none()
            && self.leading_comments.is_empty()
            && self.trailing_comments.is_empty()
            && self.detached_comments.is_empty();
        (!empty).then(|| Box::new(self))
    }
}

impl Node {
    /// Moves every position the node holds (its spans, its bound
    /// expressions, attributes, options and comments) by `delta` bytes:
    /// the node of a file whose text before it grew or shrank.
    pub(crate) fn shift(&mut self, delta: i64) {
        let range = |r: &mut pcl_diagnostics::TextRange| {
            if let Some(moved) = r.shifted(delta) {
                *r = moved;
            }
        };
        let comments = |list: &mut Vec<Comment>| {
            for c in list {
                if let Some(moved) = c.range.shifted(delta) {
                    c.range = moved;
                }
            }
        };
        let attributes = |list: &mut Vec<BoundAttribute>| {
            for a in list {
                range(&mut a.name_span.range);
                a.value.shift(delta);
                comments(&mut a.leading_comments);
                comments(&mut a.trailing_comments);
            }
        };
        let options = |o: &mut Option<ResourceOptions>| {
            if let Some(o) = o {
                if let Some(span) = &mut o.span {
                    range(&mut span.range);
                }
                attributes(&mut o.attributes);
            }
        };
        let tree = |t: &mut Option<BoundTree>| {
            if let Some(t) = t {
                t.shift(delta);
            }
        };
        range(&mut self.span.range);
        range(&mut self.name_span.range);
        match &mut self.kind {
            NodeKind::Local(l) => tree(&mut l.value),
            NodeKind::Config(c) => {
                tree(&mut c.default);
                attributes(&mut c.attributes);
            }
            NodeKind::Output(o) => tree(&mut o.value),
            NodeKind::Resource(r) => {
                attributes(&mut r.inputs);
                options(&mut r.options);
                if let Some(u) = &mut r.unresolved {
                    u.shift(delta);
                }
            }
            NodeKind::Component(c) => {
                attributes(&mut c.inputs);
                options(&mut c.options);
            }
            NodeKind::Hook(h) => {
                tree(&mut h.command);
                tree(&mut h.on_dry_run);
                tree(&mut h.ignore_errors);
            }
            NodeKind::Pulumi(p) => attributes(&mut p.attributes),
        }
        if let Some(extra) = &mut self.extra {
            comments(&mut extra.leading_comments);
            comments(&mut extra.trailing_comments);
            comments(&mut extra.detached_comments);
        }
    }

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

    /// The comments between the previous declaration of the file (or the
    /// file's start) and this node's leading comments, kept apart from
    /// them by a blank line (a file header, a section title). Pulumi's
    /// syntax layer counts them among the node's leading trivia, so its
    /// generators write them with the node.
    pub fn detached_comments(&self) -> &[Comment] {
        self.extra.as_ref().map_or(&[], |e| &e.detached_comments)
    }

    /// [`Node::detached_comments`] grouped ([`comment_groups`]; a blank
    /// line ends a group).
    pub fn detached_comment_groups(&self) -> Vec<CommentGroup<'_>> {
        comment_groups(self.detached_comments())
    }

    /// [`Node::leading_comments`] grouped ([`comment_groups`]).
    pub fn leading_comment_groups(&self) -> Vec<CommentGroup<'_>> {
        comment_groups(self.leading_comments())
    }

    /// [`Node::trailing_comments`] as one group (none when there are no
    /// trailing comments).
    pub fn trailing_comment_groups(&self) -> Vec<CommentGroup<'_>> {
        trailing_group(self.trailing_comments())
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
///
/// A resource type has three spellings, each with its accessor:
/// [`ResourceNode::written_token`] (as in the source),
/// [`ResourceNode::schema_token`] (as the package schema declares it) and
/// [`ResourceNode::canonical_token`] (Pulumi's canonical key, the form its
/// binder and generators use). A provider resource is
/// `pulumi:providers:<package>` in all three.
#[derive(Clone, Debug)]
pub struct ResourceNode {
    pub read: bool,
    /// The token as written ([`ResourceNode::written_token`]).
    pub written_token: String,
    /// The bound token: the canonical key when resolved, else as written
    /// ([`ResourceNode::canonical_token`]).
    pub token: String,
    /// The schema resource, when resolved.
    pub schema: Option<SchemaResourceRef>,
    /// The type the inputs are checked against (`dynamic` when untyped).
    pub input_type: Type,
    /// The type of one instance (before the range rule).
    pub output_type: Type,
    pub inputs: Vec<BoundAttribute>,
    /// The `options { … }` block, when the resource has one (every
    /// attribute written in it, `range` included; the typed view is
    /// [`ResourceNode::options`]).
    pub options: Option<ResourceOptions>,
    /// How the `range` option multiplies the resource.
    pub range: Option<RangeKind>,
    /// Why the type did not resolve, when it did not.
    pub(crate) unresolved: Option<Box<Unresolved>>,
}

/// What [`ResourceNode::options`] and [`ComponentNode::options`] read when
/// there is no `options` block.
static NO_OPTIONS: ResourceOptions = ResourceOptions {
    span: None,
    attributes: Vec::new(),
};

impl ResourceNode {
    /// The type token exactly as written in the source
    /// (`"aws:s3:Bucket"` of `resource b "aws:s3:Bucket" {}`).
    pub fn written_token(&self) -> &str {
        &self.written_token
    }

    /// The resource's token as the package schema declares it
    /// (`random:index/randomPet:RandomPet`, `pulumi:providers:aws` for a
    /// provider); `None` when the type did not resolve.
    pub fn schema_token(&self) -> Option<&str> {
        self.schema.as_ref().map(|s| s.schema_token.as_str())
    }

    /// Pulumi's canonical key for the type (its binder's `Token`): the
    /// package, the module the schema's `meta.moduleFormat` extracts from
    /// the schema token (`index` read as none) and the member
    /// (`random::RandomPet`, `aws:ec2:SecurityGroup`);
    /// `pulumi:pulumi:X` and `pulumi:providers:<package>` stay whole. When
    /// the type did not resolve, the token as written.
    pub fn canonical_token(&self) -> &str {
        &self.token
    }

    /// Whether this is a provider resource (`pulumi:providers:<package>`).
    pub fn is_provider(&self) -> bool {
        match &self.schema {
            Some(schema) => schema.is_provider,
            None => self.written_token.starts_with("pulumi:providers:"),
        }
    }

    /// The typed view of the `options` block (empty when there is none;
    /// the `options` field, an `Option`, tells the two apart).
    pub fn options(&self) -> &ResourceOptions {
        self.options.as_ref().unwrap_or(&NO_OPTIONS)
    }

    /// The `range` option's value, when set (it is not one of
    /// [`ResourceOptions::set_options`]: it decides how many resources
    /// there are, not how one is managed). [`ResourceNode::range`] says
    /// what kind of range it is.
    pub fn range_value(&self) -> Option<&BoundTree> {
        self.options().get("range")
    }

    /// Why the resource type did not resolve against a schema (an unknown
    /// package or type, a malformed token, a schema that failed to load),
    /// with the code and message of the diagnostic a check reports for
    /// it. Kept under the lenient policy too (`--lenient`), which reports
    /// some of these as warnings and silences others. `None` when the
    /// type resolved, or when the block has no type label.
    pub fn unresolved(&self) -> Option<&Unresolved> {
        self.unresolved.as_deref()
    }
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

impl BoundAttribute {
    /// The comments on the lines before the attribute, grouped
    /// ([`comment_groups`]).
    pub fn leading_comment_groups(&self) -> Vec<CommentGroup<'_>> {
        comment_groups(&self.leading_comments)
    }

    /// The comments after the attribute on its last line, as one group.
    pub fn trailing_comment_groups(&self) -> Vec<CommentGroup<'_>> {
        trailing_group(&self.trailing_comments)
    }
}

/// The `options { … }` block of a resource, read or component.
///
/// Each option PCL supports has an accessor returning its bound value when
/// it is set ([`ResourceOptions::protect`], [`ResourceOptions::depends_on`],
/// …), named after the option (`import` is [`ResourceOptions::import_id`]);
/// [`ResourceOptions::set_options`] lists the set ones in the order Pulumi's
/// generators write them. `range` is read through
/// [`ResourceNode::range_value`], not here.
#[derive(Clone, Debug, Default)]
pub struct ResourceOptions {
    pub span: Option<Span>,
    /// Every option attribute in source order (`range` and unknown
    /// attributes included).
    pub attributes: Vec<BoundAttribute>,
}

/// The options of [`ResourceOptions::set_options`], in the order
/// pulumi-yaml's generator (`genResourceOpts`) writes them; `hooks`, which
/// it does not write, comes last.
pub const OPTION_ORDER: &[&str] = &[
    "provider",
    "parent",
    "providers",
    "dependsOn",
    "replaceWith",
    "ignoreChanges",
    "protect",
    "import",
    "hideDiffs",
    "deletedWith",
    "aliases",
    "customTimeouts",
    "retainOnDelete",
    "deleteBeforeReplace",
    "additionalSecretOutputs",
    "replaceOnChanges",
    "replacementTrigger",
    "envVarMappings",
    "version",
    "pluginDownloadURL",
    "hooks",
];

/// One accessor per option: `fn name(&self) -> Option<&BoundTree>`.
macro_rules! option_accessors {
    ($($(#[$doc:meta])* $method:ident => $name:literal;)*) => {
        impl ResourceOptions {
            $(
                $(#[$doc])*
                pub fn $method(&self) -> Option<&BoundTree> {
                    self.get($name)
                }
            )*
        }
    };
}

option_accessors! {
    /// `aliases`: a list of alias names or `{ name, type, noParent, parent }` objects.
    aliases => "aliases";
    /// `parent`: the parent resource.
    parent => "parent";
    /// `provider`: the provider resource.
    provider => "provider";
    /// `providers`: a list or map of providers (components).
    providers => "providers";
    /// `dependsOn`: a list of resources.
    depends_on => "dependsOn";
    /// `replaceWith`: a list of resources whose replacement replaces this one.
    replace_with => "replaceWith";
    /// `protect`: a bool.
    protect => "protect";
    /// `retainOnDelete`: a bool.
    retain_on_delete => "retainOnDelete";
    /// `deleteBeforeReplace`: a bool.
    delete_before_replace => "deleteBeforeReplace";
    /// `deletedWith`: a resource.
    deleted_with => "deletedWith";
    /// `ignoreChanges`: a list of input properties, named unquoted.
    ignore_changes => "ignoreChanges";
    /// `hideDiffs`: a list of input properties.
    hide_diffs => "hideDiffs";
    /// `replaceOnChanges`: a list of input properties.
    replace_on_changes => "replaceOnChanges";
    /// `additionalSecretOutputs`: a list of output properties.
    additional_secret_outputs => "additionalSecretOutputs";
    /// `version`: the provider plugin's version, a string.
    version => "version";
    /// `pluginDownloadURL`: a string.
    plugin_download_url => "pluginDownloadURL";
    /// `import`: the id of the resource to import, a string.
    import_id => "import";
    /// `customTimeouts`: `{ create, update, delete, read }` strings.
    custom_timeouts => "customTimeouts";
    /// `replacementTrigger`: a value whose change replaces the resource.
    replacement_trigger => "replacementTrigger";
    /// `envVarMappings`: a map of strings (provider resources).
    env_var_mappings => "envVarMappings";
    /// `hooks`: resource hooks by kind.
    hooks => "hooks";
}

impl ResourceOptions {
    /// The value of the option written as `name` (any attribute of the
    /// block, `range` too); the first when it is written twice.
    pub fn get(&self, name: &str) -> Option<&BoundTree> {
        self.attribute(name).map(|a| &a.value)
    }

    /// The attribute (value, name span, comments) of the option `name`.
    pub fn attribute(&self, name: &str) -> Option<&BoundAttribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The options that are set, in [`OPTION_ORDER`] (the order Pulumi's
    /// YAML generator writes them), each once: `range` and attributes that
    /// are not options are left out.
    pub fn set_options(&self) -> impl Iterator<Item = &BoundAttribute> {
        // One pass over the block: each option's first attribute.
        let mut first: [Option<&BoundAttribute>; OPTION_ORDER.len()] = [None; OPTION_ORDER.len()];
        for attribute in &self.attributes {
            let slot = OPTION_ORDER
                .iter()
                .position(|n| *n == attribute.name)
                .and_then(|i| first.get_mut(i));
            if let Some(slot) = slot.filter(|s| s.is_none()) {
                *slot = Some(attribute);
            }
        }
        first.into_iter().flatten()
    }

    /// Whether no option is written (an empty block, or none).
    pub fn is_empty(&self) -> bool {
        self.attributes.is_empty()
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
    /// The `options { … }` block, when the component has one (the typed
    /// view is [`ComponentNode::options`]).
    pub options: Option<ResourceOptions>,
    pub range: Option<RangeKind>,
}

impl ComponentNode {
    /// The typed view of the `options` block (empty when there is none).
    pub fn options(&self) -> &ResourceOptions {
        self.options.as_ref().unwrap_or(&NO_OPTIONS)
    }

    /// The `range` option's value, when set.
    pub fn range_value(&self) -> Option<&BoundTree> {
        self.options().get("range")
    }
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
