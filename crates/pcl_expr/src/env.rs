//! What expression binding needs from its host: node types, schema
//! functions for `invoke`, resource methods for `call`, and the options.

use std::sync::Arc;

use pcl_diagnostics::Span;
use pcl_types::Type;

use crate::scope::NodeId;

/// How a reference to a program node behaves (binder.md §1.11, "Traversal
/// of definitions").
#[derive(Clone, Debug, PartialEq)]
pub enum NodeMode {
    /// Traverse the node's type; diagnostics are reported.
    Typed,
    /// A resource under SkipResourceTypechecking: a step that produces
    /// errors gives `dynamic` with no diagnostics.
    Lenient,
    /// Every traversal gives `dynamic` without diagnostics (hooks).
    Dynamic,
    /// Traversing is an error with this message (`pulumi blocks cannot be
    /// traversed`); the result is `dynamic`.
    NotTraversable(String),
}

/// A node's current type and how references to it traverse.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeReference {
    pub ty: Type,
    pub mode: NodeMode,
}

/// A schema function as `invoke` sees it (binder.md §6.3).
#[derive(Clone, Debug, PartialEq)]
pub struct InvokeFunction {
    /// The canonical key of the function (`aws:ec2:getAmi`; Pulumi's
    /// binder rewrites the call's token to it, pcl keeps the token as
    /// written in the argument and records this beside it).
    pub token: String,
    /// The function's token as the schema declares it
    /// (`aws:ec2/getAmi:getAmi`).
    pub schema_token: String,
    /// The plain inputs object type, `None` when the function has no inputs.
    pub inputs: Option<Type>,
    /// The input-shape object (outputs allowed), `None` when no inputs.
    pub input_shape: Option<Type>,
    /// The converted return type, `None` when the function has none.
    pub return_type: Option<Type>,
    /// For functions declared with multi-argument inputs: the inputs in
    /// declaration order with whether each is required.
    pub multi_argument_inputs: Option<Vec<(String, Type, bool)>>,
    /// When the call pinned a package version the schema sources lack
    /// (they hold others): why, the function being the default version's
    /// (reported as `pinned-version-missing` at the pin).
    pub pinned_version_missing: Option<String>,
}

/// The answer of [`Environment::invoke_signature`].
#[derive(Clone, Debug, PartialEq)]
pub enum InvokeLookup {
    Found(InvokeFunction),
    /// The package could not be loaded (a warning, silent with
    /// SkipInvokeTypechecking); `detail` is the loader's error.
    UnknownPackage {
        package: String,
        detail: String,
    },
    /// The package loaded but looking the function up failed.
    LoadError {
        message: String,
    },
    /// No such function; `candidates` are tokens for "did you mean".
    NotFound {
        candidates: Vec<String>,
    },
}

/// A resource method as `call` sees it (binder.md §6.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// The method's function token (for messages).
    pub token: String,
    /// Every input, `__self__` included, in declaration order.
    pub inputs: Vec<(String, Type)>,
    /// The converted return type (`None` = `dynamic`).
    pub return_type: Option<Type>,
    /// The method returns a plain value (not wrapped in `output`).
    pub plain_return: bool,
}

/// The answer of [`Environment::method_signature`].
#[derive(Clone, Debug, PartialEq)]
pub enum MethodLookup {
    Found(Method),
    /// The receiver's resource has no schema.
    UntypedReceiver,
    /// The resource type has no such method.
    NotFound {
        resource_token: String,
        candidates: Vec<String>,
    },
}

/// The annotation the program binder attaches to a resource's object type
/// (and that `call`, `pulumiResourceType` and `pulumiResourceName` look
/// for): `Type::object_with(…, ObjectOptions { annotations:
/// Annotations::new(vec![Arc::new(ResourceAnnotation { … })]), … })`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceAnnotation {
    /// The resource type token.
    pub token: Arc<str>,
}

/// Everything expression binding asks its host.
pub trait Environment {
    /// The current (possibly provisional) type of a program node.
    fn node_type(&self, id: NodeId) -> Type;

    /// How references to a node traverse; by default, typed.
    fn node_reference(&self, id: NodeId) -> NodeReference {
        NodeReference {
            ty: self.node_type(id),
            mode: NodeMode::Typed,
        }
    }

    /// The schema function behind an `invoke` token (already checked to be
    /// well formed), in the package version the call's options pin
    /// (`{ version = "1.2.3" }`, as written; `None` when unpinned). `range`
    /// is the token argument's span.
    fn invoke_signature(&self, token: &str, version: Option<&str>, range: Span) -> InvokeLookup;

    /// The method `method` of the resource whose object type is `receiver`.
    fn method_signature(&self, receiver: &Type, method: &str) -> MethodLookup;

    /// `InputType(t)` (types.md §5.3). A host that binds many expressions
    /// against the same parameter types may remember the answers (see
    /// [`pcl_types::InputTypeMemo`]); the answer must be
    /// [`pcl_types::input_type`]'s.
    fn input_type(&self, t: &Type) -> Type {
        pcl_types::input_type(t)
    }

    /// Asked about a root name no scope defines, at `span`, before it is
    /// reported undefined: `true` when the host knows it is declared outside
    /// what is being checked (a sibling file of a file checked alone) and
    /// reports that itself; the name is then `dynamic`, without an
    /// `undefined-variable` diagnostic.
    fn declared_elsewhere(&self, _name: &str, _span: Span) -> bool {
        false
    }
}

/// An environment with no nodes, no schemas and no methods, for binding
/// standalone expressions.
#[derive(Clone, Copy, Debug, Default)]
pub struct EmptyEnvironment;

impl Environment for EmptyEnvironment {
    fn node_type(&self, _id: NodeId) -> Type {
        Type::dynamic()
    }

    fn invoke_signature(&self, token: &str, _version: Option<&str>, _range: Span) -> InvokeLookup {
        let package = token.split(':').next().unwrap_or(token).to_string();
        InvokeLookup::UnknownPackage {
            package,
            detail: "no schemas are available".into(),
        }
    }

    fn method_signature(&self, _receiver: &Type, _method: &str) -> MethodLookup {
        MethodLookup::UntypedReceiver
    }
}

/// Options of expression binding (the expression-level part of binder.md §7).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExprOptions {
    /// Package-load failures, function lookup errors and unknown functions
    /// in `invoke` give a silent zero signature.
    pub skip_invoke_typecheck: bool,
    /// `cannot iterate over …` is a warning; `element` accepts anything.
    pub skip_range_typecheck: bool,
    /// Undefined root names are warnings; step diagnostics starting with
    /// `undefined variable` are dropped.
    pub allow_missing_variables: bool,
    /// `invoke` always picks the output form when the function has a
    /// return type.
    pub prefer_output_versioned_invokes: bool,
}

impl ExprOptions {
    /// Every leniency on (the expression part of `NonStrictBindOptions`).
    pub fn non_strict() -> ExprOptions {
        ExprOptions {
            skip_invoke_typecheck: true,
            skip_range_typecheck: true,
            allow_missing_variables: true,
            prefer_output_versioned_invokes: false,
        }
    }
}
