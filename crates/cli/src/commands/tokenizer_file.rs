//! What the tokenizer commands share: loading a tokenizer of either kind with errors that name
//! the file or flag,
//! the value names of `--vocab-order` and `--split`, and where text comes from (a file or
//! standard input).

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use bpe_lab::files::InvalidUtf8;
use bpe_lab::tokenizer::{
    AnyTokenizer, FileError, FileProblem, LoadError, OpenAiEncoding, Split, VocabOrder,
};
use clap::ValueEnum;

use crate::commands::error::CliError;

/// The tokenizer `--encoding` names, else the file `--tokenizer` gives, of either kind: the
/// library reads the kind from the file ([`AnyTokenizer::load`]); the command then maps its
/// flags for that kind (encode, decode, export).
pub(crate) fn load_any(
    encoding: Option<OpenAiEncoding>,
    path: Option<&Path>,
) -> Result<AnyTokenizer, CliError> {
    match (encoding, path) {
        (Some(encoding), _) => encoding
            .tokenizer()
            .map(AnyTokenizer::from)
            .map_err(|e| CliError::runtime(e.to_string())),
        (None, Some(path)) => check_is_tokenizer(path).and_then(|()| {
            AnyTokenizer::load(path).map_err(|e| match e {
                LoadError::Lab(err) => from_file_error(&err, "cannot read"),
                LoadError::ByteLevel(err) => CliError::runtime(err.to_string()),
            })
        }),
        (None, None) => Err(CliError::usage("give --tokenizer or --encoding")),
    }
}

/// Refuses a file given as a tokenizer that is none (a corpus, a table, a JSON array), saying
/// what it looks like ([`bpe_lab::tokenizer::file_kind`]).
pub(crate) fn check_is_tokenizer(path: &Path) -> Result<(), CliError> {
    bpe_lab::tokenizer::file_kind::check_tokenizer_file(path)
        .map_err(|e| CliError::runtime(e.to_string()))
}

/// A library file error as the command reports it (exit status 1).
pub(crate) fn from_file_error(err: &FileError, what: &str) -> CliError {
    match &err.problem {
        FileProblem::Io(io) => CliError::io(what, &err.path, io),
        _ => CliError::runtime(err.to_string()),
    }
}

/// `--vocab-order` values: the library's [`VocabOrder`] under command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum VocabOrderArg {
    /// Special tokens, </w>, the characters sorted, then each merge's token in merge order
    MergeOrder,
    /// Special tokens, then all other tokens sorted by code point (the tokenizer notebook's sorted(set(vocab)))
    Sorted,
}

impl From<VocabOrderArg> for VocabOrder {
    fn from(arg: VocabOrderArg) -> Self {
        match arg {
            VocabOrderArg::MergeOrder => VocabOrder::MergeOrder,
            VocabOrderArg::Sorted => VocabOrder::Sorted,
        }
    }
}

/// `--split` values: the library's [`Split`] under command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SplitArg {
    /// At every single space, as Python's text.split(" ") (the lab's rule)
    Space,
    /// At runs of whitespace, as Python's text.split() (the tokenizer notebook's encoder)
    Whitespace,
}

impl From<SplitArg> for Split {
    fn from(arg: SplitArg) -> Self {
        match arg {
            SplitArg::Space => Split::Space,
            SplitArg::Whitespace => Split::Whitespace,
        }
    }
}

/// Where a command reads its text: a file, or standard input.
pub(crate) enum TextInput {
    File(PathBuf),
    Stdin,
}

impl TextInput {
    pub(crate) fn new(input: Option<&Path>) -> TextInput {
        match input {
            Some(path) if path != Path::new("-") => TextInput::File(path.to_owned()),
            _ => TextInput::Stdin,
        }
    }

    /// Opens the source for reading; a directory or a missing file is an error naming it.
    pub(crate) fn open(&self) -> Result<Box<dyn Read>, CliError> {
        match self {
            TextInput::Stdin => Ok(Box::new(io::stdin().lock())),
            TextInput::File(path) => {
                if path.is_dir() {
                    return Err(CliError::runtime(format!(
                        "cannot read '{}': it is a directory, not a file",
                        path.display()
                    )));
                }
                let file = File::open(path).map_err(|e| CliError::io("cannot read", path, &e))?;
                Ok(Box::new(file))
            }
        }
    }

    /// A read error, naming the source.
    pub(crate) fn read_error(&self, err: &io::Error) -> CliError {
        match self {
            TextInput::File(path) => CliError::io("cannot read", path, err),
            TextInput::Stdin => CliError::runtime(format!("cannot read standard input: {err}")),
        }
    }
}

/// `file 'FILE'` or `standard input`, for messages (as [`bpe_lab::files::InvalidUtf8`] names
/// its input).
impl fmt::Display for TextInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextInput::File(path) => f.write_str(&InvalidUtf8::file_name(path)),
            TextInput::Stdin => f.write_str("standard input"),
        }
    }
}
