//! What one merge changes, and the batching of those changes within a round.
//!
//! A merge of `(a, b)` into `c` only ever destroys `(x, a)`, `(a, b)` and `(b, y)` and creates
//! `(x, c)` and `(c, y)`, so every change is named by its other symbol `x` or `y`
//! ([`PairChange`]). Summing a round's changes in arrays indexed by that symbol
//! ([`RoundTotals`]) turns one hash-map update per occurrence into one per distinct neighbour
//! and round: the first merges touch hundreds of thousands of words but only dozens of
//! distinct neighbours.

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

impl PairChange {
    /// The pair this change names, when `(a, b)` merges into `c`.
    #[inline]
    pub(super) fn pair(self, a: u32, b: u32, c: u32) -> (u32, u32) {
        match self {
            PairChange::DestroyedLeft(x) => (x, a),
            PairChange::DestroyedMerged => (a, b),
            PairChange::DestroyedRight(y) => (b, y),
            PairChange::CreatedLeft(x) => (x, c),
            PairChange::CreatedRight(y) => (c, y),
        }
    }

    #[inline]
    pub(super) fn created(self) -> bool {
        matches!(
            self,
            PairChange::CreatedLeft(_) | PairChange::CreatedRight(_)
        )
    }
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
    /// Adds one change in word `w`, which occurs `freq` times.
    #[inline]
    pub(super) fn record(&mut self, change: PairChange, w: u32, freq: u64) {
        match change {
            PairChange::DestroyedLeft(x) => self.destroyed_left.add(x, freq, None),
            PairChange::DestroyedMerged => self.merged += freq,
            PairChange::DestroyedRight(y) => self.destroyed_right.add(y, freq, None),
            PairChange::CreatedLeft(x) => self.created_left.add(x, freq, Some(w)),
            PairChange::CreatedRight(y) => self.created_right.add(y, freq, Some(w)),
        }
    }
}

/// Weighted counts (and, for created pairs, words) per symbol, for the symbols touched.
#[derive(Default)]
pub(super) struct NeighbourTotals {
    totals: Vec<u64>,
    words: Vec<Vec<u32>>,
    touched: Vec<u32>,
}

impl NeighbourTotals {
    fn add(&mut self, symbol: u32, freq: u64, word: Option<u32>) {
        let s = symbol as usize;
        if s >= self.totals.len() {
            self.totals.resize(s + 1, 0);
            self.words.resize_with(s + 1, Vec::new);
        }
        if self.totals[s] == 0 {
            self.touched.push(symbol); // counts are positive, so 0 means untouched
        }
        self.totals[s] += freq;
        if let Some(w) = word
            && self.words[s].last() != Some(&w)
        {
            self.words[s].push(w);
        }
    }

    /// Hands every touched symbol with its total and words to `f`, and resets.
    pub(super) fn drain(&mut self, mut f: impl FnMut(u32, u64, &[u32])) {
        for symbol in self.touched.drain(..) {
            let s = symbol as usize;
            f(symbol, self.totals[s], &self.words[s]);
            self.totals[s] = 0;
            self.words[s].clear();
            // The first rounds collect hundreds of thousands of words per symbol; keeping
            // that capacity for every symbol would hold memory for nothing.
            if self.words[s].capacity() > 4096 {
                self.words[s] = Vec::new();
            }
        }
    }
}
