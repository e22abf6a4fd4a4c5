//! The exercise checks the notebooks call: a right answer passes, `todo!()` reads "not
//! implemented", a panic is reported with its message, a loop that never ends is cut off, and
//! each typical mistake fails with a small counterexample. The wrong versions below are
//! written from the lab's text, not from the checks' code.

use bpe_lab::lab::check::{self, Status};
use std::collections::{BTreeSet, HashMap};

type Pair = (String, String);

fn symbols(word: &str) -> Vec<String> {
    let mut s: Vec<String> = word.chars().map(String::from).collect();
    s.push("</w>".into());
    s
}

// ---- bpe_initialize ----

fn initialize_right(dataset: &[String]) -> (Vec<Vec<String>>, BTreeSet<String>) {
    let mut corpus = Vec::new();
    let mut vocabulary = BTreeSet::from(["</w>".to_string()]);
    for paragraph in dataset {
        for word in paragraph.split(' ') {
            let s = symbols(word);
            vocabulary.extend(s.iter().cloned());
            corpus.push(s);
        }
    }
    (corpus, vocabulary)
}

fn initialize_whitespace(dataset: &[String]) -> (Vec<Vec<String>>, BTreeSet<String>) {
    let mut corpus = Vec::new();
    let mut vocabulary = BTreeSet::from(["</w>".to_string()]);
    for paragraph in dataset {
        for word in paragraph.split_whitespace() {
            let s = symbols(word);
            vocabulary.extend(s.iter().cloned());
            corpus.push(s);
        }
    }
    (corpus, vocabulary)
}

fn initialize_todo(_: &[String]) -> (Vec<Vec<String>>, BTreeSet<String>) {
    todo!()
}

#[test]
fn initialize_right_passes_and_mistakes_fail() {
    let right = check::bpe_initialize(initialize_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    assert!(right.cases > 100);
    let wrong = check::bpe_initialize(initialize_whitespace);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.expect("a counterexample");
    // Shrunk: a tiny input that still holds an empty word.
    assert!(c.input.len() <= 12, "not shrunk: {}", c.input);
    assert!(c.expected.contains("['</w>']"), "{}", c.expected);
    assert_eq!(
        check::bpe_initialize(initialize_todo).status,
        Status::NotImplemented
    );
}

// ---- get_pair_frequencies ----

fn pairs_right(corpus: &[Vec<String>]) -> HashMap<Pair, usize> {
    let mut counts = HashMap::new();
    for word in corpus {
        for w in word.windows(2) {
            *counts.entry((w[0].clone(), w[1].clone())).or_insert(0) += 1;
        }
    }
    counts
}

fn pairs_without_overlaps(corpus: &[Vec<String>]) -> HashMap<Pair, usize> {
    let mut counts = HashMap::new();
    for word in corpus {
        let mut i = 0;
        while i + 1 < word.len() {
            *counts
                .entry((word[i].clone(), word[i + 1].clone()))
                .or_insert(0) += 1;
            i += if word[i] == word[i + 1] { 2 } else { 1 };
        }
    }
    counts
}

fn pairs_panicking(corpus: &[Vec<String>]) -> HashMap<Pair, usize> {
    // Indexes one past the end on the last position, as a first attempt often does.
    let mut counts = HashMap::new();
    for word in corpus {
        for i in 0..word.len() {
            *counts
                .entry((word[i].clone(), word[i + 1].clone()))
                .or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn pair_counting_checks() {
    assert_eq!(
        check::get_pair_frequencies(pairs_right).status,
        Status::Passed
    );
    let wrong = check::get_pair_frequencies(pairs_without_overlaps);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.unwrap();
    // Shrunk to one word with a run of three equal symbols.
    assert!(c.expected.contains(": 2"), "{c:?}");
    assert!(c.input.len() <= 24, "not shrunk: {}", c.input);
    let panicked = check::get_pair_frequencies(pairs_panicking);
    assert_eq!(panicked.status, Status::Panicked);
    assert!(
        panicked
            .message
            .starts_with("your code panicked: index out of bounds"),
        "{}",
        panicked.message
    );
    let input = panicked.counterexample.unwrap().input;
    assert!(input.len() <= 10, "not shrunk: {input}");
}

// ---- most_frequent_pair ----

fn best_right(freqs: &HashMap<Pair, usize>) -> Option<(Pair, usize)> {
    let mut best: Option<(&Pair, usize)> = None;
    for (pair, &count) in freqs {
        if best.is_none_or(|(b, c)| count > c || (count == c && pair < b)) {
            best = Some((pair, count));
        }
    }
    best.map(|(p, c)| (p.clone(), c))
}

fn best_largest_on_ties(freqs: &HashMap<Pair, usize>) -> Option<(Pair, usize)> {
    freqs
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| a.0.cmp(b.0)))
        .map(|(p, c)| (p.clone(), *c))
}

#[test]
fn tie_breaking_checks() {
    assert_eq!(check::most_frequent_pair(best_right).status, Status::Passed);
    let wrong = check::most_frequent_pair(best_largest_on_ties);
    assert_eq!(wrong.status, Status::Failed);
    assert!(!wrong.hint.is_empty());
}

// ---- merge_pair_in_word ----

fn merge_right(word: &[String], pair: &Pair) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!("{}{}", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}

fn merge_by_string_replace(word: &[String], pair: &Pair) -> Vec<String> {
    // Joins with spaces and replaces text: wrong when symbols contain each other.
    let joined = word.join(" ");
    let replaced = joined.replace(
        &format!("{} {}", pair.0, pair.1),
        &format!("{}{}", pair.0, pair.1),
    );
    if replaced.is_empty() {
        Vec::new()
    } else {
        replaced.split(' ').map(String::from).collect()
    }
}

#[test]
fn merge_checks() {
    assert_eq!(
        check::merge_pair_in_word(merge_right).status,
        Status::Passed
    );
    assert_eq!(
        check::merge_pair_in_word(merge_by_string_replace).status,
        Status::Failed
    );
}

// ---- train_bpe ----

#[allow(clippy::ptr_arg)] // a student's function has the fixed API's signature
fn train_right(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<Pair> {
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let Some((pair, _)) = best_right(&pairs_right(corpus)) else {
            break;
        };
        for word in corpus.iter_mut() {
            *word = merge_right(word, &pair);
        }
        merges.push(pair);
    }
    merges
}

#[allow(clippy::ptr_arg)] // a student's function has the fixed API's signature
fn train_without_merging_the_corpus(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<Pair> {
    let mut copy = corpus.clone();
    train_right(&mut copy, num_merges)
}

#[test]
fn training_checks() {
    assert_eq!(check::train_bpe(train_right).status, Status::Passed);
    let wrong = check::train_bpe(train_without_merging_the_corpus);
    assert_eq!(wrong.status, Status::Failed);
    assert!(
        wrong
            .counterexample
            .unwrap()
            .expected
            .contains("corpus after")
    );
}

// ---- apply_merges ----

fn apply_right(tokens: &[String], merges: &[Pair]) -> Vec<String> {
    let mut tokens = tokens.to_vec();
    loop {
        let mut best: Option<(usize, usize)> = None; // (rank, position)
        for i in 0..tokens.len().saturating_sub(1) {
            if let Some(rank) = merges
                .iter()
                .position(|(a, b)| *a == tokens[i] && *b == tokens[i + 1])
                && best.is_none_or(|(r, _)| rank < r)
            {
                best = Some((rank, i));
            }
        }
        let Some((_, i)) = best else { return tokens };
        let merged = format!("{}{}", tokens[i], tokens[i + 1]);
        tokens.splice(i..i + 2, [merged]);
    }
}

fn apply_in_list_order(tokens: &[String], merges: &[Pair]) -> Vec<String> {
    let mut tokens = tokens.to_vec();
    for pair in merges {
        tokens = merge_right(&tokens, pair);
    }
    tokens
}

#[test]
fn applying_merges_checks() {
    assert_eq!(check::apply_merges(apply_right).status, Status::Passed);
    let wrong = check::apply_merges(apply_in_list_order);
    assert_eq!(wrong.status, Status::Failed);
}

// ---- encode / decode ----

fn encode_right(text: &str, merges: &[Pair], ids: &HashMap<String, u32>, unk: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for word in text.split(' ') {
        for token in apply_right(&symbols(word), merges) {
            out.push(ids.get(&token).copied().unwrap_or(unk));
        }
    }
    out
}

fn encode_dropping_unknown(
    text: &str,
    merges: &[Pair],
    ids: &HashMap<String, u32>,
    _: u32,
) -> Vec<u32> {
    let mut out = Vec::new();
    for word in text.split(' ') {
        for token in apply_right(&symbols(word), merges) {
            if let Some(&id) = ids.get(&token) {
                out.push(id);
            }
        }
    }
    out
}

fn decode_right(ids: &[u32], tokens: &HashMap<u32, String>) -> String {
    let joined: String = ids.iter().map(|i| tokens[i].as_str()).collect();
    let text = joined.replace("</w>", " ");
    match ids.last().map(|i| tokens[i].ends_with("</w>")) {
        Some(true) => text[..text.len() - 1].to_owned(),
        _ => text,
    }
}

fn decode_with_trim(ids: &[u32], tokens: &HashMap<u32, String>) -> String {
    let joined: String = ids.iter().map(|i| tokens[i].as_str()).collect();
    joined.replace("</w>", " ").trim().to_owned()
}

#[test]
fn encoding_and_decoding_checks() {
    assert_eq!(check::encode(encode_right).status, Status::Passed);
    let wrong = check::encode(encode_dropping_unknown);
    assert_eq!(wrong.status, Status::Failed);
    assert_eq!(check::decode(decode_right).status, Status::Passed);
    // Python's strip() also eats leading spaces and the empty words' spaces at the end.
    assert_eq!(check::decode(decode_with_trim).status, Status::Failed);
}

#[test]
fn results_are_machine_readable() {
    let result = check::decode(decode_with_trim);
    let json = result.to_json();
    assert_eq!(json["exercise"], "decode");
    assert_eq!(json["status"], "failed");
    assert!(json["message"].is_string() && json["input"].is_string());
    assert_eq!(
        Status::parse(json["status"].as_str().unwrap()),
        Some(Status::Failed)
    );
}

#[test]
fn calling_the_crates_own_answer_is_not_a_pass() {
    let result = check::most_frequent_pair(bpe_lab::lab::reference::most_frequent_pair);
    assert_eq!(result.status, Status::UsedReference, "{}", result.message);
    assert!(
        result
            .message
            .contains("bpe_lab::lab::reference::most_frequent_pair")
    );
    let result = check::merge_pair_in_word(|w: &[String], p: &(String, String)| {
        bpe_lab::merge_pair_in_word(w, p)
    });
    assert_eq!(result.status, Status::UsedReference, "{}", result.message);
    // The steps taught before an exercise are fine to use.
    let result = check::train_bpe(|corpus: &mut Vec<Vec<String>>, n: usize| {
        let mut merges = Vec::new();
        for _ in 0..n {
            let counts = bpe_lab::get_pair_frequencies(corpus);
            let Some(best) = counts
                .iter()
                .max_by(|(p, c), (q, d)| c.cmp(d).then_with(|| q.cmp(p)))
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            for word in corpus.iter_mut() {
                *word = bpe_lab::merge_pair_in_word(word, &best);
            }
            merges.push(best);
        }
        merges
    });
    assert_eq!(result.status, Status::Passed, "{}", result.message);
}
