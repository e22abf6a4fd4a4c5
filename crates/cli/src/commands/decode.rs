//! `bpe-lab decode`: lines of token ids in, one line of text out per line. The work is
//! `bpe_lab::tokenizer::Tokenizer::decode_lines`; this file maps the flags and reports.

use std::io::BufReader;
use std::path::PathBuf;

use bpe_lab::tokenizer::{AnyTokenizer, DecodeLinesError};
use clap::Args;

use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;
use crate::commands::tokenizer_file::{self, TextInput};

pub(crate) const LONG_ABOUT: &str = "\
Turn token ids back into text, with the tokenizer that made them (-t, as `encode` takes it) or
one of OpenAI's encodings (--encoding).

Byte-level tokenizers: the ids (whole numbers separated by whitespace) become their bytes,
written exactly, special tokens as their text. With --unit text (the default, as `encode`
writes a whole text) all ids are one text and nothing is added; with --unit line each line of
ids is one text, written with a line feed after it.

Lab tokenizers: one line of ids in, one line of text out. The tokens are written one after another; a </w> that ends a token becomes a space, except
after the last word, so `encode` followed by `decode` gives each line back (with --split
whitespace: its words joined by single spaces). Special tokens are written as their text, so
<UNK> shows where an unknown character was. An id outside the vocabulary is an error naming
the line.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab encode -t tokenizer.json -i text.txt --ids | bpe-lab decode -t tokenizer.json
  printf 'Jollof in Lagos' | bpe-lab encode --encoding cl100k_base --ids | bpe-lab decode --encoding cl100k_base

Exit status: 0 on success, 1 when the work fails (a file is missing, a line holds something
other than ids of the vocabulary: the message names the line), 2 when the command line is
wrong.";

#[derive(Debug, Args)]
pub(crate) struct DecodeArgs {
    /// The tokenizer the ids come from (any file `encode -t` takes)
    #[arg(short, long, value_name = "FILE", required_unless_present = "encoding")]
    pub(crate) tokenizer: Option<PathBuf>,

    /// The ids come from one of OpenAI's encodings (gpt2, r50k_base, p50k_base, p50k_edit,
    /// cl100k_base, o200k_base, o200k_harmony) or a model's (-m gpt-4o)
    #[arg(long, short = 'm', visible_alias = "model", value_name = "NAME", conflicts_with = "tokenizer",
          value_parser = crate::commands::bytelevel::encoding_parser)]
    pub(crate) encoding: Option<bpe_lab::tokenizer::OpenAiEncoding>,

    /// Byte-level tokenizers: `text` (all ids one text, nothing added) or `line` (each line
    /// of ids one text, a line feed after each) [default: text]
    #[arg(long, value_enum, value_name = "UNIT")]
    pub(crate) unit: Option<crate::commands::encode::UnitArg>,

    /// Token ids, separated by spaces, one text per line (`-`: standard input) [default:
    /// standard input]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// Write the text to FILE: a regular file is replaced whole or not at all, a device or FIFO
    /// written through; `-` is standard output [default: standard output]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,

    /// Print one JSON object per line, {"text": "..."} (keeps one line per input line even
    /// when a text holds a newline)
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn run(args: &DecodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    let output = OutputFlag::new("--output", args.output.as_deref());
    output.not_input("--input", "the ids", args.input.as_deref())?;
    output.not_input("--tokenizer", "the tokenizer file", path)?;
    let tokenizer = match tokenizer_file::load_any(args.encoding, path)? {
        AnyTokenizer::ByteLevel(tokenizer) => {
            if args.json {
                return Err(CliError::usage(
                    "--json applies to lab tokenizers; a byte-level decode writes the bytes \
                     themselves",
                ));
            }
            let lines = args.unit == Some(crate::commands::encode::UnitArg::Line);
            return crate::commands::bytelevel::decode(
                &tokenizer,
                args.input.as_deref(),
                lines,
                &output,
            );
        }
        AnyTokenizer::Lab(tokenizer) => *tokenizer,
    };
    if args.unit == Some(crate::commands::encode::UnitArg::Text) {
        return Err(CliError::usage(
            "--unit text applies to byte-level tokenizers; a lab tokenizer decodes each line \
             on its own (--unit line)",
        ));
    }
    let input = TextInput::new(args.input.as_deref());
    output.check()?;
    let mut reader = BufReader::with_capacity(1 << 16, input.open()?);
    let name = input.to_string();
    output.write(|out| {
        tokenizer
            .decode_lines(&mut reader, &name, out, args.json)
            .map(|_| ())
            .map_err(|e| match e {
                DecodeLinesError::Write(e) => output.failed(&e),
                DecodeLinesError::Read(e) => input.read_error(&e),
                e => CliError::runtime(e.to_string()),
            })
    })
}
