//! The merge pass itself: rewriting the words of a pair's list, on one thread or, for the
//! large early merges, on two.
//!
//! A [`Rewriter`] owns a contiguous range of words: their spans and the part of the arena
//! that holds their symbols (the arena keeps words in id order and merging only shrinks them
//! in place, so a range of word ids is a range of the arena). Two rewriters over the two halves
//! of the words can therefore run at the same time, each recording its changes in its own
//! [`RoundTotals`], which are then added together.

use crate::bpe::train::prefetch::{SPAN_AHEAD, SYMBOLS_AHEAD, prefetch};
use crate::bpe::train::round::{PairChange, RoundTotals};
use crate::bpe::words::{WordSpan, symbol_bit, symbol_bits};

/// Rewrites the words `first_word..first_word + spans.len()` for one merge.
pub(super) struct Rewriter<'a> {
    spans: &'a mut [WordSpan],
    /// The arena from index `arena_base` on, up to the next range's words.
    arena: &'a mut [u32],
    first_word: u32,
    arena_base: usize,
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
        (first_word, arena_base): (u32, usize),
        totals: &'a mut RoundTotals,
        scratch: &'a mut Scratch,
    ) -> Self {
        Rewriter {
            spans,
            arena,
            first_word,
            arena_base,
            totals,
            scratch,
        }
    }

    fn local(&self, w: u32) -> Option<usize> {
        let i = w.checked_sub(self.first_word)? as usize;
        (i < self.spans.len()).then_some(i)
    }

    /// Visits every word of `list` in this rewriter's range once; `on_rewrite(w, old_len,
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
            if let Some(i) = list.get(k + SPAN_AHEAD).and_then(|&w| self.local(w)) {
                prefetch(&self.spans[i]);
            }
            if let Some(i) = list.get(k + SYMBOLS_AHEAD).and_then(|&w| self.local(w)) {
                let span = &self.spans[i];
                if holds_both(span)
                    && let Some(first) = self.arena.get(span.start - self.arena_base)
                {
                    prefetch(first);
                }
            }
            let Some(i) = self.local(w) else { continue };
            let span = &mut self.spans[i];
            if span.visited != merge.round {
                span.visited = merge.round;
                if holds_both(span)
                    && let Some(old_len) = self.rewrite(i, w, merge)
                {
                    let start = self.spans[i].start;
                    on_rewrite(w, old_len, start, &self.scratch.merged);
                }
            }
        }
    }

    /// One left-to-right merge pass over word `w` (local index `local`), as the oracle does
    /// it, recording exactly the pairs the pass destroys and creates. Returns the word's old
    /// length if it changed.
    fn rewrite(&mut self, local: usize, w: u32, merge: Merge) -> Option<u32> {
        let Merge { a, b, merged, .. } = merge;
        let span = self.spans[local];
        let (n, freq) = (span.len as usize, span.count);
        let start = span.start - self.arena_base;
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
        let span = &mut self.spans[local];
        span.len = new.len() as u32;
        span.holds = symbol_bits(new);
        Some(n as u32)
    }
}
