//! Notebook 03's first exercise, `most_frequent_pair`: its check (cases, comparison, hint) and
//! its row of the table; its call is `most_frequent_pair/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{show_counts, strings};
use crate::TieBreak;
use crate::bpe::oracle::{self, best_pair};
use crate::lab::display::python_pair;
use std::collections::HashMap;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::MostFrequentPair,
    signature: "fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `most_frequent_pair(counts) -> Option<(pair, count)>`: the highest count; among
/// equal counts the smallest pair (the lab's tie rule); `None` for an empty map.
pub fn most_frequent_pair<F>(student: F) -> Check
where
    F: Fn(&HashMap<(String, String), usize>) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<Vec<Vec<String>>, call::Args, call::Out> {
    let mut cases: Vec<Vec<Vec<String>>> = vec![
        vec![strings(&["a", "b", "c", "a", "b"])],
        vec![strings(&["b", "a"]), strings(&["a", "b"])],
        vec![
            strings(&["x", "y"]),
            strings(&["a", "b"]),
            strings(&["x", "y"]),
        ],
        vec![],
        vec![strings(&["B", "a"]), strings(&["a", "b"])],
    ];
    cases.extend(generated(GENERATED, 3, cases::corpus));
    Spec {
        exercise: Exercise::MostFrequentPair,
        hint: "Look at every (pair, count). Keep the best so far and replace it when the \
                   count is higher, or when the count is equal and the pair is smaller \
                   (`pair < best_pair` compares the first strings, then the second). A HashMap \
                   has no order you can rely on, which is why ties need this rule. Return None \
                   when the map is empty.",
        cases,
        args: |c: &Vec<Vec<String>>| oracle::get_pair_frequencies(c),
        reference: |c: &Vec<Vec<String>>| best_pair(c, TieBreak::Lexicographic),
        show_input: |c| show_counts(&oracle::get_pair_frequencies(c)),
        show_output: |best| match best {
            Some((p, count)) => format!("Some(({}, {count}))", python_pair(p)),
            None => "None".to_owned(),
        },
    }
}
