//! Every example of the course's Python originals verbatim (the training, simplified-trainer and
//! apply-merges problems), and one test per case those problems describe. Expected values are copied from their texts, never produced by this
//! crate.

use bpe_lab::bpe::oracle::{apply_merges_naive, train_bpe_naive};
use bpe_lab::{TieBreak, Trainer, apply_merges, train_bpe};

fn word(symbols: &[&str]) -> Vec<String> {
    symbols.iter().map(|s| s.to_string()).collect()
}

fn chars(w: &str) -> Vec<String> {
    w.chars().map(String::from).collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Runs the fast `train_bpe` and the literal oracle on the same corpus, checks they agree, and
/// returns the fast result.
fn train_both(corpus: Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    let mut fast = corpus.clone();
    let mut naive = corpus;
    let merges = train_bpe(&mut fast, num_merges);
    assert_eq!(
        merges,
        train_bpe_naive(&mut naive, num_merges, TieBreak::Lexicographic)
    );
    assert_eq!(fast, naive, "corpus after training");
    merges
}

// ---- the training problem: train BPE merges ----

#[test]
fn seed000_example1_three_rounds_with_a_tie_in_round_2() {
    let mut corpus = vec![word(&["a", "b", "c", "a", "b"])];
    let merges = train_bpe(&mut corpus, 3);
    assert_eq!(merges, pairs(&[("a", "b"), ("ab", "c"), ("abc", "ab")]));
    assert_eq!(corpus, vec![word(&["abcab"])], "corpus after round 3");
}

#[test]
fn seed000_example1_corpus_after_each_round() {
    let start = vec![word(&["a", "b", "c", "a", "b"])];
    let after = [
        vec![word(&["ab", "c", "ab"])],
        vec![word(&["abc", "ab"])],
        vec![word(&["abcab"])],
    ];
    for (rounds, expected) in after.iter().enumerate() {
        let mut corpus = start.clone();
        train_bpe(&mut corpus, rounds + 1);
        assert_eq!(&corpus, expected, "after round {}", rounds + 1);
    }
}

#[test]
fn seed000_example2_lexicographic_tie_breaking() {
    let merges = train_both(vec![word(&["a", "b"]), word(&["a", "c"])], 1);
    assert_eq!(merges, pairs(&[("a", "b")]));
}

#[test]
fn seed000_example3_frequency_beats_lexicographic_order() {
    let corpus = vec![word(&["a", "b"]), word(&["x", "y", "x", "y", "x", "y"])];
    assert_eq!(train_both(corpus, 1), pairs(&[("x", "y")]));
}

#[test]
fn seed000_returns_a_list_of_merges_with_the_expected_length() {
    let corpus: Vec<Vec<String>> = ["lower", "newest", "widest"]
        .iter()
        .map(|w| chars(w))
        .collect();
    for n in [0, 1, 4, 7] {
        assert_eq!(train_both(corpus.clone(), n).len(), n);
    }
}

#[test]
fn seed000_diagnostic_simple_corpus_produces_expected_merge_sequence() {
    let merges = train_both(vec![word(&["a", "b", "c", "a", "b"])], 3);
    assert_eq!(merges, pairs(&[("a", "b"), ("ab", "c"), ("abc", "ab")]));
}

#[test]
fn seed000_stops_early_when_no_adjacent_pairs_remain() {
    // "ab" + "cd": two merges leave single-token words; asking for ten gives two.
    let merges = train_both(vec![word(&["a", "b"]), word(&["c", "d"])], 10);
    assert_eq!(merges, pairs(&[("a", "b"), ("c", "d")]));
    // Single-token and empty words have no pair at all: an empty list.
    assert!(train_both(vec![word(&["a"]), word(&[]), word(&["bc"])], 5).is_empty());
    assert!(train_both(vec![], 5).is_empty());
}

#[test]
fn seed000_lexicographic_tie_breaking_on_pair_tuples() {
    // All three pairs occur once; the smallest tuple compares the first element, then the
    // second: ("b", "a") < ("b", "c") < ("c", "a").
    let corpus = vec![word(&["c", "a"]), word(&["b", "c"]), word(&["b", "a"])];
    assert_eq!(train_both(corpus, 1), pairs(&[("b", "a")]));
    // Strings compare by code point: "B" < "a" and "ab" < "b".
    let corpus = vec![word(&["a", "x"]), word(&["B", "x"])];
    assert_eq!(train_both(corpus, 1), pairs(&[("B", "x")]));
    let corpus = vec![word(&["b", "x"]), word(&["ab", "x"])];
    assert_eq!(train_both(corpus, 1), pairs(&[("ab", "x")]));
}

#[test]
fn seed000_picks_the_most_frequent_pair_over_a_lexicographically_earlier_rarer_one() {
    let corpus = vec![word(&["a", "a"]), word(&["z", "z"]), word(&["z", "z"])];
    assert_eq!(train_both(corpus, 1), pairs(&[("z", "z")]));
}

#[test]
fn seed000_realistic_corpus_low_lower_newer_produces_sensible_merges() {
    let mut corpus = Vec::new();
    for (w, times) in [("low", 5), ("lower", 2), ("newer", 6)] {
        for _ in 0..times {
            let mut symbols = chars(w);
            symbols.push("</w>".into());
            corpus.push(symbols);
        }
    }
    let merges = train_both(corpus, 6);
    // Counted by hand. Round 1: (e,r), (r,</w>), (w,e) all 8; ("e","r") is the smallest.
    // Round 2: (er,</w>) = 8. Round 3: (w,er</w>) = 8 (lower 2 + newer 6). Round 4: (l,o) = 7.
    // Round 5: (n,e) and (e,wer</w>) tie at 6, ahead of (lo,w) = 5; "e" < "n".
    // Round 6: (n,ewer</w>) = 6.
    assert_eq!(
        merges,
        pairs(&[
            ("e", "r"),
            ("er", "</w>"),
            ("w", "er</w>"),
            ("l", "o"),
            ("e", "wer</w>"),
            ("n", "ewer</w>"),
        ])
    );
}

// ---- the simplified-trainer problem: the simplified trainer (Counter.most_common, stop when freq < 2) ----

#[test]
fn seed001_low_lower_newest_widest_first_seen_with_minimum_frequency_two() {
    let training = Trainer::new(5)
        .tie_break(TieBreak::FirstSeen)
        .min_frequency(2)
        .train_paragraphs(&["low", "lower", "newest", "widest"]);
    let expected = pairs(&[
        ("l", "o"),
        ("lo", "w"),
        ("e", "s"),
        ("es", "t"),
        ("est", "</w>"),
    ]);
    assert_eq!(training.merges, expected);
    let words: Vec<Vec<String>> = (0..training.words.len())
        .map(|i| training.words.word_strings(i))
        .collect();
    assert_eq!(
        words,
        vec![
            word(&["low", "</w>"]),
            word(&["low", "e", "r", "</w>"]),
            word(&["n", "e", "w", "est</w>"]),
            word(&["w", "i", "d", "est</w>"]),
        ]
    );
}

// ---- the apply-merges problem: apply merges ----

/// The fast `apply_merges` and the literal oracle must agree; returns the fast result.
fn apply_both(tokens: &[&str], merges: &[(&str, &str)]) -> Vec<String> {
    let (tokens, merges) = (word(tokens), pairs(merges));
    let fast = apply_merges(&tokens, &merges);
    assert_eq!(fast, apply_merges_naive(&tokens, &merges));
    fast
}

#[test]
fn seed002_example1_cascading_merges_collapse_to_one_token() {
    assert_eq!(
        apply_both(&["l", "o", "w"], &[("l", "o"), ("lo", "w")]),
        ["low"]
    );
}

#[test]
fn seed002_example2_priority_decides_and_changes_the_outcome() {
    assert_eq!(
        apply_both(&["l", "o", "w"], &[("l", "o"), ("o", "w")]),
        ["lo", "w"]
    );
}

#[test]
fn seed002_example3_a_merge_enables_a_later_one() {
    assert_eq!(
        apply_both(&["e", "r", "</w>"], &[("e", "r"), ("er", "</w>")]),
        ["er</w>"]
    );
}

#[test]
fn seed002_no_merges_leaves_input_unchanged() {
    assert_eq!(apply_both(&["l", "o", "w"], &[]), ["l", "o", "w"]);
}

#[test]
fn seed002_single_merge_applies_once() {
    assert_eq!(apply_both(&["a", "b", "c"], &[("a", "b")]), ["ab", "c"]);
}

#[test]
fn seed002_cascading_merges_produce_a_single_token() {
    let merges = [
        ("l", "o"),
        ("lo", "w"),
        ("e", "r"),
        ("low", "er"),
        ("lower", "</w>"),
    ];
    assert_eq!(
        apply_both(&["l", "o", "w", "e", "r", "</w>"], &merges),
        ["lower</w>"]
    );
}

#[test]
fn seed002_priority_is_respected_earlier_merge_fires_first() {
    assert_eq!(
        apply_both(&["a", "b", "c"], &[("b", "c"), ("a", "b")]),
        ["a", "bc"]
    );
    assert_eq!(
        apply_both(&["a", "b", "c"], &[("a", "b"), ("b", "c")]),
        ["ab", "c"]
    );
}

#[test]
fn seed002_multiple_non_overlapping_merges_in_one_input() {
    let merges = [("a", "b"), ("c", "d")];
    assert_eq!(
        apply_both(&["a", "b", "x", "c", "d", "a", "b"], &merges),
        ["ab", "x", "cd", "ab"]
    );
}

#[test]
fn seed002_merge_that_creates_a_new_merge_candidate() {
    let merges = [("b", "c"), ("a", "bc")];
    assert_eq!(apply_both(&["a", "b", "c"], &merges), ["abc"]);
}

#[test]
fn seed002_no_applicable_merge_stops_the_loop_cleanly() {
    assert_eq!(
        apply_both(&["x", "y", "z"], &[("a", "b"), ("y", "x")]),
        ["x", "y", "z"]
    );
}

#[test]
fn seed002_single_token_input_is_a_no_op() {
    assert_eq!(apply_both(&["low"], &[("l", "o")]), ["low"]);
    assert_eq!(apply_both(&[], &[("l", "o")]), Vec::<String>::new());
}

#[test]
fn seed002_leftmost_occurrence_first_then_rescan() {
    // ("a","a") fires on the leftmost occurrence; the rescan then prefers ("aa","a") (rank 0)
    // over the remaining ("a","a"): [a,a,a,a] -> [aa,a,a] -> [aaa,a]. Merging every (a,a)
    // in one round would give [aa,aa] instead.
    assert_eq!(
        apply_both(&["a", "a", "a", "a"], &[("aa", "a"), ("a", "a")]),
        ["aaa", "a"]
    );
}

#[test]
fn seed002_duplicate_pair_keeps_its_first_rank() {
    // ("b","c") is listed at 0 and 2; its rank is 0, so it beats ("a","b") at 1.
    let merges = [("b", "c"), ("a", "b"), ("b", "c")];
    assert_eq!(apply_both(&["a", "b", "c"], &merges), ["a", "bc"]);
}
