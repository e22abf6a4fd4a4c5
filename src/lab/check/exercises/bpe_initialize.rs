//! Notebook 01's exercise, `bpe_initialize`: its check (cases, comparison, hint) and its row of
//! the table; its call is `bpe_initialize/call.rs`.

mod call;

use super::super::cases;
use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::char_level::{show_corpus, show_list, strings, texts};
use crate::lab::display::python_str;
use crate::lab::parity;
use std::collections::BTreeSet;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::BpeInitialize,
    signature: "fn bpe_initialize(dataset: &[String]) -> (Vec<Vec<String>>, BTreeSet<String>)",
    reference: Reference::Root,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

fn show_set(set: &BTreeSet<String>) -> String {
    let shown: Vec<String> = set.iter().map(|s| python_str(s)).collect();
    format!("{{{}}}", shown.join(", "))
}

/// The lab's datasets: the first words of Africa Galore's first paragraph, the lab's `desert`
/// sample, the four-document corpus ("This is the first document.", …) of the tokenizer
/// notebook, and the edge cases of `split(" ")`.
fn fixed_datasets() -> Vec<Vec<String>> {
    vec![
        strings(&["The Lagos air was thick with humidity, but the energy"]),
        strings(&parity::LAB_SAMPLE_TEXT),
        strings(&super::char_level::TOKENIZER_CORPUS),
        strings(&["a  b"]),
        strings(&[""]),
        strings(&[]),
        strings(&[" leading", "trailing "]),
        strings(&["café naïve 日本 🙂"]),
    ]
}

/// Checks `bpe_initialize(dataset) -> (corpus, vocabulary)`: every `split(" ")` word as its
/// characters plus `"</w>"`, and the set of all symbols (with `"</w>"`).
pub fn bpe_initialize<F>(student: F) -> Check
where
    F: Fn(&[String]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<Vec<Text>, call::Args, call::Out> {
    let cases = fixed_datasets()
        .into_iter()
        .map(texts)
        .chain(generated(GENERATED, 1, cases::texts))
        .collect();
    Spec {
        exercise: Exercise::BpeInitialize,
        hint: "Cut each paragraph with `paragraph.split(' ')`: two spaces in a row give an \
                   empty word, and that word counts too (it becomes just [\"</w>\"]). Turn each \
                   word into its characters with `word.chars().map(|c| c.to_string())`, push \
                   EOW, and put every symbol into the vocabulary, which starts out holding EOW.",
        cases,
        args: |d: &Vec<Text>| plain(d),
        reference: |d: &Vec<Text>| crate::bpe_initialize(&plain(d)),
        show_input: |d| show_list(&plain(d)),
        show_output: |(corpus, vocab)| {
            format!(
                "corpus = {}\nvocabulary = {}",
                show_corpus(corpus),
                show_set(vocab)
            )
        },
    }
}
