//! Binding expressions (binder.md §3): every expression kind except calls,
//! which live in [`crate::call`]; traversals are in the `traversal`
//! submodule.
//!
//! Each node binds its children first (their diagnostics come first, in
//! source order), then checks itself.

use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, Severity, TextRange};
use pcl_syntax::tree::{
    BinaryOp, BinaryRef, ExprKind, ExprRef, ForKind, ForRef, Ident, List, Literal, NumberRef,
    NumberValue, ObjectItemRef, Part, PartRef, SplatRef, StepKind, StepRef, TemplateKind,
    TemplateRef, TraversalRef, UnaryOp, UnaryRef,
};
use pcl_types::LiteralTypes;
use pcl_types::{
    collection_types, conversion_from, expr_not_convertible, lift_operation_type, operators,
    traverse, unify_types_safe, unwrap_iterable_source_type, wrap_iterable_result_type, Number,
    Traverser, Type, TypeKind, Value,
};

use crate::bound::{
    BoundExprKind, BoundId, BoundRef, BoundScopeTraversal, BoundStep, BoundStepKind, BoundTree,
    ForData,
};
use crate::codes;
use crate::context::BindContext;
use crate::env::NodeMode;
use crate::scope::{Definition, Scope};
use crate::suggest;
use crate::MAX_EXPR_DEPTH;

mod traversal;
use traversal::{bind_scope_traversal, bind_traversal};

/// Binds one expression in `scope` into a tree of its own; diagnostics go
/// to `cx`.
///
/// The tree is built in a scratch tree that this thread keeps between
/// calls and then copied out at its exact size (or moved, when it is
/// large; see [`BoundTree::take_exact`]): a check binds thousands of
/// small expressions, and growing fresh vectors for each cost more than
/// one copy. A call made while another binds (a host's environment
/// binding something) finds the scratch taken and uses a fresh one.
pub fn bind_expr(expr: ExprRef<'_>, scope: &Scope, cx: &mut BindContext<'_>) -> BoundTree {
    thread_local! {
        static SCRATCH: std::cell::Cell<BoundTree> = std::cell::Cell::new(BoundTree::new());
    }
    let mut t = SCRATCH.take();
    bind(expr, scope, cx, &mut t);
    let out = t.take_exact();
    SCRATCH.set(t);
    out
}

/// Binds one expression into `t`, returning its root's id (pushed last).
pub(crate) fn bind(
    expr: ExprRef<'_>,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    if cx.depth >= MAX_EXPR_DEPTH {
        if !cx.too_deep_reported {
            cx.too_deep_reported = true;
            let span = cx.span(expr.range());
            cx.report(Diagnostic::error(
                codes::EXPRESSION_TOO_DEEP,
                span,
                format!("expression nests more than {MAX_EXPR_DEPTH} levels deep"),
            ));
        }
        return t.error(expr.range());
    }
    cx.depth += 1;
    let bound = bind_kind(expr, scope, cx, t);
    cx.depth -= 1;
    if cx.depth == 0 {
        cx.too_deep_reported = false;
    }
    bound
}

/// Checks that `expr` converts to `dest` and reports `type-not-convertible`
/// at the expression otherwise; returns whether it converts. Only a `None`
/// conversion is reported; unsafe conversions are accepted silently.
pub fn check_convertible(cx: &mut BindContext<'_>, expr: BoundRef<'_>, dest: &Type) -> bool {
    check_type(cx, expr.ty(), expr.range(), dest)
}

/// [`check_convertible`] for a type at a range.
pub(crate) fn check_type(
    cx: &mut BindContext<'_>,
    src: &Type,
    range: TextRange,
    dest: &Type,
) -> bool {
    if conversion_from(dest, src).exists() {
        return true;
    }
    if let Some(d) = expr_not_convertible(dest, src) {
        cx.report_type(d, range);
    }
    false
}

fn bind_kind(
    expr: ExprRef<'_>,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let range = expr.range();
    match expr.kind() {
        ExprKind::Literal(lit) => bind_literal(lit, range, cx, t),
        ExprKind::Template(tm) => bind_template(tm, range, scope, cx, t),
        ExprKind::Variable(ident) => {
            bind_scope_traversal(ident, std::iter::empty(), range, scope, cx, t)
        }
        ExprKind::Traversal(tr) => bind_traversal(tr, range, scope, cx, t),
        ExprKind::Splat(s) => bind_splat(s, range, scope, cx, t),
        ExprKind::SplatItem => match cx.splat_items.last() {
            Some((ty, _)) => t.splat_item(ty.clone(), range),
            None => {
                let span = cx.span(range);
                cx.report(Diagnostic::error(
                    codes::UNDEFINED_ANONYMOUS_SYMBOL,
                    span,
                    "Internal error: undefined anonymous symbol",
                ));
                t.splat_item(Type::dynamic(), range)
            }
        },
        ExprKind::Call(c) => crate::call::bind_call(c, range, scope, cx, t),
        ExprKind::For(f) => bind_for(f, range, scope, cx, t),
        ExprKind::Conditional(c) => {
            let condition = bind(c.condition, scope, cx, t);
            let then_expr = bind(c.then_expr, scope, cx, t);
            let else_expr = bind(c.else_expr, scope, cx, t);
            conditional([condition, then_expr, else_expr], range, cx, t)
        }
        ExprKind::Binary(b) => bind_binary_chain(b, range, scope, cx, t),
        ExprKind::Unary(u) => bind_unary(u, range, scope, cx, t),
        ExprKind::Tuple(items) => {
            let items: Vec<BoundId> = items.iter().map(|e| bind(e, scope, cx, t)).collect();
            let ty = Type::tuple(items.iter().map(|&e| t.ty_of(e).clone()));
            t.tuple(&items, ty, range)
        }
        ExprKind::Object(items) => bind_object(items, range, scope, cx, t),
        ExprKind::Parens(inner) => {
            let inner = bind(inner, scope, cx, t);
            let ty = t.ty_of(inner).clone();
            t.parens(inner, ty, range)
        }
        ExprKind::Error => t.error(range),
    }
}

/// Binds a binary operator and the whole left-leaning chain under it
/// (`a + b + c` is `(a + b) + c`) iteratively: the chain's length does not
/// count against [`MAX_EXPR_DEPTH`] and needs no stack, only genuine
/// nesting (operands, parentheses) does. Diagnostics come in the same
/// order as a recursive bind: the leftmost operand's, then each right
/// operand's followed by its operator's own checks.
///
/// The chain is bound from its bottom up, but the syntax tree only links
/// downwards; rather than keep every inner operation while it binds (a
/// view of 32 bytes per operator, as much as the chain's source again
/// times sixteen), one walk down keeps every [`CHAIN_SEGMENT`]-th
/// operation, and each segment is walked down again from its checkpoint
/// when its turn comes: two visits per operation, and memory for the
/// checkpoints and one segment.
fn bind_binary_chain(
    outer: BinaryRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let mut checkpoints: Vec<ExprRef<'_>> = Vec::new();
    let mut depth = 0usize;
    let mut to_next_checkpoint = 0usize;
    let mut leftmost = outer.lhs;
    while let ExprKind::Binary(inner) = leftmost.kind() {
        if to_next_checkpoint == 0 {
            checkpoints.push(leftmost);
            to_next_checkpoint = CHAIN_SEGMENT;
        }
        to_next_checkpoint -= 1;
        depth += 1;
        leftmost = inner.lhs;
    }
    let mut acc = bind(leftmost, scope, cx, t);
    let mut segment: Vec<ExprRef<'_>> = Vec::with_capacity(CHAIN_SEGMENT.min(depth));
    for start in checkpoints.into_iter().rev() {
        let mut e = start;
        while let ExprKind::Binary(b) = e.kind() {
            segment.push(e);
            if segment.len() == CHAIN_SEGMENT {
                break;
            }
            e = b.lhs;
        }
        for e in segment.drain(..).rev() {
            if let ExprKind::Binary(b) = e.kind() {
                let rhs = bind(b.rhs, scope, cx, t);
                acc = binary(b.op, acc, rhs, e.range(), cx, t);
            }
        }
    }
    let rhs = bind(outer.rhs, scope, cx, t);
    binary(outer.op, acc, rhs, range, cx, t)
}

/// How many operations of a chain [`bind_binary_chain`] holds at once
/// (besides one checkpoint per segment).
const CHAIN_SEGMENT: usize = 1024;

/// Types one binary operation whose operands are bound (binder.md §3.5).
fn binary(
    op: BinaryOp,
    lhs: BoundId,
    rhs: BoundId,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let (lhs_ty, rhs_ty) = (t.ty_of(lhs), t.ty_of(rhs));
    let sig = operators::lifted_signature(op.as_str(), &[lhs_ty, rhs_ty]);
    let (params, result) = match sig {
        Some(sig) => (sig.params.as_slice(), sig.result.clone()),
        None => (&[][..], Type::dynamic()),
    };
    for (operand, (_, param)) in [lhs, rhs].into_iter().zip(params.iter()) {
        let dest = cx.input_type(param);
        check_type(cx, t.ty_of(operand), t.range_of(operand), &dest);
    }
    let ty = lift_operation_type(&result, [lhs_ty, rhs_ty]);
    t.binary(op, lhs, rhs, ty, range)
}

// ---- literals ------------------------------------------------------------------------

/// The value of a numeric literal.
pub(crate) fn number_value(n: NumberRef<'_>) -> Option<Number> {
    match n.value {
        NumberValue::Int(i) => Some(Number::from_bigint(&i.into())),
        NumberValue::Big(i) => Some(Number::from_bigint(i)),
        NumberValue::Fraction(_) => Number::parse(n.text),
        NumberValue::Invalid => None,
    }
}

fn bind_literal(
    lit: Literal<'_>,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let value = match lit {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(b),
        Literal::Number(n) => match number_value(n) {
            Some(v) => Value::Number(v),
            // The parser has already reported the malformed number.
            None => return t.error(range),
        },
    };
    literal(value, range, cx, t)
}

/// A literal expression: `const(literalValueType(v), v)` (binder.md §3.1).
/// The value and its type are shared with equal literals bound before
/// ([`pcl_types::LiteralTypes`]).
pub(crate) fn literal(
    value: Value,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let (_, ty) = cx.literals.get(value);
    t.literal(ty, range)
}

fn negate(n: &Number) -> Option<Number> {
    let text = n.notation();
    match text.strip_prefix('-') {
        Some(rest) => Number::parse(rest),
        None => Number::parse(&format!("-{text}")),
    }
}

fn bind_unary(
    u: UnaryRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let operand = bind(u.operand, scope, cx, t);
    if u.op == UnaryOp::Negate {
        let negated = match t.get(operand).kind() {
            BoundExprKind::Literal(Value::Number(n)) => negate(n),
            _ => None,
        };
        if let Some(neg) = negated {
            t.pop_literal(operand);
            return literal(Value::Number(neg), range, cx, t);
        }
    }
    let name = match u.op {
        UnaryOp::Negate => "neg",
        UnaryOp::Not => "!",
    };
    let operand_ty = t.ty_of(operand);
    let sig = operators::lifted_signature(name, &[operand_ty]);
    if let Some((_, param)) = sig.and_then(|s| s.params.first()) {
        let dest = cx.input_type(param);
        check_type(cx, operand_ty, t.range_of(operand), &dest);
    }
    let result = sig.map_or_else(Type::dynamic, |s| s.result.clone());
    let ty = lift_operation_type(&result, [operand_ty]);
    t.unary(u.op, operand, ty, range)
}

// ---- templates -----------------------------------------------------------------------

fn bind_template(
    tm: TemplateRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    // `"${x}"` is `x` itself (binder.md §3.2).
    if let Some(inner) = tm.wrapped_expr() {
        return bind(inner, scope, cx, t);
    }
    let parts = if tm.parts().is_empty() {
        vec![string_literal("", range, cx, t)]
    } else {
        bind_parts(tm.parts(), scope, cx, t)
    };
    template(&parts, range, t)
}

fn template(parts: &[BoundId], range: TextRange, t: &mut BoundTree) -> BoundId {
    let ty = lift_operation_type(&Type::string(), parts.iter().map(|&p| t.ty_of(p)));
    t.template(parts, ty, range)
}

fn string_literal(
    s: &str,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let (_, ty) = cx.literals.string(s);
    t.literal(ty, range)
}

fn parts_range(parts: List<'_, PartRef<'_>>, fallback: TextRange) -> TextRange {
    match (parts.first(), parts.last()) {
        (Some(a), Some(b)) => a.range().cover(b.range()),
        _ => TextRange::empty(fallback.end),
    }
}

fn bind_parts(
    parts: List<'_, PartRef<'_>>,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> Vec<BoundId> {
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        match part.kind() {
            Part::Literal(lit) => out.push(string_literal(lit.value(), lit.range(), cx, t)),
            Part::Interpolation(i) => out.push(bind(i.expr(), scope, cx, t)),
            Part::If(dir) => {
                if cx.depth >= MAX_EXPR_DEPTH {
                    out.push(bind(dir.condition(), scope, cx, t));
                    continue;
                }
                let dir_range = dir.range();
                cx.depth += 1;
                let condition = bind(dir.condition(), scope, cx, t);
                let then_range = parts_range(dir.then_parts(), dir_range);
                let then_parts = bind_parts(dir.then_parts(), scope, cx, t);
                let then_parts = non_empty(then_parts, then_range, cx, t);
                let then_expr = template(&then_parts, then_range, t);
                let else_expr = match dir.else_parts() {
                    Some(ps) => {
                        let r = parts_range(ps, dir_range);
                        let bound = bind_parts(ps, scope, cx, t);
                        let bound = non_empty(bound, r, cx, t);
                        template(&bound, r, t)
                    }
                    None => {
                        let empty = string_literal("", TextRange::empty(dir_range.end), cx, t);
                        template(&[empty], dir_range, t)
                    }
                };
                cx.depth -= 1;
                out.push(conditional(
                    [condition, then_expr, else_expr],
                    dir_range,
                    cx,
                    t,
                ));
            }
            Part::For(dir) => {
                if cx.depth >= MAX_EXPR_DEPTH {
                    out.push(bind(dir.collection(), scope, cx, t));
                    continue;
                }
                let dir_range = dir.range();
                cx.depth += 1;
                let collection = bind(dir.collection(), scope, cx, t);
                let (key_ty, value_ty) = iteration_types(t.get(collection), cx);
                let mut inner = scope.child();
                define_for_vars(
                    &mut inner,
                    dir.key_var(),
                    dir.value_var(),
                    key_ty,
                    value_ty,
                    dir_range,
                    cx,
                );
                let body_range = parts_range(dir.body(), dir_range);
                let body = bind_parts(dir.body(), &inner, cx, t);
                let body = non_empty(body, body_range, cx, t);
                let value = template(&body, body_range, t);
                cx.depth -= 1;
                let result = wrap_iterable_result_type(
                    t.ty_of(collection),
                    &Type::list(t.ty_of(value).clone()),
                );
                let for_expr = t.for_expr(
                    ForData {
                        key_var: dir.key_var().map(|k| k.name.to_owned()),
                        value_var: dir.value_var().name.to_owned(),
                        collection,
                        key: None,
                        value,
                        condition: None,
                        grouping: false,
                    },
                    result,
                    dir_range,
                );
                let ty = lift_operation_type(&Type::string(), [t.ty_of(for_expr)]);
                out.push(t.template_join(for_expr, ty, dir_range));
            }
        }
    }
    out
}

fn non_empty(
    parts: Vec<BoundId>,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> Vec<BoundId> {
    if parts.is_empty() {
        vec![string_literal("", range, cx, t)]
    } else {
        parts
    }
}

// ---- conditionals --------------------------------------------------------------------

/// The literal `null`'s type `const(none, null)` counts as `none` when
/// unifying branches, so `c ? x : null` is `optional(x)` (fixes defect
/// `const-null-not-optional`).
fn branch_type(t: &Type) -> Type {
    match t.as_const() {
        Some(c) if matches!(c.value(), Value::Null) => Type::none(),
        _ => t.clone(),
    }
}

pub(crate) fn conditional(
    [condition, then_expr, else_expr]: [BoundId; 3],
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let unified = unify_types_safe(&[
        branch_type(t.ty_of(then_expr)),
        branch_type(t.ty_of(else_expr)),
    ]);
    let dest = cx.input_type(&Type::bool());
    check_type(cx, t.ty_of(condition), t.range_of(condition), &dest);
    let ty = lift_operation_type(&unified, [t.ty_of(condition)]);
    t.conditional([condition, then_expr, else_expr], ty, range)
}

// ---- for expressions -----------------------------------------------------------------

/// `CollectionTypes` of a bound collection, reporting at its range.
pub(crate) fn iteration_types(collection: BoundRef<'_>, cx: &mut BindContext<'_>) -> (Type, Type) {
    iteration_types_of(collection.ty(), collection.range(), cx)
}

pub(crate) fn iteration_types_of(
    ty: &Type,
    range: TextRange,
    cx: &mut BindContext<'_>,
) -> (Type, Type) {
    let strict = !cx.options().skip_range_typecheck;
    let ct = collection_types(ty, strict);
    for d in ct.diagnostics {
        cx.report_type(d, range);
    }
    (ct.key, ct.value)
}

fn define_for_vars(
    scope: &mut Scope,
    key_var: Option<Ident<'_>>,
    value_var: Ident<'_>,
    key_ty: Type,
    value_ty: Type,
    for_range: TextRange,
    cx: &mut BindContext<'_>,
) {
    if let Some(k) = key_var {
        let def = Definition::declared_variable(k.name, key_ty, Some(cx.span(k.range)));
        let _ = scope.define(k.name.to_owned(), def, false);
    }
    let def =
        Definition::declared_variable(value_var.name, value_ty, Some(cx.span(value_var.range)));
    if scope.define(value_var.name.to_owned(), def, false).is_err() {
        let span = cx.span(for_range);
        cx.report(Diagnostic::error(
            codes::DUPLICATE_FOR_VARIABLE,
            span,
            format!("name `{}` already defined", value_var.name),
        ));
    }
}

fn bind_for(
    f: ForRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let collection = bind(f.collection(), scope, cx, t);
    let (key_ty, value_ty) = iteration_types(t.get(collection), cx);
    let mut inner = scope.child();
    define_for_vars(
        &mut inner,
        f.key_var(),
        f.value_var(),
        key_ty,
        value_ty,
        range,
        cx,
    );
    let key = f.key_expr().map(|k| bind(k, &inner, cx, t));
    let value = bind(f.value_expr(), &inner, cx, t);
    let condition = f.condition().map(|c| bind(c, &inner, cx, t));
    if let Some(k) = key {
        let dest = cx.input_type(&Type::string());
        check_type(cx, t.ty_of(k), t.range_of(k), &dest);
    }
    if let Some(c) = condition {
        let dest = cx.input_type(&Type::bool());
        check_type(cx, t.ty_of(c), t.range_of(c), &dest);
    }
    let value_ty = t.ty_of(value);
    let result = match (&key, f.kind()) {
        (Some(_), _) | (None, ForKind::Object) => {
            if f.grouping() {
                Type::map(Type::list(value_ty.clone()))
            } else {
                Type::map(value_ty.clone())
            }
        }
        (None, ForKind::Tuple) => Type::list(value_ty.clone()),
    };
    let result = wrap_iterable_result_type(t.ty_of(collection), &result);
    let lifters: Vec<&Type> = key
        .iter()
        .chain(condition.iter())
        .map(|&e| t.ty_of(e))
        .collect();
    let ty = lift_operation_type(&result, lifters);
    t.for_expr(
        ForData {
            key_var: f.key_var().map(|k| k.name.to_owned()),
            value_var: f.value_var().name.to_owned(),
            collection,
            key,
            value,
            condition,
            grouping: f.grouping(),
        },
        ty,
        range,
    )
}

// ---- splats --------------------------------------------------------------------------

fn bind_splat(
    s: SplatRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let (mark, repeats) = (cx.mark(), cx.repeats);
    let source = bind(s.source(), scope, cx, t);
    let source_reported = cx.mark() > mark || cx.repeats > repeats;
    let source_ty = t.ty_of(source);
    let unwrapped = unwrap_iterable_source_type(source_ty);
    let (item, source_ty) = match unwrapped.kind() {
        TypeKind::List(e) | TypeKind::Set(e) => (e.clone(), source_ty.clone()),
        TypeKind::Tuple(es) => (unify_types_safe(es), source_ty.clone()),
        TypeKind::Dynamic => (Type::dynamic(), source_ty.clone()),
        // A scalar behaves like a one-element list (binder.md §3.8); the
        // eventual wrapper is lost (defect eventual-lost-through-optional,
        // replicated).
        _ => (unwrapped.clone(), Type::list(source_ty.clone())),
    };
    // A `none` item of a source that reported a problem is that problem's
    // result (`x[*].b[*].c` over `[]`: `.b` of `none` is `none`, reported
    // once), not a new one.
    let failed = source_reported && item.is_none();
    cx.splat_items.push((item, failed));
    let each = bind(s.each(), scope, cx, t);
    cx.splat_items.pop();
    let ty = wrap_iterable_result_type(&source_ty, &Type::list(t.ty_of(each).clone()));
    t.splat(source, each, ty, range)
}

// ---- objects -------------------------------------------------------------------------

/// The property name of a literal key: a literal value convertible to a
/// string, or a template of exactly one literal part.
/// The property name a literal key stands for; a string literal's text is
/// shared, not copied.
/// Whether [`literal_key`] has a name for `key` (without building it).
fn is_literal_key(key: BoundRef<'_>) -> bool {
    match key.kind() {
        // The values `Value::to_key_string` spells.
        BoundExprKind::Literal(v) => {
            matches!(v, Value::String(_) | Value::Bool(_) | Value::Number(_))
        }
        BoundExprKind::Template(parts) => parts
            .only()
            .is_some_and(|p| matches!(p.kind(), BoundExprKind::Literal(Value::String(_)))),
        _ => false,
    }
}

fn literal_key(key: BoundRef<'_>) -> Option<Arc<str>> {
    let string = |s: &Arc<str>| Some(Arc::clone(s));
    match key.kind() {
        BoundExprKind::Literal(Value::String(s)) => string(s),
        BoundExprKind::Literal(v) => v.to_key_string().map(Arc::from),
        BoundExprKind::Template(parts) => match parts.only()?.kind() {
            BoundExprKind::Literal(Value::String(s)) => string(s),
            _ => None,
        },
        _ => None,
    }
}

fn bind_object(
    items: List<'_, ObjectItemRef<'_>>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    // Keys and values alternating.
    let mut bound: Vec<BoundId> = Vec::with_capacity(2 * items.len());
    for item in items {
        let key = match item.bare_key() {
            Some(name)
                if !item.force_non_literal()
                    && matches!(item.key().kind(), ExprKind::Variable(_)) =>
            {
                string_literal(name, item.key().range(), cx, t)
            }
            _ => bind(item.key(), scope, cx, t),
        };
        let value = bind(item.value(), scope, cx, t);
        let string_input = cx.input_type(&Type::string());
        let key_ty = t.ty_of(key);
        if !conversion_from(&string_input, key_ty).exists() {
            let span = cx.span(t.range_of(key));
            cx.report(Diagnostic::error(
                codes::OBJECT_KEY_NOT_CONVERTIBLE,
                span,
                format!(
                    "object keys must be strings: expected string, found {}",
                    pcl_types::found_text(key_ty)
                ),
            ));
        }
        bound.push(key);
        bound.push(value);
    }
    let pairs = || {
        bound.chunks_exact(2).filter_map(|kv| match kv {
            [k, v] => Some((t.get(*k), t.get(*v))),
            _ => None,
        })
    };
    // Whether every key is literal is decided first, so that no list of
    // the keys' names is built beside the items.
    let literal_keys = pairs().all(|(k, _)| is_literal_key(k));
    let ty = match literal_keys {
        // A repeated key keeps its first position and its last value, as
        // the property map's inserts do.
        true => Type::object(pairs().filter_map(|(k, v)| Some((literal_key(k)?, v.ty().clone())))),
        false => {
            let values: Vec<Type> = pairs().map(|(_, v)| v.ty().clone()).collect();
            Type::map(unify_types_safe(&values))
        }
    };
    let ty = lift_operation_type(&ty, pairs().map(|(k, _)| k.ty()));
    t.object(&bound, ty, range)
}
