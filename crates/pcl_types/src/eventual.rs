//! Eventual types (outputs and promises): resolving them, searching for
//! them, `InputType`, lifting an operation's result over eventual
//! arguments, and the iteration helpers (types.md §5.2–5.6).
//!
//! Every walk here is cycle-safe (objects on the current path are not
//! re-entered; rebuilt recursive objects are rebuilt recursively) and stops
//! at [`MAX_TYPE_DEPTH`]. [`InputTypeMemo`] remembers `InputType` answers
//! by type identity for a checker that asks about the same types again.

use foldhash::HashMap;
use std::sync::OnceLock;

use crate::error::{codes, TypeDiagnostic};
use crate::object::{Properties, View};
use crate::ty::{Type, TypeKind};
use crate::unify::unify_types_safe;
use crate::MAX_TYPE_DEPTH;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Want {
    outputs: bool,
    promises: bool,
}

struct Search {
    want: Want,
    stack: Vec<usize>,
    memo: HashMap<usize, bool>,
    hit_cycle: bool,
    /// Memoise every node, not only shared ones: a [`Resolver`] asks again
    /// for each node it rebuilds.
    memo_unshared: bool,
    /// Answer "maybe" for a lazy object instead of defining it: a
    /// [`Resolver`] rebuilds a lazy object as a lazy view anyway.
    lazy_maybe: bool,
}

fn contains(t: &Type, s: &mut Search, depth: usize) -> bool {
    if depth > MAX_TYPE_DEPTH {
        return false;
    }
    match t.kind() {
        TypeKind::Output(_) if s.want.outputs => return true,
        TypeKind::Promise(_) if s.want.promises => return true,
        kind if !kind.has_elements() => return false,
        _ => {}
    }
    // Only a shared node can be met again in this walk (see
    // `Type::is_shared`); the others are not worth a memo entry.
    let memoise = s.memo_unshared || t.is_shared();
    if memoise {
        if let Some(v) = s.memo.get(&t.addr()) {
            return *v;
        }
    }
    let res = match t.kind() {
        TypeKind::Output(_) if s.want.outputs => true,
        TypeKind::Promise(_) if s.want.promises => true,
        TypeKind::Output(e)
        | TypeKind::Promise(e)
        | TypeKind::List(e)
        | TypeKind::Map(e)
        | TypeKind::Set(e) => contains(e, s, depth + 1),
        TypeKind::Tuple(es) => es.iter().any(|e| contains(e, s, depth + 1)),
        TypeKind::Union(u) => u.elements().iter().any(|e| contains(e, s, depth + 1)),
        TypeKind::Object(o) if s.lazy_maybe && o.is_lazy() => true,
        TypeKind::Object(o) => {
            let addr = t.addr();
            if s.stack.contains(&addr) {
                s.hit_cycle = true;
                return false;
            }
            s.stack.push(addr);
            let r = o.properties().values().any(|p| contains(p, s, depth + 1));
            s.stack.pop();
            r
        }
        _ => false,
    };
    if memoise && (res || !s.hit_cycle) {
        s.memo.insert(t.addr(), res);
    }
    res
}

fn search(t: &Type, want: Want) -> bool {
    // What `contains` decides at the root without looking inside (the
    // common case: a leaf, a const or an enum, an eventual), answered
    // without setting up a walk.
    match t.kind() {
        TypeKind::Output(_) if want.outputs => return true,
        TypeKind::Promise(_) if want.promises => return true,
        TypeKind::Const(_) | TypeKind::Enum(_) => return false,
        kind if !kind.has_elements() => return false,
        _ => {}
    }
    contains(
        t,
        &mut Search {
            want,
            stack: Vec::new(),
            memo: HashMap::default(),
            hit_cycle: false,
            memo_unshared: false,
            lazy_maybe: false,
        },
        0,
    )
}

/// `ContainsOutputs(T)`.
pub fn contains_outputs(t: &Type) -> bool {
    search(
        t,
        Want {
            outputs: true,
            promises: false,
        },
    )
}

/// `ContainsPromises(T)`.
pub fn contains_promises(t: &Type) -> bool {
    search(
        t,
        Want {
            outputs: false,
            promises: true,
        },
    )
}

/// `ContainsEventuals(T)`: (contains outputs, contains promises).
pub fn contains_eventuals(t: &Type) -> (bool, bool) {
    (contains_outputs(t), contains_promises(t))
}

/// What a [`Resolver`] rebuilds a type for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// `ResolveOutputs`: outputs and promises replaced by their elements.
    ResolveOutputs,
    /// `ResolvePromises`: promises replaced by their elements.
    ResolvePromises,
    /// Outputs kept, each with its element normalised (no eventuals); see
    /// [`renormalise_outputs`].
    RenormaliseOutputs,
}

/// Rebuilds the parts of a type that hold the eventuals its [`Goal`] is
/// about; shared by the resolutions and the output re-normalisation.
struct Resolver {
    goal: Goal,
    search: Search,
    rebuilt: HashMap<usize, Type>,
    keep: Vec<Type>,
}

fn resolve_in(t: &Type, r: &mut Resolver, depth: usize) -> Type {
    if depth > MAX_TYPE_DEPTH {
        return t.clone();
    }
    if let TypeKind::Object(o) = t.kind() {
        if o.is_lazy() {
            // Rebuilt lazily, one level at a time; a lazy object holds
            // only types built by the normalising constructors, so it
            // needs no re-normalisation.
            return match r.goal {
                Goal::ResolveOutputs => o.view(t, View::ResolveOutputs, resolve_outputs),
                Goal::ResolvePromises => o.view(t, View::ResolvePromises, resolve_promises),
                Goal::RenormaliseOutputs => t.clone(),
            };
        }
    }
    if !contains(t, &mut r.search, depth) {
        return t.clone();
    }
    if let Some(done) = r.rebuilt.get(&t.addr()) {
        return done.clone();
    }
    let res = match t.kind() {
        TypeKind::Output(e) => match r.goal {
            Goal::ResolveOutputs => resolve_in(e, r, depth + 1),
            Goal::ResolvePromises => t.clone(),
            Goal::RenormaliseOutputs => Type::from_kind(TypeKind::Output(resolve_outputs(e))),
        },
        TypeKind::Promise(e) => match r.goal {
            Goal::RenormaliseOutputs => Type::promise(resolve_in(e, r, depth + 1)),
            Goal::ResolveOutputs | Goal::ResolvePromises => resolve_in(e, r, depth + 1),
        },
        TypeKind::List(e) => Type::list(resolve_in(e, r, depth + 1)),
        TypeKind::Map(e) => Type::map(resolve_in(e, r, depth + 1)),
        TypeKind::Set(e) => Type::set(resolve_in(e, r, depth + 1)),
        TypeKind::Tuple(es) => Type::tuple(
            es.iter()
                .map(|e| resolve_in(e, r, depth + 1))
                .collect::<Vec<_>>(),
        ),
        TypeKind::Union(u) => {
            let es: Vec<Type> = u
                .elements()
                .iter()
                .map(|e| resolve_in(e, r, depth + 1))
                .collect();
            Type::union_annotated(es, u.annotations().clone())
        }
        TypeKind::Object(o) => {
            if let Some(done) = r.rebuilt.get(&t.addr()) {
                return done.clone();
            }
            // The rebuilt objects of one walk share a group (they may
            // form cycles among themselves).
            crate::group::within_some(|| {
                let new = Type::deferred_object(o.options());
                r.rebuilt.insert(t.addr(), new.clone());
                let props: Properties = o
                    .properties()
                    .iter()
                    .map(|(k, v)| (k.clone(), resolve_in(v, r, depth + 1)))
                    .collect();
                new.define_object(props);
                new
            })
        }
        _ => t.clone(),
    };
    // keep `t` alive with its result so its address stays unique
    r.keep.push(t.clone());
    r.rebuilt.insert(t.addr(), res.clone());
    res
}

impl Resolver {
    fn new(goal: Goal) -> Resolver {
        Resolver {
            goal,
            search: Search {
                want: Want {
                    outputs: goal != Goal::ResolvePromises,
                    promises: goal != Goal::RenormaliseOutputs,
                },
                stack: Vec::new(),
                memo: HashMap::default(),
                hit_cycle: false,
                memo_unshared: true,
                lazy_maybe: true,
            },
            rebuilt: HashMap::default(),
            keep: Vec::new(),
        }
    }
}

fn resolve(t: &Type, goal: Goal) -> Type {
    // A root that holds no eventual by its kind (a leaf, a const or an enum:
    // what `resolve_in` returns unchanged after its search answers no at
    // the root) needs no resolver.
    match t.kind() {
        TypeKind::Const(_) | TypeKind::Enum(_) => return t.clone(),
        kind if !kind.has_elements() => return t.clone(),
        _ => {}
    }
    resolve_in(t, &mut Resolver::new(goal), 0)
}

/// `ResolveOutputs(T)`: every output and promise replaced by its element.
/// Returns `T` itself when it contains neither (a lazy object inside `T`
/// is not searched: it is replaced by its lazy resolution view).
pub fn resolve_outputs(t: &Type) -> Type {
    resolve(t, Goal::ResolveOutputs)
}

/// `ResolvePromises(T)`: every promise replaced by its element; outputs kept.
pub fn resolve_promises(t: &Type) -> Type {
    resolve(t, Goal::ResolvePromises)
}

/// `InputType(T)`: what may be passed where `T` is expected (types.md §5.3).
pub fn input_type(t: &Type) -> Type {
    input_type_complete(t).0
}

/// `InputType` of a builtin primitive, built once per process (checkers
/// ask for `InputType(bool)`, `InputType(string)`, … for every condition,
/// key and index).
fn builtin_input_type(t: &Type) -> Option<Type> {
    static SLOTS: [OnceLock<Type>; 5] = [const { OnceLock::new() }; 5];
    let (slot, primitive): (usize, fn() -> Type) = match t.kind() {
        TypeKind::Bool => (0, Type::bool),
        TypeKind::Int => (1, Type::int),
        TypeKind::Number => (2, Type::number),
        TypeKind::String => (3, Type::string),
        TypeKind::Id => (4, Type::id),
        _ => return None,
    };
    let built = SLOTS
        .get(slot)?
        .get_or_init(|| input_uncached(&primitive(), &mut Seen::default(), 0));
    Some(built.clone())
}

/// `InputType(T)`, and whether every object it reached was defined (so the
/// result can never change for this `T`).
fn input_type_complete(t: &Type) -> (Type, bool) {
    if let Some(res) = builtin_input_type(t) {
        return (res, true);
    }
    let mut seen = Seen::default();
    let res = input_in(t, &mut seen, 0);
    let res = if seen.revisited_object {
        // Some `output(…)` was built while an object it reaches was still
        // being defined, so its element could not be normalised then.
        renormalise_outputs(&res)
    } else {
        res
    };
    (res, !seen.undefined_object)
}

/// [`input_type`] remembered per type *identity*: a checker asks for the
/// input type of the same parameter, property or option type many times
/// (every call of a function, every assignment of an option), and the
/// answer for a big schema object is a rebuilt copy of the whole object.
///
/// The memo keeps every type it was asked about alive, so an address is
/// never reused for another type while it is a key; a type that reaches a
/// deferred object not yet defined is not remembered (its answer may still
/// change). Keyed by identity, not structure: structurally equal types may
/// differ in annotations and names, which the answer keeps. The answer is
/// the one [`input_type`] gives, shared instead of rebuilt.
#[derive(Default)]
pub struct InputTypeMemo {
    done: HashMap<usize, (Type, Type)>,
}

impl InputTypeMemo {
    pub fn new() -> InputTypeMemo {
        InputTypeMemo::default()
    }

    /// `InputType(t)`, computed once per `t`.
    pub fn input_type(&mut self, t: &Type) -> Type {
        if let Some((_, res)) = self.done.get(&t.addr()) {
            return res.clone();
        }
        let (res, complete) = input_type_complete(t);
        if complete {
            self.done.insert(t.addr(), (t.clone(), res.clone()));
        }
        res
    }
}

/// `InputType`'s memo: rebuilt types by address, whether an object was
/// met again (a cycle or a shared object), and whether an object was met
/// before its properties were defined.
///
/// `resolved` resolves the `output(…)` elements the walk builds: each
/// `output(S)` needs `S` resolved, and `S` holds the walk's earlier
/// results, so one resolver shared by the whole walk resolves every node
/// once instead of once per enclosing `output` (a fresh resolution per
/// `output` is quadratic in the depth of a big schema object). Sharing
/// is exact only while every node built so far is final and shallow: it
/// stops for the rest of the walk once an object is met again (its copy
/// may still be undefined) or the walk goes deeper than
/// [`SHARED_RESOLVE_DEPTH`] (a fresh resolution would stop at
/// [`MAX_TYPE_DEPTH`] somewhere else).
#[derive(Default)]
struct Seen {
    done: HashMap<usize, Type>,
    revisited_object: bool,
    undefined_object: bool,
    deep: bool,
    resolved: Option<Resolver>,
}

/// Walk depth past which [`Seen`]'s shared resolver is no longer used: a
/// level of `InputType` adds at most three levels to the built type
/// (`union`, `output`, the node itself), so the built type of a walk that
/// stays above this depth is shallower than [`MAX_TYPE_DEPTH`] and no
/// resolution of it is cut short.
const SHARED_RESOLVE_DEPTH: usize = MAX_TYPE_DEPTH / 4;

impl Seen {
    /// `output(src)` for a `src` this walk built.
    fn output(&mut self, src: Type) -> Type {
        if self.revisited_object || self.deep {
            return Type::output(src);
        }
        let r = self
            .resolved
            .get_or_insert_with(|| Resolver::new(Goal::ResolveOutputs));
        Type::from_kind(TypeKind::Output(resolve_in(&src, r, 0)))
    }
}

/// Rebuilds `t` so that the element of every `output` is normalised (holds
/// no eventuals), as [`Type::output`] makes it for complete types.
///
/// `InputType` of a recursive object wraps parts of the object in `output`
/// before the object's properties are defined; those outputs keep
/// unresolved eventuals that a fresh construction of the same type (for
/// example reading its notation back) would strip. Resolving the original,
/// now complete, elements afterwards gives the normal form.
fn renormalise_outputs(t: &Type) -> Type {
    resolve(t, Goal::RenormaliseOutputs)
}

fn input_in(t: &Type, seen: &mut Seen, depth: usize) -> Type {
    if depth > MAX_TYPE_DEPTH {
        return t.clone();
    }
    seen.deep |= depth > SHARED_RESOLVE_DEPTH;
    if !matches!(t.kind(), TypeKind::Object(_)) {
        if let Some(done) = seen.done.get(&t.addr()) {
            return done.clone();
        }
        let res = input_uncached(t, seen, depth);
        seen.done.insert(t.addr(), res.clone());
        return res;
    }
    input_uncached(t, seen, depth)
}

fn input_uncached(t: &Type, seen: &mut Seen, depth: usize) -> Type {
    let src = match t.kind() {
        TypeKind::Dynamic | TypeKind::None | TypeKind::Output(_) => return t.clone(),
        TypeKind::Promise(e) => Type::promise(input_in(e, seen, depth + 1)),
        TypeKind::Map(e) => Type::map(input_in(e, seen, depth + 1)),
        TypeKind::List(e) => Type::list(input_in(e, seen, depth + 1)),
        TypeKind::Union(u) => {
            let es: Vec<Type> = u
                .elements()
                .iter()
                .map(|e| input_in(e, seen, depth + 1))
                .collect();
            Type::union_annotated(es, u.annotations().clone())
        }
        TypeKind::Object(o) => {
            if let Some(done) = seen.done.get(&t.addr()) {
                seen.revisited_object = true;
                return done.clone();
            }
            seen.undefined_object |= !o.is_defined();
            crate::group::within_some(|| {
                let new = Type::deferred_object(o.options());
                seen.done.insert(t.addr(), new.clone());
                let props: Properties = o
                    .properties()
                    .iter()
                    .map(|(k, v)| (k.clone(), input_in(v, seen, depth + 1)))
                    .collect();
                new.define_object(props);
                new
            })
        }
        _ => t.clone(),
    };
    let output = seen.output(src.clone());
    Type::union([src, output])
}

/// `IsOptionalType(T)`: not dynamic, and assignable from `none`.
pub fn is_optional(t: &Type) -> bool {
    !t.is_dynamic() && crate::conversion::assignable_from(t, &Type::none())
}

/// pcl's `UnwrapOption(T)`: the other element of a two-element union with
/// `none`; otherwise `T`.
pub fn unwrap_option(t: &Type) -> Type {
    if let Some(u) = t.as_union() {
        if let [a, b] = u.elements() {
            if a.is_none() {
                return b.clone();
            }
            if b.is_none() {
                return a.clone();
            }
        }
    }
    t.clone()
}

/// `IsConstType(T)`: a const, or a union of only consts.
pub fn is_const_type(t: &Type) -> bool {
    match t.kind() {
        TypeKind::Const(_) => true,
        TypeKind::Union(u) => u
            .elements()
            .iter()
            .all(|e| matches!(e.kind(), TypeKind::Const(_))),
        _ => false,
    }
}

/// The eventual wrapper an operation's result gets (types.md §5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lift {
    None,
    Promise,
    Output,
}

/// The strongest eventual reachable in `t`.
pub fn eventual_of(t: &Type) -> Lift {
    // At the root, what both searches would answer at once (the common
    // case: a leaf, a const or an enum, an output).
    match t.kind() {
        TypeKind::Output(_) => return Lift::Output,
        TypeKind::Const(_) | TypeKind::Enum(_) => return Lift::None,
        kind if !kind.has_elements() => return Lift::None,
        _ => {}
    }
    if contains_outputs(t) {
        Lift::Output
    } else if contains_promises(t) {
        Lift::Promise
    } else {
        Lift::None
    }
}

/// `liftOperationType(result, args...)`.
pub fn lift_operation_type<'a>(result: &Type, args: impl IntoIterator<Item = &'a Type>) -> Type {
    let lift = args
        .into_iter()
        .map(eventual_of)
        .max()
        .unwrap_or(Lift::None);
    match lift {
        Lift::None => result.clone(),
        Lift::Promise => Type::promise(result.clone()),
        Lift::Output => Type::output(result.clone()),
    }
}

/// `unwrapIterableSourceType(T)`: strips outputs, promises and optional
/// layers (types.md §5.5).
pub fn unwrap_iterable_source_type(t: &Type) -> Type {
    let mut cur = t.clone();
    for _ in 0..=MAX_TYPE_DEPTH {
        let next = match cur.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => e.clone(),
            TypeKind::Union(u) if u.elements().len() == 2 && u.has_none() => unwrap_option(&cur),
            _ => return cur,
        };
        cur = next;
    }
    cur
}

/// `wrapIterableResultType(source, result)`: re-applies the source's outer
/// output/promise layers (not through optional layers — defect
/// `eventual-lost-through-optional`, replicated).
pub fn wrap_iterable_result_type(source: &Type, result: &Type) -> Type {
    let mut out = result.clone();
    let mut cur = source.clone();
    for _ in 0..=MAX_TYPE_DEPTH {
        let next = match cur.kind() {
            TypeKind::Output(e) => {
                out = Type::output(out);
                e.clone()
            }
            TypeKind::Promise(e) => {
                out = Type::promise(out);
                e.clone()
            }
            _ => break,
        };
        cur = next;
    }
    out
}

/// Key and value types for iterating over (or indexing) a collection.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectionTypes {
    pub key: Type,
    pub value: Type,
    pub diagnostics: Vec<TypeDiagnostic>,
}

/// `GetCollectionTypes(T, strict)` (types.md §5.6).
pub fn collection_types(t: &Type, strict: bool) -> CollectionTypes {
    let src = unwrap_iterable_source_type(t);
    let ok = |key: Type, value: Type| CollectionTypes {
        key,
        value,
        diagnostics: Vec::new(),
    };
    match src.kind() {
        TypeKind::List(e) => ok(Type::int(), e.clone()),
        TypeKind::Map(e) => ok(Type::string(), e.clone()),
        TypeKind::Tuple(es) => ok(Type::int(), unify_types_safe(es)),
        TypeKind::Object(o) => {
            let props: Vec<Type> = o.properties().values().cloned().collect();
            ok(Type::string(), unify_types_safe(&props))
        }
        TypeKind::Dynamic => ok(Type::dynamic(), Type::dynamic()),
        _ => CollectionTypes {
            key: Type::dynamic(),
            value: Type::dynamic(),
            diagnostics: vec![TypeDiagnostic::error_if(
                strict,
                codes::CANNOT_ITERATE,
                format!(
                    "cannot iterate over a value of type {}",
                    crate::print::message_type_text(&src, crate::message::MAX_TYPE_CHARS)
                ),
            )],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    /// `search` and `resolve` answer some roots without a walk; the
    /// answers must be the walk's.
    #[test]
    fn search_shortcuts_agree_with_the_walk() {
        let int = Type::int();
        let lit = Type::literal(Value::string("a"));
        let en = Type::enumeration(
            "pkg:index:E",
            Type::string(),
            vec![Value::string("a")],
            Default::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let types = [
            int.clone(),
            Type::dynamic(),
            Type::none(),
            Type::opaque("Archive"),
            lit.clone(),
            en.clone(),
            Type::output(int.clone()),
            Type::promise(int.clone()),
            Type::promise(Type::output(int.clone())),
            Type::output(lit.clone()),
            Type::list(Type::output(int.clone())),
            Type::map(Type::promise(int.clone())),
            Type::tuple([lit.clone(), Type::output(int.clone())]),
            Type::optional(Type::promise(en.clone())),
            Type::optional(lit),
            Type::tuple([en]),
        ];
        for t in &types {
            for (outputs, promises) in [(true, false), (false, true)] {
                let want = || Want { outputs, promises };
                let walked = contains(
                    t,
                    &mut Search {
                        want: want(),
                        stack: Vec::new(),
                        memo: HashMap::default(),
                        hit_cycle: false,
                        memo_unshared: false,
                        lazy_maybe: false,
                    },
                    0,
                );
                assert_eq!(search(t, want()), walked, "{t} outputs={outputs}");
            }
        }
        for t in &types {
            for goal in [
                Goal::ResolveOutputs,
                Goal::ResolvePromises,
                Goal::RenormaliseOutputs,
            ] {
                let walked = resolve_in(t, &mut Resolver::new(goal), 0);
                let got = resolve(t, goal);
                assert_eq!(crate::to_notation(&got), crate::to_notation(&walked), "{t}");
                assert_eq!(got.ptr_eq(t), walked.ptr_eq(t), "{t}");
            }
        }
        assert_eq!(
            eventual_of(&Type::promise(Type::output(int.clone()))),
            Lift::Output
        );
        assert_eq!(eventual_of(&Type::promise(int.clone())), Lift::Promise);
        assert_eq!(eventual_of(&Type::literal(Value::int(1))), Lift::None);
    }

    #[test]
    fn input_type_examples() {
        assert_eq!(
            input_type(&Type::bool()).to_string(),
            "union(bool, output(bool))"
        );
        assert_eq!(
            input_type(&Type::optional(Type::string())).to_string(),
            "union(none, output(string), output(union(none, string)), string)"
        );
        assert_eq!(
            input_type(&Type::set(Type::int())).to_string(),
            "union(output(set(int)), set(int))"
        );
    }

    #[test]
    fn input_type_of_recursive_object_is_normal() {
        // `output(…)` parts built while the recursive object was still being
        // defined must come out as a fresh construction makes them, so the
        // type survives its notation (fuzz: nested-input-type-recursive).
        for text in [
            "InputType(list(rec($O, object({t = union(map($O))}))))",
            "InputType(union(InputType(union(list(rec($O, object({t = union(map($O))})))))))",
        ] {
            let t = crate::parse_type(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let printed = crate::to_notation(&t);
            let again = crate::parse_type(&printed).unwrap_or_else(|e| panic!("{printed}: {e:?}"));
            assert_eq!(t, again, "{text} -> {printed}");
        }
        let nested = crate::parse_type(
            "InputType(union(InputType(union(list(rec($O, object({t = union(map($O))})))))))",
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        // The output of the inner object holds no eventuals any more.
        assert!(
            crate::to_notation(&nested).contains("output(map(rec($T2, object({t = map($T2)}))))")
        );
    }

    #[test]
    fn input_type_memo_answers_like_input_type() {
        let mut memo = InputTypeMemo::new();
        let list = Type::list(Type::optional(Type::string()));
        for t in [Type::bool(), Type::string(), list.clone(), list] {
            assert_eq!(
                crate::to_notation(&memo.input_type(&t)),
                crate::to_notation(&input_type(&t))
            );
        }
        // A type that reaches an object not yet defined is not remembered:
        // once the object is defined, the answer follows.
        let deferred = Type::deferred_object(crate::ObjectOptions::default());
        let holder = Type::list(deferred.clone());
        let before = memo.input_type(&holder);
        assert!(deferred.define_object([("a", Type::int())]));
        let after = memo.input_type(&holder);
        assert_ne!(crate::to_notation(&before), crate::to_notation(&after));
        assert_eq!(
            crate::to_notation(&after),
            crate::to_notation(&input_type(&holder))
        );
    }

    #[test]
    fn lift_and_wrap() {
        let out = Type::output(Type::bool());
        let prom = Type::promise(Type::int());
        assert_eq!(
            lift_operation_type(&Type::string(), [&out, &prom]).to_string(),
            "output(string)"
        );
        assert_eq!(
            lift_operation_type(&out, [&prom]).to_string(),
            "promise(output(bool))"
        );
        assert_eq!(
            lift_operation_type(&Type::int(), [&Type::dynamic()]),
            Type::int()
        );
        let src = Type::promise(Type::output(Type::list(Type::int())));
        assert_eq!(src.to_string(), "promise(output(list(int)))");
        assert_eq!(
            wrap_iterable_result_type(&src, &Type::list(Type::bool())).to_string(),
            "output(list(bool))"
        );
    }

    #[test]
    fn collections() {
        let c = collection_types(&Type::set(Type::int()), true);
        assert_eq!(c.diagnostics.len(), 1);
        assert_eq!(
            c.diagnostics[0].summary,
            "cannot iterate over a value of type set(int)"
        );
        let c = collection_types(&Type::optional(Type::output(Type::map(Type::int()))), true);
        assert_eq!((c.key, c.value), (Type::string(), Type::int()));
        let c = collection_types(&Type::tuple([]), true);
        assert_eq!(c.value, Type::none());
    }
}
