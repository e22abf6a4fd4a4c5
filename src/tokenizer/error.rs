//! Why a tokenizer cannot be built, or ids cannot be decoded.

use std::fmt;

/// A tokenizer's parts do not fit together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenizerError {
    /// A special token is the empty string.
    EmptySpecialToken,
    /// A special token is listed twice.
    DuplicateSpecialToken(String),
    /// The unknown token is not one of the special tokens.
    UnkNotSpecial(String),
    /// A special token is also a base symbol (a character of the alphabet, or `</w>`), so the
    /// two would share an id.
    SpecialIsBaseSymbol(String),
    /// A special token contains `</w>`, which decoding reads as a word boundary.
    SpecialHasEndOfWord(String),
    /// A merge is listed twice; `first` is the index of its first listing. (Under seed 002's
    /// rule only the first listing can ever apply; other tools take the last, so a list with
    /// repeats is ambiguous.)
    DuplicateMerge {
        index: usize,
        first: usize,
        pair: (String, String),
    },
    /// A merge uses a symbol that is neither in the base alphabet nor made by an earlier merge,
    /// so the merge can never apply.
    DanglingMerge {
        index: usize,
        pair: (String, String),
        missing: String,
    },
}

impl fmt::Display for TokenizerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenizerError::EmptySpecialToken => write!(f, "a special token is empty"),
            TokenizerError::DuplicateSpecialToken(token) => {
                write!(f, "special token {token:?} is listed twice")
            }
            TokenizerError::UnkNotSpecial(token) => write!(
                f,
                "the unknown token {token:?} is not one of the special tokens"
            ),
            TokenizerError::SpecialIsBaseSymbol(token) => write!(
                f,
                "special token {token:?} is also a base symbol (a character of the alphabet or \
                 </w>); the two would share one id"
            ),
            TokenizerError::SpecialHasEndOfWord(token) => write!(
                f,
                "special token {token:?} contains </w>, the end-of-word marker"
            ),
            TokenizerError::DuplicateMerge { index, first, pair } => write!(
                f,
                "merge {index} [{:?}, {:?}] repeats merge {first}",
                pair.0, pair.1
            ),
            TokenizerError::DanglingMerge {
                index,
                pair,
                missing,
            } => write!(
                f,
                "merge {index} [{:?}, {:?}] can never apply: {missing:?} is not in the \
                 vocabulary's alphabet and no earlier merge makes it",
                pair.0, pair.1
            ),
        }
    }
}

impl std::error::Error for TokenizerError {}

/// An id that is not in the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// The offending id.
    pub id: u32,
    /// Its index in the input.
    pub position: usize,
    /// The vocabulary's size: valid ids are `0..vocab_size`.
    pub vocab_size: usize,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "id {} (at position {}) is not in the vocabulary, whose ids are 0 to {}",
            self.id,
            self.position,
            self.vocab_size.saturating_sub(1)
        )
    }
}

impl std::error::Error for DecodeError {}
