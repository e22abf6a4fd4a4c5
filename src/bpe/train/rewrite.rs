//! The merge pass itself: rewriting the words of a pair's list, as the oracle's left-to-right
//! pass does, and recording in [`RoundTotals`] exactly the pairs each rewrite destroys and
//! creates.
//!
//! Tried and dropped, each measured (docs/benchmarks.md, "The merge loop, tried and dropped"):
//! - splitting the merges of long lists (32 k words and more) between two threads, each
//!   rewriting the words of one range of ids (a range of the arena) with totals of its own,
//!   added together after: a gain at first, none once the pair lookups were prefetched; these
//!   machines' two cores behave like one core's two hyperthreads for memory-bound work;
//! - visiting a list in two passes, first reading only spans to gather the words due a pass
//!   (so that stale entries take no place in the symbols' prefetch distance), then rewriting
//!   those: no faster;
//! - the words' symbol sets in an array of their own (4 MB instead of inside the 16 MB of
//!   spans), fetched 24 words ahead, so that a stale entry costs a read of that array and no
//!   span: slower on one corpus, even on the other, since a word that holds the pair now costs
//!   three misses.
//!
//! Measured and not built: stopping a list's visit once the occurrences found add up to the
//! pair's count: almost none of the entries visited come after a list's last word that still
//! holds the pair (the stale ones are spread through the lists).

use crate::bpe::prefetch::prefetch;
use crate::bpe::train::round::{PairChange, RoundTotals};
use crate::bpe::words::{WordSpan, symbol_bit, symbol_bits};

// Visiting a word costs two cache misses (its span, then its symbols), and the words of a
// pair's list are scattered over the arena, so the visit asks for both a few words ahead.

/// How many words ahead the span is fetched.
const SPAN_AHEAD: usize = 16;
/// How many words ahead the symbols are fetched: fewer than [`SPAN_AHEAD`], because finding
/// them needs the span.
const SYMBOLS_AHEAD: usize = 8;

/// Rewrites words for one merge.
pub(super) struct Rewriter<'a> {
    spans: &'a mut [WordSpan],
    arena: &'a mut [u32],
    totals: &'a mut RoundTotals,
    scratch: &'a mut Scratch,
}

/// Buffers one rewriter reuses from word to word and round to round.
#[derive(Default)]
pub(super) struct Scratch {
    /// For the last word rewritten: the positions of its merged symbols, ascending.
    merged_at: Vec<u32>,
}

/// One merge: `(a, b)` becomes `merged` in round `round`.
#[derive(Clone, Copy)]
pub(super) struct Merge {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) merged: u32,
    pub(super) round: u32,
}

/// Asks for a word's first and last symbols: an average word of the Linux documentation
/// corpus takes 63 bytes, so most words straddle two cache lines, and the pair is as likely to
/// be in the second. Both lines beat the first alone on both corpora; every line of the word
/// (up to four) gained nothing more (docs/benchmarks.md, "The merge loop, tried and dropped").
#[inline(always)]
fn prefetch_symbols(word: &[u32]) {
    if let (Some(first), Some(last)) = (word.first(), word.last()) {
        prefetch(first);
        prefetch(last);
    }
}

impl<'a> Rewriter<'a> {
    pub(super) fn new(
        spans: &'a mut [WordSpan],
        arena: &'a mut [u32],
        totals: &'a mut RoundTotals,
        scratch: &'a mut Scratch,
    ) -> Self {
        Rewriter {
            spans,
            arena,
            totals,
            scratch,
        }
    }

    /// Visits every word of `list` once (the list may repeat words); `on_rewrite(w, old_len,
    /// start, new_len, merged positions)` hears of each word that changed.
    pub(super) fn visit_list(
        &mut self,
        list: &[u32],
        merge: Merge,
        mut on_rewrite: impl FnMut(u32, u32, usize, usize, &[u32]),
    ) {
        let needed = symbol_bit(merge.a) | symbol_bit(merge.b);
        let holds_both = |span: &WordSpan| span.holds & needed == needed;
        for (k, &w) in list.iter().enumerate() {
            if let Some(&ahead) = list.get(k + SPAN_AHEAD) {
                prefetch(&self.spans[ahead as usize]);
            }
            if let Some(&ahead) = list.get(k + SYMBOLS_AHEAD) {
                let span = &self.spans[ahead as usize];
                if holds_both(span) {
                    prefetch_symbols(&self.arena[span.start..span.start + span.len as usize]);
                }
            }
            let span = &mut self.spans[w as usize];
            if span.visited != merge.round {
                span.visited = merge.round;
                if holds_both(span)
                    && let Some(old_len) = self.rewrite(w, merge)
                {
                    let span = &self.spans[w as usize];
                    on_rewrite(
                        w,
                        old_len,
                        span.start,
                        span.len as usize,
                        &self.scratch.merged_at,
                    );
                }
            }
        }
    }

    /// One left-to-right merge pass over word `w`, as the oracle does it, in place, recording
    /// exactly the pairs the pass destroys and creates. Returns the word's old length if it
    /// changed.
    ///
    /// In place because the output never gets ahead of the input: a symbol left alone is
    /// copied to where it already is or further left, and the symbol just before an
    /// occurrence is the last one written. Building the new word in a buffer first (the
    /// previous design) cost two pushes per symbol of every word visited.
    #[inline(always)]
    fn rewrite(&mut self, w: u32, merge: Merge) -> Option<u32> {
        let Merge { a, b, merged, .. } = merge;
        let span = self.spans[w as usize];
        let (n, freq) = (span.len as usize, span.count);
        let word = &mut self.arena[span.start..span.start + n];
        let is_pair = |word: &[u32], i: usize| i + 1 < n && word[i] == a && word[i + 1] == b;
        // Nothing before the first occurrence changes.
        let mut i = (0..n).find(|&i| is_pair(word, i))?;
        let merged_at = &mut self.scratch.merged_at;
        merged_at.clear();
        let totals = &mut *self.totals;
        let mut j = i; // where the next output symbol goes
        let mut after_merged = false; // whether `word[j - 1]` is a merged symbol
        loop {
            // An occurrence at `i`: `(word[j - 1], a)` is destroyed unless the previous
            // occurrence already counted it (as its right neighbour `(b, a)`).
            if j > 0 {
                if !after_merged {
                    totals.record(PairChange::DestroyedLeft(word[j - 1]), w, freq);
                }
                // Two merged symbols in a row make one pair, added here as the left pair.
                totals.record(PairChange::CreatedLeft(word[j - 1]), w, freq);
            }
            totals.record(PairChange::DestroyedMerged, w, freq);
            if i + 2 < n {
                let next = word[i + 2];
                totals.record(PairChange::DestroyedRight(next), w, freq);
                if !is_pair(word, i + 2) {
                    totals.record(PairChange::CreatedRight(next), w, freq);
                }
            }
            word[j] = merged;
            merged_at.push(j as u32);
            j += 1;
            i += 2;
            after_merged = true;
            while i < n && !is_pair(word, i) {
                word[j] = word[i];
                j += 1;
                i += 1;
                after_merged = false;
            }
            if i >= n {
                break;
            }
        }
        let span = &mut self.spans[w as usize];
        span.len = j as u32;
        span.holds = symbol_bits(&self.arena[span.start..span.start + j]);
        Some(n as u32)
    }
}
