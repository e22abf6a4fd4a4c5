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

use rustc_hash::FxHashMap;

/// No rank: the concatenation is not a token.
const NONE: u32 = u32::MAX;

/// Tokens (byte strings) and their ranks.
#[derive(Debug, Clone, Default)]
pub struct RankTable {
    map: FxHashMap<Box<[u8]>, u32>,
    /// The rank of each single byte, `NONE` where it has none: the most asked-for entries.
    single: Vec<u32>,
}

impl RankTable {
    /// The table of `tokens` with their ranks. A token listed twice keeps its last rank.
    pub fn new(tokens: impl IntoIterator<Item = (Vec<u8>, u32)>) -> Self {
        let mut table = RankTable {
            map: FxHashMap::default(),
            single: vec![NONE; 256],
        };
        for (bytes, rank) in tokens {
            if bytes.len() == 1 {
                table.single[bytes[0] as usize] = rank;
            }
            table.map.insert(bytes.into_boxed_slice(), rank);
        }
        table
    }

    /// The rank of `bytes`, if it is a token.
    #[inline]
    pub fn get(&self, bytes: &[u8]) -> Option<u32> {
        if bytes.len() == 1 {
            let r = self.single[bytes[0] as usize];
            return (r != NONE).then_some(r);
        }
        self.map.get(bytes).copied()
    }

    #[inline]
    fn rank_or_none(&self, bytes: &[u8]) -> u32 {
        self.map.get(bytes).copied().unwrap_or(NONE)
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
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
        self.map.iter().map(|(b, &r)| (&**b, r))
    }

    /// Adds a token, or gives an existing one a new rank.
    pub fn insert(&mut self, bytes: Vec<u8>, rank: u32) {
        if bytes.len() == 1 {
            self.single[bytes[0] as usize] = rank;
        }
        self.map.insert(bytes.into_boxed_slice(), rank);
    }

    /// Appends the ranks of `piece`'s tokens to `out`. `false` (with `out` as it was) when a
    /// part is left that is not a token, which only a table without every byte allows.
    pub fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) -> bool {
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
            _ => {}
        }
        if let Some(&r) = self.map.get(piece) {
            out.push(r);
            return true;
        }
        let parts = self.merge(piece);
        let mark = out.len();
        for w in parts.windows(2) {
            match self.get(&piece[w[0].0..w[1].0]) {
                Some(r) => out.push(r),
                None => {
                    out.truncate(mark);
                    return false;
                }
            }
        }
        true
    }

    /// The end offsets of `piece`'s tokens but the last, in `out` (cleared first); `false`
    /// when a part is not a token. The whole piece is one part if it is a token.
    pub fn encode_piece_parts(&self, piece: &[u8], out: &mut Vec<usize>) -> bool {
        out.clear();
        if piece.is_empty() {
            return true;
        }
        if piece.len() >= 2 && self.map.contains_key(piece) {
            return true;
        }
        let parts = if piece.len() == 1 {
            vec![(0, NONE), (1, NONE)]
        } else {
            self.merge(piece)
        };
        for w in parts.windows(2) {
            if self.get(&piece[w[0].0..w[1].0]).is_none() {
                out.clear();
                return false;
            }
            if w[1].0 < piece.len() {
                out.push(w[1].0);
            }
        }
        true
    }

    /// tiktoken's merging of a piece of two or more bytes: the start of every part, then
    /// `piece.len()`.
    fn merge(&self, piece: &[u8]) -> Vec<(usize, u32)> {
        // (start, rank of the part from here to two starts on), and two closing entries so
        // that every part has a successor start.
        let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
        for i in 0..piece.len() - 1 {
            parts.push((i, self.rank_or_none(&piece[i..i + 2])));
        }
        parts.push((piece.len() - 1, NONE));
        parts.push((piece.len(), NONE));
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
            parts[i].1 = joined(&parts, i);
            if i > 0 {
                parts[i - 1].1 = joined(&parts, i - 1);
            }
            parts.remove(i + 1);
        }
        parts
    }
}
