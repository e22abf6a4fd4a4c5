//! The series against the DeepMind lab itself: the lab's own Python code (tests/python/
//! lab_learn_bpe.py) learning its `desert…` sample, the lab-parity switch that makes the
//! checks and fallbacks break ties as that code does, and the rank rule's answer where
//! GPT-2's all-occurrences rule gives another.
//!
//! The switch is an environment variable, so every assertion that depends on it lives in one
//! test function (tests in one binary run in parallel threads and share the environment).

use crate::support;

use bpe_lab::lab::check::{self, Status};
use bpe_lab::lab::{parity, reference};
use bpe_lab::{TieBreak, apply_merges, learn_bpe};
use serde_json::{Value, json};
use std::collections::HashMap;
use support::python_script;

type Pair = (String, String);

/// The lab's `sample_text` (the input; what is learned from it is checked below).
const DESERT: [&str; 11] = parity::LAB_SAMPLE_TEXT;

fn pairs(list: &[(&str, &str)]) -> Vec<Pair> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The merges the lab's code prints for its sample (10 merges), as that code printed them
/// when run with Python 3: the lab's own answer, written down here so a change on either side
/// shows.
fn lab_desert_merges() -> Vec<Pair> {
    pairs(&[
        ("e", "s"),
        ("d", "es"),
        ("des", "e"),
        ("dese", "r"),
        ("deser", "t"),
        ("desert", "</w>"),
        ("e", "d"),
        ("ed", "</w>"),
        ("i", "o"),
        ("io", "n"),
    ])
}

fn lab_code(dataset: &[&str], num_merges: usize) -> Value {
    let out = python_script(
        "lab_learn_bpe.py",
        &json!([{"dataset": dataset, "num_merges": num_merges}]),
    );
    out[0].clone()
}

fn to_pairs(value: &Value) -> Vec<Pair> {
    serde_json::from_value::<Vec<[String; 2]>>(value.clone())
        .unwrap()
        .into_iter()
        .map(|[a, b]| (a, b))
        .collect()
}

#[test]
fn the_labs_code_learns_the_desert_merges_and_so_does_the_crate_under_first_seen() {
    let lab = lab_code(&DESERT, 10);
    assert_eq!(to_pairs(&lab["merges"]), lab_desert_merges());

    let (merges, vocabulary, corpus) = learn_bpe(&DESERT, 10);
    assert_eq!(merges, lab_desert_merges(), "bpe_lab::learn_bpe");
    assert_eq!(json!(corpus), lab["corpus"]);
    assert_eq!(
        json!(vocabulary.into_iter().collect::<Vec<_>>()),
        lab["vocabulary"]
    );

    // The literal loop under first-seen, which the notebooks' fallback runs with the switch on.
    let mut corpus = bpe_lab::bpe_initialize(&DESERT).0;
    let merges = bpe_lab::bpe::oracle::train_bpe_naive(&mut corpus, 10, TieBreak::FirstSeen);
    assert_eq!(merges, lab_desert_merges(), "train_bpe_naive, first seen");
}

#[test]
fn the_labs_code_agrees_with_the_crate_on_more_text() {
    let datasets: [&[&str]; 4] = [
        &["The Lagos air was thick with humidity, but the energy"],
        &["a  b", " leading", "trailing "],
        &["aaaa aaa aa a", "abab baba"],
        &["café naïve 日本 🙂 café"],
    ];
    for dataset in datasets {
        let lab = lab_code(dataset, 12);
        let (merges, _, corpus) = learn_bpe(dataset, 12);
        assert_eq!(merges, to_pairs(&lab["merges"]), "{dataset:?}");
        assert_eq!(json!(corpus), lab["corpus"], "{dataset:?}");
    }
}

/// A `train_bpe` as a student following the lab would write it: ties go to the pair seen
/// first, found by walking the corpus.
#[allow(clippy::ptr_arg)] // a student's function has the fixed API's signature
fn train_first_seen(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<Pair> {
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let counts: HashMap<Pair, usize> = bpe_lab::get_pair_frequencies(corpus);
        let Some(&top) = counts.values().max() else {
            break;
        };
        let best = corpus
            .iter()
            .flat_map(|word| word.windows(2))
            .map(|w| (w[0].clone(), w[1].clone()))
            .find(|pair| counts[pair] == top)
            .expect("a pair with the top count occurs");
        for word in corpus.iter_mut() {
            *word = bpe_lab::merge_pair_in_word(word, &best);
        }
        merges.push(best);
    }
    merges
}

/// The same with ties to the smallest pair (this series' default).
#[allow(clippy::ptr_arg)] // a student's function has the fixed API's signature
fn train_smallest(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<Pair> {
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let counts: HashMap<Pair, usize> = bpe_lab::get_pair_frequencies(corpus);
        let Some(best) = counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(pair, _)| pair.clone())
        else {
            break;
        };
        for word in corpus.iter_mut() {
            *word = bpe_lab::merge_pair_in_word(word, &best);
        }
        merges.push(best);
    }
    merges
}

#[test]
fn the_parity_switch_moves_the_check_and_the_fallback_to_the_labs_rule() {
    let Some(_alone) = support::alone::here(
        module_path!(),
        "the_parity_switch_moves_the_check_and_the_fallback_to_the_labs_rule",
        &[],
    ) else {
        return;
    };
    // SAFETY: this process runs only this test (support::alone), so no other thread reads the
    // environment now.
    unsafe { std::env::remove_var(parity::TIE_BREAK_ENV) };
    assert_eq!(parity::tie_break(), TieBreak::Lexicographic);
    assert!(check::train_bpe(train_smallest).passed());
    assert_eq!(check::train_bpe(train_first_seen).status, Status::Failed);
    let mut corpus = bpe_lab::bpe_initialize(&DESERT).0;
    assert_ne!(
        reference::train_bpe(&mut corpus, 10),
        lab_desert_merges(),
        "the default rule parts ways with the lab on this sample"
    );

    unsafe { std::env::set_var(parity::TIE_BREAK_ENV, "first-seen") };
    assert_eq!(parity::tie_break(), TieBreak::FirstSeen);
    assert!(parity::tie_break_line().contains("Python lab"));
    let lab_rule = check::train_bpe(train_first_seen);
    assert!(lab_rule.passed(), "{lab_rule:?}");
    let smallest = check::train_bpe(train_smallest);
    assert_eq!(smallest.status, Status::Failed);
    assert!(smallest.hint.contains("first-seen"), "{}", smallest.hint);
    let mut corpus = bpe_lab::bpe_initialize(&DESERT).0;
    assert_eq!(reference::train_bpe(&mut corpus, 10), lab_desert_merges());

    unsafe { std::env::remove_var(parity::TIE_BREAK_ENV) };
}

#[test]
fn by_rank_and_all_at_once_differ_on_a_b_a_b() {
    // Worked out by hand. By rank, one occurrence at a time: (a, b) has rank 1 and is the only
    // ranked pair, so its leftmost occurrence merges: ab a b. Now (ab, a) has rank 0: aba b.
    // GPT-2's original encoder merges every occurrence of the best pair at once instead:
    // (a, b) everywhere gives ab ab, where no listed pair is left.
    let tokens: Vec<String> = ["a", "b", "a", "b"].map(String::from).to_vec();
    let merges = pairs(&[("ab", "a"), ("a", "b")]);
    assert_eq!(apply_merges(&tokens, &merges), ["aba", "b"]);
    assert_eq!(
        bpe_lab::bpe::oracle::apply_merges_naive(&tokens, &merges),
        ["aba", "b"]
    );
}
