//! The façade promises every type a code generator names: this test names
//! each through a `pcl::Name` path only (never `pcl::expr::…` or
//! `pcl::binder::model::…`), and walks a program that reaches each kind of
//! node and expression, so a type the façade stops exporting, or a view
//! that stops answering, fails here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl::{
    check_program, comment_groups, BinaryOp, BindPolicy, BoundAttribute, BoundCall, BoundExprKind,
    BoundFor, BoundId, BoundIter, BoundList, BoundPairs, BoundRef, BoundScopeTraversal, BoundStep,
    BoundStepKind, BoundTree, Builtin, Checked, Comment, CommentGroup, CommentKind, ComponentNode,
    ConfigNode, Definition, Function, HookKind, HookNode, InvokeTokens, LocalNode, MemoryLoader,
    Name, Node, NodeId, NodeKind, Number, OutputNode, PackageUse, Param, Program, ProgramFile,
    PulumiNode, RangeKind, ResourceNode, ResourceOptions, ResourceProperty, SchemaResourceRef,
    Signature, Type, TypeKind, UnaryOp, Unresolved, Value, Variable, OPTION_ORDER,
};

const SCHEMA: &str = r#"{
  "name": "shop",
  "version": "1.0.0",
  "meta": { "moduleFormat": "(.*)(?:/[^/]*)" },
  "provider": {},
  "resources": {
    "shop:index/store:Store": {
      "inputProperties": { "name": { "type": "string" }, "tags": { "type": "object", "additionalProperties": { "type": "string" } } },
      "properties": { "url": { "type": "string" } },
      "required": ["url"]
    }
  },
  "functions": {
    "shop:catalog/getItem:getItem": {
      "inputs": { "properties": { "id": { "type": "string" } } },
      "outputs": { "properties": { "price": { "type": "number" } } }
    }
  }
}"#;

const PROGRAM: &str = r#"
pulumi {
  requiredVersionRange = ">=3.0.0"
}

# How many stores.
# At least one.
config count int {
  default = 2
}

prov = null # no provider

resource p "pulumi:providers:shop" {
}

resource store "shop:index:Store" {
  /* the name */
  name = "s-${range.value}"
  tags = { "Name" = "x" } // the tags
  options {
    range = count
    provider = p
    ignoreChanges = [name]
    protect = !false
  }
}

item = invoke("shop:catalog:getItem", { id = "a1" })
missing = invoke("shop:catalog:getThing", { id = "a1" })
prices = [for s in store : s.url if s.url != ""]
first = store[0].url
total = item.price * 2 + length(prices)
upper = { for k, v in { a = "b" } : k => secret(v) }
splat = store[*].url

resource ghost "shop:index:Ghost" {
}

output out {
  value = [first, total, upper, splat, missing, prov]
}
"#;

fn check() -> Checked<Program> {
    let loader = MemoryLoader::new().with(SCHEMA).unwrap();
    let sources = vec![("main.pp".to_string(), PROGRAM.to_string())];
    check_program(&sources, &loader, &BindPolicy::lenient())
}

fn resource<'a>(program: &'a Program, name: &str) -> &'a ResourceNode {
    match &program.find(name).unwrap().kind {
        NodeKind::Resource(r) => r,
        other => panic!("{other:?}"),
    }
}

fn local<'a>(program: &'a Program, name: &str) -> &'a BoundTree {
    match &program.find(name).unwrap().kind {
        NodeKind::Local(LocalNode { value }) => value.as_ref().unwrap(),
        other => panic!("{other:?}"),
    }
}

/// Every kind name an expression walk meets.
fn kinds(program: &Program) -> Vec<&'static str> {
    let mut out = Vec::new();
    for node in program.nodes() {
        let mut trees: Vec<&BoundTree> = Vec::new();
        match &node.kind {
            NodeKind::Local(l) => trees.extend(l.value.as_ref()),
            NodeKind::Config(c) => {
                let c: &ConfigNode = c;
                trees.extend(c.default.as_ref());
            }
            NodeKind::Output(o) => {
                let o: &OutputNode = o;
                trees.extend(o.value.as_ref());
            }
            NodeKind::Resource(r) => {
                let attrs: Vec<&BoundAttribute> =
                    r.inputs.iter().chain(&r.options().attributes).collect();
                trees.extend(attrs.iter().map(|a| &a.value));
            }
            NodeKind::Component(c) => {
                let c: &ComponentNode = c;
                trees.extend(c.inputs.iter().map(|a| &a.value));
            }
            NodeKind::Hook(h) => {
                let h: &HookNode = h;
                assert!(matches!(h.hook_kind, HookKind::Resource | HookKind::Error));
            }
            NodeKind::Pulumi(p) => {
                let p: &PulumiNode = p;
                trees.extend(p.attributes.iter().map(|a| &a.value));
            }
        }
        for tree in trees {
            tree.root().walk(&mut |e: BoundRef<'_>| {
                let _: BoundId = e.id();
                let _: &Type = e.ty();
                out.push(e.kind_name());
            });
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn a_generator_names_everything_through_the_facade() {
    let checked = check();
    let program: &Program = checked.value();

    let declared: Vec<&Node> = program.nodes().iter().collect();
    assert!(declared.len() >= 12, "{declared:?}");
    let ids: Vec<NodeId> = program.order().to_vec();
    assert_eq!(ids.len(), declared.len());
    let files: &[ProgramFile] = program.files();
    assert_eq!(files.len(), 1);
    let packages: &[PackageUse] = program.packages();
    assert_eq!(packages.first().map(|p| p.name.as_str()), Some("shop"));

    // Tokens.
    let store = resource(program, "store");
    assert_eq!(store.written_token(), "shop:index:Store");
    assert_eq!(store.schema_token(), Some("shop:index/store:Store"));
    assert_eq!(store.canonical_token(), "shop::Store");
    let schema: &SchemaResourceRef = store.schema.as_ref().unwrap();
    assert_eq!(schema.package, "shop");
    let p = resource(program, "p");
    assert!(p.is_provider() && !store.is_provider());
    assert_eq!(p.canonical_token(), "pulumi:providers:shop");
    assert_eq!(p.schema_token(), Some("pulumi:providers:shop"));

    // Lenient keeps the reason.
    let ghost = resource(program, "ghost");
    let why: &Unresolved = ghost.unresolved().unwrap();
    assert_eq!(why.code().as_str(), "unknown-resource-type");
    assert!(
        why.message().contains("shop:index:Ghost"),
        "{}",
        why.message()
    );
    assert!(store.unresolved().is_none());

    // Options.
    let options: &ResourceOptions = store.options();
    assert!(options.provider().is_some() && options.protect().is_some());
    assert!(options.parent().is_none() && options.depends_on().is_none());
    let set: Vec<&str> = options.set_options().map(|a| a.name.as_str()).collect();
    assert_eq!(set, ["provider", "ignoreChanges", "protect"]);
    assert!(set.iter().all(|n| OPTION_ORDER.contains(n)));
    assert!(store.range_value().is_some());
    assert!(matches!(store.range, Some(RangeKind::Count)));

    // Invokes.
    let BoundExprKind::Call(call) = local(program, "item").kind() else {
        panic!()
    };
    let call: BoundCall<'_> = call;
    assert!(matches!(call.function, Some(Function::Invoke)));
    let invoke: &InvokeTokens = call.invoke().unwrap();
    assert_eq!(invoke.written_token(), "shop:catalog:getItem");
    assert_eq!(invoke.schema_token(), Some("shop:catalog/getItem:getItem"));
    assert_eq!(invoke.canonical_token(), "shop:catalog:getItem");
    let sig: &Signature = call.signature;
    let params: &[Param] = &sig.params;
    assert!(!params.is_empty());
    let args: BoundList<'_> = call.args;
    let mut iter: BoundIter<'_> = args.iter();
    assert_eq!(
        iter.next().and_then(|a| a.literal_string()),
        Some("shop:catalog:getItem")
    );
    let BoundExprKind::Call(missing) = local(program, "missing").kind() else {
        panic!()
    };
    let missing = missing.invoke().unwrap();
    assert_eq!(missing.canonical_token(), "shop:catalog:getThing");
    assert_eq!(missing.schema_token(), None);
    assert_eq!(
        missing.unresolved().map(|u| u.code().as_str()),
        Some("unknown-function")
    );

    // Traversals.
    let BoundExprKind::ScopeTraversal(first) = local(program, "first").kind() else {
        panic!()
    };
    let first: &BoundScopeTraversal = first;
    let root: &Name = &first.root;
    assert_eq!(root.as_str(), "store");
    assert!(matches!(first.definition, Some(Definition::Node(_))));
    assert!(matches!(first.root_type().kind(), TypeKind::List(_)));
    let steps: &[BoundStep] = &first.steps;
    assert!(
        matches!(steps[0].kind, BoundStepKind::Index(Value::Number(ref n)) if *n == Number::from_i64(0))
    );
    assert!(matches!(&steps[1].kind, BoundStepKind::Attr(a) if &**a == "url"));

    // For expressions, objects, builtins, variables.
    let BoundExprKind::For(f) = local(program, "prices").kind() else {
        panic!()
    };
    let f: BoundFor<'_> = f;
    assert_eq!(f.value_var, "s");
    let BoundExprKind::For(g) = local(program, "upper").kind() else {
        panic!()
    };
    let BoundExprKind::Object(pairs) = g.collection.kind() else {
        panic!()
    };
    let pairs: BoundPairs<'_> = pairs;
    assert_eq!(pairs.len(), 1);
    let BoundExprKind::Call(up) = g.value.kind() else {
        panic!()
    };
    let builtin: Option<Builtin> = match up.function {
        Some(Function::Builtin(b)) => Some(*b),
        _ => None,
    };
    assert_eq!(builtin, Some(Builtin::Secret));
    let mut variables = Vec::new();
    g.value.walk(&mut |e| {
        if let BoundExprKind::ScopeTraversal(t) = e.kind() {
            if let Some(Definition::Variable(v)) = &t.definition {
                let v: &Variable = v;
                variables.push(v.name.clone());
            }
        }
    });
    assert_eq!(variables, ["v"]);
    let BoundExprKind::Binary { op, .. } = local(program, "total").kind() else {
        panic!()
    };
    assert_eq!(op, BinaryOp::Add);
    let unary = matches!(
        store.options().protect().unwrap().kind(),
        BoundExprKind::Unary {
            op: UnaryOp::Not,
            ..
        }
    );
    assert!(unary);
    let ignored = store.options().ignore_changes().unwrap();
    let mut properties = Vec::new();
    ignored.root().walk(&mut |e| {
        if let BoundExprKind::ScopeTraversal(t) = e.kind() {
            if let Some(Definition::ResourceProperty(p)) = &t.definition {
                let p: &ResourceProperty = p;
                properties.push(p.name.clone());
            }
        }
    });
    assert_eq!(properties, ["name"]);

    // Comments.
    let config = program.find("count").unwrap();
    let groups: Vec<CommentGroup<'_>> = config.leading_comment_groups();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].lines(), [" How many stores.", " At least one."]);
    let comments: &[Comment] = config.leading_comments();
    assert!(comments.iter().all(|c| c.kind == CommentKind::Hash));
    assert_eq!(comment_groups(comments).len(), 1);
    let name = &store.inputs[0];
    assert!(name.leading_comment_groups()[0].is_block());
    assert_eq!(
        store.inputs[1].trailing_comment_groups()[0].lines(),
        [" the tags"]
    );
    let prov = program.find("prov").unwrap();
    assert_eq!(prov.trailing_comment_groups()[0].lines(), [" no provider"]);

    // Every expression kind a program of this shape has.
    let seen = kinds(program);
    for kind in [
        "LiteralValueExpression",
        "TemplateExpression",
        "BinaryOpExpression",
        "UnaryOpExpression",
        "ForExpression",
        "SplatExpression",
        "AnonymousSymbolExpression",
        "FunctionCallExpression",
        "ObjectConsExpression",
        "TupleConsExpression",
        "ScopeTraversalExpression",
        "RelativeTraversalExpression",
    ] {
        assert!(seen.contains(&kind), "{kind} not in {seen:?}");
    }
}
