//! What one merge changes, and the batching of those changes within a round.
//!
//! A merge of `(a, b)` into `c` only ever destroys `(x, a)`, `(a, b)` and `(b, y)` and creates
//! `(x, c)` and `(c, y)`, so every change is named by its other symbol `x` or `y`
//! ([`PairChange`]). Summing a round's changes in arrays indexed by that symbol
//! ([`RoundTotals`]) turns one hash-map update per occurrence into one per distinct neighbour
//! and round: the first merges touch hundreds of thousands of words but only dozens of
//! distinct neighbours.

use crate::bpe::train::word_list::WordList;

/// A pair destroyed or created by merging `(a, b)` into `c`, named by its other symbol.
#[derive(Clone, Copy)]
pub(super) enum PairChange {
    /// `(x, a)` destroyed.
    DestroyedLeft(u32),
    /// `(a, b)` destroyed.
    DestroyedMerged,
    /// `(b, y)` destroyed.
    DestroyedRight(u32),
    /// `(x, c)` created.
    CreatedLeft(u32),
    /// `(c, y)` created.
    CreatedRight(u32),
}

/// One round's changes, summed per neighbouring symbol.
#[derive(Default)]
pub(super) struct RoundTotals {
    pub(super) destroyed_left: NeighbourTotals,
    pub(super) destroyed_right: NeighbourTotals,
    pub(super) created_left: NeighbourTotals,
    pub(super) created_right: NeighbourTotals,
    /// Weighted occurrences of the merged pair itself.
    pub(super) merged: u64,
}

impl RoundTotals {
    /// Makes room for every symbol id below `n`: called once per round, so that recording a
    /// change never has to grow the tables.
    pub(super) fn reserve_symbols(&mut self, n: usize) {
        self.destroyed_left.reserve_symbols(n);
        self.destroyed_right.reserve_symbols(n);
        self.created_left.reserve_symbols(n);
        self.created_right.reserve_symbols(n);
    }

    /// Adds one change in word `w`, which occurs `freq` times.
    #[inline(always)]
    pub(super) fn record(&mut self, change: PairChange, w: u32, freq: u64) {
        match change {
            PairChange::DestroyedLeft(x) => self.destroyed_left.lost(x, freq, w),
            PairChange::DestroyedMerged => self.merged += freq,
            PairChange::DestroyedRight(y) => self.destroyed_right.lost(y, freq, w),
            PairChange::CreatedLeft(x) => self.created_left.gained(x, freq, w),
            PairChange::CreatedRight(y) => self.created_right.gained(y, freq, w),
        }
    }
}

/// Weighted counts per symbol, for the symbols touched, and which words changed: every word
/// for created pairs (they join the pair's word list), the lowest word for destroyed ones
/// (first-seen asks whether the pair's first word lost it; any word that lost it held it, so
/// none is lower than the first).
#[derive(Default)]
pub(super) struct NeighbourTotals {
    totals: Vec<u64>,
    words: Vec<WordList>,
    lowest: Vec<u32>,
    touched: Vec<u32>,
}

impl NeighbourTotals {
    /// Makes room for symbols `0..n`.
    fn reserve_symbols(&mut self, n: usize) {
        if n > self.totals.len() {
            self.totals.resize(n, 0);
            self.words.resize_with(n, WordList::new);
            self.lowest.resize(n, u32::MAX);
        }
    }

    #[inline(always)]
    fn touch(&mut self, symbol: u32, freq: u64) -> usize {
        let s = symbol as usize;
        if self.totals[s] == 0 {
            self.touched.push(symbol); // counts are positive, so 0 means untouched
        }
        self.totals[s] += freq;
        s
    }

    /// A pair with `symbol` gained `freq` occurrences in word `w`.
    #[inline(always)]
    fn gained(&mut self, symbol: u32, freq: u64, w: u32) {
        let s = self.touch(symbol, freq);
        if self.words[s].last() != Some(&w) {
            self.words[s].push(w);
        }
    }

    /// A pair with `symbol` lost `freq` occurrences in word `w`.
    #[inline(always)]
    fn lost(&mut self, symbol: u32, freq: u64, w: u32) {
        let s = self.touch(symbol, freq);
        self.lowest[s] = self.lowest[s].min(w);
    }

    /// The symbols touched so far this round.
    pub(super) fn symbols(&self) -> &[u32] {
        &self.touched
    }

    /// Hands every touched symbol to `f` with its total, the words that gained (which `f` may
    /// take) and the lowest word that lost; then resets.
    pub(super) fn drain(&mut self, mut f: impl FnMut(u32, u64, &mut WordList, u32)) {
        for symbol in self.touched.drain(..) {
            let s = symbol as usize;
            f(symbol, self.totals[s], &mut self.words[s], self.lowest[s]);
            self.totals[s] = 0;
            self.lowest[s] = u32::MAX;
            self.words[s].clear();
            // The first rounds collect hundreds of thousands of words per symbol; keeping
            // that capacity for every symbol would hold memory for nothing.
            if self.words[s].capacity() > 4096 {
                self.words[s] = WordList::new();
            }
        }
    }
}
