//! The checks of notebook 07's two exercises: byte-level initialization and pair counting
//! inside chunks. Cases cover what makes bytes differ from characters: accents written as one
//! character or as a letter plus a combining mark (Yorùbá, Vietnamese), Ethiopic and N'Ko
//! letters (three and two bytes), emoji (four bytes, and joined sequences of several), empty
//! chunks, and runs like `aaaa`.

use super::cases::Rng;
use super::helpers::{generated, plain, show};
use super::run::{Spec, run};
use super::shrink::Text;
use super::{Check, Exercise, calls};
use crate::lab::bytes;
use crate::lab::display::python_str;

/// Generated cases per check, on top of the fixed examples.
const GENERATED: usize = 300;

/// Pieces of text that chunks are made of; several are many bytes per character.
pub(super) const PIECES: [&str; 16] = [
    "a",
    "b",
    " ",
    "Lagos",
    " the",
    "Yorùbá",
    "Yoru\u{300}ba\u{301}",
    "Tiếng Việt",
    "ኢትዮጵያ",
    "ߒߞߏ",
    "🙂",
    "👩🏽‍🍳",
    "aaaa",
    "'s",
    "2024",
    "\n",
];

fn chunk(rng: &mut Rng) -> String {
    (0..rng.below(4)).map(|_| *rng.pick(&PIECES)).collect()
}

fn chunks(rng: &mut Rng) -> Vec<Text> {
    (0..rng.below(6)).map(|_| Text(chunk(rng))).collect()
}

fn id_chunks(rng: &mut Rng) -> Vec<Vec<u32>> {
    // Small alphabets make repeated and overlapping pairs likely; ids above 255 stand for
    // tokens that merges made.
    const IDS: [u32; 5] = [97, 98, 32, 256, 300];
    let alphabet = 2 + rng.below(4);
    (0..rng.below(6))
        .map(|_| {
            let len = rng.below(7);
            if rng.chance(15) {
                let id = IDS[rng.below(alphabet)];
                return vec![id; len];
            }
            (0..len).map(|_| IDS[rng.below(alphabet)]).collect()
        })
        .collect()
}

pub(super) fn show_texts(items: &[Text]) -> String {
    let shown: Vec<String> = items.iter().map(|t| python_str(&t.0)).collect();
    format!("[{}]", shown.join(", "))
}

fn show_ids(chunks: &[Vec<u32>]) -> String {
    let shown: Vec<String> = chunks.iter().map(|c| format!("{c:?}")).collect();
    format!("[{}]", shown.join(", "))
}

/// Pair counts in the order given: the order is part of the answer.
fn show_counts(counts: &[((u32, u32), usize)]) -> String {
    let shown: Vec<String> = counts
        .iter()
        .map(|((a, b), c)| format!("(({a}, {b}), {c})"))
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Checks `byte_initialize(chunks) -> ids`: each chunk as its UTF-8 bytes, 0–255.
pub fn byte_initialize<F>(student: F) -> Check
where
    F: Fn(&[String]) -> calls::ByteInitializeOut + Send + 'static,
{
    show(run(byte_initialize_spec(), move |a| {
        calls::byte_initialize(&student, a)
    }))
}

pub(super) fn byte_initialize_spec()
-> Spec<Vec<Text>, calls::ByteInitializeArgs, calls::ByteInitializeOut> {
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

/// Checks `count_pairs_in_chunks(chunks) -> counts`: every adjacent pair inside each chunk,
/// overlapping ones too, none across two chunks, each once with its count, in the order first
/// counted.
pub fn count_pairs_in_chunks<F>(student: F) -> Check
where
    F: Fn(&[Vec<u32>]) -> calls::CountPairsInChunksOut + Send + 'static,
{
    show(run(count_pairs_in_chunks_spec(), move |a| {
        calls::count_pairs_in_chunks(&student, a)
    }))
}

pub(super) fn count_pairs_in_chunks_spec()
-> Spec<Vec<Vec<u32>>, calls::CountPairsInChunksArgs, calls::CountPairsInChunksOut> {
    let mut cases: Vec<Vec<Vec<u32>>> = vec![
        // " the" " the": (101, 32) would only exist across the two chunks.
        vec![vec![32, 116, 104, 101], vec![32, 116, 104, 101]],
        vec![vec![97, 97, 97, 97]],
        vec![vec![97], vec![97]],
        vec![vec![], vec![256, 97], vec![256, 97, 256]],
        // First counted is first listed: (98, 97) before (97, 98), though it is the larger.
        vec![vec![98, 97], vec![97, 98], vec![98, 97]],
        vec![],
    ];
    cases.extend(generated(GENERATED, 22, id_chunks));
    Spec {
        exercise: Exercise::CountPairsInChunks,
        hint: "Count inside each chunk separately: for every chunk, look at each pair of \
                   neighbours (chunk[i], chunk[i + 1]). Never pair the last id of one chunk \
                   with the first id of the next: that is what the split is for. Overlapping \
                   pairs count: [97, 97, 97] holds (97, 97) twice. Each pair appears once in \
                   the list, with its count, at the place where it was first counted: when a \
                   pair is new, push ((a, b), 0) and remember its index in a HashMap; then add \
                   one to the count at that index. Empty and one-id chunks have no pairs.",
        cases,
        args: Clone::clone,
        reference: |c| bytes::count_pairs_in_chunks(c),
        show_input: |c| format!("chunks = {}", show_ids(c)),
        show_output: |c| show_counts(c),
    }
}
