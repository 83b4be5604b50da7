//! Object types: interned definitions with identity, optional late-filled
//! or lazily computed properties (for schema types), host annotations and
//! the strict flag.
//!
//! An object type is a handle to an [`ObjectDef`]. The definition's property
//! map is set exactly once, possibly after the handle has been embedded in
//! other types; that is how a schema type whose properties mention the type
//! itself is built (see the crate documentation for why this is sound). It
//! is taken out again only when nothing outside the object's group reaches
//! the group any more ([`crate::group`]), which is how such cycles are
//! freed; readers get it as a shared [`Props`].
//!
//! A *lazy* object ([`crate::Type::lazy_object`]) carries a [`Definer`]
//! that computes its properties on the first call of
//! [`ObjectDef::properties`] (or anything that reads them: equality,
//! printing, conversion, traversal), so a big schema is converted only as
//! far as a program looks into it. Forcing never blocks and never
//! re-enters: an object whose definer is running on the current thread
//! reads as not yet defined (empty properties, like a deferred object
//! before [`crate::Type::define_object`]), and two threads forcing one
//! object at once both run the definer (it must be a pure function of its
//! captures) and the first result is kept. At most
//! [`MAX_NESTED_DEFINITIONS`] definers run nested on one thread; beyond
//! that an object also reads as undefined. A definer may answer `None`
//! ("not yet": it depends on an object whose definer is running); the
//! object then stays lazy and reads as undefined for that call.
//!
//! A host definer is dropped as a whole once the object is defined (or
//! with it), so it should not own a deeply nested type graph of its own;
//! the views below hold their source where [`crate::Type`]'s iterative
//! drop can reach it.
//!
//! Derived objects that rebuild a lazy object's properties
//! (`ResolveOutputs`, `ResolvePromises`) are lazy *views* of it, remembered
//! on the source (weakly, so a view is freed with its last user), so that
//! deriving from a recursive lazy object closes the same cycles an eager
//! rebuild does.

use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use indexmap::IndexMap;

use crate::group::{self, Group};
use crate::node::Node;
use crate::ty::Type;

/// One opaque host value attached to an object or union type (the binder
/// stores the schema type it came from).
pub type Annotation = Arc<dyn Any + Send + Sync>;

/// An ordered list of annotations. Ignored by equality, conversion and
/// unification.
#[derive(Clone, Default)]
pub struct Annotations(Option<Arc<[Annotation]>>);

impl Annotations {
    pub fn none() -> Annotations {
        Annotations(None)
    }

    pub fn new(items: Vec<Annotation>) -> Annotations {
        if items.is_empty() {
            Annotations(None)
        } else {
            Annotations(Some(items.into()))
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Annotation> {
        self.0.iter().flat_map(|a| a.iter())
    }

    /// A copy with `extra` appended.
    pub fn concat(&self, extra: &Annotations) -> Annotations {
        let items: Vec<Annotation> = self.iter().chain(extra.iter()).cloned().collect();
        Annotations::new(items)
    }

    /// The first annotation of concrete type `T` (`GetObjectTypeAnnotation`).
    pub fn first<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.iter().find_map(|a| a.downcast_ref::<T>())
    }

    /// The first annotation accepted by `pred` (used for "implements an
    /// interface" style queries).
    pub fn find(
        &self,
        mut pred: impl FnMut(&(dyn Any + Send + Sync)) -> bool,
    ) -> Option<&Annotation> {
        self.iter().find(|a| pred(a.as_ref()))
    }
}

impl fmt::Debug for Annotations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Annotations({})", self.iter().count())
    }
}

/// Property map of an object type, sorted by name. Hashed with foldhash
/// (iteration order is the map's order, never the hasher's).
pub type Properties = IndexMap<Arc<str>, Type, foldhash::fast::RandomState>;

/// Computes a lazy object's properties; `None` means "not yet" (see the
/// module documentation). Called at most once per thread and object while
/// the object is undefined; it must not assume it is called only once.
pub type Definer = Arc<dyn Fn() -> Option<Properties> + Send + Sync>;

/// The lazy objects derived from another lazy object (see
/// [`ObjectDef::view`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    ResolveOutputs,
    ResolvePromises,
}

/// How a lazy object's properties are computed.
#[derive(Clone)]
pub(crate) enum Pending {
    /// By a host's definer.
    Definer(Definer),
    /// As `f` of each property of the source object, once it is defined
    /// (a view). The source is held here, not inside a closure, so that
    /// [`crate::Type`]'s iterative drop can take it apart.
    View(Type, fn(&Type) -> Type),
}

/// The properties of a view of `src` (see [`Pending::View`]).
fn view_properties(src: &Type, f: fn(&Type) -> Type) -> Option<Properties> {
    let o = src.as_object()?;
    if !o.is_defined() {
        return None;
    }
    Some(
        o.properties()
            .iter()
            .map(|(k, v)| (k.clone(), f(v)))
            .collect(),
    )
}

/// What a lazy object needs besides its properties.
struct LazyState {
    /// Present until the properties are set.
    pending: Mutex<Option<Pending>>,
    /// Views derived from this object, held weakly.
    views: Mutex<Vec<(View, Weak<Node>)>>,
    /// Which view of another object this object is, if it is one.
    view_of: Option<View>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// How many definers may run nested on one thread (a definer may read
/// other lazy objects, for example to order a union by printed form);
/// beyond it, a lazy object reads as not yet defined, which bounds the
/// stack a chain of such definers takes.
pub const MAX_NESTED_DEFINITIONS: usize = 32;

thread_local! {
    /// The lazy objects whose definers run on this thread (by address).
    static DEFINING: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    /// How many times [`ObjectDef::properties`] answered for an object
    /// whose properties were not set (yet) on this thread: an answer
    /// computed from such a read may change, so the conversions kept
    /// across questions are dropped when it moves (see
    /// [`crate::conversion::remember_conversions`]).
    static UNSETTLED_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The count of reads of unset properties on this thread.
pub(crate) fn unsettled_reads() -> u64 {
    UNSETTLED_READS.try_with(std::cell::Cell::get).unwrap_or(0)
}

/// Marks an object as being defined on this thread until dropped (also
/// when the definer panics).
struct Defining(usize);

impl Defining {
    fn enter(addr: usize) -> Defining {
        DEFINING.with(|d| d.borrow_mut().push(addr));
        Defining(addr)
    }
}

impl Drop for Defining {
    fn drop(&mut self) {
        DEFINING.with(|d| {
            let mut d = d.borrow_mut();
            if let Some(at) = d.iter().rposition(|a| *a == self.0) {
                d.remove(at);
            }
        });
    }
}

/// An object's properties, shared: what [`ObjectDef::properties`] hands
/// out. It does not keep the object alive (hold the [`Type`] for that): once
/// nothing holds any part of a recursive type, its objects' properties are
/// taken out, whoever still holds a `Props`.
#[derive(Clone)]
pub struct Props(Arc<Properties>);

impl Deref for Props {
    type Target = Properties;
    fn deref(&self) -> &Properties {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Props {
    type Item = (&'a Arc<str>, &'a Type);
    type IntoIter = indexmap::map::Iter<'a, Arc<str>, Type>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Debug for Props {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter()).finish()
    }
}

/// The definition behind an object type.
pub struct ObjectDef {
    /// Set once (a deferred or lazy object's later); taken out again only
    /// when the object's group is freed (see [`crate::group`]).
    props: Mutex<Option<Arc<Properties>>>,
    /// The group of the object's node.
    group: Option<Arc<Group>>,
    /// Set for a lazy object.
    lazy: Option<Box<LazyState>>,
    annotations: Annotations,
    strict: bool,
    name: Option<Arc<str>>,
    /// The printed form once final (`Some(None)`: final but not kept); see
    /// `print::cached_form`.
    printed: OnceLock<Option<Arc<str>>>,
}

/// Options for a new object type.
#[derive(Clone, Debug)]
pub struct ObjectOptions {
    pub annotations: Annotations,
    /// `false` downgrades unknown-property and non-string-key traversal
    /// errors to warnings.
    pub strict: bool,
    /// The schema token, for named printing in diagnostics.
    pub name: Option<Arc<str>>,
}

impl Default for ObjectOptions {
    fn default() -> Self {
        ObjectOptions {
            annotations: Annotations::none(),
            strict: true,
            name: None,
        }
    }
}

impl ObjectDef {
    pub(crate) fn new(
        props: Option<Properties>,
        opts: ObjectOptions,
        group: Option<Arc<Group>>,
    ) -> ObjectDef {
        ObjectDef {
            props: Mutex::new(props.map(|p| Arc::new(sorted(p)))),
            group,
            lazy: None,
            annotations: opts.annotations,
            strict: opts.strict,
            name: opts.name,
            printed: OnceLock::new(),
        }
    }

    pub(crate) fn new_lazy(
        pending: Pending,
        opts: ObjectOptions,
        view_of: Option<View>,
        group: Option<Arc<Group>>,
    ) -> ObjectDef {
        let mut def = ObjectDef::new(None, opts, group);
        def.lazy = Some(Box::new(LazyState {
            pending: Mutex::new(Some(pending)),
            views: Mutex::new(Vec::new()),
            view_of,
        }));
        def
    }

    /// The properties if they are set.
    fn props_now(&self) -> Option<Arc<Properties>> {
        lock(&self.props).clone()
    }

    /// Whether the properties were not given at construction (only such
    /// an object can close a cycle; see [`crate::group`]).
    pub(crate) fn is_late(&self) -> bool {
        self.lazy.is_some() || lock(&self.props).is_none()
    }

    /// Calls `f` on each type this definition holds (its properties and a
    /// pending view's source).
    pub(crate) fn for_each_element(&self, f: &mut dyn FnMut(&Type)) {
        if let Some(props) = self.props_now() {
            props.values().for_each(&mut *f);
        }
        if let Some(lazy) = &self.lazy {
            if let Some(Pending::View(src, _)) = &*lock(&lazy.pending) {
                f(src);
            }
        }
    }

    /// Counts `t` as a handle inside this object's group when it belongs
    /// to it (it was just stored here).
    fn hold(&self, t: &Type) {
        if let Some(g) = &self.group {
            if group::same(t.group(), g) {
                g.release();
            }
        }
    }

    /// Counts `t` as a handle outside this object again (it is about to
    /// leave this object).
    fn unhold(&self, t: &Type) {
        if let Some(g) = self.group.as_ref().filter(|g| !g.is_dead()) {
            if group::same(t.group(), g) {
                g.acquire();
            }
        }
    }

    /// Stores `props` unless properties are set already (then returns them
    /// back).
    fn set_props(&self, props: Properties) -> Result<(), Properties> {
        let mut slot = lock(&self.props);
        if slot.is_some() {
            return Err(props);
        }
        let props = Arc::new(sorted(props));
        *slot = Some(Arc::clone(&props));
        drop(slot);
        props.values().for_each(|v| self.hold(v));
        Ok(())
    }

    /// Takes the properties and the pending definer or view out (for the
    /// iterative drop and for freeing the group); the types they hold are
    /// counted as outside handles again.
    pub(crate) fn take_parts(&self) -> (Option<Arc<Properties>>, Option<Type>) {
        let props = lock(&self.props).take();
        if let Some(p) = &props {
            p.values().for_each(|v| self.unhold(v));
        }
        let pending = self.lazy.as_ref().and_then(|l| lock(&l.pending).take());
        let source = match pending {
            Some(Pending::View(src, _)) => {
                self.unhold(&src);
                Some(src)
            }
            _ => None,
        };
        (props, source)
    }

    /// Runs a lazy object's definer if its properties are not set yet and
    /// it is not already running on this thread.
    fn force(&self) {
        let Some(lazy) = &self.lazy else {
            return;
        };
        if lock(&self.props).is_some() {
            return;
        }
        let Some(pending) = lock(&lazy.pending).clone() else {
            return;
        };
        let addr = self as *const ObjectDef as usize;
        let refused = DEFINING.with(|d| {
            let d = d.borrow();
            d.len() >= MAX_NESTED_DEFINITIONS || d.contains(&addr)
        });
        if refused {
            return;
        }
        let guard = Defining::enter(addr);
        let props = group::within(self.group.clone(), || match &pending {
            Pending::Definer(definer) => definer(),
            Pending::View(src, f) => view_properties(src, *f),
        });
        drop(guard);
        drop(pending);
        if let Some(props) = props {
            if self.set_props(props).is_ok() {
                // Dropped outside the lock: it may own many types.
                let done = lock(&lazy.pending).take();
                if let Some(Pending::View(src, _)) = &done {
                    self.unhold(src);
                }
                drop(done);
            }
        }
    }

    /// Whether this is a lazy object whose properties were not computed
    /// yet (does not compute them).
    pub fn is_pending(&self) -> bool {
        self.lazy.is_some() && lock(&self.props).is_none()
    }

    /// Whether this object was made by [`crate::Type::lazy_object`]
    /// (defined or not yet).
    pub fn is_lazy(&self) -> bool {
        self.lazy.is_some()
    }

    /// The view `kind` of this lazy object (`self` is `t`'s definition),
    /// built the first time: a lazy object whose properties are `f` of
    /// this object's, once this object is defined.
    /// A view that has no eventuals of the kind `kind` removes is its own
    /// view (a resolution of a resolution is the same object, as for an
    /// eager object without eventuals).
    pub(crate) fn view(&self, t: &Type, kind: View, f: fn(&Type) -> Type) -> Type {
        let Some(lazy) = &self.lazy else {
            return t.clone();
        };
        match (lazy.view_of, kind) {
            (Some(View::ResolveOutputs), _)
            | (Some(View::ResolvePromises), View::ResolvePromises) => {
                return t.clone();
            }
            _ => {}
        }
        let mut views = lock(&lazy.views);
        if let Some(v) = views
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, w)| Type::upgrade(w))
        {
            return v;
        }
        let new = Type::lazy_object_with(Pending::View(t.clone(), f), self.options(), Some(kind));
        views.retain(|(k, w)| *k != kind && w.strong_count() > 0);
        views.push((kind, new.downgrade()));
        new
    }

    /// The remembered printed form, if it was decided.
    pub(crate) fn printed_form(&self) -> Option<&Option<Arc<str>>> {
        self.printed.get()
    }

    /// Remembers the printed form (first answer wins; it is the same).
    pub(crate) fn set_printed_form(&self, form: Option<Arc<str>>) {
        let _ = self.printed.set(form);
    }

    /// The properties (empty until a deferred object is defined; a lazy
    /// object is defined here on first use).
    pub fn properties(&self) -> Props {
        static EMPTY: OnceLock<Arc<Properties>> = OnceLock::new();
        if let Some(p) = self.props_now() {
            return Props(p);
        }
        self.force();
        Props(self.props_now().unwrap_or_else(|| {
            let _ = UNSETTLED_READS.try_with(|n| n.set(n.get().wrapping_add(1)));
            Arc::clone(EMPTY.get_or_init(Arc::default))
        }))
    }

    pub fn property(&self, name: &str) -> Option<Type> {
        self.properties().get(name).cloned()
    }

    /// Whether the properties are set (a lazy object is defined here if
    /// it can be).
    pub fn is_defined(&self) -> bool {
        self.force();
        lock(&self.props).is_some()
    }

    pub(crate) fn define(&self, props: Properties) -> bool {
        self.set_props(props).is_ok()
    }

    pub fn annotations(&self) -> &Annotations {
        &self.annotations
    }

    pub fn is_strict(&self) -> bool {
        self.strict
    }

    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub(crate) fn options(&self) -> ObjectOptions {
        ObjectOptions {
            annotations: self.annotations.clone(),
            strict: self.strict,
            name: self.name.clone(),
        }
    }
}

fn sorted(mut p: Properties) -> Properties {
    p.sort_keys();
    p
}

impl Drop for ObjectDef {
    fn drop(&mut self) {
        let parts = self.take_parts();
        drop(parts);
    }
}

impl fmt::Debug for ObjectDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let props = self.properties();
        let names: Vec<&str> = props.keys().map(|k| k.as_ref()).collect();
        f.debug_struct("ObjectDef")
            .field("properties", &names)
            .field("strict", &self.strict)
            .field("name", &self.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct X(u32);
    #[derive(Debug)]
    struct Z;

    use std::sync::atomic::{AtomicUsize, Ordering};

    fn props(items: Vec<(&str, Type)>) -> Properties {
        items.into_iter().map(|(k, v)| (Arc::from(k), v)).collect()
    }

    #[test]
    fn lazy_object_is_defined_on_first_use_only() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&calls);
        let inner = Type::lazy_object(ObjectOptions::default(), move || {
            counted.fetch_add(1, Ordering::SeqCst);
            Some(props(vec![("b", Type::int()), ("a", Type::string())]))
        });
        let outer = Type::list(Type::optional(inner.clone()));
        let output = Type::output(outer.clone());
        assert_eq!(calls.load(Ordering::SeqCst), 0, "built without defining");
        assert!(inner.as_object().is_some_and(ObjectDef::is_pending));
        let o = inner.as_object().map(ObjectDef::properties);
        let names: Vec<&str> = o
            .iter()
            .flat_map(|p| p.keys())
            .map(|k| k.as_ref())
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(inner.to_string(), "object({a = string, b = int})");
        assert_eq!(
            output.to_string(),
            "output(list(union(none, object({a = string, b = int}))))"
        );
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert!(!inner.as_object().is_some_and(ObjectDef::is_pending));
    }

    #[test]
    fn forcing_itself_reads_as_undefined_instead_of_hanging() {
        let slot: Arc<OnceLock<Type>> = Arc::new(OnceLock::new());
        let seen = Arc::clone(&slot);
        let inner_len = Arc::new(AtomicUsize::new(usize::MAX));
        let len = Arc::clone(&inner_len);
        let t = Type::lazy_object(ObjectOptions::default(), move || {
            let me = seen.get()?;
            let o = me.as_object()?;
            assert!(!o.is_defined());
            len.store(o.properties().len(), Ordering::SeqCst);
            Some(props(vec![("self", Type::optional(me.clone()))]))
        });
        assert!(slot.set(t.clone()).is_ok());
        let o = t.as_object().map(|o| o.properties().len());
        assert_eq!(o, Some(1));
        assert_eq!(inner_len.load(Ordering::SeqCst), 0);
        assert_eq!(t.to_string(), "object({self = union(none, ...)})");
    }

    #[test]
    fn declining_definer_stays_lazy() {
        let ready = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = Arc::clone(&ready);
        let t = Type::lazy_object(ObjectOptions::default(), move || {
            flag.load(Ordering::SeqCst)
                .then(|| props(vec![("a", Type::int())]))
        });
        let o = t.as_object();
        assert_eq!(o.map(|o| o.properties().len()), Some(0));
        assert_eq!(o.map(ObjectDef::is_defined), Some(false));
        ready.store(true, Ordering::SeqCst);
        assert_eq!(o.map(|o| o.properties().len()), Some(1));
        assert_eq!(o.map(ObjectDef::is_defined), Some(true));
    }

    /// A recursive lazy object and the same object read from its
    /// notation are equal and printed alike; the lazy one's resolution is
    /// a view that closes the same cycle.
    #[test]
    fn views_of_recursive_lazy_objects_match_eager_rebuilds() {
        let notation = "rec($T1, object({next = union($T1, output(rec($T2, object({next = $T2, v = int})))), v = output(int)}))";
        let eager = crate::parse_type(notation).unwrap_or_else(|e| panic!("{e:?}"));
        let slot: Arc<OnceLock<Type>> = Arc::new(OnceLock::new());
        let seen = Arc::clone(&slot);
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&calls);
        let lazy = Type::lazy_object(ObjectOptions::default(), move || {
            counted.fetch_add(1, Ordering::SeqCst);
            let me = seen.get()?;
            Some(props(vec![
                ("next", Type::union([me.clone(), Type::output(me.clone())])),
                ("v", Type::output(Type::int())),
            ]))
        });
        assert!(slot.set(lazy.clone()).is_ok());
        let resolved = crate::resolve_outputs(&lazy);
        let again = crate::resolve_outputs(&lazy);
        assert!(resolved.ptr_eq(&again), "one view per source");
        assert!(
            crate::resolve_outputs(&resolved).ptr_eq(&resolved),
            "resolved once"
        );
        assert!(crate::resolve_promises(&resolved).ptr_eq(&resolved));
        let promises = crate::resolve_promises(&lazy);
        assert!(crate::resolve_promises(&promises).ptr_eq(&promises));
        assert!(!crate::resolve_outputs(&promises).ptr_eq(&promises));
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        assert_eq!(format!("{lazy:?}"), notation);
        assert_eq!(lazy, eager);
        assert_eq!(lazy.to_string(), eager.to_string());
        // The view closes the cycle: `next` resolves to the view itself
        // (an eager rebuild through a placeholder keeps a second copy).
        assert_eq!(resolved.to_string(), "object({next = ..., v = int})");
        let next = resolved.as_object().and_then(|o| o.property("next"));
        assert!(next.is_some_and(|n| n.ptr_eq(&resolved)));
        assert_eq!(
            crate::conversion_from(&crate::resolve_outputs(&eager), &resolved),
            crate::ConversionKind::Safe
        );
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    /// A long chain of defined lazy objects, each reaching the next
    /// through a view not yet defined (which holds its source), drops
    /// within a small stack.
    #[test]
    fn long_chains_through_pending_views_drop_iteratively() {
        let dropped = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(|| {
                let mut next = Type::lazy_object(ObjectOptions::default(), || Some(props(vec![])));
                for _ in 0..100_000 {
                    let view = crate::resolve_outputs(&next);
                    assert!(view.as_object().is_some_and(ObjectDef::is_pending));
                    let link = Type::lazy_object(ObjectOptions::default(), move || {
                        Some(props(vec![("next", view.clone())]))
                    });
                    assert!(link.as_object().is_some_and(|o| o.properties().len() == 1));
                    next = link;
                }
                drop(next);
            })
            .map(|h| h.join().is_ok());
        assert!(matches!(dropped, Ok(true)));
    }

    /// Definers that read the next object of a long chain (as ordering a
    /// union by printed form does) nest at most `MAX_NESTED_DEFINITIONS`
    /// deep; the object past that reads as undefined there and is defined
    /// when read later.
    #[test]
    fn nested_definitions_are_bounded() {
        let done = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(|| {
                let seen = Arc::new(AtomicUsize::new(usize::MAX));
                let mut next = Type::lazy_object(ObjectOptions::default(), || {
                    Some(props(vec![("end", Type::int())]))
                });
                let mut chain = vec![next.clone()];
                for _ in 0..10_000 {
                    let inner = next.clone();
                    let seen = Arc::clone(&seen);
                    next = Type::lazy_object(ObjectOptions::default(), move || {
                        let len = inner.as_object().map(|o| o.properties().len());
                        seen.fetch_min(len.unwrap_or(0), Ordering::SeqCst);
                        Some(props(vec![("next", inner.clone())]))
                    });
                    chain.push(next.clone());
                }
                let top = chain
                    .last()
                    .and_then(|t| t.as_object().map(|o| o.properties().len()));
                assert_eq!(top, Some(1));
                assert_eq!(
                    seen.load(Ordering::SeqCst),
                    0,
                    "the deepest read was refused"
                );
                let pending = chain
                    .iter()
                    .filter(|t| t.as_object().is_some_and(ObjectDef::is_pending));
                assert!(pending.count() > 0);
                assert!(chain
                    .iter()
                    .all(|t| t.as_object().is_some_and(|o| !o.properties().is_empty())));
                drop(chain);
            })
            .map(|h| h.join().is_ok());
        assert!(matches!(done, Ok(true)));
    }

    #[test]
    fn threads_forcing_one_lazy_object_agree() {
        let t = Type::lazy_object(ObjectOptions::default(), || {
            Some(props(
                (0..50)
                    .map(|i| (["a", "b", "c"][i % 3], Type::int()))
                    .collect(),
            ))
        });
        let forms: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4).map(|_| s.spawn(|| t.to_string())).collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        assert_eq!(forms.len(), 4);
        assert!(
            forms
                .iter()
                .all(|f| f == "object({a = int, b = int, c = int})"),
            "{forms:?}"
        );
    }

    #[test]
    fn first_annotation_of_type() {
        let a = Annotations::new(vec![Arc::new(Z), Arc::new(X(1)), Arc::new(X(2))]);
        assert_eq!(a.first::<X>().map(|x| x.0), Some(1));
        assert!(a.first::<String>().is_none());
        assert!(a.find(|v| v.is::<Z>()).is_some());
    }
}
