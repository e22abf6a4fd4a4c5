//! A round's pair changes summed per neighbouring symbol.
//!
//! A merge of `(a, b)` into `c` only ever destroys `(x, a)`, `(a, b)` and `(b, y)` and creates
//! `(x, c)` and `(c, y)`, so the change to every pair is known from `x` or `y` alone. Summing
//! in arrays indexed by symbol turns one hash-map update per occurrence into one per distinct
//! neighbour and round: the first merges touch hundreds of thousands of words but only dozens
//! of distinct neighbours.

use crate::bpe::word_pass::PairChange;

/// The pairs one round destroys and creates, summed per neighbouring symbol.
#[derive(Debug, Default)]
pub(crate) struct RoundTotals {
    pub destroyed_left: NeighbourTotals,
    pub destroyed_right: NeighbourTotals,
    pub created_left: NeighbourTotals,
    pub created_right: NeighbourTotals,
    /// Weighted occurrences of the merged pair itself.
    pub merged: u64,
}

impl RoundTotals {
    /// Notes one change in word `word`, which occurs `freq` times.
    #[inline]
    pub fn add(&mut self, change: PairChange, freq: u64, word: u32) {
        match change {
            PairChange::DestroyedLeft(x) => self.destroyed_left.add(x, freq, None),
            PairChange::DestroyedMerged => self.merged += freq,
            PairChange::DestroyedRight(y) => self.destroyed_right.add(y, freq, None),
            PairChange::CreatedLeft(x) => self.created_left.add(x, freq, Some(word)),
            PairChange::CreatedRight(y) => self.created_right.add(y, freq, Some(word)),
        }
    }
}

/// Weighted counts (and, for created pairs, words) per symbol, for the symbols touched.
#[derive(Debug, Default)]
pub(crate) struct NeighbourTotals {
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
    pub fn drain(&mut self, mut f: impl FnMut(u32, u64, &[u32])) {
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
