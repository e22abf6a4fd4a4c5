//! Why a tokenizer cannot be built, ids cannot be decoded, its file cannot be read or
//! written, or it cannot be exported.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::bpe::EOW;
use crate::tokenizer::file::format::VERSION;

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
    /// A merge is listed twice; `first` is the index of its first listing. (Under the apply-merges problem's
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

/// Why a tokenizer cannot be exported with exact parity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HfExportError {
    /// Merge `index` builds the text `</w>` from characters, which HF would confuse with the
    /// end-of-word marker.
    MarkerSpelledByMerge {
        index: usize,
        pair: (String, String),
    },
    /// Merge `index` uses the unknown token, which HF would also merge where an unknown
    /// character stands.
    UnkInMerge {
        index: usize,
        pair: (String, String),
    },
    /// Every private-use character U+E000..U+F8FF already occurs in some token.
    NoFreeMarker,
}

impl fmt::Display for HfExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HfExportError::MarkerSpelledByMerge { index, pair } => write!(
                f,
                "merge {index} [{:?}, {:?}] spells the end-of-word marker {EOW} out of the \
                 text's characters; Hugging Face tokenizers could not tell it from the real \
                 marker, so the export would not give the same ids",
                pair.0, pair.1
            ),
            HfExportError::UnkInMerge { index, pair } => write!(
                f,
                "merge {index} [{:?}, {:?}] uses the unknown token; Hugging Face tokenizers \
                 would merge unknown characters with it too, so the export would not give the \
                 same ids (use another --unk-token when training)",
                pair.0, pair.1
            ),
            HfExportError::NoFreeMarker => write!(
                f,
                "every private-use character U+E000..U+F8FF occurs in the vocabulary, so none \
                 is free to stand for {EOW}"
            ),
        }
    }
}

impl std::error::Error for HfExportError {}

/// A tokenizer file could not be read or written.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub problem: FileProblem,
}

/// What is wrong with a tokenizer file (or its JSON text).
#[derive(Debug)]
pub enum FileProblem {
    /// Reading or writing failed.
    Io(io::Error),
    /// The file is empty.
    Empty,
    /// The JSON stops before the document is complete.
    Truncated { line: usize, column: usize },
    /// The text is not JSON.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON, but not a bpe-lab tokenizer file.
    NotATokenizer(String),
    /// Written by a newer bpe-lab.
    FutureVersion { found: u64 },
    /// A field is missing or has the wrong shape.
    Field { field: String, problem: String },
    /// The parts do not fit together (merges, special tokens).
    Invalid(TokenizerError),
    /// The tokenizer cannot be exported with exact parity.
    Export(HfExportError),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Io(err) => write!(f, "{err}"),
            FileProblem::Empty => write!(f, "the file is empty"),
            FileProblem::Truncated { line, column } => write!(
                f,
                "the file is truncated: the JSON stops at line {line}, column {column}, \
                 before the document is complete"
            ),
            FileProblem::Syntax {
                line,
                column,
                message,
            } => write!(
                f,
                "not valid JSON at line {line}, column {column}: {message}"
            ),
            FileProblem::NotATokenizer(why) => write!(f, "not a bpe-lab tokenizer file: {why}"),
            FileProblem::FutureVersion { found } => write!(
                f,
                "written by a newer bpe-lab (file version {found}; this one reads versions 1 to \
                 {VERSION}); update bpe-lab to read it"
            ),
            FileProblem::Field { field, problem } => write!(f, "field \"{field}\": {problem}"),
            FileProblem::Invalid(err) => write!(f, "{err}"),
            FileProblem::Export(err) => write!(f, "{err}"),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            FileProblem::Io(err) => write!(f, "cannot access '{}': {err}", self.path.display()),
            problem => write!(f, "{}: {problem}", crate::files::source_name(&self.path)),
        }
    }
}

impl std::error::Error for FileError {}
impl std::error::Error for FileProblem {}

impl From<TokenizerError> for FileProblem {
    fn from(err: TokenizerError) -> Self {
        FileProblem::Invalid(err)
    }
}
