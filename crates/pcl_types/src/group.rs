//! Groups: how recursive types are freed although they are `Arc` cycles.
//!
//! A recursive type is a cycle of strong handles: `rec($R, object({a =
//! union(none, $R)}))` is an object whose property holds a union that holds
//! the object. Every cycle passes through an object whose properties were
//! set after it was created (a deferred, lazy or view object: a node built
//! whole can only point at older nodes), so clearing the properties of
//! those objects breaks every cycle. The question is *when*: only once no
//! handle outside the cycle can reach any part of it, because holding any
//! node of a recursive type (the union above, say, taken from the object's
//! property) must keep the whole type alive.
//!
//! Every type node with elements belongs to at most one [`Group`], fixed
//! when the node is built: the group of the thread's current scope (the
//! notation reader, a rebuild of a recursive object, a lazy object's
//! definer and a [`TypeGroup::scope`] each set one), else the group of its
//! first element that has one; a deferred or lazy object built outside any
//! scope starts a group of its own, and a view of a lazy object joins its
//! source's group. A group counts the handles to its members that are
//! *not* stored inside one of its members: a new node, a clone and a weak
//! upgrade add one; a handle dropped from outside subtracts one; a handle
//! moved into a member (as an element, a property or a view's source) is
//! subtracted when it moves in and added back when it moves out. When the
//! count reaches zero nothing outside the group reaches it, so it is
//! garbage as a whole: the group is marked dead (for good: weak handles to
//! its members no longer upgrade) and the properties and pending definers
//! of its late-defined objects are taken out, which frees every member.
//!
//! The count is exact whatever the grouping, so grouping only decides what
//! is freed together: a cycle whose members sit in two groups (which the
//! rules above avoid for everything this crate builds) would keep both
//! alive. A lazy object whose definer captures a handle to the object
//! itself is a cycle through a closure the group cannot see; it is broken
//! when the object is defined (the definer is dropped then).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use crate::object::ObjectDef;

/// Set in [`Group`]'s count once it reached zero.
const DEAD: usize = 1 << (usize::BITS - 1);

/// Handles to a set of type nodes that are freed together (see the module
/// documentation).
pub(crate) struct Group {
    /// Handles to members held outside members, or [`DEAD`].
    handles: AtomicUsize,
    /// The member objects whose properties are set late, held weakly.
    objects: Mutex<Objects>,
}

#[derive(Default)]
struct Objects {
    list: Vec<Weak<ObjectDef>>,
    /// The length after the last pruning (pruning again at twice this
    /// keeps registration amortised constant).
    pruned_at: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Group {
    pub(crate) fn new() -> Arc<Group> {
        Arc::new(Group {
            handles: AtomicUsize::new(0),
            objects: Mutex::new(Objects::default()),
        })
    }

    pub(crate) fn is_dead(&self) -> bool {
        self.handles.load(Ordering::Acquire) & DEAD != 0
    }

    /// Counts one more handle; false (and nothing counted) once dead.
    pub(crate) fn acquire(&self) -> bool {
        let mut cur = self.handles.load(Ordering::Relaxed);
        loop {
            if cur & DEAD != 0 {
                return false;
            }
            match self.handles.compare_exchange_weak(
                cur,
                cur + 1,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
    }

    /// Counts one handle less; the last one tears the group down.
    pub(crate) fn release(self: &Arc<Group>) {
        let mut cur = self.handles.load(Ordering::Relaxed);
        loop {
            if cur & DEAD != 0 || cur == 0 {
                return;
            }
            let next = if cur == 1 { DEAD } else { cur - 1 };
            match self
                .handles
                .compare_exchange_weak(cur, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => break,
                Err(now) => cur = now,
            }
        }
        if cur == 1 {
            teardown(Arc::clone(self));
        }
    }

    /// Remembers a member object whose properties are set late.
    pub(crate) fn register(&self, def: &Arc<ObjectDef>) {
        let mut objects = lock(&self.objects);
        if objects.list.len() >= 2 * objects.pruned_at.max(32) {
            objects.list.retain(|w| w.strong_count() > 0);
            objects.pruned_at = objects.list.len();
        }
        objects.list.push(Arc::downgrade(def));
    }
}

/// Whether `g` is the group `of`.
pub(crate) fn same(of: Option<&Arc<Group>>, g: &Arc<Group>) -> bool {
    of.is_some_and(|o| Arc::ptr_eq(o, g))
}

thread_local! {
    /// Groups whose teardown waits for the one running on this thread
    /// (freeing one group can free the last handle to another; a queue
    /// keeps that from nesting on the stack).
    static QUEUE: RefCell<Vec<Arc<Group>>> = const { RefCell::new(Vec::new()) };
    static TEARING: Cell<bool> = const { Cell::new(false) };
    /// The group nodes built on this thread join.
    static CURRENT: RefCell<Option<Arc<Group>>> = const { RefCell::new(None) };
}

/// Takes out the late-set properties and pending definers of the dead
/// group's objects, which frees every member.
fn teardown(group: Arc<Group>) {
    let _ = QUEUE.try_with(|q| q.borrow_mut().push(group));
    if TEARING.try_with(Cell::get).unwrap_or(true) {
        return;
    }
    TEARING.with(|t| t.set(true));
    while let Some(group) = QUEUE.with(|q| q.borrow_mut().pop()) {
        let list = std::mem::take(&mut lock(&group.objects).list);
        for def in list.iter().filter_map(Weak::upgrade) {
            // Dropped here, outside every lock: it may hold many types.
            let parts = def.take_parts();
            drop(parts);
            drop(def);
        }
    }
    TEARING.with(|t| t.set(false));
}

/// The group nodes built on this thread join, if a scope set one.
pub(crate) fn current() -> Option<Arc<Group>> {
    CURRENT.try_with(|c| c.borrow().clone()).ok().flatten()
}

/// Restores the previous scope when dropped (also on a panic).
struct Restore(Option<Arc<Group>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let prev = self.0.take();
        let _ = CURRENT.try_with(|c| *c.borrow_mut() = prev);
    }
}

/// Runs `f` with nodes built on this thread joining `group`.
pub(crate) fn within<R>(group: Option<Arc<Group>>, f: impl FnOnce() -> R) -> R {
    let prev = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), group));
    let _restore = Restore(prev);
    f()
}

/// Runs `f` in the current scope, or in a new group when there is none
/// (for a walk that builds recursive objects: they must share a group).
pub(crate) fn within_some<R>(f: impl FnOnce() -> R) -> R {
    if current().is_some() {
        f()
    } else {
        within(Some(Group::new()), f)
    }
}

/// The owner of a group for a host that builds recursive types over time,
/// such as a schema converter whose lazy objects are defined one by one
/// (see the module documentation): types built in [`TypeGroup::scope`]
/// share one group, so cycles among them are freed once nothing outside
/// reaches them. A `TypeGroup` does not keep its types alive; once they
/// are all freed, later scopes start a new group.
pub struct TypeGroup(Mutex<Arc<Group>>);

impl TypeGroup {
    pub fn new() -> TypeGroup {
        TypeGroup(Mutex::new(Group::new()))
    }

    /// Runs `f` with the types built on this thread joining this group.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        let group = {
            let mut g = lock(&self.0);
            if g.is_dead() {
                *g = Group::new();
            }
            Arc::clone(&g)
        };
        within(Some(group), f)
    }
}

impl Default for TypeGroup {
    fn default() -> Self {
        TypeGroup::new()
    }
}

impl std::fmt::Debug for TypeGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TypeGroup")
    }
}
