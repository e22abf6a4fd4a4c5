//! `bpe-lab export`: the tokenizer file in another tool's format.

use std::path::PathBuf;

use bpe_lab::tokenizer::Tokenizer;
use clap::{Args, ValueEnum};

use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;
use crate::commands::tokenizer_file::{self, SplitArg};

pub(crate) const LONG_ABOUT: &str = "\
Write a tokenizer in another tool's format.

Byte-level tokenizers (-t, any file `encode -t` takes, or --encoding): --format tiktoken
writes tiktoken's rank file and, beside it as <FILE>.json, the name, pattern and special
tokens tiktoken.Encoding needs (`encode -t <FILE>` reads the pair back); --format hf writes a
Hugging Face tokenizer.json (Split on the pattern, then ByteLevel) with the same ids.

Character-level tokenizers: --format hf writes a Hugging Face tokenizers tokenizer.json (tokenizers 0.20 or newer) that
gives exactly bpe-lab's ids. Inside it </w> is one private-use character (U+E000 unless the
vocabulary already uses it), a normalizer marks word ends the way the lab does, and the
decoder turns the marker back into spaces. Special tokens are plain vocabulary entries, so a
literal <PAD> in the text is split as bpe-lab splits it. The one text whose ids differ is
the empty text, for which HF gives no ids where bpe-lab gives </w>. A tokenizer whose merges
spell </w> or go on from the unknown token (a corpus containing those strings) is refused.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab export --tokenizer tokenizer.json --format hf --output hf-tokenizer.json
  bpe-lab export -t bytes.json --format tiktoken --output bytes.tiktoken
  python -c 'from tokenizers import Tokenizer; print(Tokenizer.from_file(\"hf-tokenizer.json\").encode(\"the air\").ids)'

Exit status: 0 on success, 1 when the work fails, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The tokenizer: a file written by `bpe-lab train` (lab or --byte-level), or any
    /// byte-level file `encode -t` takes (`-`: read from standard input)
    #[arg(short, long, value_name = "FILE", required_unless_present = "encoding")]
    pub(crate) tokenizer: Option<PathBuf>,

    /// Export one of OpenAI's encodings (gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base,
    /// o200k_base, o200k_harmony) or a model's (-m gpt-4o)
    #[arg(long, short = 'm', visible_alias = "model", value_name = "NAME", conflicts_with = "tokenizer",
          value_parser = crate::commands::bytelevel::encoding_parser)]
    pub(crate) encoding: Option<bpe_lab::tokenizer::OpenAiEncoding>,

    /// The format to write
    #[arg(short, long, value_enum, value_name = "FORMAT", default_value_t = ExportFormat::Hf)]
    pub(crate) format: ExportFormat,

    /// Character-level tokenizers: how the exported tokenizer cuts text into words [default: the
    /// tokenizer file's setting]
    #[arg(long, value_enum, value_name = "RULE")]
    pub(crate) split: Option<SplitArg>,

    /// Where to write the exported file (a regular file is replaced atomically; `-` is
    /// standard output)
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) rank_file: tokenizer_file::RankFileArgs,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// Hugging Face tokenizers' tokenizer.json (tokenizers 0.20 or newer), same ids as bpe-lab
    Hf,
    /// tiktoken's rank file (byte-level tokenizers), the pattern and special tokens written
    /// beside it as <FILE>.json
    Tiktoken,
}

pub(crate) fn run(args: &ExportArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    let output = OutputFlag::new("--output", Some(&args.output));
    output.not_input("--tokenizer", "the tokenizer file", path)?;
    let mut tokenizer = match tokenizer_file::load_any(args.encoding, path, &args.rank_file)? {
        Tokenizer::ByteLevel(tokenizer) => {
            use crate::commands::bytelevel::{ByteLevelExport, export};
            if args.split.is_some() {
                return Err(CliError::usage(
                    "--split applies to character-level tokenizers; a byte-level tokenizer cuts text with \
                     its own pattern",
                ));
            }
            let format = match args.format {
                ExportFormat::Hf => ByteLevelExport::Hf,
                ExportFormat::Tiktoken => ByteLevelExport::Tiktoken,
            };
            return export(&tokenizer, format, &output);
        }
        Tokenizer::CharLevel(tokenizer) => *tokenizer,
    };
    let path = path.expect("a character-level tokenizer comes from --tokenizer");
    if let Some(split) = args.split {
        tokenizer.set_split(split.into());
    }
    output.check()?;
    if args.format == ExportFormat::Tiktoken {
        return Err(CliError::usage(
            "--format tiktoken needs a byte-level tokenizer (bpe-lab train --byte-level)",
        ));
    }
    let json = tokenizer.to_hf_json().map_err(|why| {
        CliError::runtime(format!(
            "cannot export {} to Hugging Face format: {why}",
            bpe_lab::files::source_name(path)
        ))
    })?;
    output.write_bytes(json.as_bytes())?;
    eprintln!(
        "wrote {output} (Hugging Face tokenizers format: {} tokens, {} merges, split on {})",
        tokenizer.vocab().len(),
        tokenizer.merges().len(),
        tokenizer.split()
    );
    Ok(())
}
