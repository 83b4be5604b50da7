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
    BoundExpr, BoundExprKind, BoundFor, BoundScopeTraversal, BoundStep, BoundStepKind,
};
use crate::codes;
use crate::context::BindContext;
use crate::env::NodeMode;
use crate::scope::{Definition, Scope};
use crate::suggest;
use crate::MAX_EXPR_DEPTH;

mod traversal;
use traversal::{bind_scope_traversal, bind_traversal};

/// Binds one expression in `scope`; diagnostics go to `cx`.
pub fn bind_expr(expr: ExprRef<'_>, scope: &Scope, cx: &mut BindContext<'_>) -> BoundExpr {
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
        return error_expr(expr.range());
    }
    cx.depth += 1;
    let bound = bind_kind(expr, scope, cx);
    cx.depth -= 1;
    if cx.depth == 0 {
        cx.too_deep_reported = false;
    }
    bound
}

/// Checks that `expr` converts to `dest` and reports `type-not-convertible`
/// at the expression otherwise; returns whether it converts. Only a `None`
/// conversion is reported; unsafe conversions are accepted silently.
pub fn check_convertible(cx: &mut BindContext<'_>, expr: &BoundExpr, dest: &Type) -> bool {
    check_type(cx, &expr.ty, expr.range, dest)
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

pub(crate) fn error_expr(range: TextRange) -> BoundExpr {
    BoundExpr {
        kind: BoundExprKind::Error,
        ty: Type::dynamic(),
        range,
    }
}

fn bind_kind(expr: ExprRef<'_>, scope: &Scope, cx: &mut BindContext<'_>) -> BoundExpr {
    let range = expr.range();
    match expr.kind() {
        ExprKind::Literal(lit) => bind_literal(lit, range, cx),
        ExprKind::Template(t) => bind_template(t, range, scope, cx),
        ExprKind::Variable(ident) => {
            bind_scope_traversal(ident, std::iter::empty(), range, scope, cx)
        }
        ExprKind::Traversal(t) => bind_traversal(t, range, scope, cx),
        ExprKind::Splat(s) => bind_splat(s, range, scope, cx),
        ExprKind::SplatItem => match cx.splat_items.last() {
            Some((ty, _)) => BoundExpr {
                kind: BoundExprKind::SplatItem,
                ty: ty.clone(),
                range,
            },
            None => {
                let span = cx.span(range);
                cx.report(Diagnostic::error(
                    codes::UNDEFINED_ANONYMOUS_SYMBOL,
                    span,
                    "Internal error: undefined anonymous symbol",
                ));
                BoundExpr {
                    kind: BoundExprKind::SplatItem,
                    ty: Type::dynamic(),
                    range,
                }
            }
        },
        ExprKind::Call(c) => crate::call::bind_call(c, range, scope, cx),
        ExprKind::For(f) => bind_for(f, range, scope, cx),
        ExprKind::Conditional(c) => {
            let condition = bind_expr(c.condition, scope, cx);
            let then_expr = bind_expr(c.then_expr, scope, cx);
            let else_expr = bind_expr(c.else_expr, scope, cx);
            conditional(condition, then_expr, else_expr, range, cx)
        }
        ExprKind::Binary(b) => bind_binary_chain(b, range, scope, cx),
        ExprKind::Unary(u) => bind_unary(u, range, scope, cx),
        ExprKind::Tuple(items) => {
            let items: Vec<BoundExpr> = items.iter().map(|e| bind_expr(e, scope, cx)).collect();
            let ty = Type::tuple(items.iter().map(|e| e.ty.clone()));
            BoundExpr {
                kind: BoundExprKind::Tuple(items),
                ty,
                range,
            }
        }
        ExprKind::Object(items) => bind_object(items, range, scope, cx),
        ExprKind::Parens(inner) => {
            let inner = bind_expr(inner, scope, cx);
            BoundExpr {
                ty: inner.ty.clone(),
                kind: BoundExprKind::Parens(Box::new(inner)),
                range,
            }
        }
        ExprKind::Error => error_expr(range),
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
) -> BoundExpr {
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
    let mut acc = bind_expr(leftmost, scope, cx);
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
                let rhs = bind_expr(b.rhs, scope, cx);
                acc = binary(b.op, acc, rhs, e.range(), cx);
            }
        }
    }
    let rhs = bind_expr(outer.rhs, scope, cx);
    binary(outer.op, acc, rhs, range, cx)
}

/// How many operations of a chain [`bind_binary_chain`] holds at once
/// (besides one checkpoint per segment).
const CHAIN_SEGMENT: usize = 1024;

/// Types one binary operation whose operands are bound (binder.md §3.5).
fn binary(
    op: BinaryOp,
    lhs: BoundExpr,
    rhs: BoundExpr,
    range: TextRange,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let sig = operators::lifted_signature(op.as_str(), &[&lhs.ty, &rhs.ty]);
    let (params, result) = match sig {
        Some(sig) => (sig.params.as_slice(), sig.result.clone()),
        None => (&[][..], Type::dynamic()),
    };
    for (operand, (_, param)) in [&lhs, &rhs].into_iter().zip(params.iter()) {
        let dest = cx.input_type(param);
        check_type(cx, &operand.ty, operand.range, &dest);
    }
    let ty = lift_operation_type(&result, [&lhs.ty, &rhs.ty]);
    BoundExpr {
        kind: BoundExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        ty,
        range,
    }
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

fn bind_literal(lit: Literal<'_>, range: TextRange, cx: &mut BindContext<'_>) -> BoundExpr {
    let value = match lit {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(b),
        Literal::Number(n) => match number_value(n) {
            Some(v) => Value::Number(v),
            // The parser has already reported the malformed number.
            None => return error_expr(range),
        },
    };
    literal(value, range, cx)
}

/// A literal expression: `const(literalValueType(v), v)` (binder.md §3.1).
/// The value and its type are shared with equal literals bound before
/// ([`pcl_types::LiteralTypes`]).
pub(crate) fn literal(value: Value, range: TextRange, cx: &mut BindContext<'_>) -> BoundExpr {
    let (value, ty) = cx.literals.get(value);
    BoundExpr {
        ty,
        kind: BoundExprKind::Literal(value),
        range,
    }
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
) -> BoundExpr {
    let operand = bind_expr(u.operand, scope, cx);
    if u.op == UnaryOp::Negate {
        if let BoundExprKind::Literal(Value::Number(n)) = &operand.kind {
            if let Some(neg) = negate(n) {
                return literal(Value::Number(neg), range, cx);
            }
        }
    }
    let name = match u.op {
        UnaryOp::Negate => "neg",
        UnaryOp::Not => "!",
    };
    let sig = operators::lifted_signature(name, &[&operand.ty]);
    if let Some((_, param)) = sig.and_then(|s| s.params.first()) {
        let dest = cx.input_type(param);
        check_type(cx, &operand.ty, operand.range, &dest);
    }
    let result = sig.map_or_else(Type::dynamic, |s| s.result.clone());
    let ty = lift_operation_type(&result, [&operand.ty]);
    BoundExpr {
        kind: BoundExprKind::Unary {
            op: u.op,
            operand: Box::new(operand),
        },
        ty,
        range,
    }
}

// ---- templates -----------------------------------------------------------------------

fn bind_template(
    t: TemplateRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    // `"${x}"` is `x` itself (binder.md §3.2).
    if let Some(inner) = t.wrapped_expr() {
        return bind_expr(inner, scope, cx);
    }
    let parts = if t.parts().is_empty() {
        vec![string_literal("", range, cx)]
    } else {
        bind_parts(t.parts(), scope, cx)
    };
    template(parts, range)
}

fn template(parts: Vec<BoundExpr>, range: TextRange) -> BoundExpr {
    let ty = lift_operation_type(&Type::string(), parts.iter().map(|p| &p.ty));
    BoundExpr {
        kind: BoundExprKind::Template(parts),
        ty,
        range,
    }
}

fn string_literal(s: &str, range: TextRange, cx: &mut BindContext<'_>) -> BoundExpr {
    let (value, ty) = cx.literals.string(s);
    BoundExpr {
        ty,
        kind: BoundExprKind::Literal(value),
        range,
    }
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
) -> Vec<BoundExpr> {
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        match part.kind() {
            Part::Literal(lit) => out.push(string_literal(lit.value(), lit.range(), cx)),
            Part::Interpolation(i) => out.push(bind_expr(i.expr(), scope, cx)),
            Part::If(dir) => {
                if cx.depth >= MAX_EXPR_DEPTH {
                    out.push(bind_expr(dir.condition(), scope, cx));
                    continue;
                }
                let dir_range = dir.range();
                cx.depth += 1;
                let condition = bind_expr(dir.condition(), scope, cx);
                let then_range = parts_range(dir.then_parts(), dir_range);
                let then_parts = bind_parts(dir.then_parts(), scope, cx);
                let then_expr = template(non_empty(then_parts, then_range, cx), then_range);
                let else_expr = match dir.else_parts() {
                    Some(ps) => {
                        let r = parts_range(ps, dir_range);
                        let bound = bind_parts(ps, scope, cx);
                        template(non_empty(bound, r, cx), r)
                    }
                    None => template(
                        vec![string_literal("", TextRange::empty(dir_range.end), cx)],
                        dir_range,
                    ),
                };
                cx.depth -= 1;
                out.push(conditional(condition, then_expr, else_expr, dir_range, cx));
            }
            Part::For(dir) => {
                if cx.depth >= MAX_EXPR_DEPTH {
                    out.push(bind_expr(dir.collection(), scope, cx));
                    continue;
                }
                let dir_range = dir.range();
                cx.depth += 1;
                let collection = bind_expr(dir.collection(), scope, cx);
                let (key_ty, value_ty) = iteration_types(&collection, cx);
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
                let body = bind_parts(dir.body(), &inner, cx);
                let value = template(non_empty(body, body_range, cx), body_range);
                cx.depth -= 1;
                let result =
                    wrap_iterable_result_type(&collection.ty, &Type::list(value.ty.clone()));
                let for_expr = BoundExpr {
                    kind: BoundExprKind::For(Box::new(BoundFor {
                        key_var: dir.key_var().map(|k| k.name.to_owned()),
                        value_var: dir.value_var().name.to_owned(),
                        collection,
                        key: None,
                        value,
                        condition: None,
                        grouping: false,
                    })),
                    ty: result,
                    range: dir_range,
                };
                let ty = lift_operation_type(&Type::string(), [&for_expr.ty]);
                out.push(BoundExpr {
                    kind: BoundExprKind::TemplateJoin(Box::new(for_expr)),
                    ty,
                    range: dir_range,
                });
            }
        }
    }
    out
}

fn non_empty(parts: Vec<BoundExpr>, range: TextRange, cx: &mut BindContext<'_>) -> Vec<BoundExpr> {
    if parts.is_empty() {
        vec![string_literal("", range, cx)]
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
    condition: BoundExpr,
    then_expr: BoundExpr,
    else_expr: BoundExpr,
    range: TextRange,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let unified = unify_types_safe(&[branch_type(&then_expr.ty), branch_type(&else_expr.ty)]);
    let dest = cx.input_type(&Type::bool());
    check_type(cx, &condition.ty, condition.range, &dest);
    let ty = lift_operation_type(&unified, [&condition.ty]);
    BoundExpr {
        kind: BoundExprKind::Conditional {
            condition: Box::new(condition),
            then_expr: Box::new(then_expr),
            else_expr: Box::new(else_expr),
        },
        ty,
        range,
    }
}

// ---- for expressions -----------------------------------------------------------------

/// `CollectionTypes` of a bound collection, reporting at its range.
pub(crate) fn iteration_types(collection: &BoundExpr, cx: &mut BindContext<'_>) -> (Type, Type) {
    iteration_types_of(&collection.ty, collection.range, cx)
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
            format!("name {} already defined", value_var.name),
        ));
    }
}

fn bind_for(f: ForRef<'_>, range: TextRange, scope: &Scope, cx: &mut BindContext<'_>) -> BoundExpr {
    let collection = bind_expr(f.collection(), scope, cx);
    let (key_ty, value_ty) = iteration_types(&collection, cx);
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
    let key = f.key_expr().map(|k| bind_expr(k, &inner, cx));
    let value = bind_expr(f.value_expr(), &inner, cx);
    let condition = f.condition().map(|c| bind_expr(c, &inner, cx));
    if let Some(k) = &key {
        let dest = cx.input_type(&Type::string());
        check_type(cx, &k.ty, k.range, &dest);
    }
    if let Some(c) = &condition {
        let dest = cx.input_type(&Type::bool());
        check_type(cx, &c.ty, c.range, &dest);
    }
    let result = match (&key, f.kind()) {
        (Some(_), _) | (None, ForKind::Object) => {
            if f.grouping() {
                Type::map(Type::list(value.ty.clone()))
            } else {
                Type::map(value.ty.clone())
            }
        }
        (None, ForKind::Tuple) => Type::list(value.ty.clone()),
    };
    let result = wrap_iterable_result_type(&collection.ty, &result);
    let lifters: Vec<&Type> = key.iter().chain(condition.iter()).map(|e| &e.ty).collect();
    let ty = lift_operation_type(&result, lifters);
    BoundExpr {
        kind: BoundExprKind::For(Box::new(BoundFor {
            key_var: f.key_var().map(|k| k.name.to_owned()),
            value_var: f.value_var().name.to_owned(),
            collection,
            key,
            value,
            condition,
            grouping: f.grouping(),
        })),
        ty,
        range,
    }
}

// ---- splats --------------------------------------------------------------------------

fn bind_splat(
    s: SplatRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let (mark, repeats) = (cx.mark(), cx.repeats);
    let source = bind_expr(s.source(), scope, cx);
    let source_reported = cx.mark() > mark || cx.repeats > repeats;
    let unwrapped = unwrap_iterable_source_type(&source.ty);
    let (item, source_ty) = match unwrapped.kind() {
        TypeKind::List(e) | TypeKind::Set(e) => (e.clone(), source.ty.clone()),
        TypeKind::Tuple(es) => (unify_types_safe(es), source.ty.clone()),
        TypeKind::Dynamic => (Type::dynamic(), source.ty.clone()),
        // A scalar behaves like a one-element list (binder.md §3.8); the
        // eventual wrapper is lost (defect eventual-lost-through-optional,
        // replicated).
        _ => (unwrapped.clone(), Type::list(source.ty.clone())),
    };
    // A `none` item of a source that reported a problem is that problem's
    // result (`x[*].b[*].c` over `[]`: `.b` of `none` is `none`, reported
    // once), not a new one.
    let failed = source_reported && item.is_none();
    cx.splat_items.push((item, failed));
    let each = bind_expr(s.each(), scope, cx);
    cx.splat_items.pop();
    let ty = wrap_iterable_result_type(&source_ty, &Type::list(each.ty.clone()));
    BoundExpr {
        kind: BoundExprKind::Splat {
            source: Box::new(source),
            each: Box::new(each),
        },
        ty,
        range,
    }
}

// ---- objects -------------------------------------------------------------------------

/// The property name of a literal key: a literal value convertible to a
/// string, or a template of exactly one literal part.
/// The property name a literal key stands for; a string literal's text is
/// shared, not copied.
/// Whether [`literal_key`] has a name for `key` (without building it).
fn is_literal_key(key: &BoundExpr) -> bool {
    match &key.kind {
        // The values `Value::to_key_string` spells.
        BoundExprKind::Literal(v) => {
            matches!(v, Value::String(_) | Value::Bool(_) | Value::Number(_))
        }
        BoundExprKind::Template(parts) => matches!(
            parts.as_slice(),
            [BoundExpr {
                kind: BoundExprKind::Literal(Value::String(_)),
                ..
            }]
        ),
        _ => false,
    }
}

fn literal_key(key: &BoundExpr) -> Option<Arc<str>> {
    let string = |s: &Arc<str>| Some(Arc::clone(s));
    match &key.kind {
        BoundExprKind::Literal(Value::String(s)) => string(s),
        BoundExprKind::Literal(v) => v.to_key_string().map(Arc::from),
        BoundExprKind::Template(parts) => match parts.as_slice() {
            [one] => match &one.kind {
                BoundExprKind::Literal(Value::String(s)) => string(s),
                _ => None,
            },
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
) -> BoundExpr {
    let mut bound: Vec<(BoundExpr, BoundExpr)> = Vec::with_capacity(items.len());
    for item in items {
        let key = match item.bare_key() {
            Some(name)
                if !item.force_non_literal()
                    && matches!(item.key().kind(), ExprKind::Variable(_)) =>
            {
                string_literal(name, item.key().range(), cx)
            }
            _ => bind_expr(item.key(), scope, cx),
        };
        let value = bind_expr(item.value(), scope, cx);
        let string_input = cx.input_type(&Type::string());
        if !conversion_from(&string_input, &key.ty).exists() {
            let span = cx.span(key.range);
            cx.report(Diagnostic::error(
                codes::OBJECT_KEY_NOT_CONVERTIBLE,
                span,
                format!(
                    "object keys must be strings: expected string, found {}",
                    pcl_types::found_text(&key.ty)
                ),
            ));
        }
        bound.push((key, value));
    }
    // Whether every key is literal is decided first, so that no list of
    // the keys' names is built beside the items.
    let literal_keys = bound.iter().all(|(k, _)| is_literal_key(k));
    let ty = match literal_keys {
        // A repeated key keeps its first position and its last value, as
        // the property map's inserts do.
        true => Type::object(
            bound
                .iter()
                .filter_map(|(k, v)| Some((literal_key(k)?, v.ty.clone()))),
        ),
        false => {
            let values: Vec<Type> = bound.iter().map(|(_, v)| v.ty.clone()).collect();
            Type::map(unify_types_safe(&values))
        }
    };
    let ty = lift_operation_type(&ty, bound.iter().map(|(k, _)| &k.ty));
    BoundExpr {
        kind: BoundExprKind::Object(bound),
        ty,
        range,
    }
}
