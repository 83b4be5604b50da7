//! [`Type`], its kinds, the normalising constructors, equality and hashing.
//!
//! A `Type` is a cheap-to-clone handle (an `Arc` of a node: its kind and
//! its group, see [`crate::group`] and `node.rs`). Builtins are
//! distinct variants, never named opaques (types.md §1.2). Unions, outputs
//! and promises are only built through the constructors here, so their
//! invariants (flat, sorted, deduplicated unions; eventual-free outputs;
//! promise-free promises) always hold — except for [`Type::union_raw`], which
//! exists for the notation reader.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use crate::eventual::{resolve_outputs, resolve_promises};
use crate::group::{self, Group};
use crate::node::Node;
use crate::object::{Annotations, ObjectDef, ObjectOptions, Properties};
use crate::union::normalise_union;
use crate::value::Value;
use crate::MAX_TYPE_DEPTH;

/// A PCL type. Cheap to clone; compared structurally (types.md §1.13).
pub struct Type(Arc<Node>);

/// A weak handle to a type ([`Type::weak`]).
#[derive(Clone)]
pub struct WeakType(std::sync::Weak<Node>);

impl WeakType {
    /// The type, if it is still alive.
    pub fn upgrade(&self) -> Option<Type> {
        Type::upgrade(&self.0)
    }
}

/// The kinds of PCL types (types.md §1.1).
pub enum TypeKind {
    None,
    Bool,
    Int,
    Number,
    String,
    Id,
    Dynamic,
    /// A named atom (`Archive`, `Asset`, schema token types).
    Opaque(Arc<str>),
    List(Type),
    Map(Type),
    Set(Type),
    Tuple(Arc<[Type]>),
    Object(Arc<ObjectDef>),
    Union(UnionType),
    Promise(Type),
    Output(Type),
    Const(ConstType),
    Enum(EnumType),
}

/// The payload of a union: ordered elements and annotations.
pub struct UnionType {
    elements: Arc<[Type]>,
    annotations: Annotations,
}

impl UnionType {
    pub fn elements(&self) -> &[Type] {
        &self.elements
    }
    pub(crate) fn elements_mut(&mut self) -> &mut Arc<[Type]> {
        &mut self.elements
    }
    pub fn annotations(&self) -> &Annotations {
        &self.annotations
    }
    /// True when `none` is one of the elements.
    pub fn has_none(&self) -> bool {
        self.elements.iter().any(Type::is_none)
    }
}

/// The singleton type of one literal value.
pub struct ConstType {
    underlying: Type,
    value: Value,
}

impl ConstType {
    pub fn underlying(&self) -> &Type {
        &self.underlying
    }
    pub(crate) fn underlying_mut(&mut self) -> &mut Type {
        &mut self.underlying
    }
    pub fn value(&self) -> &Value {
        &self.value
    }
}

/// A schema enum: identity is the token.
pub struct EnumType {
    token: Arc<str>,
    underlying: Type,
    values: Arc<[Value]>,
    annotations: Annotations,
}

impl EnumType {
    pub fn token(&self) -> &str {
        &self.token
    }
    pub(crate) fn underlying_mut(&mut self) -> &mut Type {
        &mut self.underlying
    }
    pub fn underlying(&self) -> &Type {
        &self.underlying
    }
    pub fn values(&self) -> &[Value] {
        &self.values
    }
    pub fn annotations(&self) -> &Annotations {
        &self.annotations
    }
}

/// Why an enum type could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnumError {
    NoValues,
    MixedValueKinds,
}

fn builtin(slot: &'static OnceLock<Type>, kind: fn() -> TypeKind) -> Type {
    slot.get_or_init(|| Type::leaf(kind())).clone()
}

macro_rules! builtin_ctor {
    ($name:ident, $variant:ident) => {
        #[doc = concat!("The builtin `", stringify!($name), "` type.")]
        pub fn $name() -> Type {
            static SLOT: OnceLock<Type> = OnceLock::new();
            builtin(&SLOT, || TypeKind::$variant)
        }
    };
}

impl Type {
    builtin_ctor!(none, None);
    builtin_ctor!(bool, Bool);
    builtin_ctor!(int, Int);
    builtin_ctor!(number, Number);
    builtin_ctor!(string, String);
    builtin_ctor!(id, Id);
    builtin_ctor!(dynamic, Dynamic);

    /// A new node: it joins the group of the current scope, else the
    /// group of its first element that has one (see [`crate::group`]).
    pub(crate) fn from_kind(kind: TypeKind) -> Type {
        let group = if kind.has_elements() {
            group::current().or_else(|| kind.first_group())
        } else {
            None
        };
        Node::handle(kind, group)
    }

    /// A new node in `group`.
    pub(crate) fn in_group(kind: TypeKind, group: Option<Arc<Group>>) -> Type {
        Node::handle(kind, group)
    }

    /// A node that belongs to no group (a builtin or a shared leaf).
    pub(crate) fn leaf(kind: TypeKind) -> Type {
        Node::handle(kind, None)
    }

    /// A handle to `node` that is already counted in its group.
    pub(crate) fn from_node(node: Arc<Node>) -> Type {
        Type(node)
    }

    pub(crate) fn node(&self) -> &Arc<Node> {
        &self.0
    }

    pub(crate) fn node_mut(&mut self) -> &mut Arc<Node> {
        &mut self.0
    }

    /// The group this node belongs to.
    pub(crate) fn group(&self) -> Option<&Arc<Group>> {
        self.0.group.as_ref()
    }

    /// The kind of this type, for pattern matching.
    pub fn kind(&self) -> &TypeKind {
        &self.0.kind
    }

    /// Identity of the underlying allocation (used for memo keys).
    pub(crate) fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as *const () as usize
    }

    /// Whether another handle to this node exists. A walk can meet a node
    /// twice only through two handles, so walks memoise only shared nodes
    /// (a node with one handle is reached once per visit of its parent).
    pub(crate) fn is_shared(&self) -> bool {
        Arc::strong_count(&self.0) > 1
    }

    /// True when both handles point at the same allocation.
    pub fn ptr_eq(&self, other: &Type) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// A weak handle to this type, for caches that must not keep it alive.
    pub fn weak(&self) -> WeakType {
        WeakType(Arc::downgrade(&self.0))
    }

    /// A weak handle to this node (for caches that must not keep it alive).
    pub(crate) fn downgrade(&self) -> std::sync::Weak<Node> {
        Arc::downgrade(&self.0)
    }

    /// The node behind a weak handle, if it is still alive (a node whose
    /// group was freed is not, although its allocation may still be).
    pub(crate) fn upgrade(w: &std::sync::Weak<Node>) -> Option<Type> {
        let node = w.upgrade()?;
        match &node.group {
            Some(g) if !g.acquire() => None,
            _ => Some(Type(node)),
        }
    }

    /// A named opaque type. Do not use it for the builtins.
    pub fn opaque(name: impl Into<Arc<str>>) -> Type {
        Type::from_kind(TypeKind::Opaque(name.into()))
    }

    pub fn list(element: Type) -> Type {
        Type::from_kind(TypeKind::List(element))
    }

    pub fn map(element: Type) -> Type {
        Type::from_kind(TypeKind::Map(element))
    }

    pub fn set(element: Type) -> Type {
        Type::from_kind(TypeKind::Set(element))
    }

    pub fn tuple(elements: impl IntoIterator<Item = Type>) -> Type {
        Type::from_kind(TypeKind::Tuple(elements.into_iter().collect()))
    }

    /// `promise(E)`: every promise inside `E` is stripped (types.md §1.9).
    pub fn promise(element: Type) -> Type {
        Type::from_kind(TypeKind::Promise(resolve_promises(&element)))
    }

    /// `output(E)`: every output and promise inside `E` is stripped.
    pub fn output(element: Type) -> Type {
        Type::from_kind(TypeKind::Output(resolve_outputs(&element)))
    }

    /// `output(E)` for an `E` that holds no outputs or promises (such as a
    /// result of [`resolve_outputs`](crate::resolve_outputs)): the same type
    /// as [`Type::output`] builds, without searching `E` again.
    pub fn output_of_resolved(element: Type) -> Type {
        debug_assert!(!crate::eventual::contains_outputs(&element));
        debug_assert!(!crate::eventual::contains_promises(&element));
        Type::from_kind(TypeKind::Output(element))
    }

    /// `NewUnionType`: flatten, sort by `String()`, deduplicate adjacent equal
    /// elements, collapse a singleton. Annotations of union arguments are
    /// inherited.
    pub fn union(elements: impl IntoIterator<Item = Type>) -> Type {
        let elements: Vec<Type> = elements.into_iter().collect();
        let mut annotations = Annotations::none();
        for e in &elements {
            if let TypeKind::Union(u) = e.kind() {
                if !u.annotations.is_empty() {
                    annotations = annotations.concat(&u.annotations);
                }
            }
        }
        normalise_union(elements, annotations)
    }

    /// `NewUnionTypeAnnotated`: like [`Type::union`] with explicit annotations.
    pub fn union_annotated(
        elements: impl IntoIterator<Item = Type>,
        annotations: Annotations,
    ) -> Type {
        normalise_union(elements.into_iter().collect(), annotations)
    }

    /// A union with exactly these elements in this order, without
    /// normalisation. Only for the notation reader and for tests that need a
    /// raw construction; everything else must use [`Type::union`].
    pub fn union_raw(elements: Vec<Type>, annotations: Annotations) -> Type {
        Type::from_kind(TypeKind::Union(UnionType {
            elements: elements.into(),
            annotations,
        }))
    }

    /// `optional(T) = union(T, none)`.
    pub fn optional(t: Type) -> Type {
        if t.as_union().is_some() {
            return Type::union([t, Type::none()]);
        }
        crate::union::normalise_pair(t, Type::none(), Annotations::none())
    }

    /// A union with exactly these (already normalised) elements.
    pub(crate) fn union_of(elements: Arc<[Type]>, annotations: Annotations) -> Type {
        Type::from_kind(TypeKind::Union(UnionType {
            elements,
            annotations,
        }))
    }

    /// A strict, unannotated object type.
    pub fn object(props: impl IntoIterator<Item = (impl Into<Arc<str>>, Type)>) -> Type {
        Type::object_with(props, ObjectOptions::default())
    }

    /// An object type with annotations / strictness / a schema name.
    pub fn object_with(
        props: impl IntoIterator<Item = (impl Into<Arc<str>>, Type)>,
        opts: ObjectOptions,
    ) -> Type {
        // Not collected: a collection reserves room for every pair it is
        // given, and an object construction that repeats one key (`{a = 1,
        // a = 1, …}`) would build a table sized for all of its pairs for
        // one property. Room for the pairs (as many as the iterator may
        // give), but at most `PRESIZE`, is reserved; the table
        // grows from there, and is shrunk when duplicates left it mostly
        // empty.
        const PRESIZE: usize = 1024;
        let pairs = props.into_iter();
        let mut props = Properties::default();
        let (lower, upper) = pairs.size_hint();
        props.reserve(upper.unwrap_or(lower).min(PRESIZE));
        for (k, v) in pairs {
            props.insert(k.into(), v);
        }
        if props.capacity() / 2 > props.len() {
            props.shrink_to_fit();
        }
        let group = group::current().or_else(|| props.values().find_map(|v| v.group().cloned()));
        let def = ObjectDef::new(Some(props), opts, group.clone());
        Type::in_group(TypeKind::Object(Arc::new(def)), group)
    }

    /// An object type whose properties are supplied later with
    /// [`Type::define_object`]; this is how recursive schema types are built.
    ///
    /// The object joins the group of the current scope, or starts a group
    /// of its own: nodes built later with it as their first grouped
    /// element join that group (see [`crate::group`]), so that the cycle
    /// its definition closes is freed with it.
    pub fn deferred_object(opts: ObjectOptions) -> Type {
        let group = Some(group::current().unwrap_or_else(Group::new));
        let def = ObjectDef::new(None, opts, group.clone());
        Type::in_group(TypeKind::Object(Arc::new(def)), group)
    }

    /// An object type whose properties `definer` computes on first use
    /// (see [`crate::object`] for the rules: forcing never blocks or
    /// re-enters, and `None` means "not yet").
    pub fn lazy_object(
        opts: ObjectOptions,
        definer: impl Fn() -> Option<Properties> + Send + Sync + 'static,
    ) -> Type {
        Type::lazy_object_with(
            crate::object::Pending::Definer(Arc::new(definer)),
            opts,
            None,
        )
    }

    ///
    /// A view joins its source's group; any other lazy object joins the
    /// group of the current scope, or starts a group of its own.
    pub(crate) fn lazy_object_with(
        definer: crate::object::Pending,
        opts: ObjectOptions,
        view_of: Option<crate::object::View>,
    ) -> Type {
        let group = match &definer {
            crate::object::Pending::View(src, _) => src.group().cloned(),
            crate::object::Pending::Definer(_) => group::current(),
        };
        let group = Some(group.unwrap_or_else(Group::new));
        let def = ObjectDef::new_lazy(definer, opts, view_of, group.clone());
        Type::in_group(TypeKind::Object(Arc::new(def)), group)
    }

    /// Sets the properties of a deferred object. Returns false if `self` is
    /// not an object or its properties were already set.
    pub fn define_object(
        &self,
        props: impl IntoIterator<Item = (impl Into<Arc<str>>, Type)>,
    ) -> bool {
        match self.kind() {
            TypeKind::Object(def) => {
                def.define(props.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }
            _ => false,
        }
    }

    /// `const(T, v)`: the singleton type of a literal.
    pub fn constant(underlying: Type, value: Value) -> Type {
        Type::from_kind(TypeKind::Const(ConstType { underlying, value }))
    }

    /// The type the binder gives a literal value (types.md §1.10): `null` →
    /// `none`; integers within int32 → `int`; other numbers → `number`.
    /// The literal expression's type is `const(literal_value_type(v), v)`.
    pub fn literal_value_type(v: &Value) -> Type {
        match v {
            Value::Null => Type::none(),
            Value::Bool(_) => Type::bool(),
            Value::String(_) => Type::string(),
            Value::Number(n) if n.fits_int32() => Type::int(),
            Value::Number(_) => Type::number(),
            Value::Unknown => Type::dynamic(),
            Value::List(_) => Type::list(Type::number()),
        }
    }

    /// The const type of a literal value.
    pub fn literal(v: Value) -> Type {
        Type::constant(Type::literal_value_type(&v), v)
    }

    /// An enum type. Requires at least one value, all of the same kind.
    pub fn enumeration(
        token: impl Into<Arc<str>>,
        underlying: Type,
        values: Vec<Value>,
        annotations: Annotations,
    ) -> Result<Type, EnumError> {
        let first = values.first().ok_or(EnumError::NoValues)?;
        let same = |v: &Value| std::mem::discriminant(v) == std::mem::discriminant(first);
        if !values.iter().all(same) {
            return Err(EnumError::MixedValueKinds);
        }
        Ok(Type::from_kind(TypeKind::Enum(EnumType {
            token: token.into(),
            underlying,
            values: values.into(),
            annotations,
        })))
    }

    // ---- predicates and accessors -------------------------------------------------------

    pub fn is_none(&self) -> bool {
        matches!(self.kind(), TypeKind::None)
    }
    pub fn is_dynamic(&self) -> bool {
        matches!(self.kind(), TypeKind::Dynamic)
    }
    pub fn as_union(&self) -> Option<&UnionType> {
        match self.kind() {
            TypeKind::Union(u) => Some(u),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&ObjectDef> {
        match self.kind() {
            TypeKind::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_const(&self) -> Option<&ConstType> {
        match self.kind() {
            TypeKind::Const(c) => Some(c),
            _ => None,
        }
    }
    pub fn as_enum(&self) -> Option<&EnumType> {
        match self.kind() {
            TypeKind::Enum(e) => Some(e),
            _ => None,
        }
    }
    /// The element of a list/map/set/promise/output.
    pub fn element(&self) -> Option<&Type> {
        match self.kind() {
            TypeKind::List(e)
            | TypeKind::Map(e)
            | TypeKind::Set(e)
            | TypeKind::Promise(e)
            | TypeKind::Output(e) => Some(e),
            _ => None,
        }
    }
    /// Annotations of an object, union or enum.
    pub fn annotations(&self) -> Annotations {
        match self.kind() {
            TypeKind::Object(o) => o.annotations().clone(),
            TypeKind::Union(u) => u.annotations.clone(),
            TypeKind::Enum(e) => e.annotations.clone(),
            _ => Annotations::none(),
        }
    }

    /// The name of a builtin or opaque type (`bool` is named `boolean`).
    pub fn opaque_name(&self) -> Option<&str> {
        Some(match self.kind() {
            TypeKind::Bool => "boolean",
            TypeKind::Int => "int",
            TypeKind::Number => "number",
            TypeKind::String => "string",
            TypeKind::Id => "id",
            TypeKind::Dynamic => "dynamic",
            TypeKind::Opaque(n) => n,
            _ => return None,
        })
    }

    /// `Equals` (types.md §1.13).
    pub fn equals(&self, other: &Type) -> bool {
        self.ptr_eq(other) || (same_kind(self, other) && equal_in(self, other, &mut Vec::new(), 0))
    }
}

/// Whether two types may be equal by their kinds alone: types of different
/// kinds are never equal, except a named opaque type and the builtin of
/// that name (`opaque("boolean")` is `bool`). What the callers of
/// [`equal_in`] that compare many pairs, most of them of different
/// kinds, check first without a call.
#[inline]
pub(crate) fn same_kind(a: &Type, b: &Type) -> bool {
    let opaque = |t: &Type| matches!(t.kind(), TypeKind::Opaque(_));
    std::mem::discriminant(a.kind()) == std::mem::discriminant(b.kind()) || opaque(a) || opaque(b)
}

/// Structural equality with a coinductive guard for object pairs.
pub(crate) fn equal_in(a: &Type, b: &Type, stack: &mut Vec<(usize, usize)>, depth: usize) -> bool {
    if a.ptr_eq(b) {
        return true;
    }
    if depth > MAX_TYPE_DEPTH {
        return false;
    }
    use TypeKind as K;
    match (a.kind(), b.kind()) {
        (K::None, K::None) => true,
        (K::List(x), K::List(y))
        | (K::Map(x), K::Map(y))
        | (K::Set(x), K::Set(y))
        | (K::Promise(x), K::Promise(y))
        | (K::Output(x), K::Output(y)) => equal_in(x, y, stack, depth + 1),
        (K::Tuple(x), K::Tuple(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| equal_in(p, q, stack, depth + 1))
        }
        (K::Union(x), K::Union(y)) => {
            x.elements.len() == y.elements.len()
                && x.elements
                    .iter()
                    .zip(y.elements.iter())
                    .all(|(p, q)| equal_in(p, q, stack, depth + 1))
        }
        (K::Object(x), K::Object(y)) => {
            let key = (a.addr(), b.addr());
            if stack.contains(&key) {
                return true;
            }
            let (px, py) = (x.properties(), y.properties());
            if px.len() != py.len() {
                return false;
            }
            stack.push(key);
            let res = px
                .iter()
                .all(|(k, t)| py.get(k).is_some_and(|u| equal_in(t, u, stack, depth + 1)));
            stack.pop();
            res
        }
        (K::Const(x), K::Const(y)) => {
            x.value == y.value && equal_in(&x.underlying, &y.underlying, stack, depth + 1)
        }
        (K::Enum(x), K::Enum(y)) => x.token == y.token,
        _ => match (a.opaque_name(), b.opaque_name()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        self.equals(other)
    }
}

impl Eq for Type {}

/// How deep hashing descends; deeper structure is ignored (equal types still
/// hash equally, and hashing stays cheap on large shared graphs).
const HASH_DEPTH: usize = 4;
/// How many children of one node hashing looks at.
const HASH_WIDTH: usize = 8;

fn hash_in<H: Hasher>(t: &Type, state: &mut H, depth: usize) {
    if let Some(name) = t.opaque_name() {
        0u8.hash(state);
        name.hash(state);
        return;
    }
    use TypeKind as K;
    let tag: u8 = match t.kind() {
        K::None => 1,
        K::List(_) => 2,
        K::Map(_) => 3,
        K::Set(_) => 4,
        K::Tuple(_) => 5,
        K::Object(_) => 6,
        K::Union(_) => 7,
        K::Promise(_) => 8,
        K::Output(_) => 9,
        K::Const(_) => 10,
        K::Enum(_) => 11,
        _ => 12,
    };
    tag.hash(state);
    if depth >= HASH_DEPTH {
        return;
    }
    match t.kind() {
        K::List(e) | K::Map(e) | K::Set(e) | K::Promise(e) | K::Output(e) => {
            hash_in(e, state, depth + 1)
        }
        K::Tuple(es) => {
            es.len().hash(state);
            es.iter()
                .take(HASH_WIDTH)
                .for_each(|e| hash_in(e, state, depth + 1));
        }
        K::Union(u) => {
            u.elements.len().hash(state);
            u.elements
                .iter()
                .take(HASH_WIDTH)
                .for_each(|e| hash_in(e, state, depth + 1));
        }
        // Objects may be defined after they were hashed into a container, so
        // only their kind takes part.
        K::Object(_) => {}
        K::Const(c) => c.value.hash(state),
        K::Enum(e) => e.token.hash(state),
        _ => {}
    }
}

impl Hash for Type {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_in(self, state, 0);
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::notation::to_notation(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_shared_and_distinct() {
        assert!(Type::bool().ptr_eq(&Type::bool()));
        assert_ne!(Type::bool(), Type::int());
        assert_eq!(Type::opaque("boolean"), Type::bool());
        assert_eq!(Type::string(), Type::opaque("string"));
        assert!(Type::list(Type::opaque("int")).equals(&Type::list(Type::int())));
        assert_ne!(Type::opaque("x"), Type::opaque("y"));
    }

    #[test]
    fn repeated_keys_leave_a_table_for_the_distinct_ones() {
        // 100,000 pairs of two keys: a repeated key keeps its first
        // position and its last value, and the table is sized for two
        // properties, not for every pair.
        let pairs = (0..100_000).map(|i| {
            let key = if i % 2 == 0 { "a" } else { "b" };
            (
                key,
                if i < 99_998 {
                    Type::int()
                } else {
                    Type::string()
                },
            )
        });
        let t = Type::object(pairs);
        let props = t.as_object().map(|o| o.properties());
        let props = props.as_deref();
        let keys: Vec<&str> = props.iter().flat_map(|p| p.keys()).map(|k| &**k).collect();
        assert_eq!(keys, ["a", "b"]);
        assert!(props.is_some_and(|p| p.values().all(|v| *v == Type::string())));
        assert!(
            props.is_some_and(|p| p.capacity() < 64),
            "{:?}",
            props.map(|p| p.capacity())
        );
    }

    #[test]
    fn object_equality_ignores_order_and_strict() {
        let a = Type::object([("a", Type::int()), ("b", Type::string())]);
        let b = Type::object_with(
            [("b", Type::string()), ("a", Type::int())],
            ObjectOptions {
                strict: false,
                ..ObjectOptions::default()
            },
        );
        assert_eq!(a, b);
        assert_ne!(a, Type::object([("a", Type::int())]));
    }

    #[test]
    fn recursive_objects_compare_coinductively() {
        let mk = || {
            let o = Type::deferred_object(ObjectOptions::default());
            assert!(o.define_object([("a", Type::optional(o.clone()))]));
            o
        };
        assert_eq!(mk(), mk());
        assert!(!mk().define_object([("b", Type::int())]));
    }

    #[test]
    fn enum_requires_values() {
        assert_eq!(
            Type::enumeration("t", Type::string(), vec![], Annotations::none()).err(),
            Some(EnumError::NoValues)
        );
        assert_eq!(
            Type::enumeration(
                "t",
                Type::string(),
                vec![Value::string("a"), Value::Bool(true)],
                Annotations::none()
            )
            .err(),
            Some(EnumError::MixedValueKinds)
        );
    }
}
