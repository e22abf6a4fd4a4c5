//! Notebook 07's seventh exercise, `recover_merges`: its check and its row of the table; its
//! call is `recover_merges/call.rs`. Fixed cases aim at the usual mistakes: single bytes whose
//! ranks are not their values (cl100k_base's are not); a token split only with tokens ranked
//! below it; the result in rank order. A wrong answer also shows the first merge whose part
//! does not rank below its token, the property the recipe rests on. Generated ones follow.

mod call;

use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::byte_level::{short_chunks, show_merges, texts};
use crate::bpe::steps;
use crate::lab::bytes;
use std::collections::HashMap;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 200;

pub(super) const ROW: Row = Row {
    exercise: Exercise::RecoverMerges,
    signature: "fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)>",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::NoStep,
};

/// Checks `recover_merges(ranks) -> merges`: the pair behind every token of two or more bytes,
/// found with the tokens ranked below it, in rank order.
pub fn recover_merges<F>(student: F) -> Check
where
    F: Fn(&HashMap<Vec<u8>, u32>) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

/// (training chunks, merges to learn, how far the single bytes' ranks are rotated).
type RecoverCase = (Vec<Text>, usize, usize);

/// A rank file made from a training: byte `b` ranks `(b + rotation) % 256`, as cl100k_base
/// ranks its bytes in an order of its own; each new token's bytes rank 256, 257, … in the
/// order learned (a merge that rebuilds an existing token's bytes adds nothing).
fn rank_file((training, n, rotation): &RecoverCase) -> HashMap<Vec<u8>, u32> {
    let merges = steps::train_byte_bpe(&plain(training), *n);
    let bytes_of = steps::id_bytes(&merges);
    let mut ranks: HashMap<Vec<u8>, u32> = (0..=255u8)
        .map(|b| (vec![b], ((usize::from(b) + rotation) % 256) as u32))
        .collect();
    for (_, id) in merges {
        let next = ranks.len() as u32;
        ranks.entry(bytes_of[&id].clone()).or_insert(next);
    }
    ranks
}

/// Bytes as Python writes them: `b'ab'`, `b'\xc3\xa9'`.
fn python_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("b'");
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b' '..=b'~' => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('\'');
    out
}

/// The rank file of a case: where bytes a and b rank, then every longer token, by rank.
fn show_ranks(ranks: &HashMap<Vec<u8>, u32>) -> String {
    let mut longer: Vec<(&Vec<u8>, &u32)> = ranks.iter().filter(|(b, _)| b.len() > 1).collect();
    longer.sort_by_key(|&(_, r)| *r);
    let mut shown: Vec<String> = Vec::new();
    for (bytes, rank) in longer {
        shown.push(format!("{}: {rank}", python_bytes(bytes)));
    }
    let rank_of = |b: u8| ranks.get(&vec![b]).copied().unwrap_or_default();
    format!(
        "ranks = the 256 single bytes (b'a': {}, b'b': {}, …, each byte b ranked (b + {}) % 256), then\n  {{{}}}",
        rank_of(b'a'),
        rank_of(b'b'),
        (256 + rank_of(0)) % 256,
        shown.join(", ")
    )
}

fn spec() -> Spec<RecoverCase, call::Args, call::Out> {
    let mut cases: Vec<RecoverCase> = vec![
        (texts(&["hug", " hug", " hugs"]), 4, 0),
        // Bytes ranked in an order of their own: "a" (97) ranks 0 here.
        (texts(&["aab", "aab"]), 2, 159),
        (texts(&["aaaa"]), 2, 3),
        (texts(&[" Yorùbá", " Yorùbá"]), 6, 7),
        (texts(&["abc", "abc", "bcd"]), 4, 0),
    ];
    cases.extend(generated(GENERATED, 34, |rng| {
        (short_chunks(rng), rng.below(8), rng.below(256))
    }));
    Spec {
        exercise: Exercise::RecoverMerges,
        hint: "Go through the tokens of two or more bytes in order of rank. For each, start \
               from its single bytes and merge as an encoder would, but allowed to use only \
               tokens ranked *below* the one you are splitting: repeatedly join the two \
               neighbours whose joined bytes have the lowest such rank (the leftmost if two \
               are equal), until no neighbours can join. Two parts are left: their ranks are \
               the pair, the token's rank its new id. Look every rank up in the table, bytes \
               included: a single byte's rank need not be its value.",
        cases,
        args: rank_file,
        reference: |case| bytes::recover_merges(&rank_file(case)),
        show_input: |case| show_ranks(&rank_file(case)),
        show_output: |merges| show_recovered(merges),
    }
}

/// Recovered merges as the check shows them, and the first that breaks the property the
/// recipe rests on: training joins only tokens it has already made, so both parts of every
/// merge rank below the token they make. A merge that breaks it cannot be right, whatever the
/// rank file.
fn show_recovered(merges: &[call::IdMerge]) -> String {
    let mut shown = show_merges(merges);
    if let Some(((a, b), id)) = merges.iter().find(|((a, b), id)| a >= id || b >= id) {
        let part = if a >= id { a } else { b };
        shown.push_str(&format!(
            "\n  (({a}, {b}), {id}) is no merge BPE could have made: its part {part} does not \
             rank below the token {id}, and training joins only tokens made before"
        ));
    }
    shown
}
