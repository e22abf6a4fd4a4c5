//! The byte-level side of `train`, `encode`, `decode` and `export`: flags into
//! [`bpe_lab::tokenizer::bytelevel`] options, results printed. A byte-level tokenizer file is
//! recognized by its `"format"`, so `encode`, `decode` and `export` take either kind with `-t`.

use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Instant;

use bpe_lab::bpe::bytes::SplitPattern;
use bpe_lab::tokenizer::OpenAiEncoding;
use bpe_lab::tokenizer::bytelevel::{AllowedSpecial, ByteLevelTokenizer, DisallowedSpecial};
use bpe_lab::tokenizer::bytelevel_file::is_byte_level_json;
use clap::Args;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::{TextInput, is_broken_pipe};

/// `train`'s byte-level flags (flattened into `TrainArgs`).
#[derive(Debug, Args)]
pub struct ByteLevelTrainArgs {
    /// Train a byte-level tokenizer (GPT-2 onwards: 256 byte tokens, regex-split chunks, no
    /// <UNK>) on --input: a text file whole, other formats' paragraphs one per line
    #[arg(long)]
    pub byte_level: bool,

    /// With --byte-level: the split pattern, gpt2, gpt4 (cl100k_base), o200k, or a regex
    #[arg(
        long,
        value_name = "PATTERN",
        default_value = "gpt4",
        requires = "byte_level"
    )]
    pub pattern: String,

    /// With --byte-level: special tokens, comma-separated, given the ids after the merged
    /// tokens; training text is cut at them
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "<|endoftext|>",
        requires = "byte_level"
    )]
    pub special: Vec<String>,
}

/// `encode`'s byte-level flags (flattened into `EncodeArgs`).
#[derive(Debug, Args)]
pub struct ByteLevelEncodeArgs {
    /// Encode with one of OpenAI's encodings instead of a tokenizer file: r50k_base,
    /// cl100k_base or o200k_base (needs a build with --features openai)
    #[arg(long, value_name = "NAME", conflicts_with = "tokenizer", value_parser = encoding_parser)]
    pub encoding: Option<OpenAiEncoding>,

    /// Byte-level tokenizers: encode special tokens in the text as themselves (without it a
    /// special token in the text is an error, as in tiktoken's encode)
    #[arg(long, conflicts_with = "special_as_text")]
    pub allow_special: bool,

    /// Byte-level tokenizers: encode special tokens in the text as ordinary text
    #[arg(long)]
    pub special_as_text: bool,
}

fn encoding_parser(value: &str) -> Result<OpenAiEncoding, String> {
    value.parse()
}

/// Whether `path` holds a byte-level tokenizer (unreadable files are left to the caller).
pub fn is_byte_level_file(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| is_byte_level_json(&text))
}

fn load(path: &Path) -> Result<ByteLevelTokenizer, CliError> {
    ByteLevelTokenizer::load(path).map_err(|e| CliError::runtime(e.to_string()))
}

fn read_all(source: &TextInput) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    source
        .open()?
        .read_to_end(&mut bytes)
        .map_err(|e| source.read_error(&e))?;
    Ok(bytes)
}

fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    match io::stdout().lock().write_all(bytes) {
        Err(e) if is_broken_pipe(&e) => Ok(()),
        Err(e) => Err(CliError::runtime(format!(
            "cannot write standard output: {e}"
        ))),
        Ok(()) => Ok(()),
    }
}

/// What `train` passes on for a byte-level run.
pub struct TrainRun<'a> {
    pub input: Option<&'a Path>,
    /// `--field`: the JSON field or column that holds a paragraph.
    pub field: &'a str,
    pub word_counts: bool,
    pub output: &'a Path,
    pub merges: usize,
    pub tie_break: bpe_lab::TieBreak,
    pub min_frequency: u64,
    pub flags: &'a ByteLevelTrainArgs,
}

/// `bpe-lab train --byte-level`.
pub fn train(args: TrainRun) -> Result<(), CliError> {
    let started = Instant::now();
    let Some(input) = args.input else {
        return Err(CliError::usage(
            "--byte-level trains on a text file: give --input",
        ));
    };
    if args.word_counts {
        return Err(CliError::usage(
            "--byte-level trains on a text file (--input), not on a word table",
        ));
    }
    bpe_lab::files::check_writable(args.output)?;
    let pattern: SplitPattern = args.flags.pattern.parse().expect("infallible");
    // Through the one corpus reader: a text file whole, JSON, JSON Lines, CSV or Parquet as
    // their paragraphs, one per line.
    let text = bpe_lab::dataset::CorpusReader::new()
        .text_column(args.field)
        .text(input)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    let specials: Vec<&str> = args.flags.special.iter().map(String::as_str).collect();
    let tokenizer = ByteLevelTokenizer::train_with(
        &text,
        pattern,
        args.merges,
        args.tie_break,
        args.min_frequency,
        &specials,
    )
    .map_err(|e| CliError::runtime(format!("cannot train on '{}': {e}", input.display())))?;
    tokenizer
        .save(args.output)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    eprintln!(
        "byte-level tokenizer ({} tie-break, pattern {}): {} tokens and {} special from '{}' \
         in {:.2?}; wrote {}",
        args.tie_break,
        tokenizer.pattern(),
        tokenizer.ranks().len(),
        tokenizer.specials().len(),
        input.display(),
        started.elapsed(),
        args.output.display()
    );
    Ok(())
}

/// `bpe-lab encode` with a byte-level tokenizer or `--encoding`: the whole input is one text;
/// prints its ids on one line (`--ids`), or its tokens as a JSON array of strings (bytes that
/// are not UTF-8 shown as U+FFFD).
pub fn encode(
    tokenizer: Option<&Path>,
    flags: &ByteLevelEncodeArgs,
    input: Option<&Path>,
    ids: bool,
) -> Result<(), CliError> {
    let tokenizer = match (flags.encoding, tokenizer) {
        (Some(encoding), _) => encoding
            .tokenizer()
            .map_err(|e| CliError::runtime(e.to_string()))?,
        (None, Some(path)) => load(path)?,
        (None, None) => return Err(CliError::usage("give --tokenizer or --encoding")),
    };
    let source = TextInput::new(input);
    let bytes = read_all(&source)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::runtime(format!(
            "the input is not UTF-8 (byte {}); byte-level tokenizers encode text",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let (allowed, others) = match (flags.allow_special, flags.special_as_text) {
        (true, _) => (AllowedSpecial::All, DisallowedSpecial::Error),
        (false, true) => (AllowedSpecial::None, DisallowedSpecial::AsText),
        (false, false) => (AllowedSpecial::None, DisallowedSpecial::Error),
    };
    let encoded = tokenizer
        .encode_with(&text, &allowed, others)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    let mut out = if ids {
        encoded
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        let tokens: Vec<String> = encoded
            .iter()
            .map(|&id| {
                String::from_utf8_lossy(tokenizer.token_bytes(id).unwrap_or_default()).into_owned()
            })
            .collect();
        serde_json::to_string(&tokens).expect("strings serialize")
    };
    out.push('\n');
    write_stdout(out.as_bytes())
}

/// `bpe-lab decode` with a byte-level tokenizer: whitespace-separated ids in, their bytes out,
/// exactly (no newline added).
pub fn decode(tokenizer: &Path, input: Option<&Path>) -> Result<(), CliError> {
    let tokenizer = load(tokenizer)?;
    let source = TextInput::new(input);
    let bytes = read_all(&source)?;
    let text = String::from_utf8_lossy(&bytes);
    let ids = text
        .split_ascii_whitespace()
        .map(|word| {
            word.parse::<u32>()
                .map_err(|_| CliError::runtime(format!("{word:?} is not a token id")))
        })
        .collect::<Result<Vec<u32>, _>>()?;
    let decoded = tokenizer
        .decode_bytes(&ids)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    write_stdout(&decoded)
}

/// The formats a byte-level tokenizer exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteLevelExport {
    /// tiktoken's rank file, with the pattern and specials in `<output>.json`
    Tiktoken,
    /// Hugging Face's tokenizer.json (ByteLevel)
    Hf,
}

/// `bpe-lab export` of a byte-level tokenizer.
pub fn export(tokenizer: &Path, format: ByteLevelExport, output: &Path) -> Result<(), CliError> {
    let tokenizer = load(tokenizer)?;
    bpe_lab::files::check_writable(output)?;
    match format {
        ByteLevelExport::Tiktoken => {
            let sidecar = tokenizer
                .export_tiktoken(output)
                .map_err(|e| CliError::runtime(e.to_string()))?;
            eprintln!(
                "wrote {} ({} ranks) and {} (name, pat_str, special_tokens for \
                 tiktoken.Encoding)",
                output.display(),
                tokenizer.ranks().len(),
                sidecar.display()
            );
        }
        ByteLevelExport::Hf => {
            tokenizer
                .export_hf(output)
                .map_err(|e| CliError::runtime(format!("cannot export: {e}")))?;
            eprintln!(
                "wrote {} (Hugging Face tokenizers, ByteLevel: {} tokens)",
                output.display(),
                tokenizer.ranks().len()
            );
        }
    }
    Ok(())
}
