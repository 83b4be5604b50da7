//! Building a [`BoundTree`]: pushing nodes in post-order onto the flat
//! form, and freezing a built tree ([`BoundTree::take_exact`]) into its
//! inline form when it is small, or into vectors of exactly its size.

use pcl_diagnostics::TextRange;
use pcl_syntax::tree::{BinaryOp, UnaryOp};
use pcl_types::Type;

use super::{
    BoundId, BoundScopeTraversal, BoundStep, BoundTree, CallData, Flat, ForData, InvokeTokens,
    Node, Rare, Repr, Tag,
};
use crate::scope::Function;
use crate::signature::Signature;

/// Trees up to this many nodes are copied out of the binder's scratch
/// tree ([`BoundTree::take_exact`]); larger ones are moved.
const COPY_LIMIT: usize = 1024;

/// How many of the types pushed last [`Flat::intern`] looks through for
/// the one it is given (so a push costs a bounded number of pointer
/// comparisons).
const RECENT_TYPES: usize = 8;

/// `v`'s elements moved into a vector of exactly their number (none
/// allocated for none); `v` is left empty with its capacity.
fn take_vec<T>(v: &mut Vec<T>) -> Vec<T> {
    if v.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(v.len());
    out.append(v);
    out
}

/// Whether a node of this kind has a child list as its payload (among the
/// kinds an inline tree may hold).
fn has_list(tag: Tag) -> bool {
    matches!(tag, Tag::Template | Tag::Tuple | Tag::Object)
}

impl Rare {
    fn is_empty(&self) -> bool {
        self.fors.is_empty() && self.calls.is_empty() && self.steps.is_empty()
    }

    /// The contents in vectors of exactly their size; `self` keeps its
    /// capacity.
    fn take_exact(&mut self) -> Rare {
        Rare {
            fors: take_vec(&mut self.fors),
            calls: take_vec(&mut self.calls),
            steps: take_vec(&mut self.steps),
        }
    }
}

impl Flat {
    /// The flat form of an inline tree (the nodes pushed again).
    fn thawed(small: Repr) -> Flat {
        let mut flat = Flat::default();
        match small {
            Repr::Empty => {}
            Repr::One { ty, range, tag } => flat.push_leaf(tag, ty, range),
            Repr::Ref {
                ty,
                range,
                traversal,
            } => {
                flat.traversals.push(*traversal);
                flat.push(Tag::ScopeTraversal, 0, 0, ty, range);
            }
            Repr::Pair {
                types: [leaf_ty, root_ty],
                ranges: [leaf_range, root_range],
                tags: [leaf_tag, root_tag],
                op,
            } => {
                flat.push_leaf(leaf_tag, leaf_ty, leaf_range);
                let payload = match has_list(root_tag) {
                    true => flat.push_list([0].into_iter()),
                    false => 0,
                };
                flat.push(root_tag, op, payload, root_ty, root_range);
            }
            Repr::Flat(flat) => return *flat,
        }
        flat
    }

    /// A node without side data besides an empty child list.
    fn push_leaf(&mut self, tag: Tag, ty: Type, range: TextRange) {
        let payload = match has_list(tag) {
            true => self.push_list(std::iter::empty()),
            false => 0,
        };
        self.push(tag, 0, payload, ty, range);
    }

    /// Whether `node` can be an inline leaf: no side data but an empty
    /// child list.
    fn is_leaf(&self, node: &Node) -> bool {
        match node.tag {
            Tag::Literal | Tag::Error | Tag::SplatItem => true,
            tag => has_list(tag) && self.list(node.payload).is_empty(),
        }
    }

    /// Whether `node`, pushed right after node 0, has node 0 as its only
    /// child (and no other side data).
    fn has_only_first_child(&self, node: &Node) -> bool {
        match node.tag {
            Tag::Unary | Tag::Parens | Tag::TemplateJoin => true,
            Tag::Template | Tag::Tuple => self.list(node.payload) == [0],
            _ => false,
        }
    }

    /// The tree in its inline form when it has one of the small shapes
    /// (see [`Repr`]); `self` is then cleared, keeping its capacity.
    fn take_small(&mut self) -> Option<Repr> {
        if self.rare.as_deref().is_some_and(|r| !r.is_empty()) {
            return None;
        }
        let repr = match (self.nodes.as_slice(), self.traversals.len()) {
            ([only], 1) if only.tag == Tag::ScopeTraversal => Repr::Ref {
                ty: self.type_at(only.ty)?.clone(),
                range: only.range,
                traversal: Box::new(self.traversals.pop()?),
            },
            ([only], 0) if self.is_leaf(only) => Repr::One {
                ty: self.type_at(only.ty)?.clone(),
                range: only.range,
                tag: only.tag,
            },
            ([leaf, root], 0) if self.is_leaf(leaf) && self.has_only_first_child(root) => {
                Repr::Pair {
                    types: [
                        self.type_at(leaf.ty)?.clone(),
                        self.type_at(root.ty)?.clone(),
                    ],
                    ranges: [leaf.range, root.range],
                    tags: [leaf.tag, root.tag],
                    op: root.op,
                }
            }
            _ => return None,
        };
        self.clear();
        Some(repr)
    }

    /// Empties every vector, keeping its capacity.
    fn clear(&mut self) {
        self.nodes.clear();
        self.first_types = [None, None];
        self.types.clear();
        self.lists.clear();
        self.traversals.clear();
        if let Some(rare) = self.rare.as_deref_mut() {
            rare.fors.clear();
            rare.calls.clear();
            rare.steps.clear();
        }
    }

    /// The contents in vectors of exactly their size; `self` is left empty
    /// with its capacity.
    fn take_exact(&mut self) -> Flat {
        let rare = match self.rare.as_deref_mut() {
            Some(r) if !r.is_empty() => Some(Box::new(r.take_exact())),
            _ => None,
        };
        Flat {
            nodes: take_vec(&mut self.nodes),
            first_types: [self.first_types[0].take(), self.first_types[1].take()],
            types: take_vec(&mut self.types),
            lists: take_vec(&mut self.lists),
            traversals: take_vec(&mut self.traversals),
            rare,
        }
    }

    fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.types.shrink_to_fit();
        self.lists.shrink_to_fit();
        self.traversals.shrink_to_fit();
    }

    fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    /// The index of `ty` in the type table: one of the last few pushed when
    /// it is the same type, else a new entry.
    fn intern(&mut self, ty: Type) -> u32 {
        for (i, slot) in self.first_types.iter_mut().enumerate() {
            match slot {
                None => {
                    *slot = Some(ty);
                    return i as u32;
                }
                Some(t) if t.ptr_eq(&ty) => return i as u32,
                Some(_) => {}
            }
        }
        let len = self.types.len();
        let mut recent = self.types.iter().rev().take(RECENT_TYPES);
        if let Some(back) = recent.position(|t| t.ptr_eq(&ty)) {
            return (len - back) as u32 + 1;
        }
        self.types.push(ty);
        len as u32 + 2
    }

    fn push(&mut self, tag: Tag, op: u8, payload: u32, ty: Type, range: TextRange) -> BoundId {
        let id = self.nodes.len() as BoundId;
        let ty = self.intern(ty);
        self.nodes.push(Node {
            ty,
            range,
            tag,
            op,
            payload,
        });
        id
    }

    fn push_list(&mut self, ids: impl ExactSizeIterator<Item = BoundId>) -> u32 {
        let lists = &mut self.lists;
        let at = lists.len() as u32;
        lists.push(ids.len() as u32);
        lists.extend(ids);
        at
    }
}

impl BoundTree {
    /// The flat form, into which an inline tree is turned first.
    #[inline]
    fn flat_mut(&mut self) -> &mut Flat {
        match self.repr {
            Repr::Flat(ref mut flat) => flat,
            _ => self.thaw(),
        }
    }

    /// Turns an inline tree into the flat form (the binder's scratch tree
    /// is flat from its first push on, so this is off the hot path).
    #[cold]
    #[inline(never)]
    fn thaw(&mut self) -> &mut Flat {
        let small = std::mem::take(&mut self.repr);
        self.repr = Repr::Flat(Box::new(Flat::thawed(small)));
        self.flat_mut()
    }

    /// The tree built in `self`, a scratch tree that the binder reuses,
    /// frozen: a small tree in its inline form (see the module docs), any
    /// other in vectors of exactly its size. A tree up to [`COPY_LIMIT`]
    /// nodes is copied out (one allocation per vector it uses, none for
    /// growing them) and `self` is left empty with its capacity; a larger
    /// one is moved out and shrunk, so the scratch never holds more than a
    /// small tree's room.
    pub(crate) fn take_exact(&mut self) -> BoundTree {
        let Repr::Flat(flat) = &mut self.repr else {
            // An inline tree is exact already.
            return std::mem::take(self);
        };
        if let Some(repr) = flat.take_small() {
            return BoundTree { repr };
        }
        let flat = if flat.nodes.len() > COPY_LIMIT || flat.lists.len() > 2 * COPY_LIMIT {
            let mut out = std::mem::take(&mut **flat);
            out.shrink_to_fit();
            out
        } else {
            flat.take_exact()
        };
        BoundTree {
            repr: Repr::Flat(Box::new(flat)),
        }
    }

    // ---- building (post-order) -------------------------------------------------------

    /// The id the next pushed node gets.
    pub(crate) fn next_id(&self) -> BoundId {
        self.len() as BoundId
    }

    pub(crate) fn set_range(&mut self, id: BoundId, range: TextRange) {
        if let Some(n) = self.flat_mut().nodes.get_mut(id as usize) {
            n.range = range;
        }
    }

    fn push(&mut self, tag: Tag, op: u8, payload: u32, ty: Type, range: TextRange) -> BoundId {
        self.flat_mut().push(tag, op, payload, ty, range)
    }

    /// Checks (in debug builds) that `child` is the node just pushed, the
    /// one a node's implicit last child is.
    fn last_child(&self, child: BoundId) {
        debug_assert_eq!(child + 1, self.next_id(), "post-order violated");
    }

    fn push_list(&mut self, ids: impl ExactSizeIterator<Item = BoundId>) -> u32 {
        self.flat_mut().push_list(ids)
    }

    /// A literal; `ty` is its const type, which holds the value.
    pub(crate) fn literal(&mut self, ty: Type, range: TextRange) -> BoundId {
        debug_assert!(ty.as_const().is_some(), "a literal's type is const");
        self.push(Tag::Literal, 0, 0, ty, range)
    }

    /// Removes a literal just pushed (a folded `-<number>` replaces its
    /// operand).
    pub(crate) fn pop_literal(&mut self, id: BoundId) {
        if id + 1 == self.next_id() && self.node(id).tag == Tag::Literal {
            self.flat_mut().nodes.pop();
        }
    }

    pub(crate) fn error(&mut self, range: TextRange) -> BoundId {
        self.push(Tag::Error, 0, 0, Type::dynamic(), range)
    }

    pub(crate) fn splat_item(&mut self, ty: Type, range: TextRange) -> BoundId {
        self.push(Tag::SplatItem, 0, 0, ty, range)
    }

    pub(crate) fn template(&mut self, parts: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(parts.iter().copied());
        self.push(Tag::Template, 0, at, ty, range)
    }

    pub(crate) fn tuple(&mut self, items: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(items.iter().copied());
        self.push(Tag::Tuple, 0, at, ty, range)
    }

    /// `pairs` holds keys and values alternating.
    pub(crate) fn object(&mut self, pairs: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(pairs.iter().copied());
        self.push(Tag::Object, 0, at, ty, range)
    }

    pub(crate) fn template_join(&mut self, inner: BoundId, ty: Type, range: TextRange) -> BoundId {
        self.last_child(inner);
        self.push(Tag::TemplateJoin, 0, 0, ty, range)
    }

    pub(crate) fn parens(&mut self, inner: BoundId, ty: Type, range: TextRange) -> BoundId {
        self.last_child(inner);
        self.push(Tag::Parens, 0, 0, ty, range)
    }

    pub(crate) fn unary(
        &mut self,
        op: UnaryOp,
        operand: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(operand);
        let op = match op {
            UnaryOp::Negate => 0,
            UnaryOp::Not => 1,
        };
        self.push(Tag::Unary, op, 0, ty, range)
    }

    pub(crate) fn binary(
        &mut self,
        op: BinaryOp,
        lhs: BoundId,
        rhs: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(rhs);
        self.push(Tag::Binary, op as u8, lhs, ty, range)
    }

    pub(crate) fn conditional(
        &mut self,
        [condition, then_expr, else_expr]: [BoundId; 3],
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(else_expr);
        let at = self.push_list([condition, then_expr].into_iter());
        self.push(Tag::Conditional, 0, at, ty, range)
    }

    pub(crate) fn splat(
        &mut self,
        source: BoundId,
        each: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(each);
        self.push(Tag::Splat, 0, source, ty, range)
    }

    pub(crate) fn index(
        &mut self,
        collection: BoundId,
        key: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(key);
        self.push(Tag::Index, 0, collection, ty, range)
    }

    pub(crate) fn for_expr(&mut self, data: ForData, ty: Type, range: TextRange) -> BoundId {
        let flat = self.flat_mut();
        let fors = &mut flat.rare_mut().fors;
        let at = fors.len() as u32;
        fors.push(data);
        flat.push(Tag::For, 0, at, ty, range)
    }

    /// A call; `args` are its bound arguments.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call(
        &mut self,
        name: &str,
        name_range: TextRange,
        function: Option<Function>,
        args: &[BoundId],
        expand_final: bool,
        signature: Signature,
        invoke: Option<Box<InvokeTokens>>,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        let flat = self.flat_mut();
        let args = flat.push_list(args.iter().copied());
        let calls = &mut flat.rare_mut().calls;
        let at = calls.len() as u32;
        calls.push(CallData {
            name: name.to_string(),
            name_range,
            function,
            args,
            expand_final,
            signature,
            invoke,
        });
        flat.push(Tag::Call, 0, at, ty, range)
    }

    pub(crate) fn scope_traversal(
        &mut self,
        traversal: BoundScopeTraversal,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        let flat = self.flat_mut();
        let at = flat.traversals.len() as u32;
        flat.traversals.push(traversal);
        flat.push(Tag::ScopeTraversal, 0, at, ty, range)
    }

    pub(crate) fn relative_traversal(
        &mut self,
        source: BoundId,
        steps: Box<[BoundStep]>,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(source);
        let flat = self.flat_mut();
        let all = &mut flat.rare_mut().steps;
        let at = all.len() as u32;
        all.push(steps);
        flat.push(Tag::RelativeTraversal, 0, at, ty, range)
    }
}
