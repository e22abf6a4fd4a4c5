//! The vocabulary: every token a tokenizer can produce, each with one id.
//!
//! Ids follow a documented, deterministic order, chosen by [`VocabOrder`]:
//!
//! - [`VocabOrder::MergeOrder`] (the default): the special tokens in the order configured
//!   (`<PAD>` = 0, `<UNK>` = 1 by default), then `</w>`, then the base alphabet (every
//!   character seen in training) sorted by code point, then each merge's result in merge
//!   order. Sorting the alphabet, rather than keeping the order characters were first met,
//!   makes ids independent of the order of the corpus' paragraphs; putting `</w>` first gives
//!   it a fixed id (the number of special tokens).
//! - [`VocabOrder::Sorted`]: the special tokens first as above, then every other token sorted
//!   by code point, ids by position: the tokenizer notebook's `sorted(set(vocab))` with the specials in
//!   front.
//!
//! A merge can produce a string that is already a token (`a`+`ab` and `aa`+`b` both make
//! `aab`; a merge can also spell a special token such as `<PAD>` from the text's characters).
//! The string keeps the id of its first appearance in the order; the vocabulary never holds a
//! string twice.
//!
//! ```
//! use bpe_lab::tokenizer::{Vocab, VocabOrder};
//! let specials = ["<PAD>".to_string(), "<UNK>".to_string()];
//! let merges = [("b".to_string(), "a".to_string())];
//! let vocab = Vocab::build(&specials, "<UNK>", ['b', 'a'], &merges, VocabOrder::MergeOrder);
//! assert_eq!(vocab.tokens(), ["<PAD>", "<UNK>", "</w>", "a", "b", "ba"]);
//! let vocab = Vocab::build(&specials, "<UNK>", ['b', 'a'], &merges, VocabOrder::Sorted);
//! assert_eq!(vocab.tokens(), ["<PAD>", "<UNK>", "</w>", "a", "b", "ba"]);
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use rustc_hash::FxHashMap;

use crate::bpe::EOW;

/// How vocabulary ids are assigned; see the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum VocabOrder {
    /// Special tokens, `</w>`, the alphabet sorted by code point, then merges in order.
    #[default]
    MergeOrder,
    /// Special tokens, then everything else sorted by code point (the tokenizer notebook).
    Sorted,
}

impl VocabOrder {
    /// The name used on the command line and in tokenizer files.
    pub fn name(self) -> &'static str {
        match self {
            VocabOrder::MergeOrder => "merge-order",
            VocabOrder::Sorted => "sorted",
        }
    }
}

impl fmt::Display for VocabOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for VocabOrder {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "merge-order" => Ok(VocabOrder::MergeOrder),
            "sorted" => Ok(VocabOrder::Sorted),
            other => Err(format!(
                "unknown vocabulary order {other:?}: expected \"merge-order\" or \"sorted\""
            )),
        }
    }
}

/// Tokens and their ids; see the [module docs](self) for the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: FxHashMap<String, u32>,
    order: VocabOrder,
    specials: usize,
    unk: u32,
}

impl Vocab {
    /// The vocabulary of `specials` (ids `0..specials.len()`), the base `alphabet` with `</w>`,
    /// and the results of `merges`, in `order`. `unk` must be one of `specials`, and the
    /// specials distinct; [`CharLevelTokenizer`](crate::tokenizer::CharLevelTokenizer) checks both before it
    /// calls this.
    ///
    /// # Panics
    /// If `unk` is not one of `specials`.
    pub fn build(
        specials: &[String],
        unk: &str,
        alphabet: impl IntoIterator<Item = char>,
        merges: &[(String, String)],
        order: VocabOrder,
    ) -> Vocab {
        let mut vocab = Vocab {
            tokens: Vec::new(),
            ids: FxHashMap::default(),
            order,
            specials: 0,
            unk: 0,
        };
        for special in specials {
            vocab.push(special);
        }
        vocab.specials = vocab.tokens.len();
        vocab.unk = vocab.ids[unk];
        let alphabet: BTreeSet<char> = alphabet.into_iter().collect();
        match order {
            VocabOrder::MergeOrder => {
                vocab.push(EOW);
                let mut buf = [0u8; 4];
                for c in alphabet {
                    vocab.push(c.encode_utf8(&mut buf));
                }
                for (left, right) in merges {
                    vocab.push(&format!("{left}{right}"));
                }
            }
            VocabOrder::Sorted => {
                let mut rest: BTreeSet<String> = alphabet.iter().map(|c| c.to_string()).collect();
                rest.insert(EOW.to_owned());
                rest.extend(merges.iter().map(|(left, right)| format!("{left}{right}")));
                for token in &rest {
                    vocab.push(token);
                }
            }
        }
        vocab
    }

    /// Adds `token` unless it is already there.
    fn push(&mut self, token: &str) {
        if !self.ids.contains_key(token) {
            let id = u32::try_from(self.tokens.len()).expect("more than 4 billion tokens");
            self.ids.insert(token.to_owned(), id);
            self.tokens.push(token.to_owned());
        }
    }

    /// Number of tokens (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The id of `token`, if it is in the vocabulary.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The token with id `id`, if there is one.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// All tokens; a token's position is its id.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The order the ids follow.
    pub fn order(&self) -> VocabOrder {
        self.order
    }

    /// The special tokens, ids `0..special_tokens().len()`.
    pub fn special_tokens(&self) -> &[String] {
        &self.tokens[..self.specials]
    }

    /// Whether `id` is a special token's.
    pub fn is_special(&self, id: u32) -> bool {
        (id as usize) < self.specials
    }

    /// The id characters outside the vocabulary map to.
    pub fn unk_id(&self) -> u32 {
        self.unk
    }

    /// The unknown token's string (`<UNK>` by default).
    pub fn unk_token(&self) -> &str {
        &self.tokens[self.unk as usize]
    }

    /// The id of `</w>`.
    pub fn eow_id(&self) -> u32 {
        self.ids[EOW]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn merge_order_puts_specials_eow_sorted_alphabet_then_merges() {
        let merges = pairs(&[("é", "a"), ("éa", "</w>"), ("b", "b")]);
        let vocab = Vocab::build(
            &strings(&["<PAD>", "<UNK>", "<BOS>"]),
            "<UNK>",
            "éba".chars(),
            &merges,
            VocabOrder::MergeOrder,
        );
        let expected = [
            "<PAD>", "<UNK>", "<BOS>", "</w>", "a", "b", "é", "éa", "éa</w>", "bb",
        ];
        assert_eq!(vocab.tokens(), expected);
        assert_eq!(vocab.unk_id(), 1);
        assert_eq!(vocab.eow_id(), 3);
        assert_eq!(vocab.special_tokens(), ["<PAD>", "<UNK>", "<BOS>"]);
        assert!(vocab.is_special(2) && !vocab.is_special(3));
        for (id, token) in expected.iter().enumerate() {
            assert_eq!(vocab.id(token), Some(id as u32));
            assert_eq!(vocab.token(id as u32), Some(*token));
        }
        assert_eq!(vocab.token(10), None);
    }

    /// `a`+`ab` and `aa`+`b` both make `aab`: one id, the first one's.
    #[test]
    fn colliding_merges_share_one_id() {
        let merges = pairs(&[("a", "b"), ("a", "ab"), ("a", "a"), ("aa", "b")]);
        let specials = strings(&["<UNK>"]);
        let vocab = Vocab::build(
            &specials,
            "<UNK>",
            "ab".chars(),
            &merges,
            VocabOrder::MergeOrder,
        );
        assert_eq!(
            vocab.tokens(),
            ["<UNK>", "</w>", "a", "b", "ab", "aab", "aa"]
        );
        let sorted = Vocab::build(
            &specials,
            "<UNK>",
            "ab".chars(),
            &merges,
            VocabOrder::Sorted,
        );
        assert_eq!(
            sorted.tokens(),
            ["<UNK>", "</w>", "a", "aa", "aab", "ab", "b"]
        );
    }

    /// A merge that spells a special token does not add it again.
    #[test]
    fn a_merge_spelling_a_special_token_keeps_the_special_id() {
        let merges = pairs(&[("<", "P"), ("<P", ">")]);
        let vocab = Vocab::build(
            &strings(&["<P>", "<UNK>"]),
            "<UNK>",
            "<P>".chars(),
            &merges,
            VocabOrder::MergeOrder,
        );
        assert_eq!(
            vocab.tokens(),
            ["<P>", "<UNK>", "</w>", "<", ">", "P", "<P"]
        );
        assert_eq!(vocab.id("<P>"), Some(0));
    }

    #[test]
    fn order_names_round_trip() {
        for order in [VocabOrder::MergeOrder, VocabOrder::Sorted] {
            assert_eq!(order.name().parse::<VocabOrder>().unwrap(), order);
        }
        assert!("random".parse::<VocabOrder>().is_err());
    }
}
