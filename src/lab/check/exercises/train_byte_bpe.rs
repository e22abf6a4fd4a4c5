//! Notebook 07's fourth exercise, `train_byte_bpe`: its check and its row of the table; its
//! call is `train_byte_bpe/call.rs`. Fixed cases aim at the usual mistakes: the first new id is
//! 256, not 0; pairs never cross two chunks; among equal counts the pair counted first wins; a
//! run that runs out of pairs stops early. Generated ones follow.

mod call;

use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::byte_level::{short_chunks, show_merges, show_texts, texts};
use crate::lab::bytes;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 200;

pub(super) const ROW: Row = Row {
    exercise: Exercise::TrainByteBpe,
    signature: "fn train_byte_bpe(chunks: &[String], num_merges: usize) -> Vec<((u32, u32), u32)>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `train_byte_bpe(chunks, num_merges) -> merges`: minbpe's loop, new ids from 256,
/// pairs counted inside chunks only, ties to the pair counted first.
pub fn train_byte_bpe<F>(student: F) -> Check
where
    F: Fn(&[String], usize) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

type TrainCase = (Vec<Text>, usize);

fn spec() -> Spec<TrainCase, call::Args, call::Out> {
    let mut cases: Vec<TrainCase> = vec![
        (texts(&["aaab", " aab"]), 2),
        // A tie: (a, b) and (c, d) occur once each; (a, b) is counted first.
        (texts(&["ab", "cd"]), 1),
        (texts(&["cd", "ab"]), 1),
        // Across the two chunks "ab" | "ab", (b, a) would be a pair: it is not.
        (texts(&["ab", "ab", "ba"]), 2),
        (texts(&["Yorùbá", " Yorùbá", " Ẹ̀kọ́"]), 4),
        // Only three merges are possible: the loop must stop, not invent more.
        (texts(&["abcd"]), 10),
        (texts(&["aaaa"]), 3),
        (texts(&[]), 3),
    ];
    cases.extend(generated(GENERATED, 32, |rng| {
        (short_chunks(rng), rng.below(8))
    }));
    Spec {
        exercise: Exercise::TrainByteBpe,
        hint: "Start from each chunk's bytes (your byte_initialize). Then, once per merge: \
               count the pairs inside each chunk only, remembering the order in which pairs \
               were first counted; take the most frequent, and among equal counts the one \
               counted first (a HashMap forgets that order, so keep it yourself, for example in \
               a Vec); give it the id 256 + the number of merges made so far (the first merge \
               is 256: 0–255 are the bytes); replace it in every chunk with your merge_ids. \
               Stop early when no chunk has a pair left.",
        cases,
        args: |(chunks, n)| (plain(chunks), *n),
        reference: |(chunks, n)| bytes::train_byte_bpe(&plain(chunks), *n),
        show_input: |(chunks, n)| format!("chunks = {}\nnum_merges = {n}", show_texts(chunks)),
        show_output: |merges| show_merges(merges),
    }
}
