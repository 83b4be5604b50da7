//! Unit and golden tests for expression binding: one module per area,
//! with a small mock [`Environment`] for nodes, invokes and methods.

use std::sync::Arc;

use pcl_diagnostics::{Diagnostic, FileId, Span};
use pcl_types::{parse_type, Annotations, ObjectOptions, Type};

use crate::*;

/// A test host: node 0 is a resource `object({id = string, tags =
/// map(string)})` with a resource annotation; node 1 a hook; node 2 the
/// `pulumi` block; node 3 a lenient resource.
struct MockEnv;

fn resource_type() -> Type {
    Type::object_with(
        [
            ("id", Type::output(Type::string())),
            ("tags", Type::map(Type::string())),
        ],
        ObjectOptions {
            annotations: Annotations::new(vec![Arc::new(ResourceAnnotation {
                token: "aws:s3/bucket:Bucket".into(),
            })]),
            ..ObjectOptions::default()
        },
    )
}

impl Environment for MockEnv {
    fn node_type(&self, id: NodeId) -> Type {
        match id.0 {
            0 | 3 => resource_type(),
            _ => Type::dynamic(),
        }
    }

    fn node_reference(&self, id: NodeId) -> NodeReference {
        let mode = match id.0 {
            1 => NodeMode::Dynamic,
            2 => NodeMode::NotTraversable("pulumi blocks cannot be traversed".into()),
            3 => NodeMode::Lenient,
            _ => NodeMode::Typed,
        };
        NodeReference {
            ty: self.node_type(id),
            mode,
        }
    }

    fn invoke_signature(&self, token: &str, _version: Option<&str>, _range: Span) -> InvokeLookup {
        match token {
            "std:index:abs" => InvokeLookup::Found(InvokeFunction {
                pinned_version_missing: None,
                token: "std::abs".into(),
                schema_token: "std:index:abs".into(),
                inputs: Some(Type::object([("a", Type::number())])),
                input_shape: Some(pcl_types::input_type(&Type::object([(
                    "a",
                    Type::number(),
                )]))),
                return_type: Some(Type::object([("result", Type::number())])),
                multi_argument_inputs: None,
            }),
            "std:index:multi" => InvokeLookup::Found(InvokeFunction {
                pinned_version_missing: None,
                token: "std:index:multi".into(),
                schema_token: "std:index:multi".into(),
                inputs: Some(Type::object([
                    ("a", Type::number()),
                    ("b", Type::optional(Type::string())),
                ])),
                input_shape: None,
                return_type: Some(Type::string()),
                multi_argument_inputs: Some(vec![
                    ("a".into(), Type::number(), true),
                    ("b".into(), Type::string(), false),
                ]),
            }),
            t if t.starts_with("std:") => InvokeLookup::NotFound {
                candidates: vec!["std:index:abs".into()],
            },
            t => InvokeLookup::UnknownPackage {
                package: t.split(':').next().unwrap_or("").into(),
                detail: "not installed".into(),
            },
        }
    }

    fn method_signature(&self, _receiver: &Type, method: &str) -> MethodLookup {
        match method {
            "getKey" => MethodLookup::Found(Method {
                token: "aws:s3/bucket:Bucket/getKey".into(),
                inputs: vec![
                    ("__self__".into(), resource_type()),
                    ("name".into(), Type::string()),
                ],
                return_type: Some(Type::object([("key", Type::string())])),
                plain_return: false,
            }),
            _ => MethodLookup::NotFound {
                resource_token: "aws:s3/bucket:Bucket".into(),
                candidates: vec!["getKey".into()],
            },
        }
    }
}

fn scope_with(vars: &[(&str, &str)]) -> Scope {
    let mut s = Scope::root();
    for (name, ty) in vars {
        let t = parse_type(ty).unwrap();
        s.define(*name, Definition::variable(*name, t), false)
            .unwrap();
    }
    s.define("bucket", Definition::Node(NodeId(0)), false)
        .unwrap();
    s.define("hook", Definition::Node(NodeId(1)), false)
        .unwrap();
    s.define("pulumi", Definition::Node(NodeId(2)), false)
        .unwrap();
    s.define("lenient", Definition::Node(NodeId(3)), false)
        .unwrap();
    s
}

struct Out {
    expr: BoundTree,
    diags: Vec<Diagnostic>,
}

impl Out {
    fn ty(&self) -> String {
        format!("{:?}", self.expr.ty())
    }
    fn msgs(&self) -> Vec<String> {
        self.diags
            .iter()
            .map(|d| format!("{}[{}]: {}", d.severity, d.code, d.summary))
            .collect()
    }
}

fn bind_with(text: &str, scope: &Scope, options: &ExprOptions) -> Out {
    let parsed = pcl_syntax::parse_expr(FileId(3), text);
    assert!(!parsed.has_errors(), "{text}: {:?}", parsed.diagnostics());
    let mut cx = BindContext::new(FileId(3), &MockEnv, options);
    let expr = bind_expr(parsed.expr(), scope, &mut cx);
    let diags = cx.take_diagnostics();
    for d in &diags {
        assert_eq!(d.span.file, FileId(3));
        assert!(
            !d.span.range.is_empty(),
            "{text}: empty range for {}",
            d.summary
        );
        assert!(
            d.span.range.end as usize <= text.len() + 1,
            "{text}: range out of bounds"
        );
    }
    Out { expr, diags }
}

fn bind(text: &str, vars: &[(&str, &str)]) -> Out {
    bind_with(text, &scope_with(vars), &ExprOptions::default())
}

mod literals_and_operators {
    use super::*;

    #[test]
    fn literal_types() {
        assert_eq!(bind("1", &[]).ty(), "const(int, 1)");
        assert_eq!(bind("2147483648", &[]).ty(), "const(number, 2147483648)");
        assert_eq!(bind("-2147483648", &[]).ty(), "const(int, -2147483648)");
        assert_eq!(bind("- -3", &[]).ty(), "const(int, 3)");
        assert_eq!(bind("1.5", &[]).ty(), "const(number, 1.5)");
        assert_eq!(bind("null", &[]).ty(), "const(none, null)");
        assert_eq!(bind("\"\"", &[]).ty(), "string");
    }

    #[test]
    fn int_lifting_only_for_exact_ints() {
        let v = [("a", "int"), ("o", "output(int)")];
        assert_eq!(bind("a + a", &v).ty(), "int");
        assert_eq!(bind("a / a", &v).ty(), "int");
        assert_eq!(bind("a + 1", &v).ty(), "number");
        assert_eq!(bind("o + 1", &v).ty(), "output(number)");
        assert_eq!(bind("-a", &v).ty(), "int");
        assert_eq!(bind("a < 2", &v).ty(), "bool");
    }

    #[test]
    fn operand_mismatch_message() {
        let out = bind("l + 1", &[("l", "list(string)")]);
        assert_eq!(
            out.msgs(),
            ["error[type-not-convertible]: expected number, found list(string)"]
        );
        // The summary says it all; no detail repeats it.
        assert_eq!(out.diags[0].detail(), None);
        assert_eq!(
            out.diags[0].span.range,
            pcl_diagnostics::TextRange::new(0, 1)
        );
    }
}

mod templates_and_conditionals {
    use super::*;

    #[test]
    fn wrap_is_the_expression() {
        let out = bind("\"${l}\"", &[("l", "list(string)")]);
        assert_eq!(out.ty(), "list(string)");
        assert_eq!(out.expr.kind_name(), "ScopeTraversalExpression");
        assert_eq!(bind("\"a${l}\"", &[("l", "list(string)")]).ty(), "string");
        assert_eq!(
            bind("\"a${o}\"", &[("o", "promise(int)")]).ty(),
            "promise(string)"
        );
    }

    #[test]
    fn directives() {
        let v = [("c", "output(bool)"), ("l", "list(string)")];
        assert_eq!(
            bind("\"%{if c}x%{else}y%{endif}\"", &v).ty(),
            "output(string)"
        );
        let out = bind("\"%{for k, v in l}${k}=${v} %{endfor}\"", &v);
        assert_eq!(out.ty(), "string");
        assert!(out.diags.is_empty());
    }

    #[test]
    fn null_branch_is_optional() {
        let v = [("b", "bool"), ("l", "list(string)")];
        assert_eq!(bind("b ? l : null", &v).ty(), "union(list(string), none)");
        // …so it iterates like an optional list.
        let out = bind("[for x in (b ? l : null) : x]", &v);
        assert_eq!(out.ty(), "list(string)");
        assert!(out.diags.is_empty());
        assert_eq!(
            bind("b ? 1 : 2", &v).ty(),
            "union(const(int, 1), const(int, 2))"
        );
    }
}

mod collections {
    use super::*;

    #[test]
    fn for_expressions() {
        let v = [
            ("m", "map(int)"),
            ("s", "set(string)"),
            ("o", "output(list(string))"),
        ];
        assert_eq!(bind("{for k, v in m : k => v}", &v).ty(), "map(int)");
        assert_eq!(
            bind("{for k, v in m : v => k...}", &v).ty(),
            "map(list(string))"
        );
        assert_eq!(bind("[for x in o : x]", &v).ty(), "output(list(string))");
        let out = bind("[for x in s : x]", &v);
        assert_eq!(
            out.msgs(),
            ["error[cannot-iterate]: cannot iterate over a value of type set(string)"]
        );
        let out = bind("[for x, x in m : x]", &v);
        assert_eq!(
            out.msgs(),
            ["error[duplicate-for-variable]: name `x` already defined"]
        );
        let lenient = ExprOptions {
            skip_range_typecheck: true,
            ..ExprOptions::default()
        };
        let out = bind_with("[for x in s : x]", &scope_with(&v), &lenient);
        assert_eq!(
            out.msgs(),
            ["warning[cannot-iterate]: cannot iterate over a value of type set(string)"]
        );
    }

    #[test]
    fn objects_and_keys() {
        let v = [("s", "string"), ("l", "list(string)")];
        assert_eq!(
            bind("{a = 1, \"b\" = s, 0 = true}", &v).ty(),
            "object({0 = const(bool, true), a = const(int, 1), b = string})"
        );
        assert_eq!(bind("{a = 1, a = s}", &v).ty(), "object({a = string})");
        assert_eq!(bind("{(s) = 1, b = \"x\"}", &v).ty(), "map(string)");
        // A variable named like a bare key does not matter.
        assert_eq!(bind("{s = 1}", &v).ty(), "object({s = const(int, 1)})");
        let out = bind("{(null) = 1}", &v);
        assert_eq!(
            out.msgs(),
            ["error[object-key-not-convertible]: object keys must be strings: expected string, found null"]
        );
        let out = bind("{(l) = 1}", &v);
        assert_eq!(
            out.msgs(),
            ["error[object-key-not-convertible]: object keys must be strings: expected string, found list(string)"]
        );
    }

    #[test]
    fn splats_and_indexes() {
        let v = [
            ("l", "list(object({a = int}))"),
            ("t", "tuple(int, string)"),
            ("a", "int"),
        ];
        assert_eq!(bind("l[*].a", &v).ty(), "list(int)");
        assert_eq!(bind("l.*.a", &v).ty(), "list(int)");
        assert_eq!(bind("l[a].a", &v).ty(), "int");
        assert_eq!(bind("l[a]", &v).expr.kind_name(), "IndexExpression");
        assert_eq!(
            bind("l[a].a", &v).expr.kind_name(),
            "RelativeTraversalExpression"
        );
        // Decision for index-fallback-drops-diagnostic: replicate — a folded
        // literal key whose traversal fails falls back to the element type.
        let out = bind("t[-1]", &v);
        assert_eq!(out.ty(), "string");
        assert!(out.diags.is_empty());
        let out = bind("t[2]", &v);
        assert_eq!(
            out.msgs(),
            ["error[tuple-index-out-of-range]: tuple index must be between 0 and 2"]
        );
    }

    /// A traversal splits at its first non-literal index: the literal run
    /// before it stays on the scope traversal, the rest is an index
    /// expression and a relative traversal.
    #[test]
    fn traversal_splits_at_the_first_non_literal_index() {
        let v = [
            (
                "m",
                "object({b = list(map(list(object({c = list(int)}))))})",
            ),
            ("a", "int"),
        ];
        let out = bind("m.b[0][\"k\"][a].c[1]", &v);
        assert!(out.diags.is_empty(), "{:?}", out.msgs());
        assert_eq!(out.ty(), "int");
        let BoundExprKind::RelativeTraversal { source, steps } = out.expr.kind() else {
            panic!("{}", out.expr.kind_name());
        };
        let names: Vec<String> = steps.iter().map(|s| format!("{:?}", s.kind)).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].contains("\"c\""), "{names:?}");
        let BoundExprKind::Index { collection, key } = source.kind() else {
            panic!("{}", source.kind_name());
        };
        assert_eq!(key.kind_name(), "ScopeTraversalExpression");
        let BoundExprKind::ScopeTraversal(t) = collection.kind() else {
            panic!("{}", collection.kind_name());
        };
        assert_eq!(&*t.root, "m");
        let kinds: Vec<String> = t.steps.iter().map(|s| format!("{:?}", s.kind)).collect();
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        assert!(kinds[0].contains("\"b\""), "{kinds:?}");
        assert!(kinds[2].contains("\"k\""), "{kinds:?}");
        // Without a non-literal index everything stays on the root.
        let out = bind("m.b[0][\"k\"]", &v);
        let BoundExprKind::ScopeTraversal(t) = out.expr.kind() else {
            panic!("{}", out.expr.kind_name());
        };
        assert_eq!(t.steps.len(), 3);
        assert_eq!(out.ty(), "list(object({c = list(int)}))");
    }
}

mod references {
    use super::*;

    #[test]
    fn undefined_variable_with_suggestion() {
        let out = bind("buckte.id", &[]);
        assert_eq!(
            out.msgs(),
            ["error[undefined-variable]: undefined variable `buckte`"]
        );
        assert_eq!(out.diags[0].help(), ["did you mean `bucket`?"]);
        assert_eq!(
            out.diags[0].span.range,
            pcl_diagnostics::TextRange::new(0, 6)
        );
        assert_eq!(out.ty(), "dynamic");
        let lenient = ExprOptions {
            allow_missing_variables: true,
            ..ExprOptions::default()
        };
        let out = bind_with("nope", &scope_with(&[]), &lenient);
        assert_eq!(
            out.msgs(),
            ["warning[undefined-variable]: undefined variable `nope`"]
        );
    }

    #[test]
    fn nodes() {
        let out = bind("bucket.id", &[]);
        assert_eq!(out.ty(), "output(string)");
        assert_eq!(out.expr.node_references(), [NodeId(0)]);
        let out = bind("bucket.nope", &[]);
        assert_eq!(
            out.msgs(),
            ["error[unknown-property]: unknown property `nope` among [id tags]"]
        );
        assert_eq!(bind("lenient.nope", &[]).msgs(), Vec::<String>::new());
        assert_eq!(bind("hook.anything.at.all", &[]).ty(), "dynamic");
        let out = bind("pulumi.x", &[]);
        assert_eq!(
            out.msgs(),
            ["error[node-not-traversable]: pulumi blocks cannot be traversed"]
        );
        let out = bind("[bucket.id, lenient, bucket]", &[]);
        assert_eq!(out.expr.node_references(), [NodeId(0), NodeId(3)]);
    }

    #[test]
    fn null_constant_and_keywords() {
        let mut s = scope_with(&[]);
        s.define("else", Definition::Keyword("else".into()), false)
            .unwrap();
        let out = bind_with("else.x", &s, &ExprOptions::default());
        assert_eq!(
            out.msgs(),
            ["error[keyword-traversal]: `else` is a keyword and cannot be traversed"]
        );
        let mut s = Scope::root();
        s.define(
            "p",
            Definition::resource_property("p", Type::object([("a", Type::int())])),
            false,
        )
        .unwrap();
        let out = bind_with("p.a", &s, &ExprOptions::default());
        assert_eq!(out.ty(), "Property");
        assert!(out.diags.is_empty());
    }
}

mod calls {
    use super::*;

    #[test]
    fn generic_checking() {
        let out = bind("join(\",\")", &[]);
        assert_eq!(
            out.msgs(),
            ["error[missing-argument]: missing required parameter `strings`"]
        );
        let out = bind("stack(1)", &[]);
        assert_eq!(
            out.msgs(),
            ["error[too-many-arguments]: too many arguments to call: expected 0, got 1"]
        );
        let out = bind("upper(\"x\")", &[]);
        assert_eq!(
            out.msgs(),
            ["error[unknown-function]: unknown function `upper`"]
        );
        let out = bind("lenght([])", &[]);
        assert_eq!(out.diags[0].help(), ["did you mean `length`?"]);
        // Removed at HEAD.
        assert_eq!(
            bind("mimeType(\"x\")", &[]).msgs(),
            ["error[unknown-function]: unknown function `mimeType`"]
        );
    }

    #[test]
    fn lifting_and_expansion() {
        let v = [("o", "output(string)"), ("xs", "list(string)")];
        assert_eq!(bind("join(\",\", [o])", &v).ty(), "output(string)");
        assert_eq!(bind("join(\",\", xs)", &v).ty(), "string");
        assert_eq!(bind("max(1, 2)", &v).ty(), "int");
        assert_eq!(bind("max(1, 2.5)", &v).ty(), "int");
        assert_eq!(bind("min([1, 2]...)", &v).ty(), "int");
    }

    #[test]
    fn builtins() {
        let v = [
            ("l", "list(string)"),
            ("ol", "output(list(string))"),
            ("t", "tuple(int, string)"),
            ("m", "map(int)"),
            ("s", "set(int)"),
            ("o", "output(int)"),
        ];
        assert_eq!(bind("element(l, 0)", &v).ty(), "string");
        assert_eq!(bind("element(ol, 0)", &v).ty(), "output(string)");
        assert_eq!(bind("element(t, 0)", &v).ty(), "string");
        assert_eq!(
            bind("element(m, 0)", &v).msgs(),
            ["error[builtin-argument]: the first argument to `element` must be a list or tuple"]
        );
        assert_eq!(
            bind("entries(m)", &v).ty(),
            "list(object({key = string, value = int}))"
        );
        assert_eq!(
            bind("entries()", &v).msgs(),
            ["error[missing-argument]: missing required parameter `collection`"]
        );
        assert_eq!(bind("length(l)", &v).ty(), "int");
        assert_eq!(bind("length(ol)", &v).ty(), "output(int)");
        assert_eq!(
            bind("length(s)", &v).msgs(),
            ["error[builtin-argument]: the first argument to `length` must be a list, map, object, tuple, or string"]
        );
        assert_eq!(bind("lookup(m, \"k\", 0)", &v).ty(), "int");
        assert_eq!(bind("lookup({}, \"k\")", &v).ty(), "dynamic");
        assert_eq!(
            bind("lookup(l, \"k\")", &v).msgs(),
            ["error[builtin-argument]: the first argument to `lookup` must be a map"]
        );
        assert_eq!(bind("secret(l)", &v).ty(), "output(list(string))");
        assert_eq!(bind("toJSON(ol)", &v).ty(), "output(string)");
        assert_eq!(
            bind("toJSON()", &v).msgs()[0],
            "error[builtin-arity]: `toJSON` expects exactly one argument"
        );
        assert_eq!(bind("singleOrNone(l)", &v).ty(), "union(none, string)");
        assert_eq!(bind("singleOrNone(t)", &v).ty(), "union(int, none)");
        assert_eq!(bind("try(o, 1)", &v).ty(), "output(int)");
        assert_eq!(
            bind("try()", &v).msgs(),
            ["error[builtin-arity]: `try` expects at least one argument"]
        );
        assert_eq!(bind("can(o)", &v).ty(), "output(bool)");
        assert_eq!(bind("can(l)", &v).ty(), "bool");
        assert_eq!(bind("recover(o, length(error))", &v).ty(), "output(int)");
        assert_eq!(
            bind("recover(1, 2)", &v).msgs(),
            ["error[builtin-argument]: the first argument to `recover` must be an output"]
        );
        assert_eq!(bind("pulumiResourceType(bucket)", &v).ty(), "string");
        assert_eq!(
            bind("pulumiResourceName(l)", &v).msgs(),
            ["error[builtin-argument]: pulumiResourceName argument must be a single resource"]
        );
        assert_eq!(bind("fileAsset(\"a\")", &v).ty(), "Asset");
        assert_eq!(
            bind("assetArchive({a = fileAsset(\"a\")})", &v).ty(),
            "Archive"
        );
        assert_eq!(bind("range(3)", &v).ty(), "list(int)");
    }

    #[test]
    fn invoke() {
        let v = [("o", "output(number)")];
        assert_eq!(
            bind("invoke(\"std:index:abs\", {a = 1}).result", &v).ty(),
            "promise(number)"
        );
        assert_eq!(
            bind("invoke(\"std:index:abs\", {a = o}).result", &v).ty(),
            "output(number)"
        );
        let out = bind("invoke(\"std:index:abs\", {a = 1})", &v);
        match out.expr.kind() {
            BoundExprKind::Call(c) => assert_eq!(c.invoke_token, Some("std::abs")),
            other => panic!("{other:?}"),
        }
        let prefer = ExprOptions {
            prefer_output_versioned_invokes: true,
            ..ExprOptions::default()
        };
        let out = bind_with(
            "invoke(\"std:index:abs\", {a = 1}).result",
            &scope_with(&v),
            &prefer,
        );
        assert_eq!(out.ty(), "output(number)");
        assert_eq!(
            bind("invoke(\"std:index:abz\", {})", &v).msgs(),
            ["error[unknown-function]: unknown function `std:index:abz`"]
        );
        assert_eq!(
            bind("invoke(\"nope:index:f\", {})", &v).msgs(),
            ["warning[unknown-package]: unknown package `nope`"]
        );
        assert_eq!(
            bind("invoke(\"a:b:c:d\", {})", &v).msgs(),
            ["error[invoke-token]: malformed token `a:b:c:d`: expected `pkg:module:member` or `pkg:member`"]
        );
        let t = [("t", "string")];
        assert_eq!(
            bind("invoke(t, {})", &t).msgs(),
            ["error[invoke-token]: invoke token must be a string literal"]
        );
        assert_eq!(
            bind("invoke(\"std:index:abs\")", &v).msgs(),
            ["error[invoke-arguments]: missing second arg"]
        );
        let skip = ExprOptions {
            skip_invoke_typecheck: true,
            ..ExprOptions::default()
        };
        assert!(
            bind_with("invoke(\"nope:index:f\", {})", &scope_with(&v), &skip)
                .diags
                .is_empty()
        );
        assert_eq!(
            bind("invoke(\"std:index:multi\", 1, \"x\")", &v).ty(),
            "promise(string)"
        );
        assert_eq!(
            bind("invoke(\"std:index:multi\", 1, \"x\", {}, 4)", &v).msgs(),
            ["error[too-many-arguments]: too many arguments to call: expected 4, got 5"]
        );
        let out = bind("invoke(\"std:index:multi\", {a = 1})", &v);
        assert!(
            out.msgs()[0].contains("is declared with multi-argument inputs"),
            "{:?}",
            out.msgs()
        );
    }

    #[test]
    fn call() {
        assert_eq!(
            bind("call(bucket, \"getKey\", {name = \"x\"}).key", &[]).ty(),
            "output(string)"
        );
        assert_eq!(
            bind("call(bucket, \"getKye\", {})", &[]).msgs(),
            ["error[unknown-method]: resource type \"aws:s3/bucket:Bucket\" has no method \"getKye\""]
        );
        let out = bind("call(bucket)", &[]);
        assert_eq!(
            out.msgs(),
            [
                "error[call-arguments]: call must be passed a receiver, method name, and arguments object",
                "error[missing-argument]: missing required parameter `method`",
                "error[missing-argument]: missing required parameter `args`",
            ]
        );
        assert_eq!(
            bind("call([bucket][*], \"getKey\", {})", &[]).msgs(),
            ["error[call-arguments]: call's receiver must be a single resource"]
        );
    }

    /// What a call's checks would say about an argument that already
    /// reported an error only repeats it: the argument's own errors stand
    /// alone; arguments without errors are still checked.
    #[test]
    fn arguments_that_failed_are_not_checked_again() {
        let undefined = "error[undefined-variable]: undefined variable `nope`";
        assert_eq!(bind("call(nope, \"getKey\", {})", &[]).msgs(), [undefined]);
        assert_eq!(bind("pulumiResourceType(nope)", &[]).msgs(), [undefined]);
        assert_eq!(
            bind("call(1, \"getKey\", {})", &[]).msgs(),
            ["error[call-arguments]: call's receiver must be a single resource"]
        );
        // The call's own arity is still checked.
        assert_eq!(
            bind("length(nope, 1)", &[]).msgs(),
            [
                undefined,
                "error[too-many-arguments]: too many arguments to call: expected 1, got 2"
            ]
        );
    }

    /// A call whose argument list has a syntax error (reported by the
    /// parser) gets no arity or argument diagnostics, only its arguments'
    /// own, and keeps its result type.
    #[test]
    fn broken_argument_lists_are_not_checked() {
        for (text, ty) in [
            ("length(", "int"),
            ("length(nope", "int"),
            ("try(", "dynamic"),
        ] {
            let parsed = pcl_syntax::parse_expr(FileId(3), text);
            assert!(parsed.has_errors(), "{text}");
            let options = ExprOptions::default();
            let mut cx = BindContext::new(FileId(3), &MockEnv, &options);
            let expr = bind_expr(parsed.expr(), &scope_with(&[]), &mut cx);
            let out = Out {
                expr,
                diags: cx.take_diagnostics(),
            };
            let expected: &[&str] = if text.contains("nope") {
                &["error[undefined-variable]: undefined variable `nope`"]
            } else {
                &[]
            };
            assert_eq!(out.msgs(), expected, "{text}");
            assert_eq!(out.ty(), ty, "{text}");
        }
    }
}

mod depth {
    use super::*;
    use pcl_syntax::tree::{ExprKind, ExprRef};

    // The parser caps nesting at `pcl_syntax::MAX_NESTING_DEPTH`, below
    // `MAX_EXPR_DEPTH`, so a parsed expression alone never reaches the
    // binder's limit. These tests start binding at a given depth instead,
    // as if the expression were nested that deep already.

    /// `!!…!true` with `nots` operators: `nots + 1` nested nodes.
    fn nested_not(nots: usize) -> String {
        format!("{}true", "!".repeat(nots))
    }

    /// Binds `text` starting at nesting depth `start`.
    fn bind_at(text: &str, start: usize) -> Vec<Diagnostic> {
        let parsed = pcl_syntax::parse_expr(FileId(0), text);
        let options = ExprOptions::default();
        let mut cx = BindContext::new(FileId(0), &EmptyEnvironment, &options);
        cx.depth = start;
        let bound = bind_expr(parsed.expr(), &Scope::root(), &mut cx);
        drop(bound);
        cx.take_diagnostics()
    }

    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    fn find_splat_item(e: ExprRef<'_>) -> Option<ExprRef<'_>> {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if matches!(e.kind(), ExprKind::SplatItem) {
                return Some(e);
            }
            e.for_each_child(|c| stack.push(c));
        }
        None
    }

    #[test]
    fn splat_item_outside_a_splat_is_reported() {
        // The parser only puts splat items inside splats; binding one on
        // its own (outside its splat) has no item type to give it.
        let parsed = pcl_syntax::parse_expr(FileId(0), "x[*].a");
        let item = find_splat_item(parsed.expr()).expect("a splat has an item");
        let options = ExprOptions::default();
        let mut cx = BindContext::new(FileId(0), &EmptyEnvironment, &options);
        let bound = bind_expr(item, &Scope::root(), &mut cx);
        let diags = cx.take_diagnostics();
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, codes::UNDEFINED_ANONYMOUS_SYMBOL);
        assert_eq!(bound.ty(), &Type::dynamic());
    }

    #[test]
    fn at_the_limit_binds_cleanly() {
        // 101 nodes (100 `!`s and the literal) started 101 levels below the
        // limit reach it exactly; one level more is too deep.
        let text = nested_not(100);
        let diags = bind_at(&text, MAX_EXPR_DEPTH - 101);
        assert!(diags.is_empty(), "{diags:?}");
        let diags = bind_at(&text, MAX_EXPR_DEPTH - 100);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, codes::EXPRESSION_TOO_DEEP);
    }

    #[test]
    fn very_deep_input_reports_once() {
        // 100 000 `!`s: the parser reports its own nesting limit and keeps
        // the first levels; the binder, started near its limit, reports
        // once however many levels are left.
        let diags = on_small_stack(|| {
            let text = nested_not(100_000);
            bind_at(&text, MAX_EXPR_DEPTH - 20)
        });
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(
            diags[0].summary,
            format!("expression nests more than {MAX_EXPR_DEPTH} levels deep")
        );
    }

    #[test]
    fn long_operator_chain_binds_iteratively() {
        // A left-leaning chain is bound without recursion: 100 000 terms
        // bind cleanly on a 2 MiB stack and have the operator's type.
        let text = vec!["1"; 100_000].join(" + ");
        let (diags, kind, ty) = on_small_stack(move || {
            let parsed = pcl_syntax::parse_expr(FileId(0), &text);
            let options = ExprOptions::default();
            let mut cx = BindContext::new(FileId(0), &EmptyEnvironment, &options);
            let bound = bind_expr(parsed.expr(), &Scope::root(), &mut cx);
            let out = (
                cx.take_diagnostics(),
                bound.kind_name(),
                bound.ty().to_string(),
            );
            drop(bound);
            drop(parsed);
            out
        });
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(kind, "BinaryOpExpression");
        assert_eq!(ty, "number");
    }

    #[test]
    fn long_chain_keeps_its_order_across_segments() {
        // 2 600 terms: the chain is bound in segments of 1 024 operations
        // (plus a partial one); every operand must still sit at its place
        // in the left-leaning tree, and the diagnostics of the misfitting
        // operands (`[]` is no number) come in source order, one at each
        // side of every segment boundary.
        let mut terms = vec!["11"; 2_600];
        let bad = [1, 1_023, 1_024, 1_025, 1_576, 1_577, 2_599];
        for i in bad {
            terms[i] = "[]";
        }
        let text = terms.join(" + ");
        let parsed = pcl_syntax::parse_expr(FileId(0), &text);
        let options = ExprOptions::default();
        let mut cx = BindContext::new(FileId(0), &EmptyEnvironment, &options);
        let bound = bind_expr(parsed.expr(), &Scope::root(), &mut cx);
        let diags = cx.take_diagnostics();
        let starts = |indices: &mut dyn Iterator<Item = usize>| -> Vec<u32> {
            indices.map(|i| (i * 5) as u32).collect()
        };
        let found: Vec<u32> = diags.iter().map(|d| d.span.range.start).collect();
        assert_eq!(found, starts(&mut bad.into_iter()), "{diags:?}");
        // Down the left spine: each operation's right operand, last first.
        let mut rhs_starts = Vec::new();
        let mut cur = bound.root();
        while let BoundExprKind::Binary { lhs, rhs, .. } = cur.kind() {
            assert_eq!(cur.range().start, 0);
            assert_eq!(cur.range().end, rhs.range().end);
            rhs_starts.push(rhs.range().start);
            cur = lhs;
        }
        assert_eq!(cur.range(), pcl_diagnostics::TextRange::new(0, 2));
        rhs_starts.reverse();
        assert_eq!(rhs_starts, starts(&mut (1..2_600)));
    }

    #[test]
    fn operands_inside_a_chain_still_count_their_nesting() {
        // The chain itself is free (1 000 terms count as one level), but an
        // operand's own nesting counts: `true || … || <101 nested nodes> ||
        // … || true` fits when started 102 levels below the limit, and is
        // one level too deep when started 101 below.
        let mut terms = vec!["true".to_string(); 1_000];
        terms[500] = nested_not(100);
        let text = terms.join(" || ");
        let run_chain = move |start: usize| {
            let text = text.clone();
            on_small_stack(move || bind_at(&text, start))
        };
        let diags = run_chain(MAX_EXPR_DEPTH - 102);
        assert!(diags.is_empty(), "{diags:?}");
        let diags = run_chain(MAX_EXPR_DEPTH - 101);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].code, codes::EXPRESSION_TOO_DEEP);
    }
}

/// Golden text of the important diagnostics: `file:line:col:
/// severity[code]: summary`, then ` detail: …` and ` help: …` lines.
mod golden {
    use super::*;
    use pcl_diagnostics::{render_short, SourceMap};

    fn golden(text: &str, vars: &[(&str, &str)]) -> String {
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let parsed = pcl_syntax::parse_expr(file, text);
        assert!(!parsed.has_errors());
        let options = ExprOptions::default();
        let mut cx = BindContext::new(file, &MockEnv, &options);
        let _ = bind_expr(parsed.expr(), &scope_with(vars), &mut cx);
        let mut out = String::new();
        for d in cx.take_diagnostics() {
            out.push_str(&render_short(&d, &sources));
            out.push('\n');
            if let Some(detail) = d.detail() {
                out.push_str(&format!("  detail: {detail}\n"));
            }
            for h in d.help() {
                out.push_str(&format!("  help: {h}\n"));
            }
        }
        out
    }

    #[test]
    fn conversion_failure_names_the_path() {
        let got = golden("join(\",\", [s, {a = [1]}])", &[("s", "string")]);
        assert_eq!(
            got,
            "main.pp:1:15: error[type-not-convertible]: argument `strings[1]`: expected string, found { a: list(number) }\n  detail: expected string, found { a: list(number) }\n  help: usage: join(separator: string, strings: list(string))\n"
        );
        // No trailing separator anywhere (fixes trailing-colon-space).
        assert!(!got.lines().any(|l| l.ends_with(": ") || l.ends_with(':')));
    }

    #[test]
    fn large_types_are_capped() {
        let members: Vec<String> = (0..60).map(|i| format!("p{i} = list(int)")).collect();
        let wide = format!("object({{{}}})", members.join(", "));
        let got = golden("w + 1", &[("w", wide.as_str())]);
        let first = got.lines().next().unwrap();
        assert!(first.len() < 400, "uncapped message: {first}");
        assert!(
            first.starts_with("main.pp:1:1: error[type-not-convertible]: expected number, found {")
        );
    }

    #[test]
    fn references_and_calls() {
        assert_eq!(
            golden("bucket.tags[\"a\"] + bukcet.id", &[]),
            "main.pp:1:20: error[undefined-variable]: undefined variable `bukcet`\n  help: did you mean `bucket`?\n"
        );
        assert_eq!(
            golden("bucket.tagz", &[]),
            "main.pp:1:7: error[unknown-property]: unknown property `tagz` among [id tags]\n  help: did you mean `tags`?\n"
        );
        // Past five members the summary names only the property and the
        // help line lists the likely ones (the reference lists them all).
        let wide = "object({ami = string, arn = string, id = string, instanceType = string, publicDns = string, publicIp = string, tags = map(string), urn = string})";
        assert_eq!(
            golden("server.publicIpAddress", &[("server", wide)]),
            "main.pp:1:7: error[unknown-property]: unknown property `publicIpAddress`\n  detail: the object has no property `publicIpAddress`\n  help: did you mean `publicIp`?\n"
        );
        assert_eq!(
            golden("server.zzz", &[("server", wide)]),
            "main.pp:1:7: error[unknown-property]: unknown property `zzz`\n  detail: the object has no property `zzz`, and none of its 8 properties is close\n"
        );
        assert_eq!(
            golden("join(\",\")", &[]),
            "main.pp:1:1: error[missing-argument]: missing required parameter `strings`\n  help: usage: join(separator: string, strings: list(string))\n"
        );
        assert_eq!(
            golden("toJSON(1, 2)", &[]),
            "main.pp:1:1: error[builtin-arity]: `toJSON` expects exactly one argument\n  detail: `toJSON` expects exactly one argument\n  help: usage: toJSON(value: any)\nmain.pp:1:1: error[too-many-arguments]: too many arguments to call: expected 1, got 2\n  help: usage: toJSON(value: any)\n"
        );
        assert_eq!(
            golden("[for x in s : x]", &[("s", "set(int)")]),
            "main.pp:1:11: error[cannot-iterate]: cannot iterate over a value of type set(int)\n"
        );
    }
}
