//! Notebook 06's first exercise, `encode`: its check (comparison, hint; the cases it shares
//! with `decode` are `char_level::encode_cases`) and its row of the table; its call is
//! `encode/call.rs`.

mod call;

use super::super::helpers::{plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{EncodeCase, TinyTokenizer, encode_cases, show_pairs};
use crate::lab::display::python_str;
use std::collections::HashMap;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::Encode,
    signature: "fn encode(text: &str, merges: &[(String, String)], token_to_id: &HashMap<String, u32>, unk_id: u32) -> Vec<u32>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::NoStep,
};

/// Checks `encode(text, merges, token_to_id, unk_id) -> ids`: each `split(" ")` word as its
/// characters plus `"</w>"`, merged with `apply_merges`, each token's id, `unk_id` for a token
/// not in the vocabulary.
pub fn encode<F>(student: F) -> Check
where
    F: Fn(&str, &[(String, String)], &HashMap<String, u32>, u32) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<EncodeCase, call::Args, call::Out> {
    Spec {
        exercise: Exercise::Encode,
        hint: "For each word of text.split(' '): make its symbols (characters, then EOW), \
                   merge them with your apply_merges (or `bpe_lab::lab::reference::apply_merges`), then look each \
                   token up in token_to_id — `.get(&token).copied().unwrap_or(unk_id)` keeps an \
                   unknown character as one <UNK> instead of dropping it.",
        cases: encode_cases(GENERATED, 7),
        args: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            (text.0.clone(), t.merges, t.token_to_id, t.unk_id)
        },
        reference: |(training, n, text): &EncodeCase| {
            TinyTokenizer::train(&plain(training), *n).encode(&text.0)
        },
        show_input: |(training, n, text)| {
            let t = TinyTokenizer::train(&plain(training), *n);
            format!(
                "text = {}\nmerges = {}\nvocabulary = {}\nunk_id = {}",
                python_str(&text.0),
                show_pairs(&t.merges),
                t.show(),
                t.unk_id
            )
        },
        show_output: |ids| format!("{ids:?}"),
    }
}
