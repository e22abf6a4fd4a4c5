//! `bpe-lab train`: corpus file in, tokenizer file out (see `bpe_lab::tokenizer::file`).

use std::path::Path;
use std::time::Instant;

use bpe_lab::tokenizer::file::stop_reason_name;
use bpe_lab::tokenizer::{DEFAULT_UNK_TOKEN, Tokenizer, TokenizerConfig, TrainingSettings};
use bpe_lab::{StopReason, Trainer, Training, WordCounts};
use clap::Args;
use serde_json::json;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::VocabOrderArg;
use crate::cli::{TrainArgs, input, output, progress};

/// The options of `train` about the tokenizer it writes (flattened into `TrainArgs`).
#[derive(Debug, Args)]
pub struct TokenizerArgs {
    /// Special tokens, comma-separated; they get the first ids, in this order
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "<PAD>,<UNK>"
    )]
    pub special_tokens: Vec<String>,

    /// The special token that characters outside the vocabulary become
    #[arg(long, value_name = "TOKEN", default_value = DEFAULT_UNK_TOKEN)]
    pub unk_token: String,

    /// How token ids are numbered
    #[arg(long, value_enum, value_name = "ORDER", default_value_t = VocabOrderArg::MergeOrder)]
    pub vocab_order: VocabOrderArg,

    /// Also print a summary as one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

impl TokenizerArgs {
    fn config(&self) -> Result<TokenizerConfig, CliError> {
        let config = TokenizerConfig::default()
            .special_tokens(self.special_tokens.iter().cloned())
            .unk_token(self.unk_token.clone())
            .order(self.vocab_order.into());
        // The checks that do not depend on the corpus, before the long part.
        Tokenizer::new([], Vec::new(), config.clone())
            .map_err(|e| CliError::usage(format!("--special-tokens/--unk-token: {e}")))?;
        Ok(config)
    }
}

pub fn run(args: &TrainArgs) -> Result<(), CliError> {
    let started = Instant::now();
    for input in [&args.input, &args.word_counts].into_iter().flatten() {
        check_not_same_file(input, &args.output)?;
    }
    let config = args.tokenizer.config()?;
    // Before the long part, so a typo in the output path costs nothing.
    output::check_writable(&args.output)?;

    let (words, corpus_name) = match (&args.word_counts, &args.input) {
        (Some(table), _) => (read_table(table)?, format!("'{}'", table.display())),
        (None, Some(path)) => (
            read_file(path, &args.field)?,
            format!("'{}'", path.display()),
        ),
        (None, None) => (read_dataset()?, "the Africa Galore dataset".to_owned()),
    };
    let (distinct, total) = (words.len(), words.total());

    let tie_break = args.tie_break;
    let bar = progress::merges_bar(args.merges);
    let training = Trainer::new(args.merges)
        .tie_break(tie_break)
        .min_frequency(args.min_frequency)
        .on_progress(|p| progress::show_merge(&bar, p))
        .train(words);
    bar.finish_and_clear();

    let settings = TrainingSettings {
        num_merges: args.merges,
        tie_break,
        min_frequency: args.min_frequency,
    };
    let tokenizer = Tokenizer::from_training(&training, settings, config).map_err(|e| {
        CliError::runtime(format!("cannot build a tokenizer from {corpus_name}: {e}"))
    })?;
    output::write_atomically(&args.output, |out| tokenizer.write_json(out))?;

    eprintln!(
        "{} from {distinct} distinct words ({total} in all) in {:.2?}; wrote {} ({} tokens)",
        learned(&training, args),
        started.elapsed(),
        args.output.display(),
        tokenizer.vocab().len()
    );
    if args.tokenizer.json {
        let summary = json!({
            "output": args.output,
            "merges_learned": tokenizer.merges().len(),
            "merges_requested": args.merges,
            "stop_reason": stop_reason_name(training.stop),
            "vocab_size": tokenizer.vocab().len(),
            "distinct_words": distinct,
            "total_words": total,
            "seconds": started.elapsed().as_secs_f64(),
        });
        println!("{summary}");
    }
    Ok(())
}

/// The first half of the summary line: how many merges, and why fewer if so.
fn learned(training: &Training, args: &TrainArgs) -> String {
    let n = training.merges.len();
    let plural = if n == 1 { "" } else { "s" };
    match training.stop {
        StopReason::MergesDone => format!("learned {n} merge{plural}"),
        StopReason::NoPairs => format!(
            "learned {n} of {} merges (stopped early: every word is a single symbol)",
            args.merges
        ),
        StopReason::BelowMinFrequency => format!(
            "learned {n} of {} merges (stopped early: the next pair occurs fewer than {} times)",
            args.merges, args.min_frequency
        ),
    }
}

/// The words of a corpus file; an empty corpus is an error.
fn read_file(path: &Path, field: &str) -> Result<WordCounts, CliError> {
    let spinner = progress::spinner(format!("reading {}", path.display()));
    let words = input::read_corpus(path, field);
    spinner.finish_and_clear();
    let words = words?;
    if words.is_empty() {
        return Err(CliError::runtime(format!(
            "'{}' contains no words: it is empty or has only blank lines (expected UTF-8 text, \
             one paragraph per line, or a JSON array of objects with a \"{field}\" field)",
            path.display()
        )));
    }
    Ok(words)
}

/// The words of a (word, count) table, as `bpe-lab count` or Spark writes it; an empty table
/// (no rows, or only zero counts) is an error.
#[cfg(feature = "columnar")]
fn read_table(path: &Path) -> Result<WordCounts, CliError> {
    let spinner = progress::spinner(format!("reading {}", path.display()));
    let table = bpe_lab::dataset::read_word_table(path);
    spinner.finish_and_clear();
    let table = table.map_err(|e| CliError::runtime(e.to_string()))?;
    if table.is_empty() {
        return Err(CliError::runtime(format!(
            "'{}' has no words: the table has no rows with a count above zero (expected the \
             columns \"word\" and \"count\", one row per distinct word)",
            path.display()
        )));
    }
    Ok(table.to_word_counts())
}

#[cfg(not(feature = "columnar"))]
fn read_table(_: &Path) -> Result<WordCounts, CliError> {
    Err(CliError::usage(
        "--word-counts needs bpe-lab's `columnar` feature (CSV and Parquet support)",
    ))
}

/// The words of Africa Galore as `bpe_lab::dataset` finds it (cache, download or stand-in),
/// saying on stderr which source was used.
#[cfg(feature = "dataset")]
fn read_dataset() -> Result<WordCounts, CliError> {
    let spinner = progress::spinner("loading the Africa Galore dataset");
    let loaded = bpe_lab::dataset::paragraphs_for_training(false);
    spinner.finish_and_clear();
    let (paragraphs, provenance) =
        loaded.map_err(|e| CliError::runtime(format!("cannot load the dataset: {e}")))?;
    eprintln!("no --input: training on Africa Galore ({provenance})");
    Ok(WordCounts::from_paragraphs(&paragraphs))
}

#[cfg(not(feature = "dataset"))]
fn read_dataset() -> Result<WordCounts, CliError> {
    Err(CliError::usage(
        "--input is required: this build has no dataset support (the `dataset` feature)",
    ))
}

/// Refuses to overwrite the corpus (or a table) with what is made from it.
pub fn check_not_same_file(input: &Path, output: &Path) -> Result<(), CliError> {
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize())
        && a == b
    {
        return Err(CliError::usage(format!(
            "--output '{}' is the input file; writing there would replace the corpus",
            output.display()
        )));
    }
    Ok(())
}
