//! The word table of counting: words with their counts, open addressing with linear probing,
//! so that the slot a word will probe first can be asked for (prefetched) before it is counted.

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

use crate::bpe::prefetch::prefetch;

/// A word with its hash, computed once (growing a table and merging tables reuse it), and its
/// first eight bytes: most words are no longer, and comparing those needs no visit to the
/// text, whose first occurrence of the word is usually far out of cache.
#[derive(Clone, Copy)]
pub(super) struct Key<'a> {
    pub(super) hash: u64,
    head: u64,
    pub(super) word: &'a str,
}

impl<'a> Key<'a> {
    #[inline]
    pub(super) fn new(word: &'a str) -> Self {
        let bytes = word.as_bytes();
        let mut head = [0u8; 8];
        let n = bytes.len().min(8);
        head[..n].copy_from_slice(&bytes[..n]);
        Key {
            hash: FxBuildHasher.hash_one(word),
            head: u64::from_le_bytes(head),
            word,
        }
    }
}

impl PartialEq for Key<'_> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && self.head == other.head
            && self.word.len() == other.word.len()
            && (self.word.len() <= 8 || self.word == other.word)
    }
}

impl Eq for Key<'_> {}

/// Counts by word: open addressing with linear probing, so that a word's slot can be asked for
/// (prefetched) a few words before it is counted. The key's `word` is the word's first
/// occurrence in the table's part of the text (a later one finds the key already there), so
/// where the word first appears needs no field of its own.
pub(super) struct Table<'a> {
    slots: Vec<Slot<'a>>,
    len: usize,
}

/// A word and its count; a count of 0 marks an empty slot.
#[derive(Clone, Copy)]
struct Slot<'a> {
    key: Key<'a>,
    count: u64,
}

const EMPTY_SLOT: Slot<'static> = Slot {
    key: Key {
        hash: 0,
        head: 0,
        word: "",
    },
    count: 0,
};

impl Default for Table<'_> {
    fn default() -> Self {
        Table::with_capacity(0)
    }
}

impl<'a> Table<'a> {
    /// A table that holds `n` words before it grows.
    pub(super) fn with_capacity(n: usize) -> Self {
        let slots = (n * 8 / 5 + 1).next_power_of_two().max(16);
        Table {
            slots: vec![EMPTY_SLOT; slots],
            len: 0,
        }
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    /// Asks for the slot where the probe for `hash` starts.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        prefetch(&self.slots[self.home(hash)]);
    }

    /// Adds `n` (at least 1) to the count of `key`'s word, adding the word if new.
    #[inline]
    pub(super) fn add(&mut self, key: Key<'a>, n: u64) {
        debug_assert!(n > 0, "a count of 0 would read as an empty slot");
        let mask = self.slots.len() - 1;
        let mut i = self.home(key.hash);
        loop {
            let slot = &mut self.slots[i];
            if slot.count == 0 {
                *slot = Slot { key, count: n };
                self.len += 1;
                // At most five eighths full: probes stay short.
                if self.len * 8 > self.slots.len() * 5 {
                    self.grow();
                }
                return;
            }
            if slot.key == key {
                slot.count += n;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots; each entry's stored hash places it again without reading the text.
    fn grow(&mut self) {
        let doubled = vec![EMPTY_SLOT; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|s| s.count > 0) {
            let mut i = self.home(slot.key.hash);
            while self.slots[i].count != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
    }

    /// The words and their counts, in no particular order.
    pub(super) fn entries(self) -> impl Iterator<Item = (Key<'a>, u64)> {
        self.slots
            .into_iter()
            .filter(|s| s.count > 0)
            .map(|s| (s.key, s.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;
    use std::collections::HashMap;

    /// From its smallest size through many doublings, with long and short words, the empty
    /// word and words that share their first eight bytes: the same counts as a plain map, and
    /// each word kept as its first occurrence.
    #[test]
    fn counts_as_a_plain_map_does_through_growth() {
        let mut state = 5;
        let words: Vec<String> = (0..20_000)
            .map(|_| {
                let len = (splitmix64(&mut state) % 14) as usize;
                let prefix = if len > 9 { "commonhead" } else { "" };
                let tail: String = (0..len)
                    .map(|_| ['a', 'b', 'é'][(splitmix64(&mut state) % 3) as usize])
                    .collect();
                format!("{prefix}{tail}")
            })
            .collect();
        let mut table = Table::with_capacity(0);
        let mut expected: HashMap<&str, (u64, *const u8)> = HashMap::new();
        for (i, word) in words.iter().enumerate() {
            let n = 1 + i as u64 % 3;
            table.add(Key::new(word), n);
            expected.entry(word).or_insert((0, word.as_ptr())).0 += n;
        }
        let mut seen = 0;
        for (key, count) in table.entries() {
            let (want, first) = expected[key.word];
            assert_eq!(count, want, "{:?}", key.word);
            assert_eq!(
                key.word.as_ptr(),
                first,
                "{:?} is not its first occurrence",
                key.word
            );
            seen += 1;
        }
        assert_eq!(seen, expected.len());
        assert!(expected.contains_key(""));
    }
}
