//! `bpe-lab decode`: lines of token ids in, one line of text out per line. The work is
//! `bpe_lab::tokenizer::Tokenizer::decode_lines`; this file maps the flags and reports.

use std::io::{self, BufReader, BufWriter};
use std::path::PathBuf;

use bpe_lab::tokenizer::DecodeLinesError;
use clap::Args;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::{self, TextInput, is_broken_pipe};

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
    let input = TextInput::new(args.input.as_deref());
    let mut reader = BufReader::with_capacity(1 << 16, input.open()?);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let name = input.to_string();
    match tokenizer.decode_lines(&mut reader, &name, &mut out, args.json) {
        Ok(_) => Ok(()),
        Err(DecodeLinesError::Write(e)) if is_broken_pipe(&e) => Ok(()),
        Err(DecodeLinesError::Write(e)) => Err(CliError::runtime(format!(
            "cannot write to standard output: {e}"
        ))),
        Err(DecodeLinesError::Read(e)) => Err(input.read_error(&e)),
        Err(e) => Err(CliError::runtime(e.to_string())),
    }
}
