//! Encoding many chunks with one rank table: the merge buffers kept between chunks, and a
//! cache of the chunks already seen. Text repeats its words, and a word that is not a token
//! (most words of most scripts in an English-heavy vocabulary) costs a merge loop every time
//! it comes; the second time it costs one hash look-up. Chunks that are one token are cached
//! too, and the cache is asked first: a repeated chunk costs one look-up whether it is a token
//! or not, where asking the rank table first cost a second one for every chunk that is not.
//! The cache is bounded: once full it keeps what it holds (the words seen first, the frequent
//! ones in most texts) and adds nothing.

use rustc_hash::FxHashMap;

use crate::bpe::bytelevel::ranks::{MergeScratch, RankTable, pack8, pack16};

/// At most this many chunks are cached (about 40 MB for long chunks, far less for words).
const CACHE_ENTRIES: usize = 1 << 19;
/// Room made at the start in each table of the cache: enough for a text of a few megabytes
/// without growing (a grown table is fresh memory, copied into and zeroed by the kernel), not
/// so much that a short text pays for memory it never uses.
const START_ENTRIES: usize = 1 << 15;

/// One thread's encoder of chunks: [`RankTable::encode_piece`] with buffers and a cache.
#[derive(Debug, Clone)]
pub struct ChunkEncoder<'r> {
    table: &'r RankTable,
    scratch: MergeScratch,
    /// A chunk's ids: (offset, count) in `ids`; (the id, 1) for a chunk of one token. Chunks of
    /// up to 15 bytes (most words) are keyed by their bytes packed into a number, as the rank
    /// table keys them; longer ones by their bytes.
    short: FxHashMap<u64, (u32, u32)>,
    medium: FxHashMap<u128, (u32, u32)>,
    long: FxHashMap<Box<[u8]>, (u32, u32)>,
    ids: Vec<u32>,
}

impl<'r> ChunkEncoder<'r> {
    pub fn new(table: &'r RankTable) -> Self {
        ChunkEncoder {
            table,
            scratch: MergeScratch::default(),
            short: FxHashMap::with_capacity_and_hasher(START_ENTRIES, Default::default()),
            medium: FxHashMap::with_capacity_and_hasher(START_ENTRIES, Default::default()),
            long: FxHashMap::with_capacity_and_hasher(START_ENTRIES / 4, Default::default()),
            ids: Vec::with_capacity(START_ENTRIES * 4),
        }
    }

    /// Appends the ranks of `chunk`'s tokens to `out`, as [`RankTable::encode_piece`] does:
    /// a chunk that is a token from the table, one merged before from the cache.
    #[inline]
    pub fn encode(&mut self, chunk: &[u8], out: &mut Vec<u32>) -> bool {
        if chunk.len() <= 2 {
            // A table look-up decides: a pair of bytes is a token or two.
            return self.table.encode_piece_with(chunk, &mut self.scratch, out);
        }
        let cached = match chunk.len() {
            3..8 => self.short.get(&pack8(chunk)),
            8..16 => self.medium.get(&pack16(chunk)),
            _ => self.long.get(chunk),
        };
        if let Some(&(at, count)) = cached {
            if count == 1 {
                out.push(at);
            } else {
                // Element by element: a chunk has a few ids, and `extend_from_slice` calls
                // `memcpy`, whose call cost more than the copy (a twentieth of the time).
                out.reserve(count as usize);
                for &id in &self.ids[at as usize..(at + count) as usize] {
                    out.push(id);
                }
            }
            return true;
        }
        let mark = out.len();
        // encode_piece_with asks the table for the whole chunk first.
        if !self.table.encode_piece_with(chunk, &mut self.scratch, out) {
            return false;
        }
        let entries = self.short.len() + self.medium.len() + self.long.len();
        if entries < CACHE_ENTRIES && self.ids.len() < u32::MAX as usize / 2 {
            let count = (out.len() - mark) as u32;
            let at = if count == 1 {
                out[mark]
            } else {
                let at = self.ids.len() as u32;
                self.ids.extend_from_slice(&out[mark..]);
                at
            };
            match chunk.len() {
                3..8 => {
                    self.short.insert(pack8(chunk), (at, count));
                }
                8..16 => {
                    self.medium.insert(pack16(chunk), (at, count));
                }
                _ => {
                    self.long.insert(chunk.into(), (at, count));
                }
            }
        }
        true
    }
}
