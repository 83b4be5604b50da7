//! pcl: a front end for PCL, the Pulumi Configuration Language, as a
//! library for code generators and other tools.
//!
//! This crate only re-exports; the work is done in six layers, each a crate
//! that depends only on the layers above it:
//!
//! | layer | crate | owns |
//! |---|---|---|
//! | sources | [`diagnostics`] (`pcl_diagnostics`) | files, byte spans, line/column positions, [`Diagnostic`], ariadne rendering |
//! | syntax | [`syntax`] (`pcl_syntax`) | the lossless lexer and parser, the syntax tree, comments |
//! | types | [`types`] (`pcl_types`) | the PCL type algebra: [`Type`], conversion, unification, traversal, printing |
//! | schemas | [`schema`] (`pcl_schema`) | Pulumi package schemas and their loaders ([`DirLoader`], [`MemoryLoader`], …) |
//! | expressions | [`expr`] (`pcl_expr`) | scopes and the typing of every expression into a [`BoundTree`] (flat, read through [`BoundRef`] views) |
//! | programs | [`binder`] (`pcl_binder`) | whole programs: blocks, dependency order, resources and components checked against schemas, the bound [`Program`] |
//!
//! Beside them, [`fmt`] (`pcl_fmt`, built on the syntax layer only) is
//! `pcl fmt`'s formatter: [`fmt::format`] a file, [`fmt::format_range`]
//! part of one.
//!
//! The usual entry points are [`check_program`] (sources in memory),
//! [`check_program_with_files`] (components read through a
//! [`FileProvider`]) and [`check_directory`] (a program on disk);
//! [`check_program_cached`] checks many programs against one
//! [`SchemaCache`] (packages loaded and schema types converted once). They never
//! fail: they return a [`Checked`] holding the bound [`Program`], every
//! source read and the diagnostics found, sorted. Strictness is one
//! [`BindPolicy`]. A code generator walks [`Program::ordered_nodes`]
//! (dependencies first); each [`Node`] has a [`NodeKind`] with typed
//! [`BoundTree`]s (read through [`BoundRef`] views and their
//! [`BoundExprKind`]) whose references name other nodes by [`NodeId`].
//!
//! # Example
//!
//! Check a program against a schema held in memory and walk the result:
//!
//! ```
//! use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind};
//!
//! let schema = r#"{
//!   "name": "shop",
//!   "version": "1.0.0",
//!   "resources": {
//!     "shop:index:Store": {
//!       "inputProperties": { "name": { "type": "string" } },
//!       "requiredInputs": ["name"],
//!       "properties": { "url": { "type": "string" } },
//!       "required": ["url"]
//!     }
//!   }
//! }"#;
//! let loader = MemoryLoader::new().with(schema).expect("a valid schema");
//! let program = r#"
//! config storeName string {
//!   default = "corner"
//! }
//!
//! resource store "shop:index:Store" {
//!   name = "${storeName}-shop"
//! }
//!
//! output url {
//!   value = store.url
//! }
//! "#;
//! let sources = vec![("main.pp".to_string(), program.to_string())];
//! let checked = check_program(&sources, &loader, &BindPolicy::strict());
//! assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
//!
//! let mut seen = Vec::new();
//! for node in checked.value().ordered_nodes() {
//!     match &node.kind {
//!         NodeKind::Config(config) => {
//!             assert_eq!(config.type_label.as_deref(), Some("string"));
//!         }
//!         NodeKind::Resource(resource) => {
//!             assert_eq!(resource.written_token, "shop:index:Store");
//!             let name = &resource.inputs[0];
//!             assert_eq!(name.name, "name");
//!             assert!(matches!(name.value.kind(), BoundExprKind::Template(_)));
//!         }
//!         NodeKind::Output(output) => {
//!             let value = output.value.as_ref().expect("an output value");
//!             assert_eq!(value.ty().to_string(), "output(string)");
//!         }
//!         _ => {}
//!     }
//!     seen.push(format!("{} {}: {}", node.kind_name(), node.name, node.ty));
//! }
//! assert_eq!(seen.len(), 3);
//! assert!(seen[0].starts_with("config storeName"));
//! assert!(seen[2].starts_with("output url"));
//! ```
//!
//! Diagnostics render through [`render()`] (ariadne, with source excerpts) or
//! [`render_short`] (`path:line:col: severity[code]: message`), given the
//! [`Checked::sources`].

#[doc(inline)]
pub use pcl_binder as binder;
#[doc(inline)]
pub use pcl_diagnostics as diagnostics;
#[doc(inline)]
pub use pcl_expr as expr;
#[doc(inline)]
pub use pcl_fmt as fmt;
#[doc(inline)]
pub use pcl_schema as schema;
#[doc(inline)]
pub use pcl_syntax as syntax;
#[doc(inline)]
pub use pcl_types as types;

// ---- checking ---------------------------------------------------------------

#[doc(inline)]
pub use pcl_binder::{
    check_directory, check_program, check_program_cached, check_program_with_files, BindPolicy,
    Checked, FileProvider, FsFiles, MemoryFiles, NoFiles, SchemaCache,
};

// ---- the bound program ------------------------------------------------------

/// The bound program: its [`Node`]s in declaration order
/// ([`Program::nodes`]) and in dependency order ([`Program::ordered_nodes`]).
///
/// ```
/// use pcl::{check_program, BindPolicy, MemoryLoader};
///
/// let program = "b = a + 1\na = 1\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let program = checked.value();
/// let declared: Vec<&str> = program.nodes().iter().map(|n| n.name.as_str()).collect();
/// let ordered: Vec<&str> = program.ordered_nodes().map(|n| n.name.as_str()).collect();
/// assert_eq!(declared, ["b", "a"]);
/// assert_eq!(ordered, ["a", "b"]);
/// ```
#[doc(inline)]
pub use pcl_binder::Program;

/// One top-level declaration of a [`Program`]: its name, [`NodeKind`],
/// type, dependencies and comments.
#[doc(inline)]
pub use pcl_binder::Node;

/// What a [`Node`] is; match on it to generate each kind of declaration.
///
/// ```
/// use pcl::{check_program, BindPolicy, MemoryLoader, NodeKind};
///
/// let program = "config size int {\n}\nlabel = \"x${size}\"\noutput out {\n  value = label\n}\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let kinds: Vec<&str> = checked.value().ordered_nodes().map(|node| match &node.kind {
///     NodeKind::Config(c) => c.type_label.as_deref().unwrap_or("?"),
///     NodeKind::Local(_) => "local",
///     NodeKind::Output(_) => "output",
///     _ => "other",
/// }).collect();
/// assert_eq!(kinds, ["int", "local", "output"]);
/// ```
#[doc(inline)]
pub use pcl_binder::NodeKind;

/// A `name = expr` declaration ([`NodeKind::Local`]).
#[doc(inline)]
pub use pcl_binder::LocalNode;

/// A `config` declaration ([`NodeKind::Config`]).
#[doc(inline)]
pub use pcl_binder::ConfigNode;

/// An `output` declaration ([`NodeKind::Output`]).
#[doc(inline)]
pub use pcl_binder::OutputNode;

/// A `resource` or `read` block ([`NodeKind::Resource`]), with its tokens,
/// inputs and options.
///
/// ```
/// use pcl::{check_program, BindPolicy, MemoryLoader, NodeKind};
///
/// let schema = r#"{
///   "name": "random",
///   "version": "4.0.0",
///   "meta": { "moduleFormat": "(.*)(?:/[^/]*)" },
///   "provider": {},
///   "resources": {
///     "random:index/randomPet:RandomPet": { "inputProperties": {} }
///   }
/// }"#;
/// let loader = MemoryLoader::new().with(schema).expect("a valid schema");
/// let program = r#"
/// resource pet "random:index:RandomPet" {
///   options {
///     provider = prov
///   }
/// }
/// resource prov "pulumi:providers:random" {
/// }
/// "#;
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &loader, &BindPolicy::strict());
/// assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
/// let resource = |name: &str| match &checked.value().find(name).expect("a node").kind {
///     NodeKind::Resource(r) => r.clone(),
///     _ => unreachable!(),
/// };
/// let pet = resource("pet");
/// assert_eq!(pet.written_token(), "random:index:RandomPet");
/// assert_eq!(pet.schema_token(), Some("random:index/randomPet:RandomPet"));
/// assert_eq!(pet.canonical_token(), "random::RandomPet");
/// assert!(!pet.is_provider());
/// let prov = resource("prov");
/// assert_eq!(prov.schema_token(), Some("pulumi:providers:random"));
/// assert_eq!(prov.canonical_token(), "pulumi:providers:random");
/// assert!(prov.is_provider());
/// ```
#[doc(inline)]
pub use pcl_binder::ResourceNode;

/// The `options { … }` block of a resource or component, with an accessor
/// per option and [`ResourceOptions::set_options`] in the order Pulumi's
/// generators write them.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind, Value};
///
/// let program = r#"
/// resource a "pkg:index:Thing" {
///   options {
///     version = "1.2.3"
///     range = 2
///     protect = true
///     dependsOn = [b]
///   }
/// }
/// resource b "pkg:index:Thing" {
/// }
/// "#;
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::lenient());
/// let NodeKind::Resource(a) = &checked.value().find("a").expect("a").kind else { unreachable!() };
/// let options = a.options();
/// assert!(matches!(options.protect().map(|v| v.kind()), Some(BoundExprKind::Literal(Value::Bool(true)))));
/// assert_eq!(options.version().and_then(|v| v.literal_string()), Some("1.2.3"));
/// assert!(options.parent().is_none());
/// // `range` is not an option a generator writes in `options`:
/// assert!(a.range_value().is_some());
/// let order: Vec<&str> = options.set_options().map(|o| o.name.as_str()).collect();
/// assert_eq!(order, ["dependsOn", "protect", "version"]);
/// ```
#[doc(inline)]
pub use pcl_binder::ResourceOptions;

/// The options [`ResourceOptions::set_options`] yields, in its order.
#[doc(inline)]
pub use pcl_binder::OPTION_ORDER;

/// How a `range` option multiplies a resource or component
/// ([`ResourceNode::range`]).
#[doc(inline)]
pub use pcl_binder::RangeKind;

/// Where a resource's schema came from ([`ResourceNode::schema`]).
#[doc(inline)]
pub use pcl_binder::SchemaResourceRef;

/// A `component` block ([`NodeKind::Component`]) and its bound
/// sub-program.
#[doc(inline)]
pub use pcl_binder::ComponentNode;

/// A `hook` block ([`NodeKind::Hook`]) and which hook it is.
#[doc(inline)]
pub use pcl_binder::{HookKind, HookNode};

/// The `pulumi { … }` block ([`NodeKind::Pulumi`]).
#[doc(inline)]
pub use pcl_binder::PulumiNode;

/// An input, option or other attribute after binding: its name, bound
/// value and comments.
#[doc(inline)]
pub use pcl_binder::BoundAttribute;

/// A package the program uses ([`Program::packages`]) and a file of the
/// program ([`Program::files`]).
#[doc(inline)]
pub use pcl_binder::{PackageUse, ProgramFile};

/// A comment kept on a node or attribute ([`Node::leading_comments`],
/// [`BoundAttribute::leading_comments`], …), raw and with its range.
#[doc(inline)]
pub use pcl_binder::Comment;

/// Comments grouped as Pulumi's generators write them: a run of line
/// comments is one group, a block comment another, the comments after a
/// node on its line one trailing group.
///
/// ```
/// use pcl::{check_program, BindPolicy, MemoryLoader, NodeKind};
///
/// let program = "# The site's name,\n# kept short.\n/* no default */\nname = \"web\" // trailing\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let node = checked.value().find("name").expect("a node");
/// let leading = node.leading_comment_groups();
/// assert_eq!(leading.len(), 2);
/// assert_eq!(leading[0].lines(), [" The site's name,", " kept short."]);
/// assert_eq!(leading[0].raw_text(program), Some("# The site's name,\n# kept short."));
/// assert!(leading[1].is_block());
/// assert_eq!(leading[1].lines(), [" no default"]); // as Go trims `  */`
/// let trailing = node.trailing_comment_groups();
/// assert_eq!(trailing.len(), 1);
/// assert_eq!(trailing[0].lines(), [" trailing"]);
/// ```
#[doc(inline)]
pub use pcl_binder::CommentGroup;

/// Groups a list of comments ([`CommentGroup`]).
#[doc(inline)]
pub use pcl_binder::comment_groups;

/// Which delimiter a [`Comment`] uses (`#`, `//` or `/* */`).
#[doc(inline)]
pub use pcl_syntax::tree::CommentKind;

/// Why a resource type or an invoke token did not resolve
/// ([`ResourceNode::unresolved`], [`InvokeTokens::unresolved`]), kept
/// under the lenient policy too.
///
/// ```
/// use pcl::{check_program, BindPolicy, MemoryLoader, NodeKind};
///
/// let schema = r#"{ "name": "shop", "version": "1.0.0", "resources": {} }"#;
/// let loader = MemoryLoader::new().with(schema).expect("a valid schema");
/// let program = "resource r \"shop:index:Stor\" {\n}\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &loader, &BindPolicy::lenient());
/// assert!(checked.diagnostics().is_empty()); // --lenient says nothing here
/// let NodeKind::Resource(r) = &checked.value().nodes()[0].kind else { unreachable!() };
/// let why = r.unresolved().expect("a reason");
/// assert_eq!(why.code().as_str(), "unknown-resource-type");
/// assert_eq!(why.message(), "unknown resource type `shop:index:Stor`");
/// assert!(!why.reported());
/// assert_eq!(r.canonical_token(), "shop:index:Stor");
/// ```
#[doc(inline)]
pub use pcl_expr::Unresolved;

// ---- bound expressions ------------------------------------------------------

/// One bound expression (an attribute's value, a local's value …): read
/// it through [`BoundTree::root`] or its shortcuts ([`BoundTree::kind`],
/// [`BoundTree::ty`]).
#[doc(inline)]
pub use pcl_expr::BoundTree;

/// A view of one expression of a [`BoundTree`]: its type, range and
/// [`BoundExprKind`].
#[doc(inline)]
pub use pcl_expr::BoundRef;

/// An expression's kind, with its children as [`BoundRef`] views; a
/// generator matches on it.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, BoundRef, MemoryLoader, NodeKind};
///
/// fn shape(e: BoundRef<'_>) -> String {
///     match e.kind() {
///         BoundExprKind::Literal(v) => format!("{v:?}"),
///         BoundExprKind::Binary { op, lhs, rhs } => format!("({} {op:?} {})", shape(lhs), shape(rhs)),
///         BoundExprKind::ScopeTraversal(t) => t.root.to_string(),
///         BoundExprKind::Call(call) => format!("{}(…{})", call.name, call.args.len()),
///         other => e.kind_name().to_string() + &format!("{other:?}").chars().take(0).collect::<String>(),
///     }
/// }
/// let program = "a = 1\nb = a * max(2, 3)\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(b) = &checked.value().find("b").expect("b").kind else { unreachable!() };
/// assert_eq!(shape(b.value.as_ref().expect("a value").root()), "(a Multiply max(…2))");
/// ```
#[doc(inline)]
pub use pcl_expr::BoundExprKind;

/// The children of a template, tuple or call ([`BoundExprKind::Template`],
/// [`BoundExprKind::Tuple`], [`BoundCall::args`]) and their iterator.
#[doc(inline)]
pub use pcl_expr::{BoundIter, BoundList};

/// The key and value pairs of an object ([`BoundExprKind::Object`]).
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind};
///
/// let program = "tags = { Name = \"web\", \"team-a\" = [1, 2] }\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(tags) = &checked.value().nodes()[0].kind else { unreachable!() };
/// let BoundExprKind::Object(pairs) = tags.value.as_ref().expect("a value").kind() else { unreachable!() };
/// let keys: Vec<String> = pairs.iter().filter_map(|(k, _)| k.key_string()).collect();
/// assert_eq!(keys, ["Name", "team-a"]);
/// let (_, list) = pairs.get(1).expect("a second item");
/// let BoundExprKind::Tuple(items) = list.kind() else { unreachable!() };
/// assert_eq!(items.len(), 2);
/// ```
#[doc(inline)]
pub use pcl_expr::BoundPairs;

/// A `for` expression ([`BoundExprKind::For`]).
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind};
///
/// let program = "names = { for i, n in [\"a\", \"b\"] : n => i if i > 0 }\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(names) = &checked.value().nodes()[0].kind else { unreachable!() };
/// let BoundExprKind::For(f) = names.value.as_ref().expect("a value").kind() else { unreachable!() };
/// assert_eq!((f.key_var, f.value_var), (Some("i"), "n"));
/// assert!(f.key.is_some(), "the object form has a key");
/// assert!(f.condition.is_some() && !f.grouping);
/// ```
#[doc(inline)]
pub use pcl_expr::BoundFor;

/// A function call ([`BoundExprKind::Call`]): its name, what it resolved
/// to ([`Function`]), arguments and, for `invoke`, its tokens
/// ([`BoundCall::invoke`]).
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, Function, MemoryLoader, NodeKind};
///
/// let schema = r#"{
///   "name": "shop",
///   "version": "1.0.0",
///   "meta": { "moduleFormat": "(.*)(?:/[^/]*)" },
///   "functions": {
///     "shop:catalog/getItem:getItem": {
///       "inputs": { "properties": { "id": { "type": "string" } } },
///       "outputs": { "properties": { "price": { "type": "number" } } }
///     }
///   }
/// }"#;
/// let loader = MemoryLoader::new().with(schema).expect("a valid schema");
/// let program = r#"item = invoke("shop:catalog/getItem:getItem", { id = "a1" })"#;
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &loader, &BindPolicy::strict());
/// assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
/// let NodeKind::Local(local) = &checked.value().nodes()[0].kind else { unreachable!() };
/// let BoundExprKind::Call(call) = local.value.as_ref().expect("a value").kind() else { unreachable!() };
/// assert!(matches!(call.function, Some(Function::Invoke)));
/// let invoke = call.invoke().expect("an invoke");
/// assert_eq!(invoke.written_token(), "shop:catalog/getItem:getItem");
/// assert_eq!(invoke.schema_token(), Some("shop:catalog/getItem:getItem"));
/// assert_eq!(invoke.canonical_token(), "shop:catalog:getItem");
/// // The first argument keeps the token as written.
/// assert_eq!(call.args.first().and_then(|a| a.literal_string()), Some(invoke.written_token()));
/// ```
#[doc(inline)]
pub use pcl_expr::BoundCall;

/// The tokens of an `invoke` call ([`BoundCall::invoke`]): as written, in
/// the schema, canonical.
#[doc(inline)]
pub use pcl_expr::InvokeTokens;

/// A reference to a name in scope ([`BoundExprKind::ScopeTraversal`]):
/// the root name, its [`Definition`], its type before any step
/// ([`BoundScopeTraversal::root_type`]) and the steps after it.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind, TypeKind};
///
/// let program = r#"
/// config tags "map(string)" {
/// }
/// site = { name = "web" }
/// output a {
///   value = tags.Name
/// }
/// output b {
///   value = site.name
/// }
/// "#;
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
/// let root = |output: &str| {
///     let NodeKind::Output(out) = &checked.value().find(output).expect("an output").kind else {
///         unreachable!()
///     };
///     let value = out.value.as_ref().expect("a value");
///     let BoundExprKind::ScopeTraversal(traversal) = value.kind() else { unreachable!() };
///     match traversal.root_type().kind() {
///         TypeKind::Map(_) => "map: write [\"key\"]",
///         TypeKind::Object(_) => "object: write .key",
///         _ => "other",
///     }
/// };
/// assert_eq!(root("a"), "map: write [\"key\"]");
/// assert_eq!(root("b"), "object: write .key");
/// ```
#[doc(inline)]
pub use pcl_expr::BoundScopeTraversal;

/// One step of a traversal (`.name` or `[literal]`) with the type after
/// it.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, BoundStepKind, MemoryLoader, NodeKind, Value};
///
/// let program = "xs = [{ a = \"x\" }]\nfirst = xs[0].a\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(first) = &checked.value().find("first").expect("a node").kind else { unreachable!() };
/// let BoundExprKind::ScopeTraversal(t) = first.value.as_ref().expect("a value").kind() else { unreachable!() };
/// let steps: Vec<String> = t.steps.iter().map(|step| match &step.kind {
///     BoundStepKind::Attr(name) => format!(".{name}: {}", step.ty),
///     BoundStepKind::Index(Value::Number(n)) => format!("[{}]: {}", n.go_shortest(), step.ty),
///     BoundStepKind::Index(other) => format!("[{other:?}]"),
/// }).collect();
/// assert_eq!(steps, ["[0]: object({a = string})", ".a: string"]);
/// ```
#[doc(inline)]
pub use pcl_expr::BoundStep;

/// What a [`BoundStep`] does: `.name` or `[literal]`.
#[doc(inline)]
pub use pcl_expr::BoundStepKind;

/// A node's index in its [`BoundTree`] ([`BoundRef::id`]).
#[doc(inline)]
pub use pcl_expr::BoundId;

/// What a name in an expression resolved to: a program node
/// ([`Definition::Node`], by [`NodeId`]), a variable (a `for` variable,
/// `range`), `null`, a keyword or a property named in `ignoreChanges`.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, Definition, MemoryLoader, NodeKind};
///
/// let program = "a = 1\nb = [for x in [a] : x]\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(b) = &checked.value().find("b").expect("b").kind else { unreachable!() };
/// let mut seen = Vec::new();
/// b.value.as_ref().expect("a value").root().walk(&mut |e| {
///     if let BoundExprKind::ScopeTraversal(t) = e.kind() {
///         match &t.definition {
///             Some(Definition::Node(id)) => seen.push(format!("node {}", checked.value().node(*id).expect("a node").name)),
///             Some(Definition::Variable(v)) => seen.push(format!("variable {}", v.name)),
///             _ => {}
///         }
///     }
/// });
/// assert_eq!(seen, ["node a", "variable x"]);
/// ```
#[doc(inline)]
pub use pcl_expr::Definition;

/// A program node's index ([`Program::node`]); also [`Node::id`].
#[doc(inline)]
pub use pcl_expr::NodeId;

/// The payloads of [`Definition::Variable`] and
/// [`Definition::ResourceProperty`].
#[doc(inline)]
pub use pcl_expr::{ResourceProperty, Variable};

/// What a called name resolved to ([`BoundCall::function`]): a builtin
/// ([`Builtin`]), `invoke`, `call` or a function with a fixed signature.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, Builtin, Function, MemoryLoader, NodeKind};
///
/// let program = "doc = toJSON({ a = 1 })\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let NodeKind::Local(doc) = &checked.value().nodes()[0].kind else { unreachable!() };
/// let BoundExprKind::Call(call) = doc.value.as_ref().expect("a value").kind() else { unreachable!() };
/// assert_eq!(call.name, "toJSON");
/// assert!(matches!(call.function, Some(Function::Builtin(Builtin::ToJson))));
/// assert!(call.invoke().is_none());
/// ```
#[doc(inline)]
pub use pcl_expr::Function;

/// A builtin function (`toJSON`, `fileAsset`, `secret`, …), by name.
#[doc(inline)]
pub use pcl_expr::Builtin;

/// The signature a call's arguments were checked against
/// ([`BoundCall::signature`]) and its parameters.
#[doc(inline)]
pub use pcl_expr::{Param, Signature};

/// The operators of [`BoundExprKind::Binary`] and
/// [`BoundExprKind::Unary`].
#[doc(inline)]
pub use pcl_syntax::tree::{BinaryOp, UnaryOp};

// ---- types and values -------------------------------------------------------

/// A PCL type ([`BoundRef::ty`], [`Node::ty`]); match on
/// [`Type::kind`].
#[doc(inline)]
pub use pcl_types::{Type, TypeKind};

/// How a value converts to a type.
#[doc(inline)]
pub use pcl_types::ConversionKind;

/// A literal's value ([`BoundExprKind::Literal`]).
#[doc(inline)]
pub use pcl_types::Value;

/// A string quoted as Go's `strconv.Quote` (`%q`) writes it, for
/// generators that reproduce Go's output.
///
/// ```
/// assert_eq!(pcl::go_quote("a\"b\n\u{1}"), r#""a\"b\n\x01""#);
/// ```
#[doc(inline)]
pub use pcl_types::value::go_quote;

/// A number of a literal ([`Value::Number`]), exact, with Go's
/// spellings.
///
/// ```
/// use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind, Number, Value};
///
/// let program = "n = 2.50\ns = \"hi\"\n";
/// let sources = vec![("main.pp".to_string(), program.to_string())];
/// let checked = check_program(&sources, &MemoryLoader::new(), &BindPolicy::strict());
/// let literal = |name: &str| {
///     let NodeKind::Local(l) = &checked.value().find(name).expect("a local").kind else { unreachable!() };
///     match l.value.as_ref().expect("a value").kind() {
///         BoundExprKind::Literal(v) => v.clone(),
///         _ => Value::Null,
///     }
/// };
/// let Value::Number(n) = literal("n") else { unreachable!() };
/// assert_eq!(n, Number::parse("2.5").expect("a number"));
/// assert_eq!(n.go_shortest(), "2.5");
/// ```
#[doc(inline)]
pub use pcl_types::Number;

/// A shared name (a traversal's root, [`BoundScopeTraversal::root`]).
#[doc(inline)]
pub use pcl_types::Name;

// ---- sources and diagnostics ------------------------------------------------

#[doc(inline)]
pub use pcl_diagnostics::{
    render, render_all, render_short, Code, Diagnostic, FileId, Label, Position, RenderOptions,
    Severity, SourceFile, SourceMap, Span, TextRange,
};

// ---- schemas ----------------------------------------------------------------

#[doc(inline)]
pub use pcl_schema::{
    CachingLoader, ChainLoader, DirLoader, LoadError, MemoryLoader, Package, PackageDescriptor,
    SchemaLoader,
};

#[doc(inline)]
pub use pcl_syntax::parse;

/// The repository README, compiled so that its Rust examples stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The library guide, `docs/library.md`, compiled so that its Rust example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryGuideDoctests;
