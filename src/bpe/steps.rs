//! The lab's step functions in plain `std` Rust, using nothing else from the crate.
//!
//! The crate's public versions (`bpe_lab::bpe_initialize`, `bpe_lab::get_pair_frequencies`,
//! …) call these. The grader compiles this same file into a student's worker program as the
//! helpers an exercise may lean on — the steps taught before it, never its own answer — so
//! the text must stay free of `crate::` paths and dependencies.

use std::collections::{BTreeSet, HashMap};

/// The end-of-word marker the lab appends to every word.
pub const EOW: &str = "</w>";

/// Every `split(' ')` word of every paragraph as its characters plus `"</w>"`, and the set of
/// all symbols seen plus `"</w>"`.
pub fn bpe_initialize(dataset: &[impl AsRef<str>]) -> (Vec<Vec<String>>, BTreeSet<String>) {
    let mut corpus = Vec::new();
    let mut vocabulary = BTreeSet::from([EOW.to_string()]);
    for paragraph in dataset {
        // Python's `str.split(" ")`: a double space yields an empty word.
        for word in paragraph.as_ref().split(' ') {
            let mut symbols: Vec<String> = word.chars().map(String::from).collect();
            symbols.push(EOW.to_string());
            vocabulary.extend(symbols.iter().cloned());
            corpus.push(symbols);
        }
    }
    (corpus, vocabulary)
}

/// Counts every adjacent pair in every word, overlapping ones included.
pub fn get_pair_frequencies(corpus: &[Vec<String>]) -> HashMap<(String, String), usize> {
    let mut pairs = HashMap::new();
    for word in corpus {
        for i in 0..word.len().saturating_sub(1) {
            *pairs
                .entry((word[i].clone(), word[i + 1].clone()))
                .or_insert(0) += 1;
        }
    }
    pairs
}

/// The highest count; among equal counts the smallest pair; `None` for an empty map.
// The crate itself ranks with `oracle::Rank`; this copy is for the grader's workers, which
// cannot link the crate, and a test in `oracle` keeps the two equal.
#[allow(dead_code)]
pub fn most_frequent_pair(
    pair_freqs: &HashMap<(String, String), usize>,
) -> Option<((String, String), usize)> {
    pair_freqs
        .iter()
        .max_by(|(p, c), (q, d)| c.cmp(d).then_with(|| q.cmp(p)))
        .map(|(pair, &count)| (pair.clone(), count))
}

/// One left-to-right pass: where `word[i..i+2] == pair` emit `a+b` and skip two, else copy one.
pub fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let merged = format!("{}{}", pair.0, pair.1);
    let mut out = Vec::with_capacity(word.len());
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(merged.clone());
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}

/// Seed 002, literally: rank = first index in `merges`; repeatedly find the adjacent pair with
/// the lowest rank, merge its leftmost occurrence only, and rescan.
pub fn apply_merges(tokens: &[String], merges: &[(String, String)]) -> Vec<String> {
    let mut rank: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, (a, b)) in merges.iter().enumerate() {
        rank.entry((a.as_str(), b.as_str())).or_insert(i);
    }
    let mut tokens = tokens.to_vec();
    loop {
        let mut best: Option<(usize, usize)> = None; // (rank, position)
        for i in 0..tokens.len().saturating_sub(1) {
            if let Some(&r) = rank.get(&(tokens[i].as_str(), tokens[i + 1].as_str())) {
                // Strictly lower rank only, so the leftmost occurrence of the best pair wins.
                if best.is_none_or(|(best_rank, _)| r < best_rank) {
                    best = Some((r, i));
                }
            }
        }
        let Some((_, i)) = best else {
            return tokens;
        };
        let right = tokens.remove(i + 1);
        tokens[i].push_str(&right);
    }
}
