//! Exactness on real English text: the Python language reference that ships with every
//! CPython (`pydoc_data.topics`, about 460 KB of prose and examples), trained by the fast
//! engine and by the literal naive loop. Needs `python3`; without it the test fails.

use crate::support;

use bpe_lab::bpe::oracle::{apply_merges_naive, train_naive};
use bpe_lab::{Encoder, TieBreak, Trainer, WordCounts, bpe_initialize};
use std::collections::HashSet;
use support::python_reference_text;

const MERGES: usize = 150;

fn check(policy: TieBreak) {
    let text = python_reference_text();
    let paragraphs: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let training = Trainer::new(MERGES)
        .tie_break(policy)
        .train(WordCounts::from_lines(&text));
    let (mut corpus, _) = bpe_initialize(&paragraphs);
    let expected = train_naive(&mut corpus, MERGES, policy, 1);
    assert_eq!(training.merges.len(), MERGES);
    assert_eq!(training.merges, expected);

    // Encoding the training text with the learned merges reproduces the oracle's corpus. A word
    // gets the same tokens wherever it occurs, so each distinct word is checked once (8,832 of
    // the text's 94,559 words): the literal `apply_merges` rescans each word from scratch.
    let mut encoder = Encoder::new(&training.merges);
    let mut words = corpus.iter();
    let mut checked: HashSet<&str> = HashSet::new();
    for paragraph in &paragraphs {
        for word in paragraph.split(' ') {
            let trained = words.next().unwrap();
            if !checked.insert(word) {
                continue;
            }
            let ids = encoder.encode_word(word).to_vec();
            let tokens: Vec<&str> = ids.iter().map(|&id| encoder.symbol(id)).collect();
            assert_eq!(&tokens, trained, "word {word:?}");
            if policy == TieBreak::Lexicographic {
                let mut symbols: Vec<String> = word.chars().map(String::from).collect();
                symbols.push("</w>".into());
                assert_eq!(&apply_merges_naive(&symbols, &training.merges), trained);
            }
        }
    }
}

#[test]
fn lexicographic_training_on_real_text_equals_the_naive_loop() {
    check(TieBreak::Lexicographic);
}

#[test]
fn first_seen_training_on_real_text_equals_the_naive_loop() {
    check(TieBreak::FirstSeen);
}
