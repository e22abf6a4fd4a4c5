//! The tokenizer's vocabulary, encode and decode, against expectations built independently:
//! the literal oracle's merges and `apply_merges_naive`, vocabularies assembled here by the
//! documented rule, the tokenizer notebook's printed output and its code run in Python.

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use bpe_lab::bpe::oracle::{apply_merges_naive, train_bpe_naive};
use bpe_lab::tokenizer::{
    CharLevelTokenizer, DecodeError, Split, TokenizerConfig, TokenizerError, TrainingSettings,
    VocabOrder, is_python_whitespace,
};
use bpe_lab::{EOW, TieBreak, bpe_initialize};
use proptest::prelude::*;
use serde_json::json;
use support::{Rng, python_script};

/// Python's `str.isspace()` characters, as Python 3 lists them (checked live in
/// `python_whitespace_is_pythons`).
const PYTHON_WHITESPACE: &[char] = &[
    '\t', '\n', '\u{B}', '\u{C}', '\r', '\u{1C}', '\u{1D}', '\u{1E}', '\u{1F}', ' ', '\u{85}',
    '\u{A0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}',
    '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}',
    '\u{205F}', '\u{3000}',
];

/// Python's `text.split()`, spelled out.
fn python_split(text: &str) -> Vec<&str> {
    text.split(|c| PYTHON_WHITESPACE.contains(&c))
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn python_whitespace_is_pythons() {
    let output = Command::new("python3")
        .args([
            "-c",
            "import sys; sys.stdout.write(','.join(str(c) for c in range(0x110000) if chr(c).isspace()))",
        ])
        .output()
        .expect("python3 is needed for this test");
    let listed: Vec<u32> = String::from_utf8(output.stdout)
        .unwrap()
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    let ours: Vec<u32> = PYTHON_WHITESPACE.iter().map(|&c| c as u32).collect();
    assert_eq!(listed, ours);
    let all: Vec<u32> = (0..=0x10FFFFu32)
        .filter_map(char::from_u32)
        .filter(|&c| is_python_whitespace(c))
        .map(|c| c as u32)
        .collect();
    assert_eq!(all, ours);
}

/// The vocabulary the documented merge order gives, assembled here from the rule.
fn merge_order_vocab(
    specials: &[&str],
    alphabet: &BTreeSet<char>,
    merges: &[(String, String)],
) -> Vec<String> {
    let mut vocab: Vec<String> = specials.iter().map(|s| s.to_string()).collect();
    vocab.push(EOW.to_string());
    vocab.extend(alphabet.iter().map(|c| c.to_string()));
    for (a, b) in merges {
        let token = format!("{a}{b}");
        if !vocab.contains(&token) {
            vocab.push(token);
        }
    }
    vocab
}

/// The characters of `paragraphs` that are in some word (all but the spaces).
fn characters(paragraphs: &[String]) -> BTreeSet<char> {
    paragraphs
        .iter()
        .flat_map(|p| p.chars())
        .filter(|&c| c != ' ')
        .collect()
}

/// Merge-order ids on many small trained corpora.
#[test]
fn merge_order_ids_follow_the_documented_rule() {
    let mut rng = Rng(11);
    for round in 0..300 {
        let paragraphs: Vec<String> = (0..1 + rng.next() % 6)
            .map(|_| rng.text(&["a", "a", "b", " ", "é"], 16))
            .collect();
        let n = (rng.next() % 30) as usize;
        let policy = if round % 2 == 0 {
            TieBreak::Lexicographic
        } else {
            TieBreak::FirstSeen
        };
        let (mut corpus, _) = bpe_initialize(&paragraphs);
        let merges = train_bpe_naive(&mut corpus, n, policy);
        let tokenizer = CharLevelTokenizer::train_with(
            &paragraphs,
            TrainingSettings::new(n).tie_break(policy),
            TokenizerConfig::default(),
        )
        .unwrap();
        assert_eq!(tokenizer.merges(), merges);
        let expected = merge_order_vocab(&["<PAD>", "<UNK>"], &characters(&paragraphs), &merges);
        assert_eq!(tokenizer.vocab().tokens(), expected, "{paragraphs:?}");
        for (id, token) in expected.iter().enumerate() {
            assert_eq!(tokenizer.vocab().id(token), Some(id as u32));
        }
    }
}

/// Arbitrary merge lists (each merge joins two symbols available so far), where results
/// collide with earlier tokens (`a`+`ab` = `aa`+`b`): ids by the documented rule, no string
/// twice, and every word encoded as the apply-merges problem's literal `apply_merges` does.
#[test]
fn hand_made_merge_lists_with_collisions() {
    let mut rng = Rng(5);
    let mut collisions = 0;
    for _ in 0..500 {
        let mut available: Vec<String> = ["a", "b", EOW].map(String::from).to_vec();
        let mut merges: Vec<(String, String)> = Vec::new();
        for _ in 0..rng.next() % 20 {
            let left = available[(rng.next() % available.len() as u64) as usize].clone();
            let right = available[(rng.next() % available.len() as u64) as usize].clone();
            if merges.contains(&(left.clone(), right.clone())) {
                continue;
            }
            available.push(format!("{left}{right}"));
            merges.push((left, right));
        }
        let alphabet = BTreeSet::from(['a', 'b']);
        let expected = merge_order_vocab(&["<PAD>", "<UNK>"], &alphabet, &merges);
        if expected.len() < 5 + merges.len() {
            collisions += 1;
        }
        for order in [VocabOrder::MergeOrder, VocabOrder::Sorted] {
            let tokenizer = CharLevelTokenizer::new(
                alphabet.iter().copied(),
                merges.clone(),
                TokenizerConfig::default().order(order),
            )
            .unwrap();
            let vocab = tokenizer.vocab().tokens();
            let distinct: BTreeSet<&String> = vocab.iter().collect();
            assert_eq!(distinct.len(), vocab.len(), "no token twice");
            if order == VocabOrder::MergeOrder {
                assert_eq!(vocab, expected);
            } else {
                let mut sorted = expected[2..].to_vec();
                sorted.sort();
                assert_eq!(&vocab[2..], sorted);
            }
            for _ in 0..10 {
                let text = rng.text(&["a", "a", "b", " ", "c"], 16);
                let ids = oracle_ids(&text, Split::Space, &merges, &alphabet, vocab);
                assert_eq!(tokenizer.encode(&text), ids, "{text:?} with {merges:?}");
            }
        }
    }
    assert!(
        collisions > 10,
        "the lists exercised collisions ({collisions})"
    );
}

/// The tokenizer notebook's corpus, first-seen tie-break, 15 merges: the merges it prints and its printed
/// `token2id`, shifted by the special tokens in front and by the space the tokenizer notebook counts as a
/// character (bpe-lab's alphabet comes from words, which hold no space).
#[test]
fn sorted_ids_are_seed_004s_token2id() {
    let corpus = [
        "This is the first document.",
        "This document is the second document.",
        "And this is the third one.",
        "Is this the first document?",
    ];
    let printed_merges = [
        ("s", "</w>"),
        ("i", "s</w>"),
        ("t", "h"),
        ("th", "e"),
        ("the", "</w>"),
        ("d", "o"),
        ("do", "c"),
        ("doc", "u"),
        ("docu", "m"),
        ("docum", "e"),
        ("docume", "n"),
        ("documen", "t"),
        ("i", "r"),
        (".", "</w>"),
        ("d", "</w>"),
    ];
    let printed_token2id = [
        (" ", 0),
        (".", 1),
        (".</w>", 2),
        ("</w>", 3),
        ("?", 4),
        ("A", 5),
        ("I", 6),
        ("T", 7),
        ("c", 8),
        ("d", 9),
        ("d</w>", 10),
        ("do", 11),
        ("doc", 12),
        ("docu", 13),
        ("docum", 14),
        ("docume", 15),
        ("documen", 16),
        ("document", 17),
        ("e", 18),
        ("f", 19),
        ("h", 20),
        ("i", 21),
        ("ir", 22),
        ("is</w>", 23),
        ("m", 24),
        ("n", 25),
        ("o", 26),
        ("r", 27),
        ("s", 28),
        ("s</w>", 29),
        ("t", 30),
        ("th", 31),
        ("the", 32),
        ("the</w>", 33),
        ("u", 34),
    ];
    let tokenizer = CharLevelTokenizer::train_with(
        &corpus,
        TrainingSettings::new(15).tie_break(TieBreak::FirstSeen),
        TokenizerConfig::default().order(VocabOrder::Sorted),
    )
    .unwrap();
    let merges: Vec<(&str, &str)> = tokenizer
        .merges()
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(merges, printed_merges);
    assert_eq!(tokenizer.vocab().len(), 2 + printed_token2id.len() - 1);
    assert_eq!(&tokenizer.vocab().tokens()[..2], ["<PAD>", "<UNK>"]);
    for (token, seed_id) in printed_token2id.into_iter().skip(1) {
        assert_eq!(
            tokenizer.vocab().id(token),
            Some(seed_id - 1 + 2),
            "{token}"
        );
    }
}

/// The tokenizer notebook's encoder and decoder, run in Python: with the sorted order and the whitespace
/// split, bpe-lab gives the seed's ids (shifted as above) and the seed's decoded text; where
/// the seed silently drops an unknown character, bpe-lab has `<UNK>`.
#[test]
fn encode_and_decode_are_seed_004s_run_in_python() {
    let corpus = [
        "This is the first document.",
        "This document is the second document.",
        "And this is the third one.",
        "Is this the first document?",
    ];
    let texts = [
        "This is the first document.",
        "  Is   this\tthe second document?  ",
        "the third document is the first one.",
        "documents\nfirst?",
        "This is a zebra.", // 'a', 'z', 'b' are not in the vocabulary
        "",
    ];
    let theirs = python_script(
        "seed004.py",
        &json!({"corpus": corpus, "num_merges": 15, "texts": texts}),
    );
    let tokenizer = CharLevelTokenizer::train_with(
        &corpus,
        TrainingSettings::new(15).tie_break(TieBreak::FirstSeen),
        TokenizerConfig::default()
            .order(VocabOrder::Sorted)
            .split(Split::Whitespace),
    )
    .unwrap();
    let token2id: BTreeMap<String, u32> =
        serde_json::from_value(theirs["token2id"].clone()).unwrap();
    for (token, id) in &token2id {
        if token != " " {
            assert_eq!(tokenizer.vocab().id(token), Some(id + 1), "{token}");
        }
    }
    let unk = tokenizer.vocab().unk_id();
    for (i, text) in texts.iter().enumerate() {
        let ours = tokenizer.encode(text);
        let seed: Vec<u32> = theirs["encoded"][i]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_u64().unwrap() as u32 + 1)
            .collect();
        let known: Vec<u32> = ours.iter().copied().filter(|&id| id != unk).collect();
        assert_eq!(known, seed, "{text:?}");
        if !ours.contains(&unk) {
            assert_eq!(
                tokenizer.decode(&ours).unwrap(),
                theirs["decoded"][i].as_str().unwrap(),
                "{text:?}"
            );
        }
    }
    assert_eq!(
        tokenizer.tokenize("zebra"),
        ["<UNK>", "e", "<UNK>", "r", "<UNK>", "</w>"]
    );
}

/// What the oracle says `text` encodes to: each word (per `split`) as its characters and
/// `</w>`, merged by the apply-merges problem's literal `apply_merges`, each token looked up in `vocab`, and
/// a token that is a character outside `alphabet` as `<UNK>`.
fn oracle_ids(
    text: &str,
    split: Split,
    merges: &[(String, String)],
    alphabet: &BTreeSet<char>,
    vocab: &[String],
) -> Vec<u32> {
    let words: Vec<&str> = match split {
        Split::Space => text.split(' ').collect(),
        Split::Whitespace => python_split(text),
    };
    let id = |token: &str| vocab.iter().position(|t| t == token).unwrap() as u32;
    let mut ids = Vec::new();
    for word in words {
        let mut symbols: Vec<String> = word.chars().map(String::from).collect();
        symbols.push(EOW.to_string());
        for token in apply_merges_naive(&symbols, merges) {
            let mut chars = token.chars();
            let lone = chars.next().filter(|_| chars.next().is_none());
            match lone {
                Some(c) if !alphabet.contains(&c) => ids.push(id("<UNK>")),
                _ => ids.push(id(&token)),
            }
        }
    }
    ids
}

fn training_text() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[aab \t\né日]{0,24}", 1..8)
}

/// Text with characters training never sees (`z`, `ü`, `\u{3000}`, `\r`) and Python-only
/// whitespace (`\u{1F}`), but never `<`: a text spelling `</w>` is the one thing decoding
/// cannot give back (the marker is in-band, as in the lab).
fn any_text() -> impl Strategy<Value = String> {
    "[aab \t\né日zü\u{3000}\r\u{1F}]{0,40}"
}

proptest! {
    #![proptest_config(crate::support::saved_cases::config(400))]

    #[test]
    fn encode_is_the_oracle_on_every_word(
        paragraphs in training_text(),
        n in 0usize..40,
        texts in prop::collection::vec(any_text(), 1..6),
        whitespace in any::<bool>(),
        sorted in any::<bool>(),
    ) {
        let split = if whitespace { Split::Whitespace } else { Split::Space };
        let order = if sorted { VocabOrder::Sorted } else { VocabOrder::MergeOrder };
        let (mut corpus, _) = bpe_initialize(&paragraphs);
        let merges = train_bpe_naive(&mut corpus, n, TieBreak::Lexicographic);
        let alphabet = characters(&paragraphs);
        let tokenizer = CharLevelTokenizer::train_with(
            &paragraphs,
            TrainingSettings::new(n),
            TokenizerConfig::default().split(split).order(order),
        ).unwrap();
        let vocab = tokenizer.vocab().tokens().to_vec();
        for text in &texts {
            let expected = oracle_ids(text, split, &merges, &alphabet, &vocab);
            prop_assert_eq!(&tokenizer.encode(text), &expected, "{:?}", text);
            // The uncached path is the same function.
            let mut uncached = Vec::new();
            let mut ids = Vec::new();
            for word in split.words(text) {
                tokenizer.encode_word_uncached(word, &mut ids);
                uncached.extend_from_slice(&ids);
            }
            prop_assert_eq!(&uncached, &expected);
        }
    }

    /// Decoding gives the text back: exactly under the lab's split, with whitespace runs made
    /// single spaces under the whitespace split; every unknown character reads `<UNK>`.
    #[test]
    fn decode_gives_the_text_back(
        paragraphs in training_text(),
        n in 0usize..40,
        text in any_text(),
    ) {
        let mut tokenizer = CharLevelTokenizer::train(&paragraphs, n);
        let alphabet = characters(&paragraphs);
        let known: String = text
            .chars()
            .map(|c| if c == ' ' || alphabet.contains(&c) { c.to_string() } else { "<UNK>".into() })
            .collect();
        let ids = tokenizer.encode(&text);
        prop_assert_eq!(tokenizer.decode(&ids).unwrap(), known.clone());

        tokenizer.set_split(Split::Whitespace);
        let ids = tokenizer.encode(&text);
        // Unknown whitespace characters are separators, so normalize first, then mark.
        let normalized = python_split(&text).join(" ");
        let expected: String = normalized
            .chars()
            .map(|c| if c == ' ' || alphabet.contains(&c) { c.to_string() } else { "<UNK>".into() })
            .collect();
        prop_assert_eq!(tokenizer.decode(&ids).unwrap(), expected);
    }

    /// Any id sequence decodes or is refused with the first bad id, without panicking.
    #[test]
    fn decode_never_panics(ids in prop::collection::vec(0u32..40, 0..30)) {
        let tokenizer = CharLevelTokenizer::train(&["ab ba abab"], 5);
        let size = tokenizer.vocab().len() as u32;
        match tokenizer.decode(&ids) {
            Ok(_) => prop_assert!(ids.iter().all(|&id| id < size)),
            Err(DecodeError { id, position, vocab_size }) => {
                prop_assert_eq!(vocab_size as u32, size);
                prop_assert_eq!(ids[position], id);
                prop_assert!(id >= size);
                prop_assert!(ids[..position].iter().all(|&i| i < size));
            }
        }
    }
}

#[test]
fn out_of_range_ids_are_an_error() {
    let tokenizer = CharLevelTokenizer::train(&["low lower"], 3);
    let size = tokenizer.vocab().len() as u32;
    let err = tokenizer.decode(&[3, size, 4]).unwrap_err();
    assert_eq!(
        err,
        DecodeError {
            id: size,
            position: 1,
            vocab_size: size as usize
        }
    );
    assert!(err.to_string().contains(&format!("0 to {}", size - 1)));
    assert!(tokenizer.decode(&[u32::MAX]).is_err());
}

/// Unknown characters are never dropped: one `<UNK>` each, in place.
#[test]
fn unknown_characters_become_unk_in_place() {
    let tokenizer = CharLevelTokenizer::train(&["ab ab"], 1);
    assert_eq!(
        tokenizer.tokenize("xaby  ab"),
        ["<UNK>", "ab", "<UNK>", "</w>", "</w>", "ab", "</w>"]
    );
    assert_eq!(
        tokenizer.decode(&tokenizer.encode("xaby  ab")).unwrap(),
        "<UNK>ab<UNK>  ab"
    );
}

#[test]
fn special_tokens_are_configurable_and_checked() {
    let config = TokenizerConfig::default()
        .special_tokens(["[PAD]", "[UNK]", "[BOS]"])
        .unk_token("[UNK]");
    let tokenizer =
        CharLevelTokenizer::train_with(&["ab ab"], TrainingSettings::new(1), config).unwrap();
    assert_eq!(
        &tokenizer.vocab().tokens()[..4],
        ["[PAD]", "[UNK]", "[BOS]", EOW]
    );
    assert_eq!(tokenizer.encode("z"), [1, 3]);
    // Special tokens decode to their text.
    assert_eq!(tokenizer.decode(&[2, 4, 3]).unwrap(), "[BOS]a");

    let build = |specials: &[&str], unk: &str| {
        CharLevelTokenizer::new(
            "ab".chars(),
            Vec::new(),
            TokenizerConfig::default()
                .special_tokens(specials.iter().copied())
                .unk_token(unk),
        )
        .map(|_| ())
    };
    assert_eq!(
        build(&["<PAD>"], "<UNK>"),
        Err(TokenizerError::UnkNotSpecial("<UNK>".into()))
    );
    assert_eq!(
        build(&["<UNK>", "<UNK>"], "<UNK>"),
        Err(TokenizerError::DuplicateSpecialToken("<UNK>".into()))
    );
    assert_eq!(
        build(&["", "<UNK>"], "<UNK>"),
        Err(TokenizerError::EmptySpecialToken)
    );
    assert_eq!(
        build(&["a", "<UNK>"], "<UNK>"),
        Err(TokenizerError::SpecialIsBaseSymbol("a".into()))
    );
    assert_eq!(
        build(&[EOW, "<UNK>"], "<UNK>"),
        Err(TokenizerError::SpecialIsBaseSymbol(EOW.into()))
    );
    assert_eq!(
        build(&["x</w>", "<UNK>"], "<UNK>"),
        Err(TokenizerError::SpecialHasEndOfWord("x</w>".into()))
    );
    assert_eq!(build(&["<UNK>"], "<UNK>"), Ok(()));
}

#[test]
fn merge_lists_are_checked() {
    let pairs = |items: &[(&str, &str)]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let build = |merges| CharLevelTokenizer::new("abc".chars(), merges, TokenizerConfig::default());
    assert_eq!(
        build(pairs(&[("a", "b"), ("c", "a"), ("a", "b")])).unwrap_err(),
        TokenizerError::DuplicateMerge {
            index: 2,
            first: 0,
            pair: ("a".into(), "b".into())
        }
    );
    // "ab" is used before a merge makes it; "d" is not in the alphabet.
    let err = build(pairs(&[("ab", "c"), ("a", "b")])).unwrap_err();
    assert!(
        matches!(&err, TokenizerError::DanglingMerge { index: 0, missing, .. } if missing == "ab"),
        "{err}"
    );
    assert!(err.to_string().contains("can never apply"));
    let err = build(pairs(&[("a", "d")])).unwrap_err();
    assert!(matches!(&err, TokenizerError::DanglingMerge { missing, .. } if missing == "d"));
    assert!(build(pairs(&[("a", "b"), ("ab", EOW), ("c", "ab</w>")])).is_ok());
}

/// The apply-merges problem's rule with a list training would not give: the lower rank first, wherever it is.
#[test]
fn encoding_applies_the_lowest_rank_first() {
    let merges = vec![
        ("b".to_string(), "c".to_string()),
        ("a".to_string(), "b".to_string()),
    ];
    let tokenizer =
        CharLevelTokenizer::new("abc".chars(), merges, TokenizerConfig::default()).unwrap();
    assert_eq!(tokenizer.tokenize("abc"), ["a", "bc", "</w>"]);
    let merges = vec![("a".to_string(), "a".to_string())];
    let tokenizer =
        CharLevelTokenizer::new("a".chars(), merges, TokenizerConfig::default()).unwrap();
    assert_eq!(tokenizer.tokenize("aaa"), ["aa", "a", "</w>"]);
}
