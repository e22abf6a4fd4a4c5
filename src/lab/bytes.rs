//! The byte-level steps notebook 07 teaches, written literally: the answers its exercises are
//! checked against. The engine's byte-level trainer and encoder do the same work fast; these
//! stay as plain as the notebook's explanation so that a wrong answer is compared with
//! something a student can read. The steps themselves live in `bpe/steps.rs`, which the
//! grader also compiles into the workers of later exercises.

use crate::bpe::steps;
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
    steps::byte_initialize(chunks)
}

/// Every pair of neighbouring ids with how often it occurs, counted inside each chunk and
/// never from the end of one chunk to the start of the next (the split decides which pairs
/// can exist), in the order the pairs were first counted: reading the chunks in order, each
/// left to right. That order is what minbpe's tie rule reads: among equal counts, the pair
/// counted first wins.
///
/// ```
/// let counts = bpe_lab::lab::bytes::count_pairs_in_chunks(&[vec![1, 2], vec![1, 1, 1], vec![2]]);
/// assert_eq!(counts, [((1, 2), 1), ((1, 1), 2)]);
/// ```
pub fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    guard::answer_used(
        Exercise::CountPairsInChunks,
        "bpe_lab::lab::bytes::count_pairs_in_chunks",
    );
    steps::count_pairs_in_chunks(chunks)
}

/// `ids` with every occurrence of `pair` replaced by `new_id`, in one left-to-right pass that
/// never merges an id twice: `[5, 5, 5]` with `(5, 5)` gives `[new_id, 5]`.
///
/// ```
/// assert_eq!(bpe_lab::lab::bytes::merge_ids(&[5, 5, 5, 6], (5, 5), 256), [256, 5, 6]);
/// assert_eq!(bpe_lab::lab::bytes::merge_ids(&[5, 6, 5, 6], (5, 6), 300), [300, 300]);
/// ```
pub fn merge_ids(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    guard::answer_used(Exercise::MergeIds, "bpe_lab::lab::bytes::merge_ids");
    steps::merge_ids(ids, pair, new_id)
}

/// minbpe's training loop on chunks of text: `num_merges` rounds (fewer when no pair is
/// left) of counting the pairs inside every chunk, taking the most frequent (among equal
/// counts the pair counted first, reading the chunks in order), numbering it `256 + round`
/// and merging it everywhere. Returns each merged pair with its new id.
///
/// ```
/// let chunks = vec!["aaab".to_string(), " aab".to_string()];
/// let merges = bpe_lab::lab::bytes::train_byte_bpe(&chunks, 2);
/// // After "aa" → 256, four pairs occur once each: the first counted, (256, 97), wins.
/// assert_eq!(merges, [((97, 97), 256), ((256, 97), 257)]);
/// ```
pub fn train_byte_bpe(chunks: &[String], num_merges: usize) -> Vec<((u32, u32), u32)> {
    guard::answer_used(
        Exercise::TrainByteBpe,
        "bpe_lab::lab::bytes::train_byte_bpe",
    );
    steps::train_byte_bpe(chunks, num_merges)
}

/// minbpe's `encode` after the split: each chunk's UTF-8 bytes are its first ids; then, inside
/// the chunk only, as long as some neighbouring pair is one of `merges`, the pair with the
/// lowest new id (its rank) is merged everywhere in the chunk and the chunk is scanned again.
/// The chunks' ids are returned one after another.
///
/// ```
/// // "bc" is merge 256 and "ab" merge 257: in "abcab" the rank decides, not the count
/// // ("ab" occurs twice).
/// let merges = [((98, 99), 256), ((97, 98), 257)];
/// let chunks = vec!["abcab".to_string(), "ab".to_string()];
/// assert_eq!(bpe_lab::lab::bytes::encode_ids(&chunks, &merges), [97, 256, 257, 257]);
/// ```
pub fn encode_ids(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    guard::answer_used(Exercise::EncodeIds, "bpe_lab::lab::bytes::encode_ids");
    steps::encode_ids(chunks, merges)
}

/// The text of `ids` under `merges` (ids 0–255 are bytes, each merge's id the bytes of its
/// two parts): all the bytes first, then one reading as UTF-8, where a sequence that is not
/// UTF-8 becomes `�` (U+FFFD), as tiktoken's `decode` does.
///
/// ```
/// // "é" is the bytes 195, 169: split over two ids it still decodes, alone it cannot.
/// assert_eq!(bpe_lab::lab::bytes::decode_ids(&[195, 169], &[]), "é");
/// assert_eq!(bpe_lab::lab::bytes::decode_ids(&[195], &[]), "\u{FFFD}");
/// assert_eq!(bpe_lab::lab::bytes::decode_ids(&[256, 33], &[((104, 105), 256)]), "hi!");
/// ```
pub fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String {
    guard::answer_used(Exercise::DecodeIds, "bpe_lab::lab::bytes::decode_ids");
    steps::decode_ids(ids, merges)
}

/// The merges behind a rank file (tiktoken's `mergeable_ranks`: every token's bytes and its
/// rank), in rank order: for each token of two or more bytes, its bytes are split by
/// tiktoken's rule using only the tokens ranked below it (repeatedly join the neighbouring
/// parts whose joined bytes have the lowest rank, the leftmost among equals); the two parts
/// that are left are the pair whose merge made the token. A token that does not come out as
/// exactly two parts (no rank file made by BPE has one) gives no merge.
///
/// ```
/// use std::collections::HashMap;
/// // Single bytes need not rank as their values: here "b" is 0 and "a" is 1.
/// let ranks: HashMap<Vec<u8>, u32> =
///     [(b"b".to_vec(), 0), (b"a".to_vec(), 1), (b"ab".to_vec(), 2), (b"abb".to_vec(), 3)].into();
/// assert_eq!(bpe_lab::lab::bytes::recover_merges(&ranks), [((1, 0), 2), ((2, 0), 3)]);
/// ```
pub fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)> {
    guard::answer_used(
        Exercise::RecoverMerges,
        "bpe_lab::lab::bytes::recover_merges",
    );
    let mut tokens: Vec<(&Vec<u8>, u32)> = ranks
        .iter()
        .filter(|(bytes, _)| bytes.len() >= 2)
        .map(|(bytes, &rank)| (bytes, rank))
        .collect();
    tokens.sort_by_key(|&(_, rank)| rank);
    let mut merges = Vec::new();
    for (bytes, rank) in tokens {
        let below = |part: &[u8]| ranks.get(part).copied().filter(|&r| r < rank);
        let mut parts: Vec<Vec<u8>> = bytes.iter().map(|&b| vec![b]).collect();
        loop {
            let mut best: Option<(u32, usize)> = None;
            for i in 1..parts.len() {
                let joined = [parts[i - 1].as_slice(), &parts[i]].concat();
                if let Some(r) = below(&joined)
                    && best.is_none_or(|(b, _)| r < b)
                {
                    best = Some((r, i - 1));
                }
            }
            let Some((_, i)) = best else { break };
            let right = parts.remove(i + 1);
            parts[i].extend(right);
        }
        if let [left, right] = parts.as_slice()
            && let (Some(a), Some(b)) = (below(left), below(right))
        {
            merges.push(((a, b), rank));
        }
    }
    merges
}
