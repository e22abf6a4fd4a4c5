//! Notebook 07's checks: byte-level initialization and pair counting inside chunks. A right
//! answer passes, `todo!()` reads "not implemented", and the two mistakes students make
//! (characters instead of bytes; counting across chunk boundaries) fail with a small
//! counterexample. The wrong versions are written from the notebook's text.

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

fn pairs_right(chunks: &[Vec<u32>]) -> HashMap<(u32, u32), usize> {
    let mut counts = HashMap::new();
    for chunk in chunks {
        for w in chunk.windows(2) {
            *counts.entry((w[0], w[1])).or_insert(0) += 1;
        }
    }
    counts
}

/// The chunks glued back together before counting: pairs across boundaries sneak in.
fn pairs_across_chunks(chunks: &[Vec<u32>]) -> HashMap<(u32, u32), usize> {
    let all: Vec<u32> = chunks.concat();
    pairs_right(&[all])
}

fn pairs_with_zeroes(chunks: &[Vec<u32>]) -> HashMap<(u32, u32), usize> {
    let mut counts = pairs_right(chunks);
    for chunk in chunks {
        if let [a, b, ..] = chunk[..] {
            counts.entry((b, a)).or_insert(0);
        }
    }
    counts
}

#[test]
fn count_pairs_in_chunks_checks() {
    let right = check::count_pairs_in_chunks(pairs_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    let wrong = check::count_pairs_in_chunks(pairs_across_chunks);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.expect("a counterexample");
    assert!(c.input.len() <= 24, "not shrunk: {}", c.input);
    assert_eq!(
        check::count_pairs_in_chunks(pairs_with_zeroes).status,
        Status::Failed
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
}
