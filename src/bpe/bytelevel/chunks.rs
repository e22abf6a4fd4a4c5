//! The byte-level trainer's input: each distinct chunk once, as bytes, with its count, in order
//! of first appearance.
//!
//! First appearance is what makes the first-seen tie-break equal minbpe's: minbpe scans the
//! chunks of the text in order, and a pair's first occurrence lies in the first chunk that
//! holds it, which is that chunk's first appearance; so ordering pairs by (distinct chunk in
//! order of first appearance, position) orders them as minbpe's dictionary does.

use std::thread;

use rustc_hash::FxHashMap;

use crate::bpe::bytelevel::pattern::{SplitError, Splitter};
use crate::bpe::bytelevel::specials::{Piece, pieces};

/// Distinct chunks of a part of a text with their counts, in order of first appearance.
type Counted<'t> = Vec<(&'t [u8], u64)>;

/// Distinct chunks with their counts, in order of first appearance.
///
/// ```
/// use bpe_lab::bpe::bytelevel::ChunkCounts;
/// let chunks = ChunkCounts::from_chunks(["ab", "c", "ab"]);
/// assert_eq!(chunks.iter().collect::<Vec<_>>(), [(&b"ab"[..], 2), (&b"c"[..], 1)]);
/// ```
///
/// The chunks' bytes live one after another in one buffer, found again through a table of
/// their positions: a text of a few megabytes has a few hundred thousand distinct chunks, and
/// two boxes each (one for the list, one for the look-up table's key) made allocating and
/// freeing them a third of counting's time.
#[derive(Debug, Clone, Default)]
pub struct ChunkCounts {
    /// Every distinct chunk's bytes, in order of first appearance, and where each one ends.
    bytes: Vec<u8>,
    ends: Vec<usize>,
    counts: Vec<u64>,
    /// Each chunk's hash, kept so the table can grow without hashing the bytes again.
    hashes: Vec<u64>,
    /// Open addressing over the chunks: 0 for an empty slot, else a chunk's index + 1. At most
    /// half full, a power of two long (or empty before the first chunk).
    slots: Vec<u32>,
}

/// Equal when the same chunks come in the same order with the same counts.
impl PartialEq for ChunkCounts {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes && self.ends == other.ends && self.counts == other.counts
    }
}

impl Eq for ChunkCounts {}

/// The hash of a chunk's bytes.
fn chunk_hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

/// The first slot to try for `hash` in a table of `mask + 1` slots: the high bits, the best
/// mixed of FxHasher's.
fn home_slot(hash: u64, mask: usize) -> usize {
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

impl ChunkCounts {
    /// No chunks yet ([`ChunkCounts::add`] them).
    pub fn new() -> Self {
        ChunkCounts::default()
    }

    /// Counts `chunk` `count` more times: a chunk met before adds to its count and keeps its
    /// place, a new one goes last. A count of 0 adds nothing.
    pub fn add(&mut self, chunk: &[u8], count: u64) {
        if count == 0 {
            return;
        }
        if (self.counts.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let hash = chunk_hash(chunk);
        let mask = self.slots.len() - 1;
        let mut slot = home_slot(hash, mask);
        loop {
            match self.slots[slot] {
                0 => break,
                taken => {
                    let i = taken as usize - 1;
                    if self.hashes[i] == hash && self.chunk(i) == chunk {
                        self.counts[i] += count;
                        return;
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
        let index = u32::try_from(self.counts.len() + 1).expect("fewer than 2^32 distinct chunks");
        self.slots[slot] = index;
        self.bytes.extend_from_slice(chunk);
        self.ends.push(self.bytes.len());
        self.counts.push(count);
        self.hashes.push(hash);
    }

    /// Twice the slots (16 at first), every chunk placed again from its kept hash.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let mask = size - 1;
        self.slots = vec![0; size];
        for (i, &hash) in self.hashes.iter().enumerate() {
            let mut slot = home_slot(hash, mask);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = i as u32 + 1;
        }
    }

    /// The bytes of chunk `i`.
    fn chunk(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    /// Counts a sequence of chunks (any bytes, valid UTF-8 or not).
    pub fn from_chunks<C: AsRef<[u8]>>(chunks: impl IntoIterator<Item = C>) -> Self {
        let mut out = ChunkCounts::new();
        for chunk in chunks {
            out.add(chunk.as_ref(), 1);
        }
        out
    }

    /// Chunks counted elsewhere (a stream read piece by piece, shards counted where they live),
    /// as (chunk, count) in the order they were met: a chunk listed again has its counts summed
    /// and keeps its first place, so the result is what counting the whole text at once gives.
    /// Chunks with a count of 0 are left out.
    ///
    /// ```
    /// use bpe_lab::bpe::bytelevel::ChunkCounts;
    /// let chunks = ChunkCounts::from_counts([("ab", 2), ("c", 1), ("ab", 3)]);
    /// assert_eq!(chunks.iter().collect::<Vec<_>>(), [(&b"ab"[..], 5), (&b"c"[..], 1)]);
    /// ```
    pub fn from_counts<C: AsRef<[u8]>>(counts: impl IntoIterator<Item = (C, u64)>) -> Self {
        let mut out = ChunkCounts::new();
        for (chunk, count) in counts {
            out.add(chunk.as_ref(), count);
        }
        out
    }

    /// The chunks of `text` split by `splitter`, with the text first cut at every occurrence of
    /// `specials` (which are left out: training never sees them, and nothing is merged across
    /// them). Counting runs on `threads` threads where the pattern allows cutting the text
    /// (see [`Splitter::cut_points`]); the result is the same on any number.
    pub fn from_text<'t>(
        text: &'t str,
        splitter: &Splitter,
        specials: &[&str],
        threads: usize,
    ) -> Result<Self, SplitError> {
        // Parts of the text that split on their own: the pieces between specials, each cut
        // further where the pattern allows. `(piece, start, end)`, ends relative to the piece.
        let mut parts: Vec<(&'t str, usize, usize)> = Vec::new();
        let threads = threads.max(1);
        for piece in pieces(text, specials) {
            let Piece::Text(piece) = piece else { continue };
            let share = (piece.len() * threads).div_ceil(text.len().max(1));
            let mut start = 0;
            for cut in splitter.cut_points(piece, share.max(1)) {
                parts.push((piece, start, cut));
                start = cut;
            }
            parts.push((piece, start, piece.len()));
        }
        // One contiguous run of parts per thread, so each thread's first appearances are in
        // text order and the tables merge in order.
        let total: usize = parts.iter().map(|&(_, s, e)| e - s).sum();
        let mut groups: Vec<Vec<(&'t str, usize, usize)>> = vec![Vec::new()];
        let mut filled = 0;
        for part in parts {
            let (_, s, e) = part;
            if filled >= total.div_ceil(threads) && groups.len() < threads {
                groups.push(Vec::new());
                filled = 0;
            }
            filled += e - s;
            groups.last_mut().unwrap().push(part);
        }
        let count_group = |group: &[(&'t str, usize, usize)]| count_parts(splitter, group);
        let results: Vec<Result<Counted<'t>, SplitError>> = if groups.len() == 1 {
            vec![count_group(&groups[0])]
        } else {
            thread::scope(|scope| {
                let handles: Vec<_> = groups
                    .iter()
                    .map(|g| scope.spawn(|| count_group(g)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a counting thread panicked"))
                    .collect()
            })
        };
        let mut out = ChunkCounts::new();
        for counted in results {
            for (chunk, count) in counted? {
                out.add(chunk, count);
            }
        }
        Ok(out)
    }

    /// Number of distinct chunks.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Number of chunks counted, repeats included.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The distinct chunks and their counts, in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], u64)> {
        (0..self.counts.len()).map(|i| (self.chunk(i), self.counts[i]))
    }
}

/// The distinct chunks of some parts of a text (see [`ChunkCounts::from_text`]), with their
/// counts, in order of first appearance.
fn count_parts<'t>(
    splitter: &Splitter,
    parts: &[(&'t str, usize, usize)],
) -> Result<Counted<'t>, SplitError> {
    let mut index: FxHashMap<&'t [u8], usize> = FxHashMap::default();
    let mut counted: Vec<(&'t [u8], u64)> = Vec::new();
    for &(piece, start, end) in parts {
        splitter.for_each_chunk(piece, start, end, |chunk| {
            let chunk = chunk.as_bytes();
            match index.get(chunk) {
                Some(&i) => counted[i].1 += 1,
                None => {
                    index.insert(chunk, counted.len());
                    counted.push((chunk, 1));
                }
            }
        })?;
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The literal count: a list searched from the start for every chunk.
    fn naive(items: &[(Vec<u8>, u64)]) -> Vec<(Vec<u8>, u64)> {
        let mut out: Vec<(Vec<u8>, u64)> = Vec::new();
        for (chunk, count) in items {
            if *count == 0 {
                continue;
            }
            match out.iter_mut().find(|(c, _)| c == chunk) {
                Some(entry) => entry.1 += count,
                None => out.push((chunk.clone(), *count)),
            }
        }
        out
    }

    #[test]
    fn counts_equal_the_literal_count_through_growth_and_collisions() {
        let mut x: u64 = 11;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        };
        for round in 0..40 {
            // Small alphabets and short chunks make repeats; the empty chunk, invalid UTF-8
            // and long chunks come too; up to a few thousand items grow the table many times.
            let alphabet = 1 + round % 5;
            let items: Vec<(Vec<u8>, u64)> = (0..(round * 97) % 3000)
                .map(|_| {
                    let len = (next() % 6) as usize + if next() % 50 == 0 { 40 } else { 0 };
                    let chunk = (0..len)
                        .map(|_| [b'a', 0xFF, b' ', 0xE1, b'z'][(next() % alphabet) as usize])
                        .collect();
                    (chunk, next() % 4)
                })
                .collect();
            let counted = ChunkCounts::from_counts(items.iter().map(|(c, n)| (c, *n)));
            let got: Vec<(Vec<u8>, u64)> = counted.iter().map(|(c, n)| (c.to_vec(), n)).collect();
            assert_eq!(got, naive(&items), "round {round}");
            assert_eq!(counted.len(), got.len());
            assert_eq!(counted.total(), got.iter().map(|(_, n)| n).sum::<u64>());
        }
    }
}
