//! Notebook 02's exercise, `get_pair_frequencies`: its check (cases, comparison, hint) and its
//! row of the table; its call is `get_pair_frequencies/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{chars, show_corpus, show_counts, strings};
use crate::EOW;
use crate::bpe::oracle;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::GetPairFrequencies,
    signature: "fn get_pair_frequencies(corpus: &[Vec<String>]) -> HashMap<(String, String), usize>",
    reference: Reference::Root,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `get_pair_frequencies(corpus) -> counts`: every adjacent pair in every word,
/// overlapping ones too.
pub fn get_pair_frequencies<F>(student: F) -> Check
where
    F: Fn(&[Vec<String>]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<Vec<Vec<String>>, call::Args, call::Out> {
    let mut cases: Vec<Vec<Vec<String>>> = vec![
        vec![chars("rice")],
        vec![strings(&["a", "a", "a"])],
        vec![
            strings(&["T", "h", "e", EOW]),
            strings(&["t", "h", "e", EOW]),
        ],
        vec![strings(&[EOW]), vec![]],
        vec![],
        vec![strings(&["ab", "c"]), strings(&["a", "bc"])],
    ];
    cases.extend(generated(GENERATED, 2, cases::corpus));
    Spec {
        exercise: Exercise::GetPairFrequencies,
        hint: "For each word, look at every position i from 0 to len - 2 and count \
                   (word[i], word[i + 1]). Pairs overlap: [\"a\", \"a\", \"a\"] holds (a, a) \
                   twice. A word with fewer than two symbols has no pairs, and a word with none \
                   at all, [], must not panic: len() is a usize, so `word.len() - 1` cannot \
                   go below zero and panics instead; `word.windows(2)` has no such trap. \
                   `*counts.entry(pair).or_insert(0) += 1` does the counting.",
        cases,
        args: Clone::clone,
        reference: |c: &Vec<Vec<String>>| oracle::get_pair_frequencies(c),
        show_input: |c| show_corpus(c),
        show_output: show_counts,
    }
}
