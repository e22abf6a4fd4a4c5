//! Notebook 04's exercise, `train_bpe`: its check (cases, comparison, hint, both under the tie
//! rule in force) and its row of the table; its call is `train_bpe/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{chars, show_corpus, show_pairs, strings};
use crate::TieBreak;
use crate::bpe::oracle;
use crate::lab::parity;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::TrainBpe,
    signature: "fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::NoStep,
};

/// Checks `train_bpe(&mut corpus, num_merges) -> merges`: the merges in order and
/// the corpus left behind.
pub fn train_bpe<F>(student: F) -> Check
where
    F: Fn(&mut Vec<Vec<String>>, usize) -> Vec<(String, String)> + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

/// The reference `train_bpe` under the tie rule a check runs with.
type TrainBpeReference = fn(&(Vec<Vec<String>>, usize)) -> call::Out;

fn spec() -> Spec<(Vec<Vec<String>>, usize), call::Args, call::Out> {
    let mut cases: Vec<(Vec<Vec<String>>, usize)> = vec![
        (vec![strings(&["a", "b", "c", "a", "b"])], 3),
        (vec![strings(&["b", "a"]), strings(&["a", "b"])], 1),
        (vec![chars("lower"), chars("low")], 2),
        (vec![strings(&["a"]), vec![]], 5),
        (crate::bpe_initialize(&parity::LAB_SAMPLE_TEXT).0, 10),
    ];
    cases.extend(generated(GENERATED, 5, |rng| {
        (cases::corpus(rng), rng.below(8))
    }));
    // The lab-parity switch decides the tie rule; read once, so one check never mixes rules.
    let (hint, reference): (&'static str, TrainBpeReference) = match parity::tie_break() {
        TieBreak::Lexicographic => (
            "Repeat num_merges times: count the pairs of the current corpus with \
                 `bpe_lab::lab::reference::get_pair_frequencies(corpus)`; stop early if there \
                 are none; take the highest count and, among equal counts, the smallest pair \
                 (03's rule: `bpe_lab::lab::reference::most_frequent_pair(&counts)` does it, or \
                 compare yourself); replace every word by \
                 `bpe_lab::lab::reference::merge_pair_in_word(word, &best)`; push best onto the \
                 merges. The corpus you were given must end up merged too.",
            |(c, n)| {
                let mut corpus = c.clone();
                let merges = oracle::train_bpe_naive(&mut corpus, *n, TieBreak::Lexicographic);
                (merges, corpus)
            },
        ),
        TieBreak::FirstSeen => (
            "Your course uses the Python lab's tie rule (`BPE_LAB_TIE_BREAK=first-seen`): \
                 among equal counts, the pair that occurs first wins, reading the corpus word by \
                 word, left to right, as the lab's Counter does. A HashMap forgets that order, \
                 so find the highest count with \
                 `bpe_lab::lab::reference::get_pair_frequencies(corpus)`, then walk the corpus \
                 and take the first adjacent pair that has it. Merge it in every word with \
                 `bpe_lab::lab::reference::merge_pair_in_word`, push it, repeat num_merges \
                 times, and stop early when no pair is left.",
            |(c, n)| {
                let mut corpus = c.clone();
                let merges = oracle::train_bpe_naive(&mut corpus, *n, TieBreak::FirstSeen);
                (merges, corpus)
            },
        ),
    };
    Spec {
        exercise: Exercise::TrainBpe,
        hint,
        cases,
        args: Clone::clone,
        reference,
        show_input: |(c, n)| format!("corpus = {}, num_merges = {n}", show_corpus(c)),
        show_output: |(merges, corpus)| {
            format!(
                "merges = {}\ncorpus after = {}",
                show_pairs(merges),
                show_corpus(corpus)
            )
        },
    }
}
