//! Notebook 06's second exercise, `decode`: its check (comparison, hint; the cases it shares
//! with `encode` are `char_level::encode_cases`) and its row of the table; its call is
//! `decode/call.rs`.

mod call;

use super::super::helpers::{plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::{Check, Exercise};
use super::char_level::{EncodeCase, TinyTokenizer, encode_cases};
use crate::lab::display::python_str;
use std::collections::HashMap;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::Decode,
    signature: "fn decode(ids: &[u32], id_to_token: &HashMap<u32, String>) -> String",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::NoStep,
};

/// Checks `decode(ids, id_to_token) -> text`: tokens one after another, each `"</w>"` a space,
/// no space after the last word.
pub fn decode<F>(student: F) -> Check
where
    F: Fn(&[u32], &HashMap<u32, String>) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<EncodeCase, call::Args, call::Out> {
    Spec {
        exercise: Exercise::Decode,
        hint: "Look each id up in id_to_token and join the tokens. A token ending in EOW \
                   ends a word: write it without the marker and put a space before the next \
                   token. Nothing follows the last word, so \"a</w>\" \"b</w>\" decodes to \
                   \"a b\", and a lone \"</w>\" (the word a double space leaves) still makes a \
                   space.",
        cases: encode_cases(GENERATED, 8),
        args: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            (t.encode(&text.0), t.id_to_token)
        },
        reference: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            crate::lab::reference::decode(&t.encode(&text.0), &t.id_to_token)
        },
        show_input: |(training, n, text)| {
            let t = TinyTokenizer::train(&plain(training), *n);
            format!("ids = {:?}\nid_to_token = {}", t.encode(&text.0), t.show())
        },
        show_output: |text| python_str(text),
    }
}
