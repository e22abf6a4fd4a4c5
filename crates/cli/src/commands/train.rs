//! `bpe-lab train`: corpus file in, tokenizer file out. The flags become a
//! [`TrainingSettings`] and a [`TokenizerConfig`]; the corpus is read by
//! `bpe_lab::dataset::CorpusReader` (the reader every command shares) and trained on by
//! [`CharLevelTokenizer::train_words`]; this file prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use bpe_lab::bpe::bytelevel::SplitPattern;
use bpe_lab::dataset::{CorpusReader, DatasetError, Format};
use bpe_lab::files::InvalidUtf8;
use bpe_lab::tokenizer::file::stop_reason_name;
use bpe_lab::tokenizer::{
    CharLevelTokenizer, DEFAULT_UNK_TOKEN, TokenizerConfig, TrainingSettings,
};
use bpe_lab::{StopReason, WordCounts};
use clap::Args;
use serde_json::json;

use crate::commands::error::CliError;
use crate::commands::flags::{at_least_one, tie_break_parser};
use crate::commands::output::{OutputFlag, path_json, print_line};
use crate::commands::progress;
use crate::commands::tokenizer_file::VocabOrderArg;

/// The long help, with the built-in patterns' names read from their table.
pub(crate) fn long_about() -> String {
    LONG_ABOUT.replace(
        "{PATTERNS}",
        &bpe_lab::bpe::bytelevel::builtin_pattern_names(),
    )
}

const LONG_ABOUT: &str = "\
Learn BPE merges from a corpus and save the tokenizer (merges and vocabulary) as JSON.

A merge is a rule \"symbol A followed by symbol B becomes the single symbol AB\", e.g. l + o -> lo.

The corpus is read as `bpe-lab count` and the notebooks read it, by its extension: UTF-8 text
with one paragraph per line (blank lines are skipped; .txt, .md or none), a .json array of
objects whose \"description\" field (see --field) is a paragraph, as the Africa Galore
dataset is published, .jsonl/.ndjson with one such object per line, or .csv/.parquet with a
\"description\" column (CSV and Parquet need the default `columnar` feature). Each paragraph is split into words at
every single space, and each word starts as its characters followed by </w>. Training then repeats:
count every pair of neighbouring symbols in all words, take the most frequent pair, record it
as the next merge and join it everywhere. It stops after --merges rounds, or earlier when no
pair is left or the best pair is rarer than --min-frequency.

The vocabulary numbers the tokens: the special tokens first (--special-tokens, <PAD> = 0 and
<UNK> = 1 by default), then </w>, the corpus' characters sorted, and each merge's token in
merge order (--vocab-order sorted numbers all but the special tokens in sorted order instead,
as the tokenizer notebook does). `bpe-lab encode` and `decode` use the file.

With --byte-level the tokenizer is GPT-style instead: a text file is read whole (other formats
as their paragraphs, one per line), cut at the special tokens (--special-tokens, default
<|endoftext|>) and into chunks by a split pattern (--pattern {PATTERNS}, or --regex for
your own); the 256 byte values are the first tokens, merges never cross a chunk, and there is
no <UNK>. Its ids are the bytes, the merges in order, then the special tokens; --vocab-order
and --unk-token do not apply and are refused.

A corpus too large for one machine is counted where it lives: `bpe-lab count` (or the Spark
job in scripts/spark) per shard, `bpe-lab count --sum` to add the tables, then --word-counts
TABLE. Character-level training reads a word table; --byte-level reads a chunk table (`count --pattern`),
whose pattern and special tokens it takes, and trains to exactly the tokenizer training on the
text gives. A table of the other kind is refused, and so is a --pattern, --regex or
--special-tokens that disagrees with the chunk table's.";

pub(crate) const AFTER_SHORT_HELP: &str = "\
A merge joins two neighbouring symbols into one (l + o -> lo); --help says more.

Examples:
  bpe-lab train --input corpus.txt --merges 500 --output tokenizer.json
  bpe-lab train --byte-level --input corpus.txt --vocab-size 4096 --output bytes.json";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab train --input corpus.txt --merges 500 --output tokenizer.json
  bpe-lab train --byte-level --pattern gpt4 --input corpus.txt --vocab-size 4096 --output bytes.json
  bpe-lab train --byte-level --word-counts chunks.parquet --vocab-size 4096 --output bytes.json

The output is a JSON object: \"merges\" lists the learned pairs in order as [left, right],
\"vocab\" the tokens in id order, \"merge_counts\" how often each pair occurred when it was
chosen; \"special_tokens\", \"unk_token\", \"vocab_order\", \"split\" are the tokenizer's
settings, and \"format\", \"version\", \"tie_break\", \"min_frequency\", \"merges_requested\",
\"stop_reason\" record how the file was made (stop_reason is merges_done, no_pairs or
below_min_frequency). The file is replaced atomically: after an error it is either absent
or as it was before.

Progress is drawn on stderr when it is a terminal; a one-line summary always goes to stderr;
stdout stays empty unless --json asks for a summary there.

Exit status: 0 on success, 1 when the work fails, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct TrainArgs {
    /// Corpus to learn from: text (one paragraph per line; `-`: standard input), .json, .jsonl,
    /// .csv or .parquet; without it, the Africa Galore dataset (downloaded and cached, or the
    /// bundled stand-in)
    #[arg(short, long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// Read --input as this format whatever its extension (text, json, jsonl, csv, parquet)
    /// [default: by its extension]
    #[arg(long, value_enum, value_name = "FORMAT", requires = "input")]
    pub(crate) input_format: Option<InputFormatArg>,

    /// Learn from a (word, count) table instead (Parquet or CSV with word and count columns, or
    /// a folder of them, as `bpe-lab count` and Spark write); with --byte-level, a (chunk,
    /// count) table from `bpe-lab count --pattern`, whose pattern and special tokens it uses
    #[arg(long, value_name = "TABLE", conflicts_with_all = ["input", "field"])]
    pub(crate) word_counts: Option<PathBuf>,

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) that holds a paragraph (given
    /// with a text corpus: a note says it is not used) [default: description]
    #[arg(long, value_name = "NAME")]
    pub(crate) field: Option<String>,

    /// How many merges to learn (fewer if the corpus runs out of pairs first)
    #[arg(short, long, value_name = "N", required_unless_present = "vocab_size")]
    pub(crate) merges: Option<usize>,

    /// Learn merges until the vocabulary holds N tokens: the base tokens (lab: the special
    /// tokens, </w> and the corpus' characters; byte-level: the 256 bytes and the special
    /// tokens), then one token per merge
    #[arg(long, value_name = "N", conflicts_with = "merges")]
    pub(crate) vocab_size: Option<usize>,

    /// Which pair wins when several are equally frequent
    #[arg(long, value_name = "RULE", default_value_t, value_parser = tie_break_parser())]
    pub(crate) tie_break: bpe_lab::TieBreak,

    /// Stop early once the most frequent pair occurs fewer than K times
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = at_least_one)]
    pub(crate) min_frequency: u64,

    /// Where to write the tokenizer as JSON (a regular file is replaced atomically; `-` is
    /// standard output)
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: PathBuf,

    #[command(flatten)]
    pub(crate) tokenizer: TokenizerArgs,

    #[command(flatten)]
    pub(crate) byte_level: ByteLevelTrainArgs,
}

/// The options of `train` about the tokenizer it writes (flattened into `TrainArgs`).
#[derive(Debug, Args)]
pub(crate) struct TokenizerArgs {
    /// Special tokens, comma-separated. Character-level tokenizers: they get the first ids, in this
    /// order [default: <PAD>,<UNK>]. Byte-level: they get the ids after the merged tokens, and
    /// training text is cut at them [default: <|endoftext|>]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub(crate) special_tokens: Option<Vec<String>>,

    /// Character-level tokenizers: the special token that characters outside the vocabulary become
    /// [default: <UNK>]
    #[arg(long, value_name = "TOKEN")]
    pub(crate) unk_token: Option<String>,

    /// Character-level tokenizers: how token ids are numbered [default: merge-order]
    #[arg(long, value_enum, value_name = "ORDER")]
    pub(crate) vocab_order: Option<VocabOrderArg>,

    /// Also print a summary as one JSON object on stdout
    #[arg(long)]
    pub(crate) json: bool,
}

/// The character-level tokenizer's default special tokens.
const CHAR_LEVEL_SPECIALS: [&str; 2] = ["<PAD>", "<UNK>"];

impl TrainArgs {
    /// `--field`, or its default.
    pub(crate) fn field(&self) -> &str {
        crate::commands::flags::field(self.field.as_deref())
    }

    /// Says once that a `--field` given is not used: the corpus is text (a file read as text,
    /// standard input) or the Africa Galore dataset, read by its own field; and that an
    /// `--input-format` given for standard input is not either (it is read as text).
    pub(crate) fn note_field_unused(&self) {
        if let (Some(format), Some(path)) = (self.input_format, &self.input)
            && path == Path::new("-")
            && format != InputFormatArg::Text
        {
            let name = clap::ValueEnum::to_possible_value(&format)
                .map(|v| v.get_name().to_owned())
                .unwrap_or_default();
            eprintln!(
                "note: --input-format {name} applies only to a file; standard input is read as \
                 text, one paragraph per line, so it is not used"
            );
        }
        let source = match &self.input {
            _ if self.word_counts.is_some() => return,
            None => "the Africa Galore dataset (no --input, read by its own field)".to_owned(),
            Some(path) if path == Path::new("-") => "standard input".to_owned(),
            Some(path) if crate::commands::flags::is_text(&corpus_reader(self), path) => {
                format!("'{}'", path.display())
            }
            Some(_) => return,
        };
        crate::commands::flags::note_field_unused(self.field.as_deref(), &source);
    }

    /// The special tokens given, or `default`.
    pub(crate) fn special_tokens(&self, default: &[&str]) -> Vec<String> {
        match &self.tokenizer.special_tokens {
            Some(list) => list.clone(),
            None => default.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The training settings the flags ask for, both kinds alike: `merges` (from
    /// [`TrainArgs::merges_for`]), `--tie-break`, `--min-frequency`.
    pub(crate) fn settings(&self, merges: usize) -> TrainingSettings {
        TrainingSettings::new(merges)
            .tie_break(self.tie_break)
            .min_frequency(self.min_frequency)
    }

    /// How many merges to learn: --merges, or --vocab-size less the `base` tokens there are
    /// before any merge.
    pub(crate) fn merges_for(&self, base: usize) -> Result<usize, CliError> {
        match (self.merges, self.vocab_size) {
            (Some(merges), _) => Ok(merges),
            (None, Some(size)) if size > base => Ok(size - base),
            (None, Some(size)) => Err(CliError::usage(format!(
                "--vocab-size {size} leaves no room for merges: the vocabulary starts with {base} \
                 tokens before any merge; give a larger size, or --merges"
            ))),
            (None, None) => unreachable!("clap requires --merges or --vocab-size"),
        }
    }

    /// The tokenizer settings, checked before the long part.
    fn config(&self) -> Result<TokenizerConfig, CliError> {
        let flags = &self.tokenizer;
        let config = TokenizerConfig::default()
            .special_tokens(self.special_tokens(&CHAR_LEVEL_SPECIALS))
            .unk_token(
                flags
                    .unk_token
                    .clone()
                    .unwrap_or_else(|| DEFAULT_UNK_TOKEN.to_owned()),
            )
            .order(
                flags
                    .vocab_order
                    .unwrap_or(VocabOrderArg::MergeOrder)
                    .into(),
            );
        config
            .check()
            .map_err(|e| CliError::usage(format!("--special-tokens/--unk-token: {e}")))?;
        Ok(config)
    }
}

pub(crate) fn run(args: &TrainArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let output = output_of(args)?;
    let config = args.config()?;
    // Before the long part, so a typo in the output path costs nothing.
    output.check()?;
    args.note_field_unused();

    let (words, corpus_name) = match (&args.word_counts, &args.input) {
        (Some(table), _) => (read_table(table)?, format!("'{}'", table.display())),
        (None, Some(path)) if path == Path::new("-") => {
            (read_stdin_words()?, "standard input".to_owned())
        }
        (None, Some(path)) => (
            read_file(path, args.field(), corpus_reader(args))?,
            format!("'{}'", path.display()),
        ),
        (None, None) => (read_dataset()?, "the Africa Galore dataset".to_owned()),
    };
    let (distinct, total) = (words.len(), words.total());
    // Before any merge: the special tokens, then </w> and the characters.
    let merges = args.merges_for(config.special_tokens.len() + words.symbols().len())?;
    let settings = args.settings(merges);

    let bar = progress::merges_bar(merges);
    let trained =
        CharLevelTokenizer::train_words(words, settings, config, |p| progress::show_merge(&bar, p));
    bar.finish_and_clear();
    let tokenizer = trained.map_err(|e| {
        CliError::runtime(format!("cannot build a tokenizer from {corpus_name}: {e}"))
    })?;
    output.write(|out| tokenizer.write_json(out).map_err(|e| output.failed(&e)))?;

    let stop = tokenizer
        .training()
        .expect("a trained tokenizer records its training")
        .stop_reason;
    eprintln!(
        "{} from {distinct} distinct words ({total} in all) in {:.2?}; wrote {} ({} tokens)",
        learned(tokenizer.merges().len(), merges, stop, args),
        started.elapsed(),
        output,
        tokenizer.vocab().len()
    );
    if args.tokenizer.json {
        let summary = json!({
            "output": path_json(&args.output),
            "merges_learned": tokenizer.merges().len(),
            "merges_requested": merges,
            "stop_reason": stop_reason_name(stop),
            "vocab_size": tokenizer.vocab().len(),
            "distinct_words": distinct,
            "total_words": total,
            "seconds": started.elapsed().as_secs_f64(),
        });
        print_line(&summary.to_string())?;
    }
    Ok(())
}

/// `--output` of `train` (either kind): refused when it is the corpus or the word table, or
/// when it and the `--json` summary would both be standard output.
pub(crate) fn output_of(args: &TrainArgs) -> Result<OutputFlag, CliError> {
    let output = OutputFlag::new("--output", Some(&args.output));
    output.not_input("--input", "the corpus", args.input.as_deref())?;
    output.not_input(
        "--word-counts",
        "the word table",
        args.word_counts.as_deref(),
    )?;
    if output.is_stdout() && args.tokenizer.json {
        return Err(CliError::usage(
            "--output - and --json would both write to standard output: write the tokenizer \
             to a file, or leave out --json",
        ));
    }
    Ok(output)
}

/// The corpus from standard input (`--input -`), whole: UTF-8 text, a byte-order mark dropped.
pub(crate) fn read_stdin() -> Result<String, CliError> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
        .map_err(|e| CliError::runtime(format!("cannot read standard input: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let error = e.utf8_error();
        CliError::runtime(
            InvalidUtf8::locate("standard input", e.as_bytes(), 0, 1, error).to_string(),
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// The words of a text corpus on standard input (one paragraph per line), as a text file's.
fn read_stdin_words() -> Result<WordCounts, CliError> {
    let words = WordCounts::from_lines(&read_stdin()?);
    if words.is_empty() {
        return Err(CliError::runtime(
            "standard input contains no words: it is empty or has only blank lines (expected \
             UTF-8 text, one paragraph per line)",
        ));
    }
    Ok(words)
}

/// The first half of the summary line: how many merges, and why fewer if so.
pub(crate) fn learned(n: usize, asked: usize, stop: StopReason, args: &TrainArgs) -> String {
    let plural = if n == 1 { "" } else { "s" };
    match stop {
        StopReason::MergesDone => format!("learned {n} merge{plural}"),
        StopReason::NoPairs => {
            format!("learned {n} of {asked} merges (stopped early: every word is a single symbol)")
        }
        StopReason::BelowMinFrequency => format!(
            "learned {n} of {asked} merges (stopped early: the next pair occurs fewer than {} \
             times)",
            args.min_frequency
        ),
    }
}

/// The words of a corpus file, read as every command reads it; an empty corpus is an error.
fn read_file(path: &Path, field: &str, reader: CorpusReader) -> Result<WordCounts, CliError> {
    let spinner = progress::spinner(format!("reading {}", path.display()));
    let words = reader.word_counts(path);
    spinner.finish_and_clear();
    let words = words.map_err(|e| corpus_error(e, "--input"))?;
    if words.is_empty() {
        return Err(CliError::runtime(format!(
            "'{}' contains no words: it is empty or has only blank lines (expected UTF-8 text, \
             one paragraph per line, or records with a \"{field}\" field)",
            path.display()
        )));
    }
    Ok(words)
}

/// A corpus that cannot be read; a format this build cannot read, or one its name does not
/// tell, also names the flag (and `train`'s --input-format, which names the format).
pub(crate) fn corpus_error(e: DatasetError, flag: &str) -> CliError {
    match e {
        DatasetError::NeedsFeature { .. } => CliError::usage(format!("{flag}: {e}")),
        DatasetError::UnknownFormat { path } => CliError::usage(format!(
            "{flag} '{}': cannot tell its format from its extension (.txt, .md or none, .json, \
             .jsonl, .ndjson, .csv, .parquet); with train, name it with --input-format \
             text|json|jsonl|csv|parquet",
            path.display()
        )),
        e => CliError::runtime(e.to_string()),
    }
}

/// The words of a (word, count) table, as `bpe-lab count` or Spark writes it; an empty table
/// (no rows, or only zero counts) is an error.
#[cfg(feature = "columnar")]
fn read_table(path: &Path) -> Result<WordCounts, CliError> {
    let spinner = progress::spinner(format!("reading {}", path.display()));
    let table = bpe_lab::dataset::read_count_table(path);
    spinner.finish_and_clear();
    let table = match table.map_err(|e| CliError::runtime(format!("--word-counts: {e}")))? {
        bpe_lab::dataset::CountTable::Words(table) => table,
        bpe_lab::dataset::CountTable::Chunks(table) => {
            return Err(CliError::usage(format!(
                "--word-counts '{}' was counted by chunks ({}), not words: train it with \
                 --byte-level, or count the corpus without --pattern for this tokenizer",
                path.display(),
                table.split()
            )));
        }
    };
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
fn read_table(path: &Path) -> Result<WordCounts, CliError> {
    Err(CliError::usage(format!(
        "--word-counts '{}': reading (word, count) tables needs bpe-lab built with its \
         `columnar` feature (CSV and Parquet support)",
        path.display()
    )))
}

/// The words of Africa Galore as `bpe_lab::dataset` finds it (cache, download or stand-in),
/// saying on stderr which source was used.
#[cfg(feature = "africa-galore")]
fn read_dataset() -> Result<WordCounts, CliError> {
    let spinner = progress::spinner("loading the Africa Galore dataset");
    let loaded = bpe_lab::dataset::paragraphs_for_training(false);
    spinner.finish_and_clear();
    let (paragraphs, provenance) =
        loaded.map_err(|e| CliError::runtime(format!("cannot load the dataset: {e}")))?;
    eprintln!("no --input: training on Africa Galore ({provenance})");
    Ok(WordCounts::from_paragraphs(&paragraphs))
}

#[cfg(not(feature = "africa-galore"))]
fn read_dataset() -> Result<WordCounts, CliError> {
    Err(CliError::usage(
        "--input is required: this build has no dataset support (the `africa-galore` feature)",
    ))
}

/// `--input-format` values: the library's [`Format`] under command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum InputFormatArg {
    /// UTF-8 text, one paragraph per line
    Text,
    /// A JSON array of objects (--field names the paragraph's field)
    Json,
    /// One JSON object per line (JSON Lines, NDJSON)
    Jsonl,
    /// Comma-separated values with a header row (--field names the column)
    Csv,
    /// Apache Parquet (--field names the column)
    Parquet,
}

impl From<InputFormatArg> for Format {
    fn from(arg: InputFormatArg) -> Format {
        match arg {
            InputFormatArg::Text => Format::Text,
            InputFormatArg::Json => Format::Json,
            InputFormatArg::Jsonl => Format::JsonLines,
            InputFormatArg::Csv => Format::Csv,
            InputFormatArg::Parquet => Format::Parquet,
        }
    }
}

/// The corpus reader `train`'s flags ask for: --field, and --input-format when given.
pub(crate) fn corpus_reader(args: &TrainArgs) -> CorpusReader {
    let reader = CorpusReader::new().text_column(args.field());
    match args.input_format {
        Some(format) => reader.format(format.into()),
        None => reader,
    }
}

/// `train`'s byte-level flags (flattened into `TrainArgs`).
#[derive(Debug, Args)]
pub(crate) struct ByteLevelTrainArgs {
    /// Train a byte-level tokenizer (GPT-2 onwards: 256 byte tokens, regex-split chunks, no
    /// <UNK>) on --input: a text file whole, other formats' paragraphs one per line; or on a
    /// chunk table (--word-counts)
    #[arg(long)]
    pub(crate) byte_level: bool,

    // Help: "With --byte-level: the split pattern by name: gpt2 (r50k_base), ... [default:
    // gpt4]", the names read from the pattern table.
    #[arg(long, value_name = "NAME", requires = "byte_level", value_parser = crate::commands::flags::pattern_parser, help = crate::commands::flags::pattern_help())]
    pub(crate) pattern: Option<SplitPattern>,

    /// With --byte-level: your own split pattern, a regular expression (fancy-regex syntax:
    /// look-ahead and possessive quantifiers as in GPT's patterns)
    #[arg(
        long,
        value_name = "REGEX",
        requires = "byte_level",
        conflicts_with = "pattern"
    )]
    pub(crate) regex: Option<String>,

    /// With --regex: train even where the pattern leaves part of the text unmatched (without
    /// it that is refused). Encoding then drops such text, as tiktoken does; the file says so
    /// ("drops_unmatched_text") and `bpe-lab info` shows it
    #[arg(long, requires = "regex")]
    pub(crate) allow_uncovered: bool,
}

/// Refuses a --regex that leaves part of the training text unmatched (encoding would drop it),
/// naming the first such span, unless --allow-uncovered; then says so once. Returns whether
/// the tokenizer drops text (for the file). The built-in patterns match every character.
pub(crate) fn check_coverage(
    args: &TrainArgs,
    text: &str,
    pattern: &SplitPattern,
    specials: &[&str],
) -> Result<bool, CliError> {
    use bpe_lab::bpe::bytelevel::Splitter;
    use bpe_lab::bpe::bytelevel::first_uncovered;
    let SplitPattern::Custom(regex) = pattern else {
        return Ok(false);
    };
    let splitter = Splitter::new(pattern.clone()).map_err(|e| regex_error(regex, &e))?;
    let input = args.input.as_deref().unwrap_or(Path::new("-"));
    let gap = first_uncovered(&splitter, text, specials).map_err(|e| {
        CliError::runtime(format!(
            "cannot train on '{}' (--regex): {e}",
            input.display()
        ))
    })?;
    match gap {
        None => Ok(false),
        // Nothing matched at all: training says so in its own words ("matches nothing").
        Some(gap) if gap.start == 0 && gap.end == text.len() => Ok(false),
        Some(gap) if !args.byte_level.allow_uncovered => Err(CliError::runtime(format!(
            "--regex '{regex}' does not cover the training text: '{}', {gap}. Encoding drops \
             text the pattern does not match (as tiktoken does), so it would not come back \
             from decoding; widen the pattern (for instance end it with `|\\s+|.`), or give \
             --allow-uncovered to train anyway",
            input.display()
        ))),
        Some(gap) => {
            eprintln!(
                "note: --regex leaves text unmatched ('{}', {gap}); with --allow-uncovered the \
                 tokenizer drops such text when encoding, and its file says so",
                input.display()
            );
            Ok(true)
        }
    }
}

/// A --regex that does not compile or matches the empty string, in the flag's words.
pub(crate) fn regex_error(regex: &str, e: &bpe_lab::bpe::bytelevel::SplitError) -> CliError {
    use bpe_lab::bpe::bytelevel::SplitError;
    match e {
        SplitError::BadPattern { message, .. } => {
            let why = bpe_lab::bpe::bytelevel::regex_problem(regex)
                .unwrap_or_else(|| message.trim().to_owned());
            CliError::usage(format!("--regex '{regex}' is not a valid regex: {why}"))
        }
        e => CliError::usage(format!("--regex: {e}")),
    }
}
