//! A tokenizer of either kind, loaded once: the seam the command line holds.
//!
//! bpe-lab has two kinds of tokenizer: the character-level one the lab builds
//! ([`CharLevelTokenizer`]: words cut at spaces, characters plus `</w>`, an `<UNK>` id) and the
//! byte-level one ([`ByteLevelTokenizer`]: GPT-2 onwards, 256 byte tokens, regex-split chunks). A
//! file says which it holds by its own content; [`Tokenizer::load`] reads that once, here in the
//! library, so no caller sniffs files itself. [`Tokenizer::from_bytes`] decides the same from
//! content read elsewhere (standard input), named in errors by the caller.
//!
//! ```
//! use bpe_lab::tokenizer::{Tokenizer, CharLevelTokenizer, TokenizerKind};
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("lab.json");
//! CharLevelTokenizer::train(&["low lower"], 2).save(&path).unwrap();
//! let loaded = Tokenizer::load(&path).unwrap();
//! assert_eq!(loaded.kind(), TokenizerKind::CharLevel);
//! ```

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

use crate::tokenizer::bytelevel::ByteLevelTokenizer;
use crate::tokenizer::bytelevel_file::{
    ByteLevelFileError, ByteLevelFileProblem, Carrier, RankFileSettings, is_byte_level_file_content,
};
use crate::tokenizer::codec::CharLevelTokenizer;
use crate::tokenizer::error::{FileError, FileProblem};
use crate::tokenizer::stream::{EncodeOptions, EncodeUnit, StreamEncoded, StreamError};

/// Which kind of tokenizer: what decides which flags apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenizerKind {
    /// The character-level tokenizer the lab builds ([`CharLevelTokenizer`]).
    CharLevel,
    /// A byte-level tokenizer ([`ByteLevelTokenizer`]).
    ByteLevel,
}

/// A tokenizer of either kind.
#[derive(Debug, Clone)]
pub enum Tokenizer {
    // Boxed: both are large (a character-level tokenizer's word cache, a byte-level one's rank
    // tables) and of very different sizes.
    CharLevel(Box<CharLevelTokenizer>),
    ByteLevel(Box<ByteLevelTokenizer>),
}

/// A tokenizer file that could not be loaded, as the reader of its kind says.
#[derive(Debug)]
pub enum LoadError {
    /// The file is (or, unreadable or neither kind, is read as) a character-level tokenizer
    /// file; its
    /// message says what the file looks like when it is no tokenizer (a Hugging Face file of
    /// another model, JSON without `"format"`, a file of another format).
    CharLevel(FileError),
    /// The file is a byte-level tokenizer: bpe-lab's byte-level JSON, a Hugging Face
    /// ByteLevel `tokenizer.json`, or a tiktoken rank file.
    ByteLevel(ByteLevelFileError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::CharLevel(e) => e.fmt(f),
            LoadError::ByteLevel(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl Tokenizer {
    /// Loads the tokenizer file at `path`, deciding its kind from its content: bpe-lab's
    /// byte-level JSON, a Hugging Face `tokenizer.json` or text that is no JSON (a tiktoken rank
    /// file) is byte-level; anything else is read as the lab's file, whose errors say what the
    /// file is instead. Errors name `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Tokenizer, LoadError> {
        Self::load_with(path, &RankFileSettings::default())
    }

    /// [`Tokenizer::load`], where a tiktoken rank file without its sidecar takes its
    /// pattern and special tokens from `settings`; settings given for any other file are
    /// refused ([`ByteLevelFileProblem::OwnSettings`]), never ignored.
    pub fn load_with(
        path: impl AsRef<Path>,
        settings: &RankFileSettings,
    ) -> Result<Tokenizer, LoadError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            LoadError::CharLevel(FileError {
                path: path.to_owned(),
                problem: FileProblem::Io(e),
            })
        })?;
        if is_byte_level_file_content(&bytes) {
            ByteLevelTokenizer::open_with(path, settings)
                .map(Tokenizer::from)
                .map_err(LoadError::ByteLevel)
        } else {
            Self::lab_from_bytes(&bytes, path, settings)
        }
    }

    /// A tokenizer from a file's content read elsewhere (standard input), its kind decided as
    /// [`Tokenizer::load`] decides it. `source` names it in errors (`-`: "standard input");
    /// a rank file has no sidecar here, so it needs `settings`.
    pub fn from_bytes(
        bytes: &[u8],
        source: &Path,
        settings: &RankFileSettings,
    ) -> Result<Tokenizer, LoadError> {
        if is_byte_level_file_content(bytes) {
            ByteLevelTokenizer::from_bytes(bytes, source, settings)
                .map(Tokenizer::from)
                .map_err(LoadError::ByteLevel)
        } else {
            Self::lab_from_bytes(bytes, source, settings)
        }
    }

    fn lab_from_bytes(
        bytes: &[u8],
        source: &Path,
        settings: &RankFileSettings,
    ) -> Result<Tokenizer, LoadError> {
        let tokenizer = CharLevelTokenizer::from_json_slice(bytes).map_err(|problem| {
            LoadError::CharLevel(FileError {
                path: source.to_owned(),
                problem,
            })
        })?;
        if settings.is_given() {
            return Err(LoadError::ByteLevel(ByteLevelFileError {
                path: source.to_owned(),
                problem: ByteLevelFileProblem::OwnSettings(Carrier::CharLevelFile),
            }));
        }
        Ok(Tokenizer::from(tokenizer))
    }

    /// Which kind it is.
    pub fn kind(&self) -> TokenizerKind {
        match self {
            Tokenizer::CharLevel(_) => TokenizerKind::CharLevel,
            Tokenizer::ByteLevel(_) => TokenizerKind::ByteLevel,
        }
    }
}

impl Tokenizer {
    /// Encodes what `input` holds into `output` as `options` say, with either kind
    /// ([`crate::tokenizer::stream`]): the one call `bpe-lab encode` and `count-tokens` make.
    /// A character-level tokenizer encodes lines only ([`StreamError::NoWholeText`]).
    pub fn encode_stream(
        &self,
        input: &mut dyn Read,
        output: &mut dyn Write,
        options: &EncodeOptions,
    ) -> Result<StreamEncoded, StreamError> {
        match self {
            Tokenizer::CharLevel(tokenizer) => tokenizer.encode_stream(input, output, options),
            Tokenizer::ByteLevel(tokenizer) => tokenizer.encode_stream(input, output, options),
        }
    }

    /// The unit a run encodes when none is asked for: the whole text for a byte-level
    /// tokenizer (as tiktoken), each line for a character-level one (the only one it has).
    pub fn default_unit(&self) -> EncodeUnit {
        match self {
            Tokenizer::CharLevel(_) => EncodeUnit::Lines,
            Tokenizer::ByteLevel(_) => EncodeUnit::Text,
        }
    }
}

impl From<CharLevelTokenizer> for Tokenizer {
    fn from(tokenizer: CharLevelTokenizer) -> Self {
        Tokenizer::CharLevel(Box::new(tokenizer))
    }
}

impl From<ByteLevelTokenizer> for Tokenizer {
    fn from(tokenizer: ByteLevelTokenizer) -> Self {
        Tokenizer::ByteLevel(Box::new(tokenizer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::bytelevel::SplitPattern;
    use crate::tokenizer::{ByteLevelConfig, TrainingSettings};

    #[test]
    fn each_kind_of_file_loads_as_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let lab = dir.path().join("lab.json");
        CharLevelTokenizer::train(&["low lower"], 2)
            .save(&lab)
            .unwrap();
        assert_eq!(
            Tokenizer::load(&lab).unwrap().kind(),
            TokenizerKind::CharLevel
        );

        let bytes = dir.path().join("bytes.json");
        let (trained, _) = ByteLevelTokenizer::train_reporting(
            "low lower lowest",
            TrainingSettings::new(3).tie_break(crate::TieBreak::Lexicographic),
            &ByteLevelConfig::new(SplitPattern::Cl100k),
        )
        .unwrap();
        std::fs::write(&bytes, trained.to_json().unwrap()).unwrap();
        assert_eq!(
            Tokenizer::load(&bytes).unwrap().kind(),
            TokenizerKind::ByteLevel
        );
    }

    /// A lab file's content loads from bytes as from its path; its errors name standard
    /// input in words; rank file settings given for it are refused, not ignored.
    #[test]
    fn content_from_standard_input_loads_and_is_named_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lab.json");
        CharLevelTokenizer::train(&["low lower"], 2)
            .save(&path)
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let stdin = Path::new("-");
        let none = RankFileSettings::default();
        let loaded = Tokenizer::from_bytes(&bytes, stdin, &none).unwrap();
        assert_eq!(loaded.kind(), TokenizerKind::CharLevel);

        let err = Tokenizer::from_bytes(&bytes[..bytes.len() / 2], stdin, &none).unwrap_err();
        assert!(err.to_string().starts_with("standard input: "), "{err}");

        let settings = RankFileSettings {
            pattern: Some(SplitPattern::Gpt2),
            ..RankFileSettings::default()
        };
        let err = Tokenizer::from_bytes(&bytes, stdin, &settings).unwrap_err();
        assert!(
            matches!(&err, LoadError::ByteLevel(e) if matches!(e.problem, ByteLevelFileProblem::OwnSettings(Carrier::CharLevelFile))),
            "{err}"
        );
        assert!(Tokenizer::load_with(&path, &settings).is_err());
    }

    /// A file of neither kind is refused with what it looks like, naming it.
    #[test]
    fn a_file_of_neither_kind_says_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.json");
        std::fs::write(&path, r#"{"name": "not a tokenizer"}"#).unwrap();
        let message = Tokenizer::load(&path).unwrap_err().to_string();
        assert!(message.contains("other.json"), "{message}");
        assert!(message.contains("no \"format\" field"), "{message}");

        let missing = dir.path().join("missing.json");
        let err = Tokenizer::load(&missing).unwrap_err();
        assert!(matches!(&err, LoadError::CharLevel(e) if matches!(e.problem, FileProblem::Io(_))));
    }
}
