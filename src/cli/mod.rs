//! The `bpe-lab` command line: the argument definitions (clap derive) and the dispatch to one
//! module per subcommand. Each subcommand maps its flags to library options and prints what
//! the library returns; the work itself is in the library.

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
mod flags;
mod lab;
mod progress;
mod tokenizer_file;
mod train;

use clap::{Parser, Subcommand};

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
        long_about = train::LONG_ABOUT,
        after_help = train::AFTER_SHORT_HELP,
        after_long_help = train::AFTER_HELP
    )]
    Train(train::TrainArgs),
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

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Train(args) if args.byte_level.byte_level => {
            bytelevel::train(bytelevel::TrainRun {
                input: args.input.as_deref(),
                field: &args.field,
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
