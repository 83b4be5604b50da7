//! Conversion `dest ← src` (Safe / Unsafe / None, types.md §2) and the
//! stricter `AssignableFrom` relation (§2.8).
//!
//! All work for one top-level question happens in an [`Engine`], which
//! memoises results keyed by `(dest, src, unifying)` allocation identity and
//! only when the result does not rest on a coinductive assumption about a
//! pair still being checked (defect `memo-cache-unifying` fixed). The memo is
//! what keeps wide, deep unions polynomial; it lives for one call only, so
//! nothing leaks between questions (its emptied table is reused by the
//! thread's next question). Types used as keys are kept alive in the memo so
//! addresses cannot be reused within the call. Questions that are decided at
//! once (a leaf or const-of-leaf side, a small source found among a union
//! destination's elements) get no memo entry.
//!
//! A host that asks many questions about the same types (the program
//! binder: every property value, operand and argument of a program) keeps
//! the answers of [`conversion_from`] across questions while a
//! [`ConversionMemo`] from [`remember_conversions`] is alive on its thread:
//! the questions of one check then share one memo, which also remembers
//! the pairs with one cheap side (a union destination and a literal
//! source), the most repeated questions of a program. An answer is final
//! (types do not change once their properties are set), except one that
//! read an object whose properties were not set yet: then the memo is
//! emptied.

use foldhash::HashMap;

use crate::eventual::resolve_outputs;
use crate::ty::{equal_in, same_kind, Type, TypeKind};
use crate::MAX_TYPE_DEPTH;

/// How a value of one type can be used as another (`N < U < S`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConversionKind {
    /// Not convertible: a type error.
    None,
    /// May fail at run time; code generators insert a conversion.
    Unsafe,
    /// Always succeeds.
    Safe,
}

impl ConversionKind {
    pub fn exists(self) -> bool {
        self != ConversionKind::None
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ConversionKind::None => "none",
            ConversionKind::Unsafe => "unsafe",
            ConversionKind::Safe => "safe",
        }
    }
}

type PairKey = (usize, usize, bool);

type Memo = HashMap<PairKey, (Type, Type, ConversionKind)>;

/// Memos of finished questions are kept (emptied) for the next question on
/// the same thread, so a question does not pay for allocating and growing
/// its table; a memo grown past this capacity is freed instead.
const POOLED_MEMO_CAPACITY: usize = 1024;
/// How many emptied memos a thread keeps (questions may nest).
const POOLED_MEMOS: usize = 4;

/// How many answers a [`ConversionMemo`] keeps at most; past it, the memo
/// starts again empty (each entry keeps its two types alive).
const MAX_REMEMBERED: usize = 1 << 15;

thread_local! {
    static MEMO_POOL: std::cell::RefCell<Vec<Memo>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The memo of the thread's [`ConversionMemo`], when one is alive
    /// (taken out while a question uses it).
    static REMEMBERED: std::cell::RefCell<Option<Memo>> = const { std::cell::RefCell::new(None) };
}

/// While alive, [`conversion_from`] on this thread keeps its answers for
/// later questions (see the module's documentation). Made by
/// [`remember_conversions`]; dropping it forgets them. A memo made while
/// another is alive on the thread leaves that one in charge.
#[must_use = "conversions are remembered only while the memo is alive"]
pub struct ConversionMemo {
    installed: bool,
    /// Thread-bound: the memo lives in a thread-local.
    _thread: std::marker::PhantomData<*const ()>,
}

/// Keeps [`conversion_from`]'s answers on this thread until the returned
/// [`ConversionMemo`] is dropped.
pub fn remember_conversions() -> ConversionMemo {
    let installed = REMEMBERED
        .try_with(|r| match r.try_borrow_mut() {
            Ok(mut r) if r.is_none() => {
                *r = Some(Memo::default());
                true
            }
            _ => false,
        })
        .unwrap_or(false);
    ConversionMemo {
        installed,
        _thread: std::marker::PhantomData,
    }
}

impl Drop for ConversionMemo {
    fn drop(&mut self) {
        if !self.installed {
            return;
        }
        // Taken out first: dropping the types may free groups.
        let memo = REMEMBERED
            .try_with(|r| r.try_borrow_mut().ok().and_then(|mut r| r.take()))
            .ok()
            .flatten();
        drop(memo);
    }
}

/// The remembered memo, taken out for one question (`None` when no
/// [`ConversionMemo`] is alive, or another question holds it).
fn take_remembered() -> Option<Memo> {
    REMEMBERED
        .try_with(|r| r.try_borrow_mut().ok().and_then(|mut r| r.take()))
        .ok()
        .flatten()
}

/// Puts the remembered memo back after a question.
fn put_remembered(memo: Memo) {
    let _ = REMEMBERED.try_with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            *r = Some(memo);
        }
    });
}

/// Shared state of one conversion / unification question.
pub(crate) struct Engine {
    memo: Memo,
    /// Object pairs currently being converted.
    stack: Vec<PairKey>,
    /// Lowest stack index a result so far depended on (coinduction).
    low: usize,
    pub(crate) depth: usize,
    /// Set when some walk hit [`MAX_TYPE_DEPTH`].
    pub(crate) too_deep: bool,
    pub(crate) unify_state: crate::unify::UnifyState,
    /// Whether `memo` is the remembered one of a [`ConversionMemo`]
    /// (then pairs with one cheap side are memoised too).
    remembered: bool,
}

use ConversionKind as CK;

impl Drop for Engine {
    fn drop(&mut self) {
        // A question that memoised nothing never took a table from the pool.
        let capacity = self.memo.capacity();
        if capacity == 0 || capacity > POOLED_MEMO_CAPACITY {
            return;
        }
        let mut memo = std::mem::take(&mut self.memo);
        memo.clear();
        // During thread teardown the pool may be gone: the memo is freed.
        let _ = MEMO_POOL.try_with(|pool| {
            if let Ok(mut pool) = pool.try_borrow_mut() {
                if pool.len() < POOLED_MEMOS {
                    pool.push(memo);
                }
            }
        });
    }
}

/// A source compared for equality at once: a leaf other than `dynamic`, or a
/// collection or eventual of one (not a union or const, which conversion
/// decides element by element and by the underlying type).
fn small(t: &Type) -> bool {
    match t.kind() {
        TypeKind::Union(_) | TypeKind::Const(_) | TypeKind::Dynamic => false,
        TypeKind::List(e)
        | TypeKind::Map(e)
        | TypeKind::Set(e)
        | TypeKind::Output(e)
        | TypeKind::Promise(e) => !e.kind().has_elements(),
        kind => !kind.has_elements(),
    }
}

/// A type decided against another such type at once: a leaf (builtin,
/// opaque) or the const of one.
fn cheap(t: &Type) -> bool {
    match t.kind() {
        TypeKind::Const(c) => !c.underlying().kind().has_elements(),
        kind => !kind.has_elements(),
    }
}

impl Engine {
    pub(crate) fn new() -> Engine {
        Engine {
            // Empty (no table) until the first entry: most questions are
            // decided without one; see `memoise`.
            memo: Memo::default(),
            stack: Vec::new(),
            low: usize::MAX,
            depth: 0,
            too_deep: false,
            unify_state: crate::unify::UnifyState::default(),
            remembered: false,
        }
    }

    /// An engine answering with the remembered memo `memo`.
    fn with_memo(memo: Memo) -> Engine {
        let mut engine = Engine::new();
        engine.memo = memo;
        engine.remembered = true;
        engine
    }

    /// Adds a memo entry, first taking an emptied table from the thread's
    /// pool when this question has none yet.
    fn memoise(&mut self, key: PairKey, entry: (Type, Type, ConversionKind)) {
        if self.memo.capacity() == 0 {
            if let Some(pooled) = MEMO_POOL
                .try_with(|pool| pool.try_borrow_mut().ok().and_then(|mut p| p.pop()))
                .ok()
                .flatten()
            {
                self.memo = pooled;
            }
        }
        self.memo.insert(key, entry);
    }

    pub(crate) fn enter(&mut self) -> bool {
        if self.depth >= MAX_TYPE_DEPTH {
            self.too_deep = true;
            return false;
        }
        self.depth += 1;
        true
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// `dest.ConversionFrom(src)`, in unifying mode when `unifying`.
    pub(crate) fn conv(&mut self, dest: &Type, src: &Type, unifying: bool) -> CK {
        if !self.enter() {
            // Too deep to decide: do not invent an error.
            return CK::Unsafe;
        }
        let res = self.conv_inner(dest, src, unifying);
        self.leave();
        res
    }

    fn conv_inner(&mut self, dest: &Type, src: &Type, unifying: bool) -> CK {
        if dest.is_dynamic() || dest.ptr_eq(src) {
            return CK::Safe;
        }
        // A union destination with the source among its elements accepts it
        // safely (what `dest_rule` finds first); for a small source that is
        // decided at once, without a memo entry.
        if let TypeKind::Union(u) = dest.kind() {
            if small(src) && u.elements().iter().any(|e| e.ptr_eq(src) || e.equals(src)) {
                return CK::Safe;
            }
        }
        let key = (dest.addr(), src.addr(), unifying);
        // A question with a cheap side is not worth a memo entry: against
        // a leaf or const, a composite type is decided by walking only its
        // union, eventual, const and enum wrappers (flat, a few levels), and
        // such a question is reached from a memoised one.
        // Across questions (a remembered memo), a pair with one cheap side
        // is worth remembering: programs ask the same ones again and again.
        let memoise = if self.remembered {
            !(cheap(dest) && cheap(src))
        } else {
            !cheap(dest) && !cheap(src)
        };
        if memoise {
            if let Some((_, _, k)) = self.memo.get(&key) {
                return *k;
            }
        }
        if same_kind(dest, src) && equal_in(dest, src, &mut Vec::new(), self.depth) {
            return CK::Safe;
        }
        let saved_low = self.low;
        self.low = usize::MAX;
        let res = self.conv_uncached(dest, src, unifying, key);
        let dep = self.low;
        if dep >= self.stack.len() {
            if memoise {
                self.memoise(key, (dest.clone(), src.clone(), res));
            }
            self.low = saved_low;
        } else {
            self.low = saved_low.min(dep);
        }
        res
    }

    fn conv_uncached(&mut self, dest: &Type, src: &Type, unifying: bool, key: PairKey) -> CK {
        // 2.1 step 3: a union source is decided element by element.
        if let TypeKind::Union(u) = src.kind() {
            let mut all_safe = true;
            let mut any = false;
            for e in u.elements() {
                match self.conv(dest, e, unifying) {
                    CK::Safe => any = true,
                    CK::Unsafe => {
                        any = true;
                        all_safe = false;
                    }
                    CK::None => all_safe = false,
                }
            }
            return if all_safe {
                CK::Safe
            } else if any {
                CK::Unsafe
            } else {
                CK::None
            };
        }
        if let TypeKind::Const(c) = src.kind() {
            if !matches!(dest.kind(), TypeKind::Enum(_)) {
                return self.conv(dest, c.underlying(), unifying);
            }
        }
        if src.is_dynamic() {
            return CK::Unsafe;
        }
        self.dest_rule(dest, src, unifying, key)
    }

    fn fold_min<'a>(
        &mut self,
        start: CK,
        pairs: impl IntoIterator<Item = (&'a Type, &'a Type)>,
        unifying: bool,
    ) -> CK {
        let mut acc = start;
        for (d, s) in pairs {
            acc = acc.min(self.conv(d, s, unifying));
            if acc == CK::None {
                break;
            }
        }
        acc
    }

    fn dest_rule(&mut self, dest: &Type, src: &Type, unifying: bool, key: PairKey) -> CK {
        use TypeKind as K;
        match dest.kind() {
            K::None => CK::None,
            K::String => string_from(src),
            K::Id => string_from(src),
            K::Number => {
                if matches!(src.kind(), K::Int) {
                    CK::Safe
                } else if string_from(src).exists() {
                    CK::Unsafe
                } else {
                    CK::None
                }
            }
            K::Int => {
                if number_exists(src) {
                    CK::Unsafe
                } else {
                    CK::None
                }
            }
            K::Bool => {
                if string_from(src).exists() {
                    CK::Unsafe
                } else {
                    CK::None
                }
            }
            K::Dynamic => CK::Safe,
            K::Opaque(_) => CK::None,
            K::List(e) => match src.kind() {
                K::List(u) | K::Set(u) => self.conv(e, u, unifying),
                K::Tuple(us) => self.fold_min(CK::Safe, us.iter().map(|u| (e, u)), unifying),
                _ => CK::None,
            },
            K::Set(e) => match src.kind() {
                K::Set(u) => self.conv(e, u, unifying),
                K::List(u) => self.conv(e, u, unifying).min(CK::Unsafe),
                K::Tuple(us) => self
                    .fold_min(CK::Safe, us.iter().map(|u| (e, u)), unifying)
                    .min(CK::Unsafe),
                _ => CK::None,
            },
            K::Map(e) => match src.kind() {
                K::Map(u) => self.conv(e, u, unifying),
                K::Object(o) => {
                    let props: Vec<Type> = o.properties().values().cloned().collect();
                    self.fold_min(CK::Safe, props.iter().map(|u| (e, u)), unifying)
                }
                _ => CK::None,
            },
            K::Tuple(ts) => match src.kind() {
                K::Tuple(us) if unifying => self.tuple_unify_kind(ts, us),
                K::Tuple(us) => {
                    if ts.len() != us.len() {
                        CK::None
                    } else {
                        self.fold_min(CK::Safe, ts.iter().zip(us.iter()), unifying)
                    }
                }
                K::List(u) | K::Set(u) => {
                    self.fold_min(CK::Unsafe, ts.iter().map(|t| (t, u)), unifying)
                }
                _ => CK::None,
            },
            K::Object(d) => match src.kind() {
                K::Object(s) => {
                    if let Some(i) = self.stack.iter().position(|k| *k == key) {
                        self.low = self.low.min(i);
                        return CK::Safe;
                    }
                    self.stack.push(key);
                    let res = if unifying {
                        self.object_unify_kind(dest, src)
                    } else {
                        let none = Type::none();
                        let sp = s.properties();
                        let pairs: Vec<(Type, Type)> = d
                            .properties()
                            .iter()
                            .map(|(k, t)| {
                                (
                                    t.clone(),
                                    sp.get(k).cloned().unwrap_or_else(|| none.clone()),
                                )
                            })
                            .collect();
                        self.fold_min(CK::Safe, pairs.iter().map(|(a, b)| (a, b)), unifying)
                    };
                    self.stack.pop();
                    res
                }
                K::Map(u) => {
                    let props: Vec<Type> = d.properties().values().cloned().collect();
                    self.fold_min(CK::Unsafe, props.iter().map(|t| (t, u)), unifying)
                }
                _ => CK::None,
            },
            K::Union(u) => {
                if u.elements().iter().any(|e| e.equals(src)) {
                    return CK::Safe;
                }
                let mut best = CK::None;
                for e in u.elements() {
                    best = best.max(self.conv(e, src, unifying));
                    if best == CK::Safe {
                        break;
                    }
                }
                best
            }
            K::Promise(e) => match src.kind() {
                K::Promise(u) => self.conv(e, u, unifying),
                K::Output(_) => CK::None,
                _ => self.conv(e, src, unifying),
            },
            K::Output(e) => match src.kind() {
                K::Output(u) => self.conv(e, u, unifying),
                K::Promise(u) => {
                    let r = resolve_outputs(u);
                    self.conv(e, &r, unifying)
                }
                _ => self.conv(e, src, unifying),
            },
            K::Const(c) => {
                if self.conv(c.underlying(), src, unifying).exists() {
                    CK::Unsafe
                } else {
                    CK::None
                }
            }
            K::Enum(en) => {
                // Defect `enum-const-inverted` fixed: a const whose value is a
                // member and whose type converts to the enum's underlying type
                // is Safe.
                if let TypeKind::Const(c) = src.kind() {
                    if en.values().iter().any(|v| v.equals(c.value()))
                        && self
                            .conv(en.underlying(), c.underlying(), unifying)
                            .exists()
                    {
                        return CK::Safe;
                    }
                }
                let inner = match src.kind() {
                    TypeKind::Const(c) => c.underlying().clone(),
                    _ => src.clone(),
                };
                if self.conv(en.underlying(), &inner, unifying).exists() {
                    CK::Unsafe
                } else {
                    CK::None
                }
            }
        }
    }
}

/// `string ← src` for a non-union, non-const, non-dynamic `src`.
fn string_from(src: &Type) -> CK {
    match src.kind() {
        TypeKind::String | TypeKind::Id | TypeKind::Bool | TypeKind::Int | TypeKind::Number => {
            CK::Safe
        }
        _ => CK::None,
    }
}

/// Whether `number ← src` exists.
fn number_exists(src: &Type) -> bool {
    matches!(src.kind(), TypeKind::Number | TypeKind::Int) || string_from(src).exists()
}

/// Whether `src` is `dynamic`, or a union or const that may hold it
/// (`top`: looking one level into a union's elements or a const's
/// underlying type; below that, any union or const counts).
fn may_hold_dynamic(src: &Type, top: bool) -> bool {
    match src.kind() {
        TypeKind::Dynamic => true,
        TypeKind::Union(_) | TypeKind::Const(_) if !top => true,
        TypeKind::Union(u) => u.elements().iter().any(|e| may_hold_dynamic(e, false)),
        TypeKind::Const(c) => may_hold_dynamic(c.underlying(), false),
        _ => false,
    }
}

/// `dest.ConversionFrom(src)` (types.md §2).
pub fn conversion_from(dest: &Type, src: &Type) -> ConversionKind {
    // What `Engine::conv` answers first, without setting up an engine.
    if dest.is_dynamic() || dest.ptr_eq(src) {
        return ConversionKind::Safe;
    }
    // A union destination listing a small source accepts it safely; a
    // const source (a literal) is decided by its underlying type (neither
    // is equal to a union, and the union is no enum), so a union listing
    // that type accepts it safely too. A union listing `dynamic` accepts
    // safely every source but `dynamic` itself (unsafe) and the unions
    // and consts that may hold it.
    if let TypeKind::Union(u) = dest.kind() {
        if u.elements().iter().any(Type::is_dynamic) && !may_hold_dynamic(src, true) {
            return ConversionKind::Safe;
        }
        let s = match src.kind() {
            TypeKind::Const(c) => c.underlying(),
            _ => src,
        };
        if small(s) && u.elements().iter().any(|e| e.ptr_eq(s) || e.equals(s)) {
            return ConversionKind::Safe;
        }
    }
    match take_remembered() {
        Some(memo) => {
            let reads = crate::object::unsettled_reads();
            let mut engine = Engine::with_memo(memo);
            let res = engine.conv(dest, src, false);
            let mut memo = std::mem::take(&mut engine.memo);
            let too_deep = engine.too_deep;
            drop(engine);
            // An answer that read unset properties may change, and one
            // that hit the depth limit depends on where the pair was met;
            // one too many entries starts the memo again.
            let unsettled = crate::object::unsettled_reads() != reads;
            if unsettled || too_deep || memo.len() > MAX_REMEMBERED {
                // Emptied, its table kept.
                memo.clear();
            }
            put_remembered(memo);
            res
        }
        None => Engine::new().conv(dest, src, false),
    }
}

impl Type {
    /// `self ← src`: how a value of type `src` converts to `self`.
    pub fn conversion_from(&self, src: &Type) -> ConversionKind {
        conversion_from(self, src)
    }

    /// `self.AssignableFrom(src)`: no conversion needed (types.md §2.8).
    pub fn assignable_from(&self, src: &Type) -> bool {
        assignable_from(self, src)
    }
}

/// `dest.AssignableFrom(src)` (types.md §2.8).
pub fn assignable_from(dest: &Type, src: &Type) -> bool {
    assignable_in(dest, src, &mut Vec::new(), 0)
}

fn assignable_in(dest: &Type, src: &Type, stack: &mut Vec<(usize, usize)>, depth: usize) -> bool {
    if depth > MAX_TYPE_DEPTH {
        return false;
    }
    if dest.is_dynamic() || dest.equals(src) {
        return true;
    }
    if let TypeKind::Const(c) = src.kind() {
        return assignable_in(dest, c.underlying(), stack, depth + 1);
    }
    let rec =
        |d: &Type, s: &Type, stack: &mut Vec<(usize, usize)>| assignable_in(d, s, stack, depth + 1);
    use TypeKind as K;
    match dest.kind() {
        K::List(e) => match src.kind() {
            K::List(u) => rec(e, u, stack),
            K::Tuple(us) => us.iter().all(|u| rec(e, u, stack)),
            _ => false,
        },
        K::Map(e) => match src.kind() {
            K::Map(u) => rec(e, u, stack),
            K::Object(o) => o.properties().values().all(|u| rec(e, u, stack)),
            _ => false,
        },
        K::Set(e) => match src.kind() {
            K::Set(u) => rec(e, u, stack),
            _ => false,
        },
        K::Tuple(ts) => match src.kind() {
            K::Tuple(us) => {
                let none = Type::none();
                ts.iter()
                    .enumerate()
                    .all(|(i, t)| rec(t, us.get(i).unwrap_or(&none), stack))
            }
            _ => false,
        },
        K::Object(d) => match src.kind() {
            K::Object(s) => {
                let key = (dest.addr(), src.addr());
                if stack.contains(&key) {
                    return true;
                }
                stack.push(key);
                let none = Type::none();
                let sp = s.properties();
                let res = d
                    .properties()
                    .iter()
                    .all(|(k, t)| rec(t, sp.get(k).unwrap_or(&none), stack));
                stack.pop();
                res
            }
            _ => false,
        },
        K::Union(u) => u.elements().iter().any(|e| rec(e, src, stack)),
        K::Promise(e) => match src.kind() {
            K::Promise(u) => rec(e, u, stack),
            _ => rec(e, src, stack),
        },
        K::Output(e) => match src.kind() {
            K::Output(u) => rec(e, u, stack),
            K::Promise(u) => rec(e, &resolve_outputs(u), stack),
            _ => rec(e, src, stack),
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    /// `conversion_from` answers a union destination listing the source
    /// (or a const source's type) without an engine; every answer must be
    /// the engine's.
    #[test]
    fn union_shortcut_agrees_with_the_engine() {
        let en = Type::enumeration(
            "pkg:index:E",
            Type::string(),
            vec![Value::string("a")],
            Default::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let leaves = [
            Type::none(),
            Type::bool(),
            Type::int(),
            Type::number(),
            Type::string(),
            Type::dynamic(),
            Type::opaque("Archive"),
            Type::list(Type::string()),
            Type::output(Type::string()),
        ];
        let mut sources: Vec<Type> = leaves.to_vec();
        sources.extend([
            Type::optional(Type::string()),
            Type::union([Type::dynamic(), Type::string()]),
            Type::constant(Type::dynamic(), Value::Unknown),
            Type::object([("a", Type::string())]),
            Type::tuple([Type::dynamic()]),
            Type::literal(Value::string("a")),
            Type::literal(Value::string("b")),
            Type::literal(Value::int(3)),
            Type::literal(Value::Null),
            Type::literal(Value::Bool(true)),
            en.clone(),
        ]);
        let mut dests: Vec<Type> = Vec::new();
        for a in &leaves {
            for b in &leaves {
                dests.push(Type::union([a.clone(), b.clone()]));
            }
            dests.push(Type::union([a.clone(), en.clone()]));
            dests.push(Type::union([
                a.clone(),
                Type::dynamic(),
                Type::output(a.clone()),
            ]));
            dests.push(Type::union([a.clone(), Type::literal(Value::string("a"))]));
        }
        for d in &dests {
            for s in &sources {
                assert_eq!(
                    conversion_from(d, s),
                    Engine::new().conv(d, s, false),
                    "{d} <- {s}"
                );
            }
        }
    }

    /// Answers kept by a [`ConversionMemo`] are the engine's, asked once
    /// or again, and one that read an object before its properties were
    /// set is not kept.
    #[test]
    fn remembered_answers_are_the_engines() {
        let obj = Type::object([("a", Type::string()), ("b", Type::int())]);
        let types = [
            Type::string(),
            Type::int(),
            Type::dynamic(),
            Type::literal(Value::int(2)),
            Type::union([Type::number(), Type::output(Type::number())]),
            Type::union([Type::dynamic(), Type::none()]),
            Type::list(obj.clone()),
            Type::map(Type::string()),
            obj.clone(),
            Type::object([("a", Type::literal(Value::string("x")))]),
            Type::tuple([obj.clone(), Type::string()]),
        ];
        let fresh: Vec<ConversionKind> = types
            .iter()
            .flat_map(|d| types.iter().map(move |s| Engine::new().conv(d, s, false)))
            .collect();
        let memo = remember_conversions();
        for _ in 0..2 {
            let asked: Vec<ConversionKind> = types
                .iter()
                .flat_map(|d| types.iter().map(move |s| conversion_from(d, s)))
                .collect();
            assert_eq!(asked, fresh);
        }
        // A deferred object reads as empty until defined: `{a: string}`
        // does not take it then, and does once it is defined.
        let dest = Type::object([("a", Type::string())]);
        let late = Type::deferred_object(Default::default());
        assert_eq!(conversion_from(&dest, &late), CK::None);
        assert!(late.define_object([("a", Type::string())]));
        assert_eq!(conversion_from(&dest, &late), CK::Safe);
        drop(memo);
    }

    #[test]
    fn primitive_matrix() {
        let ts = [
            Type::none(),
            Type::bool(),
            Type::int(),
            Type::number(),
            Type::string(),
            Type::id(),
            Type::dynamic(),
            Type::opaque("foo"),
        ];
        // types.md §2.4, row = destination.
        let expect = [
            "SNNNNNUN", "NSUUUUUN", "NUSUUUUN", "NUSSUUUN", "NSSSSSUN", "NSSSSSUN", "SSSSSSSS",
            "NNNNNNUS",
        ];
        for (d, row) in ts.iter().zip(expect) {
            let got: String = ts
                .iter()
                .map(|s| match conversion_from(d, s) {
                    CK::Safe => 'S',
                    CK::Unsafe => 'U',
                    CK::None => 'N',
                })
                .collect();
            assert_eq!(got, row, "destination {d}");
        }
    }

    #[test]
    fn eventual_sources_do_not_convert_to_collections() {
        let l = Type::list(Type::string());
        assert_eq!(conversion_from(&l, &Type::output(l.clone())), CK::None);
        assert_eq!(
            conversion_from(&Type::promise(Type::int()), &Type::output(Type::int())),
            CK::None
        );
        assert_eq!(
            conversion_from(&Type::output(Type::int()), &Type::promise(Type::int())),
            CK::Safe
        );
    }
}
