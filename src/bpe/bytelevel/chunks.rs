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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkCounts {
    chunks: Vec<(Box<[u8]>, u64)>,
}

impl ChunkCounts {
    /// Counts a sequence of chunks (any bytes, valid UTF-8 or not).
    pub fn from_chunks<C: AsRef<[u8]>>(chunks: impl IntoIterator<Item = C>) -> Self {
        let mut index: FxHashMap<Box<[u8]>, usize> = FxHashMap::default();
        let mut out = ChunkCounts::default();
        for chunk in chunks {
            let chunk = chunk.as_ref();
            match index.get(chunk) {
                Some(&i) => out.chunks[i].1 += 1,
                None => {
                    index.insert(chunk.into(), out.chunks.len());
                    out.chunks.push((chunk.into(), 1));
                }
            }
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
        let mut index: FxHashMap<Box<[u8]>, usize> = FxHashMap::default();
        let mut out = ChunkCounts::default();
        for (chunk, count) in counts {
            let chunk = chunk.as_ref();
            if count == 0 {
                continue;
            }
            match index.get(chunk) {
                Some(&i) => out.chunks[i].1 += count,
                None => {
                    index.insert(chunk.into(), out.chunks.len());
                    out.chunks.push((chunk.into(), count));
                }
            }
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
        let mut index: FxHashMap<&'t [u8], usize> = FxHashMap::default();
        let mut out = ChunkCounts::default();
        for counted in results {
            for (chunk, count) in counted? {
                match index.get(chunk) {
                    Some(&i) => out.chunks[i].1 += count,
                    None => {
                        index.insert(chunk, out.chunks.len());
                        out.chunks.push((chunk.into(), count));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Number of distinct chunks.
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Number of chunks counted, repeats included.
    pub fn total(&self) -> u64 {
        self.chunks.iter().map(|(_, c)| c).sum()
    }

    /// The distinct chunks and their counts, in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], u64)> {
        self.chunks.iter().map(|(c, n)| (&**c, *n))
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
