//! Reference answers, one per exercise, each under the exercise's own name and signature: for
//! the cells after an exercise to fall back on (through
//! [`student_or_reference`](super::student_or_reference)) and for the checks to compare with.
//! The notebooks name every reference by this one path, `bpe_lab::lab::reference::<exercise>`,
//! so a student meets one place for them (notebook 00 says so). Four of them are the crate's
//! fixed API under the same name (`bpe_lab::bpe_initialize`, …), re-exported here, as are
//! notebook 07's seven (written out in [`super::bytes`]); the other four exist only here. Which
//! is which is each exercise's row of [`check::table`](super::check::table).

use crate::EOW;
use crate::bpe::corpus::lab_words;
use crate::bpe::oracle::{Rank, apply_merges_naive};
use crate::lab::check::{Exercise, guard};
use std::collections::HashMap;

/// The references of notebook 07's byte-level exercises, written out in [`super::bytes`].
pub use super::bytes::{
    byte_initialize, count_pairs_in_chunks, decode_ids, encode_ids, merge_ids, recover_merges,
    train_byte_bpe,
};
/// The references of notebooks 01, 02, 03 and 05: the fixed API's functions themselves.
pub use crate::{apply_merges, bpe_initialize, get_pair_frequencies, merge_pair_in_word};

/// The most frequent pair of `pair_freqs` and its count; among equal counts the smallest pair
/// (the training problem's rule, the oracle's [`Rank::lexicographic`]); `None` when the map is empty.
///
/// ```
/// use std::collections::HashMap;
/// let counts: HashMap<(String, String), usize> =
///     [(("b", "a"), 2), (("a", "b"), 2), (("c", "d"), 1)]
///         .into_iter().map(|((a, b), n)| ((a.to_string(), b.to_string()), n)).collect();
/// let best = bpe_lab::lab::reference::most_frequent_pair(&counts);
/// assert_eq!(best, Some((("a".to_string(), "b".to_string()), 2)));
/// ```
pub fn most_frequent_pair(
    pair_freqs: &HashMap<(String, String), usize>,
) -> Option<((String, String), usize)> {
    guard::answer_used(
        Exercise::MostFrequentPair,
        "bpe_lab::lab::reference::most_frequent_pair",
    );
    pair_freqs
        .iter()
        .min_by_key(|((a, b), count)| Rank::lexicographic((a, b), **count))
        .map(|(pair, &count)| (pair.clone(), count))
}

/// Learns `num_merges` merges from `corpus` with the literal textbook loop, breaking ties by
/// the rule in force ([`parity::tie_break`](crate::lab::parity::tie_break): the smallest pair,
/// or the Python lab's first-seen pair when the lab-parity switch is on). Leaves `corpus`
/// merged, as the exercise does. The fixed API's `bpe_lab::train_bpe` always takes the
/// smallest pair.
///
/// ```
/// let mut corpus: Vec<Vec<String>> = vec![vec!["a".into(), "b".into()], vec!["a".into(), "c".into()]];
/// let merges = bpe_lab::lab::reference::train_bpe(&mut corpus, 1);
/// assert_eq!(merges.len(), 1);
/// ```
pub fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    guard::answer_used(Exercise::TrainBpe, "bpe_lab::lab::reference::train_bpe");
    crate::bpe::oracle::train_bpe_naive(corpus, num_merges, crate::lab::parity::tie_break())
}

/// The unknown token's text in the notebooks' vocabularies (the tokenizer notebook's numbering plus it).
pub const UNK: &str = "<UNK>";

/// Ids of `text`: each [`lab_words`] word as its characters plus `</w>`, merged by rank (seed
/// 002), each token's id from `token_to_id`, or `unk_id` for a token not in it.
///
/// ```
/// use std::collections::HashMap;
/// let ids: HashMap<String, u32> = [("a", 0), ("b</w>", 1), ("</w>", 2)]
///     .into_iter().map(|(t, i)| (t.to_string(), i)).collect();
/// let merges = vec![("b".to_string(), "</w>".to_string())];
/// assert_eq!(bpe_lab::lab::reference::encode("ab x", &merges, &ids, 9), [0, 1, 9, 2]);
/// ```
pub fn encode(
    text: &str,
    merges: &[(String, String)],
    token_to_id: &HashMap<String, u32>,
    unk_id: u32,
) -> Vec<u32> {
    guard::answer_used(Exercise::Encode, "bpe_lab::lab::reference::encode");
    let mut ids = Vec::new();
    for word in lab_words(text) {
        let mut symbols: Vec<String> = word.chars().map(String::from).collect();
        symbols.push(EOW.to_owned());
        for token in apply_merges_naive(&symbols, merges) {
            ids.push(token_to_id.get(&token).copied().unwrap_or(unk_id));
        }
    }
    ids
}

/// Text of `ids`: tokens one after another, each final `</w>` a space, none after the last
/// word. An id missing from `id_to_token` reads as `<UNK>`.
///
/// ```
/// use std::collections::HashMap;
/// let tokens: HashMap<u32, String> = [(0, "a"), (1, "b</w>"), (2, "</w>")]
///     .into_iter().map(|(i, t)| (i, t.to_string())).collect();
/// assert_eq!(bpe_lab::lab::reference::decode(&[0, 1, 2, 0, 1], &tokens), "ab  ab");
/// ```
pub fn decode(ids: &[u32], id_to_token: &HashMap<u32, String>) -> String {
    guard::answer_used(Exercise::Decode, "bpe_lab::lab::reference::decode");
    let mut text = String::new();
    let mut boundary = false;
    for id in ids {
        if boundary {
            text.push(' ');
        }
        let token = id_to_token.get(id).map(String::as_str).unwrap_or(UNK);
        match token.strip_suffix(EOW) {
            Some(body) => {
                text.push_str(body);
                boundary = true;
            }
            None => {
                text.push_str(token);
                boundary = false;
            }
        }
    }
    text
}
