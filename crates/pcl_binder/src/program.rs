//! Binding one program (or component sub-program): parsing its files,
//! reading `package` blocks, declaring nodes, ordering them by dependency
//! with cycle detection, binding each node, and assembling the [`Program`].
//!
//! Declaration follows binder.md §5.2: files sorted by name; in each file
//! `resource`/`read` blocks first, then everything else, in source order.
//! Binding order is a depth-first walk over syntactic dependencies from each
//! node in declaration order (dependencies first), computed iteratively up
//! front, so a long chain of locals cannot overflow the stack. A node
//! re-entered along the walk is a `circular reference`, except a component
//! that does not reference itself (mutually dependent components bind, the
//! one entered second seeing the first as `dynamic`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use pcl_diagnostics::{Diagnostic, DiagnosticList, FileId, Severity, SourceMap, Span, TextRange};
use pcl_expr::{bind_expr, check_convertible, BindContext, BoundTree, Definition, Scope};
use pcl_syntax::tree::{BlockRef, BodyRef, ExprRef, Item, ItemRef};
use pcl_syntax::Parse;
use pcl_types::{InputTypeMemo, Type};
use smol_str::SmolStr;

use crate::codes;
use crate::deps;
use crate::env::EnvView;
use crate::files::FileProvider;
use crate::linearize::{linearize, OrderGraph};
use crate::model::{Comment, HookKind, LocalNode, Node, NodeExtra, NodeKind, Program, ProgramFile};
use crate::packages::read_package_blocks;
use crate::policy::BindPolicy;
use crate::schema_types::Schemas;

/// The links of a circular reference a report lists (and labels); longer
/// cycles end with "… (N more)".
const MAX_CYCLE_LINKS_SHOWN: usize = 10;

/// State shared by a program and all its component sub-programs.
pub(crate) struct Shared<'s> {
    pub schemas: Schemas<'s>,
    pub policy: BindPolicy,
    pub files: &'s dyn FileProvider,
    /// Bound component programs by directory (each bound once).
    pub components: RefCell<HashMap<String, Arc<Program>>>,
    /// Directories of the components being bound (cycle detection).
    pub stack: RefCell<Vec<String>>,
    /// `InputType` answers by type identity, for the whole check.
    pub input_types: RefCell<InputTypeMemo>,
    /// Literal values and their types, shared by equal literals across the
    /// check (lent to each expression's bind).
    pub literals: RefCell<pcl_types::LiteralTypes>,
    /// Schema function lookups of `invoke` by token, for the whole check.
    pub invokes: RefCell<HashMap<String, pcl_expr::InvokeLookup>>,
    /// The names sibling files declare, when one file is checked alone
    /// (the checked program only, not its components), and their uses.
    pub siblings: Option<&'s crate::siblings::Siblings>,
    pub sibling_uses: crate::siblings::SiblingUses,
    /// Whether the checked program keeps what re-checking an edit needs
    /// (see `incremental`).
    pub for_edits: bool,
}

/// One file of a program: its parse stays alive while the program binds,
/// and everything reads the syntax through its views.
pub(crate) struct ParsedFile {
    pub id: FileId,
    pub name: String,
    pub parse: Parse,
}

impl ParsedFile {
    pub fn body(&self) -> BodyRef<'_> {
        self.parse.body()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclKind {
    Local,
    Config,
    Output,
    Resource,
    Read,
    Component,
    Hook(HookKind),
    Pulumi,
}

/// Where a node's declaration is: its kind and its item. The node's
/// name and spans are in the [`Node`] itself, made when it is declared.
/// 12 bytes (see `model::tests`).
#[derive(Clone, Copy)]
pub(crate) struct Decl {
    pub kind: DeclKind,
    pub file_idx: u32,
    pub item_idx: u32,
}

impl Decl {
    /// The declaring item.
    pub fn item<'f>(&self, files: &'f [ParsedFile]) -> Option<ItemRef<'f>> {
        files
            .get(self.file_idx as usize)
            .and_then(|f| f.body().items().get(self.item_idx as usize))
    }

    /// Replaces `names` with the names the declaration's syntax uses, with
    /// their positions, in source order (a resource's or read's own
    /// property-list options (`ignoreChanges` …) left out, as
    /// [`deps::Walk::body_names`] does).
    pub fn names<'f>(
        &self,
        files: &'f [ParsedFile],
        walk: &mut deps::Walk<'f>,
        names: &mut Vec<(u32, &'f str)>,
    ) {
        names.clear();
        if let Some(item) = self.item(files) {
            match item.kind() {
                Item::Attribute(a) => walk.expr_names(a.expr(), names),
                Item::Block(b) => {
                    let skip = matches!(self.kind, DeclKind::Resource | DeclKind::Read);
                    walk.body_names(b.body(), skip, names);
                }
            }
        }
        names.sort_by_key(|(pos, _)| *pos);
    }
}

/// The binder of one program.
pub(crate) struct ProgramBinder<'a, 's> {
    pub shared: &'a Shared<'s>,
    pub dir: String,
    pub depth: usize,
    pub files: Rc<Vec<ParsedFile>>,
    /// One per node, by id.
    pub decls: Vec<Decl>,
    pub scope: Scope,
    /// One per declaration, by id: made when the name is declared (its
    /// `ty` the provisional type references see until it is bound, its
    /// kind a placeholder), completed by [`ProgramBinder::finish_node`].
    pub nodes: Vec<Node>,
    /// At most 1,000 per file (see [`DiagnosticList`]).
    pub diags: DiagnosticList,
    pub expr_options: pcl_expr::ExprOptions,
    /// The types of the well-formed type labels met so far, by label text
    /// (output labels, then config labels): configs declared with the same
    /// label share one type, so its `InputType` is built once.
    pub label_types: [crate::schema_types::FastMap<String, Type>; 2],
    /// The top-level items that hold a syntax error (by file, sorted):
    /// the parser could not read them whole, so what binding them finds
    /// (undefined names, cycles, missing attributes) only follows from that
    /// error and is not reported (one mistake, one diagnostic).
    pub incomplete: Vec<(FileId, TextRange)>,
    /// How many of `diags` are the files' syntax diagnostics (they come
    /// first and are always kept).
    pub syntax_diags: usize,
    /// The names defined for misspelt declaring blocks (`resorce b …`):
    /// the label's span and the index of the block's `unknown-block-type`
    /// warning in `diags` (`None` when the file's limit dropped it), made
    /// an error when the name is used (the reference then fails with
    /// `undefined variable`; the verdict stays).
    pub misspelt: HashMap<Span, Option<usize>>,
    /// By node id, when one file is checked alone: whether the node's
    /// syntax names something only a sibling file declares (see
    /// [`ProgramBinder::demote_sibling_dependent`]).
    pub uses_siblings: Vec<bool>,
    /// Whether a circular reference was found (reported or not).
    pub cycles: bool,
    /// The descriptors of the program's `package` blocks that were
    /// registered, in order.
    pub package_blocks: Vec<pcl_schema::PackageDescriptor>,
}

/// Binds the program made of `files` (`(name, text)`) in directory `dir`.
pub(crate) fn bind_program(
    shared: &Shared<'_>,
    sources: &mut SourceMap,
    files: &[(String, String)],
    dir: &str,
    depth: usize,
) -> (Program, DiagnosticList) {
    let mut diags = DiagnosticList::new();
    // Sized exactly: a `ParsedFile` holds its parse inline (about 550
    // bytes), and growing by doubling would hold up to twice that per
    // file for programs of many small files.
    let mut parsed: Vec<ParsedFile> = Vec::with_capacity(files.len());
    // Files by name, so that file ids (and with them the order of the
    // diagnostics and of everything below, package blocks first) do not
    // depend on the order the files were given in. (Deliberate difference:
    // the reference reads package blocks in the given order, so which of two
    // conflicting blocks it reports depends on that order.)
    let mut files: Vec<&(String, String)> = files.iter().collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, text) in files {
        // One copy of the text, shared by the source map (for
        // diagnostics) and the parse (for its tree).
        let shared: std::sync::Arc<str> = std::sync::Arc::from(text.as_str());
        let id = sources.add(name.clone(), std::sync::Arc::clone(&shared));
        let mut parse = pcl_syntax::parse(id, shared);
        // Moved, not cloned: nothing reads a file's parse diagnostics
        // after this, and a file of errors would hold them twice.
        diags.append(parse.take_diagnostics());
        parsed.push(ParsedFile {
            id,
            name: name.clone(),
            parse,
        });
    }
    let incomplete = incomplete_items(&parsed, &diags);
    let syntax_diags = diags.len();
    // What is found later inside an item a syntax error left incomplete
    // only follows from that error: not reported, and not counted as a
    // problem the per-file limit leaves out.
    diags.quiet_within(incomplete.clone());
    let mut seen: HashMap<String, Span> = HashMap::new();
    let mut package_blocks = Vec::new();
    for file in &parsed {
        let mut found = Vec::new();
        let descriptors = read_package_blocks(file.id, file.body(), &mut found);
        diags.extend(found);
        for (name, (desc, range)) in descriptors {
            if !shared.schemas.add_descriptor(desc.clone()) {
                let mut d = Diagnostic::error(
                    codes::DUPLICATE_PACKAGE,
                    Span::new(file.id, range),
                    format!("package \"{name}\" was already defined with different parameters"),
                );
                if let Some(prior) = seen.get(&name) {
                    d = d.with_related(*prior, "the other definition");
                }
                diags.push(d);
            } else {
                package_blocks.push(desc);
                seen.entry(name).or_insert(Span::new(file.id, range));
            }
        }
    }
    let mut binder = ProgramBinder {
        shared,
        dir: dir.to_string(),
        depth,
        files: Rc::new(parsed),
        decls: Vec::new(),
        scope: Scope::root(),
        nodes: Vec::new(),
        diags,
        expr_options: shared.policy.expr_options(),
        label_types: Default::default(),
        incomplete,
        syntax_diags,
        misspelt: HashMap::new(),
        uses_siblings: Vec::new(),
        cycles: false,
        package_blocks,
    };
    binder.declare_all();
    binder.shadow_sibling_definitions();
    binder.compute_dependencies();
    // The order of the finished program depends only on the declarations
    // and their dependencies: computed before binding, its working memory
    // is gone before the bound trees take theirs.
    let order = binder.linear_order();
    for idx in binder.binding_order() {
        binder.bind_node(sources, idx as usize);
    }
    binder.demote_sibling_dependent();
    binder.finish(order)
}

fn label_span(block: BlockRef<'_>) -> TextRange {
    let labels = block.labels();
    match (labels.first(), labels.last()) {
        (Some(first), Some(last)) => first.range().cover(last.range()),
        _ => block.type_range(),
    }
}

/// Whether a top-level item can declare a node (see `declare_item`).
fn may_declare(item: &ItemRef<'_>) -> bool {
    item.as_block().is_none_or(|b| {
        matches!(
            b.type_name(),
            "resource" | "read" | "config" | "output" | "component" | "hook" | "pulumi"
        )
    })
}

impl ProgramBinder<'_, '_> {
    pub fn policy(&self) -> &BindPolicy {
        &self.shared.policy
    }

    // ----- declaration --------------------------------------------------------

    fn declare_all(&mut self) {
        let files = self.files.clone();
        // Every attribute and every block of a declaring type declares at
        // most one node (blocks of other types none).
        let items: usize = files
            .iter()
            .map(|f| f.body().items().iter().filter(may_declare).count())
            .sum();
        self.decls.reserve_exact(items);
        self.nodes.reserve_exact(items);
        self.scope.reserve(items);
        for (file_idx, file) in files.iter().enumerate() {
            for pass_a in [true, false] {
                for (item_idx, item) in file.body().items().iter().enumerate() {
                    let is_resource = item
                        .as_block()
                        .is_some_and(|b| matches!(b.type_name(), "resource" | "read"));
                    if is_resource != pass_a {
                        continue;
                    }
                    self.declare_item(file.id, file_idx, item_idx, item);
                }
            }
        }
        for file in files.iter() {
            for block in file.body().blocks() {
                if self.is_incomplete(Span::new(file.id, block.range())) {
                    self.declare_swallowed(file.id, block);
                }
            }
        }
    }

    /// After a block whose `}` is missing, the parser reads the blocks that
    /// follow as nested in it. Their names (resources, configs, outputs, …)
    /// are defined as `dynamic` variables, so other files using them do not
    /// get a cascade of undefined variables: the syntax error is the one
    /// diagnostic. Iterative, so nesting depth is no concern.
    fn declare_swallowed(&mut self, file: FileId, block: BlockRef<'_>) {
        let mut stack: Vec<BlockRef<'_>> = block.body().blocks().collect();
        while let Some(b) = stack.pop() {
            stack.extend(b.body().blocks());
            let kind = b.type_name();
            if !matches!(
                kind,
                "resource" | "read" | "config" | "output" | "component"
            ) {
                continue;
            }
            let Some(label) = b.labels().first() else {
                continue;
            };
            let name = label.value().to_owned();
            if self.scope.lookup(&name).is_some() {
                continue;
            }
            let def = Definition::declared_variable(
                name.clone(),
                Type::dynamic(),
                Some(Span::new(file, label.range())),
            );
            let _ = self.scope.define(name, def, kind == "output");
        }
    }

    pub(crate) fn declare_item(
        &mut self,
        file: FileId,
        file_idx: usize,
        item_idx: usize,
        item: ItemRef<'_>,
    ) {
        let span = |r: TextRange| Span::new(file, r);
        let (kind, name, name_range) = match item.kind() {
            Item::Attribute(attr) => (DeclKind::Local, attr.name().to_string(), attr.name_range()),
            Item::Block(block) => {
                let labels = block.labels();
                let label_error = |this: &mut Self, msg: &str| {
                    this.diags.push(Diagnostic::error(
                        codes::BLOCK_LABELS,
                        span(label_span(block)),
                        msg.to_string(),
                    ));
                };
                match block.type_name() {
                    t @ ("resource" | "read") => {
                        let kind = if t == "resource" {
                            DeclKind::Resource
                        } else {
                            DeclKind::Read
                        };
                        if labels.len() != 2 {
                            label_error(
                                self,
                                &format!("{t} variables must have exactly two labels"),
                            );
                        }
                        // With one label the resource is still declared (its
                        // type is dynamic, see below), so references to it
                        // are not a cascade of undefined names.
                        match labels.first() {
                            Some(first) => (kind, first.value().to_owned(), first.range()),
                            None => return,
                        }
                    }
                    t @ ("config" | "output") => {
                        let kind = if t == "config" {
                            DeclKind::Config
                        } else {
                            DeclKind::Output
                        };
                        if labels.is_empty() || labels.len() > 2 {
                            label_error(
                                self,
                                &format!("{t} variables must have exactly one or two labels"),
                            );
                        }
                        match labels.first() {
                            Some(first) => (kind, first.value().to_owned(), first.range()),
                            None => return,
                        }
                    }
                    "component" => {
                        if labels.is_empty() || labels.len() > 2 {
                            label_error(self, "components must have one or two labels");
                        }
                        match labels.first() {
                            Some(first) => {
                                (DeclKind::Component, first.value().to_owned(), first.range())
                            }
                            None => return,
                        }
                    }
                    "hook" => {
                        let (Some(kind_label), Some(name_label), 2) =
                            (labels.first(), labels.get(1), labels.len())
                        else {
                            label_error(
                                self,
                                "hook blocks must have exactly two labels: a kind (`resource` or `error`) and a name",
                            );
                            return;
                        };
                        let kind = match kind_label.value() {
                            "resource" => HookKind::Resource,
                            "error" => HookKind::Error,
                            other => {
                                self.diags.push(Diagnostic::error(
                                    codes::INVALID_HOOK_KIND,
                                    span(label_span(block)),
                                    format!("invalid hook kind `{other}`: must be `resource` or `error`"),
                                ));
                                return;
                            }
                        };
                        (
                            DeclKind::Hook(kind),
                            name_label.value().to_owned(),
                            name_label.range(),
                        )
                    }
                    "pulumi" => {
                        if !labels.is_empty() {
                            label_error(self, "pulumi block must not have any labels");
                        }
                        (DeclKind::Pulumi, "pulumi".to_string(), block.type_range())
                    }
                    "package" => return,
                    _ => {
                        self.unknown_block(file, block);
                        return;
                    }
                }
            }
        };
        let id = self.decls.len();
        let is_output = kind == DeclKind::Output;
        let def = Definition::Node(pcl_expr::NodeId(id as u32));
        let name = SmolStr::from(name);
        if let Err(existing) = self.scope.define(name.clone(), def, is_output) {
            // Two attributes of one file's body: pcl_syntax has reported
            // `duplicate-attribute` (the reference's parser drops the second
            // one, so its binder never sees it); one problem, one diagnostic.
            if let Definition::Node(prev) = existing {
                let prev = self.decls.get(prev.0 as usize);
                if kind == DeclKind::Local
                    && prev.is_some_and(|p| {
                        p.kind == DeclKind::Local && p.file_idx as usize == file_idx
                    })
                {
                    return;
                }
            }
            let mut d = Diagnostic::error(
                codes::DUPLICATE_DECLARATION,
                span(name_range),
                format!("\"{name}\" already declared"),
            );
            if let Definition::Node(prev) = existing {
                if let Some(prev) = self.nodes.get(prev.0 as usize) {
                    d = d.with_related(prev.name_span, "first declared here");
                }
            } else {
                d = d.with_help(format!("`{name}` is a reserved name"));
            }
            self.diags.push(d);
            return;
        }
        self.decls.push(Decl {
            kind,
            file_idx: u32::try_from(file_idx).unwrap_or(u32::MAX),
            item_idx: u32::try_from(item_idx).unwrap_or(u32::MAX),
        });
        let has_token = item.as_block().is_some_and(|b| b.labels().len() >= 2);
        // The provisional types are the same for every resource (and every
        // read), so they are built once per process and shared.
        static RESOURCE: OnceLock<Type> = OnceLock::new();
        static READ: OnceLock<Type> = OnceLock::new();
        let provisional = match kind {
            DeclKind::Resource | DeclKind::Read if !has_token => Type::dynamic(),
            DeclKind::Resource => RESOURCE
                .get_or_init(|| {
                    Type::object([
                        ("id", Type::output(Type::id())),
                        ("urn", Type::output(Type::string())),
                    ])
                })
                .clone(),
            DeclKind::Read => READ
                .get_or_init(|| {
                    Type::object([
                        ("id", Type::output(Type::string())),
                        ("urn", Type::output(Type::string())),
                    ])
                })
                .clone(),
            _ => Type::dynamic(),
        };
        let ty = match (kind, item.as_block()) {
            (DeclKind::Config | DeclKind::Output, Some(block)) => {
                self.label_type(file, block, kind == DeclKind::Config)
            }
            _ => provisional,
        };
        self.nodes.push(Node {
            id: pcl_expr::NodeId(id as u32),
            name,
            // Until the node is bound (and for good when its syntax does
            // not match its kind).
            kind: NodeKind::Local(LocalNode { value: None }),
            span: span(item.range()),
            name_span: span(name_range),
            ty,
            dependencies: Box::default(),
            extra: None,
        });
    }

    /// Warns about a top-level block of a type PCL does not have (the
    /// reference ignores it silently, so `resorce b "…" {}` would make a
    /// resource vanish). When the type is a misspelt declaring block
    /// (`resorce`, `ouput`, `confg`, …) its first label is defined as a
    /// `dynamic` variable, so the uses of the name are not a cascade of
    /// undefined variables: one mistake, one diagnostic.
    fn unknown_block(&mut self, file: FileId, block: BlockRef<'_>) {
        let name = block.type_name();
        let span = Span::new(file, block.type_range());
        let found = pcl_expr::suggest::candidates(name, BLOCK_TYPES.iter().copied());
        let d = Diagnostic::warning(
            codes::UNKNOWN_BLOCK_TYPE,
            span,
            format!("unknown block type `{name}`"),
        )
        .with_detail("this block is ignored");
        let warning = self.diags.push(pcl_expr::suggest::attach(d, span, &found));
        let declares = found
            .first()
            .is_some_and(|t| matches!(*t, "resource" | "read" | "config" | "output" | "component"));
        if let (true, Some(label)) = (declares, block.labels().first()) {
            let is_output = found.first() == Some(&"output");
            let name = label.value().to_owned();
            let def = Definition::declared_variable(
                name.clone(),
                Type::dynamic(),
                Some(Span::new(file, label.range())),
            );
            if self.scope.lookup(&name).is_none() {
                let _ = self.scope.define(name, def, is_output);
                self.misspelt
                    .insert(Span::new(file, label.range()), warning);
            }
        }
    }

    /// The type of a config/output type label (diagnostics at the label).
    fn label_type(&mut self, file: FileId, block: BlockRef<'_>, config: bool) -> Type {
        let Some(label) = block.labels().get(1) else {
            return Type::dynamic();
        };
        // A label naming a primitive (`string`) binds to a type whose
        // `InputType` is built once per process already; only constructed
        // ones (`list(string)`, `object({…})`) are worth remembering.
        let constructed = label.value().contains('(');
        let known = self.label_types.get(usize::from(config));
        if let Some(ty) = known
            .filter(|_| constructed)
            .and_then(|m| m.get(label.value()))
        {
            return ty.clone();
        }
        let result = pcl_types::bind_type_label(label.value());
        let remember = constructed && result.diagnostics.is_empty();
        let label_range = label.range();
        let offset = if label.quoted() {
            label_range.start + 1
        } else {
            label_range.start
        };
        for mut d in result.diagnostics {
            // `d.range` is relative to the label; make it absolute here and
            // clear it, or `into_diagnostic` would add the offset again.
            let range = d
                .range
                .take()
                .map(|r| TextRange::new(r.start + offset, r.end + offset))
                .filter(|r| label_range.contains_range(*r) && !r.is_empty())
                .unwrap_or(label_range);
            let unknown = (d.code == pcl_expr::codes::UNDEFINED_VARIABLE)
                .then(|| d.summary.strip_prefix("undefined variable "))
                .flatten()
                .map(|quoted| quoted.trim_matches('`'));
            if let Some(name) = unknown {
                self.diags.push(unknown_type(Span::new(file, range), name));
                continue;
            }
            self.diags.push(d.into_diagnostic(Span::new(file, range)));
        }
        let ty = if config {
            pcl_types::label::config_type(&result.ty)
        } else {
            result.ty
        };
        if remember {
            if let Some(m) = self.label_types.get_mut(usize::from(config)) {
                m.insert(label.value().to_owned(), ty.clone());
            }
        }
        ty
    }

    // ----- dependencies and order -------------------------------------------

    fn compute_dependencies(&mut self) {
        let files = self.files.clone();
        let mut names: Vec<(u32, &str)> = Vec::new();
        let mut walk = deps::Walk::default();
        let mut used: Vec<(Span, Option<usize>)> = Vec::new();
        // `added[id]` is 1 + the index of the last declaration that took
        // node `id` as a dependency: de-duplication in constant time.
        let mut added: Vec<usize> = vec![0; self.decls.len()];
        let mut deps: Vec<pcl_expr::NodeId> = Vec::new();
        let siblings = self.shared.siblings.filter(|_| self.depth == 0);
        let mut uses_siblings = vec![
            false;
            if siblings.is_some() {
                self.decls.len()
            } else {
                0
            }
        ];
        for (decl_at, decl) in self.decls.iter().enumerate() {
            decl.names(&files, &mut walk, &mut names);
            deps.clear();
            let file_id = files.get(decl.file_idx as usize).map(|f| f.id);
            for &(pos, name) in &names {
                let found = self.scope.lookup(name);
                if let (Some(s), Some(file_id)) = (siblings, file_id) {
                    if !matches!(found, Some(Definition::Node(_))) && s.file_of(name).is_some() {
                        if let Some(t) = uses_siblings.get_mut(decl_at) {
                            *t = true;
                        }
                        // Also the uses a stand-in for an output's name
                        // resolves (see `shadow_sibling_definitions`).
                        let end = pos as usize + name.len();
                        let range = TextRange::from_usize(pos as usize..end);
                        self.shared
                            .sibling_uses
                            .record(s, name, Span::new(file_id, range));
                    }
                }
                match found {
                    Some(Definition::Node(id)) => {
                        if let Some(mark) = added.get_mut(id.0 as usize) {
                            if *mark != decl_at + 1 {
                                *mark = decl_at + 1;
                                deps.push(*id);
                            }
                        }
                    }
                    Some(Definition::Variable(v)) if !self.misspelt.is_empty() => {
                        if let Some(at) = v.range.as_ref() {
                            if let Some(&i) = self.misspelt.get(at) {
                                used.push((*at, i));
                            }
                        }
                    }
                    _ => {}
                }
            }
            if let Some(node) = self.nodes.get_mut(decl_at) {
                node.dependencies = deps.as_slice().into();
            }
        }
        self.uses_siblings = uses_siblings;
        // A warning the file's limit dropped is counted as an error now.
        used.sort_unstable();
        used.dedup();
        for (at, i) in used {
            let Some(i) = i else {
                let (from, to) = (Severity::Warning, Severity::Error);
                self.diags.reclassify_dropped(at.file, from, to);
                continue;
            };
            if let Some(d) = self.diags.get_mut(i) {
                if d.severity == Severity::Warning {
                    d.severity = Severity::Error;
                    d.set_detail(Some(
                        "this block is ignored, so the name it declares is undefined where it is used"
                            .into(),
                    ));
                }
            }
        }
    }

    /// The order nodes are bound in, with `circular reference` diagnostics.
    fn binding_order(&mut self) -> Vec<u32> {
        const ON_STACK: u8 = 1;
        const DONE: u8 = 2;
        const REPORTED: u8 = 4;
        const SELF_REF: u8 = 8;
        let n = self.decls.len();
        let mut order: Vec<u32> = Vec::with_capacity(n);
        // Per node: its walk state, whether its cycle was reported and
        // whether it depends on itself; and where it is on the stack
        // (with the stack's nodes alone in `path`): a back edge then costs
        // constant time, and a cycle is a slice of `path`.
        let mut flags: Vec<u8> = self
            .nodes
            .iter()
            .map(|node| {
                let own = node.id;
                if node.dependencies.contains(&own) {
                    SELF_REF
                } else {
                    0
                }
            })
            .collect();
        let mut at_depth: Vec<u32> = vec![0; n];
        let mut path: Vec<usize> = Vec::new();
        // The walk's stack, shared by every start.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let dep_of = |nodes: &[Node], node: usize, next: usize| {
            nodes
                .get(node)
                .and_then(|n| n.dependencies.get(next))
                .map(|id| id.0 as usize)
        };
        for start in 0..n {
            if flags.get(start).is_none_or(|f| f & (ON_STACK | DONE) != 0) {
                continue;
            }
            stack.clear();
            path.clear();
            stack.push((start, 0));
            path.push(start);
            if let Some(f) = flags.get_mut(start) {
                *f |= ON_STACK;
            }
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                match dep_of(&self.nodes, node, *next) {
                    Some(dep) => {
                        *next += 1;
                        let f = flags.get(dep).copied().unwrap_or(DONE);
                        if f & (ON_STACK | DONE) == 0 {
                            if let Some(f) = flags.get_mut(dep) {
                                *f |= ON_STACK;
                            }
                            if let Some(d) = at_depth.get_mut(dep) {
                                *d = u32::try_from(path.len()).unwrap_or(u32::MAX);
                            }
                            stack.push((dep, 0));
                            path.push(dep);
                        } else if f & ON_STACK != 0 {
                            let is_component = self
                                .decls
                                .get(dep)
                                .is_some_and(|d| d.kind == DeclKind::Component);
                            if is_component && f & SELF_REF == 0 {
                                continue;
                            }
                            if f & REPORTED == 0 {
                                if let Some(f) = flags.get_mut(dep) {
                                    *f |= REPORTED;
                                }
                                let pos = at_depth.get(dep).map_or(0, |d| *d as usize);
                                match path.get(pos..) {
                                    Some(cycle) if cycle.first() == Some(&dep) => {
                                        self.report_cycle(dep, cycle)
                                    }
                                    _ => self.report_cycle(dep, &[dep]),
                                }
                            }
                        }
                    }
                    None => {
                        stack.pop();
                        path.pop();
                        if let Some(f) = flags.get_mut(node) {
                            *f = (*f & !ON_STACK) | DONE;
                        }
                        order.push(u32::try_from(node).unwrap_or(u32::MAX));
                    }
                }
            }
        }
        order
    }

    /// Reports the cycle `cycle` (declaration indices, in order) at `at`,
    /// with one related label per link, up to [`MAX_CYCLE_LINKS_SHOWN`].
    fn report_cycle(&mut self, at: usize, cycle: &[usize]) {
        self.cycles = true;
        // Until it is bound, a resource in a cycle is seen as `dynamic`, not
        // as its provisional `{id, urn}`: the cycle is the one problem, not
        // every property read along it.
        for i in cycle.iter().chain([&at]) {
            let is_resource = self
                .decls
                .get(*i)
                .is_some_and(|d| matches!(d.kind, DeclKind::Resource | DeclKind::Read));
            if is_resource {
                self.set_type(*i, Type::dynamic());
            }
        }
        let Some(decl) = self.nodes.get(at) else {
            return;
        };
        // A cycle through an item the parser could not read whole follows
        // from the syntax error.
        let broken = cycle
            .iter()
            .chain([&at])
            .filter_map(|i| self.nodes.get(*i))
            .any(|d| self.is_incomplete(d.span));
        if broken {
            return;
        }
        let mut d = Diagnostic::error(codes::CIRCULAR_REFERENCE, decl.span, "circular reference");
        if cycle.len() <= 1 {
            d = d.with_help(format!("`{}` refers to itself", decl.name));
        } else {
            // A long cycle is shown by its first links only, so the
            // report stays bounded (a cycle through 100 000 locals).
            let shown = cycle.len().min(MAX_CYCLE_LINKS_SHOWN);
            let mut names: Vec<String> = cycle
                .iter()
                .take(shown)
                .filter_map(|i| self.nodes.get(*i).map(|d| d.name.to_string()))
                .collect();
            if cycle.len() > shown {
                names.push(format!("… ({} more)", cycle.len() - shown));
            }
            names.extend(
                cycle
                    .first()
                    .and_then(|i| self.nodes.get(*i))
                    .map(|d| d.name.to_string()),
            );
            d = d.with_help(format!("the cycle is {}", names.join(" -> ")));
            for (pos, i) in cycle.iter().enumerate().take(shown) {
                let next = cycle.get(pos + 1).or(cycle.first()).copied().unwrap_or(*i);
                if let (Some(a), Some(b)) = (self.nodes.get(*i), self.nodes.get(next)) {
                    d = d.with_related(a.name_span, format!("`{}` refers to `{}`", a.name, b.name));
                }
            }
        }
        self.diags.push(d);
    }

    // ----- binding helpers ----------------------------------------------------

    /// Binds an expression in `scope`.
    pub fn bind(
        &self,
        file: FileId,
        expr: ExprRef<'_>,
        scope: &Scope,
    ) -> (BoundTree, Vec<Diagnostic>) {
        let env = EnvView {
            nodes: &self.nodes,
            decls: &self.decls,
            lenient_resources: self.shared.policy.skip_resource_typecheck,
            schemas: &self.shared.schemas,
            input_types: &self.shared.input_types,
            invokes: &self.shared.invokes,
            siblings: self
                .shared
                .siblings
                .filter(|_| self.depth == 0)
                .map(|s| (s, &self.shared.sibling_uses)),
        };
        let mut cx = BindContext::new(file, &env, &self.expr_options);
        cx.set_reports_dropped(self.diags.is_full(file));
        cx.lend_literals(std::mem::take(&mut *self.shared.literals.borrow_mut()));
        let bound = bind_expr(expr, scope, &mut cx);
        *self.shared.literals.borrow_mut() = cx.take_literals();
        (bound, cx.take_diagnostics())
    }

    /// Checks `expr` against `dest`; diagnostics returned.
    pub fn check(&self, file: FileId, expr: &BoundTree, dest: &Type) -> Vec<Diagnostic> {
        let env = EnvView {
            nodes: &self.nodes,
            decls: &self.decls,
            lenient_resources: self.shared.policy.skip_resource_typecheck,
            schemas: &self.shared.schemas,
            input_types: &self.shared.input_types,
            invokes: &self.shared.invokes,
            siblings: self
                .shared
                .siblings
                .filter(|_| self.depth == 0)
                .map(|s| (s, &self.shared.sibling_uses)),
        };
        let mut cx = BindContext::new(file, &env, &self.expr_options);
        check_convertible(&mut cx, expr.root(), dest);
        cx.take_diagnostics()
    }

    /// `InputType(t)`, remembered for the whole check (and, for converted
    /// schema types, by the kept conversions).
    pub fn input_type(&self, t: &Type) -> Type {
        if let Some(kept) = self.shared.schemas.kept_input_type(t) {
            return kept;
        }
        self.shared.input_types.borrow_mut().input_type(t)
    }

    /// Checks a value assigned to a declared type (a config default, an
    /// output value, a resource option): `value` must convert to
    /// `InputType(declared)`. Failures are `type-not-convertible` at each
    /// offending element, naming `kind` and `name` (``option `aliases` ``)
    /// with the key path and plain types (see `pcl_expr::fit`).
    pub fn check_assignment(
        &self,
        file: FileId,
        value: &BoundTree,
        declared: &Type,
        kind: &str,
        name: &str,
    ) -> Vec<Diagnostic> {
        let dest = self.input_type(declared);
        let mut out = pcl_expr::fit::fit_diagnostics(
            &dest,
            value.root(),
            pcl_expr::fit::Subject {
                noun: kind,
                name,
                mismatch: pcl_expr::codes::TYPE_NOT_CONVERTIBLE,
            },
            &|r| Span::new(file, r),
        );
        // A value that converts (perhaps unsafely) may still be a constant
        // that never can: that is a warning of its own.
        if !out.iter().any(Diagnostic::is_error) {
            out.extend(pcl_expr::constant::never_converts(
                codes::CONSTANT_NEVER_CONVERTS,
                value.root(),
                declared,
                kind,
                name,
                &|r| Span::new(file, r),
            ));
        }
        out
    }

    /// Whether `span` lies in an item with a syntax error.
    pub fn is_incomplete(&self, span: Span) -> bool {
        within(&self.incomplete, span)
    }

    pub fn set_type(&mut self, idx: usize, ty: Type) {
        if let Some(node) = self.nodes.get_mut(idx) {
            node.ty = ty;
        }
    }

    pub fn node_type(&self, idx: usize) -> Type {
        self.nodes
            .get(idx)
            .map_or_else(Type::dynamic, |node| node.ty.clone())
    }

    /// The declared name of node `idx`.
    pub fn node_name(&self, idx: usize) -> &str {
        self.nodes.get(idx).map_or("", |node| node.name.as_str())
    }

    /// Builds the node record for a declaration.
    pub fn finish_node(&mut self, idx: usize, kind: NodeKind, logical_name: Option<String>) {
        let Some(decl) = self.decls.get(idx) else {
            return;
        };
        let (leading, trailing) = decl
            .item(&self.files)
            .map_or((Vec::new(), Vec::new()), |i| {
                (
                    i.leading_comments().iter().map(Comment::new).collect(),
                    i.trailing_comments().iter().map(Comment::new).collect(),
                )
            });
        let detached = self
            .files
            .get(decl.file_idx as usize)
            .map_or_else(Vec::new, |f| detached_comments(f, decl.item_idx as usize));
        if let Some(node) = self.nodes.get_mut(idx) {
            node.kind = kind;
            node.extra = NodeExtra {
                logical_name,
                leading_comments: leading,
                trailing_comments: trailing,
                detached_comments: detached,
            }
            .boxed();
        }
    }

    /// When one file is checked alone: a name the file declares only by
    /// an `output` block while a sibling declares it otherwise refers, in
    /// the directory, to the sibling's declaration (definitions come before
    /// outputs). It is defined here as a `dynamic` stand-in, so the output
    /// does not refer to itself (`output "port" { value = port }` beside
    /// `config "port" "int"` is no circular reference).
    fn shadow_sibling_definitions(&mut self) {
        let Some(siblings) = self.shared.siblings.filter(|_| self.depth == 0) else {
            return;
        };
        let outputs: Vec<SmolStr> = self
            .decls
            .iter()
            .zip(&self.nodes)
            .filter(|(d, _)| d.kind == DeclKind::Output)
            .map(|(_, n)| n.name.clone())
            .filter(|name| siblings.defines(name))
            .collect();
        for name in outputs {
            let only_output = matches!(self.scope.lookup(&name), Some(Definition::Node(id)) if self.decls.get(id.0 as usize).is_some_and(|d| d.kind == DeclKind::Output));
            if only_output {
                let def = Definition::declared_variable(name.to_string(), Type::dynamic(), None);
                let _ = self.scope.define(name, def, false);
            }
        }
    }

    /// When one file is checked alone, names its siblings declare are
    /// `dynamic` stand-ins, and a stand-in can make an error the directory
    /// does not have (`files != null ? files : [{ … }]` is a union with
    /// `dynamic`, which `range` cannot iterate). So an error inside a node
    /// that uses such a name, directly or through other nodes of the file,
    /// is a warning here, its detail saying why: checking one file alone
    /// never fails where checking its directory passes.
    fn demote_sibling_dependent(&mut self) {
        if !self.uses_siblings.iter().any(|t| *t) {
            return;
        }
        // Taint flows from a node to the nodes depending on it.
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for (at, node) in self.nodes.iter().enumerate() {
            for dep in node.dependencies.iter() {
                if let Some(list) = dependents.get_mut(dep.0 as usize) {
                    list.push(at);
                }
            }
        }
        let mut tainted = self.uses_siblings.clone();
        let mut work: Vec<usize> = (0..tainted.len())
            .filter(|i| tainted.get(*i) == Some(&true))
            .collect();
        while let Some(at) = work.pop() {
            for &next in dependents.get(at).map_or(&[][..], Vec::as_slice) {
                if let Some(t) = tainted.get_mut(next) {
                    if !*t {
                        *t = true;
                        work.push(next);
                    }
                }
            }
        }
        let files = self.files.clone();
        let mut ranges: Vec<(FileId, TextRange)> = self
            .decls
            .iter()
            .zip(&tainted)
            .filter(|(_, t)| **t)
            .filter_map(|(d, _)| {
                let file = files.get(d.file_idx as usize)?;
                Some((file.id, d.item(&files)?.range()))
            })
            .collect();
        ranges.sort_unstable_by_key(|(f, r)| (*f, r.start, r.end));
        let syntax = self.syntax_diags;
        for d in self.diags.iter_mut().skip(syntax) {
            // What does not follow from types is the directory's too: a
            // name no file declares, an unknown function, an attribute the
            // schema or component does not have or requires.
            let type_dependent = ![
                pcl_expr::codes::UNDEFINED_VARIABLE,
                pcl_expr::codes::UNKNOWN_FUNCTION,
                codes::UNSUPPORTED_ATTRIBUTE,
                codes::MISSING_REQUIRED_ATTRIBUTE,
                codes::UNKNOWN_RESOURCE_TYPE,
                codes::UNKNOWN_PACKAGE,
            ]
            .contains(&d.code);
            if d.severity == Severity::Error && type_dependent && within(&ranges, d.span) {
                d.severity = Severity::Warning;
                let why = "this depends on names other files of the directory declare, which are not checked here: check the directory to decide";
                let detail = match d.detail() {
                    Some(old) => format!("{old}; {why}"),
                    None => why.to_string(),
                };
                d.set_detail(Some(detail));
            }
        }
    }

    pub(crate) fn bind_node(&mut self, sources: &mut SourceMap, idx: usize) {
        let Some(decl) = self.decls.get(idx) else {
            return;
        };
        let kind = decl.kind;
        let files = self.files.clone();
        let Some(file) = files.get(decl.file_idx as usize) else {
            return;
        };
        let Some(item) = file.body().items().get(decl.item_idx as usize) else {
            return;
        };
        match (kind, item.kind()) {
            (DeclKind::Local, Item::Attribute(attr)) => self.bind_local(idx, file.id, attr),
            (DeclKind::Config, Item::Block(b)) => self.bind_config(idx, file.id, b),
            (DeclKind::Output, Item::Block(b)) => self.bind_output(idx, file.id, b),
            (DeclKind::Resource, Item::Block(b)) => self.bind_resource(idx, file.id, b, false),
            (DeclKind::Read, Item::Block(b)) => self.bind_resource(idx, file.id, b, true),
            (DeclKind::Component, Item::Block(b)) => self.bind_component(sources, idx, file.id, b),
            (DeclKind::Hook(k), Item::Block(b)) => self.bind_hook(idx, file.id, b, k),
            (DeclKind::Pulumi, Item::Block(b)) => self.bind_pulumi(idx, file.id, b),
            _ => {}
        }
    }

    /// The deterministic topological order of the program
    /// ([`Program::order`]).
    fn linear_order(&self) -> Vec<pcl_expr::NodeId> {
        let graph = DeclGraph {
            decls: &self.decls,
            nodes: &self.nodes,
        };
        linearize(&graph)
            .into_iter()
            .map(pcl_expr::NodeId)
            .collect()
    }

    fn finish(self, order: Vec<pcl_expr::NodeId>) -> (Program, DiagnosticList) {
        let incremental = crate::incremental::State::of(&self);
        let ProgramBinder {
            files,
            nodes,
            mut diags,
            dir,
            shared,
            ..
        } = self;
        let program = Program {
            nodes,
            order,
            packages: shared.schemas.used_packages(),
            files: files
                .iter()
                .map(|f| ProgramFile {
                    id: f.id,
                    name: f.name.clone(),
                })
                .collect(),
            directory: dir,
            incremental,
        };
        diags.retain(|d| d.severity != Severity::Note || !d.summary.is_empty());
        (program, diags)
    }
}

/// The declarations as [`linearize`] sees them: files in name order (the
/// binder's file order), positions, dependencies.
struct DeclGraph<'a> {
    decls: &'a [Decl],
    nodes: &'a [Node],
}

impl OrderGraph for DeclGraph<'_> {
    fn len(&self) -> usize {
        self.decls.len()
    }

    fn file(&self, node: usize) -> u32 {
        self.decls.get(node).map_or(0, |d| d.file_idx)
    }

    fn position(&self, node: usize) -> u32 {
        self.nodes.get(node).map_or(0, |n| n.span.range.start)
    }

    fn deps(&self, node: usize) -> &[pcl_expr::NodeId] {
        self.nodes.get(node).map_or(&[], |n| &n.dependencies)
    }
}

/// The top-level items of `files` that hold a syntax error of `diags`,
/// sorted by file and position. Linear in the items and errors (plus
/// sorting the errors).
fn incomplete_items(files: &[ParsedFile], diags: &[Diagnostic]) -> Vec<(FileId, TextRange)> {
    let mut errors: Vec<(FileId, u32)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.span.file, d.span.range.start))
        .collect();
    if errors.is_empty() {
        return Vec::new();
    }
    errors.sort_unstable();
    let mut out = Vec::new();
    for file in files {
        for item in file.body().items() {
            let r = item.range();
            let from = errors.partition_point(|e| *e < (file.id, r.start));
            if errors
                .get(from)
                .is_some_and(|&(f, at)| f == file.id && at <= r.end)
            {
                out.push((file.id, r));
            }
        }
    }
    out.sort_unstable_by_key(|(f, r)| (*f, r.start, r.end));
    out
}

/// Whether `span` starts inside one of `items` (sorted, not overlapping).
fn within(items: &[(FileId, TextRange)], span: Span) -> bool {
    let at = (span.file, span.range.start);
    let after = items.partition_point(|(f, r)| (*f, r.start) <= at);
    after
        .checked_sub(1)
        .and_then(|i| items.get(i))
        .is_some_and(|(f, r)| *f == span.file && span.range.start <= r.end)
}

/// The block types of a PCL program, for did-you-mean.
const BLOCK_TYPES: &[&str] = &[
    "resource",
    "read",
    "config",
    "output",
    "component",
    "hook",
    "pulumi",
    "package",
];

/// The type keywords a type label may name.
const TYPE_KEYWORDS: &[&str] = &[
    "string", "number", "int", "bool", "any", "list", "map", "set", "object", "tuple",
];

/// `unknown-type` for the name `name` of a type label, at `span`.
fn unknown_type(span: Span, name: &str) -> Diagnostic {
    let d = Diagnostic::error(
        codes::UNKNOWN_TYPE,
        span,
        format!("unknown type `{name}`"),
    )
    .with_detail(
        "a type is `string`, `number`, `int`, `bool` or `any`, or built with `list(…)`, `map(…)`, `set(…)`, `object({…})` or `tuple([…])`",
    );
    let found = pcl_expr::suggest::candidates(name, TYPE_KEYWORDS.iter().copied());
    pcl_expr::suggest::attach(d, span, &found)
}

/// Turns every error into a warning (SkipResourceTypechecking on a body).
/// The dangling comments of `file`'s body between the end of item
/// `item_idx - 1` (or the file's start) and item `item_idx`'s leading
/// comments (or the item), each marked when a blank line comes before it.
/// A binary search finds the first: a file of many items and dangling
/// comments costs time linear in them, not their product.
fn detached_comments(file: &ParsedFile, item_idx: usize) -> Vec<Comment> {
    let body = file.body();
    let items = body.items();
    let Some(item) = items.get(item_idx) else {
        return Vec::new();
    };
    let end = item
        .leading_comments()
        .get(0)
        .map_or(item.range().start, |c| c.range().start);
    let start = item_idx
        .checked_sub(1)
        .and_then(|i| items.get(i))
        .map_or(0, |p| p.range().end);
    let dangling = body.dangling_comments();
    let (mut lo, mut hi) = (0, dangling.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if dangling.get(mid).is_some_and(|c| c.range().start < start) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let text = file.parse.text();
    let mut out: Vec<Comment> = Vec::new();
    let mut i = lo;
    while let Some(c) = dangling.get(i) {
        if c.range().start >= end {
            break;
        }
        let mut comment = Comment::new(c);
        comment.blank_line_before = out.last().is_some_and(|prev: &Comment| {
            text.get(prev.range.end as usize..c.range().start as usize)
                .is_some_and(|gap| gap.matches('\n').count() >= 2)
        });
        out.push(comment);
        i += 1;
    }
    out
}

pub(crate) fn downgrade(diags: &mut [Diagnostic]) {
    for d in diags {
        if d.severity == Severity::Error {
            d.severity = Severity::Warning;
        }
    }
}
