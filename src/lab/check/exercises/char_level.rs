//! What the character-level exercises' checks share (notebooks 01–06): building and showing
//! words, corpora and pairs, the tokenizer notebook's corpus, and the tiny tokenizer that the
//! `encode` and `decode` checks train on. Each check's own cases, comparison and hint are in
//! its exercise's file.

use super::super::cases;
use super::super::helpers::generated;
use super::super::shrink::Text;
use crate::bpe::oracle;
use crate::lab::display::{python_pair, python_str};
use crate::lab::parity;
use crate::lab::reference::UNK;
use std::collections::HashMap;

pub(super) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub(super) fn chars(word: &str) -> Vec<String> {
    word.chars().map(String::from).collect()
}

pub(super) fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

pub(super) fn texts(items: Vec<String>) -> Vec<Text> {
    items.into_iter().map(Text).collect()
}

pub(super) fn show_list(items: &[String]) -> String {
    let shown: Vec<String> = items.iter().map(|s| python_str(s)).collect();
    format!("[{}]", shown.join(", "))
}

pub(super) fn show_corpus(corpus: &[Vec<String>]) -> String {
    let words: Vec<String> = corpus.iter().map(|w| show_list(w)).collect();
    format!("[{}]", words.join(", "))
}

pub(super) fn show_pairs(pairs: &[(String, String)]) -> String {
    let shown: Vec<String> = pairs.iter().map(python_pair).collect();
    format!("[{}]", shown.join(", "))
}

/// A pair-count map in a stable order (most frequent first, then by pair). Not
/// `count_pairs_in_chunks`'s, which keeps the order given: there the order is the answer.
pub(super) fn show_counts(counts: &HashMap<(String, String), usize>) -> String {
    let mut entries: Vec<_> = counts.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let shown: Vec<String> = entries
        .iter()
        .map(|(p, c)| format!("{}: {c}", python_pair(p)))
        .collect();
    format!("{{{}}}", shown.join(", "))
}

/// The tokenizer notebook's training corpus.
pub(super) const TOKENIZER_CORPUS: [&str; 4] = [
    "This is the first document.",
    "This document is the second document.",
    "And this is the third one.",
    "Is this the first document?",
];

/// What the encode and decode checks train on: merges (the tie rule in force, see
/// [`parity`]), ids numbered as the tokenizer notebook does (the sorted vocabulary) and
/// `<UNK>` after them.
pub(super) struct TinyTokenizer {
    pub merges: Vec<(String, String)>,
    pub token_to_id: HashMap<String, u32>,
    pub id_to_token: HashMap<u32, String>,
    pub unk_id: u32,
}

impl TinyTokenizer {
    pub(super) fn train(paragraphs: &[String], num_merges: usize) -> TinyTokenizer {
        let (mut corpus, mut vocabulary) = crate::bpe_initialize(paragraphs);
        let merges = oracle::train_bpe_naive(&mut corpus, num_merges, parity::tie_break());
        for (a, b) in &merges {
            vocabulary.insert(format!("{a}{b}"));
        }
        let token_to_id: HashMap<String, u32> = vocabulary
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let unk_id = vocabulary.len() as u32;
        let mut id_to_token: HashMap<u32, String> =
            token_to_id.iter().map(|(t, &i)| (i, t.clone())).collect();
        id_to_token.insert(unk_id, UNK.to_owned());
        TinyTokenizer {
            merges,
            token_to_id,
            id_to_token,
            unk_id,
        }
    }

    /// The reference encoder ([`crate::lab::reference::encode`]) on this tokenizer.
    pub(super) fn encode(&self, text: &str) -> Vec<u32> {
        crate::lab::reference::encode(text, &self.merges, &self.token_to_id, self.unk_id)
    }

    /// The vocabulary in id order, for showing.
    pub(super) fn show(&self) -> String {
        let mut entries: Vec<(&u32, &String)> = self.id_to_token.iter().collect();
        entries.sort();
        let shown: Vec<String> = entries
            .iter()
            .map(|(i, t)| format!("{i}: {}", python_str(t)))
            .collect();
        format!("{{{}}}", shown.join(", "))
    }
}

/// An encode or decode case: the tokenizer's training paragraphs, its number of merges, and
/// the text.
pub(super) type EncodeCase = (Vec<Text>, usize, Text);

/// The encode and decode checks' cases: the same fixed ones, then `generated` from `seed`.
pub(super) fn encode_cases(generated_count: usize, seed: u64) -> Vec<EncodeCase> {
    let tokenizer_corpus = strings(&TOKENIZER_CORPUS);
    let text = |s: &str| Text(s.to_owned());
    let mut cases: Vec<EncodeCase> = vec![
        (
            texts(tokenizer_corpus.clone()),
            15,
            text("This is the first document."),
        ),
        (
            texts(tokenizer_corpus.clone()),
            15,
            text("the  third Zebra"),
        ),
        (texts(tokenizer_corpus), 15, text("")),
        (texts(strings(&["ab ab ab"])), 1, text("ab b")),
    ];
    cases.extend(generated(generated_count, seed, cases::encode_case));
    cases
}
