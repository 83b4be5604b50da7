//! The bound (typed) expression tree (binder.md §3).
//!
//! Every node carries its type and the byte range of the syntax it came
//! from (in the file of the [`crate::BindContext`] that bound it).
//!
//! A long operator chain binds to a left-leaning tree as deep as the chain
//! is long, so everything that walks a whole tree does it with a heap
//! stack: [`BoundExpr`]'s `Clone` and `PartialEq` are written by hand that
//! way, and [`BoundExprKind`]'s `Drop` dismantles the tree iteratively.
//! (`BoundExprKind`, [`BoundFor`] and [`BoundCall`] derive `Clone` and
//! `PartialEq`, which only recurse one level before reaching
//! `BoundExpr`'s.) `Debug` stays derived and recursive: no library code
//! path formats bound expressions with it (only tests do), so deep trees
//! must not be debug-printed on small stacks.

use std::sync::Arc;

use pcl_diagnostics::TextRange;
use pcl_syntax::tree::{BinaryOp, UnaryOp};
use pcl_types::{Name, Type, Value};

use crate::scope::{Definition, Function, NodeId};
use crate::signature::Signature;

/// A typed expression. `Clone` and `PartialEq` are iterative (see the
/// module docs).
#[derive(Debug)]
pub struct BoundExpr {
    pub kind: BoundExprKind,
    pub ty: Type,
    pub range: TextRange,
}

/// One traversal step after binding.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundStep {
    pub kind: BoundStepKind,
    /// The type after this step.
    pub ty: Type,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BoundStepKind {
    /// `.name` (shared by the steps that repeat it)
    Attr(Arc<str>),
    /// `[literal]` or `.0`
    Index(Value),
}

/// A for expression (binder.md §3.7).
#[derive(Clone, Debug, PartialEq)]
pub struct BoundFor {
    pub key_var: Option<String>,
    pub value_var: String,
    pub collection: BoundExpr,
    /// Present for the object form.
    pub key: Option<BoundExpr>,
    pub value: BoundExpr,
    pub condition: Option<BoundExpr>,
    pub grouping: bool,
}

/// A function call (binder.md §3.9, §6.3, §6.4).
#[derive(Clone, Debug, PartialEq)]
pub struct BoundCall {
    pub name: String,
    pub name_range: TextRange,
    /// What the name resolved to; `None` for an unknown function.
    pub function: Option<Function>,
    pub args: Vec<BoundExpr>,
    pub expand_final: bool,
    /// The signature the arguments were checked against.
    pub signature: Signature,
    /// For `invoke`: the canonical token (the call is rewritten to it).
    pub invoke_token: Option<String>,
}

/// A traversal from a name in scope: `name.a[0]…`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundScopeTraversal {
    /// The name (shared by the references that repeat it; one word, so
    /// that this box is 56 bytes, see the `sizes` test).
    pub root: Name,
    pub root_range: TextRange,
    /// What the name resolved to; `None` when it is undefined.
    pub definition: Option<Definition>,
    pub steps: Vec<BoundStep>,
}

/// Expression kinds; they mirror the reference's bound-expression kinds.
/// 32 bytes (a [`BoundExpr`] is 48, see the `sizes` test): every payload is
/// at most three words, the larger ones are boxed.
#[derive(Clone, Debug, PartialEq)]
pub enum BoundExprKind {
    /// A literal value (including a folded `-<number>`).
    Literal(Value),
    /// A template: literal text parts are `Literal(String)` children.
    Template(Vec<BoundExpr>),
    /// A `%{for}` directive inside a template: the tuple-producing for
    /// expression it joins.
    TemplateJoin(Box<BoundExpr>),
    Unary {
        op: UnaryOp,
        operand: Box<BoundExpr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<BoundExpr>,
        rhs: Box<BoundExpr>,
    },
    /// `c ? t : f`, also `%{if}` directives.
    Conditional {
        condition: Box<BoundExpr>,
        then_expr: Box<BoundExpr>,
        else_expr: Box<BoundExpr>,
    },
    For(Box<BoundFor>),
    Splat {
        source: Box<BoundExpr>,
        each: Box<BoundExpr>,
    },
    /// The per-element symbol at the root of a splat's `each`.
    SplatItem,
    Call(Box<BoundCall>),
    /// `coll[key]` with a non-literal key.
    Index {
        collection: Box<BoundExpr>,
        key: Box<BoundExpr>,
    },
    /// `{ k = v, … }` in source order.
    Object(Vec<(BoundExpr, BoundExpr)>),
    Tuple(Vec<BoundExpr>),
    /// `name.a[0]…` (boxed: the kind stays small).
    ScopeTraversal(Box<BoundScopeTraversal>),
    /// `(expr).a`, `f(x)[0]`.
    RelativeTraversal {
        source: Box<BoundExpr>,
        steps: Box<[BoundStep]>,
    },
    Parens(Box<BoundExpr>),
    /// A syntax error placeholder or an expression too deep to bind.
    Error,
}

impl BoundExpr {
    /// The reference's name for this kind (`BinaryOpExpression`, …), as
    /// used by the test vectors.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            BoundExprKind::Literal(_) => "LiteralValueExpression",
            BoundExprKind::Template(_) => "TemplateExpression",
            BoundExprKind::TemplateJoin(_) => "TemplateJoinExpression",
            BoundExprKind::Unary { .. } => "UnaryOpExpression",
            BoundExprKind::Binary { .. } => "BinaryOpExpression",
            BoundExprKind::Conditional { .. } => "ConditionalExpression",
            BoundExprKind::For(_) => "ForExpression",
            BoundExprKind::Splat { .. } => "SplatExpression",
            BoundExprKind::SplatItem => "AnonymousSymbolExpression",
            BoundExprKind::Call(_) => "FunctionCallExpression",
            BoundExprKind::Index { .. } => "IndexExpression",
            BoundExprKind::Object(_) => "ObjectConsExpression",
            BoundExprKind::Tuple(_) => "TupleConsExpression",
            BoundExprKind::ScopeTraversal(_) => "ScopeTraversalExpression",
            BoundExprKind::RelativeTraversal { .. } => "RelativeTraversalExpression",
            BoundExprKind::Parens(_) => "ParenthesesExpression",
            BoundExprKind::Error => "ErrorExpression",
        }
    }

    /// Calls `f` on every direct child.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a BoundExpr)) {
        match &self.kind {
            BoundExprKind::Literal(_) | BoundExprKind::SplatItem | BoundExprKind::Error => {}
            BoundExprKind::ScopeTraversal(_) => {}
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
                f(&x.collection);
                if let Some(k) = &x.key {
                    f(k);
                }
                f(&x.value);
                if let Some(c) = &x.condition {
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
                for (k, v) in items {
                    f(k);
                    f(v);
                }
            }
            BoundExprKind::RelativeTraversal { source, .. } => f(source),
        }
    }

    /// Every program node this expression references, in source order,
    /// each once. Iterative, so deep trees cannot overflow the stack.
    pub fn node_references(&self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        let mut stack: Vec<&BoundExpr> = vec![self];
        while let Some(e) = stack.pop() {
            if let BoundExprKind::ScopeTraversal(t) = &e.kind {
                if let Some(Definition::Node(id)) = &t.definition {
                    if !out.contains(id) {
                        out.push(*id);
                    }
                }
            }
            let mut children: Vec<&BoundExpr> = Vec::new();
            e.for_each_child(&mut |c| children.push(c));
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// The names of every function called in this expression, in source
    /// order (the program binder resolves them as node names too).
    pub fn called_functions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let mut stack: Vec<&BoundExpr> = vec![self];
        while let Some(e) = stack.pop() {
            if let BoundExprKind::Call(c) = &e.kind {
                if !out.contains(&c.name.as_str()) {
                    out.push(&c.name);
                }
            }
            let mut children: Vec<&BoundExpr> = Vec::new();
            e.for_each_child(&mut |c| children.push(c));
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// The sub-expression a conversion path (from
    /// [`pcl_types::explain_conversion`]) leads to, as far as the syntax
    /// spells it out: object constructions are followed by literal key
    /// (the last item with the key, which is the one that counts), tuple
    /// constructions by index. Stops at the first step it cannot follow and
    /// returns that expression.
    pub fn sub_expression(&self, path: &[pcl_types::PathSegment]) -> &BoundExpr {
        use pcl_types::PathSegment;
        let mut cur = self.strip_parens();
        for seg in path {
            let next = match (&cur.kind, seg) {
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
    pub fn key_string(&self) -> Option<String> {
        match &self.kind {
            BoundExprKind::Literal(v) => v.to_key_string(),
            BoundExprKind::Template(_) => self.literal_string().map(str::to_string),
            _ => None,
        }
    }

    /// Unwraps parentheses.
    pub fn strip_parens(&self) -> &BoundExpr {
        let mut cur = self;
        while let BoundExprKind::Parens(inner) = &cur.kind {
            cur = inner;
        }
        cur
    }

    /// The string value when this is a template of exactly one literal
    /// part (or a string literal).
    pub fn literal_string(&self) -> Option<&str> {
        match &self.kind {
            BoundExprKind::Literal(Value::String(s)) => Some(s),
            BoundExprKind::Template(parts) => match parts.as_slice() {
                [one] => match &one.kind {
                    BoundExprKind::Literal(Value::String(s)) => Some(s),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// Dropping without deep recursion: a long operator chain binds to a deep
/// left-leaning tree, and the compiler's recursive drop would overflow the
/// stack. Up to [`RECURSIVE_DROP_LIMIT`] nested drops, each child's kind is
/// dropped in place (no heap stack for the usual shallow expressions);
/// deeper, the children's kinds are moved onto a heap stack first, so every
/// kind the generated code drops has only shallow children. (On the kind
/// rather than on [`BoundExpr`], so callers can still move a bound
/// expression's fields out.)
impl Drop for BoundExprKind {
    fn drop(&mut self) {
        if !has_children(self) {
            return;
        }
        let depth = DROP_DEPTH.with(|d| {
            let value = d.get() + 1;
            d.set(value);
            value
        });
        if depth < RECURSIVE_DROP_LIMIT {
            for_each_child_mut(self, &mut |child| {
                if has_children(&child.kind) {
                    drop(std::mem::replace(&mut child.kind, BoundExprKind::Error));
                }
            });
        } else {
            let mut stack: Vec<BoundExprKind> = Vec::new();
            for_each_child_mut(self, &mut |child| {
                if has_children(&child.kind) {
                    stack.push(std::mem::replace(&mut child.kind, BoundExprKind::Error));
                }
            });
            while let Some(mut kind) = stack.pop() {
                for_each_child_mut(&mut kind, &mut |child| {
                    if has_children(&child.kind) {
                        stack.push(std::mem::replace(&mut child.kind, BoundExprKind::Error));
                    }
                });
            }
        }
        DROP_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Nested [`BoundExprKind`] drops that recurse before the heap stack takes
/// over.
const RECURSIVE_DROP_LIMIT: usize = 64;

thread_local! {
    static DROP_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn has_children(kind: &BoundExprKind) -> bool {
    !matches!(
        kind,
        BoundExprKind::Literal(_)
            | BoundExprKind::SplatItem
            | BoundExprKind::Error
            | BoundExprKind::ScopeTraversal(_)
    )
}

/// [`BoundExpr::for_each_child`] with mutable access, for the drop.
fn for_each_child_mut(kind: &mut BoundExprKind, f: &mut dyn FnMut(&mut BoundExpr)) {
    match kind {
        BoundExprKind::Literal(_)
        | BoundExprKind::SplatItem
        | BoundExprKind::Error
        | BoundExprKind::ScopeTraversal(_) => {}
        BoundExprKind::Template(parts) | BoundExprKind::Tuple(parts) => {
            parts.iter_mut().for_each(f)
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
            f(&mut x.collection);
            if let Some(k) = &mut x.key {
                f(k);
            }
            f(&mut x.value);
            if let Some(c) = &mut x.condition {
                f(c);
            }
        }
        BoundExprKind::Splat { source, each } => {
            f(source);
            f(each);
        }
        BoundExprKind::Call(c) => c.args.iter_mut().for_each(f),
        BoundExprKind::Index { collection, key } => {
            f(collection);
            f(key);
        }
        BoundExprKind::Object(items) => {
            for (k, v) in items {
                f(k);
                f(v);
            }
        }
        BoundExprKind::RelativeTraversal { source, .. } => f(source),
    }
}

impl Clone for BoundExpr {
    /// Clones bottom-up with a heap stack: each expression is rebuilt from
    /// its own fields and its children's finished clones.
    fn clone(&self) -> BoundExpr {
        enum Step<'a> {
            Visit(&'a BoundExpr),
            Build(&'a BoundExpr),
        }
        let mut steps = vec![Step::Visit(self)];
        let mut done: Vec<BoundExpr> = Vec::new();
        while let Some(step) = steps.pop() {
            match step {
                Step::Visit(e) => {
                    steps.push(Step::Build(e));
                    let mut children: Vec<&BoundExpr> = Vec::new();
                    e.for_each_child(&mut |c| children.push(c));
                    steps.extend(children.into_iter().rev().map(Step::Visit));
                }
                Step::Build(e) => {
                    let mut count = 0;
                    e.for_each_child(&mut |_| count += 1);
                    let children = done.split_off(done.len().saturating_sub(count));
                    let mut children = children.into_iter();
                    let kind = clone_kind(&e.kind, &mut || {
                        children.next().unwrap_or_else(|| BoundExpr {
                            kind: BoundExprKind::Error,
                            ty: Type::dynamic(),
                            range: e.range,
                        })
                    });
                    done.push(BoundExpr {
                        kind,
                        ty: e.ty.clone(),
                        range: e.range,
                    });
                }
            }
        }
        done.pop().unwrap_or_else(|| BoundExpr {
            kind: BoundExprKind::Error,
            ty: self.ty.clone(),
            range: self.range,
        })
    }
}

/// `kind` with its own fields cloned and its children taken from `child`,
/// in [`BoundExpr::for_each_child`] order.
fn clone_kind(kind: &BoundExprKind, child: &mut dyn FnMut() -> BoundExpr) -> BoundExprKind {
    let mut boxed = || Box::new(child());
    match kind {
        BoundExprKind::Literal(v) => BoundExprKind::Literal(v.clone()),
        BoundExprKind::Template(parts) => {
            BoundExprKind::Template(parts.iter().map(|_| child()).collect())
        }
        BoundExprKind::TemplateJoin(_) => BoundExprKind::TemplateJoin(boxed()),
        BoundExprKind::Unary { op, .. } => BoundExprKind::Unary {
            op: *op,
            operand: boxed(),
        },
        BoundExprKind::Binary { op, .. } => {
            let lhs = boxed();
            let rhs = boxed();
            BoundExprKind::Binary { op: *op, lhs, rhs }
        }
        BoundExprKind::Conditional { .. } => {
            let condition = boxed();
            let then_expr = boxed();
            let else_expr = boxed();
            BoundExprKind::Conditional {
                condition,
                then_expr,
                else_expr,
            }
        }
        BoundExprKind::For(f) => {
            let BoundFor {
                key_var,
                value_var,
                collection: _,
                key,
                value: _,
                condition,
                grouping,
            } = &**f;
            let collection = child();
            let key = key.as_ref().map(|_| child());
            let value = child();
            let condition = condition.as_ref().map(|_| child());
            BoundExprKind::For(Box::new(BoundFor {
                key_var: key_var.clone(),
                value_var: value_var.clone(),
                collection,
                key,
                value,
                condition,
                grouping: *grouping,
            }))
        }
        BoundExprKind::Splat { .. } => {
            let source = boxed();
            let each = boxed();
            BoundExprKind::Splat { source, each }
        }
        BoundExprKind::SplatItem => BoundExprKind::SplatItem,
        BoundExprKind::Call(c) => {
            let BoundCall {
                name,
                name_range,
                function,
                args,
                expand_final,
                signature,
                invoke_token,
            } = &**c;
            BoundExprKind::Call(Box::new(BoundCall {
                name: name.clone(),
                name_range: *name_range,
                function: function.clone(),
                args: args.iter().map(|_| child()).collect(),
                expand_final: *expand_final,
                signature: signature.clone(),
                invoke_token: invoke_token.clone(),
            }))
        }
        BoundExprKind::Index { .. } => {
            let collection = boxed();
            let key = boxed();
            BoundExprKind::Index { collection, key }
        }
        BoundExprKind::Object(items) => BoundExprKind::Object(
            items
                .iter()
                .map(|_| {
                    let k = child();
                    let v = child();
                    (k, v)
                })
                .collect(),
        ),
        BoundExprKind::Tuple(items) => {
            BoundExprKind::Tuple(items.iter().map(|_| child()).collect())
        }
        BoundExprKind::ScopeTraversal(t) => BoundExprKind::ScopeTraversal(t.clone()),
        BoundExprKind::RelativeTraversal { steps, .. } => {
            let source = boxed();
            BoundExprKind::RelativeTraversal {
                source,
                steps: steps.clone(),
            }
        }
        BoundExprKind::Parens(_) => BoundExprKind::Parens(boxed()),
        BoundExprKind::Error => BoundExprKind::Error,
    }
}

impl PartialEq for BoundExpr {
    /// Compares pairs from a heap stack: each pair's own fields, then its
    /// children pairwise.
    fn eq(&self, other: &BoundExpr) -> bool {
        let mut stack: Vec<(&BoundExpr, &BoundExpr)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.ty != b.ty || a.range != b.range || !same_fields(&a.kind, &b.kind) {
                return false;
            }
            let mut left: Vec<&BoundExpr> = Vec::new();
            a.for_each_child(&mut |c| left.push(c));
            let mut right: Vec<&BoundExpr> = Vec::new();
            b.for_each_child(&mut |c| right.push(c));
            if left.len() != right.len() {
                return false;
            }
            stack.extend(left.into_iter().zip(right).rev());
        }
        true
    }
}

/// Whether two kinds are the same variant with equal fields, not counting
/// child expressions (but counting how many there are and where they sit).
fn same_fields(a: &BoundExprKind, b: &BoundExprKind) -> bool {
    use BoundExprKind as K;
    match (a, b) {
        (K::Literal(x), K::Literal(y)) => x == y,
        (K::Template(x), K::Template(y)) | (K::Tuple(x), K::Tuple(y)) => x.len() == y.len(),
        (K::TemplateJoin(_), K::TemplateJoin(_))
        | (K::Parens(_), K::Parens(_))
        | (K::Conditional { .. }, K::Conditional { .. })
        | (K::Splat { .. }, K::Splat { .. })
        | (K::Index { .. }, K::Index { .. })
        | (K::SplatItem, K::SplatItem)
        | (K::Error, K::Error) => true,
        (K::Unary { op: x, .. }, K::Unary { op: y, .. }) => x == y,
        (K::Binary { op: x, .. }, K::Binary { op: y, .. }) => x == y,
        (K::For(x), K::For(y)) => {
            let BoundFor {
                key_var,
                value_var,
                collection: _,
                key,
                value: _,
                condition,
                grouping,
            } = &**x;
            *key_var == y.key_var
                && *value_var == y.value_var
                && key.is_some() == y.key.is_some()
                && condition.is_some() == y.condition.is_some()
                && *grouping == y.grouping
        }
        (K::Call(x), K::Call(y)) => {
            let BoundCall {
                name,
                name_range,
                function,
                args,
                expand_final,
                signature,
                invoke_token,
            } = &**x;
            *name == y.name
                && *name_range == y.name_range
                && *function == y.function
                && args.len() == y.args.len()
                && *expand_final == y.expand_final
                && *signature == y.signature
                && *invoke_token == y.invoke_token
        }
        (K::Object(x), K::Object(y)) => x.len() == y.len(),
        (K::ScopeTraversal(x), K::ScopeTraversal(y)) => x == y,
        (K::RelativeTraversal { steps: x, .. }, K::RelativeTraversal { steps: y, .. }) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests;
