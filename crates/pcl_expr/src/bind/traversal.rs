//! Binding traversals (binder.md §3.3, §3.4): `name.a[0]…` from a name in
//! scope and `(expr).a` / `f(x)[0]` relative to an expression, the
//! folding of literal index keys into steps, and the diagnostics of a step
//! that does not apply (unknown properties with their did-you-mean).

use super::*;

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
            d.summary = format!("unknown property `{n}`");
            let owner = match resource_token(receiver) {
                Some(token) => format!("resource type `{token}`"),
                None => "the object".to_string(),
            };
            d.detail = Some(if help.is_some() {
                format!("{owner} has no property `{n}`")
            } else {
                format!(
                    "{owner} has no property `{n}`, and none of its {} properties is close",
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

pub(super) fn bind_traversal(
    tr: TraversalRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    if let ExprKind::Variable(ident) = tr.source().kind() {
        return bind_scope_traversal(ident, tr.steps().iter(), range, scope, cx, t);
    }
    let source = bind(tr.source(), scope, cx, t);
    let steps = classify(tr.steps().iter(), &mut cx.literals);
    continue_traversal(source, steps, range, scope, cx, t)
}

/// Applies the remaining steps to an already-bound source: runs of literal
/// steps become relative traversals, non-literal index steps become index
/// expressions (binder.md §3.10, §3.14).
fn continue_traversal(
    mut current: BoundId,
    steps: Vec<PendingStep<'_>>,
    full_range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let mut run: Vec<BoundStep> = Vec::new();
    for step in steps {
        match step {
            PendingStep::Literal(kind, r) => run.push(untyped_step(kind, r)),
            PendingStep::Index(key, r) => {
                current = relative(current, std::mem::take(&mut run), cx, t);
                let key = bind(key, scope, cx, t);
                let range = t.range_of(current).cover(r);
                current = index(current, key, range, cx, t);
            }
        }
    }
    let out = relative(current, run, cx, t);
    let out_range = t.range_of(out);
    if out_range.start == full_range.start {
        t.set_range(out, out_range.cover(full_range));
    }
    out
}

fn relative(
    source: BoundId,
    run: Vec<BoundStep>,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    if run.is_empty() {
        return source;
    }
    let source_range = t.range_of(source);
    let end = run.last().map_or(source_range.end, |s| s.range.end);
    let range = TextRange::new(source_range.start, end.max(source_range.end));
    let mark = cx.mark();
    let (ty, steps) = apply_steps(t.ty_of(source).clone(), run, &NodeMode::Typed, cx);
    let failed_item = matches!(t.get(source).kind(), BoundExprKind::SplatItem)
        && cx.splat_items.last().is_some_and(|(_, failed)| *failed);
    if failed_item {
        cx.repeats += cx.split_off(mark).len();
    }
    t.relative_traversal(source, steps.into_boxed_slice(), ty, range)
}

/// `coll[key]` with a non-literal key (binder.md §3.10).
fn index(
    collection: BoundId,
    key: BoundId,
    range: TextRange,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let (key_ty, value_ty) = iteration_types(t.get(collection), cx);
    let collection_ty = t.ty_of(collection);
    // A key that folded to a literal (`t[-1]`) is first tried as a
    // traversal step; if that reports anything the index rule applies
    // (defect index-fallback-drops-diagnostic, replicated: see the crate's
    // golden test).
    if let BoundExprKind::Literal(v) = t.get(key).kind() {
        let found = traverse(collection_ty, &Traverser::Literal(v.clone()));
        if found.diagnostics.is_empty() {
            return t.index(collection, key, found.ty, range);
        }
    }
    let dest = cx.input_type(&key_ty);
    check_type(cx, t.ty_of(key), t.range_of(key), &dest);
    let ty = lift_operation_type(
        &wrap_iterable_result_type(collection_ty, &value_ty),
        [t.ty_of(key)],
    );
    t.index(collection, key, ty, range)
}

pub(super) fn bind_scope_traversal<'t>(
    ident: Ident<'t>,
    steps: impl Iterator<Item = StepRef<'t>> + Clone,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
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
                format!("undefined variable `{name}`"),
            );
            d = suggest::attach(d, span, &cx.suggestions(|| scope.suggest_names(name)));
            // A name a sibling file declares is the host's to report.
            if !cx.env().declared_elsewhere(name, span) {
                cx.report(d);
            }
            // Untyped steps are `dynamic` already.
            let steps = literal_run;
            t.scope_traversal(
                BoundScopeTraversal {
                    root: cx.literals.name(name),
                    root_range: ident.range,
                    definition: None,
                    root_type: Type::dynamic(),
                    steps: steps.into_boxed_slice(),
                },
                Type::dynamic(),
                head_range,
            )
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
                    NodeMode::NotTraversable(format!("`{k}` is a keyword and cannot be traversed")),
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
            let (mut ty, steps) = apply_steps(root_ty.clone(), literal_run, &mode, cx);
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
            t.scope_traversal(
                BoundScopeTraversal {
                    root: cx.literals.name(name),
                    root_range: ident.range,
                    definition: Some(def),
                    root_type: root_ty,
                    steps: steps.into_boxed_slice(),
                },
                ty,
                head_range,
            )
        }
    };
    continue_traversal(head, rest, range, scope, cx, t)
}
