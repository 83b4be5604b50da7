//! Borrowing views of a [`BoundTree`]: [`BoundRef`] (one node, `Copy`)
//! and [`BoundExprKind`], whose variants mirror the binder's expression
//! kinds with their children as views.

use std::collections::HashSet;
use std::fmt;

use pcl_diagnostics::TextRange;
use pcl_syntax::tree::{BinaryOp, UnaryOp};
use pcl_types::{Type, Value};

use super::{
    binary_op, unary_op, BoundId, BoundScopeTraversal, BoundStep, BoundTree, InvokeTokens, Tag,
};
use crate::scope::{Definition, Function, NodeId};
use crate::signature::Signature;

/// One expression of a [`BoundTree`].
#[derive(Clone, Copy)]
pub struct BoundRef<'t> {
    tree: &'t BoundTree,
    id: BoundId,
}

/// A for expression (binder.md §3.7).
#[derive(Clone, Copy, Debug)]
pub struct BoundFor<'t> {
    pub key_var: Option<&'t str>,
    pub value_var: &'t str,
    pub collection: BoundRef<'t>,
    /// Present for the object form.
    pub key: Option<BoundRef<'t>>,
    pub value: BoundRef<'t>,
    pub condition: Option<BoundRef<'t>>,
    pub grouping: bool,
}

/// A function call (binder.md §3.9, §6.3, §6.4).
#[derive(Clone, Copy, Debug)]
pub struct BoundCall<'t> {
    pub name: &'t str,
    pub name_range: TextRange,
    /// What the name resolved to; `None` for an unknown function.
    pub function: Option<&'t Function>,
    pub args: BoundList<'t>,
    pub expand_final: bool,
    /// The signature the arguments were checked against.
    pub signature: &'t Signature,
    /// For an `invoke` whose token resolved: its canonical key
    /// ([`InvokeTokens::canonical_token`]). The first argument still holds
    /// the token as written; [`BoundCall::invoke`] has all three forms.
    pub invoke_token: Option<&'t str>,
    invoke: Option<&'t InvokeTokens>,
}

impl<'t> BoundCall<'t> {
    /// For a call of `invoke` whose first argument is a string literal:
    /// the token as written, as the schema declares it and its canonical
    /// key, or why it did not resolve. `None` for every other call.
    pub fn invoke(&self) -> Option<&'t InvokeTokens> {
        self.invoke
    }
}

/// Child expressions in order (template parts, tuple items, arguments).
#[derive(Clone, Copy)]
pub struct BoundList<'t> {
    tree: &'t BoundTree,
    ids: &'t [BoundId],
}

/// An object's items: key and value pairs in source order.
#[derive(Clone, Copy)]
pub struct BoundPairs<'t> {
    tree: &'t BoundTree,
    /// Keys and values alternating.
    ids: &'t [BoundId],
}

/// Expression kinds; they mirror the reference's bound-expression kinds.
#[derive(Clone, Copy, Debug)]
pub enum BoundExprKind<'t> {
    /// A literal value (including a folded `-<number>`).
    Literal(&'t Value),
    /// A template: literal text parts are `Literal(String)` children.
    Template(BoundList<'t>),
    /// A `%{for}` directive inside a template: the tuple-producing for
    /// expression it joins.
    TemplateJoin(BoundRef<'t>),
    Unary {
        op: UnaryOp,
        operand: BoundRef<'t>,
    },
    Binary {
        op: BinaryOp,
        lhs: BoundRef<'t>,
        rhs: BoundRef<'t>,
    },
    /// `c ? t : f`, also `%{if}` directives.
    Conditional {
        condition: BoundRef<'t>,
        then_expr: BoundRef<'t>,
        else_expr: BoundRef<'t>,
    },
    For(BoundFor<'t>),
    Splat {
        source: BoundRef<'t>,
        each: BoundRef<'t>,
    },
    /// The per-element symbol at the root of a splat's `each`.
    SplatItem,
    Call(BoundCall<'t>),
    /// `coll[key]` with a non-literal key.
    Index {
        collection: BoundRef<'t>,
        key: BoundRef<'t>,
    },
    /// `{ k = v, … }` in source order.
    Object(BoundPairs<'t>),
    Tuple(BoundList<'t>),
    /// `name.a[0]…`.
    ScopeTraversal(&'t BoundScopeTraversal),
    /// `(expr).a`, `f(x)[0]`.
    RelativeTraversal {
        source: BoundRef<'t>,
        steps: &'t [BoundStep],
    },
    Parens(BoundRef<'t>),
    /// A syntax error placeholder or an expression too deep to bind.
    Error,
}

/// The value a literal reads when its type is not const (never built).
static UNKNOWN: Value = Value::Unknown;

impl<'t> BoundList<'t> {
    /// The nodes `ids` of `tree`.
    pub(crate) fn new(tree: &'t BoundTree, ids: &'t [BoundId]) -> BoundList<'t> {
        BoundList { tree, ids }
    }

    pub fn len(self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(self) -> bool {
        self.ids.is_empty()
    }

    pub fn get(self, i: usize) -> Option<BoundRef<'t>> {
        self.ids.get(i).map(|&id| self.tree.get(id))
    }

    pub fn first(self) -> Option<BoundRef<'t>> {
        self.get(0)
    }

    pub fn last(self) -> Option<BoundRef<'t>> {
        self.ids.last().map(|&id| self.tree.get(id))
    }

    pub fn iter(self) -> BoundIter<'t> {
        BoundIter {
            tree: self.tree,
            ids: self.ids.iter(),
        }
    }

    /// The only element, when there is exactly one.
    pub fn only(self) -> Option<BoundRef<'t>> {
        match self.ids {
            [one] => Some(self.tree.get(*one)),
            _ => None,
        }
    }
}

impl<'t> IntoIterator for BoundList<'t> {
    type Item = BoundRef<'t>;
    type IntoIter = BoundIter<'t>;
    fn into_iter(self) -> BoundIter<'t> {
        self.iter()
    }
}

/// The elements of a [`BoundList`].
#[derive(Clone)]
pub struct BoundIter<'t> {
    tree: &'t BoundTree,
    ids: std::slice::Iter<'t, BoundId>,
}

impl<'t> Iterator for BoundIter<'t> {
    type Item = BoundRef<'t>;
    fn next(&mut self) -> Option<BoundRef<'t>> {
        self.ids.next().map(|&id| self.tree.get(id))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl DoubleEndedIterator for BoundIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.ids.next_back().map(|&id| self.tree.get(id))
    }
}

impl ExactSizeIterator for BoundIter<'_> {}

impl<'t> BoundPairs<'t> {
    /// The number of items.
    pub fn len(self) -> usize {
        self.ids.len() / 2
    }

    pub fn is_empty(self) -> bool {
        self.ids.len() < 2
    }

    /// The items as (key, value) pairs, in source order.
    pub fn iter(
        self,
    ) -> impl DoubleEndedIterator<Item = (BoundRef<'t>, BoundRef<'t>)> + ExactSizeIterator + 't
    {
        let tree = self.tree;
        self.ids.chunks_exact(2).map(move |kv| match kv {
            [k, v] => (tree.get(*k), tree.get(*v)),
            _ => (tree.get(BoundId::MAX), tree.get(BoundId::MAX)),
        })
    }

    pub fn get(self, i: usize) -> Option<(BoundRef<'t>, BoundRef<'t>)> {
        self.iter().nth(i)
    }
}

impl fmt::Debug for BoundList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Debug for BoundPairs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Prints the node's kind name, id, range and type (not its children, so
/// printing a deep tree does not recurse).
impl fmt::Debug for BoundRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}#{}@{:?}: {:?}",
            self.kind_name(),
            self.id,
            self.range(),
            self.ty()
        )
    }
}

impl<'t> BoundRef<'t> {
    pub(crate) fn new(tree: &'t BoundTree, id: BoundId) -> BoundRef<'t> {
        BoundRef { tree, id }
    }

    /// This node's id in its tree.
    pub fn id(self) -> BoundId {
        self.id
    }

    /// The tree this node belongs to.
    pub fn tree(self) -> &'t BoundTree {
        self.tree
    }

    pub fn ty(self) -> &'t Type {
        self.tree.ty_of(self.id)
    }

    pub fn range(self) -> TextRange {
        self.tree.range_of(self.id)
    }

    /// The node just before this one: the last child of a node that has
    /// children.
    fn prev(self) -> BoundRef<'t> {
        self.tree.get(self.id.wrapping_sub(1))
    }

    pub fn kind(self) -> BoundExprKind<'t> {
        let tree = self.tree;
        let node = tree.node(self.id);
        let rare = tree.rare();
        let at = node.payload;
        let get = |id: BoundId| tree.get(id);
        let list = |at: u32| BoundList {
            tree,
            ids: tree.list(at),
        };
        match node.tag {
            Tag::Literal => {
                let ty = tree.node_type(&node);
                BoundExprKind::Literal(ty.as_const().map_or(&UNKNOWN, |c| c.value()))
            }
            Tag::Template => BoundExprKind::Template(list(at)),
            Tag::TemplateJoin => BoundExprKind::TemplateJoin(self.prev()),
            Tag::Unary => BoundExprKind::Unary {
                op: unary_op(node.op),
                operand: self.prev(),
            },
            Tag::Binary => BoundExprKind::Binary {
                op: binary_op(node.op),
                lhs: get(at),
                rhs: self.prev(),
            },
            Tag::Conditional => {
                let ids = tree.list(at);
                let nth = |i: usize| get(ids.get(i).copied().unwrap_or(BoundId::MAX));
                BoundExprKind::Conditional {
                    condition: nth(0),
                    then_expr: nth(1),
                    else_expr: self.prev(),
                }
            }
            Tag::For => match rare.and_then(|r| r.fors.get(at as usize)) {
                Some(d) => BoundExprKind::For(BoundFor {
                    key_var: d.key_var.as_deref(),
                    value_var: &d.value_var,
                    collection: get(d.collection),
                    key: d.key.map(get),
                    value: get(d.value),
                    condition: d.condition.map(get),
                    grouping: d.grouping,
                }),
                None => BoundExprKind::Error,
            },
            Tag::Splat => BoundExprKind::Splat {
                source: get(at),
                each: self.prev(),
            },
            Tag::SplatItem => BoundExprKind::SplatItem,
            Tag::Call => match rare.and_then(|r| r.calls.get(at as usize)) {
                Some(c) => BoundExprKind::Call(BoundCall {
                    name: &c.name,
                    name_range: c.name_range,
                    function: c.function.as_ref(),
                    args: list(c.args),
                    expand_final: c.expand_final,
                    signature: &c.signature,
                    invoke_token: c.invoke.as_ref().and_then(|i| i.canonical.as_deref()),
                    invoke: c.invoke.as_deref(),
                }),
                None => BoundExprKind::Error,
            },
            Tag::Index => BoundExprKind::Index {
                collection: get(at),
                key: self.prev(),
            },
            Tag::Object => BoundExprKind::Object(BoundPairs {
                tree,
                ids: tree.list(at),
            }),
            Tag::Tuple => BoundExprKind::Tuple(list(at)),
            Tag::ScopeTraversal => match tree.traversal(at) {
                Some(t) => BoundExprKind::ScopeTraversal(t),
                None => BoundExprKind::Error,
            },
            Tag::RelativeTraversal => BoundExprKind::RelativeTraversal {
                source: self.prev(),
                steps: rare
                    .and_then(|r| r.steps.get(at as usize))
                    .map_or(&[], |s| &s[..]),
            },
            Tag::Parens => BoundExprKind::Parens(self.prev()),
            Tag::Error => BoundExprKind::Error,
        }
    }

    /// The reference's name for this kind (`BinaryOpExpression`, …), as
    /// used by the test vectors.
    pub fn kind_name(self) -> &'static str {
        match self.tree.node(self.id).tag {
            Tag::Literal => "LiteralValueExpression",
            Tag::Template => "TemplateExpression",
            Tag::TemplateJoin => "TemplateJoinExpression",
            Tag::Unary => "UnaryOpExpression",
            Tag::Binary => "BinaryOpExpression",
            Tag::Conditional => "ConditionalExpression",
            Tag::For => "ForExpression",
            Tag::Splat => "SplatExpression",
            Tag::SplatItem => "AnonymousSymbolExpression",
            Tag::Call => "FunctionCallExpression",
            Tag::Index => "IndexExpression",
            Tag::Object => "ObjectConsExpression",
            Tag::Tuple => "TupleConsExpression",
            Tag::ScopeTraversal => "ScopeTraversalExpression",
            Tag::RelativeTraversal => "RelativeTraversalExpression",
            Tag::Parens => "ParenthesesExpression",
            Tag::Error => "ErrorExpression",
        }
    }

    /// Calls `f` on every direct child, in source order.
    pub fn for_each_child(self, f: &mut dyn FnMut(BoundRef<'t>)) {
        match self.kind() {
            BoundExprKind::Literal(_)
            | BoundExprKind::SplatItem
            | BoundExprKind::Error
            | BoundExprKind::ScopeTraversal(_) => {}
            BoundExprKind::Template(parts) | BoundExprKind::Tuple(parts) => {
                parts.iter().for_each(f)
            }
            BoundExprKind::TemplateJoin(e) | BoundExprKind::Parens(e) => f(e),
            BoundExprKind::Unary { operand, .. } => f(operand),
            BoundExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            BoundExprKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                f(condition);
                f(then_expr);
                f(else_expr);
            }
            BoundExprKind::For(x) => {
                f(x.collection);
                if let Some(k) = x.key {
                    f(k);
                }
                f(x.value);
                if let Some(c) = x.condition {
                    f(c);
                }
            }
            BoundExprKind::Splat { source, each } => {
                f(source);
                f(each);
            }
            BoundExprKind::Call(c) => c.args.iter().for_each(f),
            BoundExprKind::Index { collection, key } => {
                f(collection);
                f(key);
            }
            BoundExprKind::Object(items) => {
                for (k, v) in items.iter() {
                    f(k);
                    f(v);
                }
            }
            BoundExprKind::RelativeTraversal { source, .. } => f(source),
        }
    }

    /// Every node of this expression in pre-order (each before its
    /// children, children in source order), with a heap stack.
    pub fn walk(self, f: &mut dyn FnMut(BoundRef<'t>)) {
        let mut stack: Vec<BoundRef<'t>> = vec![self];
        let mut children: Vec<BoundRef<'t>> = Vec::new();
        while let Some(e) = stack.pop() {
            f(e);
            e.for_each_child(&mut |c| children.push(c));
            stack.extend(children.drain(..).rev());
        }
    }

    /// Every program node this expression references, in source order,
    /// each once.
    pub fn node_references(self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        let mut seen: HashSet<NodeId, foldhash::fast::RandomState> = HashSet::default();
        self.walk(&mut |e| {
            if let BoundExprKind::ScopeTraversal(t) = e.kind() {
                if let Some(Definition::Node(id)) = &t.definition {
                    if seen.insert(*id) {
                        out.push(*id);
                    }
                }
            }
        });
        out
    }

    /// The names of every function called in this expression, in source
    /// order, each once (the program binder resolves them as node names
    /// too).
    pub fn called_functions(self) -> Vec<&'t str> {
        let mut out: Vec<&'t str> = Vec::new();
        let mut seen: HashSet<&'t str, foldhash::fast::RandomState> = HashSet::default();
        self.walk(&mut |e| {
            if let BoundExprKind::Call(c) = e.kind() {
                if seen.insert(c.name) {
                    out.push(c.name);
                }
            }
        });
        out
    }

    /// The sub-expression a conversion path (from
    /// [`pcl_types::explain_conversion`]) leads to, as far as the syntax
    /// spells it out: object constructions are followed by literal key
    /// (the last item with the key, which is the one that counts), tuple
    /// constructions by index. Stops at the first step it cannot follow and
    /// returns that expression.
    pub fn sub_expression(self, path: &[pcl_types::PathSegment]) -> BoundRef<'t> {
        use pcl_types::PathSegment;
        let mut cur = self.strip_parens();
        for seg in path {
            let next = match (cur.kind(), seg) {
                (
                    BoundExprKind::Object(items),
                    PathSegment::Property(name) | PathSegment::Key(name),
                ) => items
                    .iter()
                    .rev()
                    .find(|(k, _)| k.key_string().as_deref() == Some(name.as_ref()))
                    .map(|(_, v)| v),
                (BoundExprKind::Tuple(items), PathSegment::Index(i)) => items.get(*i),
                _ => None,
            };
            match next {
                Some(n) => cur = n.strip_parens(),
                None => break,
            }
        }
        cur
    }

    /// The string an object key stands for when it is a literal (a string,
    /// number or bool literal, or a template of one literal part).
    pub fn key_string(self) -> Option<String> {
        match self.kind() {
            BoundExprKind::Literal(v) => v.to_key_string(),
            BoundExprKind::Template(_) => self.literal_string().map(str::to_string),
            _ => None,
        }
    }

    /// Unwraps parentheses.
    pub fn strip_parens(self) -> BoundRef<'t> {
        let mut cur = self;
        while let BoundExprKind::Parens(inner) = cur.kind() {
            cur = inner;
        }
        cur
    }

    /// The string value when this is a template of exactly one literal
    /// part (or a string literal).
    pub fn literal_string(self) -> Option<&'t str> {
        match self.kind() {
            BoundExprKind::Literal(Value::String(s)) => Some(s),
            BoundExprKind::Template(parts) => match parts.only()?.kind() {
                BoundExprKind::Literal(Value::String(s)) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }
}
