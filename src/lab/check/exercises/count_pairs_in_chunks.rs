//! Notebook 07's second exercise, `count_pairs_in_chunks`: its check (cases, comparison, hint)
//! and its row of the table; its call is `count_pairs_in_chunks/call.rs`.

mod call;

use super::super::cases::Rng;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::byte_level::show_ids;
use crate::lab::bytes;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::CountPairsInChunks,
    signature: "fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

fn id_chunks(rng: &mut Rng) -> Vec<Vec<u32>> {
    // Small alphabets make repeated and overlapping pairs likely; ids above 255 stand for
    // tokens that merges made.
    const IDS: [u32; 5] = [97, 98, 32, 256, 300];
    let alphabet = 2 + rng.below(4);
    (0..rng.below(6))
        .map(|_| {
            let len = rng.below(7);
            if rng.chance(15) {
                let id = IDS[rng.below(alphabet)];
                return vec![id; len];
            }
            (0..len).map(|_| IDS[rng.below(alphabet)]).collect()
        })
        .collect()
}

/// Pair counts in the order given: the order is part of the answer (unlike the
/// character-level `show_counts`, which sorts a map).
fn show_counts(counts: &[((u32, u32), usize)]) -> String {
    let shown: Vec<String> = counts
        .iter()
        .map(|((a, b), c)| format!("(({a}, {b}), {c})"))
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Checks `count_pairs_in_chunks(chunks) -> counts`: every adjacent pair inside each chunk,
/// overlapping ones too, none across two chunks, each once with its count, in the order first
/// counted.
pub fn count_pairs_in_chunks<F>(student: F) -> Check
where
    F: Fn(&[Vec<u32>]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<Vec<Vec<u32>>, call::Args, call::Out> {
    let mut cases: Vec<Vec<Vec<u32>>> = vec![
        // " the" " the": (101, 32) would only exist across the two chunks.
        vec![vec![32, 116, 104, 101], vec![32, 116, 104, 101]],
        vec![vec![97, 97, 97, 97]],
        vec![vec![97], vec![97]],
        vec![vec![], vec![256, 97], vec![256, 97, 256]],
        // First counted is first listed: (98, 97) before (97, 98), though it is the larger.
        vec![vec![98, 97], vec![97, 98], vec![98, 97]],
        vec![],
    ];
    cases.extend(generated(GENERATED, 22, id_chunks));
    Spec {
        exercise: Exercise::CountPairsInChunks,
        hint: "Count inside each chunk separately: for every chunk, look at each pair of \
                   neighbours (chunk[i], chunk[i + 1]). Never pair the last id of one chunk \
                   with the first id of the next: that is what the split is for. Overlapping \
                   pairs count: [97, 97, 97] holds (97, 97) twice. Each pair appears once in \
                   the list, with its count, at the place where it was first counted: when a \
                   pair is new, push ((a, b), 0) and remember its index in a HashMap; then add \
                   one to the count at that index. Empty and one-id chunks have no pairs.",
        cases,
        args: Clone::clone,
        reference: |c| bytes::count_pairs_in_chunks(c),
        show_input: |c| format!("chunks = {}", show_ids(c)),
        show_output: |c| show_counts(c),
    }
}
