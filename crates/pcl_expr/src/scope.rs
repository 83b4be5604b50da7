//! Scopes and name resolution (binder.md §2).
//!
//! A [`Scope`] is one level of a parent chain with three namespaces:
//! *defs* (config, locals, resources, injected variables, `null`, …),
//! *outputs* (output blocks) and *functions*. Each level is stored behind an
//! `Arc` and copied on write, so [`Scope::child`] is O(1) and a child keeps a
//! snapshot of its parent: definitions added to the parent after the child
//! was created are not visible through the child.

use std::sync::Arc;

use indexmap::IndexMap;
use pcl_diagnostics::Span;
use pcl_types::Type;

use crate::builtins::Builtin;
use crate::signature::Signature;

/// A top-level program node, numbered by the program binder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// What a name in the defs or outputs namespace refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum Definition {
    /// A top-level program node; its type comes from
    /// [`crate::Environment::node_type`].
    Node(NodeId),
    /// A typed variable: a for-expression variable, `range`, `error` in
    /// `recover`, `args` in hook commands, an injected variable.
    Variable {
        name: String,
        ty: Type,
        range: Option<Span>,
    },
    /// The constant `null` of the root scope (type `none`, unlike the
    /// literal `null`, whose type is `const(none, null)`).
    Null,
    /// A keyword that may be named but not traversed.
    Keyword(String),
    /// A resource input property named inside `ignoreChanges` & co.: the
    /// expression's type is always `Property`; steps are checked against
    /// `ty` (binder.md §1.11, last bullet).
    ResourceProperty { name: String, ty: Type },
}

impl Definition {
    /// A variable without a declaration site.
    pub fn variable(name: impl Into<String>, ty: Type) -> Definition {
        Definition::Variable {
            name: name.into(),
            ty,
            range: None,
        }
    }
}

/// What a name in the functions namespace refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum Function {
    /// A builtin of binder.md §4.1 with its special typing.
    Builtin(Builtin),
    /// `invoke(token, args?, options?)` (binder.md §6.3).
    Invoke,
    /// `call(self, method, args)` (binder.md §6.4).
    Call,
    /// A function with a fixed signature (test environments, hosts).
    Static(Arc<Signature>),
}

/// A name map of one level: ordered by insertion (which suggestions and
/// listings see), hashed with foldhash.
type Names<V> = IndexMap<String, V, foldhash::fast::RandomState>;

#[derive(Clone, Debug, Default)]
struct Frame {
    defs: Names<Definition>,
    outputs: Names<Definition>,
    functions: Names<Function>,
}

/// One level of the scope chain. Cheap to clone and to extend.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    frame: Arc<Frame>,
    parent: Option<Arc<Scope>>,
}

impl Scope {
    /// An empty scope with no parent: no `null`, no builtins.
    pub fn empty() -> Scope {
        Scope::default()
    }

    /// The root program scope: the constant `null`, every builtin of
    /// binder.md §4.1, `invoke` and `call`.
    pub fn root() -> Scope {
        // Built once; every program starts from a copy (its first
        // definition copies the level, an `Arc` clone until then).
        static ROOT: std::sync::OnceLock<Scope> = std::sync::OnceLock::new();
        ROOT.get_or_init(Scope::build_root).clone()
    }

    fn build_root() -> Scope {
        let mut scope = Scope::empty();
        let frame = Arc::make_mut(&mut scope.frame);
        frame.defs.insert("null".into(), Definition::Null);
        for b in Builtin::ALL {
            frame
                .functions
                .insert(b.name().into(), Function::Builtin(*b));
        }
        frame.functions.insert("invoke".into(), Function::Invoke);
        frame.functions.insert("call".into(), Function::Call);
        scope
    }

    /// A new, empty scope whose parent is (a snapshot of) `self`.
    pub fn child(&self) -> Scope {
        Scope {
            frame: Arc::new(Frame::default()),
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// The parent scope, if any.
    pub fn parent(&self) -> Option<&Scope> {
        self.parent.as_deref()
    }

    /// Defines `name` in this level: in the outputs namespace when
    /// `is_output`, else in defs. Fails with the existing definition when
    /// the same namespace of this level already has the name (inner levels
    /// may shadow outer ones).
    pub fn define(
        &mut self,
        name: impl Into<String>,
        def: Definition,
        is_output: bool,
    ) -> Result<(), Definition> {
        let name = name.into();
        let frame = Arc::make_mut(&mut self.frame);
        let map = if is_output {
            &mut frame.outputs
        } else {
            &mut frame.defs
        };
        if let Some(existing) = map.get(&name) {
            return Err(existing.clone());
        }
        map.insert(name, def);
        Ok(())
    }

    /// Defines a function in this level; fails with the existing one.
    pub fn define_function(
        &mut self,
        name: impl Into<String>,
        function: Function,
    ) -> Result<(), Function> {
        let name = name.into();
        let frame = Arc::make_mut(&mut self.frame);
        if let Some(existing) = frame.functions.get(&name) {
            return Err(existing.clone());
        }
        frame.functions.insert(name, function);
        Ok(())
    }

    /// `BindReference`: at each level defs, then outputs, then the parent.
    pub fn lookup(&self, name: &str) -> Option<&Definition> {
        let mut cur = Some(self);
        while let Some(scope) = cur {
            if let Some(d) = scope
                .frame
                .defs
                .get(name)
                .or_else(|| scope.frame.outputs.get(name))
            {
                return Some(d);
            }
            cur = scope.parent.as_deref();
        }
        None
    }

    /// `BindFunctionReference`: the functions namespace, walking parents.
    pub fn lookup_function(&self, name: &str) -> Option<&Function> {
        let mut cur = Some(self);
        while let Some(scope) = cur {
            if let Some(f) = scope.frame.functions.get(name) {
                return Some(f);
            }
            cur = scope.parent.as_deref();
        }
        None
    }

    /// Every name visible from here (defs and outputs, innermost first,
    /// each once), for "did you mean" suggestions.
    pub fn visible_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let mut cur = Some(self);
        while let Some(scope) = cur {
            for name in scope.frame.defs.keys().chain(scope.frame.outputs.keys()) {
                if !out.contains(&name.as_str()) {
                    out.push(name);
                }
            }
            cur = scope.parent.as_deref();
        }
        out
    }

    /// Every function name visible from here.
    pub fn visible_functions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let mut cur = Some(self);
        while let Some(scope) = cur {
            for name in scope.frame.functions.keys() {
                if !out.contains(&name.as_str()) {
                    out.push(name);
                }
            }
            cur = scope.parent.as_deref();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn define_lookup_and_shadow() {
        let mut root = Scope::root();
        assert_eq!(root.lookup("null"), Some(&Definition::Null));
        assert!(root.lookup_function("join").is_some());
        assert!(root.lookup_function("invoke").is_some());
        assert!(root.lookup_function("mimeType").is_none());
        assert!(root.define("x", Definition::Node(NodeId(0)), false).is_ok());
        assert_eq!(
            root.define("x", Definition::Node(NodeId(1)), false),
            Err(Definition::Node(NodeId(0)))
        );
        // Outputs have their own namespace.
        assert!(root.define("x", Definition::Node(NodeId(2)), true).is_ok());
        let mut child = root.child();
        assert_eq!(child.lookup("x"), Some(&Definition::Node(NodeId(0))));
        assert!(child
            .define("x", Definition::variable("x", Type::int()), false)
            .is_ok());
        assert_eq!(
            child.lookup("x"),
            Some(&Definition::variable("x", Type::int()))
        );
        assert_eq!(root.lookup("x"), Some(&Definition::Node(NodeId(0))));
    }

    #[test]
    fn defs_win_over_outputs_at_one_level() {
        let mut s = Scope::empty();
        s.define("o", Definition::Node(NodeId(7)), true).ok();
        assert_eq!(s.lookup("o"), Some(&Definition::Node(NodeId(7))));
        s.define("o", Definition::Node(NodeId(8)), false).ok();
        assert_eq!(s.lookup("o"), Some(&Definition::Node(NodeId(8))));
    }

    #[test]
    fn child_is_a_snapshot() {
        let mut root = Scope::empty();
        let child = root.child();
        root.define("late", Definition::Null, false).ok();
        assert!(child.lookup("late").is_none());
        assert!(root.lookup("late").is_some());
    }
}
