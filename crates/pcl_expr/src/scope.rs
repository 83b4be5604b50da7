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
use pcl_types::{Name, Type};
use smol_str::SmolStr;

use crate::builtins::Builtin;
use crate::signature::Signature;
use crate::suggest::NameIndex;

/// A top-level program node, numbered by the program binder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// What a name in the defs or outputs namespace refers to. 24 bytes: every
/// bound name reference holds one, so the rare large payloads are shared.
#[derive(Clone, Debug, PartialEq)]
pub enum Definition {
    /// A top-level program node; its type comes from
    /// [`crate::Environment::node_type`].
    Node(NodeId),
    /// A typed variable: a for-expression variable, `range`, `error` in
    /// `recover`, `args` in hook commands, an injected variable.
    Variable(Arc<Variable>),
    /// The constant `null` of the root scope (type `none`, unlike the
    /// literal `null`, whose type is `const(none, null)`).
    Null,
    /// A keyword that may be named but not traversed.
    Keyword(Name),
    /// A resource input property named inside `ignoreChanges` & co.: the
    /// expression's type is always `Property`; steps are checked against
    /// `ty` (binder.md §1.11, last bullet).
    ResourceProperty(Arc<ResourceProperty>),
}

/// The payload of [`Definition::Variable`].
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub name: String,
    pub ty: Type,
    /// Where it is declared, when it is declared in a file.
    pub range: Option<Span>,
}

/// The payload of [`Definition::ResourceProperty`].
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceProperty {
    pub name: String,
    pub ty: Type,
}

impl Definition {
    /// A variable without a declaration site.
    pub fn variable(name: impl Into<String>, ty: Type) -> Definition {
        Definition::declared_variable(name, ty, None)
    }

    /// A variable, with its declaration site if it has one.
    pub fn declared_variable(name: impl Into<String>, ty: Type, range: Option<Span>) -> Definition {
        Definition::Variable(Arc::new(Variable {
            name: name.into(),
            ty,
            range,
        }))
    }

    /// A resource input property (see [`Definition::ResourceProperty`]).
    pub fn resource_property(name: impl Into<String>, ty: Type) -> Definition {
        Definition::ResourceProperty(Arc::new(ResourceProperty {
            name: name.into(),
            ty,
        }))
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
/// listings see), hashed with foldhash. Names up to 23 bytes are stored in
/// the entry, so a program of many definitions does not allocate one
/// string each.
type Names<V> = IndexMap<SmolStr, V, foldhash::fast::RandomState>;

#[derive(Clone, Debug, Default)]
struct Frame {
    defs: Names<Definition>,
    outputs: Names<Definition>,
    functions: Names<Function>,
    /// Names of this same level that come before the ones above and are
    /// shared, not copied: the root level's `null` and builtins, which
    /// every program's level starts with. A level with a base behaves
    /// exactly as if the base's names had been defined in it first; it
    /// only saves copying them on the program's first definition.
    base: Option<Arc<Frame>>,
    /// The did-you-mean index of this level's defs and outputs, built on
    /// the first suggestion asked of it and dropped when a name is added.
    index: IndexCell,
}

/// A lazily built [`NameIndex`]; a copied level starts without one.
#[derive(Default)]
struct IndexCell(std::sync::OnceLock<NameIndex>);

impl Clone for IndexCell {
    fn clone(&self) -> Self {
        IndexCell::default()
    }
}

impl std::fmt::Debug for IndexCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IndexCell")
    }
}

impl Frame {
    fn def(&self, name: &str) -> Option<&Definition> {
        self.defs
            .get(name)
            .or_else(|| self.base.as_ref().and_then(|b| b.defs.get(name)))
    }

    fn output(&self, name: &str) -> Option<&Definition> {
        self.outputs
            .get(name)
            .or_else(|| self.base.as_ref().and_then(|b| b.outputs.get(name)))
    }

    fn function(&self, name: &str) -> Option<&Function> {
        self.functions
            .get(name)
            .or_else(|| self.base.as_ref().and_then(|b| b.functions.get(name)))
    }

    /// The defs and outputs names of this level in insertion order (base
    /// first, as if defined first).
    fn value_names(&self) -> impl Iterator<Item = &SmolStr> {
        let base = self.base.as_deref();
        let defs = base.into_iter().flat_map(|b| b.defs.keys());
        let outputs = base.into_iter().flat_map(|b| b.outputs.keys());
        defs.chain(self.defs.keys())
            .chain(outputs)
            .chain(self.outputs.keys())
    }

    /// The function names of this level in insertion order (base first).
    fn function_names(&self) -> impl Iterator<Item = &SmolStr> {
        let base = self.base.as_deref();
        base.into_iter()
            .flat_map(|b| b.functions.keys())
            .chain(self.functions.keys())
    }
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
        // The names are built once and shared as the level's base, so a
        // program's definitions do not copy them.
        static ROOT: std::sync::OnceLock<Arc<Frame>> = std::sync::OnceLock::new();
        let base = ROOT.get_or_init(|| Arc::new(Scope::build_root()));
        Scope {
            frame: Arc::new(Frame {
                base: Some(Arc::clone(base)),
                ..Frame::default()
            }),
            parent: None,
        }
    }

    fn build_root() -> Frame {
        let mut frame = Frame::default();
        frame.defs.insert("null".into(), Definition::Null);
        for b in Builtin::ALL {
            frame
                .functions
                .insert(b.name().into(), Function::Builtin(*b));
        }
        frame.functions.insert("invoke".into(), Function::Invoke);
        frame.functions.insert("call".into(), Function::Call);
        frame
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
        name: impl Into<SmolStr>,
        def: Definition,
        is_output: bool,
    ) -> Result<(), Definition> {
        let name = name.into();
        let existing = if is_output {
            self.frame.output(&name)
        } else {
            self.frame.def(&name)
        };
        if let Some(existing) = existing {
            return Err(existing.clone());
        }
        let frame = Arc::make_mut(&mut self.frame);
        let map = if is_output {
            &mut frame.outputs
        } else {
            &mut frame.defs
        };
        map.insert(name, def);
        frame.index = IndexCell::default();
        Ok(())
    }

    /// Makes room for `additional` more defs in this level (the program
    /// binder knows how many top-level items it will define), so the
    /// level's map is not rebuilt as it grows.
    pub fn reserve(&mut self, additional: usize) {
        Arc::make_mut(&mut self.frame).defs.reserve(additional);
    }

    /// Defines a function in this level; fails with the existing one.
    pub fn define_function(
        &mut self,
        name: impl Into<SmolStr>,
        function: Function,
    ) -> Result<(), Function> {
        let name = name.into();
        if let Some(existing) = self.frame.function(&name) {
            return Err(existing.clone());
        }
        let frame = Arc::make_mut(&mut self.frame);
        frame.functions.insert(name, function);
        Ok(())
    }

    /// `BindReference`: at each level defs, then outputs, then the parent.
    pub fn lookup(&self, name: &str) -> Option<&Definition> {
        let mut cur = Some(self);
        while let Some(scope) = cur {
            if let Some(d) = scope.frame.def(name).or_else(|| scope.frame.output(name)) {
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
            if let Some(f) = scope.frame.function(name) {
                return Some(f);
            }
            cur = scope.parent.as_deref();
        }
        None
    }

    /// Every name visible from here (defs and outputs, innermost first,
    /// each once).
    pub fn visible_names(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&str> = Vec::new();
        let mut cur = Some(self);
        while let Some(scope) = cur {
            for name in scope.frame.value_names() {
                if seen.insert(name.as_str()) {
                    out.push(name);
                }
            }
            cur = scope.parent.as_deref();
        }
        out
    }

    /// The visible names (defs and outputs) `name` was probably meant to
    /// be, as [`crate::suggest::candidates`] over [`Scope::visible_names`]
    /// picks them, through one index per level built once: each call
    /// compares at most [`crate::suggest::MAX_COMPARED`] names per level,
    /// so 10,000 undefined names among 10,000 locals stay linear.
    pub fn suggest_names(&self, name: &str) -> Vec<&str> {
        let mut levels: Vec<&NameIndex> = Vec::new();
        let mut cur = Some(self);
        while let Some(scope) = cur {
            let frame = &*scope.frame;
            levels.push(
                frame
                    .index
                    .0
                    .get_or_init(|| NameIndex::new(frame.value_names().map(SmolStr::as_str))),
            );
            cur = scope.parent.as_deref();
        }
        crate::suggest::candidates_indexed(name, &levels)
    }

    /// Every function name visible from here.
    pub fn visible_functions(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&str> = Vec::new();
        let mut cur = Some(self);
        while let Some(scope) = cur {
            for name in scope.frame.function_names() {
                if seen.insert(name.as_str()) {
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
    fn reserving_keeps_definitions_and_snapshots() {
        let mut scope = Scope::root();
        assert!(scope
            .define("a", Definition::Node(NodeId(0)), false)
            .is_ok());
        let before = scope.clone();
        scope.reserve(1000);
        assert!(scope
            .define("b", Definition::Node(NodeId(1)), false)
            .is_ok());
        assert_eq!(scope.lookup("a"), Some(&Definition::Node(NodeId(0))));
        assert_eq!(scope.lookup("b"), Some(&Definition::Node(NodeId(1))));
        assert_eq!(scope.lookup("null"), Some(&Definition::Null));
        // The copy taken before is a snapshot: reserving copied the level.
        assert_eq!(before.lookup("b"), None);
        assert_eq!(before.lookup("a"), Some(&Definition::Node(NodeId(0))));
    }

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

    /// The root level's shared names behave as names of that level: they
    /// clash with definitions there, come first in listings, and one
    /// program's definitions are not seen by another's root.
    #[test]
    fn root_names_belong_to_the_program_level() {
        let mut a = Scope::root();
        assert_eq!(
            a.define("null", Definition::Node(NodeId(0)), false),
            Err(Definition::Null)
        );
        assert!(a.define("null", Definition::Node(NodeId(1)), true).is_ok());
        assert_eq!(
            a.define_function("join", Function::Invoke),
            Err(Function::Builtin(Builtin::Join))
        );
        assert!(a.define_function("mine", Function::Call).is_ok());
        assert!(a.define("x", Definition::Node(NodeId(2)), false).is_ok());
        assert_eq!(a.visible_names(), vec!["null", "x"]);
        let functions = a.visible_functions();
        assert_eq!(
            functions.first().copied(),
            Builtin::ALL.first().map(|b| b.name())
        );
        assert_eq!(functions.last(), Some(&"mine"));
        assert_eq!(functions.iter().filter(|f| **f == "join").count(), 1);
        let b = Scope::root();
        assert!(b.lookup("x").is_none());
        assert!(b.lookup_function("mine").is_none());
        assert_eq!(b.visible_names(), vec!["null"]);
        assert!(a.child().lookup_function("join").is_some());
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
