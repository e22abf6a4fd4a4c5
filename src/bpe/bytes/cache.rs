//! Encoding many chunks with one rank table: the merge buffers kept between chunks, and a
//! cache of the chunks already merged. Text repeats its words, and a word that is not a token
//! (most words of most scripts in an English-heavy vocabulary) costs a merge loop every time
//! it comes; the second time it costs one hash look-up. The cache is bounded: once full it
//! keeps what it holds (the words seen first, the frequent ones in most texts) and adds
//! nothing.

use rustc_hash::FxHashMap;

use crate::bpe::bytes::ranks::{MergeScratch, RankTable};

/// At most this many chunks are cached (about 40 MB for long chunks, far less for words).
const CACHE_ENTRIES: usize = 1 << 18;

/// One thread's encoder of chunks: [`RankTable::encode_piece`] with buffers and a cache.
#[derive(Debug, Clone)]
pub struct ChunkEncoder<'r> {
    table: &'r RankTable,
    scratch: MergeScratch,
    /// A chunk's ids: (offset, count) in `ids`; (the id, 1) for a chunk of one token.
    cache: FxHashMap<Box<[u8]>, (u32, u32)>,
    ids: Vec<u32>,
}

impl<'r> ChunkEncoder<'r> {
    pub fn new(table: &'r RankTable) -> Self {
        ChunkEncoder {
            table,
            scratch: MergeScratch::default(),
            cache: FxHashMap::default(),
            ids: Vec::new(),
        }
    }

    /// Appends the ranks of `chunk`'s tokens to `out`, as [`RankTable::encode_piece`] does.
    ///
    /// A chunk of up to 7 bytes is looked up in the table first (a number's hash); a longer
    /// one in the cache first, which holds the long tokens met too, so that a word met again
    /// costs one look-up whether it is one token or many.
    #[inline]
    pub fn encode(&mut self, chunk: &[u8], out: &mut Vec<u32>) -> bool {
        if chunk.len() < 2 {
            return self.table.encode_piece(chunk, out);
        }
        let short = chunk.len() < 8;
        if short && let Some(r) = self.table.get(chunk) {
            out.push(r);
            return true;
        }
        if let Some(&(at, count)) = self.cache.get(chunk) {
            if count == 1 {
                out.push(at);
            } else {
                out.extend_from_slice(&self.ids[at as usize..(at + count) as usize]);
            }
            return true;
        }
        let room = self.cache.len() < CACHE_ENTRIES;
        if !short && let Some(r) = self.table.get(chunk) {
            out.push(r);
            if room {
                // One token: the id itself stands where the offset would.
                self.cache.insert(chunk.into(), (r, 1));
            }
            return true;
        }
        let mark = out.len();
        if !self.table.encode_piece_with(chunk, &mut self.scratch, out) {
            return false;
        }
        if room && self.ids.len() < u32::MAX as usize / 2 {
            let count = (out.len() - mark) as u32;
            let at = if count == 1 {
                out[mark]
            } else {
                let at = self.ids.len() as u32;
                self.ids.extend_from_slice(&out[mark..]);
                at
            };
            self.cache.insert(chunk.into(), (at, count));
        }
        true
    }
}
