//! Notebook 05's exercise, `apply_merges`: its check (cases, comparison, hint) and its row of
//! the table; its call is `apply_merges/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{chars, pair, show_list, show_pairs, strings};
use crate::EOW;
use crate::bpe::oracle;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::ApplyMerges,
    signature: "fn apply_merges(tokens: &[String], merges: &[(String, String)]) -> Vec<String>",
    reference: Reference::Root,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `apply_merges(tokens, merges) -> tokens`: repeatedly merge the leftmost
/// occurrence of the adjacent pair with the lowest rank.
pub fn apply_merges<F>(student: F) -> Check
where
    F: Fn(&[String], &[(String, String)]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

/// An `apply_merges` case: the tokens, then the merges in rank order.
type ApplyMergesCase = (Vec<String>, Vec<(String, String)>);

fn spec() -> Spec<ApplyMergesCase, call::Args, call::Out> {
    let p = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(a, b)| pair(a, b)).collect()
    };
    let mut cases: Vec<ApplyMergesCase> = vec![
        // The apply-merges examples the course starts from, then cases where list order and
        // rank order disagree.
        (chars("low"), p(&[("l", "o"), ("lo", "w")])),
        (chars("low"), p(&[("l", "o"), ("o", "w")])),
        (strings(&["e", "r", EOW]), p(&[("e", "r"), ("er", EOW)])),
        (chars("abc"), p(&[("ab", "c"), ("a", "b")])),
        (
            chars("lower"),
            p(&[("l", "o"), ("lo", "w"), ("e", "r"), ("low", "er")]),
        ),
        (chars("abc"), p(&[("b", "c"), ("a", "b")])),
        (chars("abcd"), p(&[("c", "d"), ("b", "cd"), ("a", "b")])),
        (chars("aaaa"), p(&[("a", "a")])),
        (chars("abab"), p(&[("b", "a"), ("a", "b")])),
        (chars("xyz"), vec![]),
        (vec![], p(&[("a", "b")])),
    ];
    cases.extend(generated(GENERATED, 6, cases::tokens_and_merges));
    Spec {
        exercise: Exercise::ApplyMerges,
        hint: "A merge's rank is its index in the list (the first one if a pair is listed \
                   twice). Loop: among the adjacent pairs of the current tokens, find the one \
                   with the lowest rank; if none has a rank, stop; merge only its leftmost \
                   occurrence, then look again. Going down the merge list in order and merging \
                   everywhere gives a different answer when a later merge's pair appears first.",
        cases,
        args: Clone::clone,
        reference: |(t, m): &(Vec<String>, Vec<(String, String)>)| oracle::apply_merges_naive(t, m),
        show_input: |(t, m)| format!("tokens = {}, merges = {}", show_list(t), show_pairs(m)),
        show_output: |t| show_list(t),
    }
}
