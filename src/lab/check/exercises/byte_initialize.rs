//! Notebook 07's first exercise, `byte_initialize`: its check (cases, comparison, hint) and its
//! row of the table; its call is `byte_initialize/call.rs`.

mod call;

use super::super::cases::Rng;
use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::byte_level::{PIECES, show_ids, show_texts};
use crate::lab::bytes;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 300;

pub(super) const ROW: Row = Row {
    exercise: Exercise::ByteInitialize,
    signature: "fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

fn chunk(rng: &mut Rng) -> String {
    (0..rng.below(4)).map(|_| *rng.pick(&PIECES)).collect()
}

fn chunks(rng: &mut Rng) -> Vec<Text> {
    (0..rng.below(6)).map(|_| Text(chunk(rng))).collect()
}

/// Checks `byte_initialize(chunks) -> ids`: each chunk as its UTF-8 bytes, 0–255.
pub fn byte_initialize<F>(student: F) -> Check
where
    F: Fn(&[String]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

fn spec() -> Spec<Vec<Text>, call::Args, call::Out> {
    let fixed: [&[&str]; 6] = [
        &["Lagos", " is", " busy"],
        &["Yorùbá"],
        &["Yoru\u{300}ba\u{301}"],
        &["ኢትዮጵያ", " 🙂"],
        &["", "a"],
        &[],
    ];
    let cases = fixed
        .iter()
        .map(|c| c.iter().map(|s| Text(s.to_string())).collect())
        .chain(generated(GENERATED, 21, chunks))
        .collect();
    Spec {
        exercise: Exercise::ByteInitialize,
        hint: "Byte-level BPE starts from bytes, not characters: for each chunk, take the \
                   bytes of its UTF-8 encoding (`chunk.bytes()` or `chunk.as_bytes()`) and turn \
                   each into a u32 with `u32::from(b)`. One character can be several bytes: \
                   \"é\" is [195, 169], and an Ethiopic letter is three. An empty chunk gives \
                   an empty list, and there is one list per chunk, in order.",
        cases,
        args: |c| plain(c),
        reference: |c| bytes::byte_initialize(&plain(c)),
        show_input: |c| format!("chunks = {}", show_texts(c)),
        show_output: |ids| show_ids(ids),
    }
}
