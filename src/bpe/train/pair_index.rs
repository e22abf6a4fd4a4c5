//! Pair ids by their two symbols: a hash table of open addressing with linear probing.
//!
//! A general hash map would do, but the rounds look pairs up in batches (every neighbour of a
//! merge at once) in a table of millions of pairs, each lookup a cache miss. Knowing where a
//! key's probe starts lets the engine prefetch the whole batch before looking anything up
//! ([`PairIndex::prefetch`]). Pairs are never removed, so probing needs no tombstones.

/// Pair ids by `(left, right)`.
pub(super) struct PairIndex {
    slots: Vec<Slot>,
    len: usize,
    /// `64 - log2(slots.len())`: the hash's top bits pick the first slot.
    shift: u32,
}

/// Twelve bytes: the two symbols and the id.
#[derive(Clone, Copy)]
struct Slot {
    left: u32,
    right: u32,
    id: u32,
}

const EMPTY: u32 = u32::MAX;
const MIN_SLOTS: usize = 1 << 10;

impl Default for PairIndex {
    fn default() -> Self {
        Self::with_slots(MIN_SLOTS)
    }
}

impl PairIndex {
    fn with_slots(n: usize) -> Self {
        debug_assert!(n.is_power_of_two());
        PairIndex {
            slots: vec![
                Slot {
                    left: 0,
                    right: 0,
                    id: EMPTY
                };
                n
            ],
            len: 0,
            shift: 64 - n.trailing_zeros(),
        }
    }

    /// Where the probe for `(left, right)` starts (Fibonacci hashing: the product's top
    /// bits).
    #[inline]
    fn home(&self, left: u32, right: u32) -> usize {
        let key = (u64::from(left) << 32) | u64::from(right);
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The id of `(left, right)`, if indexed.
    #[inline]
    pub(super) fn get(&self, left: u32, right: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(left, right);
        loop {
            let slot = self.slots[i];
            if slot.id == EMPTY {
                return None;
            }
            if slot.left == left && slot.right == right {
                return Some(slot.id);
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `(left, right)`, indexing it as `new_id` if absent; says whether it was new.
    #[inline]
    pub(super) fn get_or_insert(&mut self, left: u32, right: u32, new_id: u32) -> (u32, bool) {
        // At most five eighths full: linear probes stay short.
        if (self.len + 1) * 8 > self.slots.len() * 5 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(left, right);
        loop {
            let slot = &mut self.slots[i];
            if slot.id == EMPTY {
                *slot = Slot {
                    left,
                    right,
                    id: new_id,
                };
                self.len += 1;
                return (new_id, true);
            }
            if slot.left == left && slot.right == right {
                return (slot.id, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the CPU to fetch the slot where a lookup of `(left, right)` starts.
    #[inline]
    pub(super) fn prefetch(&self, left: u32, right: u32) {
        crate::bpe::prefetch::prefetch(&self.slots[self.home(left, right)]);
    }

    fn grow(&mut self) {
        let mut bigger = Self::with_slots(self.slots.len() * 2);
        let mask = bigger.slots.len() - 1;
        for slot in self.slots.iter().filter(|s| s.id != EMPTY) {
            let mut i = bigger.home(slot.left, slot.right);
            while bigger.slots[i].id != EMPTY {
                i = (i + 1) & mask;
            }
            bigger.slots[i] = *slot;
        }
        bigger.len = self.len;
        *self = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;
    use std::collections::HashMap;

    /// Lookups and insertions agree with a standard map through many growths, with keys that
    /// share halves (the same left or right symbol), as pairs do.
    #[test]
    fn agrees_with_a_hash_map() {
        let mut index = PairIndex::default();
        let mut expected: HashMap<(u32, u32), u32> = HashMap::new();
        let mut state = 9;
        for step in 0..200_000u32 {
            let left = (splitmix64(&mut state) % 600) as u32;
            let right = (splitmix64(&mut state) % 600) as u32;
            if step % 3 == 0 {
                assert_eq!(
                    index.get(left, right),
                    expected.get(&(left, right)).copied()
                );
            } else {
                let next = expected.len() as u32;
                let id = *expected.entry((left, right)).or_insert(next);
                assert_eq!(index.get_or_insert(left, right, next), (id, id == next));
            }
        }
        assert_eq!(index.len, expected.len());
    }
}
