//! One check per exercise of the lab notebooks, each comparing the student's function with
//! the crate's literal reference on the seeds' examples and on generated cases.

use super::cases;
use super::helpers::{generated, plain, show};
use super::run::{Spec, run};
use super::shrink::Text;
use super::{Check, Exercise, calls};
use crate::bpe::oracle::{self, best_pair};
use crate::lab::display::{python_pair, python_str};
use crate::lab::parity;
use crate::lab::reference::UNK;
use crate::{EOW, TieBreak};
use std::collections::{BTreeSet, HashMap};

/// Generated cases per check, on top of the fixed examples.
const GENERATED: usize = 300;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn chars(word: &str) -> Vec<String> {
    word.chars().map(String::from).collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

fn texts(items: Vec<String>) -> Vec<Text> {
    items.into_iter().map(Text).collect()
}

fn show_list(items: &[String]) -> String {
    let shown: Vec<String> = items.iter().map(|s| python_str(s)).collect();
    format!("[{}]", shown.join(", "))
}

fn show_corpus(corpus: &[Vec<String>]) -> String {
    let words: Vec<String> = corpus.iter().map(|w| show_list(w)).collect();
    format!("[{}]", words.join(", "))
}

fn show_pairs(pairs: &[(String, String)]) -> String {
    let shown: Vec<String> = pairs.iter().map(python_pair).collect();
    format!("[{}]", shown.join(", "))
}

fn show_set(set: &BTreeSet<String>) -> String {
    let shown: Vec<String> = set.iter().map(|s| python_str(s)).collect();
    format!("{{{}}}", shown.join(", "))
}

/// A pair-count map in a stable order (most frequent first, then by pair).
fn show_counts(counts: &HashMap<(String, String), usize>) -> String {
    let mut entries: Vec<_> = counts.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let shown: Vec<String> = entries
        .iter()
        .map(|(p, c)| format!("{}: {c}", python_pair(p)))
        .collect();
    format!("{{{}}}", shown.join(", "))
}

/// The tokenizer notebook's training corpus.
const TOKENIZER_CORPUS: [&str; 4] = [
    "This is the first document.",
    "This document is the second document.",
    "And this is the third one.",
    "Is this the first document?",
];

/// The lab's datasets: the first words of Africa Galore's first paragraph, the lab's `desert`
/// sample, the four-document corpus ("This is the first document.", …) of the tokenizer
/// notebook, and the edge cases of `split(" ")`.
fn fixed_datasets() -> Vec<Vec<String>> {
    vec![
        strings(&["The Lagos air was thick with humidity, but the energy"]),
        strings(&parity::LAB_SAMPLE_TEXT),
        strings(&TOKENIZER_CORPUS),
        strings(&["a  b"]),
        strings(&[""]),
        strings(&[]),
        strings(&[" leading", "trailing "]),
        strings(&["café naïve 日本 🙂"]),
    ]
}

/// Checks `bpe_initialize(dataset) -> (corpus, vocabulary)`: every `split(" ")` word as its
/// characters plus `"</w>"`, and the set of all symbols (with `"</w>"`).
pub fn bpe_initialize<F>(student: F) -> Check
where
    F: Fn(&[String]) -> calls::BpeInitializeOut + Send + 'static,
{
    show(run(bpe_initialize_spec(), move |a| {
        calls::bpe_initialize(&student, a)
    }))
}

pub(super) fn bpe_initialize_spec()
-> Spec<Vec<Text>, calls::BpeInitializeArgs, calls::BpeInitializeOut> {
    let cases = fixed_datasets()
        .into_iter()
        .map(texts)
        .chain(generated(GENERATED, 1, cases::texts))
        .collect();
    Spec {
        exercise: Exercise::BpeInitialize,
        hint: "Cut each paragraph with `paragraph.split(' ')`: two spaces in a row give an \
                   empty word, and that word counts too (it becomes just [\"</w>\"]). Turn each \
                   word into its characters with `word.chars().map(|c| c.to_string())`, push \
                   EOW, and put every symbol into the vocabulary, which starts out holding EOW.",
        cases,
        args: |d: &Vec<Text>| plain(d),
        reference: |d: &Vec<Text>| crate::bpe_initialize(&plain(d)),
        show_input: |d| show_list(&plain(d)),
        show_output: |(corpus, vocab)| {
            format!(
                "corpus = {}\nvocabulary = {}",
                show_corpus(corpus),
                show_set(vocab)
            )
        },
    }
}

/// Checks `get_pair_frequencies(corpus) -> counts`: every adjacent pair in every word,
/// overlapping ones too.
pub fn get_pair_frequencies<F>(student: F) -> Check
where
    F: Fn(&[Vec<String>]) -> calls::GetPairFrequenciesOut + Send + 'static,
{
    show(run(get_pair_frequencies_spec(), move |a| {
        calls::get_pair_frequencies(&student, a)
    }))
}

pub(super) fn get_pair_frequencies_spec()
-> Spec<Vec<Vec<String>>, calls::GetPairFrequenciesArgs, calls::GetPairFrequenciesOut> {
    let mut cases: Vec<Vec<Vec<String>>> = vec![
        vec![chars("rice")],
        vec![strings(&["a", "a", "a"])],
        vec![
            strings(&["T", "h", "e", EOW]),
            strings(&["t", "h", "e", EOW]),
        ],
        vec![strings(&[EOW]), vec![]],
        vec![],
        vec![strings(&["ab", "c"]), strings(&["a", "bc"])],
    ];
    cases.extend(generated(GENERATED, 2, cases::corpus));
    Spec {
        exercise: Exercise::GetPairFrequencies,
        hint: "For each word, look at every position i from 0 to len - 2 and count \
                   (word[i], word[i + 1]). Pairs overlap: [\"a\", \"a\", \"a\"] holds (a, a) \
                   twice. A word with fewer than two symbols has no pairs, and a word with none \
                   at all, [], must not panic: len() is a usize, so `word.len() - 1` cannot \
                   go below zero and panics instead; `word.windows(2)` has no such trap. \
                   `*counts.entry(pair).or_insert(0) += 1` does the counting.",
        cases,
        args: Clone::clone,
        reference: |c: &Vec<Vec<String>>| oracle::get_pair_frequencies(c),
        show_input: |c| show_corpus(c),
        show_output: show_counts,
    }
}

/// Checks `most_frequent_pair(counts) -> Option<(pair, count)>`: the highest count; among
/// equal counts the smallest pair (the lab's tie rule); `None` for an empty map.
pub fn most_frequent_pair<F>(student: F) -> Check
where
    F: Fn(&HashMap<(String, String), usize>) -> calls::MostFrequentPairOut + Send + 'static,
{
    show(run(most_frequent_pair_spec(), move |a| {
        calls::most_frequent_pair(&student, a)
    }))
}

pub(super) fn most_frequent_pair_spec()
-> Spec<Vec<Vec<String>>, calls::MostFrequentPairArgs, calls::MostFrequentPairOut> {
    let mut cases: Vec<Vec<Vec<String>>> = vec![
        vec![strings(&["a", "b", "c", "a", "b"])],
        vec![strings(&["b", "a"]), strings(&["a", "b"])],
        vec![
            strings(&["x", "y"]),
            strings(&["a", "b"]),
            strings(&["x", "y"]),
        ],
        vec![],
        vec![strings(&["B", "a"]), strings(&["a", "b"])],
    ];
    cases.extend(generated(GENERATED, 3, cases::corpus));
    Spec {
        exercise: Exercise::MostFrequentPair,
        hint: "Look at every (pair, count). Keep the best so far and replace it when the \
                   count is higher, or when the count is equal and the pair is smaller \
                   (`pair < best_pair` compares the first strings, then the second). A HashMap \
                   has no order you can rely on, which is why ties need this rule. Return None \
                   when the map is empty.",
        cases,
        args: |c: &Vec<Vec<String>>| oracle::get_pair_frequencies(c),
        reference: |c: &Vec<Vec<String>>| best_pair(c, TieBreak::Lexicographic),
        show_input: |c| show_counts(&oracle::get_pair_frequencies(c)),
        show_output: |best| match best {
            Some((p, count)) => format!("Some(({}, {count}))", python_pair(p)),
            None => "None".to_owned(),
        },
    }
}

/// Checks `merge_pair_in_word(word, pair) -> word`: one left-to-right pass, merging each
/// non-overlapping occurrence of the pair.
pub fn merge_pair_in_word<F>(student: F) -> Check
where
    F: Fn(&[String], &(String, String)) -> calls::MergePairInWordOut + Send + 'static,
{
    show(run(merge_pair_in_word_spec(), move |a| {
        calls::merge_pair_in_word(&student, a)
    }))
}

pub(super) fn merge_pair_in_word_spec()
-> Spec<(Vec<String>, (String, String)), calls::MergePairInWordArgs, calls::MergePairInWordOut> {
    let mut cases: Vec<(Vec<String>, (String, String))> = vec![
        (strings(&["T", "h", "e", EOW]), pair("e", EOW)),
        (strings(&["a", "a", "a"]), pair("a", "a")),
        (strings(&["a", "a", "a", "a"]), pair("a", "a")),
        (strings(&["a", "b", "a", "b"]), pair("a", "b")),
        (strings(&["ab", "c"]), pair("a", "bc")),
        (strings(&["d", "e", "s"]), pair("x", "y")),
        (vec![], pair("a", "b")),
    ];
    cases.extend(generated(GENERATED, 4, cases::word_and_pair));
    Spec {
        exercise: Exercise::MergePairInWord,
        hint: "Walk i from 0 with a while loop. If i + 1 < len and (word[i], word[i + 1]) \
                   equals the pair, push the two joined and move i on by 2; otherwise push \
                   word[i] and move on by 1. So [\"a\", \"a\", \"a\"] with (a, a) becomes \
                   [\"aa\", \"a\"]. Compare symbols, never search the joined string: \
                   [\"ab\", \"c\"] has no pair (a, bc).",
        cases,
        args: Clone::clone,
        reference: |(w, p): &(Vec<String>, (String, String))| oracle::merge_pair_in_word(w, p),
        show_input: |(w, p)| format!("word = {}, pair = {}", show_list(w), python_pair(p)),
        show_output: |w| show_list(w),
    }
}

/// Checks `train_bpe(&mut corpus, num_merges) -> merges`: the merges in order and
/// the corpus left behind.
pub fn train_bpe<F>(student: F) -> Check
where
    F: Fn(&mut Vec<Vec<String>>, usize) -> Vec<(String, String)> + Send + 'static,
{
    show(run(train_bpe_spec(), move |a| {
        calls::train_bpe(&student, a)
    }))
}

pub(super) fn train_bpe_spec()
-> Spec<(Vec<Vec<String>>, usize), calls::TrainBpeArgs, calls::TrainBpeOut> {
    let mut cases: Vec<(Vec<Vec<String>>, usize)> = vec![
        (vec![strings(&["a", "b", "c", "a", "b"])], 3),
        (vec![strings(&["b", "a"]), strings(&["a", "b"])], 1),
        (vec![chars("lower"), chars("low")], 2),
        (vec![strings(&["a"]), vec![]], 5),
        (crate::bpe_initialize(&parity::LAB_SAMPLE_TEXT).0, 10),
    ];
    cases.extend(generated(GENERATED, 5, |rng| {
        (cases::corpus(rng), rng.below(8))
    }));
    // The lab-parity switch decides the tie rule; read once, so one check never mixes rules.
    let (hint, reference): (&'static str, TrainBpeReference) = match parity::tie_break() {
        TieBreak::Lexicographic => (
            "Repeat num_merges times: count the pairs of the current corpus with \
                 `bpe_lab::lab::reference::get_pair_frequencies(corpus)`; stop early if there \
                 are none; take the highest count and, among equal counts, the smallest pair \
                 (03's rule: `bpe_lab::lab::reference::most_frequent_pair(&counts)` does it, or \
                 compare yourself); replace every word by \
                 `bpe_lab::lab::reference::merge_pair_in_word(word, &best)`; push best onto the \
                 merges. The corpus you were given must end up merged too.",
            |(c, n)| {
                let mut corpus = c.clone();
                let merges = oracle::train_bpe_naive(&mut corpus, *n, TieBreak::Lexicographic);
                (merges, corpus)
            },
        ),
        TieBreak::FirstSeen => (
            "Your course uses the Python lab's tie rule (`BPE_LAB_TIE_BREAK=first-seen`): \
                 among equal counts, the pair that occurs first wins, reading the corpus word by \
                 word, left to right, as the lab's Counter does. A HashMap forgets that order, \
                 so find the highest count with \
                 `bpe_lab::lab::reference::get_pair_frequencies(corpus)`, then walk the corpus \
                 and take the first adjacent pair that has it. Merge it in every word with \
                 `bpe_lab::lab::reference::merge_pair_in_word`, push it, repeat num_merges \
                 times, and stop early when no pair is left.",
            |(c, n)| {
                let mut corpus = c.clone();
                let merges = oracle::train_bpe_naive(&mut corpus, *n, TieBreak::FirstSeen);
                (merges, corpus)
            },
        ),
    };
    Spec {
        exercise: Exercise::TrainBpe,
        hint,
        cases,
        args: Clone::clone,
        reference,
        show_input: |(c, n)| format!("corpus = {}, num_merges = {n}", show_corpus(c)),
        show_output: |(merges, corpus)| {
            format!(
                "merges = {}\ncorpus after = {}",
                show_pairs(merges),
                show_corpus(corpus)
            )
        },
    }
}

/// Checks `apply_merges(tokens, merges) -> tokens`: repeatedly merge the leftmost
/// occurrence of the adjacent pair with the lowest rank.
pub fn apply_merges<F>(student: F) -> Check
where
    F: Fn(&[String], &[(String, String)]) -> calls::ApplyMergesOut + Send + 'static,
{
    show(run(apply_merges_spec(), move |a| {
        calls::apply_merges(&student, a)
    }))
}

/// The reference `train_bpe` under the tie rule a check runs with.
type TrainBpeReference = fn(&(Vec<Vec<String>>, usize)) -> calls::TrainBpeOut;

/// An `apply_merges` case: the tokens, then the merges in rank order.
type ApplyMergesCase = (Vec<String>, Vec<(String, String)>);

pub(super) fn apply_merges_spec()
-> Spec<ApplyMergesCase, calls::ApplyMergesArgs, calls::ApplyMergesOut> {
    let p = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(a, b)| pair(a, b)).collect()
    };
    let mut cases: Vec<ApplyMergesCase> = vec![
        // The apply-merges examples the course starts from, then cases where list order and
        // rank order disagree.
        (chars("low"), p(&[("l", "o"), ("lo", "w")])),
        (chars("low"), p(&[("l", "o"), ("o", "w")])),
        (strings(&["e", "r", EOW]), p(&[("e", "r"), ("er", EOW)])),
        (chars("abc"), p(&[("ab", "c"), ("a", "b")])),
        (
            chars("lower"),
            p(&[("l", "o"), ("lo", "w"), ("e", "r"), ("low", "er")]),
        ),
        (chars("abc"), p(&[("b", "c"), ("a", "b")])),
        (chars("abcd"), p(&[("c", "d"), ("b", "cd"), ("a", "b")])),
        (chars("aaaa"), p(&[("a", "a")])),
        (chars("abab"), p(&[("b", "a"), ("a", "b")])),
        (chars("xyz"), vec![]),
        (vec![], p(&[("a", "b")])),
    ];
    cases.extend(generated(GENERATED, 6, cases::tokens_and_merges));
    Spec {
        exercise: Exercise::ApplyMerges,
        hint: "A merge's rank is its index in the list (the first one if a pair is listed \
                   twice). Loop: among the adjacent pairs of the current tokens, find the one \
                   with the lowest rank; if none has a rank, stop; merge only its leftmost \
                   occurrence, then look again. Going down the merge list in order and merging \
                   everywhere gives a different answer when a later merge's pair appears first.",
        cases,
        args: Clone::clone,
        reference: |(t, m): &(Vec<String>, Vec<(String, String)>)| oracle::apply_merges_naive(t, m),
        show_input: |(t, m)| format!("tokens = {}, merges = {}", show_list(t), show_pairs(m)),
        show_output: |t| show_list(t),
    }
}

/// What the encode and decode checks train on: merges (the tie rule in force, see
/// [`parity`]), ids numbered as the tokenizer notebook does (the sorted vocabulary) and
/// `<UNK>` after them.
pub(crate) struct TinyTokenizer {
    pub merges: Vec<(String, String)>,
    pub token_to_id: HashMap<String, u32>,
    pub id_to_token: HashMap<u32, String>,
    pub unk_id: u32,
}

impl TinyTokenizer {
    pub(crate) fn train(paragraphs: &[String], num_merges: usize) -> TinyTokenizer {
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
    pub(crate) fn encode(&self, text: &str) -> Vec<u32> {
        crate::lab::reference::encode(text, &self.merges, &self.token_to_id, self.unk_id)
    }

    /// The vocabulary in id order, for showing.
    fn show(&self) -> String {
        let mut entries: Vec<(&u32, &String)> = self.id_to_token.iter().collect();
        entries.sort();
        let shown: Vec<String> = entries
            .iter()
            .map(|(i, t)| format!("{i}: {}", python_str(t)))
            .collect();
        format!("{{{}}}", shown.join(", "))
    }
}

type EncodeCase = (Vec<Text>, usize, Text);

fn encode_cases(seed: u64) -> Vec<EncodeCase> {
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
    cases.extend(generated(GENERATED, seed, cases::encode_case));
    cases
}

/// Checks `encode(text, merges, token_to_id, unk_id) -> ids`: each `split(" ")` word as its
/// characters plus `"</w>"`, merged with `apply_merges`, each token's id, `unk_id` for a token
/// not in the vocabulary.
pub fn encode<F>(student: F) -> Check
where
    F: Fn(&str, &[(String, String)], &HashMap<String, u32>, u32) -> calls::EncodeOut
        + Send
        + 'static,
{
    show(run(encode_spec(), move |a| calls::encode(&student, a)))
}

pub(super) fn encode_spec() -> Spec<EncodeCase, calls::EncodeArgs, calls::EncodeOut> {
    Spec {
        exercise: Exercise::Encode,
        hint: "For each word of text.split(' '): make its symbols (characters, then EOW), \
                   merge them with your apply_merges (or `bpe_lab::lab::reference::apply_merges`), then look each \
                   token up in token_to_id — `.get(&token).copied().unwrap_or(unk_id)` keeps an \
                   unknown character as one <UNK> instead of dropping it.",
        cases: encode_cases(7),
        args: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            (text.0.clone(), t.merges, t.token_to_id, t.unk_id)
        },
        reference: |(training, n, text): &EncodeCase| {
            TinyTokenizer::train(&plain(training), *n).encode(&text.0)
        },
        show_input: |(training, n, text)| {
            let t = TinyTokenizer::train(&plain(training), *n);
            format!(
                "text = {}\nmerges = {}\nvocabulary = {}\nunk_id = {}",
                python_str(&text.0),
                show_pairs(&t.merges),
                t.show(),
                t.unk_id
            )
        },
        show_output: |ids| format!("{ids:?}"),
    }
}

/// Checks `decode(ids, id_to_token) -> text`: tokens one after another, each `"</w>"` a space,
/// no space after the last word.
pub fn decode<F>(student: F) -> Check
where
    F: Fn(&[u32], &HashMap<u32, String>) -> calls::DecodeOut + Send + 'static,
{
    show(run(decode_spec(), move |a| calls::decode(&student, a)))
}

pub(super) fn decode_spec() -> Spec<EncodeCase, calls::DecodeArgs, calls::DecodeOut> {
    Spec {
        exercise: Exercise::Decode,
        hint: "Look each id up in id_to_token and join the tokens. A token ending in EOW \
                   ends a word: write it without the marker and put a space before the next \
                   token. Nothing follows the last word, so \"a</w>\" \"b</w>\" decodes to \
                   \"a b\", and a lone \"</w>\" (the word a double space leaves) still makes a \
                   space.",
        cases: encode_cases(8),
        args: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            (t.encode(&text.0), t.id_to_token)
        },
        reference: |(training, n, text): &EncodeCase| {
            let t = TinyTokenizer::train(&plain(training), *n);
            crate::lab::reference::decode(&t.encode(&text.0), &t.id_to_token)
        },
        show_input: |(training, n, text)| {
            let t = TinyTokenizer::train(&plain(training), *n);
            format!("ids = {:?}\nid_to_token = {}", t.encode(&text.0), t.show())
        },
        show_output: |text| python_str(text),
    }
}
