//! `bpe-lab decode`: lines of token ids in, text out. The work is
//! `bpe_lab::tokenizer::CharLevelTokenizer::decode_lines` (lab) and
//! `ByteLevelTokenizer::decode_bytes` (byte-level); a line of ids is read by
//! [`bpe_lab::tokenizer::parse_id_line`] for both; this file maps the flags and reports.

use std::borrow::Cow;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use bpe_lab::tokenizer::{ByteLevelTokenizer, DecodeLinesError, Tokenizer, parse_id_line};
use clap::Args;
use serde::Serialize;

use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;
use crate::commands::tokenizer_file::{self, TextInput};

pub(crate) const LONG_ABOUT: &str = "\
Turn token ids back into text, with the tokenizer that made them (-t, as `encode` takes it) or
one of OpenAI's encodings (--encoding).

A line of ids is whole numbers separated by whitespace (`encode --ids`), a JSON array of them
(`[1, 2, 3]`), or a JSON object with an \"ids\" array (what `encode --json` writes), so any
output of `encode` decodes as it is.

Byte-level tokenizers: the ids become their bytes, written exactly, special tokens as their
text. With --unit text (the default, as `encode` writes a whole text) all ids are one text and
nothing is added; with --unit line each line of ids is one text, written with a line feed
after it. With --json each text is one line {\"text\": \"...\"}; when its bytes are not whole
UTF-8 (the ids end or start inside a character) \"text\" has U+FFFD where they are not, as
tiktoken's decode(errors=\"replace\"), and \"bytes\" holds the exact bytes as an array of
numbers, as tiktoken's decode_bytes: nothing is lost.

Character-level tokenizers: one line of ids in, one line of text out. The tokens are written one after another; a </w> that ends a token becomes a space, except
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
    /// The tokenizer the ids come from (any file `encode -t` takes; `-`: read from standard
    /// input)
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

    /// Token ids, one text per line: separated by spaces, a JSON array, or `encode --json`'s
    /// objects (`-`: standard input) [default: standard input]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// Write the text to FILE: a regular file is replaced whole or not at all, a device or FIFO
    /// written through; `-` is standard output [default: standard output]
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,

    /// Print one JSON object per text, {"text": "..."} (keeps one line per input line even
    /// when a text holds a newline); byte-level: with "bytes" too when they are not UTF-8
    #[arg(long)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) rank_file: tokenizer_file::RankFileArgs,
}

pub(crate) fn run(args: &DecodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    let output = OutputFlag::new("--output", args.output.as_deref());
    output.not_input("--input", "the ids", args.input.as_deref())?;
    output.not_input("--tokenizer", "the tokenizer file", path)?;
    tokenizer_file::stdin_once(
        path,
        TextInput::new(args.input.as_deref()).is_stdin(),
        "the ids (--input, not given or -)",
    )?;
    let tokenizer = match tokenizer_file::load_any(args.encoding, path, &args.rank_file)? {
        Tokenizer::ByteLevel(tokenizer) => {
            let lines = args.unit == Some(crate::commands::encode::UnitArg::Line);
            return decode_byte_level(&tokenizer, args.input.as_deref(), lines, args.json, &output);
        }
        Tokenizer::CharLevel(tokenizer) => *tokenizer,
    };
    if args.unit == Some(crate::commands::encode::UnitArg::Text) {
        return Err(CliError::usage(
            "--unit text applies to byte-level tokenizers; a character-level tokenizer decodes each line \
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

/// One decoded text as `decode --json` writes it for a byte-level tokenizer: the text, with
/// U+FFFD where the bytes are not UTF-8, and then the exact bytes.
#[derive(Serialize)]
struct DecodedText<'a> {
    text: Cow<'a, str>,
    /// Present exactly when `text` had to replace bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<&'a [u8]>,
}

/// `bpe-lab decode` with a byte-level tokenizer or `--encoding`: the ids' bytes out exactly,
/// all one text, or each line's bytes and a line feed (`lines`); with `json`, one
/// [`DecodedText`] line per text.
fn decode_byte_level(
    tokenizer: &ByteLevelTokenizer,
    input: Option<&Path>,
    lines: bool,
    json: bool,
    output: &OutputFlag,
) -> Result<(), CliError> {
    output.check()?;
    let source = TextInput::new(input);
    let mut bytes = Vec::new();
    source
        .open()?
        .read_to_end(&mut bytes)
        .map_err(|e| source.read_error(&e))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    let mut ids = Vec::new();
    // --unit text: every line's ids, one text.
    let mut text_ids = Vec::new();
    let emit = |ids: &[u32], line: Option<usize>, out: &mut Vec<u8>| {
        let place = line.map(|n| format!(", line {n}")).unwrap_or_default();
        let decoded = tokenizer.decode_bytes(ids).map_err(|e| {
            CliError::runtime(format!(
                "{source}{place}: {e} (ids go up to {})",
                tokenizer.n_vocab().saturating_sub(1)
            ))
        })?;
        if json {
            let text = String::from_utf8_lossy(&decoded);
            let exact = matches!(text, Cow::Borrowed(_));
            let record = DecodedText {
                text,
                bytes: (!exact).then_some(&decoded[..]),
            };
            serde_json::to_writer(&mut *out, &record).expect("writing JSON to memory");
            out.push(b'\n');
        } else {
            out.extend_from_slice(&decoded);
            if lines {
                out.push(b'\n');
            }
        }
        Ok::<(), CliError>(())
    };
    for (number, line) in text.lines().enumerate() {
        parse_id_line(line, &mut ids).map_err(|problem| {
            CliError::runtime(format!("{source}, line {}: {problem}", number + 1))
        })?;
        if lines {
            emit(&ids, Some(number + 1), &mut out)?;
        } else {
            text_ids.extend_from_slice(&ids);
        }
    }
    if !lines {
        emit(&text_ids, None, &mut out)?;
    }
    output.write_bytes(&out)
}
