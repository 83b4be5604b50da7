//! The allocation behind a [`Type`] handle: its kind and its group, and
//! the handle's `Clone` and `Drop`, which keep the group's count (see
//! [`crate::group`]) and take deep types apart without deep recursion.

use std::sync::Arc;

use crate::group::{self, Group};
use crate::ty::{Type, TypeKind};

/// One type node.
pub(crate) struct Node {
    pub(crate) kind: TypeKind,
    /// Only nodes with elements have one.
    pub(crate) group: Option<Arc<Group>>,
}

/// Dropping a type drops its elements recursively while the nesting is
/// shallow (no allocation); from this depth on, the rest of the tree is
/// taken apart with an explicit stack, so a type nested 100 000 deep (built
/// through the API; labels stop at [`crate::MAX_TYPE_DEPTH`]) drops within
/// a small stack.
const RECURSIVE_DROP_LIMIT: usize = 64;

thread_local! {
    static DROP_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// A shared leaf put in place of the elements the iterative drop moves
    /// out (cloning it allocates nothing).
    static DROP_LEAF: Type = Type::leaf(TypeKind::None);
}

impl Node {
    /// A new handle to a new node in `group` (counted there), whose
    /// elements of the same group become internal to it.
    pub(crate) fn handle(kind: TypeKind, group: Option<Arc<Group>>) -> Type {
        let group = group.filter(|g| kind.has_elements() && g.acquire());
        if let Some(g) = &group {
            kind.for_each_element(&mut |e| {
                if group::same(e.group(), g) {
                    g.release();
                }
            });
            if let TypeKind::Object(def) = &kind {
                if def.is_late() {
                    g.register(def);
                }
            }
        }
        Type::from_node(Arc::new(Node { kind, group }))
    }

    /// Counts the elements of the same group as handles outside it again,
    /// before they are moved out of this node or dropped with it.
    fn unlink(&self) {
        if let Some(g) = self.group.as_ref().filter(|g| !g.is_dead()) {
            if !matches!(self.kind, TypeKind::Object(_)) {
                self.kind.for_each_element(&mut |e| {
                    if group::same(e.group(), g) {
                        g.acquire();
                    }
                });
            }
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // An object's own definition does this for its properties.
        self.unlink();
    }
}

impl Clone for Type {
    // Inlined across crates, as a derived `Clone` would be: a clone of a
    // type outside every group is one reference-count increment.
    #[inline]
    fn clone(&self) -> Type {
        let node = Arc::clone(self.node());
        if let Some(g) = &node.group {
            g.acquire();
        }
        Type::from_node(node)
    }
}

impl Drop for Type {
    /// The common case inline: a handle outside every group to a leaf or
    /// to a node that other handles share is one reference-count
    /// decrement (what the `Arc` drop after this does).
    #[inline]
    fn drop(&mut self) {
        let node = self.node();
        if node.group.is_none() && (Arc::strong_count(node) != 1 || !node.kind.has_elements()) {
            return;
        }
        self.drop_slow();
    }
}

impl Type {
    /// The rest of [`Type`]'s `Drop`: the group's count, and taking apart
    /// the node this handle owns alone.
    fn drop_slow(&mut self) {
        if let Some(g) = &self.node().group {
            g.release();
        }
        // A leaf owns no types, and a node with another strong handle is not
        // this handle's to take apart: the `Arc`'s own drop (a decrement) is
        // all there is to do, without the uniqueness check below.
        if !self.kind().has_elements() || Arc::strong_count(self.node()) != 1 {
            return;
        }
        let mut owned = None;
        if Arc::get_mut(self.node_mut()).is_none() {
            // Weak handles (a lazy object's view memo) make `get_mut`
            // fail although this is the last strong handle.
            owned = match take_last(self) {
                Some(node) => Some(node),
                None => return,
            };
        }
        let node = match owned.as_mut() {
            Some(node) => node,
            None => match Arc::get_mut(self.node_mut()) {
                Some(node) => node,
                None => return,
            },
        };
        if !node.kind.has_elements() {
            return;
        }
        let depth = DROP_DEPTH.with(|d| {
            let value = d.get() + 1;
            d.set(value);
            value
        });
        node.unlink();
        if depth < RECURSIVE_DROP_LIMIT {
            drop(std::mem::replace(&mut node.kind, TypeKind::None));
        } else {
            let mut stack = Vec::new();
            node.kind.take_elements(&mut stack);
            while let Some(mut t) = stack.pop() {
                if let Some(n) = Arc::get_mut(t.node_mut()) {
                    n.unlink();
                    n.kind.take_elements(&mut stack);
                } else if let Some(mut n) = take_last(&mut t) {
                    n.unlink();
                    n.kind.take_elements(&mut stack);
                }
            }
        }
        DROP_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// The node of `t` when `t` is its last strong handle but weak handles
/// exist, moved out (a shared leaf is left in `t`); `None` otherwise.
fn take_last(t: &mut Type) -> Option<Node> {
    if Arc::strong_count(t.node()) != 1 || !t.kind().has_elements() {
        return None;
    }
    let leaf = DROP_LEAF.try_with(|l| Arc::clone(l.node())).ok()?;
    Arc::try_unwrap(std::mem::replace(t.node_mut(), leaf)).ok()
}

impl TypeKind {
    /// Whether this kind holds other types (leaves are the builtins and
    /// opaques).
    #[inline]
    pub(crate) fn has_elements(&self) -> bool {
        !matches!(
            self,
            TypeKind::None
                | TypeKind::Bool
                | TypeKind::Int
                | TypeKind::Number
                | TypeKind::String
                | TypeKind::Id
                | TypeKind::Dynamic
                | TypeKind::Opaque(_)
        )
    }

    /// Calls `f` on each element this kind holds (an object's properties
    /// and a pending view's source).
    pub(crate) fn for_each_element(&self, f: &mut dyn FnMut(&Type)) {
        match self {
            TypeKind::List(t)
            | TypeKind::Map(t)
            | TypeKind::Set(t)
            | TypeKind::Promise(t)
            | TypeKind::Output(t) => f(t),
            TypeKind::Const(c) => f(c.underlying()),
            TypeKind::Enum(e) => f(e.underlying()),
            TypeKind::Tuple(elements) => elements.iter().for_each(f),
            TypeKind::Union(u) => u.elements().iter().for_each(f),
            TypeKind::Object(def) => def.for_each_element(f),
            _ => {}
        }
    }

    /// The group of the first element (in [`TypeKind::for_each_element`]'s
    /// order) that has one. The kinds other than objects are read
    /// directly, without the callback, and clone nothing when no element
    /// has a group.
    pub(crate) fn first_group(&self) -> Option<Arc<Group>> {
        let of_slice = |elements: &[Type]| elements.iter().find_map(Type::group).cloned();
        match self {
            TypeKind::List(t)
            | TypeKind::Map(t)
            | TypeKind::Set(t)
            | TypeKind::Promise(t)
            | TypeKind::Output(t) => t.group().cloned(),
            TypeKind::Const(c) => c.underlying().group().cloned(),
            TypeKind::Enum(e) => e.underlying().group().cloned(),
            TypeKind::Tuple(elements) => of_slice(elements),
            TypeKind::Union(u) => of_slice(u.elements()),
            TypeKind::Object(_) => {
                let mut first = None;
                self.for_each_element(&mut |e| {
                    if first.is_none() {
                        first = e.group().cloned();
                    }
                });
                first
            }
            _ => None,
        }
    }

    /// Moves the element types this kind owns alone onto `stack`, leaving
    /// shared leaves in their place.
    fn take_elements(&mut self, stack: &mut Vec<Type>) {
        let leaf = || DROP_LEAF.with(Type::clone);
        let take_slice = |elements: &mut Arc<[Type]>, stack: &mut Vec<Type>| {
            if let Some(elements) = Arc::get_mut(elements) {
                for e in elements {
                    stack.push(std::mem::replace(e, leaf()));
                }
            }
        };
        match self {
            TypeKind::List(t)
            | TypeKind::Map(t)
            | TypeKind::Set(t)
            | TypeKind::Promise(t)
            | TypeKind::Output(t) => stack.push(std::mem::replace(t, leaf())),
            TypeKind::Const(c) => stack.push(std::mem::replace(c.underlying_mut(), leaf())),
            TypeKind::Enum(e) => stack.push(std::mem::replace(e.underlying_mut(), leaf())),
            TypeKind::Tuple(elements) => take_slice(elements, stack),
            TypeKind::Union(u) => take_slice(u.elements_mut(), stack),
            // Only this node holds the definition (the group's weak list
            // aside), so its parts are this drop's to take.
            TypeKind::Object(def) if Arc::strong_count(def) == 1 => {
                let (props, source) = def.take_parts();
                if let Some(props) = props {
                    match Arc::try_unwrap(props) {
                        Ok(props) => stack.extend(props.into_values()),
                        Err(shared) => drop(shared),
                    }
                }
                stack.extend(source);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::group::{Group, TypeGroup};
    use crate::ty::{Type, TypeKind};

    /// The group the callback finds first, as `from_kind` read it before
    /// the direct lookup.
    fn by_callback(kind: &TypeKind) -> Option<Arc<Group>> {
        let mut first = None;
        kind.for_each_element(&mut |e| {
            if first.is_none() {
                first = e.group().cloned();
            }
        });
        first
    }

    fn same(a: Option<&Arc<Group>>, b: Option<&Arc<Group>>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    #[test]
    fn first_group_agrees_with_the_callback_order() {
        let (one, two) = (TypeGroup::new(), TypeGroup::new());
        let a = one.scope(|| Type::list(Type::string()));
        let b = two.scope(|| Type::output(Type::int()));
        assert!(a.group().is_some() && b.group().is_some());
        assert!(!same(a.group(), b.group()));
        let plain = Type::list(Type::number());
        assert!(plain.group().is_none());
        let kinds = [
            TypeKind::List(a.clone()),
            TypeKind::Output(plain.clone()),
            TypeKind::Tuple(vec![plain.clone(), b.clone(), a.clone()].into()),
            TypeKind::Tuple(vec![plain.clone(), Type::bool()].into()),
            TypeKind::Map(b.clone()),
        ];
        for kind in &kinds {
            let direct = kind.first_group();
            assert!(same(direct.as_ref(), by_callback(kind).as_ref()));
        }
        // The order matters: the tuple's first grouped element is `b`.
        let tuple = Type::tuple([plain.clone(), b.clone(), a.clone()]);
        assert!(same(tuple.group(), b.group()));
        let union = Type::union([Type::none(), a.clone()]);
        assert!(same(union.group(), a.group()));
        assert!(Type::tuple([plain.clone(), Type::bool()]).group().is_none());
    }
}
