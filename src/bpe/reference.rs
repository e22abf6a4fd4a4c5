//! The oracle: literal transcriptions of the seed problems and of the DeepMind lab.
//!
//! Nothing here is clever. Every loop does what the Python text does, one step at a time, so
//! that the fast engine in [`crate::bpe::train`] and [`crate::bpe::encode`] can be compared with
//! it on generated inputs. The lab's own step functions ([`get_pair_frequencies`],
//! [`merge_pair_in_word`]) are part of the fixed public API and live here because they *are*
//! the literal version.

use std::collections::{BTreeSet, HashMap};

use crate::bpe::corpus::bpe_initialize;
use crate::bpe::{TieBreak, steps};
use crate::lab::check::Exercise;

/// Counts every adjacent pair in every word, overlapping ones included (the lab's step 2).
///
/// ```
/// use bpe_lab::get_pair_frequencies;
/// let corpus = vec![vec!["a".to_string(), "a".into(), "a".into()]];
/// let counts = get_pair_frequencies(&corpus);
/// assert_eq!(counts[&("a".to_string(), "a".to_string())], 2);
/// ```
pub fn get_pair_frequencies(corpus: &[Vec<String>]) -> HashMap<(String, String), usize> {
    crate::lab::check::guard::answer_used(
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
    crate::lab::check::guard::answer_used(Exercise::MergePairInWord, "bpe_lab::merge_pair_in_word");
    steps::merge_pair_in_word(word, pair)
}

/// Pair counts in the order Python's `Counter` would iterate them: by first occurrence when
/// scanning the corpus word by word, left to right.
fn pair_counts_in_first_seen_order(corpus: &[Vec<String>]) -> Vec<((&str, &str), usize)> {
    let mut order: Vec<((&str, &str), usize)> = Vec::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for word in corpus {
        for w in word.windows(2) {
            let pair = (w[0].as_str(), w[1].as_str());
            match index.get(&pair) {
                Some(&i) => order[i].1 += 1,
                None => {
                    index.insert(pair, order.len());
                    order.push((pair, 1));
                }
            }
        }
    }
    order
}

/// The most frequent pair under `policy`, with its count; `None` when no adjacent pair exists.
pub fn best_pair(corpus: &[Vec<String>], policy: TieBreak) -> Option<((String, String), usize)> {
    crate::lab::check::guard::answer_used(
        Exercise::MostFrequentPair,
        "bpe_lab::bpe::reference::best_pair",
    );
    let mut best: Option<((&str, &str), usize)> = None;
    for (pair, count) in pair_counts_in_first_seen_order(corpus) {
        let better = match best {
            None => true,
            Some((best_pair, best_count)) => match policy {
                // Strictly greater: the first maximum in iteration order wins, as in
                // `Counter.most_common(1)` and `max(dict, key=...)`.
                TieBreak::FirstSeen => count > best_count,
                TieBreak::Lexicographic => {
                    count > best_count || (count == best_count && pair < best_pair)
                }
            },
        };
        if better {
            best = Some((pair, count));
        }
    }
    best.map(|((a, b), count)| ((a.to_owned(), b.to_owned()), count))
}

/// Seed 000's `train_bpe`, literally, under either tie-break policy: count afresh, pick, merge
/// everywhere, record; stop after `num_merges` rounds or when no adjacent pair remains.
#[allow(clippy::ptr_arg)] // mirrors the fixed API's `train_bpe`
pub fn train_bpe_naive(
    corpus: &mut Vec<Vec<String>>,
    num_merges: usize,
    policy: TieBreak,
) -> Vec<(String, String)> {
    train_naive(corpus, num_merges, policy, 1)
}

/// [`train_bpe_naive`] that also stops when the best pair occurs fewer than `min_frequency`
/// times (seed 001's `if freq < 2: break`).
#[allow(clippy::ptr_arg)] // mirrors the fixed API's `train_bpe`
pub fn train_naive(
    corpus: &mut Vec<Vec<String>>,
    num_merges: usize,
    policy: TieBreak,
    min_frequency: usize,
) -> Vec<(String, String)> {
    crate::lab::check::guard::answer_used(
        Exercise::TrainBpe,
        "bpe_lab::bpe::reference::train_naive",
    );
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

/// Seed 002's `apply_merges`, literally: rank = first index in `merges`; repeatedly find the
/// adjacent pair with the lowest rank, merge its leftmost occurrence only, and rescan.
pub fn apply_merges_naive(tokens: &[String], merges: &[(String, String)]) -> Vec<String> {
    crate::lab::check::guard::answer_used(
        Exercise::ApplyMerges,
        "bpe_lab::bpe::reference::apply_merges_naive",
    );
    steps::apply_merges(tokens, merges)
}
