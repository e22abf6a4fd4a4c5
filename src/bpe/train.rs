//! The fast trainer: exact BPE on a word-frequency table with incremental pair counts.
//!
//! State kept between rounds, instead of recounting the corpus:
//! - every distinct word once, its symbols interned to `u32` ([`WordCounts`]);
//! - for every pair: its weighted count and the list of words it may occur in (a superset:
//!   stale entries are skipped when the word is visited);
//! - a lazy max-heap of candidates ([`PairQueue`]).
//!
//! A merge visits only the words that contain the chosen pair, rewrites each in one
//! left-to-right pass (exactly the oracle's pass), and adjusts the counts of just the pairs
//! that pass destroyed or created.
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
use crate::bpe::pair_queue::{Candidate, PairQueue};
use crate::bpe::symbols::SymbolTable;
use crate::bpe::words::WordCounts;

/// How far training has got, passed to the progress callback after every merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Merges learned so far.
    pub merges_done: usize,
    /// Merges asked for (training may stop earlier).
    pub merges_wanted: usize,
    /// Weighted count of the pair merged last.
    pub last_count: u64,
}

/// Why training ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The requested number of merges was learned.
    MergesDone,
    /// No adjacent pair is left: every word is a single symbol.
    NoPairs,
    /// The most frequent pair occurs fewer times than the minimum frequency.
    BelowMinFrequency,
}

/// What training produced.
#[derive(Debug, Clone)]
pub struct Training {
    /// The learned merges in the order they were chosen.
    pub merges: Vec<(String, String)>,
    /// The weighted count each merge had when it was chosen.
    pub merge_counts: Vec<u64>,
    /// The distinct words as segmented after the last merge.
    pub words: WordCounts,
    /// Why training stopped.
    pub stop: StopReason,
}

/// Learns BPE merges, configured builder-style.
///
/// ```
/// use bpe_lab::{TieBreak, Trainer};
/// let training = Trainer::new(3)
///     .tie_break(TieBreak::Lexicographic)
///     .min_frequency(1)
///     .train_paragraphs(&["low lower lowest"]);
/// assert_eq!(training.merges[0], ("l".to_string(), "o".to_string()));
/// ```
pub struct Trainer<'a> {
    num_merges: usize,
    tie_break: TieBreak,
    min_frequency: u64,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
}

impl<'a> Trainer<'a> {
    /// A trainer that learns at most `num_merges` merges, lexicographic tie-break, no minimum
    /// frequency.
    pub fn new(num_merges: usize) -> Self {
        Trainer {
            num_merges,
            tie_break: TieBreak::default(),
            min_frequency: 1,
            progress: None,
        }
    }

    /// How ties between equally frequent pairs are broken.
    pub fn tie_break(mut self, tie_break: TieBreak) -> Self {
        self.tie_break = tie_break;
        self
    }

    /// Stop as soon as the most frequent pair occurs fewer than `k` times (`0` and `1` both
    /// mean "keep going while any pair exists").
    pub fn min_frequency(mut self, k: u64) -> Self {
        self.min_frequency = k.max(1);
        self
    }

    /// Called after every merge.
    pub fn on_progress(mut self, callback: impl FnMut(Progress) + 'a) -> Self {
        self.progress = Some(Box::new(callback));
        self
    }

    /// Trains on the lab's initialization of `paragraphs` (split on `' '`, `</w>` appended).
    pub fn train_paragraphs(&mut self, paragraphs: &[impl AsRef<str>]) -> Training {
        self.train(WordCounts::from_paragraphs(paragraphs))
    }

    /// Trains on words given as lists of base symbols.
    pub fn train_symbol_lists(&mut self, words: &[Vec<String>]) -> Training {
        self.train(WordCounts::from_symbol_lists(words))
    }

    /// Trains on a (word, count) table; each word becomes its characters and `</w>`.
    pub fn train_word_counts<S: AsRef<str>>(
        &mut self,
        table: impl IntoIterator<Item = (S, u64)>,
    ) -> Training {
        self.train(WordCounts::from_word_counts(table))
    }

    /// Trains on a prepared word table.
    pub fn train(&mut self, words: WordCounts) -> Training {
        crate::lab::check::guard::answer_used(
            crate::lab::check::Exercise::TrainBpe,
            "bpe_lab::Trainer",
        );
        let mut engine = Engine::new(words, self.tie_break);
        let mut merges = Vec::with_capacity(self.num_merges.min(1 << 16));
        let mut merge_counts = Vec::with_capacity(merges.capacity());
        let stop = loop {
            if merges.len() == self.num_merges {
                break StopReason::MergesDone;
            }
            let Some((pair, count)) = engine.pop_best() else {
                break StopReason::NoPairs;
            };
            if count < self.min_frequency {
                break StopReason::BelowMinFrequency;
            }
            let (left, right) = engine.merge(pair);
            let symbols = &engine.words.symbols;
            merges.push((symbols.get(left).to_owned(), symbols.get(right).to_owned()));
            merge_counts.push(count);
            if let Some(callback) = self.progress.as_mut() {
                callback(Progress {
                    merges_done: merges.len(),
                    merges_wanted: self.num_merges,
                    last_count: count,
                });
            }
        };
        Training {
            merges,
            merge_counts,
            words: engine.words,
            stop,
        }
    }
}

const NO_WORD: u32 = u32::MAX;

struct PairSlot {
    left: u32,
    right: u32,
    /// [`prefix_key`]s of the left and right symbols' strings.
    left_prefix: u64,
    right_prefix: u64,
    count: u64,
    /// Words that may contain the pair (superset; may repeat).
    words: Vec<u32>,
    /// The round in which this pair was last put on the `touched` list.
    touched_round: u32,
    /// First-seen only: the lowest word index known to contain the pair, valid unless `dirty`.
    min_word: u32,
    dirty: bool,
}

struct Engine {
    words: WordCounts,
    policy: TieBreak,
    pairs: Vec<PairSlot>,
    index: FxHashMap<u64, u32>,
    queue: PairQueue,
    /// First-seen only: for every symbol in the arena, the index of the base symbol it starts
    /// at. Unlike a symbol's position, this does not move when earlier symbols merge, so the
    /// first-seen key of a pair only changes when its occurrences do.
    origins: Vec<u32>,
    round: u32,
    touched: Vec<u32>,
    scratch: Vec<u32>,
    scratch_origins: Vec<u32>,
    scratch_merged: Vec<bool>,
    /// Lexicographic only: this round's pair changes summed per neighbouring symbol (see
    /// [`NeighbourTotals`]).
    totals: Option<Box<RoundTotals>>,
}

/// The pairs one round destroys and creates, summed per neighbouring symbol. A merge of
/// `(a, b)` into `c` only ever destroys `(x, a)`, `(a, b)` and `(b, y)` and creates `(x, c)` and
/// `(c, y)`, so the change to every pair is known from `x` or `y` alone: summing in arrays
/// indexed by symbol turns one hash-map update per occurrence into one per distinct neighbour
/// and round. The first merges touch hundreds of thousands of words but only dozens of
/// distinct neighbours.
#[derive(Default)]
struct RoundTotals {
    destroyed_left: NeighbourTotals,
    destroyed_right: NeighbourTotals,
    created_left: NeighbourTotals,
    created_right: NeighbourTotals,
    /// Weighted occurrences of the merged pair itself.
    merged: u64,
}

/// Weighted counts (and, for created pairs, words) per symbol, for the symbols touched.
#[derive(Default)]
struct NeighbourTotals {
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
    fn drain(&mut self, mut f: impl FnMut(u32, u64, &[u32])) {
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

/// A pair destroyed or created by merging `(a, b)` into `c`, named by its other symbol.
#[derive(Clone, Copy)]
enum PairChange {
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

#[inline]
fn pair_id_key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// The ranking rule: `x` comes out of the queue before `y`. Higher counts first; ties go to
/// the lower keys. Under the lexicographic policy the keys are [`prefix_key`]s of the left and
/// right symbols, which settle almost every tie without touching the strings; only when they
/// cannot (long symbols sharing a prefix) are the strings compared.
#[inline]
fn ranks_before(
    policy: TieBreak,
    pairs: &[PairSlot],
    symbols: &SymbolTable,
    x: &Candidate,
    y: &Candidate,
) -> bool {
    if x.count != y.count {
        return x.count > y.count;
    }
    if x.key != y.key {
        return x.key < y.key;
    }
    if policy == TieBreak::FirstSeen {
        return false; // equal first-seen keys: the same pair
    }
    if prefix_is_whole(x.key) && x.key2 != y.key2 {
        return x.key2 < y.key2; // equal keys of short strings: the same left symbol
    }
    let (px, py) = (&pairs[x.pair as usize], &pairs[y.pair as usize]);
    (symbols.get(px.left), symbols.get(px.right)) < (symbols.get(py.left), symbols.get(py.right))
}

/// A key that orders strings as `str` does when the keys differ: the first seven bytes,
/// zero-padded, then the length capped at 8. If the keys differ they order the strings the
/// same way (UTF-8 byte order is code point order; a shorter string that is a prefix of the
/// other sorts first). If they are equal and [`prefix_is_whole`], the strings are equal.
fn prefix_key(s: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let n = s.len().min(7);
    bytes[..n].copy_from_slice(&s.as_bytes()[..n]);
    bytes[7] = s.len().min(8) as u8;
    u64::from_be_bytes(bytes)
}

/// Whether a [`prefix_key`] holds its whole string (seven bytes or fewer).
fn prefix_is_whole(key: u64) -> bool {
    (key & 0xff) < 8
}

impl Engine {
    fn new(words: WordCounts, policy: TieBreak) -> Self {
        let first_seen = policy == TieBreak::FirstSeen;
        let mut origins = Vec::new();
        if first_seen {
            origins.reserve_exact(words.arena.len());
            for span in &words.spans {
                origins.extend(0..span.len);
            }
        }
        let mut engine = Engine {
            words,
            policy,
            pairs: Vec::new(),
            index: FxHashMap::default(),
            queue: PairQueue::default(),
            origins,
            round: 0,
            touched: Vec::new(),
            scratch: Vec::new(),
            scratch_origins: Vec::new(),
            scratch_merged: Vec::new(),
            totals: (policy == TieBreak::Lexicographic).then(Box::default),
        };
        for w in 0..engine.words.len() {
            let span = engine.words.spans[w];
            let (start, len, count) = (span.start, span.len as usize, span.count);
            for k in start..(start + len).saturating_sub(1) {
                let (left, right) = (engine.words.arena[k], engine.words.arena[k + 1]);
                engine.add_pair(left, right, w as u32, count);
            }
        }
        engine.touched.clear();
        let mut candidates = Vec::with_capacity(engine.pairs.len());
        for p in 0..engine.pairs.len() as u32 {
            let candidate = engine.candidate(p);
            candidates.push(candidate);
        }
        let Engine {
            policy,
            pairs,
            words,
            ..
        } = &engine;
        engine.queue = PairQueue::from_vec(candidates, |x, y| {
            ranks_before(*policy, pairs, &words.symbols, x, y)
        });
        engine
    }

    fn push(&mut self, candidate: Candidate) {
        let Engine {
            policy,
            pairs,
            words,
            queue,
            ..
        } = self;
        queue.push(candidate, |x, y| {
            ranks_before(*policy, pairs, &words.symbols, x, y)
        });
    }

    /// The best pair by the policy and its count, removed from the queue; `None` if no pair
    /// with a positive count is left.
    fn pop_best(&mut self) -> Option<(u32, u64)> {
        loop {
            let top = {
                let Engine {
                    policy,
                    pairs,
                    words,
                    queue,
                    ..
                } = self;
                queue.pop(|x, y| ranks_before(*policy, pairs, &words.symbols, x, y))?
            };
            let count = self.pairs[top.pair as usize].count;
            if count == 0 {
                continue;
            }
            let current = self.candidate(top.pair);
            if top == current {
                return Some((top.pair, count));
            }
            let stale_high = ranks_before(
                self.policy,
                &self.pairs,
                &self.words.symbols,
                &top,
                &current,
            );
            if stale_high {
                self.push(current);
            }
        }
    }

    /// Pair `p` as it is now: its count and the keys that order it among equal counts.
    /// Lexicographic: the prefix keys of the left and right symbols. First-seen: the lowest
    /// word index containing the pair, then the origin of its first occurrence in that word.
    fn candidate(&mut self, p: u32) -> Candidate {
        let slot = &mut self.pairs[p as usize];
        let count = slot.count;
        if self.policy == TieBreak::Lexicographic {
            let (key, key2) = (slot.left_prefix, slot.right_prefix);
            return Candidate {
                count,
                key,
                key2,
                pair: p,
            };
        }
        let (left, right) = (slot.left, slot.right);
        if slot.dirty {
            let words = &self.words;
            slot.words
                .retain(|&w| contains_pair(words.word_ids(w as usize), left, right));
            slot.words.dedup();
            slot.min_word = slot.words.iter().copied().min().unwrap_or(NO_WORD);
            slot.dirty = false;
        }
        let w = slot.min_word as usize;
        let start = self.words.spans[w].start;
        let ids = self.words.word_ids(w);
        let k = ids
            .windows(2)
            .position(|s| s[0] == left && s[1] == right)
            .expect("first-seen bookkeeping: the pair's first word does not contain it");
        let key = (u64::from(slot.min_word) << 32) | u64::from(self.origins[start + k]);
        Candidate {
            count,
            key,
            key2: 0,
            pair: p,
        }
    }

    fn add_pair(&mut self, left: u32, right: u32, word: u32, count: u64) {
        let id = self.pair_id(left, right);
        let slot = &mut self.pairs[id as usize];
        slot.count += count;
        if slot.words.last() != Some(&word) {
            slot.words.push(word);
        }
        if !slot.dirty && word < slot.min_word {
            slot.min_word = word;
        }
        if slot.touched_round != self.round {
            slot.touched_round = self.round;
            self.touched.push(id);
        }
    }

    /// The id of pair `(left, right)`, creating its slot if new.
    fn pair_id(&mut self, left: u32, right: u32) -> u32 {
        let next_id = self.pairs.len() as u32;
        let id = *self
            .index
            .entry(pair_id_key(left, right))
            .or_insert(next_id);
        if id == next_id {
            self.pairs.push(PairSlot {
                left,
                right,
                left_prefix: prefix_key(self.words.symbols.get(left)),
                right_prefix: prefix_key(self.words.symbols.get(right)),
                count: 0,
                words: Vec::new(),
                touched_round: 0,
                min_word: NO_WORD,
                dirty: false,
            });
        }
        id
    }

    fn remove_pair(&mut self, left: u32, right: u32, word: u32, count: u64) {
        let id = self.index[&pair_id_key(left, right)];
        let slot = &mut self.pairs[id as usize];
        slot.count -= count;
        if slot.min_word == word {
            slot.dirty = true;
        }
    }

    /// Merges pair `p` everywhere; returns its (left, right) symbols.
    fn merge(&mut self, p: u32) -> (u32, u32) {
        self.round += 1;
        let slot = &mut self.pairs[p as usize];
        let (left, right) = (slot.left, slot.right);
        let words = std::mem::take(&mut slot.words);
        slot.min_word = NO_WORD;
        slot.dirty = false;
        let merged = self.words.symbols.intern_concat(left, right);
        for (k, &w) in words.iter().enumerate() {
            // Visiting a word costs two cache misses (its span, then its symbols), and the
            // words of a list are scattered: fetch both a few words ahead.
            if let Some(&ahead) = words.get(k + 16) {
                prefetch(&self.words.spans[ahead as usize]);
            }
            if let Some(&ahead) = words.get(k + 8)
                && let Some(first) = self.words.arena.get(self.words.spans[ahead as usize].start)
            {
                prefetch(first);
            }
            let visited = &mut self.words.spans[w as usize].visited;
            if *visited != self.round {
                *visited = self.round;
                self.merge_in_word(w, left, right, merged);
            }
        }
        if let Some(mut totals) = self.totals.take() {
            self.apply_totals(&mut totals, p, left, right, merged);
            self.totals = Some(totals);
        }
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

    /// Notes one pair destroyed or created in word `w` by merging `(a, b)` into `c`: summed per
    /// neighbour for this round when [`RoundTotals`] are kept, else applied at once.
    #[inline]
    fn record(&mut self, change: PairChange, a: u32, b: u32, c: u32, w: u32, freq: u64) {
        if let Some(totals) = self.totals.as_mut() {
            match change {
                PairChange::DestroyedLeft(x) => totals.destroyed_left.add(x, freq, None),
                PairChange::DestroyedMerged => totals.merged += freq,
                PairChange::DestroyedRight(y) => totals.destroyed_right.add(y, freq, None),
                PairChange::CreatedLeft(x) => totals.created_left.add(x, freq, Some(w)),
                PairChange::CreatedRight(y) => totals.created_right.add(y, freq, Some(w)),
            }
            return;
        }
        match change {
            PairChange::DestroyedLeft(x) => self.remove_pair(x, a, w, freq),
            PairChange::DestroyedMerged => self.remove_pair(a, b, w, freq),
            PairChange::DestroyedRight(y) => self.remove_pair(b, y, w, freq),
            PairChange::CreatedLeft(x) => self.add_pair(x, c, w, freq),
            PairChange::CreatedRight(y) => self.add_pair(c, y, w, freq),
        }
    }

    /// Applies a round's [`RoundTotals`]: creations first, so that no count dips below zero
    /// on the way (a created pair can also be a destroyed one when symbols are empty strings).
    fn apply_totals(&mut self, totals: &mut RoundTotals, p: u32, a: u32, b: u32, c: u32) {
        totals
            .created_left
            .drain(|x, total, words| self.add_pair_in(x, c, total, words));
        totals
            .created_right
            .drain(|y, total, words| self.add_pair_in(c, y, total, words));
        totals
            .destroyed_left
            .drain(|x, total, _| self.subtract(x, a, total));
        totals
            .destroyed_right
            .drain(|y, total, _| self.subtract(b, y, total));
        self.pairs[p as usize].count -= std::mem::take(&mut totals.merged);
    }

    /// Adds `total` occurrences of `(left, right)` found in `words` (lexicographic policy).
    fn add_pair_in(&mut self, left: u32, right: u32, total: u64, words: &[u32]) {
        let id = self.pair_id(left, right);
        let slot = &mut self.pairs[id as usize];
        slot.count += total;
        for &w in words {
            if slot.words.last() != Some(&w) {
                slot.words.push(w);
            }
        }
        if slot.touched_round != self.round {
            slot.touched_round = self.round;
            self.touched.push(id);
        }
    }

    /// Takes `total` occurrences away from `(left, right)` (lexicographic policy).
    fn subtract(&mut self, left: u32, right: u32, total: u64) {
        let id = self.index[&pair_id_key(left, right)];
        self.pairs[id as usize].count -= total;
    }

    /// One left-to-right merge pass over word `w`, as the oracle does it, with the pair counts
    /// adjusted for exactly the pairs the pass destroys and creates.
    fn merge_in_word(&mut self, w: u32, a: u32, b: u32, merged: u32) {
        let span = self.words.spans[w as usize];
        let (start, n, freq) = (span.start, span.len as usize, span.count);
        let track_origins = !self.origins.is_empty();
        let mut new = std::mem::take(&mut self.scratch);
        let mut new_origins = std::mem::take(&mut self.scratch_origins);
        let mut is_merged = std::mem::take(&mut self.scratch_merged);
        new.clear();
        new_origins.clear();
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
                    self.record(PairChange::DestroyedLeft(x), a, b, merged, w, freq);
                }
                self.record(PairChange::DestroyedMerged, a, b, merged, w, freq);
                if i + 2 < n {
                    let y = self.words.arena[start + i + 2];
                    self.record(PairChange::DestroyedRight(y), a, b, merged, w, freq);
                }
                new.push(merged);
                is_merged.push(true);
                if track_origins {
                    new_origins.push(self.origins[start + i]);
                }
                i += 2;
                last_end = i;
            } else {
                new.push(sym);
                is_merged.push(false);
                if track_origins {
                    new_origins.push(self.origins[start + i]);
                }
                i += 1;
            }
        }
        if new.len() != n {
            // Every pair that touches a merged symbol is new; a pair between two merged
            // symbols is added once, as the left pair of the second.
            for j in 0..new.len() {
                if is_merged[j] {
                    if j > 0 {
                        let x = new[j - 1];
                        self.record(PairChange::CreatedLeft(x), a, b, merged, w, freq);
                    }
                    if j + 1 < new.len() && !is_merged[j + 1] {
                        let y = new[j + 1];
                        self.record(PairChange::CreatedRight(y), a, b, merged, w, freq);
                    }
                }
            }
            self.words.arena[start..start + new.len()].copy_from_slice(&new);
            if track_origins {
                self.origins[start..start + new.len()].copy_from_slice(&new_origins);
            }
            self.words.spans[w as usize].len = new.len() as u32;
        }
        self.scratch = new;
        self.scratch_origins = new_origins;
        self.scratch_merged = is_merged;
    }
}

/// Asks the CPU to start loading `value` into cache; no effect on the program's meaning.
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, and SSE is part of x86_64's baseline.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

fn contains_pair(ids: &[u32], left: u32, right: u32) -> bool {
    ids.windows(2).any(|s| s[0] == left && s[1] == right)
}

/// Seed 000's `train_bpe` on the fast engine: lexicographic tie-break, at most `num_merges`
/// merges, stopping early when no adjacent pair remains. The corpus is left segmented as after
/// the last merge, as the naive loop would leave it.
///
/// ```
/// use bpe_lab::train_bpe;
/// let mut corpus = vec![vec!["a".to_string(), "b".into(), "c".into(), "a".into(), "b".into()]];
/// let merges = train_bpe(&mut corpus, 3);
/// assert_eq!(merges, [("a".into(), "b".into()), ("ab".into(), "c".into()), ("abc".into(), "ab".into())]);
/// assert_eq!(corpus, [vec!["abcab".to_string()]]);
/// ```
#[allow(clippy::ptr_arg)] // the fixed API's signature, as the seed writes it
pub fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    let (words, positions) = WordCounts::from_symbol_lists_indexed(corpus);
    let training = Trainer::new(num_merges).train(words);
    for (word, &index) in corpus.iter_mut().zip(&positions) {
        *word = training.words.word_strings(index as usize);
    }
    training.merges
}

/// The lab's `learn_bpe` on the fast engine: [`bpe_initialize`](crate::bpe_initialize), then
/// `num_merges` rounds with the lab's tie-break (`Counter.most_common(1)`, i.e.
/// [`TieBreak::FirstSeen`]). Returns the merges, the vocabulary (initial symbols plus every
/// merged token) and the final corpus, one entry per word of the dataset.
///
/// ```
/// use bpe_lab::learn_bpe;
/// let (merges, vocabulary, corpus) = learn_bpe(&["low low lower"], 2);
/// assert_eq!(merges, [("l".into(), "o".into()), ("lo".into(), "w".into())]);
/// assert!(vocabulary.contains("low"));
/// assert_eq!(corpus[2], ["low", "e", "r", "</w>"]);
/// ```
#[allow(clippy::type_complexity)] // the fixed API's signature, as the lab writes it
pub fn learn_bpe(
    dataset: &[impl AsRef<str>],
    num_merges: usize,
) -> (
    Vec<(String, String)>,
    std::collections::BTreeSet<String>,
    Vec<Vec<String>>,
) {
    let (corpus, mut vocabulary) = crate::bpe::corpus::bpe_initialize(dataset);
    let (words, positions) = WordCounts::from_symbol_lists_indexed(&corpus);
    let training = Trainer::new(num_merges)
        .tie_break(TieBreak::FirstSeen)
        .train(words);
    vocabulary.extend(training.merges.iter().map(|(a, b)| format!("{a}{b}")));
    let corpus = positions
        .iter()
        .map(|&i| training.words.word_strings(i as usize))
        .collect();
    (training.merges, vocabulary, corpus)
}
