//! `bpe-lab export`: the tokenizer file in another tool's format.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::error::CliError;
use crate::cli::output;
use crate::cli::tokenizer_file::{self, SplitArg};

pub const LONG_ABOUT: &str = "\
Write a tokenizer in another tool's format.

--format hf writes a Hugging Face tokenizers tokenizer.json (tokenizers 0.20 or newer) that
gives exactly bpe-lab's ids. Inside it </w> is one private-use character (U+E000 unless the
vocabulary already uses it), a normalizer marks word ends the way the lab does, and the
decoder turns the marker back into spaces. Special tokens are plain vocabulary entries, so a
literal <PAD> in the text is split as bpe-lab splits it. The one text whose ids differ is
the empty text, for which HF gives no ids where bpe-lab gives </w>. A tokenizer whose merges
spell </w> or go on from the unknown token (a corpus containing those strings) is refused.";

pub const AFTER_HELP: &str = "\
Example:
  bpe-lab export --tokenizer tokenizer.json --format hf --output hf-tokenizer.json
  python -c 'from tokenizers import Tokenizer; print(Tokenizer.from_file(\"hf-tokenizer.json\").encode(\"the air\").ids)'

Exit status: 0 on success, 1 when the work fails, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The tokenizer file written by `bpe-lab train`
    #[arg(short, long, value_name = "T.json")]
    pub tokenizer: PathBuf,

    /// The format to write
    #[arg(short, long, value_enum, value_name = "FORMAT", default_value_t = ExportFormat::Hf)]
    pub format: ExportFormat,

    /// How the exported tokenizer cuts text into words [default: the tokenizer file's setting]
    #[arg(long, value_enum, value_name = "RULE")]
    pub split: Option<SplitArg>,

    /// Where to write the exported file (replaced atomically)
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Hugging Face tokenizers' tokenizer.json (tokenizers 0.20 or newer), same ids as bpe-lab
    Hf,
    /// tiktoken's rank file (byte-level tokenizers), the pattern and special tokens written
    /// beside it as <FILE>.json
    Tiktoken,
}

pub fn run(args: &ExportArgs) -> Result<(), CliError> {
    if args.output == args.tokenizer {
        return Err(CliError::usage(format!(
            "--output '{}' is the tokenizer file; writing there would replace it",
            args.output.display()
        )));
    }
    if crate::cli::bytelevel::is_byte_level_file(&args.tokenizer) {
        use crate::cli::bytelevel::{ByteLevelExport, export};
        let format = match args.format {
            ExportFormat::Hf => ByteLevelExport::Hf,
            ExportFormat::Tiktoken => ByteLevelExport::Tiktoken,
        };
        return export(&args.tokenizer, format, &args.output);
    }
    let mut tokenizer = tokenizer_file::load(&args.tokenizer)?;
    if let Some(split) = args.split {
        tokenizer.set_split(split.into());
    }
    output::check_writable(&args.output)?;
    let json = match args.format {
        ExportFormat::Tiktoken => {
            return Err(CliError::usage(
                "--format tiktoken needs a byte-level tokenizer (bpe-lab train --byte-level)",
            ));
        }
        ExportFormat::Hf => tokenizer.to_hf_json().map_err(|e| {
            CliError::runtime(format!(
                "cannot export '{}' to Hugging Face format: {e}",
                args.tokenizer.display()
            ))
        })?,
    };
    output::write_atomically(&args.output, |out: &mut dyn Write| {
        out.write_all(json.as_bytes())
    })?;
    eprintln!(
        "wrote {} (Hugging Face tokenizers format: {} tokens, {} merges, split on {})",
        args.output.display(),
        tokenizer.vocab().len(),
        tokenizer.merges().len(),
        tokenizer.split()
    );
    Ok(())
}
