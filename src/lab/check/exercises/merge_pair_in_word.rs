//! Notebook 03's second exercise, `merge_pair_in_word`: its check (cases, comparison, hint) and
//! its row of the table; its call is `merge_pair_in_word/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{pair, show_list, strings};
use crate::EOW;
use crate::bpe::oracle;
use crate::lab::display::python_pair;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::MergePairInWord,
    signature: "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String>",
    reference: Reference::Root,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `merge_pair_in_word(word, pair) -> word`: one left-to-right pass, merging each
/// non-overlapping occurrence of the pair.
pub fn merge_pair_in_word<F>(student: F) -> Check
where
    F: Fn(&[String], &(String, String)) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<(Vec<String>, (String, String)), call::Args, call::Out> {
    let mut cases: Vec<(Vec<String>, (String, String))> = vec![
        (strings(&["T", "h", "e", EOW]), pair("e", EOW)),
        (strings(&["a", "a", "a"]), pair("a", "a")),
        (strings(&["a", "a", "a", "a"]), pair("a", "a")),
        (strings(&["a", "b", "a", "b"]), pair("a", "b")),
        (strings(&["ab", "c"]), pair("a", "bc")),
        (strings(&["d", "e", "s"]), pair("x", "y")),
        (vec![], pair("a", "b")),
    ];
    cases.extend(generated(GENERATED, 4, cases::word_and_pair));
    Spec {
        exercise: Exercise::MergePairInWord,
        hint: "Walk i from 0 with a while loop. If i + 1 < len and (word[i], word[i + 1]) \
                   equals the pair, push the two joined and move i on by 2; otherwise push \
                   word[i] and move on by 1. So [\"a\", \"a\", \"a\"] with (a, a) becomes \
                   [\"aa\", \"a\"]. Compare symbols, never search the joined string: \
                   [\"ab\", \"c\"] has no pair (a, bc).",
        cases,
        args: Clone::clone,
        reference: |(w, p): &(Vec<String>, (String, String))| oracle::merge_pair_in_word(w, p),
        show_input: |(w, p)| format!("word = {}, pair = {}", show_list(w), python_pair(p)),
        show_output: |w| show_list(w),
    }
}
