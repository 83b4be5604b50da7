//! Shared literal types: [`LiteralTypes`] hands out the const type of a
//! literal value (`const(int, 1)`, `const(string, "x")`) and the value
//! itself, reusing the pair an equal literal got earlier.
//!
//! A binder gives every literal expression its own const type. Built one by
//! one, a list of a million `1`s holds a million equal type nodes (and, for
//! strings, a million equal `Arc<str>`s). The cache is a bounded table
//! indexed by the value's hash (direct-mapped: a new value evicts the one
//! in its slot), so a lookup is one hash and at most one comparison, its
//! memory does not grow with the input, and repeated literals, the common
//! case in real programs as in dense ones, allocate nothing. `null`,
//! `true` and `false` are shared process-wide.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use crate::fast_hash::FastHasher;
use crate::name::Name;
use crate::ty::Type;
use crate::value::Value;

/// Slots a table starts with, and at most grows to (powers of two). A
/// small program fills a few slots; a big one has far more distinct
/// literals than 256 (most of the string parts of the check bench's
/// generated 1 MB program missed), so a table that keeps missing grows,
/// emptied, four times over, up to the largest size; an empty check pays
/// for the small table only.
const MIN_SLOTS: usize = 256;
const MAX_SLOTS: usize = 4096;

/// A direct-mapped table (see the module doc) that grows while it keeps
/// missing. Allocated on the first insert.
struct Table<T> {
    slots: Vec<Option<T>>,
    /// Inserts since the table was last (re)built.
    inserts: usize,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            inserts: 0,
        }
    }
}

impl<T> Table<T> {
    fn get(&self, hash: u64) -> Option<&T> {
        self.slots.get(slot_of(hash, self.slots.len()))?.as_ref()
    }

    fn insert(&mut self, hash: u64, entry: T) {
        self.inserts += 1;
        let len = self.slots.len();
        let grow = len == 0 || (self.inserts > 2 * len && len < MAX_SLOTS);
        if grow {
            let len = if len == 0 {
                MIN_SLOTS
            } else {
                (len * 4).min(MAX_SLOTS)
            };
            self.slots = (0..len).map(|_| None).collect();
            self.inserts = 1;
        }
        let slot = slot_of(hash, self.slots.len());
        if let Some(place) = self.slots.get_mut(slot) {
            *place = Some(entry);
        }
    }
}

/// A cache of literal values and their const types (see the module doc).
/// The tables are allocated on the first insert, so an unused cache costs
/// nothing.
pub struct LiteralTypes {
    slots: Table<(Value, Type)>,
    /// Names ([`LiteralTypes::text`]), in a table of their own.
    names: Table<Arc<str>>,
    /// Names as [`Name`]s ([`LiteralTypes::name`]), in a table of their own.
    one_word_names: Table<Name>,
}

impl Default for LiteralTypes {
    fn default() -> Self {
        LiteralTypes::new()
    }
}

impl LiteralTypes {
    pub fn new() -> LiteralTypes {
        LiteralTypes {
            slots: Table::default(),
            names: Table::default(),
            one_word_names: Table::default(),
        }
    }

    /// `value` and `Type::literal(value)`, both shared with an earlier
    /// equal literal when the cache still holds it.
    pub fn get(&mut self, value: Value) -> (Value, Type) {
        if let Some(shared) = fixed(&value) {
            return (value, shared);
        }
        let hash = value_hash(&value);
        if let Some((v, t)) = self.slots.get(hash) {
            if *v == value {
                return (v.clone(), t.clone());
            }
        }
        self.insert(hash, value)
    }

    /// [`LiteralTypes::get`] of a string value, without building the value
    /// when the cache holds it.
    pub fn string(&mut self, s: &str) -> (Value, Type) {
        let hash = str_hash(s);
        if let Some((v @ Value::String(held), t)) = self.slots.get(hash) {
            if **held == *s {
                return (v.clone(), t.clone());
            }
        }
        self.insert(hash, Value::string(s))
    }

    /// `s` as a shared string: the same allocation as an earlier equal
    /// text when the table still holds it (for the names that bound
    /// references repeat).
    pub fn text(&mut self, s: &str) -> Arc<str> {
        let hash = str_hash(s);
        if let Some(held) = self.names.get(hash) {
            if **held == *s {
                return held.clone();
            }
        }
        let text: Arc<str> = Arc::from(s);
        self.names.insert(hash, text.clone());
        text
    }

    /// [`LiteralTypes::text`] as a one-word [`Name`] (for the roots of
    /// bound references).
    pub fn name(&mut self, s: &str) -> Name {
        let hash = str_hash(s);
        if let Some(held) = self.one_word_names.get(hash) {
            if held.as_str() == s {
                return held.clone();
            }
        }
        let name = Name::from(s);
        self.one_word_names.insert(hash, name.clone());
        name
    }

    fn insert(&mut self, hash: u64, value: Value) -> (Value, Type) {
        let ty = Type::literal(value.clone());
        self.slots.insert(hash, (value.clone(), ty.clone()));
        (value, ty)
    }
}

/// The process-wide types of `null`, `true` and `false`.
fn fixed(value: &Value) -> Option<Type> {
    static NULL: OnceLock<Type> = OnceLock::new();
    static TRUE: OnceLock<Type> = OnceLock::new();
    static FALSE: OnceLock<Type> = OnceLock::new();
    let slot = match value {
        Value::Null => &NULL,
        Value::Bool(true) => &TRUE,
        Value::Bool(false) => &FALSE,
        _ => return None,
    };
    Some(slot.get_or_init(|| Type::literal(value.clone())).clone())
}

/// The slot of `hash` in a table of `len` slots (a power of two): the
/// hash's top bits, the well-mixed ones of a multiplicative hash.
fn slot_of(hash: u64, len: usize) -> usize {
    match len {
        0 | 1 => 0,
        _ => (hash >> (64 - len.trailing_zeros())) as usize,
    }
}

/// The hash of a value; a string hashes as [`str_hash`] of its text, so
/// that [`LiteralTypes::string`] finds it without building a value.
fn value_hash(value: &Value) -> u64 {
    match value {
        Value::String(s) => str_hash(s),
        other => {
            let mut h = FastHasher::with_seed(0x9e37_79b9_7f4a_7c15);
            other.hash(&mut h);
            h.finish()
        }
    }
}

fn str_hash(s: &str) -> u64 {
    let mut h = FastHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::value::Number;

    /// Equal literals share one type node and one string; the types are
    /// the literal types; a different value in the same slot is not
    /// mistaken for the held one.
    #[test]
    fn equal_literals_share_their_type() {
        let mut cache = LiteralTypes::new();
        let (a, ta) = cache.string("x");
        let (b, tb) = cache.get(Value::string("x"));
        assert!(ta.ptr_eq(&tb));
        match (&a, &b) {
            (Value::String(x), Value::String(y)) => assert!(std::sync::Arc::ptr_eq(x, y)),
            _ => panic!("{a:?} {b:?}"),
        }
        assert_eq!(ta, Type::literal(Value::string("x")));
        let (_, one) = cache.get(Value::int(1));
        let (_, again) = cache.get(Value::Number(Number::parse("1.0").unwrap()));
        assert!(one.ptr_eq(&again));
        assert_eq!(one, Type::literal(Value::int(1)));
        let (_, t1) = cache.get(Value::Bool(true));
        let (_, t2) = cache.get(Value::Bool(true));
        assert!(t1.ptr_eq(&t2));
        assert_eq!(t1, Type::literal(Value::Bool(true)));
        // Every one of many distinct values gets its own type.
        for i in 0..2000 {
            let (v, t) = cache.get(Value::int(i));
            assert_eq!(v, Value::int(i));
            assert_eq!(t, Type::literal(Value::int(i)), "{i}");
            let s = format!("s{i}");
            let (v, t) = cache.string(&s);
            assert_eq!(v, Value::string(s.as_str()));
            assert_eq!(t, Type::literal(Value::string(s.as_str())));
        }
        // Numbers and strings of the same text do not collide.
        let (v, _) = cache.string("1");
        assert_eq!(v, Value::string("1"));
        let (v, t) = cache.get(Value::int(1));
        assert_eq!(v, Value::int(1));
        assert_eq!(t, Type::literal(Value::int(1)));
        // Texts are shared the same way.
        let a = cache.text("name");
        let b = cache.text("name");
        assert!(Arc::ptr_eq(&a, &b));
        for i in 0..2000 {
            assert_eq!(&*cache.text(&format!("n{i}")), format!("n{i}"));
        }
    }
}
