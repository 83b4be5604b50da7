//! Re-checking a program after an edit inside one declaration, without
//! parsing or binding anything else ([`crate::recheck_edit`]).
//!
//! A check made for it ([`crate::check_program_for_edits`]) leaves, in the
//! [`Program`], what re-binding one declaration needs ([`State`]: the root scope and the kind of every
//! declaration), when the program allows it: no syntax error, no
//! misspelt declaring block, no circular reference, not one file checked
//! alone. An edit is then re-checked this way only when all of these hold,
//! and otherwise the caller checks the whole program:
//! - the edited bytes (the common prefix and suffix of the old and new
//!   text set them apart) lie inside one declaration, not a component;
//! - its old text and its new text each parse alone, without a
//!   diagnostic, as exactly one item spanning the text, with the same
//!   header (block type and labels, or attribute name, at the same
//!   places): the declarations of the program do not change;
//! - binding the old text alone gives back exactly the node of the check
//!   (so binding it alone is binding it in its file), and binding either
//!   text uses the same packages in the same order (so the program's
//!   packages, in first-use order, do not change; the descriptors of its
//!   `package` blocks, kept from the check, are registered first);
//! - the new node has the dependencies of the old one (so the binding
//!   order does not change), and its type unless no other node refers to
//!   it (so no other node changes), and its diagnostics name no other
//!   place.
//!
//! The node is replaced; the nodes and diagnostics after the edit move
//! by its length change (a linear pass, nothing re-bound); the
//! diagnostics binding the old text gave are replaced by those of the
//! new. The result is what a full check of the new text gives; the
//! `incremental` tests compare the two on the corpus and on generated
//! programs under many edits.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, DiagnosticList, FileId, SourceMap, Span, TextEdit, TextRange};
use pcl_expr::{Definition, NodeId, Scope};
use pcl_syntax::tree::{Item, ItemRef};
use pcl_syntax::Parse;

use crate::model::{Checked, Node, NodeExtra, Program};
use crate::program::{Decl, DeclKind, ParsedFile, ProgramBinder, Shared};

/// Why an edit was checked in full rather than re-bound alone.
pub type Fallback = &'static str;

/// What [`crate::recheck_edit`] did.
#[derive(Debug)]
pub enum Recheck {
    /// The edited declaration was re-bound: the check of the new text.
    Rebound(Checked<Program>),
    /// The edit needs a full check: the previous check, untouched, and why.
    Full(Checked<Program>, Fallback),
}

/// What re-binding one declaration needs of a check.
pub(crate) struct State {
    /// The root scope: every declared name.
    scope: Scope,
    /// The kind of each declaration, by node id.
    kinds: Vec<DeclKind>,
    /// The descriptors of the program's `package` blocks, registered
    /// again before a re-binding.
    package_blocks: Vec<pcl_schema::PackageDescriptor>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "State({} declarations)", self.kinds.len())
    }
}

impl State {
    /// The state of a finished binding, when its program can be re-bound
    /// one declaration at a time.
    pub(crate) fn of(b: &ProgramBinder<'_, '_>) -> Option<Arc<State>> {
        let eligible = b.shared.for_edits
            && b.depth == 0
            && b.shared.siblings.is_none()
            && b.incomplete.is_empty()
            && b.misspelt.is_empty()
            && !b.cycles
            && b.decls.len() == b.nodes.len();
        eligible.then(|| {
            Arc::new(State {
                scope: b.scope.clone(),
                kinds: b.decls.iter().map(|d| d.kind).collect(),
                package_blocks: b.package_blocks.clone(),
            })
        })
    }
}

/// The re-bound declaration, before anything of the program changed.
struct Rebound {
    at: usize,
    node: Node,
    /// What binding the declaration's old text gives (in the old text).
    old_diagnostics: Vec<Diagnostic>,
    /// What binding its new text gives (in the new text).
    diagnostics: Vec<Diagnostic>,
    edit: TextEdit,
    /// The end of the old declaration: what starts there or later moves.
    old_end: u32,
}

/// Re-checks `previous` with file `file`'s text replaced by `text` (see
/// the module docs); gives `previous` back, untouched, with the reason,
/// when the edit needs a full check.
pub(crate) fn recheck(
    previous: Checked<Program>,
    file: FileId,
    text: &str,
    shared: &Shared<'_>,
) -> Recheck {
    let (mut program, mut sources, diagnostics) = previous.into_parts();
    if sources.get(file).is_some_and(|f| f.text() == text) {
        return Recheck::Rebound(Checked::new(program, sources, diagnostics));
    }
    let mut nodes = std::mem::take(&mut program.nodes);
    let planned = rebind(&mut nodes, &program, &sources, file, text, shared)
        .and_then(|r| Ok((replace_diagnostics(&diagnostics, &r)?, r)));
    let (diagnostics, rebound) = match planned {
        Ok(done) => done,
        Err(why) => {
            program.nodes = nodes;
            return Recheck::Full(Checked::new(program, sources, diagnostics), why);
        }
    };
    // Nothing below fails: the program changes now.
    let delta = rebound.edit.delta();
    for node in &mut nodes {
        if node.span.file == file && node.span.range.start >= rebound.old_end {
            node.shift(delta);
        }
    }
    if let Some(slot) = nodes.get_mut(rebound.at) {
        *slot = rebound.node;
    }
    program.nodes = nodes;
    sources.replace_text(file, text);
    Recheck::Rebound(Checked::new(program, sources, diagnostics))
}

/// The diagnostics of the new text: those of the old one less what
/// binding the declaration's old text gave, moved past the edit, plus
/// what binding its new text gives, in the order of a full check.
fn replace_diagnostics(old: &[Diagnostic], r: &Rebound) -> Result<Vec<Diagnostic>, Fallback> {
    let file = r.edit.file;
    let in_file = old.iter().filter(|d| d.span.file == file).count();
    if in_file + r.diagnostics.len() + 1 >= pcl_diagnostics::MAX_DIAGNOSTICS_PER_FILE
        || old
            .iter()
            .any(|d| d.code == pcl_diagnostics::TOO_MANY_DIAGNOSTICS)
    {
        return Err("the file is near its limit of diagnostics");
    }
    let mut out: Vec<Diagnostic> = Vec::with_capacity(old.len() + r.diagnostics.len());
    let mut removed = 0usize;
    let mut remove: HashMap<&Diagnostic, usize> = HashMap::new();
    for d in &r.old_diagnostics {
        *remove.entry(d).or_default() += 1;
    }
    for d in old {
        if let Some(n) = remove.get_mut(d).filter(|n| **n > 0) {
            *n -= 1;
            removed += 1;
            continue;
        }
        let mut d = d.clone();
        if !d.map_spans(&mut |s| r.edit.map_span(s)) {
            return Err("a diagnostic lies in the edited text");
        }
        out.push(d);
    }
    if removed != r.old_diagnostics.len() {
        return Err("the old declaration's diagnostics are not the check's");
    }
    out.extend(r.diagnostics.iter().cloned());
    pcl_diagnostics::sort_and_dedup(&mut out);
    Ok(out)
}

/// Finds the declaration holding the edit and binds its old and new text
/// alone (see the module docs). `nodes` is left as it was.
fn rebind(
    nodes: &mut Vec<Node>,
    program: &Program,
    sources: &SourceMap,
    file: FileId,
    text: &str,
    shared: &Shared<'_>,
) -> Result<Rebound, Fallback> {
    let state = program
        .incremental
        .as_ref()
        .ok_or("the program cannot be re-bound in part")?;
    if state.kinds.len() != nodes.len() {
        return Err("the program cannot be re-bound in part");
    }
    let source = sources.get(file).ok_or("no such file")?;
    let old = source.text();
    if u32::try_from(text.len()).is_err() {
        return Err("the text is too long");
    }
    let (prefix, suffix) = common_ends(old.as_bytes(), text.as_bytes());
    let (old_edit_end, new_edit_end) = (old.len() - suffix, text.len() - suffix);
    let at = nodes
        .iter()
        .position(|n| {
            n.span.file == file
                && n.span.range.start as usize <= prefix
                && old_edit_end <= n.span.range.end as usize
        })
        .ok_or("the edit is not inside one declaration")?;
    let kind = state.kinds.get(at).copied().ok_or("no such declaration")?;
    if kind == DeclKind::Component {
        return Err("components are checked whole");
    }
    let previous = nodes.get(at).ok_or("no such declaration")?;
    let (start, end) = (
        previous.span.range.start as usize,
        previous.span.range.end as usize,
    );
    let edit = TextEdit {
        file,
        start: u32::try_from(prefix).map_err(|_| "the text is too long")?,
        old_end: u32::try_from(old_edit_end).map_err(|_| "the text is too long")?,
        new_end: u32::try_from(new_edit_end).map_err(|_| "the text is too long")?,
    };
    let delta = edit.delta();
    let new_end = usize::try_from(i64::try_from(end).unwrap_or(i64::MAX) + delta)
        .map_err(|_| "the declaration's end moved out of the text")?;
    let old_text = old.get(start..end).ok_or("not a declaration's text")?;
    let new_text = text.get(start..new_end).ok_or("not a declaration's text")?;
    let old_parse = fragment(file, old_text)?;
    let new_parse = fragment(file, new_text)?;
    if header(&old_parse) != header(&new_parse) {
        return Err("the declaration's header changed");
    }
    let offset = i64::try_from(start).map_err(|_| "the text is too long")?;
    let mut binder = ProgramBinder {
        shared,
        dir: String::new(),
        depth: 0,
        files: Rc::new(Vec::new()),
        decls: state
            .kinds
            .iter()
            .map(|kind| Decl {
                kind: *kind,
                file_idx: u32::MAX,
                item_idx: u32::MAX,
            })
            .collect(),
        scope: state.scope.clone(),
        nodes: std::mem::take(nodes),
        diags: DiagnosticList::new(),
        expr_options: shared.policy.expr_options(),
        label_types: Default::default(),
        incomplete: Vec::new(),
        syntax_diags: 0,
        misspelt: HashMap::new(),
        uses_siblings: Vec::new(),
        cycles: false,
        package_blocks: Vec::new(),
    };
    for descriptor in &state.package_blocks {
        shared.schemas.add_descriptor(descriptor.clone());
    }
    let name = source.name().to_string();
    let _ = shared.schemas.take_used_packages();
    let old_bound = binder.rebind_one(at, file, &name, old_parse);
    let old_used = shared.schemas.take_used_packages();
    let new_bound = binder.rebind_one(at, file, &name, new_parse);
    let new_used = shared.schemas.take_used_packages();
    *nodes = std::mem::take(&mut binder.nodes);
    let previous = nodes.get(at).ok_or("no such declaration")?;
    let (mut old_node, old_diagnostics) = old_bound?;
    let (mut new_node, diagnostics) = new_bound?;
    // The program's packages are in first-use order: the same when the
    // declaration uses the same ones in the same order.
    if old_used != new_used {
        return Err("the declaration uses other packages");
    }
    // Binding the old text alone gives the check's node back.
    old_node.shift(offset);
    in_context(&mut old_node, previous, 0);
    if format!("{old_node:?}") != format!("{previous:?}") {
        return Err("the declaration binds differently alone");
    }
    if new_node.dependencies != previous.dependencies {
        return Err("the declaration's dependencies changed");
    }
    // A new type is seen by the nodes that refer to this one (their
    // bound references hold it): none may.
    if new_node.ty != previous.ty {
        let id = previous.id;
        if nodes.iter().any(|n| n.dependencies.contains(&id)) {
            return Err("the declaration's type changed and other declarations refer to it");
        }
    }
    new_node.shift(offset);
    in_context(&mut new_node, previous, delta);
    let place = |diags: Vec<Diagnostic>, text: &str| {
        let mut out = Vec::with_capacity(diags.len());
        for mut d in diags {
            if !d.related().is_empty() {
                return Err("a diagnostic names another place");
            }
            let moved = d.map_spans(&mut |s| {
                (s.file == file).then_some(())?;
                Some(Span::new(file, s.range.shifted(offset)?))
            });
            if !moved {
                return Err("a diagnostic is in another file");
            }
            if d.code == crate::codes::UNKNOWN_PACKAGE {
                return Err("a diagnostic is about a package");
            }
            if d.severity == pcl_diagnostics::Severity::Note && d.summary.is_empty() {
                continue;
            }
            out.push(d);
        }
        crate::widen_empty_ranges_in(&mut out, &|f| (f == file).then_some(text));
        pcl_diagnostics::sort_and_dedup(&mut out);
        Ok(out)
    };
    Ok(Rebound {
        at,
        node: new_node,
        old_diagnostics: place(old_diagnostics, old)?,
        diagnostics: place(diagnostics, text)?,
        edit,
        old_end: u32::try_from(end).map_err(|_| "the text is too long")?,
    })
}

/// Gives `node`, bound from its text alone, the comments around it in
/// its file: those of the check's node, the trailing ones moved by
/// `delta` (they follow the edit).
fn in_context(node: &mut Node, previous: &Node, delta: i64) {
    let logical_name = node.extra.take().and_then(|e| e.logical_name);
    let mut trailing = previous.trailing_comments().to_vec();
    for c in &mut trailing {
        if let Some(moved) = c.range.shifted(delta) {
            c.range = moved;
        }
    }
    node.extra = NodeExtra {
        logical_name,
        leading_comments: previous.leading_comments().to_vec(),
        trailing_comments: trailing,
        detached_comments: previous.detached_comments().to_vec(),
    }
    .boxed();
}

/// The parse of one declaration's text alone, when it is exactly one
/// item spanning the text, without diagnostics or comments of its own
/// outside the item.
fn fragment(file: FileId, text: &str) -> Result<Parse, Fallback> {
    let parse = pcl_syntax::parse(file, Arc::<str>::from(text));
    if !parse.diagnostics().is_empty() {
        return Err("the declaration does not parse alone");
    }
    let body = parse.body();
    let items = body.items();
    let whole = items.len() == 1
        && items.get(0).is_some_and(|item| {
            item.range() == TextRange::from_usize(0..text.len())
                && item.leading_comments().is_empty()
                && item.trailing_comments().is_empty()
        })
        && body.dangling_comments().is_empty();
    if !whole {
        return Err("the declaration's text is not one item");
    }
    Ok(parse)
}

/// What declares a node: the attribute's name, or the block's type and
/// labels, with their places.
fn header(parse: &Parse) -> Vec<(String, TextRange)> {
    let mut out = Vec::new();
    if let Some(item) = parse.body().items().get(0) {
        match item.kind() {
            Item::Attribute(a) => out.push((a.name().to_string(), a.name_range())),
            Item::Block(b) => {
                out.push((b.type_name().to_string(), b.type_range()));
                for label in b.labels().iter() {
                    out.push((label.value().to_string(), label.range()));
                }
            }
        }
    }
    out
}

impl ProgramBinder<'_, '_> {
    /// Declares and binds node `at` from `parse` (one item, see
    /// [`fragment`]) as a full check would, every other node as the check
    /// left it; gives back the bound node (in `parse`'s positions) and the
    /// diagnostics of binding it, and puts node `at` back as it was.
    fn rebind_one(
        &mut self,
        at: usize,
        file: FileId,
        name: &str,
        parse: Parse,
    ) -> Result<(Node, Vec<Diagnostic>), Fallback> {
        self.files = Rc::new(vec![ParsedFile {
            id: file,
            name: name.to_string(),
            parse,
        }]);
        let files = Rc::clone(&self.files);
        let item: ItemRef<'_> = files
            .first()
            .and_then(|f| f.body().items().get(0))
            .ok_or("no item")?;
        // Declared alone, as the check declared it.
        let scope = std::mem::replace(&mut self.scope, Scope::root());
        let decls = std::mem::take(&mut self.decls);
        let nodes = std::mem::take(&mut self.nodes);
        self.declare_item(file, 0, 0, item);
        let declared = self.nodes.pop().zip(self.decls.pop());
        self.scope = scope;
        self.decls = decls;
        self.nodes = nodes;
        self.diags = DiagnosticList::new();
        let (mut fresh, decl) = declared.ok_or("the item declares nothing")?;
        if self.decls.get(at).map(|d| d.kind) != Some(decl.kind) {
            return Err("the declaration's kind changed");
        }
        fresh.id = NodeId(u32::try_from(at).map_err(|_| "too many declarations")?);
        fresh.dependencies = self.dependencies_of(&decl);
        let Some(slot) = self.nodes.get_mut(at) else {
            return Err("no such declaration");
        };
        let previous = std::mem::replace(slot, fresh);
        if let Some(d) = self.decls.get_mut(at) {
            *d = decl;
        }
        self.bind_node(&mut SourceMap::new(), at);
        let bound = match self.nodes.get_mut(at) {
            Some(slot) => std::mem::replace(slot, previous),
            None => return Err("no such declaration"),
        };
        let diagnostics = std::mem::take(&mut self.diags).into_vec();
        Ok((bound, diagnostics))
    }

    /// The nodes `decl`'s syntax names, in source order, each once (as
    /// `compute_dependencies` finds them for a program without misspelt
    /// blocks or siblings).
    fn dependencies_of(&self, decl: &Decl) -> Box<[NodeId]> {
        let mut names: Vec<(u32, &str)> = Vec::new();
        decl.names(&self.files, &mut crate::deps::Walk::default(), &mut names);
        let mut seen = std::collections::HashSet::new();
        let mut deps = Vec::new();
        for (_, name) in names {
            if let Some(Definition::Node(id)) = self.scope.lookup(name) {
                if seen.insert(*id) {
                    deps.push(*id);
                }
            }
        }
        deps.into()
    }
}

/// The lengths of the longest common prefix of `a` and `b`, and of their
/// longest common suffix within what the prefix leaves (compared a block
/// at a time, then byte by byte).
fn common_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
    const BLOCK: usize = 256;
    let most = a.len().min(b.len());
    let mut prefix = 0;
    while prefix + BLOCK <= most && a.get(prefix..prefix + BLOCK) == b.get(prefix..prefix + BLOCK) {
        prefix += BLOCK;
    }
    while prefix < most && a.get(prefix) == b.get(prefix) {
        prefix += 1;
    }
    let most = most - prefix;
    let (mut suffix, la, lb) = (0, a.len(), b.len());
    while suffix + BLOCK <= most
        && a.get(la - suffix - BLOCK..la - suffix) == b.get(lb - suffix - BLOCK..lb - suffix)
    {
        suffix += BLOCK;
    }
    while suffix < most && a.get(la - suffix - 1) == b.get(lb - suffix - 1) {
        suffix += 1;
    }
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::common_ends;

    #[test]
    fn common_ends_of_texts() {
        let long = "x".repeat(1000);
        for (a, b, want) in [
            ("abc", "abc", (3, 0)),
            ("abc", "abXc", (2, 1)),
            ("", "a", (0, 0)),
            ("aaa", "aa", (2, 0)),
            ("ab", "b", (0, 1)),
        ] {
            assert_eq!(common_ends(a.as_bytes(), b.as_bytes()), want, "{a:?} {b:?}");
        }
        let (a, b) = (format!("{long}1{long}"), format!("{long}22{long}"));
        assert_eq!(common_ends(a.as_bytes(), b.as_bytes()), (1000, 1000));
        let (a, b) = (format!("{long}{long}"), format!("{long}y{long}"));
        assert_eq!(common_ends(a.as_bytes(), b.as_bytes()), (1000, 1000));
    }
}
