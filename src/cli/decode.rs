//! `bpe-lab decode`: lines of token ids in, one line of text out per line.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use bpe_lab::tokenizer::Tokenizer;
use clap::Args;
use serde_json::json;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::{self, Source, is_broken_pipe};

pub const LONG_ABOUT: &str = "\
Turn token ids back into text: one line of ids (whole numbers separated by spaces) in, one
line of text out.

The tokens are written one after another; a </w> that ends a token becomes a space, except
after the last word, so `encode` followed by `decode` gives each line back (with --split
whitespace: its words joined by single spaces). Special tokens are written as their text, so
<UNK> shows where an unknown character was. An id outside the vocabulary is an error naming
the line.";

pub const AFTER_HELP: &str = "\
Example:
  bpe-lab encode -t tokenizer.json -i text.txt --ids | bpe-lab decode -t tokenizer.json

Exit status: 0 on success, 1 when the work fails (a file is missing, a line holds something
other than ids of the vocabulary: the message names the line), 2 when the command line is
wrong.";

#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The tokenizer file the ids come from
    #[arg(short, long, value_name = "T.json")]
    pub tokenizer: PathBuf,

    /// Token ids, separated by spaces, one text per line [default: standard input]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Print one JSON object per line, {"text": "..."} (keeps one line per input line even
    /// when a text holds a newline)
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &DecodeArgs) -> Result<(), CliError> {
    if crate::cli::bytelevel::is_byte_level_file(&args.tokenizer) {
        return crate::cli::bytelevel::decode(&args.tokenizer, args.input.as_deref());
    }
    let tokenizer = tokenizer_file::load(&args.tokenizer)?;
    let source = Source::new(args.input.as_deref());
    let mut reader = BufReader::with_capacity(1 << 16, source.open()?);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = decode_lines(&tokenizer, &source, &mut reader, &mut out, args.json);
    match result.and_then(|()| out.flush().map_err(Failure::Output)) {
        Ok(()) => Ok(()),
        Err(Failure::Output(e)) if is_broken_pipe(&e) => Ok(()),
        Err(Failure::Output(e)) => Err(CliError::runtime(format!(
            "cannot write to standard output: {e}"
        ))),
        Err(Failure::Input(e)) => Err(e),
    }
}

enum Failure {
    Input(CliError),
    Output(io::Error),
}

fn decode_lines(
    tokenizer: &Tokenizer,
    source: &Source,
    reader: &mut dyn BufRead,
    out: &mut dyn Write,
    as_json: bool,
) -> Result<(), Failure> {
    let mut bytes = Vec::new();
    let mut ids = Vec::new();
    let mut text = String::new();
    for number in 1u64.. {
        bytes.clear();
        let n = reader
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Failure::Input(source.read_error(&e)))?;
        if n == 0 {
            return Ok(());
        }
        let line = std::str::from_utf8(&bytes)
            .map_err(|e| Failure::Input(tokenizer_file::not_utf8(source, number, e)))?;
        ids.clear();
        parse_ids(line, &mut ids).map_err(|why| {
            Failure::Input(CliError::runtime(format!("{source} line {number}: {why}")))
        })?;
        text.clear();
        tokenizer.decode_into(&ids, &mut text).map_err(|e| {
            Failure::Input(CliError::runtime(format!(
                "{source} line {number}: id {} (item {}) is not in the vocabulary, whose ids \
                 are 0 to {}",
                e.id,
                e.position + 1,
                e.vocab_size.saturating_sub(1)
            )))
        })?;
        if as_json {
            serde_json::to_writer(&mut *out, &json!({ "text": text }))
                .map_err(|e| Failure::Output(e.into()))?;
        } else {
            out.write_all(text.as_bytes()).map_err(Failure::Output)?;
        }
        out.write_all(b"\n").map_err(Failure::Output)?;
    }
    unreachable!("lines are counted until the input ends")
}

/// The ids of one line: whole numbers separated by whitespace.
fn parse_ids(line: &str, ids: &mut Vec<u32>) -> Result<(), String> {
    for (i, item) in line.split_ascii_whitespace().enumerate() {
        let id = item.parse::<u32>().map_err(|_| {
            let shown: String = item.chars().take(20).collect();
            format!(
                "item {} is {shown:?}, not a token id (expected whole numbers separated by \
                 spaces)",
                i + 1
            )
        })?;
        ids.push(id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_whole_numbers_separated_by_whitespace() {
        let mut ids = Vec::new();
        parse_ids(" 1 22\t333 \r\n", &mut ids).unwrap();
        assert_eq!(ids, [1, 22, 333]);
        let err = parse_ids("1 x2", &mut Vec::new()).unwrap_err();
        assert!(err.contains("item 2 is \"x2\""), "{err}");
        assert!(parse_ids("-1", &mut Vec::new()).is_err());
        assert!(parse_ids("4294967296", &mut Vec::new()).is_err());
    }
}
