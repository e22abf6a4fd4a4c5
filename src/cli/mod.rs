//! The `bpe-lab` command line: the argument definitions (clap derive) and the dispatch to one
//! module per subcommand. Each subcommand is thin over the library.

mod bytelevel;
#[cfg(feature = "columnar")]
mod count;
#[cfg(feature = "dataset")]
mod dataset;
mod decode;
mod encode;
mod error;
mod explain;
mod export;
mod input;
mod lab;
mod output;
mod progress;
mod tokenizer_file;
mod train;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use error::CliError;

const ABOUT: &str = "Byte-pair encoding (BPE) the way DeepMind's ai-foundations lab 2.4 teaches it";

const LONG_ABOUT: &str = "\
Byte-pair encoding (BPE) the way DeepMind's ai-foundations lab 2.4 teaches it.

BPE builds a vocabulary of tokens from text: every word starts as its characters followed by
the end-of-word marker </w>, and training learns merges, rules that join two neighbouring
symbols into one, most frequent pair first. Run `bpe-lab help <COMMAND>` for each command.";

const EXIT_STATUS: &str = "\
Exit status: 0 on success, 1 when the work fails (missing, unreadable or non-UTF-8 input,
empty corpus, output that cannot be written), 2 when the command line is wrong.";

#[derive(Debug, Parser)]
#[command(
    name = "bpe-lab",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = EXIT_STATUS,
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Learn BPE merges from a corpus and save the tokenizer (merges and vocabulary) as JSON
    #[command(
        long_about = TRAIN_LONG_ABOUT,
        after_help = TRAIN_AFTER_SHORT_HELP,
        after_long_help = TRAIN_AFTER_HELP
    )]
    Train(TrainArgs),
    /// Count the words of a corpus into a (word, count) table; or sum such tables (--merge)
    #[cfg(feature = "columnar")]
    #[command(long_about = count::LONG_ABOUT, after_help = count::AFTER_HELP)]
    Count(count::CountArgs),
    /// Encode text into tokens or ids, one output line per input line
    #[command(long_about = encode::LONG_ABOUT, after_help = encode::AFTER_HELP)]
    Encode(encode::EncodeArgs),
    /// Decode lines of token ids back into text
    #[command(long_about = decode::LONG_ABOUT, after_help = decode::AFTER_HELP)]
    Decode(decode::DecodeArgs),
    /// Write the tokenizer in another tool's format (Hugging Face tokenizer.json)
    #[command(long_about = export::LONG_ABOUT, after_help = export::AFTER_HELP)]
    Export(export::ExportArgs),
    /// Show training on a small corpus round by round (seed 000's table)
    #[command(long_about = explain::LONG_ABOUT, after_help = explain::AFTER_HELP)]
    Explain(explain::ExplainArgs),
    /// Show which copy of Africa Galore loads (cache, download or bundled stand-in) and its size
    #[cfg(feature = "dataset")]
    Dataset(dataset::DatasetArgs),
    #[command(long_about = lab::LONG_ABOUT)]
    /// Instructor tools: release, verify and grade the lab notebooks; check the machine
    Lab(lab::LabArgs),
}

const TRAIN_LONG_ABOUT: &str = "\
Learn BPE merges from a corpus and save the tokenizer (merges and vocabulary) as JSON.

A merge is a rule \"symbol A followed by symbol B becomes the single symbol AB\", e.g. l + o -> lo.

The corpus is UTF-8 text with one paragraph per line (blank lines are skipped), or a .json
file holding an array of objects whose \"description\" field (see --field) is a paragraph, as
the Africa Galore dataset is published. Each paragraph is split into words at every single
space, and each word starts as its characters followed by </w>. Training then repeats:
count every pair of neighbouring symbols in all words, take the most frequent pair, record it
as the next merge and join it everywhere. It stops after --merges rounds, or earlier when no
pair is left or the best pair is rarer than --min-frequency.

The vocabulary numbers the tokens: the special tokens first (--special-tokens, <PAD> = 0 and
<UNK> = 1 by default), then </w>, the corpus' characters sorted, and each merge's token in
merge order (--vocab-order sorted numbers all but the special tokens in sorted order instead,
as seed 004 does). `bpe-lab encode` and `decode` use the file.";

const TRAIN_AFTER_SHORT_HELP: &str = "\
A merge joins two neighbouring symbols into one (l + o -> lo); --help says more.

Example:
  bpe-lab train --input corpus.txt --merges 500 --output tokenizer.json";

const TRAIN_AFTER_HELP: &str = "\
Example:
  bpe-lab train --input corpus.txt --merges 500 --output tokenizer.json

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
pub struct TrainArgs {
    /// Corpus to learn from: UTF-8 text, one paragraph per line, or a .json array of objects;
    /// without it, the Africa Galore dataset (downloaded and cached, or the bundled stand-in)
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Learn from a (word, count) table instead (Parquet or CSV with word and count columns, or
    /// a folder of them, as `bpe-lab count` and Spark write)
    #[arg(long, value_name = "TABLE", conflicts_with_all = ["input", "field"])]
    pub word_counts: Option<PathBuf>,

    /// For a .json corpus: the field of each object that holds a paragraph
    #[arg(long, value_name = "NAME", default_value = "description")]
    pub field: String,

    /// How many merges to learn (fewer if the corpus runs out of pairs first)
    #[arg(short, long, value_name = "N")]
    pub merges: usize,

    /// Which pair wins when several are equally frequent
    #[arg(long, value_name = "RULE", default_value_t, value_parser = tie_break_parser())]
    pub tie_break: bpe_lab::TieBreak,

    /// Stop early once the most frequent pair occurs fewer than K times
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = at_least_one)]
    pub min_frequency: u64,

    /// Where to write the tokenizer as JSON (replaced atomically)
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,

    #[command(flatten)]
    pub tokenizer: train::TokenizerArgs,

    #[command(flatten)]
    pub byte_level: bytelevel::ByteLevelTrainArgs,
}

/// `--min-frequency`: a count, 1 or more (1 keeps going while any pair is left).
fn at_least_one(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(0) => Err("must be at least 1 (1 keeps training while any pair is left)".to_owned()),
        Ok(k) => Ok(k),
        Err(e) => Err(e.to_string()),
    }
}

/// `--tie-break`: the library's [`bpe_lab::TieBreak`] names, each with its summary as help.
pub fn tie_break_parser() -> impl clap::builder::TypedValueParser<Value = bpe_lab::TieBreak> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let names = bpe_lab::TieBreak::ALL.map(|p| PossibleValue::new(p.name()).help(p.summary()));
    PossibleValuesParser::new(names).map(|name| {
        name.parse::<bpe_lab::TieBreak>()
            .expect("the parser only lets listed names through")
    })
}

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Train(args) if args.byte_level.byte_level => {
            bytelevel::train(bytelevel::TrainRun {
                input: args.input.as_deref(),
                word_counts: args.word_counts.is_some(),
                output: &args.output,
                merges: args.merges,
                tie_break: args.tie_break,
                min_frequency: args.min_frequency,
                flags: &args.byte_level,
            })
        }
        Command::Train(args) => train::run(&args),
        #[cfg(feature = "columnar")]
        Command::Count(args) => count::run(&args),
        Command::Encode(args) => encode::run(&args),
        Command::Decode(args) => decode::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Explain(args) => explain::run(&args),
        #[cfg(feature = "dataset")]
        Command::Dataset(args) => dataset::run(&args),
        Command::Lab(args) => lab::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definitions_are_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
