//! The project's fast hasher, for tables whose keys are looked up very
//! often and whose collisions only cost time ([`crate::LiteralTypes`]'s
//! cache, the binder's conversion caches).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` hashed with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A multiply-rotate hasher (the one rustc uses for its own tables): a few
/// instructions per 8 bytes. It does not resist chosen collisions, so a
/// table keyed by program text that must stay linear on hostile input
/// keeps SipHash.
#[derive(Default)]
pub struct FastHasher(u64);

impl FastHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    /// A hasher whose state starts at `seed` (to hash two kinds of key
    /// apart in one table).
    pub fn with_seed(seed: u64) -> FastHasher {
        FastHasher(seed)
    }

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FastHasher {
    /// Whole words first, then the rest padded with zeros and marked with
    /// the length (so that `"a"` and `"a\0"` differ).
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        if let Some(dst) = last.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        self.add(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fast_hasher_separates_keys() {
        use std::hash::BuildHasher;
        let build = std::hash::BuildHasherDefault::<super::FastHasher>::default();
        let text = "azure-native:eventgrid:TopicSpace";
        let hashes: Vec<u64> = (0..=text.len())
            .filter_map(|n| text.get(..n))
            .map(|t| build.hash_one(t))
            .collect();
        let mut unique = hashes.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), hashes.len());
        assert_eq!(build.hash_one(text), build.hash_one(String::from(text)));
        assert_ne!(build.hash_one(1usize), build.hash_one(2usize));
        let mut map: super::FastMap<String, usize> = super::FastMap::default();
        for (i, n) in (0..=text.len()).enumerate() {
            map.insert(text.get(..n).unwrap_or_default().to_owned(), i);
        }
        assert_eq!(map.get(text), Some(&text.len()));
    }
}
