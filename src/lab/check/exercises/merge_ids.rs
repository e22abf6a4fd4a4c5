//! Notebook 07's third exercise, `merge_ids`: its check and its row of the table; its call is
//! `merge_ids/call.rs`. Fixed cases aim at overlapping pairs (`[5, 5, 5]` merges once), a pair
//! at the very end, ids above 255 (tokens merges made); generated ones follow.

mod call;

use super::super::cases::Rng;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use crate::lab::bytes;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 200;

pub(super) const ROW: Row = Row {
    exercise: Exercise::MergeIds,
    signature: "fn merge_ids(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `merge_ids(ids, pair, new_id) -> ids`: one left-to-right pass, each occurrence of
/// `pair` replaced by `new_id`, an id never used in two merges.
pub fn merge_ids<F>(student: F) -> Check
where
    F: Fn(&[u32], (u32, u32), u32) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

type MergeIdsCase = (Vec<u32>, (u32, u32), u32);

fn ids_and_pair(rng: &mut Rng) -> MergeIdsCase {
    const IDS: [u32; 5] = [97, 98, 32, 256, 300];
    let alphabet = 2 + rng.below(4);
    let ids: Vec<u32> = (0..rng.below(9))
        .map(|_| IDS[rng.below(alphabet)])
        .collect();
    let pair = if ids.len() >= 2 && rng.chance(80) {
        let i = rng.below(ids.len() - 1);
        (ids[i], ids[i + 1])
    } else {
        (IDS[rng.below(alphabet)], IDS[rng.below(alphabet)])
    };
    (ids, pair, 256 + rng.below(600) as u32)
}

fn spec() -> Spec<MergeIdsCase, call::Args, call::Out> {
    let mut cases: Vec<MergeIdsCase> = vec![
        (vec![5, 6, 5, 6, 7], (5, 6), 256),
        // Overlap: the middle 5 can belong to only one merge.
        (vec![5, 5, 5], (5, 5), 256),
        (vec![5, 5, 5, 5], (5, 5), 300),
        (vec![7, 5, 6], (5, 6), 256),
        (vec![5], (5, 6), 256),
        (vec![6, 5], (5, 6), 256),
        (vec![], (5, 6), 256),
        (vec![256, 97, 256, 97], (256, 97), 257),
    ];
    cases.extend(generated(GENERATED, 31, ids_and_pair));
    Spec {
        exercise: Exercise::MergeIds,
        hint: "Walk through ids with an index i, building a new list. Where ids[i] and \
               ids[i + 1] are the pair, push new_id and move i on by two; otherwise push ids[i] \
               and move on by one. Moving by two is what keeps an id from being merged twice: \
               [5, 5, 5] with (5, 5) gives [new_id, 5]. Check that i + 1 is still inside the \
               list before you look at it.",
        cases,
        args: Clone::clone,
        reference: |(ids, pair, new_id)| bytes::merge_ids(ids, *pair, *new_id),
        show_input: |(ids, (a, b), new_id)| {
            format!("ids = {ids:?}\npair = ({a}, {b})\nnew_id = {new_id}")
        },
        show_output: |ids| format!("{ids:?}"),
    }
}
