//! Binding expressions (binder.md §3): every expression kind except calls,
//! which live in [`crate::call`].
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

// ---- traversals ----------------------------------------------------------------------

/// A step key that the parser would have folded into a traversal step:
/// a number/bool/null literal or a string without interpolations.
fn literal_step_key(e: ExprRef<'_>) -> Option<Value> {
    match e.kind() {
        ExprKind::Literal(Literal::Null) => Some(Value::Null),
        ExprKind::Literal(Literal::Bool(b)) => Some(Value::Bool(b)),
        ExprKind::Literal(Literal::Number(n)) => number_value(n).map(Value::Number),
        ExprKind::Template(t) if matches!(t.kind(), TemplateKind::Quoted) => {
            t.literal_value().map(Value::string)
        }
        _ => None,
    }
}

/// A pending traversal step.
enum PendingStep<'e> {
    Literal(BoundStepKind, TextRange),
    Index(ExprRef<'e>, TextRange),
}

fn classify<'t>(
    steps: impl Iterator<Item = StepRef<'t>>,
    names: &mut LiteralTypes,
) -> Vec<PendingStep<'t>> {
    steps
        .map(|s| match s.kind() {
            StepKind::Attr(id) => {
                PendingStep::Literal(BoundStepKind::Attr(names.text(id.name)), s.range())
            }
            StepKind::LegacyIndex { value, .. } => PendingStep::Literal(
                BoundStepKind::Index(Value::Number(Number::from_bigint(value))),
                s.range(),
            ),
            StepKind::Index(e) => match literal_step_key(e) {
                Some(v) => PendingStep::Literal(BoundStepKind::Index(v), s.range()),
                None => PendingStep::Index(e, s.range()),
            },
        })
        .collect()
}

/// The leading run of literal steps, bound, and the rest classified (an
/// empty rest allocates nothing): what [`classify`] gives, split at the
/// first non-literal index, without building the whole list first.
fn split_literal_run<'t>(
    steps: impl Iterator<Item = StepRef<'t>> + Clone,
    names: &mut LiteralTypes,
) -> (Vec<BoundStep>, Vec<PendingStep<'t>>) {
    let mut run = Vec::with_capacity(steps.size_hint().0);
    let mut rest = steps;
    loop {
        let from_here = rest.clone();
        let Some(s) = rest.next() else { break };
        let kind = match s.kind() {
            StepKind::Attr(id) => BoundStepKind::Attr(names.text(id.name)),
            StepKind::LegacyIndex { value, .. } => {
                BoundStepKind::Index(Value::Number(Number::from_bigint(value)))
            }
            StepKind::Index(e) => match literal_step_key(e) {
                Some(v) => BoundStepKind::Index(v),
                None => return (run, classify(from_here, names)),
            },
        };
        run.push(untyped_step(kind, s.range()));
    }
    (run, Vec::new())
}

/// `ty.Traverse(kind)`. A name step lends its name to the traverser and
/// gets it back, instead of copying it.
fn traverse_step(ty: &Type, kind: &mut BoundStepKind) -> pcl_types::Traversal {
    match kind {
        BoundStepKind::Attr(name) => traverse(ty, &Traverser::Attr(name.clone())),
        BoundStepKind::Index(v) => traverse(ty, &Traverser::Literal(v.clone())),
    }
}

/// A literal step before it is typed (`dynamic` until [`apply_steps`]).
fn untyped_step(kind: BoundStepKind, range: TextRange) -> BoundStep {
    BoundStep {
        kind,
        ty: Type::dynamic(),
        range,
    }
}

/// Applies literal steps to `ty`, reporting step diagnostics, and gives
/// each step its type (in place: a long chain is not copied).
fn apply_steps(
    mut ty: Type,
    mut steps: Vec<BoundStep>,
    mode: &NodeMode,
    cx: &mut BindContext<'_>,
) -> (Type, Vec<BoundStep>) {
    let mut chain_failed = false;
    for (i, step) in steps.iter_mut().enumerate() {
        let range = step.range;
        let kind = &mut step.kind;
        let next = match mode {
            NodeMode::Dynamic => Type::dynamic(),
            NodeMode::NotTraversable(msg) => {
                if i == 0 {
                    let span = cx.span(range);
                    cx.report(Diagnostic::error(
                        codes::NODE_NOT_TRAVERSABLE,
                        span,
                        msg.clone(),
                    ));
                }
                Type::dynamic()
            }
            NodeMode::Lenient if i == 0 => {
                let t = traverse_step(&ty, kind);
                if t.has_errors() {
                    Type::dynamic()
                } else {
                    report_step(t.diagnostics, &ty, kind, range, cx);
                    t.ty
                }
            }
            NodeMode::Typed | NodeMode::Lenient => {
                let t = traverse_step(&ty, kind);
                // After a step that failed (`none.b` is `none` with a
                // warning; a failed step otherwise is `dynamic`), the rest
                // of the chain only repeats that problem.
                let failed = !t.diagnostics.is_empty() && (t.ty.is_none() || t.ty.is_dynamic());
                if chain_failed {
                    cx.repeats += t.diagnostics.len();
                } else {
                    report_step(t.diagnostics, &ty, kind, range, cx);
                }
                chain_failed |= failed;
                t.ty
            }
        };
        ty = next;
        step.ty = ty.clone();
    }
    (ty, steps)
}

fn report_step(
    diags: Vec<pcl_types::TypeDiagnostic>,
    receiver: &Type,
    step: &BoundStepKind,
    range: TextRange,
    cx: &mut BindContext<'_>,
) {
    let allow_missing = cx.options().allow_missing_variables;
    for d in diags {
        if allow_missing && d.summary.starts_with("undefined variable") {
            continue;
        }
        if d.code == codes::UNKNOWN_PROPERTY {
            let span = cx.span(range);
            let d = unknown_property(d, receiver, step, span);
            cx.report(d);
            continue;
        }
        if let (true, BoundStepKind::Attr(n)) = (d.code == codes::CASE_INSENSITIVE_PROPERTY, step) {
            // `Matched name with Name`: the property as the schema spells it.
            let actual = d
                .detail
                .as_deref()
                .and_then(|t| t.strip_prefix(&format!("Matched {n} with ")))
                .map(str::to_string);
            let span = cx.span(range);
            let start = span
                .range
                .end
                .saturating_sub(n.len() as u32)
                .max(span.range.start);
            let name_span =
                pcl_diagnostics::Span::new(span.file, TextRange::new(start, span.range.end));
            let mut out = d.into_diagnostic(span);
            if let Some(actual) = actual {
                out = suggest::attach(out, name_span, &[actual.as_str()]);
            }
            cx.report(out);
            continue;
        }
        cx.report_type(d, range);
    }
}

/// Adds "did you mean" to an `unknown property` diagnostic. The reference
/// lists every member (`unknown property 'x' among [a b c]`); that text is
/// kept while the list has at most [`suggest::MAX_SUGGESTIONS`] names.
/// Past that (a resource has dozens of outputs) the summary names only the
/// property, and the help line lists the likely candidates.
fn unknown_property(
    mut d: pcl_types::TypeDiagnostic,
    receiver: &Type,
    step: &BoundStepKind,
    span: pcl_diagnostics::Span,
) -> Diagnostic {
    let name = match step {
        BoundStepKind::Attr(n) => Some(&**n),
        BoundStepKind::Index(Value::String(s)) => Some(s.as_ref()),
        BoundStepKind::Index(_) => None,
    };
    let members = property_names(receiver);
    let found: Vec<&str> = name.map_or_else(Vec::new, |n| {
        suggest::candidates(n, members.iter().map(String::as_str))
    });
    let help = pcl_diagnostics::suggest::help_line(&found);
    if let Some(n) = name {
        if members.len() > suggest::MAX_SUGGESTIONS {
            d.summary = format!("unknown property '{n}'");
            let owner = match resource_token(receiver) {
                Some(token) => format!("resource type '{token}'"),
                None => "the object".to_string(),
            };
            d.detail = Some(if help.is_some() {
                format!("{owner} has no property '{n}'")
            } else {
                format!(
                    "{owner} has no property '{n}', and none of its {} properties is close",
                    members.len()
                )
            });
        }
    }
    let out = d.into_diagnostic(span);
    // The fix replaces the name after the `.` (or the whole `["…"]` step).
    let (fix_span, quote) = match step {
        BoundStepKind::Attr(n) => {
            let start = span.range.end.saturating_sub(n.len() as u32);
            let start = start.max(span.range.start);
            (
                pcl_diagnostics::Span::new(span.file, TextRange::new(start, span.range.end)),
                false,
            )
        }
        _ => (span, true),
    };
    let replacements: Vec<String> = found
        .iter()
        .filter(|c| !quote || !(c.contains("${") || c.contains("%{")))
        .map(|c| {
            if quote {
                format!("[\"{}\"]", c.replace('\\', "\\\\").replace('"', "\\\""))
            } else {
                (*c).to_string()
            }
        })
        .collect();
    let mut out = match help {
        Some(h) => out.with_help(h),
        None => out,
    };
    for r in replacements {
        out = out.with_fix(fix_span, r);
    }
    out
}

/// The token of the resource whose output object `ty` is (through
/// outputs, promises and optional unions), when it is one.
fn resource_token(ty: &Type) -> Option<String> {
    let mut t = ty;
    for _ in 0..8 {
        match t.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => t = e,
            TypeKind::Union(u) => {
                let mut objects = u.elements().iter().filter(|e| e.as_object().is_some());
                match (objects.next(), objects.next()) {
                    (Some(only), None) => t = only,
                    _ => return None,
                }
            }
            TypeKind::Object(o) => {
                return o
                    .annotations()
                    .first::<crate::env::ResourceAnnotation>()
                    .map(|a| a.token.to_string())
            }
            _ => return None,
        }
    }
    None
}

/// The property names of the object(s) a traversal step looks into,
/// through outputs, promises and unions, sorted and each once.
fn property_names(ty: &Type) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<&Type> = vec![ty];
    // Eventuals and unions are normalised (no unions of unions, no
    // outputs of outputs), so this visits a handful of types.
    let mut budget = 64usize;
    while let Some(t) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        match t.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => stack.push(e),
            TypeKind::Union(u) => stack.extend(u.elements().iter()),
            TypeKind::Object(o) => {
                for k in o.properties().keys() {
                    if !out.iter().any(|x| x.as_str() == k.as_ref()) {
                        out.push(k.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out.sort();
    out
}

fn bind_traversal(
    t: TraversalRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    if let ExprKind::Variable(ident) = t.source().kind() {
        return bind_scope_traversal(ident, t.steps().iter(), range, scope, cx);
    }
    let source = bind_expr(t.source(), scope, cx);
    let steps = classify(t.steps().iter(), &mut cx.literals);
    continue_traversal(source, steps, range, scope, cx)
}

/// Applies the remaining steps to an already-bound source: runs of literal
/// steps become relative traversals, non-literal index steps become index
/// expressions (binder.md §3.10, §3.14).
fn continue_traversal(
    mut current: BoundExpr,
    steps: Vec<PendingStep<'_>>,
    full_range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let mut run: Vec<BoundStep> = Vec::new();
    for step in steps {
        match step {
            PendingStep::Literal(kind, r) => run.push(untyped_step(kind, r)),
            PendingStep::Index(key, r) => {
                current = relative(current, std::mem::take(&mut run), cx);
                let key = bind_expr(key, scope, cx);
                let range = current.range.cover(r);
                current = index(current, key, range, cx);
            }
        }
    }
    let mut out = relative(current, run, cx);
    if out.range.start == full_range.start {
        out.range = out.range.cover(full_range);
    }
    out
}

fn relative(source: BoundExpr, run: Vec<BoundStep>, cx: &mut BindContext<'_>) -> BoundExpr {
    if run.is_empty() {
        return source;
    }
    let end = run.last().map_or(source.range.end, |s| s.range.end);
    let range = TextRange::new(source.range.start, end.max(source.range.end));
    let mark = cx.mark();
    let (ty, steps) = apply_steps(source.ty.clone(), run, &NodeMode::Typed, cx);
    let failed_item = matches!(source.kind, BoundExprKind::SplatItem)
        && cx.splat_items.last().is_some_and(|(_, failed)| *failed);
    if failed_item {
        cx.repeats += cx.split_off(mark).len();
    }
    BoundExpr {
        kind: BoundExprKind::RelativeTraversal {
            source: Box::new(source),
            steps: steps.into_boxed_slice(),
        },
        ty,
        range,
    }
}

/// `coll[key]` with a non-literal key (binder.md §3.10).
fn index(
    collection: BoundExpr,
    key: BoundExpr,
    range: TextRange,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let (key_ty, value_ty) = iteration_types(&collection, cx);
    // A key that folded to a literal (`t[-1]`) is first tried as a
    // traversal step; if that reports anything the index rule applies
    // (defect index-fallback-drops-diagnostic, replicated: see the crate's
    // golden test).
    if let BoundExprKind::Literal(v) = &key.kind {
        let t = traverse(&collection.ty, &Traverser::Literal(v.clone()));
        if t.diagnostics.is_empty() {
            return BoundExpr {
                ty: t.ty,
                kind: BoundExprKind::Index {
                    collection: Box::new(collection),
                    key: Box::new(key),
                },
                range,
            };
        }
    }
    let dest = cx.input_type(&key_ty);
    check_type(cx, &key.ty, key.range, &dest);
    let ty = lift_operation_type(
        &wrap_iterable_result_type(&collection.ty, &value_ty),
        [&key.ty],
    );
    BoundExpr {
        kind: BoundExprKind::Index {
            collection: Box::new(collection),
            key: Box::new(key),
        },
        ty,
        range,
    }
}

fn bind_scope_traversal<'t>(
    ident: Ident<'t>,
    steps: impl Iterator<Item = StepRef<'t>> + Clone,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
) -> BoundExpr {
    let (literal_run, rest) = split_literal_run(steps, &mut cx.literals);
    let name = ident.name;
    let root_end = literal_run.last().map_or(ident.range.end, |s| s.range.end);
    let head_range = TextRange::new(ident.range.start, root_end);
    let head = match scope.lookup(name).cloned() {
        None => {
            let severity = if cx.options().allow_missing_variables {
                Severity::Warning
            } else {
                Severity::Error
            };
            let span = cx.span(ident.range);
            let mut d = Diagnostic::new(
                severity,
                codes::UNDEFINED_VARIABLE,
                span,
                format!("undefined variable {name}"),
            );
            d = suggest::attach(d, span, &scope.suggest_names(name));
            // A name a sibling file declares is the host's to report.
            if !cx.env().declared_elsewhere(name, span) {
                cx.report(d);
            }
            // Untyped steps are `dynamic` already.
            let steps = literal_run;
            BoundExpr {
                kind: BoundExprKind::ScopeTraversal(Box::new(BoundScopeTraversal {
                    root: cx.literals.name(name),
                    root_range: ident.range,
                    definition: None,
                    steps,
                })),
                ty: Type::dynamic(),
                range: head_range,
            }
        }
        Some(def) => {
            let (root_ty, mode) = match &def {
                Definition::Node(id) => {
                    let r = cx.env().node_reference(*id);
                    (r.ty, r.mode)
                }
                Definition::Variable(v) => (v.ty.clone(), NodeMode::Typed),
                Definition::Null => (Type::none(), NodeMode::Typed),
                Definition::Keyword(k) => (
                    Type::dynamic(),
                    NodeMode::NotTraversable(format!("'{k}' is a keyword and cannot be traversed")),
                ),
                Definition::ResourceProperty(p) => (p.ty.clone(), NodeMode::Typed),
            };
            let mode = match (&def, mode) {
                (Definition::Keyword(_), NodeMode::NotTraversable(m)) => {
                    NodeMode::NotTraversable(m)
                }
                (_, m) => m,
            };
            let code_keyword = matches!(def, Definition::Keyword(_));
            let mark = cx.mark();
            let (mut ty, steps) = apply_steps(root_ty, literal_run, &mode, cx);
            if code_keyword {
                // Same message, the keyword's own code.
                let mut tail = cx.split_off(mark);
                for d in &mut tail {
                    d.code = codes::KEYWORD_TRAVERSAL;
                }
                for d in tail {
                    cx.report(d);
                }
            }
            if matches!(def, Definition::ResourceProperty(_)) {
                ty = Type::opaque("Property");
            }
            BoundExpr {
                kind: BoundExprKind::ScopeTraversal(Box::new(BoundScopeTraversal {
                    root: cx.literals.name(name),
                    root_range: ident.range,
                    definition: Some(def),
                    steps,
                })),
                ty,
                range: head_range,
            }
        }
    };
    continue_traversal(head, rest, range, scope, cx)
}
