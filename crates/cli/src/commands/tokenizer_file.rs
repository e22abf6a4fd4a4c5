//! What the tokenizer commands share: loading a tokenizer of either kind (from a file or
//! standard input, a bare rank file with `--pattern`) with errors that name the file or flag,
//! the value names of `--vocab-order` and `--split`, and where text comes from (a file or
//! standard input).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
use bpe_lab::files::InvalidUtf8;
use bpe_lab::tokenizer::bytelevel_file::{ByteLevelFileError, ByteLevelFileProblem};
use bpe_lab::tokenizer::{
    ByteLevelTokenizer, FileError, FileProblem, LoadError, OpenAiEncoding, RankFileSettings, Split,
    Tokenizer, VocabOrder,
};
use clap::{Args, ValueEnum};

use crate::commands::error::CliError;

/// The tokenizer `--encoding` names, else the file `--tokenizer` gives (`-`: standard input),
/// of either kind: the library reads the kind from the file ([`Tokenizer::load_with`]); the
/// command then maps its flags for that kind (encode, decode, export). `rank` gives a bare
/// rank file its pattern and special tokens.
pub(crate) fn load_any(
    encoding: Option<OpenAiEncoding>,
    path: Option<&Path>,
    rank: &RankFileArgs,
) -> Result<Tokenizer, CliError> {
    match (encoding, path) {
        (Some(encoding), _) => {
            if let Some(flag) = rank.given() {
                return Err(CliError::usage(format!(
                    "{flag} applies to a tiktoken rank file without its sidecar (-t FILE); \
                     --encoding {encoding} carries its own pattern and special tokens"
                )));
            }
            encoding
                .tokenizer()
                .map(Tokenizer::from)
                .map_err(|e| CliError::runtime(e.to_string()))
        }
        (None, Some(path)) => {
            let settings = rank.settings()?;
            let loaded = if path == Path::new("-") {
                let bytes = read_stdin_tokenizer()?;
                Tokenizer::from_bytes(&bytes, path, &settings)
            } else {
                check_is_tokenizer(path)?;
                Tokenizer::load_with(path, &settings)
            };
            loaded.map_err(|e| match e {
                LoadError::CharLevel(err) => from_file_error(&err, "cannot read"),
                LoadError::ByteLevel(err) => byte_level_load_error(err, rank, ""),
            })
        }
        (None, None) => Err(CliError::usage("give --tokenizer or --encoding")),
    }
}

/// The byte-level tokenizer file `--tokenizer` gives (`-`: standard input), for commands that
/// take only that kind (count-tokens).
pub(crate) fn load_byte_level(
    path: &Path,
    rank: &RankFileArgs,
) -> Result<ByteLevelTokenizer, CliError> {
    let settings = rank.settings()?;
    let loaded = if path == Path::new("-") {
        let bytes = read_stdin_tokenizer()?;
        ByteLevelTokenizer::from_bytes(&bytes, path, &settings)
    } else {
        check_is_tokenizer(path)?;
        ByteLevelTokenizer::open_with(path, &settings)
    };
    // A file is named as given to the flag; standard input by its name alone.
    let prefix = if path == Path::new("-") {
        ""
    } else {
        "--tokenizer "
    };
    loaded.map_err(|e| byte_level_load_error(e, rank, prefix))
}

/// A byte-level file that cannot be loaded: settings it does not take are the command line's
/// fault (exit 2, naming the flag), the rest the file's (exit 1).
fn byte_level_load_error(err: ByteLevelFileError, rank: &RankFileArgs, prefix: &str) -> CliError {
    match (&err.problem, rank.given()) {
        (ByteLevelFileProblem::OwnSettings(_), Some(flag)) => {
            CliError::usage(format!("{flag}: {err}"))
        }
        _ => CliError::runtime(format!("{prefix}{err}")),
    }
}

/// A tokenizer file read whole from standard input (`-t -`), refused when it is no tokenizer
/// file (a corpus piped by mistake).
fn read_stdin_tokenizer() -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::runtime(format!("cannot read standard input: {e}")))?;
    bpe_lab::tokenizer::file_kind::check_tokenizer_bytes(&bytes, Path::new("-"))
        .map_err(|e| CliError::runtime(format!("--tokenizer -: {e}")))?;
    Ok(bytes)
}

/// Refuses `--tokenizer -` when the command also reads its text (or ids) from standard input,
/// before anything is read: it can be read once. `text_flag` names where the text comes from.
pub(crate) fn stdin_once(
    tokenizer: Option<&Path>,
    text_from_stdin: bool,
    text_flag: &str,
) -> Result<(), CliError> {
    if tokenizer == Some(Path::new("-")) && text_from_stdin {
        return Err(CliError::usage(format!(
            "--tokenizer - reads the tokenizer from standard input, and {text_flag} reads from it \
             too; standard input can be read once: give the tokenizer or the text as a file"
        )));
    }
    Ok(())
}

/// `--pattern`, `--regex` and `--special-tokens` of the commands that load a tokenizer: what a
/// bare tiktoken rank file lacks without the sidecar `export` writes beside it (tiktoken's
/// `Encoding` takes them beside the ranks). Refused for any tokenizer that carries its own.
#[derive(Debug, Default, Args)]
pub(crate) struct RankFileArgs {
    // Help: "A .tiktoken rank file without its sidecar: its split pattern by name: gpt2
    // (r50k_base), ...", the names read from the pattern table.
    #[arg(long, value_name = "NAME", conflicts_with = "regex",
          value_parser = crate::commands::flags::pattern_parser, help = rank_pattern_help())]
    pub(crate) pattern: Option<SplitPattern>,

    /// A .tiktoken rank file without its sidecar: its split pattern as a regular expression
    /// (fancy-regex syntax, as tiktoken's pat_str)
    #[arg(long, value_name = "REGEX")]
    pub(crate) regex: Option<String>,

    /// A .tiktoken rank file without its sidecar: its special tokens and their ids,
    /// comma-separated (`--special-tokens '<|endoftext|>=100257,<|fim_prefix|>=100258'`)
    /// [default: none]
    #[arg(long, value_name = "NAME=ID,...", value_delimiter = ',', value_parser = special_token_id)]
    pub(crate) special_tokens: Vec<(String, u32)>,
}

fn rank_pattern_help() -> String {
    format!(
        "A .tiktoken rank file without its sidecar: its split pattern by name: {}",
        bpe_lab::bpe::bytelevel::builtin_pattern_names_with_encodings()
    )
}

/// `--special-tokens` item: `NAME=ID`, split at the last `=` (a name may hold one).
fn special_token_id(value: &str) -> Result<(String, u32), String> {
    let Some((name, id)) = value.rsplit_once('=') else {
        return Err(format!(
            "'{value}' is not NAME=ID (a special token and its id)"
        ));
    };
    if name.is_empty() {
        return Err(format!(
            "'{value}': the special token is empty (it would match between every two characters)"
        ));
    }
    let id = id
        .parse::<u32>()
        .map_err(|e| format!("'{value}': the id is not a number below 2^32: {e}"))?;
    Ok((name.to_owned(), id))
}

impl RankFileArgs {
    /// The first of the flags given, for messages; `None` when none is.
    pub(crate) fn given(&self) -> Option<&'static str> {
        if self.pattern.is_some() {
            Some("--pattern")
        } else if self.regex.is_some() {
            Some("--regex")
        } else if !self.special_tokens.is_empty() {
            Some("--special-tokens")
        } else {
            None
        }
    }

    /// The library's settings; a regex that cannot split text or a special token named twice
    /// is refused naming the flag, before any file is read.
    pub(crate) fn settings(&self) -> Result<RankFileSettings, CliError> {
        let pattern = match (&self.pattern, &self.regex) {
            (Some(pattern), _) => Some(pattern.clone()),
            (None, Some(regex)) => {
                let pattern = SplitPattern::from_regex(regex);
                Splitter::new(pattern.clone())
                    .map_err(|e| crate::commands::train::regex_error(regex, &e))?;
                Some(pattern)
            }
            (None, None) => None,
        };
        let mut special_tokens = BTreeMap::new();
        for (name, id) in &self.special_tokens {
            if special_tokens.insert(name.clone(), *id).is_some() {
                return Err(CliError::usage(format!(
                    "--special-tokens: '{name}' is given twice; each special token has one id"
                )));
            }
        }
        if pattern.is_none() && !special_tokens.is_empty() {
            return Err(CliError::usage(
                "--special-tokens applies to a tiktoken rank file without its sidecar, with its \
                 split pattern: give --pattern NAME or --regex REGEX too",
            ));
        }
        Ok(RankFileSettings {
            pattern,
            special_tokens,
        })
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
    /// Whether this is standard input.
    pub(crate) fn is_stdin(&self) -> bool {
        matches!(self, TextInput::Stdin)
    }

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
