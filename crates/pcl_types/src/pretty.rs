//! The `Pretty()` form used in messages (types.md §1.15): `int | string?`,
//! `{ a: int }`, `(int, string)`, with a width-aware layout and `'T1` tags
//! for recursive types.
//!
//! A type is first turned into a [`Layout`] graph of formatter nodes (text,
//! wrap, list, object); cycles in the type become cycles in the graph. The
//! renderer tags a node that is structurally equal to one of its ancestors on
//! the current path (`'T1 { a: 'T1? }`). [`pretty_capped`] bounds depth and
//! width with `…` and prints named schema types by name, so no message is
//! kilobytes long.

use std::collections::HashMap;

use crate::print::display_string;
use crate::ty::{Type, TypeKind};
use crate::MAX_TYPE_DEPTH;

/// The default target width.
pub const DEFAULT_WIDTH: usize = 100;

/// Index of a node in a [`Layout`].
pub type NodeId = usize;

#[derive(Clone, Debug)]
enum Node {
    Text(String),
    Wrap {
        prefix: String,
        value: NodeId,
        postfix: String,
        same_line: bool,
    },
    List {
        sep: String,
        adjoin: bool,
        items: Vec<NodeId>,
    },
    Object(Vec<(String, NodeId)>),
}

/// A graph of formatter nodes (may be cyclic).
#[derive(Clone, Debug, Default)]
pub struct Layout {
    nodes: Vec<Node>,
}

impl Layout {
    pub fn new() -> Layout {
        Layout::default()
    }

    fn push(&mut self, n: Node) -> NodeId {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    pub fn text(&mut self, s: impl Into<String>) -> NodeId {
        self.push(Node::Text(s.into()))
    }

    pub fn wrap(&mut self, prefix: &str, value: NodeId, postfix: &str, same_line: bool) -> NodeId {
        self.push(Node::Wrap {
            prefix: prefix.into(),
            value,
            postfix: postfix.into(),
            same_line,
        })
    }

    /// A list: `adjoin` lists (tuples) break after the separator, others
    /// (unions) break before it.
    pub fn list(&mut self, sep: &str, adjoin: bool, items: Vec<NodeId>) -> NodeId {
        self.push(Node::List {
            sep: sep.into(),
            adjoin,
            items,
        })
    }

    /// An object; entries are rendered in the given order.
    pub fn object(&mut self, entries: Vec<(String, NodeId)>) -> NodeId {
        self.push(Node::Object(entries))
    }

    /// Adds an entry to an object node (to build cycles).
    pub fn add_entry(&mut self, object: NodeId, key: impl Into<String>, value: NodeId) {
        if let Some(Node::Object(es)) = self.nodes.get_mut(object) {
            es.push((key.into(), value));
            es.sort_by(|a, b| a.0.cmp(&b.0));
        }
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    fn struct_eq(&self, a: NodeId, b: NodeId, stack: &mut Vec<(NodeId, NodeId)>) -> bool {
        if a == b || stack.contains(&(a, b)) {
            return true;
        }
        if stack.len() > MAX_TYPE_DEPTH {
            return false;
        }
        stack.push((a, b));
        let res = match (self.node(a), self.node(b)) {
            (Some(Node::Text(x)), Some(Node::Text(y))) => x == y,
            (
                Some(Node::Wrap {
                    prefix: p1,
                    value: v1,
                    postfix: q1,
                    same_line: s1,
                }),
                Some(Node::Wrap {
                    prefix: p2,
                    value: v2,
                    postfix: q2,
                    same_line: s2,
                }),
            ) => p1 == p2 && q1 == q2 && s1 == s2 && self.struct_eq(*v1, *v2, stack),
            (
                Some(Node::List {
                    sep: s1,
                    adjoin: a1,
                    items: i1,
                }),
                Some(Node::List {
                    sep: s2,
                    adjoin: a2,
                    items: i2,
                }),
            ) => {
                s1 == s2
                    && a1 == a2
                    && i1.len() == i2.len()
                    && i1
                        .iter()
                        .zip(i2.iter())
                        .all(|(x, y)| self.struct_eq(*x, *y, stack))
            }
            (Some(Node::Object(e1)), Some(Node::Object(e2))) => {
                e1.len() == e2.len()
                    && e1
                        .iter()
                        .zip(e2.iter())
                        .all(|((k1, v1), (k2, v2))| k1 == k2 && self.struct_eq(*v1, *v2, stack))
            }
            _ => false,
        };
        stack.pop();
        res
    }

    fn children(&self, id: NodeId) -> Vec<NodeId> {
        match self.node(id) {
            Some(Node::Wrap { value, .. }) => vec![*value],
            Some(Node::List { items, .. }) => items.clone(),
            Some(Node::Object(es)) => es.iter().map(|(_, v)| *v).collect(),
            _ => Vec::new(),
        }
    }

    /// The ancestor on `path` that `id` repeats, if any.
    fn repeats(&self, id: NodeId, path: &[NodeId]) -> Option<NodeId> {
        if matches!(self.node(id), Some(Node::Text(_))) {
            return None;
        }
        path.iter()
            .copied()
            .find(|a| self.struct_eq(*a, id, &mut Vec::new()))
    }

    fn find_tags(
        &self,
        id: NodeId,
        path: &mut Vec<NodeId>,
        order: &mut Vec<NodeId>,
        tagged: &mut Vec<NodeId>,
    ) {
        if path.len() > MAX_TYPE_DEPTH {
            return;
        }
        if let Some(a) = self.repeats(id, path) {
            if !tagged.contains(&a) {
                tagged.push(a);
            }
            return;
        }
        if !order.contains(&id) {
            order.push(id);
        }
        path.push(id);
        for c in self.children(id) {
            self.find_tags(c, path, order, tagged);
        }
        path.pop();
    }

    /// Renders `root` at `cols` columns.
    pub fn render(&self, root: NodeId, cols: usize) -> String {
        let mut order = Vec::new();
        let mut tagged = Vec::new();
        self.find_tags(root, &mut Vec::new(), &mut order, &mut tagged);
        let mut tags = HashMap::new();
        for id in order {
            if tagged.contains(&id) {
                let n = tags.len() + 1;
                tags.insert(id, n);
            }
        }
        let r = Renderer { layout: self, tags };
        r.render(root, cols, &mut Vec::new())
    }
}

struct Renderer<'a> {
    layout: &'a Layout,
    tags: HashMap<NodeId, usize>,
}

fn indent_rest(s: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(rest);
        } else {
            out.push_str(first);
        }
        out.push_str(line);
    }
    out
}

/// Prefixes every line of `text` with `prefix`.
pub fn indent(prefix: &str, text: &str) -> String {
    indent_rest(text, prefix, prefix)
}

fn width(s: &str) -> usize {
    s.chars().count()
}

impl Renderer<'_> {
    /// (back-reference text) when `id` repeats an ancestor.
    fn backref(&self, id: NodeId, path: &[NodeId]) -> Option<String> {
        let a = self.layout.repeats(id, path)?;
        Some(format!("'T{}", self.tags.get(&a).copied().unwrap_or(0)))
    }

    fn tag_prefix(&self, id: NodeId) -> String {
        match self.tags.get(&id) {
            Some(n) => format!("'T{n} "),
            None => String::new(),
        }
    }

    fn flat(&self, id: NodeId, path: &mut Vec<NodeId>) -> String {
        if let Some(b) = self.backref(id, path) {
            return b;
        }
        if path.len() > MAX_TYPE_DEPTH {
            return "…".into();
        }
        path.push(id);
        let body = match self.layout.node(id) {
            None => String::new(),
            Some(Node::Text(s)) => s.clone(),
            Some(Node::Wrap {
                prefix,
                value,
                postfix,
                ..
            }) => format!("{prefix}{}{postfix}", self.flat(*value, path)),
            Some(Node::List { sep, items, .. }) => {
                let parts: Vec<String> = items.iter().map(|i| self.flat(*i, path)).collect();
                parts.join(sep)
            }
            Some(Node::Object(es)) => {
                if es.is_empty() {
                    "{}".into()
                } else {
                    let parts: Vec<String> = es
                        .iter()
                        .map(|(k, v)| format!("{k}: {}", self.flat(*v, path)))
                        .collect();
                    format!("{{ {} }}", parts.join(", "))
                }
            }
        };
        path.pop();
        format!("{}{body}", self.tag_prefix(id))
    }

    fn render(&self, id: NodeId, cols: usize, path: &mut Vec<NodeId>) -> String {
        if let Some(b) = self.backref(id, path) {
            return b;
        }
        if path.len() > MAX_TYPE_DEPTH {
            return "…".into();
        }
        let tag = self.tag_prefix(id);
        let cols = cols.saturating_sub(width(&tag));
        path.push(id);
        let body = match self.layout.node(id) {
            None => String::new(),
            Some(Node::Text(s)) => s.clone(),
            Some(Node::Wrap {
                prefix,
                value,
                postfix,
                same_line,
            }) => self.render_wrap(prefix, *value, postfix, *same_line, cols, path),
            Some(Node::List { sep, adjoin, items }) => {
                self.render_list(sep, *adjoin, items, cols, path)
            }
            Some(Node::Object(es)) => self.render_object(es, cols, path),
        };
        path.pop();
        format!("{tag}{body}")
    }

    fn render_wrap(
        &self,
        prefix: &str,
        value: NodeId,
        postfix: &str,
        same_line: bool,
        cols: usize,
        path: &mut Vec<NodeId>,
    ) -> String {
        let flat = self.flat(value, path);
        let pq = width(prefix) + width(postfix);
        if flat.contains('\n') {
            return format!(
                "{prefix}{}{postfix}",
                self.render(value, cols.saturating_sub(pq), path)
            );
        }
        if pq + width(&flat) < cols {
            return format!("{prefix}{flat}{postfix}");
        }
        if pq < 2 {
            return format!(
                "{prefix}{}{postfix}",
                self.render(value, cols.saturating_sub(pq), path)
            );
        }
        let inner = indent("  ", &self.render(value, cols.saturating_sub(2), path));
        if same_line {
            format!("{prefix}\n{inner}{postfix}")
        } else {
            format!("{prefix}\n{inner}\n{postfix}")
        }
    }

    fn render_list(
        &self,
        sep: &str,
        adjoin: bool,
        items: &[NodeId],
        cols: usize,
        path: &mut Vec<NodeId>,
    ) -> String {
        let flats: Vec<String> = items.iter().map(|i| self.flat(*i, path)).collect();
        let joined = flats.join(sep);
        if !joined.contains('\n') && width(&joined) <= cols {
            return joined;
        }
        if adjoin {
            let s = sep.trim_end();
            let parts: Vec<String> = items.iter().map(|i| self.render(*i, cols, path)).collect();
            parts.join(&format!("{s}\n"))
        } else {
            let s = sep.trim_start();
            let inner = cols.saturating_sub(2);
            let parts: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(n, i)| {
                    let r = self.render(*i, inner, path);
                    indent_rest(&r, if n == 0 { "  " } else { s }, "  ")
                })
                .collect();
            parts.join("\n")
        }
    }

    fn render_object(
        &self,
        es: &[(String, NodeId)],
        cols: usize,
        path: &mut Vec<NodeId>,
    ) -> String {
        if es.is_empty() {
            return "{}".into();
        }
        let parts: Vec<String> = es
            .iter()
            .map(|(k, v)| format!("{k}: {}", self.flat(*v, path)))
            .collect();
        let inline = format!("{{ {} }}", parts.join(", "));
        if !inline.contains('\n') && width(&inline) < cols {
            return inline;
        }
        let mut out = String::from("{\n");
        for (k, v) in es {
            let entry = self.render_wrap(
                &format!("{k}: "),
                *v,
                ",",
                true,
                cols.saturating_sub(2),
                path,
            );
            out.push_str(&indent("  ", &entry));
            out.push('\n');
        }
        out.push('}');
        out
    }
}

/// Options for [`pretty_with`].
#[derive(Clone, Debug)]
pub struct PrettyOptions {
    pub width: usize,
    /// Nesting beyond this prints `…`.
    pub max_depth: usize,
    /// Unions, tuples and objects show at most this many members, then `…`.
    pub max_items: usize,
    /// Named (schema) object types print as their name.
    pub use_names: bool,
    /// The result is cut at this many characters with `…`.
    pub max_chars: usize,
}

impl PrettyOptions {
    /// The reference's `Pretty()`: no caps.
    pub fn reference() -> PrettyOptions {
        PrettyOptions {
            width: DEFAULT_WIDTH,
            max_depth: MAX_TYPE_DEPTH,
            max_items: usize::MAX,
            use_names: false,
            max_chars: usize::MAX,
        }
    }

    /// The form for diagnostics.
    /// Single-line, at most eight levels and six members per union, tuple
    /// or object, and 240 characters.
    pub fn diagnostic() -> PrettyOptions {
        PrettyOptions {
            width: usize::MAX / 2,
            max_depth: 8,
            max_items: 6,
            use_names: true,
            max_chars: 240,
        }
    }
}

struct Builder<'o> {
    layout: Layout,
    /// Nodes left before everything prints as `…` (capped mode only).
    budget: usize,
    memo: HashMap<(usize, usize), NodeId>,
    opts: &'o PrettyOptions,
}

impl Builder<'_> {
    fn build(&mut self, t: &Type, depth: usize) -> NodeId {
        if depth > self.opts.max_depth || self.budget == 0 {
            return self.layout.text("…");
        }
        let capped = self.opts.max_depth < MAX_TYPE_DEPTH;
        // Capped output expands shared sub-types; only cycles need the memo there.
        let memo_key = (t.addr(), if capped { depth } else { 0 });
        if let Some(id) = self.memo.get(&memo_key) {
            return *id;
        }
        if capped {
            self.budget -= 1;
        }
        let id = match t.kind() {
            TypeKind::List(e) => self.wrapped("list(", e, depth),
            TypeKind::Map(e) => self.wrapped("map(", e, depth),
            TypeKind::Set(e) => self.wrapped("set(", e, depth),
            TypeKind::Promise(e) => self.wrapped("promise(", e, depth),
            TypeKind::Output(e) => self.wrapped("output(", e, depth),
            TypeKind::Tuple(es) => {
                if es.is_empty() {
                    self.layout.text("()")
                } else {
                    let items = self.items(es.iter(), depth);
                    let l = self.layout.list(", ", true, items);
                    self.layout.wrap("(", l, ")", false)
                }
            }
            TypeKind::Union(u) => {
                if u.elements().is_empty() {
                    self.layout.text("union()")
                } else {
                    let items = self.items(u.elements().iter().filter(|e| !e.is_none()), depth);
                    let l = self.layout.list(" | ", false, items);
                    if u.has_none() {
                        self.layout.wrap("", l, "?", true)
                    } else {
                        l
                    }
                }
            }
            TypeKind::Object(o) => {
                if let (true, Some(name)) = (self.opts.use_names, o.name()) {
                    self.layout.text(name)
                } else {
                    let id = self.layout.object(Vec::new());
                    self.memo.insert(memo_key, id);
                    let mut count = 0;
                    for (k, v) in o.properties().iter() {
                        count += 1;
                        if count > self.opts.max_items {
                            let more = self
                                .layout
                                .text(format!("{} more", o.properties().len() + 1 - count));
                            self.layout.add_entry(id, "…", more);
                            break;
                        }
                        let vid = self.build(v, depth + 1);
                        self.layout.add_entry(id, k.to_string(), vid);
                    }
                    id
                }
            }
            TypeKind::Const(c) => self.layout.text(c.value().pretty()),
            TypeKind::Enum(e) => {
                let items: Vec<NodeId> = e
                    .values()
                    .iter()
                    .map(|v| self.layout.text(v.pretty()))
                    .collect();
                let l = self.layout.list(" | ", false, items);
                self.layout.wrap("enum(", l, ")", false)
            }
            _ => self.layout.text(display_string(t)),
        };
        if !capped || matches!(t.kind(), TypeKind::Object(_)) {
            self.memo.insert(memo_key, id);
        }
        id
    }

    fn wrapped(&mut self, prefix: &str, e: &Type, depth: usize) -> NodeId {
        let v = self.build(e, depth + 1);
        self.layout.wrap(prefix, v, ")", false)
    }

    fn items<'t>(&mut self, es: impl Iterator<Item = &'t Type>, depth: usize) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut extra = 0usize;
        for (n, e) in es.enumerate() {
            if n >= self.opts.max_items {
                extra += 1;
                continue;
            }
            out.push(self.build(e, depth + 1));
        }
        if extra > 0 {
            out.push(self.layout.text(format!("… {extra} more")));
        }
        out
    }
}

/// `Pretty()` with explicit options.
pub fn pretty_with(t: &Type, opts: &PrettyOptions) -> String {
    let mut b = Builder {
        layout: Layout::new(),
        budget: 300,
        memo: HashMap::new(),
        opts,
    };
    let root = b.build(t, 0);
    let s = b.layout.render(root, opts.width);
    if s.chars().count() > opts.max_chars {
        let mut cut: String = s.chars().take(opts.max_chars).collect();
        cut.push('…');
        cut
    } else {
        s
    }
}

/// The reference `Pretty()` at 100 columns.
pub fn pretty(t: &Type) -> String {
    pretty_with(t, &PrettyOptions::reference())
}

/// `Pretty()` at a given width.
pub fn pretty_width(t: &Type, width: usize) -> String {
    pretty_with(
        t,
        &PrettyOptions {
            width,
            ..PrettyOptions::reference()
        },
    )
}

/// The capped form used in diagnostics.
pub fn pretty_capped(t: &Type) -> String {
    pretty_with(t, &PrettyOptions::diagnostic())
}

impl Type {
    /// The reference `Pretty()` form.
    pub fn pretty(&self) -> String {
        pretty(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ObjectOptions;

    #[test]
    fn simple_forms() {
        assert_eq!(pretty(&Type::optional(Type::string())), "string?");
        let u = Type::union([Type::int(), Type::string(), Type::none()]);
        assert_eq!(pretty(&u), "int | string?");
        assert_eq!(
            pretty(&Type::tuple([Type::int(), Type::string()])),
            "(int, string)"
        );
        assert_eq!(pretty(&Type::object([("a", Type::int())])), "{ a: int }");
    }

    #[test]
    fn recursive_tags() {
        let o = Type::deferred_object(ObjectOptions::default());
        o.define_object([("a", Type::optional(o.clone())), ("b", Type::string())]);
        assert_eq!(pretty(&o), "'T1 { a: 'T1?, b: string }");
    }

    #[test]
    fn capped_is_short() {
        let members: Vec<Type> = (0..500).map(|i| Type::opaque(format!("T{i}"))).collect();
        let s = pretty_capped(&Type::union(members));
        assert!(s.len() < 400, "{s}");
        assert!(s.contains('…'));
    }
}
