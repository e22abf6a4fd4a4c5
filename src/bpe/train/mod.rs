//! The fast trainer: exact BPE on a word-frequency table with incremental pair counts.
//!
//! Split by role, as Hugging Face splits `models/bpe/`:
//! - this file: the public API ([`Trainer`], [`train_bpe`], [`learn_bpe`]) and what training
//!   returns;
//! - `engine`: the pair index, the lazy queue, and each round from choosing to applying;
//! - `rewrite`: the merge pass over the words of a pair's list;
//! - `round`: what a merge changes, and the per-round batching of those changes;
//! - `tie`: what each tie-break policy keeps, and the keys that order equal counts;
//! - `pair_index`: pair ids by their symbols; `chunked`: the pair slots' storage;
//!   `word_list`: the words a pair may occur in; `queue`: the binary heap of candidates.
//!
//! The words themselves are [`WordCounts`] (module `bpe::words`).

mod chunked;
mod engine;
mod pair_index;
mod queue;
mod rewrite;
mod round;
mod settings;
mod tie;
mod word_list;

use std::time::{Duration, Instant};

use crate::bpe::TieBreak;
use crate::bpe::words::WordCounts;
use engine::Engine;
pub use settings::TrainingSettings;

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

/// Learns BPE merges, configured builder-style: [`TrainingSettings`] (what to learn, the part a
/// tokenizer file records) plus a progress callback.
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
    settings: TrainingSettings,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
}

impl<'a> Trainer<'a> {
    /// A trainer that learns at most `num_merges` merges, lexicographic tie-break, no minimum
    /// frequency.
    pub fn new(num_merges: usize) -> Self {
        Trainer::from_settings(TrainingSettings::new(num_merges))
    }

    /// A trainer with these settings.
    pub fn from_settings(settings: TrainingSettings) -> Self {
        Trainer {
            settings,
            progress: None,
        }
    }

    /// What this trainer is set to do.
    pub fn settings(&self) -> TrainingSettings {
        self.settings
    }

    /// How ties between equally frequent pairs are broken ([`TrainingSettings::tie_break`]).
    pub fn tie_break(mut self, tie_break: TieBreak) -> Self {
        self.settings = self.settings.tie_break(tie_break);
        self
    }

    /// Stop early on rare pairs ([`TrainingSettings::min_frequency`]).
    pub fn min_frequency(mut self, k: u64) -> Self {
        self.settings = self.settings.min_frequency(k);
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

    /// Trains on `corpus`, one list of symbols per word, and leaves every word segmented as
    /// after the last merge, as the textbook loop (and the `train_bpe` exercise) leaves it.
    ///
    /// ```
    /// use bpe_lab::{TieBreak, Trainer};
    /// // (a, b) and (b, a) both occur once: the tie rule decides.
    /// let start: Vec<Vec<String>> = vec![vec!["b".into(), "a".into()], vec!["a".into(), "b".into()]];
    /// let mut corpus = start.clone();
    /// let smallest = Trainer::new(1).tie_break(TieBreak::Lexicographic).train_corpus(&mut corpus);
    /// assert_eq!(smallest.merges, [("a".to_string(), "b".to_string())]);
    /// assert_eq!(corpus, [vec!["b".to_string(), "a".into()], vec!["ab".into()]]);
    /// let mut corpus = start.clone();
    /// let first_seen = Trainer::new(1).tie_break(TieBreak::FirstSeen).train_corpus(&mut corpus);
    /// assert_eq!(first_seen.merges, [("b".to_string(), "a".to_string())]);
    /// ```
    #[allow(clippy::ptr_arg)] // the exercise's corpus type, so notebooks pass theirs as it is
    pub fn train_corpus(&mut self, corpus: &mut Vec<Vec<String>>) -> Training {
        let (words, positions) = WordCounts::from_symbol_lists_indexed(corpus);
        let training = self.train(words);
        for (word, &index) in corpus.iter_mut().zip(&positions) {
            *word = training.words.word_strings(index as usize);
        }
        training
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
        crate::exercise::guard::answer_used(
            crate::exercise::Exercise::TrainBpe,
            "bpe_lab::Trainer",
        );
        self.run(words, &mut Profile::default())
    }

    /// [`Trainer::train`], also saying where the time went: for the benchmark that sets each
    /// phase beside its floor (`examples/phases.rs`). With `trace_rewrites` it lists every
    /// word each merge rewrote, which costs memory in proportion.
    #[doc(hidden)]
    pub fn train_profiled(
        &mut self,
        words: WordCounts,
        trace_rewrites: bool,
    ) -> (Training, Profile) {
        let mut profile = Profile {
            rewrites: trace_rewrites.then(Vec::new),
            ..Profile::default()
        };
        let training = self.run(words, &mut profile);
        (training, profile)
    }

    fn run(&mut self, words: WordCounts, profile: &mut Profile) -> Training {
        let started = Instant::now();
        let TrainingSettings {
            num_merges,
            tie_break,
            min_frequency,
        } = self.settings;
        let mut engine = Engine::new(words, tie_break);
        engine.rewrites = profile.rewrites.take();
        profile.pair_index = started.elapsed();
        let started = Instant::now();
        let mut merges = Vec::with_capacity(num_merges.min(1 << 16));
        let mut merge_counts = Vec::with_capacity(merges.capacity());
        let stop = loop {
            if merges.len() == num_merges {
                break StopReason::MergesDone;
            }
            let Some((pair, count)) = engine.pop_best() else {
                break StopReason::NoPairs;
            };
            if count < min_frequency {
                break StopReason::BelowMinFrequency;
            }
            let (left, right) = engine.merge(pair);
            let symbols = &engine.words.symbols;
            merges.push((symbols.get(left).to_owned(), symbols.get(right).to_owned()));
            merge_counts.push(count);
            if let Some(callback) = self.progress.as_mut() {
                callback(Progress {
                    merges_done: merges.len(),
                    merges_wanted: num_merges,
                    last_count: count,
                });
            }
        };
        profile.merge_loop = started.elapsed();
        profile.word_visits = engine.word_visits;
        profile.rewrites = engine.rewrites.take();
        Training {
            merges,
            merge_counts,
            words: engine.words,
            stop,
        }
    }
}

/// Where one training run spent its time (see [`Trainer::train_profiled`]).
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// Building the pair counts, word lists and queue from the words.
    pub pair_index: Duration,
    /// Choosing and merging, every round.
    pub merge_loop: Duration,
    /// Words the merge loop visited, those that no longer held the pair included.
    pub word_visits: u64,
    /// When asked for: every word a merge rewrote, in order, as (word index, its length
    /// before the merge).
    pub rewrites: Option<Vec<(u32, u32)>>,
}

/// The training problem's `train_bpe` on the fast engine: lexicographic tie-break, at most `num_merges`
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
pub fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    Trainer::new(num_merges).train_corpus(corpus).merges
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
