//! The merge pass itself: rewriting the words of a pair's list, as the oracle's left-to-right
//! pass does, and recording in [`RoundTotals`] exactly the pairs each rewrite destroys and
//! creates.
//!
//! Tried and dropped: splitting the merges of long lists (32 k words and more) between two
//! threads, each rewriting the words of one range of ids (a range of the arena) with totals
//! of its own, added together after. Measured on the 48 MB corpus it gained 0.1 s at first,
//! then nothing once the pair lookups were prefetched (merge loop 0.79 s with it, 0.75 s
//! without); these machines' two cores behave like one core's two hyperthreads for
//! memory-bound work.

use crate::bpe::train::prefetch::{SPAN_AHEAD, SYMBOLS_AHEAD, prefetch};
use crate::bpe::train::round::{PairChange, RoundTotals};
use crate::bpe::words::{WordSpan, symbol_bit, symbol_bits};

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
    symbols: Vec<u32>,
    /// For the last word rewritten: which of its new symbols are merged ones.
    pub(super) merged: Vec<bool>,
}

/// One merge: `(a, b)` becomes `merged` in round `round`.
#[derive(Clone, Copy)]
pub(super) struct Merge {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) merged: u32,
    pub(super) round: u32,
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
    /// start, merged flags)` hears of each word that changed.
    pub(super) fn visit_list(
        &mut self,
        list: &[u32],
        merge: Merge,
        mut on_rewrite: impl FnMut(u32, u32, usize, &[bool]),
    ) {
        let needed = symbol_bit(merge.a) | symbol_bit(merge.b);
        let holds_both = |span: &WordSpan| span.holds & needed == needed;
        for (k, &w) in list.iter().enumerate() {
            if let Some(&ahead) = list.get(k + SPAN_AHEAD) {
                prefetch(&self.spans[ahead as usize]);
            }
            if let Some(&ahead) = list.get(k + SYMBOLS_AHEAD) {
                let span = &self.spans[ahead as usize];
                if holds_both(span)
                    && let Some(first) = self.arena.get(span.start)
                {
                    prefetch(first);
                }
            }
            let span = &mut self.spans[w as usize];
            if span.visited != merge.round {
                span.visited = merge.round;
                if holds_both(span)
                    && let Some(old_len) = self.rewrite(w, merge)
                {
                    let start = self.spans[w as usize].start;
                    on_rewrite(w, old_len, start, &self.scratch.merged);
                }
            }
        }
    }

    /// One left-to-right merge pass over word `w`, as the oracle does it, recording exactly
    /// the pairs the pass destroys and creates. Returns the word's old length if it changed.
    fn rewrite(&mut self, w: u32, merge: Merge) -> Option<u32> {
        let Merge { a, b, merged, .. } = merge;
        let span = self.spans[w as usize];
        let (n, freq) = (span.len as usize, span.count);
        let start = span.start;
        let word = &mut self.arena[start..start + n];
        let Scratch {
            symbols: new,
            merged: is_merged,
        } = &mut *self.scratch;
        let totals = &mut *self.totals;
        new.clear();
        is_merged.clear();

        let mut i = 0;
        // Index just past the last merged occurrence: the pair ending there was already
        // counted as destroyed, as the right neighbour of that occurrence.
        let mut last_end = usize::MAX;
        while i < n {
            let sym = word[i];
            if i + 1 < n && sym == a && word[i + 1] == b {
                if i > 0 && last_end != i {
                    totals.record(PairChange::DestroyedLeft(word[i - 1]), w, freq);
                }
                totals.record(PairChange::DestroyedMerged, w, freq);
                if i + 2 < n {
                    totals.record(PairChange::DestroyedRight(word[i + 2]), w, freq);
                }
                new.push(merged);
                is_merged.push(true);
                i += 2;
                last_end = i;
            } else {
                new.push(sym);
                is_merged.push(false);
                i += 1;
            }
        }
        if new.len() == n {
            return None;
        }
        // Every pair that touches a merged symbol is new; a pair between two merged symbols
        // is added once, as the left pair of the second.
        for j in 0..new.len() {
            if is_merged[j] {
                if j > 0 {
                    totals.record(PairChange::CreatedLeft(new[j - 1]), w, freq);
                }
                if j + 1 < new.len() && !is_merged[j + 1] {
                    totals.record(PairChange::CreatedRight(new[j + 1]), w, freq);
                }
            }
        }
        word[..new.len()].copy_from_slice(new);
        let span = &mut self.spans[w as usize];
        span.len = new.len() as u32;
        span.holds = symbol_bits(new);
        Some(n as u32)
    }
}
