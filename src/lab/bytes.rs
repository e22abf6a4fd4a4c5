//! The byte-level steps notebook 07 teaches, written literally: the answers its two exercises
//! are checked against. The engine's byte-level trainer does the same work fast; these stay
//! as plain as the notebook's explanation so that a wrong answer is compared with something a
//! student can read.

use crate::exercise::{Exercise, guard};
use std::collections::HashMap;

/// Every chunk as the values of its UTF-8 bytes, 0–255, in order: the starting tokens of
/// byte-level BPE. `"é"` is two bytes, an Ethiopic letter three, most emoji four.
///
/// ```
/// let chunks = vec!["Lagos".to_string(), " é".to_string(), String::new()];
/// assert_eq!(
///     bpe_lab::lab::bytes::byte_initialize(&chunks),
///     vec![vec![76, 97, 103, 111, 115], vec![32, 195, 169], vec![]]
/// );
/// ```
pub fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>> {
    guard::answer_used(
        Exercise::ByteInitialize,
        "bpe_lab::lab::bytes::byte_initialize",
    );
    chunks
        .iter()
        .map(|chunk| chunk.bytes().map(u32::from).collect())
        .collect()
}

/// How often each pair of neighbouring ids occurs, counted inside each chunk and never from
/// the end of one chunk to the start of the next: the split decides which pairs can exist.
///
/// ```
/// let counts = bpe_lab::lab::bytes::count_pairs_in_chunks(&[vec![1, 1, 1], vec![2], vec![1, 2]]);
/// assert_eq!(counts[&(1, 1)], 2);
/// assert_eq!(counts[&(1, 2)], 1);
/// assert_eq!(counts.len(), 2);
/// ```
pub fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> HashMap<(u32, u32), usize> {
    guard::answer_used(
        Exercise::CountPairsInChunks,
        "bpe_lab::lab::bytes::count_pairs_in_chunks",
    );
    let mut counts = HashMap::new();
    for chunk in chunks {
        for i in 1..chunk.len() {
            *counts.entry((chunk[i - 1], chunk[i])).or_insert(0) += 1;
        }
    }
    counts
}
