//! The fixed public API, with exactly the signatures the design promises. This file fails to
//! compile if a name moves away from the crate root or a signature changes. (Functions taking
//! `impl AsRef<str>` cannot be named as fn pointers, so they are wrapped in closures whose
//! types are spelled out.)

// Spelling the signatures out in full is the point of this file.
#![allow(clippy::type_complexity)]

use std::collections::{BTreeSet, HashMap};

type Merges = Vec<(String, String)>;

#[test]
fn the_fixed_api_has_the_promised_signatures() {
    let eow: &str = bpe_lab::EOW;
    assert_eq!(eow, "</w>");

    let train: fn(&mut Vec<Vec<String>>, usize) -> Merges = bpe_lab::train_bpe;
    let apply: fn(&[String], &[(String, String)]) -> Vec<String> = bpe_lab::apply_merges;
    let initialize: fn(&[&str]) -> (Vec<Vec<String>>, BTreeSet<String>) =
        |d| bpe_lab::bpe_initialize(d);
    let initialize_owned: fn(&[String]) -> (Vec<Vec<String>>, BTreeSet<String>) =
        |d| bpe_lab::bpe_initialize(d);
    let frequencies: fn(&[Vec<String>]) -> HashMap<(String, String), usize> =
        bpe_lab::get_pair_frequencies;
    let merge: fn(&[String], &(String, String)) -> Vec<String> = bpe_lab::merge_pair_in_word;
    let learn: fn(&[&str], usize) -> (Merges, BTreeSet<String>, Vec<Vec<String>>) =
        |d, n| bpe_lab::learn_bpe(d, n);

    // And they behave: one round of the lab on "aaa b".
    let (corpus, vocabulary) = initialize(&["aaa b"]);
    assert_eq!(initialize_owned(&["aaa b".to_string()]).0, corpus);
    assert_eq!(
        vocabulary,
        BTreeSet::from(["</w>".into(), "a".into(), "b".into()])
    );
    let pair = ("a".to_string(), "a".to_string());
    assert_eq!(frequencies(&corpus)[&pair], 2);
    assert_eq!(merge(&corpus[0], &pair), ["aa", "a", "</w>"]);
    let mut trained = corpus.clone();
    assert_eq!(train(&mut trained, 1), vec![pair.clone()]);
    assert_eq!(apply(&corpus[0], std::slice::from_ref(&pair)), trained[0]);
    assert_eq!(learn(&["aaa b"], 1).0, vec![pair]);
}
