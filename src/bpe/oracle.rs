//! The oracle: literal transcriptions of the course's Python originals and of the DeepMind lab, and the
//! ranking that decides which pair a round merges ([`Rank`]).
//!
//! Nothing here is clever. Every loop does what the Python text does, one step at a time, so
//! that the fast engine in [`crate::bpe::train`] and [`crate::bpe::encode`] can be compared with
//! it on generated inputs. The lab's own step functions ([`get_pair_frequencies`],
//! [`merge_pair_in_word`]) are part of the fixed public API and live here because they *are*
//! the literal version.

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};

use crate::bpe::corpus::bpe_initialize;
use crate::bpe::{TieBreak, steps};
use crate::exercise::Exercise;

/// Counts every adjacent pair in every word, overlapping ones included (the lab's step 2).
///
/// ```
/// use bpe_lab::get_pair_frequencies;
/// let corpus = vec![vec!["a".to_string(), "a".into(), "a".into()]];
/// let counts = get_pair_frequencies(&corpus);
/// assert_eq!(counts[&("a".to_string(), "a".to_string())], 2);
/// ```
pub fn get_pair_frequencies(corpus: &[Vec<String>]) -> HashMap<(String, String), usize> {
    crate::exercise::guard::answer_used(
        Exercise::GetPairFrequencies,
        "bpe_lab::get_pair_frequencies",
    );
    steps::get_pair_frequencies(corpus)
}

/// Merges every non-overlapping occurrence of `pair` in one left-to-right pass (the lab's
/// step 3): where `word[i..i+2] == pair` emit `a+b` and skip two, else copy one.
///
/// ```
/// use bpe_lab::merge_pair_in_word;
/// let word: Vec<String> = ["a", "a", "a"].iter().map(|s| s.to_string()).collect();
/// let merged = merge_pair_in_word(&word, &("a".into(), "a".into()));
/// assert_eq!(merged, ["aa", "a"]);
/// ```
pub fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    crate::exercise::guard::answer_used(Exercise::MergePairInWord, "bpe_lab::merge_pair_in_word");
    steps::merge_pair_in_word(word, pair)
}

/// Where a pair stands in a round's choice: the higher count first, then the tie-break
/// policy's key. The round merges the pair with the smallest rank, and sorting by rank lists
/// the pairs in the order the policy would choose them. This is the rule itself; the fast
/// trainer's tie keys encode the same order without strings (see `train::tie`).
///
/// ```
/// use bpe_lab::bpe::oracle::Rank;
/// // More frequent wins; among equal counts the smaller pair.
/// assert!(Rank::lexicographic(("z", "z"), 3) < Rank::lexicographic(("a", "a"), 2));
/// assert!(Rank::lexicographic(("a", "b"), 2) < Rank::lexicographic(("a", "c"), 2));
/// // First-seen: among equal counts, the earlier first occurrence (word, then symbol).
/// assert!(Rank::first_seen(2, (0, 5)) < Rank::first_seen(2, (1, 0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank<'a> {
    count: Reverse<usize>,
    tie: TieKey<'a>,
}

/// What orders equally frequent pairs. Ranks compared within one round all use one policy,
/// so only keys of one variant ever meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum TieKey<'a> {
    /// Lexicographic: the pair, left then right, by code point (`str` order).
    Pair(&'a str, &'a str),
    /// First-seen: where the pair first occurs, as (word, symbol), counted from 0.
    Position(usize, usize),
}

impl<'a> Rank<'a> {
    /// The rank of `pair`, occurring `count` times and first at `first` (word, symbol), under
    /// `policy`.
    pub fn new(
        policy: TieBreak,
        pair: (&'a str, &'a str),
        count: usize,
        first: (usize, usize),
    ) -> Self {
        match policy {
            TieBreak::Lexicographic => Rank::lexicographic(pair, count),
            TieBreak::FirstSeen => Rank::first_seen(count, first),
        }
    }

    /// The rank under [`TieBreak::Lexicographic`], which needs no position.
    pub fn lexicographic(pair: (&'a str, &'a str), count: usize) -> Self {
        Rank {
            count: Reverse(count),
            tie: TieKey::Pair(pair.0, pair.1),
        }
    }

    /// The rank under [`TieBreak::FirstSeen`] of a pair first seen at `first` (word, symbol).
    pub fn first_seen(count: usize, first: (usize, usize)) -> Self {
        Rank {
            count: Reverse(count),
            tie: TieKey::Position(first.0, first.1),
        }
    }
}

/// One adjacent pair of a corpus: its count and where it first occurs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairCount<'a> {
    pub pair: (&'a str, &'a str),
    pub count: usize,
    /// Word and symbol index (from 0) of the first occurrence, scanning word by word, left to
    /// right.
    pub first: (usize, usize),
}

impl PairCount<'_> {
    /// This pair's [`Rank`] under `policy`.
    pub fn rank(&self, policy: TieBreak) -> Rank<'_> {
        Rank::new(policy, self.pair, self.count, self.first)
    }
}

/// Every adjacent pair of `corpus` with its count and first occurrence, in the order Python's
/// `Counter` would iterate them (by first occurrence).
pub fn pair_counts(corpus: &[Vec<String>]) -> Vec<PairCount<'_>> {
    let mut order: Vec<PairCount> = Vec::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for (w, word) in corpus.iter().enumerate() {
        for (s, window) in word.windows(2).enumerate() {
            let pair = (window[0].as_str(), window[1].as_str());
            match index.get(&pair) {
                Some(&i) => order[i].count += 1,
                None => {
                    index.insert(pair, order.len());
                    order.push(PairCount {
                        pair,
                        count: 1,
                        first: (w, s),
                    });
                }
            }
        }
    }
    order
}

/// Every adjacent pair of `corpus` by [`Rank`] under `policy`: the winner first, then the rest
/// in the order the policy would choose them.
pub fn ranked_pairs(corpus: &[Vec<String>], policy: TieBreak) -> Vec<PairCount<'_>> {
    let mut pairs = pair_counts(corpus);
    pairs.sort_by(|x, y| x.rank(policy).cmp(&y.rank(policy)));
    pairs
}

/// The most frequent pair under `policy`, with its count; `None` when no adjacent pair exists.
pub fn best_pair(corpus: &[Vec<String>], policy: TieBreak) -> Option<((String, String), usize)> {
    crate::exercise::guard::answer_used(
        Exercise::MostFrequentPair,
        "bpe_lab::bpe::oracle::best_pair",
    );
    pair_counts(corpus)
        .into_iter()
        .min_by(|x, y| x.rank(policy).cmp(&y.rank(policy)))
        .map(|p| ((p.pair.0.to_owned(), p.pair.1.to_owned()), p.count))
}

/// The training problem's `train_bpe`, literally, under either tie-break policy: count afresh, pick, merge
/// everywhere, record; stop after `num_merges` rounds or when no adjacent pair remains.
pub fn train_bpe_naive(
    corpus: &mut Vec<Vec<String>>,
    num_merges: usize,
    policy: TieBreak,
) -> Vec<(String, String)> {
    train_naive(corpus, num_merges, policy, 1)
}

/// [`train_bpe_naive`] that also stops when the best pair occurs fewer than `min_frequency`
/// times (the simplified-trainer problem's `if freq < 2: break`).
#[allow(clippy::ptr_arg)] // mirrors the fixed API's `train_bpe`
pub fn train_naive(
    corpus: &mut Vec<Vec<String>>,
    num_merges: usize,
    policy: TieBreak,
    min_frequency: usize,
) -> Vec<(String, String)> {
    crate::exercise::guard::answer_used(Exercise::TrainBpe, "bpe_lab::bpe::oracle::train_naive");
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let Some((pair, count)) = best_pair(corpus, policy) else {
            break;
        };
        if count < min_frequency {
            break;
        }
        for word in corpus.iter_mut() {
            *word = merge_pair_in_word(word, &pair);
        }
        merges.push(pair);
    }
    merges
}

/// The lab's `learn_bpe`, literally: initialize, then repeat count / pick with
/// `Counter.most_common(1)` (first-seen tie-break) / merge.
#[allow(clippy::type_complexity)] // mirrors the fixed API's `learn_bpe`
pub fn learn_bpe_naive(
    dataset: &[impl AsRef<str>],
    num_merges: usize,
) -> (Vec<(String, String)>, BTreeSet<String>, Vec<Vec<String>>) {
    let (mut corpus, mut vocabulary) = bpe_initialize(dataset);
    let merges = train_bpe_naive(&mut corpus, num_merges, TieBreak::FirstSeen);
    for (a, b) in &merges {
        vocabulary.insert(format!("{a}{b}"));
    }
    (merges, vocabulary, corpus)
}

/// The apply-merges problem's `apply_merges`, literally: rank = first index in `merges`; repeatedly find the
/// adjacent pair with the lowest rank, merge its leftmost occurrence only, and rescan.
pub fn apply_merges_naive(tokens: &[String], merges: &[(String, String)]) -> Vec<String> {
    crate::exercise::guard::answer_used(
        Exercise::ApplyMerges,
        "bpe_lab::bpe::oracle::apply_merges_naive",
    );
    steps::apply_merges(tokens, merges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    /// A few short words over symbols whose concatenations collide (`a`+`b` = `ab`), so ties
    /// are common.
    fn corpus(state: &mut u64) -> Vec<Vec<String>> {
        let mut below = |n: u64| (splitmix64(state) % n) as usize;
        let words = 1 + below(6);
        (0..words)
            .map(|_| {
                let len = below(7);
                (0..len)
                    .map(|_| ["a", "b", "ab", "c"][below(4)].to_owned())
                    .collect()
            })
            .collect()
    }

    /// The grader's self-contained copy of the lexicographic choice agrees with [`Rank`].
    #[test]
    fn steps_choose_as_the_rank_does() {
        let mut rng = 13;
        for _ in 0..2_000 {
            let corpus = corpus(&mut rng);
            let counts = steps::get_pair_frequencies(&corpus);
            let ranked = ranked_pairs(&corpus, TieBreak::Lexicographic);
            let expected = ranked
                .first()
                .map(|p| ((p.pair.0.to_owned(), p.pair.1.to_owned()), p.count));
            assert_eq!(steps::most_frequent_pair(&counts), expected, "{corpus:?}");
        }
    }

    /// Under first-seen, ranking and the literal `Counter` scan pick the same pair.
    #[test]
    fn first_seen_picks_the_first_maximum() {
        let mut rng = 7;
        for _ in 0..2_000 {
            let corpus = corpus(&mut rng);
            let counts = pair_counts(&corpus);
            let mut first_max: Option<&PairCount> = None;
            for p in &counts {
                if first_max.is_none_or(|m| p.count > m.count) {
                    first_max = Some(p);
                }
            }
            let ranked = ranked_pairs(&corpus, TieBreak::FirstSeen);
            assert_eq!(ranked.first(), first_max, "{corpus:?}");
        }
    }
}
