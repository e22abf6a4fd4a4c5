//! Encoding one chunk with a rank table, by tiktoken's rule (the literal version is
//! [`encode_piece_naive`](super::oracle::encode_piece_naive)): the whole chunk if it is a
//! token; otherwise repeatedly merge the adjacent pair whose concatenation has the lowest
//! rank, the leftmost among equals.
//!
//! The parts of the chunk are kept as their start offsets, each with the rank of the part it
//! would make joined with its right neighbour; a merge removes one start and asks the table
//! again for the two neighbours it changed. Each round scans the parts for the lowest rank:
//! quadratic in the chunk's length, which is short (a word, a number of three digits, a run of
//! punctuation); long runs of one character are what it is slow on, as tiktoken is.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

/// No rank: the concatenation is not a token.
const NONE: u32 = u32::MAX;

/// Tokens (byte strings) and their ranks.
#[derive(Debug, Clone)]
pub struct RankTable {
    /// Every token's bytes once, one after another, and where each one ends in `bytes`, in
    /// the order they came: what [`RankTable::iter`] lists (ranks from the look-up tables).
    /// One buffer, not a box per token: loading an encoding of 200,000 tokens was mostly
    /// allocating and hashing boxes, in a process that encodes one text and exits.
    bytes: Vec<u8>,
    ends: Vec<u32>,
    /// Tokens of 16 bytes or more.
    long: FxHashMap<Box<[u8]>, u32>,
    /// The rank of each single byte, `NONE` where it has none: the most asked-for entries.
    single: Vec<u32>,
    /// Tokens of 3 to 7 bytes again, keyed by the bytes packed into a number ([`pack8`]): the
    /// merge loop asks mostly for short joins, and a number hashes and compares in one step
    /// where a boxed key is a pointer to follow and a length of bytes to compare.
    short: FxHashMap<u64, u32>,
    /// Tokens of 8 to 15 bytes again, likewise ([`pack16`]): most words.
    medium: FxHashMap<u128, u32>,
    /// The rank of every two-byte string, `NONE` where it is no token, at `first * 256 +
    /// second`: a merge loop starts by asking for every adjacent pair of bytes, and 256 KB of
    /// ranks stay in the processor's cache where a hash table's buckets do not.
    pairs: Vec<u32>,
}

/// A key of up to 7 bytes as one number: the bytes, then the length in the top byte.
#[inline]
pub(crate) fn pack8(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    debug_assert!(n < 8);
    let length = (n as u64) << 56;
    if n >= 4 {
        // Two loads of four bytes that overlap where n < 8, instead of a loop over the bytes:
        // the overlap ORs each byte with itself.
        let head = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as u64;
        let tail = u32::from_le_bytes(bytes[n - 4..].try_into().expect("4 bytes")) as u64;
        return length | head | tail << (8 * (n - 4));
    }
    let mut key = length;
    for (i, &b) in bytes.iter().enumerate() {
        key |= (b as u64) << (8 * i);
    }
    key
}

/// A key of 8 to 15 bytes as one number: the first 8 bytes, then the rest and the length in
/// the top byte.
#[inline]
pub(crate) fn pack16(bytes: &[u8]) -> u128 {
    debug_assert!((8..16).contains(&bytes.len()));
    let n = bytes.len();
    let head = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    // The last eight bytes, shifted so that byte 8 comes first (one load, no loop).
    let last = u64::from_le_bytes(bytes[n - 8..].try_into().expect("8 bytes"));
    let tail = last.checked_shr(8 * (16 - n as u32)).unwrap_or(0);
    let rest = (n as u64) << 56 | tail;
    (rest as u128) << 64 | head as u128
}

impl Default for RankTable {
    fn default() -> Self {
        RankTable::new([])
    }
}

impl RankTable {
    /// The table of `tokens` with their ranks. A token listed twice keeps its last rank.
    pub fn new(tokens: impl IntoIterator<Item = (Vec<u8>, u32)>) -> Self {
        let tokens: Vec<(Vec<u8>, u32)> = tokens.into_iter().collect();
        // Every table at its final size from the start: growing one rehashes it all again.
        let count = |lengths: std::ops::Range<usize>| {
            tokens
                .iter()
                .filter(|(b, _)| lengths.contains(&b.len()))
                .count()
        };
        let mut table = RankTable {
            bytes: Vec::with_capacity(tokens.iter().map(|(b, _)| b.len()).sum()),
            ends: Vec::with_capacity(tokens.len()),
            long: FxHashMap::with_capacity_and_hasher(count(16..usize::MAX), Default::default()),
            single: vec![NONE; 256],
            short: FxHashMap::with_capacity_and_hasher(count(3..8), Default::default()),
            medium: FxHashMap::with_capacity_and_hasher(count(8..16), Default::default()),
            pairs: vec![NONE; 1 << 16],
        };
        for (bytes, rank) in tokens {
            table.insert(bytes, rank);
        }
        table
    }

    /// The rank of `bytes`, if it is a token.
    #[inline]
    pub fn get(&self, bytes: &[u8]) -> Option<u32> {
        let r = self.rank_or_none(bytes);
        (r != NONE).then_some(r)
    }

    #[inline]
    fn rank_or_none(&self, bytes: &[u8]) -> u32 {
        match bytes.len() {
            0 => NONE,
            1 => self.single[bytes[0] as usize],
            2 => self.pairs[(bytes[0] as usize) << 8 | bytes[1] as usize],
            3..8 => self.short.get(&pack8(bytes)).copied().unwrap_or(NONE),
            8..16 => self.medium.get(&pack16(bytes)).copied().unwrap_or(NONE),
            _ => self.long.get(bytes).copied().unwrap_or(NONE),
        }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes without a single-byte token (those no table of a byte-level tokenizer may
    /// lack, or a chunk holding them could not be encoded).
    pub fn missing_bytes(&self) -> Vec<u8> {
        (0..=255u8)
            .filter(|&b| self.single[b as usize] == NONE)
            .collect()
    }

    /// Every token and its rank, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], u32)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| {
            let bytes = &self.bytes[start as usize..end as usize];
            (bytes, self.rank_or_none(bytes))
        })
    }

    /// Adds a token, or gives an existing one a new rank.
    pub fn insert(&mut self, bytes: Vec<u8>, rank: u32) {
        let old = match bytes.len() {
            0 => return,
            1 => std::mem::replace(&mut self.single[bytes[0] as usize], rank),
            2 => std::mem::replace(
                &mut self.pairs[(bytes[0] as usize) << 8 | bytes[1] as usize],
                rank,
            ),
            3..8 => self.short.insert(pack8(&bytes), rank).unwrap_or(NONE),
            8..16 => self.medium.insert(pack16(&bytes), rank).unwrap_or(NONE),
            _ => self
                .long
                .insert(bytes.as_slice().into(), rank)
                .unwrap_or(NONE),
        };
        if old == NONE {
            self.bytes.extend_from_slice(&bytes);
            self.ends.push(
                u32::try_from(self.bytes.len()).expect("a rank table holds under 4 GB of tokens"),
            );
        }
    }

    /// Appends the ranks of `piece`'s tokens to `out`. `false` (with `out` as it was) when a
    /// part is left that is not a token, which only a table without every byte allows.
    pub fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) -> bool {
        self.encode_piece_with(piece, &mut MergeScratch::default(), out)
    }

    /// [`RankTable::encode_piece`] with buffers kept between calls.
    pub fn encode_piece_with(
        &self,
        piece: &[u8],
        scratch: &mut MergeScratch,
        out: &mut Vec<u32>,
    ) -> bool {
        match piece.len() {
            0 => return true,
            1 => {
                let r = self.single[piece[0] as usize];
                if r == NONE {
                    return false;
                }
                out.push(r);
                return true;
            }
            2 => {
                // A token, or else its two bytes: nothing else can come of merging two.
                let r = self.pairs[(piece[0] as usize) << 8 | piece[1] as usize];
                if r != NONE {
                    out.push(r);
                    return true;
                }
                let (a, b) = (
                    self.single[piece[0] as usize],
                    self.single[piece[1] as usize],
                );
                if a == NONE || b == NONE {
                    return false;
                }
                out.extend([a, b]);
                return true;
            }
            _ => {}
        }
        if let Some(r) = self.get(piece) {
            out.push(r);
            return true;
        }
        self.merge(piece, scratch);
        // The merge knows each part's rank: no look-up again.
        if scratch.ranks.contains(&NONE) {
            return false;
        }
        out.extend_from_slice(&scratch.ranks);
        true
    }

    /// Appends the ranks of `piece`'s parts after merging by rank alone, without first asking
    /// whether the whole piece is a token (tiktoken's `byte_pair_encode`, which its unstable
    /// completions use on bytes that are no chunk of any text). The two differ only for a
    /// token that merging cannot reach. `false` (with `out` as it was) when a part is no token.
    pub fn merge_piece(&self, piece: &[u8], out: &mut Vec<u32>) -> bool {
        if piece.len() < 2 {
            return self.encode_piece(piece, out);
        }
        let mut scratch = MergeScratch::default();
        self.merge(piece, &mut scratch);
        if scratch.ranks.contains(&NONE) {
            return false;
        }
        out.extend_from_slice(&scratch.ranks);
        true
    }

    /// The end offsets of `piece`'s tokens but the last, in `out` (cleared first); `false`
    /// when a part is not a token. The whole piece is one part if it is a token.
    pub fn encode_piece_parts(&self, piece: &[u8], out: &mut Vec<usize>) -> bool {
        out.clear();
        if piece.is_empty() {
            return true;
        }
        if piece.len() >= 2 && self.get(piece).is_some() {
            return true;
        }
        let mut scratch = MergeScratch::default();
        if piece.len() == 1 {
            scratch.starts = vec![0, 1];
        } else {
            self.merge(piece, &mut scratch);
        }
        for w in scratch.starts.windows(2) {
            if self.get(&piece[w[0]..w[1]]).is_none() {
                out.clear();
                return false;
            }
            if w[1] < piece.len() {
                out.push(w[1]);
            }
        }
        true
    }

    /// tiktoken's merging of a piece of two or more bytes, leaving the start of every part,
    /// then `piece.len()`, in `scratch.starts`. Short pieces scan their parts for the lowest
    /// rank each round (quadratic, but a chunk is mostly a word); long ones (a run of one
    /// character, a long word in a script without spaces) keep the joins in a heap.
    fn merge(&self, piece: &[u8], scratch: &mut MergeScratch) {
        if piece.len() > LONG_PIECE {
            return self.merge_long(piece, scratch);
        }
        // (start, rank of the part from here to two starts on), and two closing entries so
        // that every part has a successor start; beside it, each part's own rank.
        let parts = &mut scratch.parts;
        let own = &mut scratch.ranks;
        parts.clear();
        own.clear();
        for i in 0..piece.len() - 1 {
            parts.push((i, self.rank_or_none(&piece[i..i + 2])));
        }
        parts.push((piece.len() - 1, NONE));
        parts.push((piece.len(), NONE));
        own.extend(piece.iter().map(|&b| self.single[b as usize]));
        // The rank of joining part `i` with part `i + 1`, as they stand.
        let joined = |parts: &[(usize, u32)], i: usize| -> u32 {
            if i + 3 < parts.len() {
                self.rank_or_none(&piece[parts[i].0..parts[i + 3].0])
            } else {
                NONE
            }
        };
        loop {
            let mut best = (NONE, 0);
            for (i, &(_, rank)) in parts[..parts.len() - 2].iter().enumerate() {
                if rank < best.0 {
                    best = (rank, i);
                }
            }
            if best.0 == NONE {
                break;
            }
            let i = best.1;
            // Part i absorbs part i + 1: its own join and its left neighbour's change.
            own[i] = best.0;
            own.remove(i + 1);
            parts[i].1 = joined(parts, i);
            if i > 0 {
                parts[i - 1].1 = joined(parts, i - 1);
            }
            parts.remove(i + 1);
        }
        scratch.starts.clear();
        scratch.starts.extend(parts.iter().map(|&(s, _)| s));
    }

    /// [`RankTable::merge`] for a long piece: the parts as a linked list over their start
    /// bytes, and every join that may happen in a min-heap of (rank, start), so the lowest rank
    /// comes out first and, among equal ranks, the leftmost, as in the scan. An entry whose
    /// part has gone or whose join has changed since is skipped when it comes out.
    fn merge_long(&self, piece: &[u8], scratch: &mut MergeScratch) {
        let n = piece.len();
        // next[i]: the start of the part after the part starting at i (n past the last);
        // prev[i]: the start of the part before; join[i]: the rank of joining part i with the
        // next; NONE where none (or where i is no part's start any more).
        let MergeScratch {
            next,
            prev,
            join,
            heap,
            starts,
            ranks,
            ..
        } = scratch;
        next.clear();
        next.extend(1..=n);
        prev.clear();
        prev.extend((0..n).map(|i| i.wrapping_sub(1)));
        join.clear();
        heap.clear();
        for i in 0..n {
            let r = if i + 1 < n {
                self.rank_or_none(&piece[i..i + 2])
            } else {
                NONE
            };
            join.push(r);
            if r != NONE {
                heap.push(Reverse((r, i)));
            }
        }
        let mut alive = vec![true; n];
        // Each part's own rank, at its start.
        let mut own: Vec<u32> = piece.iter().map(|&b| self.single[b as usize]).collect();
        while let Some(Reverse((rank, i))) = heap.pop() {
            if !alive[i] || join[i] != rank {
                continue;
            }
            // Part i absorbs the part after it.
            let gone = next[i];
            alive[gone] = false;
            own[i] = rank;
            next[i] = next[gone];
            if next[i] < n {
                prev[next[i]] = i;
            }
            let after = next[i];
            join[i] = if after < n {
                self.rank_or_none(&piece[i..next[after]])
            } else {
                NONE
            };
            if join[i] != NONE {
                heap.push(Reverse((join[i], i)));
            }
            let before = prev[i];
            if before != usize::MAX {
                join[before] = self.rank_or_none(&piece[before..next[i]]);
                if join[before] != NONE {
                    heap.push(Reverse((join[before], before)));
                }
            }
        }
        starts.clear();
        ranks.clear();
        let mut at = 0;
        while at < n {
            starts.push(at);
            ranks.push(own[at]);
            at = next[at];
        }
        starts.push(n);
    }
}

/// Pieces longer than this many bytes are merged with a heap ([`RankTable::merge`]).
const LONG_PIECE: usize = 96;

/// The buffers of [`RankTable::merge`], kept by a caller that encodes many pieces.
#[derive(Debug, Default, Clone)]
pub struct MergeScratch {
    parts: Vec<(usize, u32)>,
    next: Vec<usize>,
    prev: Vec<usize>,
    join: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, usize)>>,
    /// The result: the start of every part, then the piece's length; and the rank of every
    /// part (`NONE` for a part that is no token, a byte the table lacks).
    starts: Vec<usize>,
    ranks: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packing as first written, byte by byte: the keys must not change with the loads.
    fn pack_bytes(bytes: &[u8]) -> u128 {
        let (head, tail) = bytes.split_at(bytes.len().min(8));
        let mut low = 0u128;
        for (i, &b) in head.iter().enumerate() {
            low |= (b as u128) << (8 * i);
        }
        let mut high = (bytes.len() as u128) << 56;
        for (i, &b) in tail.iter().enumerate() {
            high |= (b as u128) << (8 * i);
        }
        if bytes.len() < 8 {
            (bytes.len() as u128) << 56 | low
        } else {
            high << 64 | low
        }
    }

    #[test]
    fn packed_keys_equal_the_bytes_one_by_one() {
        let mut x: u64 = 7;
        for _ in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (x >> 60) as usize; // 0..16
            let bytes: Vec<u8> = (0..n).map(|i| (x >> (i % 8 * 8)) as u8 ^ i as u8).collect();
            if n < 8 {
                assert_eq!(pack8(&bytes) as u128, pack_bytes(&bytes), "{bytes:?}");
            } else {
                assert_eq!(pack16(&bytes), pack_bytes(&bytes), "{bytes:?}");
            }
        }
    }
}
