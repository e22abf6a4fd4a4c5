//! `bpe-lab encode`: text in, tokens (or ids) out, per line or for the whole text. The flags are
//! checked against the loaded tokenizer's kind and mapped once to the library's
//! [`EncodeOptions`] ([`plan`]); the work (in blocks, on every core) is
//! [`Tokenizer::encode_stream`], for either kind; this file then reports.

use std::fmt;
use std::io::Read;
use std::path::PathBuf;

use bpe_lab::tokenizer::bytelevel::ByteLevelError;
use bpe_lab::tokenizer::{
    Chunks, EncodeOptions, EncodeOutput, EncodeUnit, Shape, StreamError, Tokenizer, Truncated,
};
use clap::Args;

use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;
use crate::commands::tokenizer_file::{self, SplitArg, TextInput};

pub(crate) const LONG_ABOUT: &str = "\
Encode text with a tokenizer: a character-level tokenizer (-t, a file written by `train`) or a byte-level
one (-t, a file written by `train --byte-level`, a .tiktoken rank file, a Hugging Face
ByteLevel tokenizer.json; or --encoding, one of OpenAI's).

Output: the tokens, or with --ids their ids separated by single spaces, or with --json one
JSON object {\"ids\": [...], \"tokens\": [...]} per unit. The unit (--unit) is what one
output line holds:
  line  each input line is one text, its line feed not part of it (the lab's way; the only
        unit of character-level tokenizers)
  text  the whole input is one text, as tiktoken's encode sees a document (the default for
        byte-level tokenizers); the ids are written while the rest is still being read

Character-level tokenizers: each line is cut into words at every single space, as Python's
line.split(\" \") and the lab do (--split whitespace cuts at runs of whitespace instead). Each
word becomes its characters followed by </w>, and the merges are applied, lowest rank first.
A character the vocabulary does not hold becomes <UNK>; a note on stderr says how many and on
which line the first was. A trailing \\r (CRLF files) is dropped. Tokens are printed separated
by spaces.

Byte-level tokenizers: the text is cut into chunks by the tokenizer's pattern and each chunk
merged by rank, as tiktoken does; every text encodes, there is no <UNK>. Tokens are printed as
a JSON array of strings. A special token (such as <|endoftext|>) in the text is an error
unless --allow-special (encode it as its id; --allow-special A,B: only those, the others
still an error) or --special-as-text (as ordinary text) says what it is. A byte-order mark
starting the input is text to a byte-level tokenizer (its three bytes are encoded, as tiktoken
does); a character-level tokenizer drops it (an editor wrote it; it is no character of the text).

Shaping each unit's ids (both kinds): --max-tokens N keeps the first N (tiktoken's
encode(text)[:N]; stderr says how many were cut); --chunk-tokens N [--overlap K] writes the
ids as windows of N, each sharing K with the next, one line (or JSON object, with its decoded
\"text\") per window; --json --offsets adds each token's byte span [start, end) in its unit.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab encode --tokenizer tokenizer.json --input text.txt --ids > ids.txt
  echo 'the lowest point' | bpe-lab encode -t tokenizer.json
  bpe-lab encode --encoding cl100k_base --input book.txt --ids --output book.ids
  printf 'Jollof in Lagos' | bpe-lab encode -t bytes.json --ids --unit line
  bpe-lab encode -m gpt-4o --ids 'hello world'
  bpe-lab encode -m cl100k_base --input book.txt --chunk-tokens 512 --overlap 64 --json

Exit status: 0 on success, 1 when the work fails (a file is missing or not UTF-8, a special
token not allowed: the message names the file and where), 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct EncodeArgs {
    /// The tokenizer: a file written by `bpe-lab train` (lab or --byte-level), a .tiktoken rank
    /// file (with the .json beside it that `export` writes, or --pattern), or a Hugging Face
    /// ByteLevel tokenizer.json (`-`: read from standard input)
    #[arg(short, long, value_name = "FILE", required_unless_present = "encoding")]
    pub(crate) tokenizer: Option<PathBuf>,

    /// The text to encode, given on the command line (several words are joined by single
    /// spaces, as ttok does) [default: --input]
    #[arg(value_name = "TEXT", conflicts_with = "input")]
    pub(crate) text: Vec<String>,

    /// UTF-8 text to encode (`-`: standard input) [default: standard input]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// Write the output to FILE: a regular file is replaced whole or not at all, a device or
    /// FIFO written through; `-` is standard output [default: standard output]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,

    /// Print token ids instead of tokens
    #[arg(long)]
    pub(crate) ids: bool,

    /// Print one JSON object per unit, {"ids": [...], "tokens": [...]}
    #[arg(long, conflicts_with = "ids")]
    pub(crate) json: bool,

    /// What one output line holds: `line` (each input line) or `text` (the whole input) [default:
    /// text for byte-level tokenizers; character-level tokenizers encode lines only]
    #[arg(long, value_enum, value_name = "UNIT")]
    pub(crate) unit: Option<UnitArg>,

    /// Character-level tokenizers: how to cut lines into words [default: the tokenizer file's
    /// setting, normally space]
    #[arg(long, value_enum, value_name = "RULE")]
    pub(crate) split: Option<SplitArg>,

    /// Threads to encode on (0: one per core; at most one per core; small inputs use one)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) threads: usize,

    /// Keep the first N tokens of each unit (tiktoken's encode(text)[:N]); stderr says what
    /// was cut
    #[arg(long, value_name = "N")]
    pub(crate) max_tokens: Option<usize>,

    /// Write each unit's ids as windows of N tokens, one line (or JSON object, with its text)
    /// each
    #[arg(long, value_name = "N")]
    pub(crate) chunk_tokens: Option<usize>,

    /// With --chunk-tokens: how many ids each window shares with the next (smaller than N)
    /// [default: 0]
    #[arg(long, value_name = "K", requires = "chunk_tokens")]
    pub(crate) overlap: Option<usize>,

    /// With --json: each token's byte span [start, end) in its unit, as "offsets"
    #[arg(long, requires = "json")]
    pub(crate) offsets: bool,

    #[command(flatten)]
    pub(crate) byte_level: crate::commands::bytelevel::ByteLevelEncodeArgs,

    #[command(flatten)]
    pub(crate) rank_file: tokenizer_file::RankFileArgs,
}

/// `--unit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum UnitArg {
    /// Each input line is one text, without its line feed; one output line per input line
    Line,
    /// The whole input is one text; one output line
    Text,
}

/// What `encode` reads: the TEXT arguments, or --input (a file or standard input).
pub(crate) enum EncodeSource {
    Text(String),
    Input(TextInput),
}

impl EncodeSource {
    fn new(args: &EncodeArgs) -> EncodeSource {
        match args.text.is_empty() {
            false => EncodeSource::Text(args.text.join(" ")),
            true => EncodeSource::Input(TextInput::new(args.input.as_deref())),
        }
    }

    pub(crate) fn open(&self) -> Result<Box<dyn Read + '_>, CliError> {
        match self {
            EncodeSource::Text(text) => Ok(Box::new(text.as_bytes())),
            EncodeSource::Input(input) => input.open(),
        }
    }

    pub(crate) fn read_error(&self, err: &std::io::Error) -> CliError {
        match self {
            EncodeSource::Text(_) => CliError::runtime(format!("cannot read TEXT: {err}")),
            EncodeSource::Input(input) => input.read_error(err),
        }
    }
}

/// `TEXT`, `file 'FILE'` or `standard input`, for messages.
impl fmt::Display for EncodeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeSource::Text(_) => f.write_str("TEXT"),
            EncodeSource::Input(input) => fmt::Display::fmt(input, f),
        }
    }
}

/// --max-tokens, --chunk-tokens, --overlap and --offsets as the library's [`Shape`].
fn shape(args: &EncodeArgs) -> Result<Shape, CliError> {
    let chunks = match args.chunk_tokens {
        None => None,
        Some(tokens) => {
            let overlap = args.overlap.unwrap_or(0);
            Some(Chunks::new(tokens, overlap).map_err(|e| {
                CliError::usage(format!("--chunk-tokens {tokens} --overlap {overlap}: {e}"))
            })?)
        }
    };
    Ok(Shape {
        max_tokens: args.max_tokens,
        chunks,
        offsets: args.offsets,
    })
}

/// Says on stderr what --max-tokens cut, if anything.
pub(crate) fn report_truncated(max: Option<usize>, cut: Truncated, unit: &str) {
    if let Some(max) = max
        && cut.units > 0
    {
        eprintln!(
            "note: --max-tokens {max} cut {} {unit}{}, dropping {} token{}",
            cut.units,
            if cut.units == 1 { "" } else { "s" },
            cut.tokens,
            if cut.tokens == 1 { "" } else { "s" },
        );
    }
}

pub(crate) fn run(args: &EncodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    let output = OutputFlag::new("--output", args.output.as_deref());
    output.not_input("--input", "the text to encode", args.input.as_deref())?;
    output.not_input("--tokenizer", "the tokenizer file", path)?;
    tokenizer_file::stdin_once(
        path,
        args.text.is_empty() && TextInput::new(args.input.as_deref()).is_stdin(),
        "the text to encode (--input, not given or -)",
    )?;
    let shape = shape(args)?;
    let source = EncodeSource::new(args);
    let mut tokenizer = tokenizer_file::load_any(args.byte_level.encoding, path, &args.rank_file)?;
    let options = plan(args, &mut tokenizer, shape)?;
    output.check()?;
    let mut reader = source.open()?;
    let mut done = None;
    output.write(|out| {
        let encoded = tokenizer
            .encode_stream(&mut reader, out, &options)
            .map_err(|e| stream_error(e, &source, &output))?;
        done = Some(encoded);
        Ok(())
    })?;
    let done = done.expect("the encoder ran");
    let unit = match options.unit {
        EncodeUnit::Lines => "line",
        EncodeUnit::Text => "text",
    };
    report_truncated(args.max_tokens, done.truncated, unit);
    if let Tokenizer::CharLevel(tokenizer) = &tokenizer
        && done.unknown > 0
    {
        let unk = tokenizer.vocab().unk_token();
        eprintln!(
            "note: {} character{} not in the vocabulary became {unk} (the first on line {})",
            done.unknown,
            if done.unknown == 1 { "" } else { "s" },
            done.first_unknown_line.unwrap_or(0)
        );
    }
    Ok(())
}

/// The flags as the library's options, once: those of the other kind refused (a usage
/// error naming the flag), those of this kind checked against the tokenizer (--split set on
/// it, --allow-special names among its special tokens).
fn plan(
    args: &EncodeArgs,
    tokenizer: &mut Tokenizer,
    shape: Shape,
) -> Result<EncodeOptions, CliError> {
    let mut options = EncodeOptions {
        unit: match args.unit {
            Some(UnitArg::Line) => EncodeUnit::Lines,
            Some(UnitArg::Text) => EncodeUnit::Text,
            None => tokenizer.default_unit(),
        },
        output: match (args.json, args.ids) {
            (true, _) => EncodeOutput::Json,
            (false, true) => EncodeOutput::Ids,
            (false, false) => EncodeOutput::Tokens,
        },
        shape,
        threads: crate::commands::flags::threads(args.threads),
        ..EncodeOptions::default()
    };
    match tokenizer {
        Tokenizer::ByteLevel(tokenizer) => {
            if args.split.is_some() {
                return Err(CliError::usage(
                    "--split applies to character-level tokenizers; a byte-level tokenizer cuts text with its \
                     own pattern",
                ));
            }
            // Lines are cut at their ends whatever the pattern; one text needs the pattern's.
            if args.threads > 1 && options.unit == EncodeUnit::Text && !tokenizer.can_stream() {
                eprintln!(
                    "note: --threads {} does not apply: this tokenizer's own pattern (--regex) \
                     has no place where a text can be cut, so it encodes on one thread \
                     (--unit line encodes lines on several)",
                    args.threads
                );
            }
            (options.allowed, options.others) =
                crate::commands::bytelevel::special_options(tokenizer, &args.byte_level)?;
        }
        Tokenizer::CharLevel(tokenizer) => {
            if options.unit == EncodeUnit::Text {
                return Err(CliError::usage(
                    "--unit text applies to byte-level tokenizers; a character-level tokenizer encodes each \
                     line on its own (--unit line)",
                ));
            }
            if args.byte_level.allow_special.is_some() || args.byte_level.special_as_text {
                return Err(CliError::usage(
                    "--allow-special and --special-as-text apply to byte-level tokenizers; a character-level \
                     tokenizer's special tokens are never read from the text",
                ));
            }
            if let Some(split) = args.split {
                tokenizer.set_split(split.into());
            }
        }
    }
    Ok(options)
}

/// Why encoding stopped, in the user's terms: the input (`TEXT`, the file or standard input)
/// and where in it, or the --output that could not be written.
fn stream_error(e: StreamError, source: &EncodeSource, output: &OutputFlag) -> CliError {
    match e {
        StreamError::Read(e) => source.read_error(&e),
        StreamError::Write(e) => output.failed(&e),
        e @ StreamError::NotUtf8 { .. } => CliError::runtime(format!("{source} is {e}")),
        StreamError::Encode(ByteLevelError::DisallowedSpecial { token, offset }) => {
            CliError::runtime(format!(
                "{source} contains the special token {token:?} at byte {offset}, which is not \
                 allowed: give --allow-special to encode it as its special id, or \
                 --special-as-text to encode it as ordinary text"
            ))
        }
        StreamError::Encode(e) => CliError::runtime(format!("cannot encode {source}: {e}")),
        e @ StreamError::NoWholeText => CliError::usage(format!("--unit text: {e}")),
    }
}
