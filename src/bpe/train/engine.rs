//! The merge engine: incremental pair counts over a word table, a lazy queue of candidates,
//! and the oracle's merge pass applied only to the words that hold the chosen pair.
//!
//! State kept between rounds, instead of recounting the corpus:
//! - every distinct word once, its symbols interned to `u32` ([`WordCounts`]);
//! - for every pair: its weighted count and the list of words it may occur in (a superset:
//!   stale entries are skipped when the word is visited);
//! - a lazy max-heap of candidates ([`PairQueue`]), ordered by the policy ([`Policy`]).
//!
//! **Why the lazy heap is exact.** Invariant: every pair with a positive count has at least one
//! heap entry that ranks at or above the pair's true rank. A pair's rank can only rise when it
//! gains an occurrence (its count grows or, for first-seen, an earlier occurrence appears), and
//! every pair that gained one is pushed at the end of the round with its true rank. When the
//! top entry matches the pair's true rank it is the true best, since any better pair would have
//! an entry above it. A top entry that ranks too high is pushed back with its true rank; one
//! that ranks too low is dropped, because the invariant guarantees a better entry for that pair.

use rustc_hash::FxHashMap;

use crate::bpe::TieBreak;
use crate::bpe::train::prefetch::{SPAN_AHEAD, SYMBOLS_AHEAD, prefetch};
use crate::bpe::train::queue::{Candidate, PairQueue};
use crate::bpe::train::round::{PairChange, RoundTotals};
use crate::bpe::train::tie::Policy;
use crate::bpe::words::{WordCounts, WordSpan, symbol_bit, symbol_bits};

/// One pair's shared state, whatever the policy.
struct PairSlot {
    left: u32,
    right: u32,
    count: u64,
    /// Words that may contain the pair (superset; may repeat).
    words: Vec<u32>,
    /// The round in which this pair was last put on the `touched` list.
    touched_round: u32,
}

pub(super) struct Engine {
    pub(super) words: WordCounts,
    policy: Policy,
    pairs: Vec<PairSlot>,
    index: FxHashMap<u64, u32>,
    queue: PairQueue,
    /// This round's changes, summed per neighbouring symbol.
    totals: Box<RoundTotals>,
    round: u32,
    /// Pairs that gained or lost occurrences this round.
    touched: Vec<u32>,
    scratch: Vec<u32>,
    scratch_merged: Vec<bool>,
    /// Words visited by merges so far, for the benchmark's profile.
    pub(super) word_visits: u64,
    /// When the benchmark asks: every word a merge rewrote, with its length before.
    pub(super) rewrites: Option<Vec<(u32, u32)>>,
}

/// The largest dense table of initial pairs [`Engine::index_pairs`] uses (4 bytes per entry):
/// an alphabet of up to 2,048 symbols.
const DENSE_PAIRS_MAX: usize = 1 << 22;
const NO_PAIR: u32 = u32::MAX;

#[inline]
fn pair_key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

impl Engine {
    /// Builds the pair index of `words` and the queue of its pairs.
    pub(super) fn new(words: WordCounts, tie_break: TieBreak) -> Self {
        let mut engine = Engine {
            policy: Policy::new(tie_break, &words),
            words,
            pairs: Vec::new(),
            index: FxHashMap::default(),
            queue: PairQueue::default(),
            totals: Box::default(),
            round: 0,
            touched: Vec::new(),
            scratch: Vec::new(),
            scratch_merged: Vec::new(),
            word_visits: 0,
            rewrites: None,
        };
        engine.index_pairs();
        let candidates = (0..engine.pairs.len() as u32)
            .map(|p| engine.candidate(p))
            .collect();
        let (queue, before) = engine.queue_in_order();
        *queue = PairQueue::from_vec(candidates, before);
        engine
    }

    /// Counts every adjacent pair of every word, in word order (so pair ids follow first
    /// occurrence). Before any merge the symbols are the base alphabet, usually small: a dense
    /// table indexed by `(left, right)` then finds a pair's id with one array read instead of
    /// a hash lookup per occurrence, and the hash index sees each distinct pair once.
    fn index_pairs(&mut self) {
        let n = self.words.symbols.len();
        let mut dense = if n * n <= DENSE_PAIRS_MAX {
            vec![NO_PAIR; n * n]
        } else {
            Vec::new()
        };
        for w in 0..self.words.len() {
            let span = self.words.spans[w];
            let (start, len, count) = (span.start, span.len as usize, span.count);
            for k in start..(start + len).saturating_sub(1) {
                let (left, right) = (self.words.arena[k], self.words.arena[k + 1]);
                let id = match dense.get_mut(left as usize * n + right as usize) {
                    Some(&mut id) if id != NO_PAIR => id,
                    Some(slot) => {
                        *slot = self.pair_id(left, right);
                        *slot
                    }
                    None => self.pair_id(left, right),
                };
                self.add_occurrence(id, count, w as u32);
            }
        }
        self.touched.clear();
    }

    /// The queue, and the policy's order it needs, borrowed apart from the rest of the engine.
    fn queue_in_order(&mut self) -> (&mut PairQueue, impl Fn(&Candidate, &Candidate) -> bool + '_) {
        let Engine {
            policy,
            pairs,
            words,
            queue,
            ..
        } = self;
        let (policy, pairs, symbols) = (&*policy, &*pairs, &words.symbols);
        let symbols_of = |p: u32| (pairs[p as usize].left, pairs[p as usize].right);
        let before =
            move |x: &Candidate, y: &Candidate| policy.ranks_before(symbols, symbols_of, x, y);
        (queue, before)
    }

    fn push(&mut self, candidate: Candidate) {
        let (queue, before) = self.queue_in_order();
        queue.push(candidate, before);
    }

    /// The best pair by the policy and its count, removed from the queue; `None` if no pair
    /// with a positive count is left.
    pub(super) fn pop_best(&mut self) -> Option<(u32, u64)> {
        loop {
            let (queue, before) = self.queue_in_order();
            let top = queue.pop(before)?;
            let count = self.pairs[top.pair as usize].count;
            if count == 0 {
                continue;
            }
            let current = self.candidate(top.pair);
            if top == current {
                return Some((top.pair, count));
            }
            let (queue, before) = self.queue_in_order();
            // Ranked too high: pushed back at its true rank. Too low: a better entry exists.
            if before(&top, &current) {
                queue.push(current, before);
            }
        }
    }

    /// Pair `p` as it is now: its count and the policy's keys.
    fn candidate(&mut self, p: u32) -> Candidate {
        let slot = &mut self.pairs[p as usize];
        let (key, key2) =
            self.policy
                .tie_keys(p, (slot.left, slot.right), &mut slot.words, &self.words);
        Candidate {
            count: slot.count,
            key,
            key2,
            pair: p,
        }
    }

    /// The id of pair `(left, right)`, creating its slot if new.
    fn pair_id(&mut self, left: u32, right: u32) -> u32 {
        let next_id = self.pairs.len() as u32;
        let id = *self.index.entry(pair_key(left, right)).or_insert(next_id);
        if id == next_id {
            self.pairs.push(PairSlot {
                left,
                right,
                count: 0,
                words: Vec::new(),
                touched_round: 0,
            });
            self.policy.pair_created();
        }
        id
    }

    /// Adds `count` occurrences of pair `id`, found in word `w`.
    #[inline]
    fn add_occurrence(&mut self, id: u32, count: u64, w: u32) {
        let slot = &mut self.pairs[id as usize];
        slot.count += count;
        if slot.words.last() != Some(&w) {
            slot.words.push(w);
        }
        self.policy.words_gained(id, &[w]);
        self.note_touched(id);
    }

    /// Adds `total` occurrences of `(left, right)`, found in `words`. Takes the list when the
    /// pair has none: a new pair's list is often hundreds of thousands of words long in the
    /// first rounds, and copying it would cost as much as building it.
    fn add(&mut self, left: u32, right: u32, total: u64, words: &mut Vec<u32>) {
        let id = self.pair_id(left, right);
        self.policy.words_gained(id, words);
        let slot = &mut self.pairs[id as usize];
        slot.count += total;
        if slot.words.is_empty() {
            std::mem::swap(&mut slot.words, words);
        } else {
            slot.words.extend_from_slice(words);
        }
        self.note_touched(id);
    }

    #[inline]
    fn note_touched(&mut self, id: u32) {
        let slot = &mut self.pairs[id as usize];
        if slot.touched_round != self.round {
            slot.touched_round = self.round;
            self.touched.push(id);
        }
    }

    /// Takes `total` occurrences away from `(left, right)`, the lowest of the words that lost
    /// them being `lowest`.
    fn subtract(&mut self, left: u32, right: u32, total: u64, lowest: u32) {
        let id = self.index[&pair_key(left, right)];
        self.pairs[id as usize].count -= total;
        self.policy.words_lost(id, lowest);
    }

    /// Merges pair `p` everywhere; returns its (left, right) symbols.
    pub(super) fn merge(&mut self, p: u32) -> (u32, u32) {
        self.round += 1;
        let slot = &mut self.pairs[p as usize];
        let (left, right) = (slot.left, slot.right);
        let words = std::mem::take(&mut slot.words);
        self.policy.pair_merged(p);
        let merged = self.words.symbols.intern_concat(left, right);
        self.policy.symbol_interned(merged, &self.words.symbols);
        self.word_visits += words.len() as u64;
        let needed = symbol_bit(left) | symbol_bit(right);
        let holds_both = |span: &WordSpan| span.holds & needed == needed;
        for (k, &w) in words.iter().enumerate() {
            if let Some(&ahead) = words.get(k + SPAN_AHEAD) {
                prefetch(&self.words.spans[ahead as usize]);
            }
            if let Some(&ahead) = words.get(k + SYMBOLS_AHEAD) {
                let span = &self.words.spans[ahead as usize];
                if holds_both(span)
                    && let Some(first) = self.words.arena.get(span.start)
                {
                    prefetch(first);
                }
            }
            let span = &mut self.words.spans[w as usize];
            if span.visited != self.round {
                span.visited = self.round;
                if holds_both(span) {
                    self.merge_in_word(w, left, right, merged);
                }
            }
        }
        let mut totals = std::mem::take(&mut self.totals);
        self.apply_totals(&mut totals, p, left, right, merged);
        self.totals = totals; // keeps the buffers for the next round
        let touched = std::mem::take(&mut self.touched);
        for &id in &touched {
            if self.pairs[id as usize].count > 0 {
                let candidate = self.candidate(id);
                self.push(candidate);
            }
        }
        self.touched = touched;
        self.touched.clear();
        (left, right)
    }

    /// Applies a round's [`RoundTotals`]: creations first, so that no count dips below zero
    /// on the way (a created pair can also be a destroyed one when symbols are empty strings).
    fn apply_totals(&mut self, totals: &mut RoundTotals, p: u32, a: u32, b: u32, c: u32) {
        totals
            .created_left
            .drain(|x, total, words, _| self.add(x, c, total, words));
        totals
            .created_right
            .drain(|y, total, words, _| self.add(c, y, total, words));
        totals
            .destroyed_left
            .drain(|x, total, _, lowest| self.subtract(x, a, total, lowest));
        totals
            .destroyed_right
            .drain(|y, total, _, lowest| self.subtract(b, y, total, lowest));
        self.pairs[p as usize].count -= std::mem::take(&mut totals.merged);
    }

    /// One left-to-right merge pass over word `w`, as the oracle does it, with the pair counts
    /// adjusted for exactly the pairs the pass destroys and creates.
    fn merge_in_word(&mut self, w: u32, a: u32, b: u32, merged: u32) {
        let span = self.words.spans[w as usize];
        let (start, n, freq) = (span.start, span.len as usize, span.count);
        let mut new = std::mem::take(&mut self.scratch);
        let mut is_merged = std::mem::take(&mut self.scratch_merged);
        new.clear();
        is_merged.clear();

        let mut i = 0;
        // Index just past the last merged occurrence: the pair ending there was already
        // counted as destroyed, as the right neighbour of that occurrence.
        let mut last_end = usize::MAX;
        while i < n {
            let sym = self.words.arena[start + i];
            if i + 1 < n && sym == a && self.words.arena[start + i + 1] == b {
                if i > 0 && last_end != i {
                    let x = self.words.arena[start + i - 1];
                    self.totals.record(PairChange::DestroyedLeft(x), w, freq);
                }
                self.totals.record(PairChange::DestroyedMerged, w, freq);
                if i + 2 < n {
                    let y = self.words.arena[start + i + 2];
                    self.totals.record(PairChange::DestroyedRight(y), w, freq);
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
        if new.len() != n {
            // Every pair that touches a merged symbol is new; a pair between two merged
            // symbols is added once, as the left pair of the second.
            for j in 0..new.len() {
                if is_merged[j] {
                    if j > 0 {
                        self.totals
                            .record(PairChange::CreatedLeft(new[j - 1]), w, freq);
                    }
                    if j + 1 < new.len() && !is_merged[j + 1] {
                        self.totals
                            .record(PairChange::CreatedRight(new[j + 1]), w, freq);
                    }
                }
            }
            self.words.arena[start..start + new.len()].copy_from_slice(&new);
            let span = &mut self.words.spans[w as usize];
            span.len = new.len() as u32;
            span.holds = symbol_bits(&new);
            self.policy.word_rewritten(start, &is_merged);
            if let Some(rewrites) = self.rewrites.as_mut() {
                rewrites.push((w, n as u32));
            }
        }
        self.scratch = new;
        self.scratch_merged = is_merged;
    }
}

#[cfg(test)]
mod tests {
    use crate::bpe::TieBreak;
    use crate::bpe::oracle::train_naive;
    use crate::bpe::train::Trainer;
    use crate::rng::splitmix64;

    /// An alphabet too large for the dense table of initial pairs takes the hash-map path,
    /// with the same merges as the literal loop.
    #[test]
    fn a_large_alphabet_indexes_pairs_by_hash() {
        let mut state = 3;
        let corpus: Vec<Vec<String>> = (0..3_000)
            .map(|_| {
                let len = 1 + (splitmix64(&mut state) % 4) as usize;
                (0..len)
                    .map(|_| {
                        // Half the words from a small alphabet, so pairs repeat and tie.
                        let range = if splitmix64(&mut state).is_multiple_of(2) {
                            3
                        } else {
                            6_000
                        };
                        let c = char::from_u32(0x4e00 + (splitmix64(&mut state) % range) as u32);
                        c.expect("a CJK code point").to_string()
                    })
                    .collect()
            })
            .collect();
        for policy in TieBreak::ALL {
            let training = Trainer::new(40)
                .tie_break(policy)
                .train_symbol_lists(&corpus);
            assert!(training.words.symbols().len() > 2_048);
            let expected = train_naive(&mut corpus.clone(), 40, policy, 1);
            assert_eq!(training.merges, expected, "{policy}");
        }
    }
}
