//! [`Name`]: a shared name in one word.
//!
//! Bound references repeat the names they use (`${a}${a}…`, a million
//! `a`s), so the binder shares one allocation per name
//! ([`crate::LiteralTypes::text`]). An `Arc<str>` is a fat pointer of two
//! words; a `Name` points at a shared [`SmolStr`] and is one word, which
//! keeps the nodes that hold a name (a bound traversal's root, a keyword
//! definition) in a smaller allocation size class. A name of up to 23
//! bytes is stored in that one allocation (an `Arc<String>` took two: a
//! program of 100,000 distinct names paid 80 bytes each, now 48).

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use smol_str::SmolStr;

/// A cheap-to-clone shared name; reads as a `str`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<SmolStr>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::new(SmolStr::new(s)))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::new(SmolStr::from(s)))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_word_that_reads_as_its_text() {
        assert_eq!(std::mem::size_of::<Name>(), std::mem::size_of::<usize>());
        let a = Name::from("abc");
        assert_eq!(&*a, "abc");
        assert_eq!(a, "abc");
        assert_eq!(format!("{a:?} {a}"), "\"abc\" abc");
        assert_ne!(a, Name::from("abd"));
    }
}
