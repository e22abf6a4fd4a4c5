//! Notebook 07's checks: byte-level initialization, pair counting inside chunks and the
//! encoder. A right answer passes, `todo!()` reads "not implemented", and the mistakes students
//! make (characters instead of bytes; counting or merging across chunk boundaries; counts in a
//! HashMap's order; merging by count instead of rank; no second look after a merge) fail with a
//! small counterexample. The wrong versions are written from the notebook's text.

use bpe_lab::lab::check::{self, Status};
use std::collections::HashMap;

fn initialize_right(chunks: &[String]) -> Vec<Vec<u32>> {
    chunks
        .iter()
        .map(|c| c.as_bytes().iter().map(|&b| b as u32).collect())
        .collect()
}

/// Code points instead of bytes: right for ASCII only.
fn initialize_chars(chunks: &[String]) -> Vec<Vec<u32>> {
    chunks
        .iter()
        .map(|c| c.chars().map(|ch| ch as u32).collect())
        .collect()
}

/// Every byte of the text in one list: the chunks forgotten.
fn initialize_flat(chunks: &[String]) -> Vec<Vec<u32>> {
    vec![
        chunks
            .iter()
            .flat_map(|c| c.bytes().map(u32::from))
            .collect(),
    ]
}

fn initialize_todo(_: &[String]) -> Vec<Vec<u32>> {
    todo!()
}

#[test]
fn byte_initialize_checks() {
    let right = check::byte_initialize(initialize_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    assert!(right.cases > 300);
    let wrong = check::byte_initialize(initialize_chars);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.expect("a counterexample");
    // Shrunk to a single non-ASCII character.
    assert!(c.input.chars().count() <= 16, "not shrunk: {}", c.input);
    assert_eq!(
        check::byte_initialize(initialize_flat).status,
        Status::Failed
    );
    assert_eq!(
        check::byte_initialize(initialize_todo).status,
        Status::NotImplemented
    );
}

fn pairs_right(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    let mut counts: Vec<((u32, u32), usize)> = Vec::new();
    for chunk in chunks {
        for w in chunk.windows(2) {
            match counts.iter_mut().find(|(p, _)| *p == (w[0], w[1])) {
                Some((_, n)) => *n += 1,
                None => counts.push(((w[0], w[1]), 1)),
            }
        }
    }
    counts
}

/// The chunks glued back together before counting: pairs across boundaries sneak in.
fn pairs_across_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    let all: Vec<u32> = chunks.concat();
    pairs_right(&[all])
}

/// Right counts in a HashMap's order: the first-seen order minbpe's tie rule reads is lost.
fn pairs_hash_order(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
    for chunk in chunks {
        for w in chunk.windows(2) {
            *counts.entry((w[0], w[1])).or_insert(0) += 1;
        }
    }
    let mut listed: Vec<((u32, u32), usize)> = counts.into_iter().collect();
    listed.sort();
    listed
}

#[test]
fn count_pairs_in_chunks_checks() {
    let right = check::count_pairs_in_chunks(pairs_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    let wrong = check::count_pairs_in_chunks(pairs_across_chunks);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.expect("a counterexample");
    assert!(c.input.len() <= 24, "not shrunk: {}", c.input);
    let sorted = check::count_pairs_in_chunks(pairs_hash_order);
    assert_eq!(sorted.status, Status::Failed);
    // The smallest case where the order differs: a larger pair counted first.
    let c = sorted.counterexample.expect("a counterexample");
    assert!(c.input.len() <= 24, "not shrunk: {}", c.input);
}

/// minbpe's encoder, written from the notebook's task: each chunk alone, the mergeable pair
/// with the lowest new id merged everywhere, then the chunk looked at again.
fn encode_right(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    let rank: HashMap<(u32, u32), u32> = merges.iter().copied().collect();
    let mut out = Vec::new();
    for chunk in chunks {
        let mut ids: Vec<u32> = chunk.bytes().map(u32::from).collect();
        loop {
            let best = ids
                .windows(2)
                .filter_map(|w| rank.get(&(w[0], w[1])).map(|&id| ((w[0], w[1]), id)))
                .min_by_key(|&(_, id)| id);
            let Some((pair, id)) = best else { break };
            ids = bpe_lab::lab::reference::merge_ids(&ids, pair, id);
        }
        out.extend(ids);
    }
    out
}

/// The most frequent mergeable pair first, as training chooses, instead of the lowest rank.
fn encode_by_count(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    let rank: HashMap<(u32, u32), u32> = merges.iter().copied().collect();
    let mut out = Vec::new();
    for chunk in chunks {
        let mut ids: Vec<u32> = chunk.bytes().map(u32::from).collect();
        loop {
            let mut counts: Vec<((u32, u32), usize)> = Vec::new();
            for w in ids.windows(2).filter(|w| rank.contains_key(&(w[0], w[1]))) {
                match counts.iter_mut().find(|(p, _)| *p == (w[0], w[1])) {
                    Some((_, n)) => *n += 1,
                    None => counts.push(((w[0], w[1]), 1)),
                }
            }
            let Some(&(pair, _)) = counts.iter().rev().max_by_key(|(_, n)| *n) else {
                break;
            };
            ids = bpe_lab::lab::reference::merge_ids(&ids, pair, rank[&pair]);
        }
        out.extend(ids);
    }
    out
}

/// The chunks' bytes joined first: merges across chunk boundaries.
fn encode_across_chunks(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    encode_right(&[chunks.concat()], merges)
}

/// The pairs present at the start, each merged once in rank order: a pair that a merge
/// makes is never looked for.
fn encode_without_rescan(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    let mut out = Vec::new();
    for chunk in chunks {
        let mut ids: Vec<u32> = chunk.bytes().map(u32::from).collect();
        let mut present: Vec<((u32, u32), u32)> = merges
            .iter()
            .copied()
            .filter(|(p, _)| ids.windows(2).any(|w| (w[0], w[1]) == *p))
            .collect();
        present.sort_by_key(|&(_, id)| id);
        for (pair, id) in present {
            ids = bpe_lab::lab::reference::merge_ids(&ids, pair, id);
        }
        out.extend(ids);
    }
    out
}

fn encode_todo(_: &[String], _: &[((u32, u32), u32)]) -> Vec<u32> {
    todo!()
}

#[test]
fn encode_ids_checks() {
    let right = check::encode_ids(encode_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    assert!(right.cases > 200);
    for (wrong, what) in [
        (
            encode_by_count as fn(&[String], &[((u32, u32), u32)]) -> Vec<u32>,
            "by count",
        ),
        (encode_across_chunks, "across chunks"),
        (encode_without_rescan, "without a rescan"),
    ] {
        let checked = check::encode_ids(wrong);
        assert_eq!(checked.status, Status::Failed, "{what}");
        let c = checked.counterexample.expect("a counterexample");
        assert!(c.input.len() <= 200, "{what}: not shrunk: {}", c.input);
    }
    assert_eq!(
        check::encode_ids(encode_todo).status,
        Status::NotImplemented
    );
}

/// The crate's own answers do not count as the student's.
#[test]
fn the_crates_answers_are_not_accepted() {
    let borrowed = check::byte_initialize(|c: &[String]| bpe_lab::lab::bytes::byte_initialize(c));
    assert_eq!(borrowed.status, Status::UsedReference);
    let borrowed = check::count_pairs_in_chunks(|c: &[Vec<u32>]| {
        bpe_lab::lab::bytes::count_pairs_in_chunks(c)
    });
    assert_eq!(borrowed.status, Status::UsedReference);
    let borrowed = check::encode_ids(|c: &[String], m: &[((u32, u32), u32)]| {
        bpe_lab::lab::reference::encode_ids(c, m)
    });
    assert_eq!(borrowed.status, Status::UsedReference);
}
