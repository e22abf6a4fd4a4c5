//! A vector that grows by whole chunks and never moves what it holds.
//!
//! The engine's pair slots grow from about a hundred thousand to over a million during
//! training. A `Vec` doubles and copies: on 42.5 MB of Linux documentation the last doubling
//! copied 50 MB into a fresh 100 MB block, whose pages the kernel zeroes first, and for a
//! moment held both blocks (a twelfth of the merge loop's time went to those copies and page
//! faults). Chunks of a fixed size are allocated once each and never copied; an index costs one
//! more load, from a table of chunk pointers that stays in cache.

use std::ops::{Index, IndexMut};

/// Items per chunk (a power of two): 3 MB of pair slots.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A growable sequence indexed like a `Vec`, stored in chunks of [`CHUNK`] items; every chunk
/// but the last is full.
pub(super) struct ChunkedVec<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        ChunkedVec { chunks: Vec::new() }
    }
}

impl<T> ChunkedVec<T> {
    pub(super) fn len(&self) -> usize {
        self.chunks
            .last()
            .map_or(0, |last| (self.chunks.len() - 1) * CHUNK + last.len())
    }

    pub(super) fn push(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(value),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(value);
                self.chunks.push(chunk);
            }
        }
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }
}

impl<T> Index<usize> for ChunkedVec<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<T> IndexMut<usize> for ChunkedVec<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indexing, writing and iterating agree with a `Vec` across several chunk boundaries.
    #[test]
    fn behaves_as_a_vec() {
        let mut chunked = ChunkedVec::default();
        let mut plain = Vec::new();
        for i in 0..3 * CHUNK as u64 + 5 {
            chunked.push(i * 7);
            plain.push(i * 7);
        }
        for i in (0..plain.len()).step_by(997) {
            chunked[i] += 1;
            plain[i] += 1;
        }
        assert_eq!(chunked.len(), plain.len());
        assert!(chunked.iter().eq(plain.iter()));
        assert_eq!(chunked[CHUNK], plain[CHUNK]);
        assert_eq!(chunked[plain.len() - 1], plain[plain.len() - 1]);
    }
}
