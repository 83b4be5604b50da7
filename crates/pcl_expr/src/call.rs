//! Function calls: argument checking and lifting (binder.md §3.9), the
//! builtins' argument-dependent signatures (§4.1), `invoke` (§6.3) and
//! `call` (§6.4).

use pcl_diagnostics::{Diagnostic, Severity, TextRange};

use crate::suggest;
use pcl_syntax::tree::CallRef;
use pcl_types::{
    assignable_from, collection_types, contains_outputs, contains_promises, conversion_from,
    is_optional, lift_operation_type, resolve_outputs, unify_types_safe, unify_types_unsafe,
    unwrap_option, Type, TypeKind,
};

use crate::bind::{bind, check_type};
use crate::bound::{BoundId, BoundList, BoundTree, InvokeTokens, Unresolved};
use crate::builtins::Builtin;
use crate::codes;
use crate::context::BindContext;
use crate::env::{InvokeLookup, MethodLookup, ResourceAnnotation};
use crate::fit::{fit_diagnostics, Subject};
use crate::scope::{Definition, Function, Scope};
use crate::signature::{Param, Signature};

/// An effective argument: a bound argument, or one element of an expanded
/// final argument (`f(xs...)`), which carries the final argument's range.
pub(crate) struct Arg {
    pub ty: Type,
    pub range: TextRange,
    /// The index of the bound argument this is (`None` for an element of
    /// an expanded final argument).
    pub source: Option<usize>,
}

/// What signature computation produced besides the signature.
struct Computed {
    signature: Signature,
    /// For `invoke` with a literal token: its forms, or why it did not
    /// resolve.
    invoke: Option<Box<InvokeTokens>>,
}

impl From<Signature> for Computed {
    fn from(signature: Signature) -> Computed {
        Computed {
            signature,
            invoke: None,
        }
    }
}

pub(crate) fn bind_call(
    c: CallRef<'_>,
    range: TextRange,
    scope: &Scope,
    cx: &mut BindContext<'_>,
    t: &mut BoundTree,
) -> BoundId {
    let name: &str = c.name();
    let mut args: Vec<BoundId> = Vec::with_capacity(c.args().len());
    // The ranges of the arguments whose binding reported an error.
    let mut failed: Vec<TextRange> = Vec::new();
    for (i, arg) in c.args().iter().enumerate() {
        let mark = cx.mark();
        if name == "recover" && i == 1 {
            let mut inner = scope.child();
            let _ = inner.define(
                "error",
                Definition::variable("error", Type::string()),
                false,
            );
            args.push(bind(arg, &inner, cx, t));
        } else {
            args.push(bind(arg, scope, cx, t));
        }
        if cx.errors_since(mark) {
            failed.push(arg.range());
        }
    }
    let function = scope.lookup_function(name).cloned();
    let Some(function) = function else {
        let span = cx.span(c.name_range());
        let mut d = Diagnostic::error(
            codes::UNKNOWN_FUNCTION,
            span,
            format!("unknown function `{name}`"),
        );
        let found = cx.suggestions(|| suggest::candidates(name, scope.visible_functions()));
        d = suggest::attach(d, span, &found);
        cx.report(d);
        return t.call(
            name,
            c.name_range(),
            None,
            &args,
            c.expand_final(),
            Signature::dynamic(),
            None,
            Type::dynamic(),
            range,
        );
    };
    let views = BoundList::new(t, &args);
    let effective = effective_args(views, c.expand_final());
    let mark = cx.mark();
    let computed: Computed = match &function {
        Function::Static(sig) => Signature::clone(sig).into(),
        Function::Builtin(b) => builtin_signature(*b, &effective, range, cx).into(),
        Function::Invoke => invoke_signature(views, &effective, cx),
        Function::Call => call_signature(views, &effective, range, cx).into(),
    };
    let invoke = matches!(function, Function::Invoke);
    let ty = typecheck_args(&computed.signature, &effective, views, invoke, range, cx);
    if let Function::Builtin(b) = &function {
        // A builtin called with arguments that do not fit: show how it is
        // called.
        let usage = format!("usage: {}", b.usage());
        for d in cx.split_off(mark) {
            let d = if d.is_error() && !d.help().contains(&usage) {
                d.with_help(usage.clone())
            } else {
                d
            };
            cx.report(d);
        }
    }
    // One problem, one diagnostic: what the signature and the argument
    // checks say about an argument that already reported an error, or
    // about an argument list with a syntax error, only repeats that error.
    if c.args_broken() {
        drop(cx.split_off(mark));
    } else if !failed.is_empty() {
        for d in cx.split_off(mark) {
            if !failed.iter().any(|r| r.contains_range(d.span.range)) {
                cx.report(d);
            }
        }
    }
    t.call(
        name,
        c.name_range(),
        Some(function),
        &args,
        c.expand_final(),
        computed.signature,
        computed.invoke,
        ty,
        range,
    )
}

/// Step 3 of binder.md §3.9: a final `xs...` whose resolved type is a
/// tuple, list or set stands for its elements.
fn effective_args(args: BoundList<'_>, expand_final: bool) -> Vec<Arg> {
    let mut out: Vec<Arg> = args
        .iter()
        .enumerate()
        .map(|(i, a)| Arg {
            ty: a.ty().clone(),
            range: a.range(),
            source: Some(i),
        })
        .collect();
    if !expand_final {
        return out;
    }
    let Some(last) = args.last() else {
        return out;
    };
    let resolved = resolve_outputs(last.ty());
    let expanded: Option<Vec<Type>> = match resolved.kind() {
        TypeKind::Tuple(es) => Some(es.to_vec()),
        TypeKind::List(e) | TypeKind::Set(e) => Some(vec![e.clone()]),
        _ => None,
    };
    if let Some(types) = expanded {
        out.pop();
        out.extend(types.into_iter().map(|ty| Arg {
            ty,
            range: last.range(),
            source: None,
        }));
    }
    out
}

/// `typecheckArgs` and lifting (binder.md §3.9 steps 5–7); returns the
/// call's type.
fn typecheck_args(
    sig: &Signature,
    args: &[Arg],
    bound: BoundList<'_>,
    invoke: bool,
    call_range: TextRange,
    cx: &mut BindContext<'_>,
) -> Type {
    let mut lift = false;
    for (i, param) in sig.params.iter().enumerate() {
        match args.get(i) {
            None => {
                if !is_optional(&param.ty) {
                    let span = cx.span(call_range);
                    cx.report(Diagnostic::error(
                        codes::MISSING_ARGUMENT,
                        span,
                        format!("missing required parameter `{}`", param.name),
                    ));
                }
            }
            Some(arg) => {
                let dest = cx.input_type(&param.ty);
                // `invoke`'s argument object: its keys are the arguments.
                let name = if invoke && param.name == "args" {
                    ""
                } else {
                    param.name.as_str()
                };
                check_arg(cx, arg, bound, &dest, name);
                lift |= !assignable_from(&param.ty, &arg.ty);
            }
        }
    }
    if args.len() > sig.params.len() {
        match &sig.varargs {
            None => {
                let span = cx.span(call_range);
                cx.report(Diagnostic::error(
                    codes::TOO_MANY_ARGUMENTS,
                    span,
                    format!(
                        "too many arguments to call: expected {}, got {}",
                        sig.params.len(),
                        args.len()
                    ),
                ));
            }
            Some(v) => {
                for arg in args.iter().skip(sig.params.len()) {
                    let dest = cx.input_type(&v.ty);
                    check_arg(cx, arg, bound, &dest, &v.name);
                    lift |= !assignable_from(&v.ty, &arg.ty);
                }
            }
        }
    }
    if lift {
        lift_operation_type(&sig.result, args.iter().map(|a| &a.ty))
    } else {
        sig.result.clone()
    }
}

/// Checks one argument against its parameter's input type: a bound
/// argument by [`fit_diagnostics`] (one diagnostic per offending key or
/// element), an element of an expanded argument by its type alone.
fn check_arg(cx: &mut BindContext<'_>, arg: &Arg, bound: BoundList<'_>, dest: &Type, name: &str) {
    let Some(expr) = arg.source.and_then(|i| bound.get(i)) else {
        check_type(cx, &arg.ty, arg.range, dest);
        return;
    };
    let file = cx.span(arg.range).file;
    let diags = fit_diagnostics(
        dest,
        expr,
        Subject {
            noun: "argument",
            name,
            mismatch: codes::TYPE_NOT_CONVERTIBLE,
        },
        &|r| pcl_diagnostics::Span::new(file, r),
    );
    // A constant that converts only unsafely may still never convert.
    let never = if diags.iter().any(Diagnostic::is_error) {
        None
    } else {
        crate::constant::never_converts(
            codes::CONSTANT_NEVER_CONVERTS,
            expr,
            dest,
            "argument",
            name,
            &|r| pcl_diagnostics::Span::new(file, r),
        )
    };
    for d in diags.into_iter().chain(never) {
        cx.report(d);
    }
}

// ---- builtins --------------------------------------------------------------------------

fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

fn eventual(t: &Type) -> bool {
    contains_outputs(t) || contains_promises(t)
}

fn output_if(cond: bool, t: Type) -> Type {
    if cond {
        Type::output(t)
    } else {
        t
    }
}

fn asset_or_archive() -> Type {
    Type::union([Type::opaque("Archive"), Type::opaque("Asset")])
}

/// The builtins' fixed composite types, one node each per process: a
/// checker asks for the input type of every parameter of every call, and
/// that answer is remembered per node, so a fresh `list(string)` per
/// `join` would be worked out again for every call.
fn list_of_string() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::list(Type::string())).clone()
}

fn list_of_int() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::list(Type::int())).clone()
}

fn optional_int() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::optional(Type::int())).clone()
}

/// `optional(object({}))`: the arguments of an invoke or a method without
/// inputs.
fn optional_empty_object() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::optional(Type::object(Vec::<(String, Type)>::new())))
        .clone()
}

fn map_of_asset_or_archive() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::map(asset_or_archive())).clone()
}

/// An error at `range` with the detail equal to the summary (pcl's
/// `errorf` convention).
fn pcl_error(
    cx: &mut BindContext<'_>,
    code: pcl_diagnostics::Code,
    range: TextRange,
    summary: String,
) {
    let span = cx.span(range);
    cx.report(Diagnostic::error(code, span, summary.clone()).with_detail(summary));
}

/// A builtin's argument of the wrong kind: the summary says what the
/// argument must be (the reference's text), the label at the argument what
/// was found.
fn argument_error(cx: &mut BindContext<'_>, range: TextRange, summary: String, found: &Type) {
    let span = cx.span(range);
    cx.report(
        Diagnostic::error(codes::BUILTIN_ARGUMENT, span, summary)
            .with_detail(format!("found {}", pcl_types::found_text(found))),
    );
}

/// A plain error at `range`.
fn error(cx: &mut BindContext<'_>, code: pcl_diagnostics::Code, range: TextRange, summary: String) {
    let span = cx.span(range);
    cx.report(Diagnostic::error(code, span, summary));
}

fn is_resource(t: &Type) -> bool {
    t.as_object()
        .is_some_and(|o| o.annotations().first::<ResourceAnnotation>().is_some())
}

fn builtin_signature(
    b: Builtin,
    args: &[Arg],
    call_range: TextRange,
    cx: &mut BindContext<'_>,
) -> Signature {
    let arg0 = args.first();
    let t0 = arg0.map_or_else(Type::dynamic, |a| a.ty.clone());
    let r0 = arg0.map_or(call_range, |a| a.range);
    let string = Type::string;
    let fixed = |params: Vec<Param>, result: Type| Signature::new(params, result);
    match b {
        Builtin::Element => {
            let (list, elem) = match arg0 {
                None => (Type::dynamic(), Type::dynamic()),
                Some(_) => match resolve_outputs(&t0).kind() {
                    TypeKind::List(e) => (t0.clone(), e.clone()),
                    TypeKind::Tuple(es) => (t0.clone(), unify_types_unsafe(es)),
                    _ => {
                        if !cx.options().skip_range_typecheck {
                            argument_error(
                                cx,
                                r0,
                                "the first argument to `element` must be a list or tuple".into(),
                                &t0,
                            );
                        }
                        (Type::dynamic(), Type::dynamic())
                    }
                },
            };
            let result = output_if(eventual(&list), elem);
            fixed(vec![p("list", list), p("index", Type::int())], result)
        }
        Builtin::Entries => {
            let (k, v) = if args.len() == 1 {
                let ct =
                    collection_types(&resolve_outputs(&t0), !cx.options().skip_range_typecheck);
                for d in ct.diagnostics {
                    cx.report_type(d, r0);
                }
                (ct.key, ct.value)
            } else {
                (Type::dynamic(), Type::dynamic())
            };
            let entry = Type::object([("key", k), ("value", v)]);
            let result = output_if(arg0.is_some_and(|_| eventual(&t0)), Type::list(entry));
            fixed(vec![p("collection", Type::dynamic())], result)
        }
        Builtin::FileArchive => fixed(vec![p("path", string())], Type::opaque("Archive")),
        Builtin::RemoteArchive => fixed(vec![p("uri", string())], Type::opaque("Archive")),
        Builtin::AssetArchive => fixed(
            vec![p("assets", map_of_asset_or_archive())],
            Type::opaque("Archive"),
        ),
        Builtin::FileAsset => fixed(vec![p("path", string())], Type::opaque("Asset")),
        Builtin::StringAsset => fixed(vec![p("value", string())], Type::opaque("Asset")),
        Builtin::RemoteAsset => fixed(vec![p("uri", string())], Type::opaque("Asset")),
        Builtin::Join => fixed(
            vec![p("separator", string()), p("strings", list_of_string())],
            string(),
        ),
        Builtin::Length => {
            if arg0.is_some() {
                let resolved = unwrap_option(&resolve_outputs(&t0));
                let ok = matches!(
                    resolved.kind(),
                    TypeKind::List(_) | TypeKind::Map(_) | TypeKind::Object(_) | TypeKind::Tuple(_)
                ) || conversion_from(&string(), &resolved).exists();
                if !ok {
                    argument_error(cx, r0, "the first argument to `length` must be a list, map, object, tuple, or string".into(), &t0);
                }
            }
            fixed(
                vec![p("value", t0.clone())],
                output_if(eventual(&t0), Type::int()),
            )
        }
        Builtin::Lookup => {
            let (map, elem) = match arg0 {
                None => (Type::dynamic(), Type::dynamic()),
                Some(_) => {
                    let resolved = resolve_outputs(&t0);
                    match resolved.kind() {
                        TypeKind::Map(e) => (resolved.clone(), e.clone()),
                        // The reference crashes on an object without
                        // properties; its element type is `dynamic` here.
                        TypeKind::Object(o) if o.properties().is_empty() => {
                            (resolved.clone(), Type::dynamic())
                        }
                        TypeKind::Object(o) => {
                            let props: Vec<Type> = o.properties().values().cloned().collect();
                            (resolved.clone(), unify_types_unsafe(&props))
                        }
                        // `dynamic` is accepted without a diagnostic (the
                        // reference reports it; untyped values are common
                        // in lenient programs).
                        TypeKind::Dynamic => (Type::dynamic(), Type::dynamic()),
                        _ => {
                            argument_error(
                                cx,
                                r0,
                                "the first argument to `lookup` must be a map".into(),
                                &t0,
                            );
                            (Type::dynamic(), Type::dynamic())
                        }
                    }
                }
            };
            let result = output_if(eventual(&t0), elem.clone());
            fixed(
                vec![
                    p("map", map),
                    p("key", string()),
                    p("default", Type::optional(elem)),
                ],
                result,
            )
        }
        Builtin::Range => fixed(
            vec![p("fromOrTo", Type::int()), p("to", optional_int())],
            list_of_int(),
        ),
        Builtin::ReadFile | Builtin::Filebase64 | Builtin::Filebase64sha256 => {
            fixed(vec![p("path", string())], string())
        }
        Builtin::Sha1 => fixed(vec![p("input", string())], string()),
        Builtin::ToBase64 | Builtin::FromBase64 => fixed(vec![p("value", string())], string()),
        Builtin::Split => fixed(
            vec![p("separator", string()), p("string", string())],
            list_of_string(),
        ),
        Builtin::Secret | Builtin::Unsecret => {
            let t = if args.len() == 1 {
                t0.clone()
            } else {
                Type::dynamic()
            };
            fixed(vec![p("value", t.clone())], Type::output(t))
        }
        Builtin::ToJson => {
            if args.len() != 1 {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    call_range,
                    "`toJSON` expects exactly one argument".into(),
                );
            }
            let result = output_if(arg0.is_some_and(|_| eventual(&t0)), string());
            fixed(vec![p("value", Type::dynamic())], result)
        }
        Builtin::Stack
        | Builtin::Project
        | Builtin::Organization
        | Builtin::Cwd
        | Builtin::RootDirectory => fixed(Vec::new(), string()),
        Builtin::NotImplemented => fixed(vec![p("errorMessage", string())], Type::dynamic()),
        Builtin::SingleOrNone => {
            let value = if args.len() == 1 {
                t0.clone()
            } else {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    call_range,
                    "`singleOrNone` only expects one argument".into(),
                );
                Type::dynamic()
            };
            let elem = match resolve_outputs(&value).kind() {
                TypeKind::List(e) => e.clone(),
                TypeKind::Tuple(es) => es.first().cloned().unwrap_or_else(Type::dynamic),
                TypeKind::Dynamic => Type::dynamic(),
                _ => {
                    argument_error(
                        cx,
                        r0,
                        "the first argument to `singleOrNone` must be a list or tuple".into(),
                        &t0,
                    );
                    Type::dynamic()
                }
            };
            let result = output_if(eventual(&value), Type::optional(elem));
            fixed(vec![p("value", value)], result)
        }
        Builtin::GetOutput => fixed(
            vec![
                p("stackReference", Type::dynamic()),
                p("outputName", string()),
            ],
            Type::output(Type::dynamic()),
        ),
        Builtin::Try => {
            if args.is_empty() {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    call_range,
                    "`try` expects at least one argument".into(),
                );
                return fixed(Vec::new(), Type::dynamic());
            }
            let types: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
            let any_dynamic = types.iter().any(Type::is_dynamic);
            let any_eventual = types.iter().any(eventual);
            let elem = if any_dynamic {
                Type::dynamic()
            } else {
                unify_types_safe(&types)
            };
            let params = types
                .iter()
                .enumerate()
                .map(|(i, t)| p(&format!("arg{i}"), t.clone()))
                .collect();
            fixed(params, output_if(any_dynamic || any_eventual, elem))
        }
        Builtin::Can => {
            let t = if args.len() == 1 {
                t0.clone()
            } else {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    call_range,
                    "`can` expects exactly one argument".into(),
                );
                Type::dynamic()
            };
            let outputish = match t.kind() {
                TypeKind::Output(_) | TypeKind::Dynamic => true,
                TypeKind::Union(u) => u
                    .elements()
                    .iter()
                    .any(|e| matches!(e.kind(), TypeKind::Output(_))),
                _ => false,
            };
            fixed(vec![p("arg", t)], output_if(outputish, Type::bool()))
        }
        Builtin::Recover => {
            if args.len() != 2 {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    call_range,
                    "`recover` expects exactly two arguments".into(),
                );
            }
            if arg0.is_some() && !matches!(t0.kind(), TypeKind::Output(_)) {
                argument_error(
                    cx,
                    r0,
                    "the first argument to `recover` must be an output".into(),
                    &t0,
                );
            }
            let t1 = args.get(1).map_or_else(Type::dynamic, |a| a.ty.clone());
            let result = Type::output(unify_types_safe(&[
                resolve_outputs(&t0),
                resolve_outputs(&t1),
            ]));
            fixed(vec![p("value", t0.clone()), p("recovery", t1)], result)
        }
        Builtin::Max | Builtin::Min => {
            let any_number = args
                .iter()
                .any(|a| matches!(resolve_outputs(&a.ty).kind(), TypeKind::Number));
            let n = if any_number {
                Type::number()
            } else {
                Type::int()
            };
            fixed(vec![p("first", n.clone())], n.clone()).with_varargs(p("rest", n))
        }
        Builtin::PulumiResourceType | Builtin::PulumiResourceName => {
            let name = b.name();
            if args.len() != 1 {
                pcl_error(
                    cx,
                    codes::BUILTIN_ARITY,
                    r0,
                    format!("{name} expects exactly one argument"),
                );
                return fixed(Vec::new(), Type::dynamic());
            }
            if !is_resource(&t0) {
                argument_error(
                    cx,
                    r0,
                    format!("{name} argument must be a single resource"),
                    &t0,
                );
            }
            fixed(vec![p("resource", t0.clone())], string())
        }
    }
}

// ---- invoke ----------------------------------------------------------------------------

/// The type of `invoke`'s optional options argument (one node per process,
/// so its input type is computed once per check).
fn optional_invoke_options_type() -> Type {
    static TYPE: std::sync::OnceLock<Type> = std::sync::OnceLock::new();
    TYPE.get_or_init(|| Type::optional(invoke_options_type()))
        .clone()
}

fn invoke_options_type() -> Type {
    Type::object([
        ("provider", Type::optional(Type::dynamic())),
        ("parent", Type::optional(Type::dynamic())),
        ("version", Type::optional(Type::string())),
        ("pluginDownloadUrl", Type::optional(Type::string())),
        ("dependsOn", Type::optional(Type::list(Type::dynamic()))),
    ])
}

fn invoke_zero_signature() -> Signature {
    Signature::new(
        vec![
            p("token", Type::string()),
            p("args", Type::optional(Type::dynamic())),
            p("invokeOptions", optional_invoke_options_type()),
        ],
        Type::dynamic(),
    )
}

/// The `version` an invoke's options object literal pins, when it is a
/// string literal (`{ version = "1.2.3" }`).
fn pinned_version(options: crate::bound::BoundRef<'_>) -> Option<(&str, TextRange)> {
    match options.strip_parens().kind() {
        crate::bound::BoundExprKind::Object(items) => items
            .iter()
            .find(|(k, _)| k.key_string().as_deref() == Some("version"))
            .and_then(|(_, v)| {
                let v = v.strip_parens();
                Some((v.literal_string()?, v.range()))
            }),
        _ => None,
    }
}

/// `pkg:module:member` or `pkg:member` (the module may be empty).
fn well_formed_token(token: &str) -> bool {
    let parts: Vec<&str> = token.split(':').collect();
    match parts.as_slice() {
        [pkg, member] | [pkg, _, member] => !pkg.is_empty() && !member.is_empty(),
        _ => false,
    }
}

fn invoke_signature(args: BoundList<'_>, effective: &[Arg], cx: &mut BindContext<'_>) -> Computed {
    let zero = || Computed::from(invoke_zero_signature());
    let Some(token_arg) = args.first() else {
        return zero();
    };
    let Some(token) = token_arg
        .strip_parens()
        .literal_string()
        .map(str::to_string)
    else {
        error(
            cx,
            codes::INVOKE_TOKEN,
            token_arg.range(),
            "invoke token must be a string literal".into(),
        );
        return zero();
    };
    // A token that does not resolve keeps its reason, reported or not.
    let unresolved = |token: &str, d: Diagnostic, cx: &mut BindContext<'_>, report: bool| {
        let kept = if report {
            cx.report(d.clone());
            d
        } else {
            let mut d = d;
            d.severity = Severity::Warning;
            d
        };
        Computed {
            signature: invoke_zero_signature(),
            invoke: Some(Box::new(InvokeTokens {
                written: token.to_string(),
                schema: None,
                canonical: None,
                unresolved: Some(Unresolved::new(kept, report)),
            })),
        }
    };
    if !well_formed_token(&token) {
        let d = Diagnostic::error(
            codes::INVOKE_TOKEN,
            cx.span(token_arg.range()),
            format!("malformed token `{token}`: expected `pkg:module:member` or `pkg:member`"),
        );
        return unresolved(&token, d, cx, true);
    }
    let skip = cx.options().skip_invoke_typecheck;
    let span = cx.span(token_arg.range());
    let pinned = args.get(2).and_then(pinned_version);
    let version = pinned.map(|(v, _)| v);
    let function = match cx.env().invoke_signature(&token, version, span) {
        InvokeLookup::Found(f) => {
            if let (Some(why), Some((v, at))) = (&f.pinned_version_missing, pinned) {
                let package = token.split(':').next().unwrap_or(&token);
                let d = Diagnostic::warning(
                    codes::PINNED_VERSION_MISSING,
                    cx.span(at),
                    format!("no schema for version {v} of package `{package}`"),
                )
                .with_detail(why.clone());
                cx.report(d);
            }
            f
        }
        InvokeLookup::UnknownPackage { package, detail } => {
            let d = Diagnostic::new(
                Severity::Warning,
                codes::UNKNOWN_PACKAGE,
                span,
                format!("unknown package `{package}`"),
            )
            .with_detail(detail);
            return unresolved(&token, d, cx, !skip);
        }
        InvokeLookup::LoadError { message } => {
            let d = Diagnostic::error(
                codes::INVOKE_FUNCTION,
                cx.span(token_arg.range()),
                format!("error loading function `{token}`: {message}"),
            );
            return unresolved(&token, d, cx, !skip);
        }
        InvokeLookup::NotFound { candidates } => {
            let mut d = Diagnostic::error(
                codes::UNKNOWN_FUNCTION,
                span,
                format!("unknown function `{token}`"),
            );
            // The environment already matched the tokens (canonical
            // forms); list them as they are.
            let list: Vec<&str> = candidates.iter().map(String::as_str).collect();
            d = suggest::attach_quoted(d, span, &list);
            return unresolved(&token, d, cx, !skip);
        }
    };
    let tokens = InvokeTokens {
        written: token.clone(),
        schema: Some(function.schema_token.clone()),
        canonical: Some(function.token.clone()),
        unresolved: None,
    };
    let with_token = |signature: Signature| Computed {
        signature,
        invoke: Some(Box::new(tokens.clone())),
    };
    let Some(arg1) = effective.get(1) else {
        error(
            cx,
            codes::INVOKE_ARGUMENTS,
            token_arg.range(),
            "missing second arg".into(),
        );
        return with_token(invoke_zero_signature());
    };
    let options = p("invokeOptions", optional_invoke_options_type());
    let ret = function
        .return_type
        .clone()
        .unwrap_or_else(|| Type::object(Vec::<(String, Type)>::new()));
    if let Some(inputs) = &function.multi_argument_inputs {
        let converts_to = |t: &Option<Type>| {
            t.as_ref()
                .is_some_and(|t| conversion_from(t, &arg1.ty).exists())
        };
        if converts_to(&function.inputs) || converts_to(&function.input_shape) {
            let t = &function.token;
            error(
                cx,
                codes::INVOKE_ARGUMENTS,
                arg1.range,
                format!(
                    "function \"{t}\" is declared with multi-argument inputs and must be invoked with positional arguments, e.g. invoke(\"{t}\", arg1, arg2), not a single object argument"
                ),
            );
            return with_token(invoke_zero_signature());
        }
        let mut params = vec![p("token", Type::string())];
        for (name, ty, required) in inputs {
            let ty = if *required {
                ty.clone()
            } else {
                Type::optional(ty.clone())
            };
            params.push(p(name, ty));
        }
        params.push(options);
        return with_token(Signature::new(params, Type::promise(ret)));
    }
    let empty = || Type::object(Vec::<(String, Type)>::new());
    let output_form = function.return_type.is_some()
        && (cx.options().prefer_output_versioned_invokes
            || matches!(arg1.ty.kind(), TypeKind::Output(_))
            || match (&function.inputs, &function.input_shape) {
                (Some(plain), Some(shape)) => {
                    !conversion_from(plain, &arg1.ty).exists()
                        && conversion_from(shape, &arg1.ty).exists()
                        && contains_outputs(&arg1.ty)
                }
                _ => false,
            });
    let signature = if output_form {
        let args_ty = function.input_shape.clone().unwrap_or_else(empty);
        Signature::new(
            vec![p("token", Type::string()), p("args", args_ty), options],
            Type::output(ret),
        )
    } else {
        let args_ty = function
            .inputs
            .clone()
            .unwrap_or_else(optional_empty_object);
        Signature::new(
            vec![p("token", Type::string()), p("args", args_ty), options],
            Type::promise(ret),
        )
    };
    with_token(signature)
}

// ---- call ------------------------------------------------------------------------------

fn call_zero_signature() -> Signature {
    Signature::new(
        vec![
            p("self", Type::dynamic()),
            p("method", Type::string()),
            p("args", Type::dynamic()),
        ],
        Type::dynamic(),
    )
}

fn call_signature(
    args: BoundList<'_>,
    effective: &[Arg],
    call_range: TextRange,
    cx: &mut BindContext<'_>,
) -> Signature {
    if effective.len() < 3 {
        let r = args.first().map_or(call_range, |a| a.range());
        error(
            cx,
            codes::CALL_ARGUMENTS,
            r,
            "call must be passed a receiver, method name, and arguments object".into(),
        );
        return call_zero_signature();
    }
    let (Some(receiver), Some(method_arg)) = (args.first(), args.get(1)) else {
        return call_zero_signature();
    };
    if !is_resource(receiver.ty()) {
        error(
            cx,
            codes::CALL_ARGUMENTS,
            receiver.range(),
            "call's receiver must be a single resource".into(),
        );
        return call_zero_signature();
    }
    let Some(method) = method_arg
        .strip_parens()
        .literal_string()
        .map(str::to_string)
    else {
        error(
            cx,
            codes::CALL_ARGUMENTS,
            method_arg.range(),
            "call's method name must be a string literal".into(),
        );
        return call_zero_signature();
    };
    let found = match cx.env().method_signature(receiver.ty(), &method) {
        MethodLookup::Found(m) => m,
        MethodLookup::UntypedReceiver => {
            error(
                cx,
                codes::CALL_ARGUMENTS,
                receiver.range(),
                "call's receiver must be a typed resource".into(),
            );
            return call_zero_signature();
        }
        MethodLookup::NotFound {
            resource_token,
            candidates,
        } => {
            let span = cx.span(method_arg.range());
            let mut d = Diagnostic::error(
                codes::UNKNOWN_METHOD,
                span,
                format!("resource type \"{resource_token}\" has no method \"{method}\""),
            );
            let list: Vec<&str> = candidates.iter().map(String::as_str).collect();
            d = suggest::attach_quoted(d, span, &list);
            cx.report(d);
            return call_zero_signature();
        }
    };
    if !found.inputs.iter().any(|(n, _)| n == "__self__") {
        error(
            cx,
            codes::CALL_ARGUMENTS,
            method_arg.range(),
            format!("method \"{}\" has no __self__ input", found.token),
        );
        return call_zero_signature();
    }
    let others: Vec<(String, Type)> = found
        .inputs
        .iter()
        .filter(|(n, _)| n != "__self__")
        .cloned()
        .collect();
    let args_ty = if others.is_empty() {
        optional_empty_object()
    } else {
        Type::object(others)
    };
    let ret = found.return_type.clone().unwrap_or_else(Type::dynamic);
    let ret = if found.plain_return {
        ret
    } else {
        Type::output(ret)
    };
    Signature::new(
        vec![
            p("self", receiver.ty().clone()),
            p("method", Type::string()),
            p("args", args_ty),
        ],
        ret,
    )
}
