//! Notebook 07's sixth exercise, `decode_ids`: its check and its row of the table; its call is
//! `decode_ids/call.rs`. Fixed cases aim at the usual mistakes: the bytes of all ids are joined
//! before being read as UTF-8 (`é` split over two ids decodes; read token by token it would be
//! two `�`); ids made of ids. Generated ones follow.

mod call;

use super::super::helpers::{generated, plain, show};
use super::super::row::{Reference, Row, Worker, judge_spec};
use super::super::run::{Spec, run};
use super::super::shrink::Text;
use super::super::{Check, Exercise};
use super::byte_level::{short_chunks, show_merges, texts};
use crate::bpe::steps;
use crate::lab::bytes;
use crate::lab::display::python_str;

/// Generated cases, on top of the fixed examples.
const GENERATED: usize = 200;

pub(super) const ROW: Row = Row {
    exercise: Exercise::DecodeIds,
    signature: "fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String",
    reference: Reference::Lab,
    judge: |ask, limit| judge_spec(&spec(), ask, limit),
    worker: Worker::OffersStep,
};

/// Checks `decode_ids(ids, merges) -> text`: every id's bytes joined, then read as UTF-8 once,
/// with `�` where the bytes are not UTF-8.
pub fn decode_ids<F>(student: F) -> Check
where
    F: Fn(&[u32], &[call::IdMerge]) -> call::Out + Send + 'static,
{
    show(run(spec(), move |a| call::call(&student, a)))
}

/// (training chunks, merges to learn, text to encode, ids to drop from the front and back).
type DecodeCase = ((Vec<Text>, usize), Text, (usize, usize));

/// The ids of `text` under `merges` learned by `train_byte_bpe`: its bytes with every merge
/// applied in the order learned (minbpe's encoding of one chunk).
fn encode_with(text: &str, merges: &[call::IdMerge]) -> Vec<u32> {
    let mut ids: Vec<u32> = text.bytes().map(u32::from).collect();
    for &(pair, id) in merges {
        ids = steps::merge_ids(&ids, pair, id);
    }
    ids
}

fn decode_args(((training, n), text, (front, back)): &DecodeCase) -> call::Args {
    let merges = steps::train_byte_bpe(&plain(training), *n);
    let ids = encode_with(&text.0, &merges);
    let start = (*front).min(ids.len());
    let end = ids.len().saturating_sub(*back).max(start);
    (ids[start..end].to_vec(), merges)
}

fn spec() -> Spec<DecodeCase, call::Args, call::Out> {
    let case = |training: &[&str], n: usize, text: &str, cut: (usize, usize)| {
        ((texts(training), n), Text(text.to_string()), cut)
    };
    let mut cases: Vec<DecodeCase> = vec![
        case(&["hi hi"], 2, "hi!", (0, 0)),
        // No merges: "é" is two ids, 195 and 169, which only make sense together.
        case(&[], 0, "é", (0, 0)),
        case(&["Yorùbá"], 0, "Yorùbá", (0, 0)),
        // Cut inside the character: the lone byte cannot be read.
        case(&[], 0, "é", (0, 1)),
        case(&[], 0, "ኢትዮጵያ", (1, 0)),
        // Ids made of ids: 257 is (256, 97) and 256 is (97, 97).
        case(&["aaa aaa"], 2, "aaa", (0, 0)),
        case(&["🙂🙂"], 3, "🙂🙂", (0, 0)),
        case(&["🙂🙂"], 1, "🙂", (0, 1)),
    ];
    cases.extend(generated(GENERATED, 33, |rng| {
        let training = short_chunks(rng);
        let text: String = short_chunks(rng).into_iter().map(|t| t.0).collect();
        let cut = if rng.chance(30) {
            (rng.below(3), rng.below(3))
        } else {
            (0, 0)
        };
        ((training, rng.below(8)), Text(text), cut)
    }));
    Spec {
        exercise: Exercise::DecodeIds,
        hint: "First give every id its bytes: ids 0–255 are the byte itself; each merge \
               ((a, b), id), in order, has the bytes of a followed by the bytes of b (a and b \
               may be merges made earlier). Then put the bytes of all the ids one after another \
               in one Vec<u8>, and only then turn that into text with \
               String::from_utf8_lossy. Reading each id's bytes as text on its own breaks every \
               character whose bytes are split over two ids: 195 and 169 are \"é\" together, \
               two \"�\" apart.",
        cases,
        args: decode_args,
        reference: |case| {
            let (ids, merges) = decode_args(case);
            bytes::decode_ids(&ids, &merges)
        },
        show_input: |case| {
            let (ids, merges) = decode_args(case);
            format!("ids = {ids:?}\nmerges = {}", show_merges(&merges))
        },
        show_output: |text| python_str(text),
    }
}
