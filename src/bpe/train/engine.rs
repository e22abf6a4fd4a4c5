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
//!
//! **Why most pairs never enter the queue.** The invariant is kept only for pairs counted at
//! least [`Engine::floor`] times; every other pair ranks below all of those, so it cannot be
//! the best while the queue holds one. The floor starts at the count of about the
//! [`QUEUE_SIZE`]-th most frequent pair, entries whose pair fell below it are dropped, and when
//! the queue runs dry the floor is lowered the same way and the pairs at or above it let in. A
//! corpus of 500 k words makes a million pairs, most of them counted once or twice and never
//! merged: they no longer cost a heap entry each, nor a push whenever a merge touches them.

use crate::bpe::TieBreak;
use crate::bpe::prefetch::prefetch;
use crate::bpe::train::chunked::ChunkedVec;
use crate::bpe::train::pair_index::PairIndex;
use crate::bpe::train::queue::{Candidate, PairQueue};
use crate::bpe::train::rewrite::{Merge, Rewriter, Scratch};
use crate::bpe::train::round::RoundTotals;
use crate::bpe::train::tie::Policy;
use crate::bpe::train::word_list::WordList;
use crate::bpe::words::WordCounts;

/// One pair's shared state, whatever the policy.
struct PairSlot {
    left: u32,
    right: u32,
    count: u64,
    /// Words that may contain the pair (superset; may repeat).
    words: WordList,
    /// The round in which this pair was last put on the `touched` list.
    touched_round: u32,
}

pub(super) struct Engine {
    pub(super) words: WordCounts,
    policy: Policy,
    /// By pair id; chunked, so that a million slots are never copied to grow.
    pairs: ChunkedVec<PairSlot>,
    index: PairIndex,
    queue: PairQueue,
    /// Pairs counted fewer times are kept out of the queue (see the module docs); at least 1.
    floor: u64,
    /// About how many pairs a refill lets in: [`QUEUE_SIZE`], smaller in tests.
    queue_size: usize,
    /// This round's changes, summed per neighbouring symbol.
    totals: Box<RoundTotals>,
    round: u32,
    /// Pairs that gained or lost occurrences this round.
    touched: Vec<u32>,
    /// Pairs that lost occurrences this round: id, weighted count lost, lowest word.
    lost: Vec<(u32, u64, u32)>,
    scratch: Scratch,
    /// Words visited by merges so far, for the benchmark's profile.
    pub(super) word_visits: u64,
    /// When the benchmark asks: every word a merge rewrote, with its length before.
    pub(super) rewrites: Option<Vec<(u32, u32)>>,
}

/// The largest dense table of initial pairs [`Engine::index_pairs`] uses (4 bytes per entry):
/// an alphabet of up to 2,048 symbols.
const DENSE_PAIRS_MAX: usize = 1 << 22;
const NO_PAIR: u32 = u32::MAX;
/// About how many pairs the queue is filled with: enough for thousands of merges between
/// refills, few enough to keep the heap's upper levels in cache.
const QUEUE_SIZE: usize = 1 << 15;

impl Engine {
    /// Builds the pair index of `words` and the queue of its pairs.
    pub(super) fn new(words: WordCounts, tie_break: TieBreak) -> Self {
        Self::with_queue_size(words, tie_break, QUEUE_SIZE)
    }

    fn with_queue_size(words: WordCounts, tie_break: TieBreak, queue_size: usize) -> Self {
        let mut engine = Engine {
            policy: Policy::new(tie_break, &words),
            words,
            pairs: ChunkedVec::default(),
            index: PairIndex::default(),
            queue: PairQueue::default(),
            floor: 1,
            queue_size: queue_size.max(1),
            totals: Box::default(),
            round: 0,
            touched: Vec::new(),
            lost: Vec::new(),
            scratch: Scratch::default(),
            word_visits: 0,
            rewrites: None,
        };
        engine.index_pairs();
        engine.refill();
        engine
    }

    /// Lowers the floor to the count of about the `queue_size`-th most frequent pair and
    /// fills the queue with every pair at or above it. Called when the queue is empty, so
    /// (by the invariant) no pair was at or above the old floor. Returns false if no pair
    /// with a positive count is left.
    fn refill(&mut self) -> bool {
        let mut counts: Vec<u64> = self
            .pairs
            .iter()
            .map(|slot| slot.count)
            .filter(|&count| count > 0)
            .collect();
        if counts.is_empty() {
            return false;
        }
        self.floor = if counts.len() > self.queue_size {
            *counts
                .select_nth_unstable_by(self.queue_size - 1, |x, y| y.cmp(x))
                .1
        } else {
            1
        };
        let mut candidates = Vec::with_capacity(self.queue_size);
        for p in 0..self.pairs.len() as u32 {
            if self.pairs[p as usize].count >= self.floor {
                candidates.push(self.candidate(p));
            }
        }
        let (queue, before) = self.queue_in_order();
        *queue = PairQueue::from_vec(candidates, before);
        true
    }

    /// Counts every adjacent pair of every word, in word order (so pair ids follow first
    /// occurrence). Before any merge the symbols are the base alphabet, usually small: a dense
    /// table indexed by `(left, right)` then finds a pair's id with one array read instead of
    /// a hash lookup per occurrence, and the hash index sees each distinct pair once.
    ///
    /// Tried and dropped: counting the pairs of each half of the words on its own thread and
    /// adding the halves together. This phase got faster, but whole runs did not (the figures
    /// are in docs/benchmarks.md, "The merge loop, tried and dropped"): the merge loop slowed
    /// by about as much, its lists now freed across threads' heaps, and copying them into this
    /// thread's heap cost more than it saved.
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
            let Some(top) = queue.pop(before) else {
                if self.refill() {
                    continue;
                }
                return None;
            };
            let count = self.pairs[top.pair as usize].count;
            // Below the floor (merged pairs included): no longer owed an entry.
            if count < self.floor {
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
        let (id, new) = self
            .index
            .get_or_insert(left, right, self.pairs.len() as u32);
        if new {
            self.pairs.push(PairSlot {
                left,
                right,
                count: 0,
                words: WordList::new(),
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
    fn add(&mut self, left: u32, right: u32, total: u64, words: &mut WordList) {
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

    /// Notes that `(left, right)` lost `total` occurrences, the lowest of the words that lost
    /// them being `lowest`, for [`Engine::subtract_lost`]; fetches its slot meanwhile.
    fn note_lost(&mut self, left: u32, right: u32, total: u64, lowest: u32) {
        let id = self
            .index
            .get(left, right)
            .expect("a pair that lost occurrences had them, so it is indexed");
        prefetch(&self.pairs[id as usize]);
        self.lost.push((id, total, lowest));
    }

    /// Takes the occurrences noted by [`Engine::note_lost`] away.
    fn subtract_lost(&mut self) {
        for (id, total, lowest) in self.lost.drain(..) {
            self.pairs[id as usize].count -= total;
            self.policy.words_lost(id, lowest);
        }
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
        self.totals.reserve_symbols(self.words.symbols.len());
        self.word_visits += words.len() as u64;
        let merge = Merge {
            a: left,
            b: right,
            merged,
            round: self.round,
        };
        let Engine {
            words: table,
            totals,
            scratch,
            policy,
            rewrites,
            ..
        } = self;
        let mut rewriter = Rewriter::new(&mut table.spans, &mut table.arena, totals, scratch);
        rewriter.visit_list(&words, merge, |w, old_len, start, new_len, merged_at| {
            policy.word_rewritten(start, new_len, merged_at);
            if let Some(rewrites) = rewrites.as_mut() {
                rewrites.push((w, old_len));
            }
        });
        let mut totals = std::mem::take(&mut self.totals);
        self.apply_totals(&mut totals, p, left, right, merged);
        self.totals = totals; // keeps the buffers for the next round
        let touched = std::mem::take(&mut self.touched);
        for &id in &touched {
            if self.pairs[id as usize].count >= self.floor {
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
        // Each lookup below is a cache miss in a table of millions of pairs: ask for them all
        // first, so that the misses overlap.
        for &x in totals.created_left.symbols() {
            self.index.prefetch(x, c);
        }
        for &y in totals.created_right.symbols() {
            self.index.prefetch(c, y);
        }
        for &x in totals.destroyed_left.symbols() {
            self.index.prefetch(x, a);
        }
        for &y in totals.destroyed_right.symbols() {
            self.index.prefetch(b, y);
        }
        totals
            .created_left
            .drain(|x, total, words, _| self.add(x, c, total, words));
        totals
            .created_right
            .drain(|y, total, words, _| self.add(c, y, total, words));
        totals
            .destroyed_left
            .drain(|x, total, _, lowest| self.note_lost(x, a, total, lowest));
        totals
            .destroyed_right
            .drain(|y, total, _, lowest| self.note_lost(b, y, total, lowest));
        self.subtract_lost();
        self.pairs[p as usize].count -= std::mem::take(&mut totals.merged);
    }
}

#[cfg(test)]
mod tests {
    use super::Engine;
    use crate::bpe::TieBreak;
    use crate::bpe::oracle::train_naive;
    use crate::bpe::train::Trainer;
    use crate::bpe::words::WordCounts;
    use crate::rng::splitmix64;

    /// With a queue of a few pairs, the floor rises above most counts and is lowered again
    /// and again as merges use the queue up: the merges stay those of the literal loop.
    #[test]
    fn a_tiny_queue_keeps_the_merges_exact() {
        let mut state = 21;
        for case in 0..600 {
            let alphabet = ["a", "b", "c", "ab", "é", ""][..2 + case % 5].to_vec();
            let corpus: Vec<Vec<String>> = (0..1 + splitmix64(&mut state) % 40)
                .map(|_| {
                    (0..splitmix64(&mut state) % 9)
                        .map(|_| {
                            let k = (splitmix64(&mut state) % alphabet.len() as u64) as usize;
                            alphabet[k].to_owned()
                        })
                        .collect()
                })
                .collect();
            let queue_size = 1 + case % 4;
            for policy in TieBreak::ALL {
                let mut engine = Engine::with_queue_size(
                    WordCounts::from_symbol_lists(&corpus),
                    policy,
                    queue_size,
                );
                let mut merges = Vec::new();
                while merges.len() < 30 {
                    let Some((pair, _)) = engine.pop_best() else {
                        break;
                    };
                    let (left, right) = engine.merge(pair);
                    let symbols = &engine.words.symbols;
                    merges.push((symbols.get(left).to_owned(), symbols.get(right).to_owned()));
                }
                let expected = train_naive(&mut corpus.clone(), 30, policy, 1);
                assert_eq!(merges, expected, "case {case}, {policy}, {corpus:?}");
            }
        }
    }

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
