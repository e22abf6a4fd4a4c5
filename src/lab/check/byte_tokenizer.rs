//! The checks of notebook 07's five exercises that build a byte-level tokenizer, in minbpe's
//! order: merge a pair of ids, train (new ids from 256), encode chunks with the merges, decode
//! ids to text, and recover the merges behind a rank file. Each has fixed cases aimed at one usual mistake, then generated
//! ones over text that is many bytes per character.
//!
//! - `merge_ids`: overlapping pairs (`[5, 5, 5]` merges once), a pair at the very end, ids
//!   above 255 (tokens merges made).
//! - `train_byte_bpe`: the first new id is 256, not 0; pairs never cross two chunks; among
//!   equal counts the pair counted first wins; a run that runs out of pairs stops early.
//! - `encode_ids`: merges applied by rank (the lowest new id first), not by how often a pair
//!   occurs in the text; never across two chunks; the chunk scanned again after each merge, so
//!   that a pair made by a merge (`(256, 256)` after `aaaa` → `[256, 256]`) merges too.
//! - `decode_ids`: the bytes of all ids are joined before being read as UTF-8 (`é` split over
//!   two ids decodes; read token by token it would be two `�`); ids made of ids.
//! - `recover_merges`: single bytes whose ranks are not their values (cl100k_base's are not);
//!   a token split only with tokens ranked below it; the result in rank order. A wrong answer
//!   also shows the first merge whose part does not rank below its token, the property the
//!   recipe rests on.

use super::bytes::{PIECES, show_texts};
use super::cases::Rng;
use super::helpers::{generated, plain, show};
use super::run::{Spec, run};
use super::shrink::Text;
use super::{Check, Exercise, calls};
use crate::bpe::steps;
use crate::lab::bytes;
use crate::lab::display::python_str;
use std::collections::HashMap;

/// Generated cases per check, on top of the fixed examples.
const GENERATED: usize = 200;

fn texts(items: &[&str]) -> Vec<Text> {
    items.iter().map(|s| Text(s.to_string())).collect()
}

/// Chunks of text: short, over few pieces, so that pairs repeat and tie.
fn chunks(rng: &mut Rng) -> Vec<Text> {
    let pieces = 2 + rng.below(PIECES.len() - 1);
    (0..1 + rng.below(5))
        .map(|_| {
            let chunk: String = (0..1 + rng.below(4))
                .map(|_| PIECES[rng.below(pieces)])
                .collect();
            Text(chunk)
        })
        .collect()
}

fn show_merges(merges: &[calls::IdMerge]) -> String {
    let shown: Vec<String> = merges
        .iter()
        .map(|((a, b), id)| format!("(({a}, {b}), {id})"))
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Checks `merge_ids(ids, pair, new_id) -> ids`: one left-to-right pass, each occurrence of
/// `pair` replaced by `new_id`, an id never used in two merges.
pub fn merge_ids<F>(student: F) -> Check
where
    F: Fn(&[u32], (u32, u32), u32) -> calls::MergeIdsOut + Send + 'static,
{
    show(run(merge_ids_spec(), move |a| {
        calls::merge_ids(&student, a)
    }))
}

type MergeIdsCase = (Vec<u32>, (u32, u32), u32);

fn ids_and_pair(rng: &mut Rng) -> MergeIdsCase {
    const IDS: [u32; 5] = [97, 98, 32, 256, 300];
    let alphabet = 2 + rng.below(4);
    let ids: Vec<u32> = (0..rng.below(9))
        .map(|_| IDS[rng.below(alphabet)])
        .collect();
    let pair = if ids.len() >= 2 && rng.chance(80) {
        let i = rng.below(ids.len() - 1);
        (ids[i], ids[i + 1])
    } else {
        (IDS[rng.below(alphabet)], IDS[rng.below(alphabet)])
    };
    (ids, pair, 256 + rng.below(600) as u32)
}

pub(super) fn merge_ids_spec() -> Spec<MergeIdsCase, calls::MergeIdsArgs, calls::MergeIdsOut> {
    let mut cases: Vec<MergeIdsCase> = vec![
        (vec![5, 6, 5, 6, 7], (5, 6), 256),
        // Overlap: the middle 5 can belong to only one merge.
        (vec![5, 5, 5], (5, 5), 256),
        (vec![5, 5, 5, 5], (5, 5), 300),
        (vec![7, 5, 6], (5, 6), 256),
        (vec![5], (5, 6), 256),
        (vec![6, 5], (5, 6), 256),
        (vec![], (5, 6), 256),
        (vec![256, 97, 256, 97], (256, 97), 257),
    ];
    cases.extend(generated(GENERATED, 31, ids_and_pair));
    Spec {
        exercise: Exercise::MergeIds,
        hint: "Walk through ids with an index i, building a new list. Where ids[i] and \
               ids[i + 1] are the pair, push new_id and move i on by two; otherwise push ids[i] \
               and move on by one. Moving by two is what keeps an id from being merged twice: \
               [5, 5, 5] with (5, 5) gives [new_id, 5]. Check that i + 1 is still inside the \
               list before you look at it.",
        cases,
        args: Clone::clone,
        reference: |(ids, pair, new_id)| bytes::merge_ids(ids, *pair, *new_id),
        show_input: |(ids, (a, b), new_id)| {
            format!("ids = {ids:?}\npair = ({a}, {b})\nnew_id = {new_id}")
        },
        show_output: |ids| format!("{ids:?}"),
    }
}

/// Checks `train_byte_bpe(chunks, num_merges) -> merges`: minbpe's loop, new ids from 256,
/// pairs counted inside chunks only, ties to the pair counted first.
pub fn train_byte_bpe<F>(student: F) -> Check
where
    F: Fn(&[String], usize) -> calls::TrainByteBpeOut + Send + 'static,
{
    show(run(train_byte_bpe_spec(), move |a| {
        calls::train_byte_bpe(&student, a)
    }))
}

type TrainCase = (Vec<Text>, usize);

pub(super) fn train_byte_bpe_spec()
-> Spec<TrainCase, calls::TrainByteBpeArgs, calls::TrainByteBpeOut> {
    let mut cases: Vec<TrainCase> = vec![
        (texts(&["aaab", " aab"]), 2),
        // A tie: (a, b) and (c, d) occur once each; (a, b) is counted first.
        (texts(&["ab", "cd"]), 1),
        (texts(&["cd", "ab"]), 1),
        // Across the two chunks "ab" | "ab", (b, a) would be a pair: it is not.
        (texts(&["ab", "ab", "ba"]), 2),
        (texts(&["Yorùbá", " Yorùbá", " Ẹ̀kọ́"]), 4),
        // Only three merges are possible: the loop must stop, not invent more.
        (texts(&["abcd"]), 10),
        (texts(&["aaaa"]), 3),
        (texts(&[]), 3),
    ];
    cases.extend(generated(GENERATED, 32, |rng| (chunks(rng), rng.below(8))));
    Spec {
        exercise: Exercise::TrainByteBpe,
        hint: "Start from each chunk's bytes (your byte_initialize). Then, once per merge: \
               count the pairs inside each chunk only, remembering the order in which pairs \
               were first counted; take the most frequent, and among equal counts the one \
               counted first (a HashMap forgets that order, so keep it yourself, for example in \
               a Vec); give it the id 256 + the number of merges made so far (the first merge \
               is 256: 0–255 are the bytes); replace it in every chunk with your merge_ids. \
               Stop early when no chunk has a pair left.",
        cases,
        args: |(chunks, n)| (plain(chunks), *n),
        reference: |(chunks, n)| bytes::train_byte_bpe(&plain(chunks), *n),
        show_input: |(chunks, n)| format!("chunks = {}\nnum_merges = {n}", show_texts(chunks)),
        show_output: |merges| show_merges(merges),
    }
}

/// Checks `encode_ids(chunks, merges) -> ids`: minbpe's encoder on chunks, each chunk's bytes
/// merged by rank (lowest new id first, everywhere in the chunk, then scanned again), never
/// across two chunks.
pub fn encode_ids<F>(student: F) -> Check
where
    F: Fn(&[String], &[calls::IdMerge]) -> calls::EncodeIdsOut + Send + 'static,
{
    show(run(encode_ids_spec(), move |a| {
        calls::encode_ids(&student, a)
    }))
}

/// (training chunks, merges to learn, chunks to encode).
type EncodeCase = ((Vec<Text>, usize), Vec<Text>);

fn encode_args(((training, n), text): &EncodeCase) -> calls::EncodeIdsArgs {
    (plain(text), steps::train_byte_bpe(&plain(training), *n))
}

pub(super) fn encode_ids_spec() -> Spec<EncodeCase, calls::EncodeIdsArgs, calls::EncodeIdsOut> {
    let case = |training: &[&str], n: usize, text: &[&str]| ((texts(training), n), texts(text));
    let mut cases: Vec<EncodeCase> = vec![
        case(&["hi hi"], 2, &["hi", "!"]),
        // (98, 99) is 256 and (97, 98) is 257: in "abcab" the lower rank goes first, though
        // (97, 98) occurs twice. By count: [257, 99, 257]; by rank: [97, 256, 257].
        case(&["bc", "bc", "ab"], 2, &["abcab"]),
        // After (97, 97) → 256, "aaaa" is [256, 256], and (256, 256) is merge 257: only a
        // second look at the chunk finds it.
        case(&["aaaa", "aaaa"], 2, &["aaaa"]),
        // "a" and "b" are two chunks: (97, 98) is a merge, but not across them.
        case(&["ab"], 1, &["a", "b"]),
        case(
            &[" Yorùbá", " Yorùbá"],
            6,
            &[" Yorùbá", " Yoru\u{300}ba\u{301}"],
        ),
        case(&["🙂🙂"], 3, &["🙂", "🙂🙂"]),
        case(&[], 0, &["é"]),
        case(&["ab"], 1, &[]),
    ];
    cases.extend(generated(GENERATED, 35, |rng| {
        ((chunks(rng), rng.below(8)), chunks(rng))
    }));
    Spec {
        exercise: Exercise::EncodeIds,
        hint: "Encode each chunk on its own (never join the chunks' ids before merging): start \
               from its bytes (your byte_initialize). Then repeat: look at every pair of \
               neighbours in the chunk; among those that are merges, take the one whose new id \
               is lowest (the new id is its rank: it was learned first), not the one that \
               occurs most often; replace it everywhere in the chunk with your merge_ids; and \
               look at the chunk again from the start, since the merge may have made a new \
               pair that is a merge too. Stop when no pair of neighbours is a merge. A HashMap \
               from pair to new id, built once from merges, makes the lookups quick. Then \
               append the chunk's ids to the result.",
        cases,
        args: encode_args,
        reference: |case| {
            let (chunks, merges) = encode_args(case);
            bytes::encode_ids(&chunks, &merges)
        },
        show_input: |case| {
            let (chunks, merges) = encode_args(case);
            format!(
                "chunks = {}\nmerges = {}",
                show_texts(&texts_of(&chunks)),
                show_merges(&merges)
            )
        },
        show_output: |ids| format!("{ids:?}"),
    }
}

fn texts_of(items: &[String]) -> Vec<Text> {
    items.iter().map(|s| Text(s.clone())).collect()
}

/// Checks `decode_ids(ids, merges) -> text`: every id's bytes joined, then read as UTF-8 once,
/// with `�` where the bytes are not UTF-8.
pub fn decode_ids<F>(student: F) -> Check
where
    F: Fn(&[u32], &[calls::IdMerge]) -> calls::DecodeIdsOut + Send + 'static,
{
    show(run(decode_ids_spec(), move |a| {
        calls::decode_ids(&student, a)
    }))
}

/// (training chunks, merges to learn, text to encode, ids to drop from the front and back).
type DecodeCase = ((Vec<Text>, usize), Text, (usize, usize));

/// The ids of `text` under `merges` learned by `train_byte_bpe`: its bytes with every merge
/// applied in the order learned (minbpe's encoding of one chunk).
fn encode_with(text: &str, merges: &[calls::IdMerge]) -> Vec<u32> {
    let mut ids: Vec<u32> = text.bytes().map(u32::from).collect();
    for &(pair, id) in merges {
        ids = steps::merge_ids(&ids, pair, id);
    }
    ids
}

fn decode_args(((training, n), text, (front, back)): &DecodeCase) -> calls::DecodeIdsArgs {
    let merges = steps::train_byte_bpe(&plain(training), *n);
    let ids = encode_with(&text.0, &merges);
    let start = (*front).min(ids.len());
    let end = ids.len().saturating_sub(*back).max(start);
    (ids[start..end].to_vec(), merges)
}

pub(super) fn decode_ids_spec() -> Spec<DecodeCase, calls::DecodeIdsArgs, calls::DecodeIdsOut> {
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
        let training = chunks(rng);
        let text: String = chunks(rng).into_iter().map(|t| t.0).collect();
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

/// Checks `recover_merges(ranks) -> merges`: the pair behind every token of two or more bytes,
/// found with the tokens ranked below it, in rank order.
pub fn recover_merges<F>(student: F) -> Check
where
    F: Fn(&HashMap<Vec<u8>, u32>) -> calls::RecoverMergesOut + Send + 'static,
{
    show(run(recover_merges_spec(), move |a| {
        calls::recover_merges(&student, a)
    }))
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

pub(super) fn recover_merges_spec()
-> Spec<RecoverCase, calls::RecoverMergesArgs, calls::RecoverMergesOut> {
    let mut cases: Vec<RecoverCase> = vec![
        (texts(&["hug", " hug", " hugs"]), 4, 0),
        // Bytes ranked in an order of their own: "a" (97) ranks 0 here.
        (texts(&["aab", "aab"]), 2, 159),
        (texts(&["aaaa"]), 2, 3),
        (texts(&[" Yorùbá", " Yorùbá"]), 6, 7),
        (texts(&["abc", "abc", "bcd"]), 4, 0),
    ];
    cases.extend(generated(GENERATED, 34, |rng| {
        (chunks(rng), rng.below(8), rng.below(256))
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
fn show_recovered(merges: &[calls::IdMerge]) -> String {
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
