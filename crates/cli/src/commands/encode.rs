//! `bpe-lab encode`: text in, one line of tokens (or ids) out per line of text. The work (in
//! blocks, on every core, with the tokenizer's word cache) is
//! `bpe_lab::tokenizer::Tokenizer::encode_lines`; this file maps the flags and reports.

use std::path::PathBuf;

use bpe_lab::tokenizer::{AnyTokenizer, EncodeLinesError, EncodeOutput, EncodeUnit, LineOutput};
use clap::Args;

use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;
use crate::commands::tokenizer_file::{self, SplitArg, TextInput};

pub(crate) const LONG_ABOUT: &str = "\
Encode text with a tokenizer: a lab tokenizer (-t, a file written by `train`) or a byte-level
one (-t, a file written by `train --byte-level`, a .tiktoken rank file, a Hugging Face
ByteLevel tokenizer.json; or --encoding, one of OpenAI's).

Output: the tokens, or with --ids their ids separated by single spaces, or with --json one
JSON object {\"ids\": [...], \"tokens\": [...]} per unit. The unit (--unit) is what one
output line holds:
  line  each input line is one text, its line feed not part of it (the lab's way; the only
        unit of lab tokenizers)
  text  the whole input is one text, as tiktoken's encode sees a document (the default for
        byte-level tokenizers); the ids are written while the rest is still being read

Lab tokenizers: each line is cut into words at every single space, as Python's
line.split(\" \") and the lab do (--split whitespace cuts at runs of whitespace instead). Each
word becomes its characters followed by </w>, and the merges are applied, lowest rank first.
A character the vocabulary does not hold becomes <UNK>; a note on stderr says how many and on
which line the first was. A trailing \\r (CRLF files) is dropped. Tokens are printed separated
by spaces.

Byte-level tokenizers: the text is cut into chunks by the tokenizer's pattern and each chunk
merged by rank, as tiktoken does; every text encodes, there is no <UNK>. Tokens are printed as
a JSON array of strings. A special token (such as <|endoftext|>) in the text is an error
unless --allow-special (encode it as its id) or --special-as-text (as ordinary text) says
what it is.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab encode --tokenizer tokenizer.json --input text.txt --ids > ids.txt
  echo 'the lowest point' | bpe-lab encode -t tokenizer.json
  bpe-lab encode --encoding cl100k_base --input book.txt --ids --output book.ids
  printf 'Jollof in Lagos' | bpe-lab encode -t bytes.json --ids --unit line

Exit status: 0 on success, 1 when the work fails (a file is missing or not UTF-8, a special
token not allowed: the message names the file and where), 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct EncodeArgs {
    /// The tokenizer: a file written by `bpe-lab train` (lab or --byte-level), a .tiktoken rank
    /// file (with the .json beside it that `export` writes), or a Hugging Face ByteLevel
    /// tokenizer.json
    #[arg(short, long, value_name = "FILE", required_unless_present = "encoding")]
    pub(crate) tokenizer: Option<PathBuf>,

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
    /// text for byte-level tokenizers; lab tokenizers encode lines only]
    #[arg(long, value_enum, value_name = "UNIT")]
    pub(crate) unit: Option<UnitArg>,

    /// Lab tokenizers: how to cut lines into words [default: the tokenizer file's setting,
    /// normally space]
    #[arg(long, value_enum, value_name = "RULE")]
    pub(crate) split: Option<SplitArg>,

    /// Threads to encode on (0: one per core; at most one per core; small inputs use one)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) threads: usize,

    #[command(flatten)]
    pub(crate) byte_level: crate::commands::bytelevel::ByteLevelEncodeArgs,
}

/// `--unit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum UnitArg {
    /// Each input line is one text, without its line feed; one output line per input line
    Line,
    /// The whole input is one text; one output line
    Text,
}

pub(crate) fn run(args: &EncodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    let output = OutputFlag::new("--output", args.output.as_deref());
    output.not_input("--input", "the text to encode", args.input.as_deref())?;
    output.not_input("--tokenizer", "the tokenizer file", path)?;
    let threads = crate::commands::flags::threads(args.threads);
    let mut tokenizer = match tokenizer_file::load_any(args.byte_level.encoding, path)? {
        AnyTokenizer::ByteLevel(tokenizer) => {
            if args.split.is_some() {
                return Err(CliError::usage(
                    "--split applies to lab tokenizers; a byte-level tokenizer cuts text with its \
                     own pattern",
                ));
            }
            return crate::commands::bytelevel::encode(crate::commands::bytelevel::EncodeRun {
                tokenizer: &tokenizer,
                flags: &args.byte_level,
                input: args.input.as_deref(),
                output: &output,
                format: match (args.json, args.ids) {
                    (true, _) => EncodeOutput::Json,
                    (false, true) => EncodeOutput::Ids,
                    (false, false) => EncodeOutput::Tokens,
                },
                unit: match args.unit {
                    Some(UnitArg::Line) => EncodeUnit::Lines,
                    Some(UnitArg::Text) | None => EncodeUnit::Text,
                },
                threads,
            });
        }
        AnyTokenizer::Lab(tokenizer) => *tokenizer,
    };
    if args.unit == Some(UnitArg::Text) {
        return Err(CliError::usage(
            "--unit text applies to byte-level tokenizers; a lab tokenizer encodes each line on \
             its own (--unit line)",
        ));
    }
    if args.byte_level.allow_special || args.byte_level.special_as_text {
        return Err(CliError::usage(
            "--allow-special and --special-as-text apply to byte-level tokenizers; a lab \
             tokenizer's special tokens are never read from the text",
        ));
    }
    if let Some(split) = args.split {
        tokenizer.set_split(split.into());
    }
    let format = match (args.json, args.ids) {
        (true, _) => LineOutput::Json,
        (false, true) => LineOutput::Ids,
        (false, false) => LineOutput::Tokens,
    };
    let input = TextInput::new(args.input.as_deref());
    output.check()?;
    let mut reader = input.open()?;
    let mut done = None;
    output.write(|out| {
        let encoded = tokenizer
            .encode_lines(&mut reader, &input.to_string(), out, format, threads)
            .map_err(|e| match e {
                EncodeLinesError::Write(e) => output.failed(&e),
                EncodeLinesError::Read(e) => input.read_error(&e),
                EncodeLinesError::InvalidUtf8(bad) => CliError::runtime(bad.to_string()),
            })?;
        done = Some(encoded);
        Ok(())
    })?;
    let done = done.expect("the encoder ran");
    if done.unknown > 0 {
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
