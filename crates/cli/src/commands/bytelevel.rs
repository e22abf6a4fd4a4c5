//! The byte-level side of `train`, `encode`, `decode` and `export`: flags into
//! [`bpe_lab::tokenizer::bytelevel`] options, results printed. A byte-level tokenizer file is
//! recognized by its `"format"`, so `encode`, `decode` and `export` take either kind with `-t`.

use std::path::Path;
use std::time::Instant;

use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
use bpe_lab::tokenizer::bytelevel::{
    AllowedSpecial, ByteLevelTokenizer, ByteTrainingReport, DisallowedSpecial,
};
use bpe_lab::tokenizer::bytelevel_file::{ByteLevelFileError, ByteLevelFileProblem};
use bpe_lab::tokenizer::{ByteLevelConfig, OpenAiEncoding};
use clap::Args;

use crate::commands::error::CliError;
use crate::commands::output::{OutputFlag, path_json, print_line};
use crate::commands::tokenizer_file::TextInput;

/// `encode`'s byte-level flags (flattened into `EncodeArgs`).
#[derive(Debug, Args)]
pub(crate) struct ByteLevelEncodeArgs {
    /// Encode with one of OpenAI's encodings instead of a tokenizer file: gpt2, r50k_base,
    /// p50k_base, p50k_edit, cl100k_base, o200k_base, o200k_harmony, or a model's (-m gpt-4o,
    /// as tiktoken maps models) (needs a build with --features openai)
    #[arg(long, short = 'm', visible_alias = "model", value_name = "NAME",
          conflicts_with = "tokenizer", value_parser = encoding_parser)]
    pub(crate) encoding: Option<OpenAiEncoding>,

    /// Byte-level tokenizers: encode special tokens in the text as themselves: all of them,
    /// or only those listed (`--allow-special '<|endoftext|>,<|fim_prefix|>'`, repeatable),
    /// the others staying errors (without it a special token in the text is an error, as in
    /// tiktoken's encode)
    #[arg(long, value_name = "TOKENS", num_args = 0..=1, value_delimiter = ',',
          action = clap::ArgAction::Append)]
    pub(crate) allow_special: Option<Vec<String>>,

    /// Byte-level tokenizers: encode special tokens in the text as ordinary text
    #[arg(long)]
    pub(crate) special_as_text: bool,
}

/// The special token byte-level training and chunk counting cut text at when
/// `--special-tokens` is not given.
pub(crate) const DEFAULT_SPECIAL: &str = "<|endoftext|>";

/// The split pattern `train --byte-level` uses when neither `--pattern` nor `--regex` is given.
pub(crate) const DEFAULT_PATTERN: SplitPattern = ByteLevelConfig::DEFAULT_PATTERN;

pub(crate) fn encoding_parser(value: &str) -> Result<OpenAiEncoding, String> {
    crate::commands::flags::encoding_or_model(value)
}

/// `bpe-lab train --byte-level`: the flags that apply to character-level tokenizers only are
/// refused.
pub(crate) fn train(args: &crate::commands::train::TrainArgs) -> Result<(), CliError> {
    let started = Instant::now();
    if args.tokenizer.unk_token.is_some() {
        return Err(CliError::usage(
            "--unk-token applies to character-level tokenizers; a byte-level tokenizer has no unknown \
             token (every byte is a token)",
        ));
    }
    if args.tokenizer.vocab_order.is_some() {
        return Err(CliError::usage(
            "--vocab-order applies to character-level tokenizers; a byte-level tokenizer's ids are its \
             ranks: the 256 bytes, the merges in order, then the special tokens",
        ));
    }
    if let Some(table) = args.word_counts.as_deref() {
        return train_from_table(args, table, started);
    }
    let Some(input) = args.input.as_deref() else {
        return Err(CliError::usage(
            "--byte-level trains on a text file (--input) or a chunk table (--word-counts, \
             from `bpe-lab count --pattern`)",
        ));
    };
    let output = crate::commands::train::output_of(args)?;
    output.check()?;
    args.note_field_unused();
    let pattern = match (&args.byte_level.pattern, &args.byte_level.regex) {
        (_, Some(regex)) => SplitPattern::from_regex(regex),
        (Some(pattern), None) => pattern.clone(),
        (None, None) => DEFAULT_PATTERN,
    };
    // A pattern that does not compile or matches the empty string is refused before reading.
    Splitter::new(pattern.clone())
        .map_err(|e| crate::commands::train::regex_error(pattern.regex(), &e))?;
    let specials = args.special_tokens(&[DEFAULT_SPECIAL]);
    let specials: Vec<&str> = specials.iter().map(String::as_str).collect();
    bpe_lab::tokenizer::bytelevel::check_specials(specials.iter().copied())
        .map_err(|e| CliError::usage(format!("--special-tokens: {e}")))?;
    let merges = args.merges_for(256 + specials.len())?;
    // Through the one corpus reader: a text file whole, JSON, JSON Lines, CSV or Parquet as
    // their paragraphs, one per line.
    let text = match TextInput::new(Some(input)) {
        TextInput::Stdin => crate::commands::train::read_stdin()?,
        TextInput::File(_) => crate::commands::train::corpus_reader(args)
            .text(input)
            .map_err(|e| crate::commands::train::corpus_error(e, "--input"))?,
    };
    let drops = crate::commands::train::check_coverage(args, &text, &pattern, &specials)?;
    let trained = ByteLevelTokenizer::train_reporting(
        &text,
        args.settings(merges),
        &ByteLevelConfig::new(pattern).special_tokens(specials.iter().copied()),
    )
    .map_err(|e| {
        let flag = if args.byte_level.regex.is_some() {
            " (--regex)"
        } else {
            ""
        };
        CliError::runtime(format!("cannot train on '{}'{flag}: {e}", input.display()))
    })?;
    let run = TrainRun {
        source: input,
        merges,
        drops,
        started,
    };
    save(args, &output, trained, &run)
}

/// `train --byte-level --word-counts TABLE`: a chunk table (`bpe-lab count --pattern`, shards
/// summed) trains to the tokenizer training on its text gives. The pattern and the special
/// tokens come from the table; a --pattern, --regex or --special-tokens that says otherwise is
/// refused, naming both, and so is a word table.
#[cfg(feature = "columnar")]
fn train_from_table(
    args: &crate::commands::train::TrainArgs,
    path: &Path,
    started: Instant,
) -> Result<(), CliError> {
    use bpe_lab::dataset::CountTable;
    let output = crate::commands::train::output_of(args)?;
    output.check()?;
    let name = path.display();
    let table = bpe_lab::dataset::read_count_table(path)
        .map_err(|e| CliError::runtime(format!("--word-counts: {e}")))?;
    let table = match table {
        CountTable::Chunks(table) => table,
        CountTable::Words(_) => {
            return Err(CliError::usage(format!(
                "--word-counts '{name}' was counted by words, not chunks: --byte-level trains on \
                 a chunk table; count with --pattern (`bpe-lab count --pattern NAME ...`)"
            )));
        }
    };
    let split = table.split();
    let asked = match (&args.byte_level.pattern, &args.byte_level.regex) {
        (_, Some(regex)) => Some(("--regex", SplitPattern::from_regex(regex))),
        (Some(pattern), None) => Some(("--pattern", pattern.clone())),
        (None, None) => None,
    };
    if let Some((flag, pattern)) = asked
        && pattern != split.pattern
    {
        return Err(CliError::usage(format!(
            "{flag} {pattern} disagrees with --word-counts '{name}', which was split with \
             pattern {}: leave out {flag} (the table's pattern is used), or count again with \
             {flag} {pattern}",
            split.pattern
        )));
    }
    if let Some(specials) = &args.tokenizer.special_tokens
        && specials != &split.special_tokens
    {
        return Err(CliError::usage(format!(
            "--special-tokens {} disagrees with --word-counts '{name}', whose text was cut at \
             the special tokens {}: leave out --special-tokens (the table's are used), or count \
             again with them",
            specials.join(","),
            split.specials_json()
        )));
    }
    if table.is_empty() {
        return Err(CliError::runtime(format!(
            "--word-counts '{name}' has no chunks: the table has no rows with a count above zero"
        )));
    }
    let specials: Vec<&str> = split.special_tokens.iter().map(String::as_str).collect();
    let merges = args.merges_for(256 + specials.len())?;
    let trained = ByteLevelTokenizer::train_counts_reporting(
        &table.to_chunk_counts(),
        args.settings(merges),
        &ByteLevelConfig::new(split.pattern.clone()).special_tokens(specials.iter().copied()),
    )
    .map_err(|e| CliError::runtime(format!("cannot train on --word-counts '{name}': {e}")))?;
    let run = TrainRun {
        source: path,
        merges,
        drops: false,
        started,
    };
    save(args, &output, trained, &run)
}

#[cfg(not(feature = "columnar"))]
fn train_from_table(
    _args: &crate::commands::train::TrainArgs,
    path: &Path,
    _started: Instant,
) -> Result<(), CliError> {
    Err(CliError::usage(format!(
        "--word-counts '{}': reading chunk tables needs bpe-lab built with its `columnar` \
         feature (CSV and Parquet support)",
        path.display()
    )))
}

/// What a byte-level training run was given, for its summary.
struct TrainRun<'a> {
    /// The corpus or the chunk table.
    source: &'a Path,
    merges: usize,
    /// Whether the tokenizer drops text its --regex does not match (the file says so).
    drops: bool,
    started: Instant,
}

/// Writes the trained tokenizer and prints the summary (and, with --json, the JSON one).
fn save(
    args: &crate::commands::train::TrainArgs,
    output: &OutputFlag,
    (tokenizer, report): (ByteLevelTokenizer, ByteTrainingReport),
    run: &TrainRun,
) -> Result<(), CliError> {
    let merges = run.merges;
    let tokenizer = match run.drops {
        true => tokenizer.with_coverage(bpe_lab::bpe::bytelevel::Coverage::DropsUnmatched),
        false => tokenizer,
    };
    let json = tokenizer.to_json().map_err(|problem| {
        let path = args.output.clone();
        CliError::runtime(ByteLevelFileError { path, problem }.to_string())
    })?;
    output.write_bytes(json.as_bytes())?;
    eprintln!(
        "byte-level tokenizer ({} tie-break, pattern {}): {} from {} distinct chunks ({} in \
         all) in '{}' in {:.2?}; wrote {} ({} tokens and {} special)",
        args.tie_break,
        tokenizer.pattern(),
        crate::commands::train::learned(report.merges_learned, merges, report.stop, args).replace(
            "every word is a single symbol",
            "every chunk is a single token"
        ),
        report.distinct_chunks,
        report.total_chunks,
        run.source.display(),
        run.started.elapsed(),
        output,
        tokenizer.ranks().len(),
        tokenizer.specials().len(),
    );
    if args.tokenizer.json {
        let summary = serde_json::json!({
            "output": path_json(&args.output),
            "merges_learned": report.merges_learned,
            "merges_requested": merges,
            "stop_reason": bpe_lab::tokenizer::file::stop_reason_name(report.stop),
            "vocab_size": tokenizer.n_vocab(),
            "distinct_chunks": report.distinct_chunks,
            "total_chunks": report.total_chunks,
            "seconds": run.started.elapsed().as_secs_f64(),
        });
        print_line(&summary.to_string())?;
    }
    Ok(())
}

/// `encode`'s --allow-special and --special-as-text as the library's options, checked against
/// the tokenizer's special tokens.
pub(crate) fn special_options(
    tokenizer: &ByteLevelTokenizer,
    flags: &ByteLevelEncodeArgs,
) -> Result<(AllowedSpecial, DisallowedSpecial), CliError> {
    let allowed = match flags.allow_special.as_deref() {
        None => AllowedSpecial::None,
        Some([]) if flags.special_as_text => {
            return Err(CliError::usage(
                "--allow-special (all special tokens) leaves none for --special-as-text: list \
                 the ones to allow (--allow-special '<|endoftext|>') or leave one flag out",
            ));
        }
        Some([]) => AllowedSpecial::All,
        Some(names) => AllowedSpecial::Only(allowed_names(tokenizer, names)?),
    };
    let others = match flags.special_as_text {
        true => DisallowedSpecial::AsText,
        false => DisallowedSpecial::Error,
    };
    Ok((allowed, others))
}

/// `--allow-special A,B`: each name must be one of the tokenizer's special tokens.
fn allowed_names(
    tokenizer: &ByteLevelTokenizer,
    names: &[String],
) -> Result<std::collections::BTreeSet<String>, CliError> {
    for name in names {
        if !tokenizer.specials().contains_key(name) {
            let known: Vec<&str> = tokenizer.specials().keys().map(String::as_str).collect();
            return Err(CliError::usage(format!(
                "--allow-special {name:?} is not a special token of this tokenizer (its special \
                 tokens: {}); to encode text given as TEXT, put it before --allow-special or \
                 after --",
                match known.len() {
                    0 => "none".to_owned(),
                    n if n > 8 => format!("{} and {} more", known[..8].join(", "), n - 8),
                    _ => known.join(", "),
                }
            )));
        }
    }
    Ok(names.iter().cloned().collect())
}

/// The formats a byte-level tokenizer exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByteLevelExport {
    /// tiktoken's rank file, with the pattern and specials in `<output>.json`
    Tiktoken,
    /// Hugging Face's tokenizer.json (ByteLevel)
    Hf,
}

/// `bpe-lab export` of a byte-level tokenizer.
pub(crate) fn export(
    tokenizer: &ByteLevelTokenizer,
    format: ByteLevelExport,
    output: &OutputFlag,
) -> Result<(), CliError> {
    match format {
        ByteLevelExport::Tiktoken => {
            let Some(path) = output.path() else {
                return Err(CliError::usage(
                    "--format tiktoken writes two files (the ranks, and <FILE>.json beside \
                     them): give --output a file name, not -",
                ));
            };
            output.check()?;
            let sidecar = tokenizer
                .export_tiktoken(path)
                .map_err(|e| match &e.problem {
                    ByteLevelFileProblem::Io(io) if e.path == path => output.failed(io),
                    _ => CliError::runtime(e.to_string()),
                })?;
            eprintln!(
                "wrote {output} ({} ranks) and {} (name, pat_str, special_tokens for \
                 tiktoken.Encoding)",
                tokenizer.ranks().len(),
                sidecar.display()
            );
        }
        ByteLevelExport::Hf => {
            output.check()?;
            let json = tokenizer
                .to_hf_json()
                .map_err(|e| CliError::runtime(format!("cannot export: {e}")))?;
            let text = serde_json::to_string(&json).expect("a JSON value serializes");
            output.write_bytes(text.as_bytes())?;
            eprintln!(
                "wrote {output} (Hugging Face tokenizers, ByteLevel: {} tokens)",
                tokenizer.ranks().len()
            );
        }
    }
    Ok(())
}
