//! Unification: pairwise `a ⊔ b` (types.md §3.1–3.3) and `UnifyTypes`
//! over a list (§3.4).
//!
//! Pairwise unification is not symmetric (the left const wins, §3.2), so the
//! property test for commutativity excludes consts. Recursive object pairs
//! being unified are tracked: re-entering a pair yields the (not yet filled)
//! result object, so unifying two recursive types builds a recursive result
//! instead of looping.

use crate::conversion::{ConversionKind as CK, Engine};
use crate::eventual::resolve_outputs;
use crate::object::Properties;
use crate::ty::{equal_in, Type, TypeKind};

/// Object pairs being unified and their result placeholders.
#[derive(Default)]
pub(crate) struct UnifyState {
    in_progress: Vec<((usize, usize), Type)>,
}

/// The result of [`unify_types`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unified {
    /// Accepts every input safely (the binder's choice almost everywhere).
    pub safe: Type,
    /// May accept some inputs only unsafely.
    pub unsafe_: Type,
}

/// Pairwise unification `a ⊔ b`: the unified type and how safely it accepts
/// the inputs.
pub fn unify(a: &Type, b: &Type) -> (Type, CK) {
    Engine::new().unify(a, b)
}

/// `UnifyTypes(types...)` (types.md §3.4).
pub fn unify_types(types: &[Type]) -> Unified {
    let mut engine = Engine::new();
    let mut iter = types.iter();
    let Some(first) = iter.next() else {
        return Unified {
            safe: Type::none(),
            unsafe_: Type::none(),
        };
    };
    let (mut safe, mut unsafe_) = (first.clone(), first.clone());
    for t in iter {
        let (s, k) = engine.unify(&safe, t);
        if safe.ptr_eq(&unsafe_) {
            // Both folds are still at the same type (as long as every step
            // was safe or impossible), so both take the same step: unify it
            // once and share the result.
            (safe, unsafe_) = match k {
                CK::Safe => (s.clone(), s),
                CK::Unsafe => (Type::union([safe, t.clone()]), s),
                CK::None => {
                    let both = Type::union([safe, t.clone()]);
                    (both.clone(), both)
                }
            };
            continue;
        }
        safe = if k == CK::Safe {
            s
        } else {
            Type::union([safe, t.clone()])
        };
        let (u, k) = engine.unify(&unsafe_, t);
        unsafe_ = if k.exists() {
            u
        } else {
            Type::union([unsafe_, t.clone()])
        };
    }
    Unified { safe, unsafe_ }
}

/// `UnifyTypes(types...).safe` alone: the safe fold of [`unify_types`]
/// without computing the unsafe one.
pub fn unify_types_safe(types: &[Type]) -> Type {
    fold_unify_types(types, |k| k == CK::Safe)
}

/// `UnifyTypes(types...).unsafe_` alone: the unsafe fold of
/// [`unify_types`] without computing the safe one.
pub fn unify_types_unsafe(types: &[Type]) -> Type {
    fold_unify_types(types, CK::exists)
}

/// One fold of `UnifyTypes`: a step's unified type is kept when `keep`
/// accepts its kind, else the step adds the input to a union.
fn fold_unify_types(types: &[Type], keep: fn(CK) -> bool) -> Type {
    let mut engine = Engine::new();
    let mut iter = types.iter();
    let Some(first) = iter.next() else {
        return Type::none();
    };
    let mut acc = first.clone();
    for t in iter {
        let (s, k) = engine.unify(&acc, t);
        acc = if keep(k) {
            s
        } else {
            Type::union([acc, t.clone()])
        };
    }
    acc
}

impl Engine {
    pub(crate) fn unify(&mut self, a: &Type, b: &Type) -> (Type, CK) {
        if !self.enter() {
            return (Type::dynamic(), CK::Unsafe);
        }
        let res = self.unify_inner(a, b);
        self.leave();
        res
    }

    fn unify_inner(&mut self, a: &Type, b: &Type) -> (Type, CK) {
        let (a, b) = if a.is_dynamic() { (b, a) } else { (a, b) };
        if equal_in(a, b, &mut Vec::new(), self.depth) {
            return (a.clone(), CK::Safe);
        }
        if b.is_dynamic() {
            return (a.clone(), CK::Unsafe);
        }
        let cf = self.conv(a, b, true);
        let ct = self.conv(b, a, true);
        if cf < ct {
            return (b.clone(), ct);
        }
        if cf > ct {
            return (a.clone(), cf);
        }
        if cf == CK::None {
            return (Type::union([a.clone(), b.clone()]), CK::Safe);
        }
        if let TypeKind::Union(_) = b.kind() {
            return self.union_unify_to(b, a);
        }
        self.kind_rule(a, b)
    }

    /// `union.unifyTo(other)`.
    fn union_unify_to(&mut self, u: &Type, other: &Type) -> (Type, CK) {
        let Some(ut) = u.as_union() else {
            return self.kind_rule(u, other);
        };
        if let TypeKind::Union(o) = other.kind() {
            let all: Vec<Type> = ut
                .elements()
                .iter()
                .chain(o.elements().iter())
                .cloned()
                .collect();
            return (Type::union(all), CK::Safe);
        }
        let mut kind = CK::Safe;
        let mut out = Vec::with_capacity(ut.elements().len());
        for e in ut.elements() {
            let (t, k) = self.unify(e, other);
            kind = kind.min(k);
            out.push(t);
        }
        (Type::union(out), kind)
    }

    fn fold_unify<'a>(
        &mut self,
        start: Type,
        kind: CK,
        items: impl IntoIterator<Item = &'a Type>,
    ) -> (Type, CK) {
        let mut acc = start;
        let mut kind = kind;
        for t in items {
            let (r, k) = self.unify(&acc, t);
            acc = r;
            kind = kind.min(k);
        }
        (acc, kind)
    }

    fn kind_rule(&mut self, a: &Type, b: &Type) -> (Type, CK) {
        use TypeKind as K;
        let keep = |this: &mut Engine| {
            let k = this.conv(a, b, true);
            (a.clone(), k)
        };
        match a.kind() {
            K::Bool | K::Int | K::Number | K::String | K::Id | K::Opaque(_) | K::Dynamic => {
                let order = [
                    Type::string(),
                    Type::number(),
                    Type::int(),
                    Type::bool(),
                    Type::id(),
                ];
                for entry in order {
                    if std::mem::discriminant(a.kind()) == std::mem::discriminant(entry.kind()) {
                        let k = self.conv(a, b, true);
                        return (a.clone(), k);
                    }
                    if std::mem::discriminant(b.kind()) == std::mem::discriminant(entry.kind()) {
                        let k = self.conv(b, a, true);
                        return (b.clone(), k);
                    }
                }
                (Type::dynamic(), CK::Safe)
            }
            K::None => {
                let k = self.conv(b, a, true);
                (a.clone(), k)
            }
            K::List(e) => match b.kind() {
                K::Tuple(us) => {
                    let (t, k) = self.fold_unify(e.clone(), CK::Safe, us.iter());
                    (Type::list(t), k)
                }
                K::Set(u) | K::List(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::list(t), k)
                }
                _ => keep(self),
            },
            K::Set(e) => match b.kind() {
                K::Set(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::set(t), k)
                }
                K::List(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::list(t), k)
                }
                K::Tuple(us) => {
                    let (t, k) = self.fold_unify(e.clone(), CK::Unsafe, us.iter());
                    (Type::set(t), k)
                }
                _ => keep(self),
            },
            K::Map(e) => match b.kind() {
                K::Map(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::map(t), k)
                }
                K::Object(o) => {
                    let props: Vec<Type> = o.properties().values().cloned().collect();
                    let (t, k) = self.fold_unify(e.clone(), CK::Safe, props.iter());
                    (Type::map(t), k)
                }
                _ => keep(self),
            },
            K::Tuple(ts) => match b.kind() {
                K::Tuple(us) => self.unify_tuples(ts, us),
                K::List(e) => {
                    let (t, k) = self.fold_unify(e.clone(), CK::Safe, ts.iter());
                    (Type::list(t), k)
                }
                K::Set(e) => {
                    let (t, k) = self.fold_unify(e.clone(), CK::Unsafe, ts.iter());
                    (Type::set(t), k)
                }
                _ => keep(self),
            },
            K::Object(o) => match b.kind() {
                K::Map(e) => {
                    let props: Vec<Type> = o.properties().values().cloned().collect();
                    let (t, k) = self.fold_unify(e.clone(), CK::Safe, props.iter());
                    (Type::map(t), k)
                }
                K::Object(_) => self.unify_objects(a, b),
                _ => keep(self),
            },
            K::Union(_) => self.union_unify_to(a, b),
            K::Promise(e) => match b.kind() {
                K::Promise(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::promise(t), k)
                }
                K::Output(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::output(t), k)
                }
                _ => keep(self),
            },
            K::Output(e) => match b.kind() {
                K::Output(u) => {
                    let (t, k) = self.unify(e, u);
                    (Type::output(t), k)
                }
                K::Promise(u) => {
                    let r = resolve_outputs(u);
                    let (t, k) = self.unify(e, &r);
                    (Type::output(t), k)
                }
                _ => keep(self),
            },
            K::Const(_) => {
                let k = self.conv(b, a, true);
                (a.clone(), k)
            }
            K::Enum(_) => keep(self),
        }
    }

    /// The tuple element unifier (types.md §3.3).
    pub(crate) fn unify_tuples(&mut self, ts: &[Type], us: &[Type]) -> (Type, CK) {
        let mut kind = CK::Safe;
        let mut elems = Vec::with_capacity(ts.len().max(us.len()));
        for i in 0..ts.len().max(us.len()) {
            match (ts.get(i), us.get(i)) {
                (Some(t), Some(u)) => {
                    let (r, k) = self.unify(t, u);
                    kind = kind.min(k);
                    elems.push(r);
                }
                (Some(t), None) | (None, Some(t)) => elems.push(Type::optional(t.clone())),
                (None, None) => {}
            }
        }
        (Type::tuple(elems), kind)
    }

    pub(crate) fn tuple_unify_kind(&mut self, ts: &[Type], us: &[Type]) -> CK {
        self.unify_tuples(ts, us).1
    }

    /// The object unifier (types.md §3.3); annotations are dropped.
    pub(crate) fn unify_objects(&mut self, a: &Type, b: &Type) -> (Type, CK) {
        // The objects one unification builds share a group (they may form
        // cycles among themselves).
        crate::group::within_some(|| self.unify_objects_in(a, b))
    }

    fn unify_objects_in(&mut self, a: &Type, b: &Type) -> (Type, CK) {
        let key = (a.addr(), b.addr());
        if let Some((_, t)) = self.unify_state.in_progress.iter().find(|(k, _)| *k == key) {
            return (t.clone(), CK::Safe);
        }
        let (Some(oa), Some(ob)) = (a.as_object(), b.as_object()) else {
            return (Type::union([a.clone(), b.clone()]), CK::Safe);
        };
        let result = Type::deferred_object(crate::object::ObjectOptions::default());
        self.unify_state.in_progress.push((key, result.clone()));
        let mut kind = CK::Safe;
        let mut props = Properties::default();
        let (pa, pb) = (oa.properties(), ob.properties());
        for (k, t) in pa.iter() {
            if !pb.contains_key(k) {
                props.insert(k.clone(), Type::optional(t.clone()));
            } else {
                props.insert(k.clone(), t.clone());
            }
        }
        for (k, u) in pb.iter() {
            match pa.get(k) {
                Some(t) => {
                    let (r, kk) = self.unify(t, u);
                    kind = kind.min(kk);
                    props.insert(k.clone(), r);
                }
                None => {
                    props.insert(k.clone(), Type::optional(u.clone()));
                }
            }
        }
        self.unify_state.in_progress.retain(|(k, _)| *k != key);
        result.define_object(props);
        (result, kind)
    }

    pub(crate) fn object_unify_kind(&mut self, a: &Type, b: &Type) -> CK {
        self.unify_objects(a, b).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &(Type, CK)) -> String {
        format!("{} {:?}", t.0, t.1)
    }

    #[test]
    fn primitive_precedence() {
        assert_eq!(s(&unify(&Type::bool(), &Type::int())), "int Unsafe");
        assert_eq!(s(&unify(&Type::int(), &Type::number())), "number Safe");
        assert_eq!(s(&unify(&Type::bool(), &Type::id())), "id Safe");
        assert_eq!(
            s(&unify(&Type::none(), &Type::int())),
            "union(int, none) Safe"
        );
        assert_eq!(s(&unify(&Type::none(), &Type::dynamic())), "none Unsafe");
    }

    #[test]
    fn const_asymmetry() {
        let one = Type::literal(crate::value::Value::int(1));
        assert_eq!(s(&unify(&Type::bool(), &one)), "bool Unsafe");
        assert_eq!(s(&unify(&one, &Type::bool())), "1 Unsafe");
    }

    #[test]
    fn objects_and_optional_output() {
        let a = Type::object([("a", Type::string())]);
        let b = Type::object([("b", Type::int())]);
        assert_eq!(
            s(&unify(&a, &b)),
            "object({a = union(none, string), b = union(int, none)}) Safe"
        );
        let r = unify(
            &Type::optional(Type::string()),
            &Type::output(Type::string()),
        );
        assert_eq!(s(&r), "output(string) Unsafe");
        let r = unify(
            &Type::union([Type::int(), Type::string()]),
            &Type::optional(Type::int()),
        );
        assert_eq!(s(&r), "union(int, none, string) Safe");
    }
}
