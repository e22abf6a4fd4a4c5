//! `bpe-lab encode`: text in, one line of tokens (or ids) out per line of text. The work (in
//! blocks, on every core, with the tokenizer's word cache) is
//! `bpe_lab::tokenizer::Tokenizer::encode_lines`; this file maps the flags and reports.

use std::io;
use std::path::PathBuf;

use bpe_lab::tokenizer::{EncodeLinesError, LineOutput};
use clap::Args;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::{self, SplitArg, TextInput, is_broken_pipe};

pub const LONG_ABOUT: &str = "\
Encode text with a tokenizer: one output line per input line, holding its tokens (or, with
--ids, their ids) separated by single spaces.

Each line is cut into words at every single space, as Python's line.split(\" \") and the lab
do (--split whitespace cuts at runs of whitespace instead, as line.split()). Each word becomes
its characters followed by </w>, and the tokenizer's merges are applied, lowest rank first.
A character the vocabulary does not hold becomes <UNK>, one per character; a note on stderr
says how many and on which line the first was. Under the space split an empty line is one
empty word, the single token </w>. A trailing \\r (CRLF files) is dropped.";

pub const AFTER_HELP: &str = "\
Examples:
  bpe-lab encode --tokenizer tokenizer.json --input text.txt --ids > ids.txt
  echo 'the lowest point' | bpe-lab encode -t tokenizer.json

Exit status: 0 on success, 1 when the work fails (a file is missing or not UTF-8: the message
names the file and line), 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The tokenizer file written by `bpe-lab train`
    #[arg(
        short,
        long,
        value_name = "T.json",
        required_unless_present = "encoding"
    )]
    pub tokenizer: Option<PathBuf>,

    /// UTF-8 text to encode, one paragraph per line [default: standard input]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Print token ids instead of tokens
    #[arg(long)]
    pub ids: bool,

    /// Print one JSON object per line, {"tokens": [...], "ids": [...]}
    #[arg(long, conflicts_with = "ids")]
    pub json: bool,

    /// How to cut lines into words [default: the tokenizer file's setting, normally space]
    #[arg(long, value_enum, value_name = "RULE")]
    pub split: Option<SplitArg>,

    /// Threads to encode on (0: one per core; small inputs always use one)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    #[command(flatten)]
    pub byte_level: crate::cli::bytelevel::ByteLevelEncodeArgs,
}

pub fn run(args: &EncodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    if args.byte_level.encoding.is_some()
        || path.is_some_and(crate::cli::bytelevel::is_byte_level_file)
    {
        return crate::cli::bytelevel::encode(
            path,
            &args.byte_level,
            args.input.as_deref(),
            args.ids,
        );
    }
    let mut tokenizer = tokenizer_file::load(path.expect("clap requires --tokenizer here"))?;
    if let Some(split) = args.split {
        tokenizer.set_split(split.into());
    }
    let output = match (args.json, args.ids) {
        (true, _) => LineOutput::Json,
        (false, true) => LineOutput::Ids,
        (false, false) => LineOutput::Tokens,
    };
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let input = TextInput::new(args.input.as_deref());
    let mut reader = input.open()?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let encoded =
        tokenizer.encode_lines(&mut reader, &input.to_string(), &mut out, output, threads);
    let done = match encoded {
        Ok(done) => done,
        Err(EncodeLinesError::Write(e)) if is_broken_pipe(&e) => return Ok(()),
        Err(EncodeLinesError::Write(e)) => {
            return Err(CliError::runtime(format!(
                "cannot write to standard output: {e}"
            )));
        }
        Err(EncodeLinesError::Read(e)) => return Err(input.read_error(&e)),
        Err(EncodeLinesError::InvalidUtf8(bad)) => return Err(CliError::runtime(bad.to_string())),
    };
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
