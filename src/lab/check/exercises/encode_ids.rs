//! Notebook 07's fifth exercise, `encode_ids`: its check and its row of the table; its call is
//! `encode_ids/call.rs`. Fixed cases aim at the usual mistakes: merges applied by rank (the
//! lowest new id first), not by how often a pair occurs in the text; never across two chunks;
//! the chunk scanned again after each merge, so that a pair made by a merge (`(256, 256)` after
//! `aaaa` → `[256, 256]`) merges too. Generated ones follow.

mod call;

use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::byte_level::{short_chunks, show_merges, show_texts, texts};
use crate::bpe::steps;
use crate::lab::bytes;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 200;

pub(super) const ROW: Row = Row {
    exercise: Exercise::EncodeIds,
    signature: "fn encode_ids(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `encode_ids(chunks, merges) -> ids`: minbpe's encoder on chunks, each chunk's bytes
/// merged by rank (lowest new id first, everywhere in the chunk, then scanned again), never
/// across two chunks.
pub fn encode_ids<F>(student: F) -> Check
where
    F: Fn(&[String], &[call::IdMerge]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

/// (training chunks, merges to learn, chunks to encode).
type EncodeCase = ((Vec<Text>, usize), Vec<Text>);

fn encode_args(((training, n), text): &EncodeCase) -> call::Args {
    (plain(text), steps::train_byte_bpe(&plain(training), *n))
}

fn spec() -> Spec<EncodeCase, call::Args, call::Out> {
    let case = |training: &[&str], n: usize, text: &[&str]| ((texts(training), n), texts(text));
    let mut cases: Vec<EncodeCase> = vec![
        case(&["hi hi"], 2, &["hi", "!"]),
        // (98, 99) is 256 and (97, 98) is 257: in "abcab" the lower rank goes first, though
        // (97, 98) occurs twice. By count: [257, 99, 257]; by rank: [97, 256, 257].
        case(&["bc", "bc", "ab"], 2, &["abcab"]),
        // After (97, 97) → 256, "aaaa" is [256, 256], and (256, 256) is merge 257: only a
        // second look at the chunk finds it.
        case(&["aaaa", "aaaa"], 2, &["aaaa"]),
        // "a" and "b" are two chunks: (97, 98) is a merge, but not across them.
        case(&["ab"], 1, &["a", "b"]),
        case(
            &[" Yorùbá", " Yorùbá"],
            6,
            &[" Yorùbá", " Yoru\u{300}ba\u{301}"],
        ),
        case(&["🙂🙂"], 3, &["🙂", "🙂🙂"]),
        case(&[], 0, &["é"]),
        case(&["ab"], 1, &[]),
    ];
    cases.extend(generated(GENERATED, 35, |rng| {
        ((short_chunks(rng), rng.below(8)), short_chunks(rng))
    }));
    Spec {
        exercise: Exercise::EncodeIds,
        hint: "Encode each chunk on its own (never join the chunks' ids before merging): start \
               from its bytes (your byte_initialize). Then repeat: look at every pair of \
               neighbours in the chunk; among those that are merges, take the one whose new id \
               is lowest (the new id is its rank: it was learned first), not the one that \
               occurs most often; replace it everywhere in the chunk with your merge_ids; and \
               look at the chunk again from the start, since the merge may have made a new \
               pair that is a merge too. Stop when no pair of neighbours is a merge. A HashMap \
               from pair to new id, built once from merges, makes the lookups quick. Then \
               append the chunk's ids to the result.",
        cases,
        args: encode_args,
        reference: |case| {
            let (chunks, merges) = encode_args(case);
            bytes::encode_ids(&chunks, &merges)
        },
        show_input: |case| {
            let (chunks, merges) = encode_args(case);
            format!(
                "chunks = {}\nmerges = {}",
                show_texts(&texts_of(&chunks)),
                show_merges(&merges)
            )
        },
        show_output: |ids| format!("{ids:?}"),
    }
}

fn texts_of(items: &[String]) -> Vec<Text> {
    items.iter().map(|s| Text(s.clone())).collect()
}
