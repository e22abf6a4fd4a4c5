//! How each exercise's function is called: what it is given (`…Args`), what a check compares
//! (`…Out`), and the one call in between. Plain `std` Rust: the notebook's checks call the
//! student's function through these in the kernel, and the grader compiles this same file into
//! the student's worker, so both ways of grading call it identically.

use std::collections::{BTreeSet, HashMap};

pub type Pair = (String, String);

pub type BpeInitializeArgs = Vec<String>;
pub type BpeInitializeOut = (Vec<Vec<String>>, BTreeSet<String>);
pub fn bpe_initialize(
    f: &impl Fn(&[String]) -> BpeInitializeOut,
    dataset: &BpeInitializeArgs,
) -> BpeInitializeOut {
    f(dataset)
}

pub type GetPairFrequenciesArgs = Vec<Vec<String>>;
pub type GetPairFrequenciesOut = HashMap<Pair, usize>;
pub fn get_pair_frequencies(
    f: &impl Fn(&[Vec<String>]) -> GetPairFrequenciesOut,
    corpus: &GetPairFrequenciesArgs,
) -> GetPairFrequenciesOut {
    f(corpus)
}

pub type MostFrequentPairArgs = HashMap<Pair, usize>;
pub type MostFrequentPairOut = Option<(Pair, usize)>;
pub fn most_frequent_pair(
    f: &impl Fn(&HashMap<Pair, usize>) -> MostFrequentPairOut,
    counts: &MostFrequentPairArgs,
) -> MostFrequentPairOut {
    f(counts)
}

pub type MergePairInWordArgs = (Vec<String>, Pair);
pub type MergePairInWordOut = Vec<String>;
pub fn merge_pair_in_word(
    f: &impl Fn(&[String], &Pair) -> MergePairInWordOut,
    (word, pair): &MergePairInWordArgs,
) -> MergePairInWordOut {
    f(word, pair)
}

pub type TrainBpeArgs = (Vec<Vec<String>>, usize);
/// The merges, and the corpus as the function left it.
pub type TrainBpeOut = (Vec<Pair>, Vec<Vec<String>>);
#[allow(clippy::ptr_arg)] // the exercise's signature takes `&mut Vec`
pub fn train_bpe(
    f: &impl Fn(&mut Vec<Vec<String>>, usize) -> Vec<Pair>,
    (corpus, num_merges): &TrainBpeArgs,
) -> TrainBpeOut {
    let mut corpus = corpus.clone();
    let merges = f(&mut corpus, *num_merges);
    (merges, corpus)
}

pub type ApplyMergesArgs = (Vec<String>, Vec<Pair>);
pub type ApplyMergesOut = Vec<String>;
pub fn apply_merges(
    f: &impl Fn(&[String], &[Pair]) -> ApplyMergesOut,
    (tokens, merges): &ApplyMergesArgs,
) -> ApplyMergesOut {
    f(tokens, merges)
}

/// (text, merges, token_to_id, unk_id)
pub type EncodeArgs = (String, Vec<Pair>, HashMap<String, u32>, u32);
pub type EncodeOut = Vec<u32>;
pub fn encode(
    f: &impl Fn(&str, &[Pair], &HashMap<String, u32>, u32) -> EncodeOut,
    (text, merges, token_to_id, unk_id): &EncodeArgs,
) -> EncodeOut {
    f(text, merges, token_to_id, *unk_id)
}

/// (ids, id_to_token)
pub type DecodeArgs = (Vec<u32>, HashMap<u32, String>);
pub type DecodeOut = String;
pub fn decode(
    f: &impl Fn(&[u32], &HashMap<u32, String>) -> DecodeOut,
    (ids, id_to_token): &DecodeArgs,
) -> DecodeOut {
    f(ids, id_to_token)
}

/// Notebook 07: the chunks of a text, each as its UTF-8 bytes (ids 0–255).
pub type ByteInitializeArgs = Vec<String>;
pub type ByteInitializeOut = Vec<Vec<u32>>;
pub fn byte_initialize(
    f: &impl Fn(&[String]) -> ByteInitializeOut,
    chunks: &ByteInitializeArgs,
) -> ByteInitializeOut {
    f(chunks)
}

/// Notebook 07: pair counts of token ids, inside each chunk only, in the order first counted.
pub type CountPairsInChunksArgs = Vec<Vec<u32>>;
pub type CountPairsInChunksOut = Vec<((u32, u32), usize)>;
pub fn count_pairs_in_chunks(
    f: &impl Fn(&[Vec<u32>]) -> CountPairsInChunksOut,
    chunks: &CountPairsInChunksArgs,
) -> CountPairsInChunksOut {
    f(chunks)
}

/// A merge of notebook 07: the pair of ids and the new id it gets.
pub type IdMerge = ((u32, u32), u32);

/// Notebook 07: (ids, pair, new_id).
pub type MergeIdsArgs = (Vec<u32>, (u32, u32), u32);
pub type MergeIdsOut = Vec<u32>;
pub fn merge_ids(
    f: &impl Fn(&[u32], (u32, u32), u32) -> MergeIdsOut,
    (ids, pair, new_id): &MergeIdsArgs,
) -> MergeIdsOut {
    f(ids, *pair, *new_id)
}

/// Notebook 07: (chunks, num_merges).
pub type TrainByteBpeArgs = (Vec<String>, usize);
pub type TrainByteBpeOut = Vec<IdMerge>;
pub fn train_byte_bpe(
    f: &impl Fn(&[String], usize) -> TrainByteBpeOut,
    (chunks, num_merges): &TrainByteBpeArgs,
) -> TrainByteBpeOut {
    f(chunks, *num_merges)
}

/// Notebook 07: (chunks, merges).
pub type EncodeIdsArgs = (Vec<String>, Vec<IdMerge>);
pub type EncodeIdsOut = Vec<u32>;
pub fn encode_ids(
    f: &impl Fn(&[String], &[IdMerge]) -> EncodeIdsOut,
    (chunks, merges): &EncodeIdsArgs,
) -> EncodeIdsOut {
    f(chunks, merges)
}

/// Notebook 07: (ids, merges).
pub type DecodeIdsArgs = (Vec<u32>, Vec<IdMerge>);
pub type DecodeIdsOut = String;
pub fn decode_ids(
    f: &impl Fn(&[u32], &[IdMerge]) -> DecodeIdsOut,
    (ids, merges): &DecodeIdsArgs,
) -> DecodeIdsOut {
    f(ids, merges)
}

/// Notebook 07: a rank file's tokens and ranks.
pub type RecoverMergesArgs = HashMap<Vec<u8>, u32>;
pub type RecoverMergesOut = Vec<IdMerge>;
pub fn recover_merges(
    f: &impl Fn(&HashMap<Vec<u8>, u32>) -> RecoverMergesOut,
    ranks: &RecoverMergesArgs,
) -> RecoverMergesOut {
    f(ranks)
}
