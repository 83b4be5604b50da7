//! The bound (typed) expression tree (binder.md §3).
//!
//! Every node carries its type and the byte range of the syntax it came
//! from (in the file of the [`crate::BindContext`] that bound it).

use pcl_diagnostics::TextRange;
use pcl_syntax::ast::{BinaryOp, UnaryOp};
use pcl_types::{Type, Value};

use crate::scope::{Definition, Function, NodeId};
use crate::signature::Signature;

/// A typed expression.
#[derive(Clone, Debug, PartialEq)]
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
    /// `.name`
    Attr(String),
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

/// Expression kinds; they mirror the reference's bound-expression kinds.
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
    /// `name.a[0]…`: the root name, what it resolved to (`None` when
    /// undefined) and the steps.
    ScopeTraversal {
        root: String,
        root_range: TextRange,
        definition: Option<Definition>,
        steps: Vec<BoundStep>,
    },
    /// `(expr).a`, `f(x)[0]`.
    RelativeTraversal {
        source: Box<BoundExpr>,
        steps: Vec<BoundStep>,
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
            BoundExprKind::ScopeTraversal { .. } => "ScopeTraversalExpression",
            BoundExprKind::RelativeTraversal { .. } => "RelativeTraversalExpression",
            BoundExprKind::Parens(_) => "ParenthesesExpression",
            BoundExprKind::Error => "ErrorExpression",
        }
    }

    /// Calls `f` on every direct child.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a BoundExpr)) {
        match &self.kind {
            BoundExprKind::Literal(_) | BoundExprKind::SplatItem | BoundExprKind::Error => {}
            BoundExprKind::ScopeTraversal { .. } => {}
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
            if let BoundExprKind::ScopeTraversal {
                definition: Some(Definition::Node(id)),
                ..
            } = &e.kind
            {
                if !out.contains(id) {
                    out.push(*id);
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
    fn key_string(&self) -> Option<String> {
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

/// Dropping iteratively: a long operator chain binds to a deep left-leaning
/// tree, and the compiler's recursive drop would overflow the stack. The
/// children's kinds are moved onto a heap stack first, so every kind the
/// generated code drops has only shallow children. (On the kind rather than
/// on [`BoundExpr`], so callers can still move a bound expression's fields
/// out.)
impl Drop for BoundExprKind {
    fn drop(&mut self) {
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
}

fn has_children(kind: &BoundExprKind) -> bool {
    !matches!(
        kind,
        BoundExprKind::Literal(_)
            | BoundExprKind::SplatItem
            | BoundExprKind::Error
            | BoundExprKind::ScopeTraversal { .. }
    )
}

/// [`BoundExpr::for_each_child`] with mutable access, for the drop.
fn for_each_child_mut(kind: &mut BoundExprKind, f: &mut dyn FnMut(&mut BoundExpr)) {
    match kind {
        BoundExprKind::Literal(_)
        | BoundExprKind::SplatItem
        | BoundExprKind::Error
        | BoundExprKind::ScopeTraversal { .. } => {}
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
