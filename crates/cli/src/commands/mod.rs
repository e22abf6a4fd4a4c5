//! The `bpe-lab` command line: the argument definitions (clap derive) and the dispatch to one
//! module per subcommand. Each subcommand maps its flags to library options and prints what
//! the library returns; the work itself is in the library.

mod bytelevel;
mod completions;
#[cfg(feature = "columnar")]
mod count;
mod count_tokens;
#[cfg(feature = "dataset")]
mod dataset;
mod decode;
mod encode;
mod error;
mod explain;
mod export;
mod flags;
mod info;
mod lab;
mod output;
mod progress;
mod tokenizer_file;
mod train;

use clap::{Parser, Subcommand};

pub use error::CliError;

const ABOUT: &str = "Byte-pair encoding (BPE) the way DeepMind's ai-foundations lab 2.4 teaches it";

const LONG_ABOUT: &str = "\
Byte-pair encoding (BPE) the way DeepMind's ai-foundations lab 2.4 teaches it, and the
byte-level BPE of GPT-2 onwards, on one exact engine.

BPE builds a vocabulary of tokens from text: training learns merges, rules that join two
neighbouring symbols into one, most frequent pair first. Two kinds of tokenizer:

  lab         every word (the text cut at spaces) starts as its characters followed by the
              end-of-word marker </w>; characters never seen become <UNK>
              (`train`, then `encode -t tokenizer.json`)
  byte-level  every text is bytes, cut into chunks by a regular expression (GPT-4's by
              default); no <UNK>; OpenAI's encodings give tiktoken's ids
              (`train --byte-level`, or `encode --encoding cl100k_base`)

Examples:
  bpe-lab train --input corpus.txt --merges 500 --output tokenizer.json
  printf 'Jollof in Lagos' | bpe-lab encode --encoding cl100k_base --ids
  bpe-lab count-tokens --encoding cl100k_base,o200k_base README.md

Run `bpe-lab help <COMMAND>` for each command.";

const EXIT_STATUS: &str = "\
Outputs: `-` is standard output for every output flag, and standard input for every --input
(and count-tokens' FILE). A regular file is replaced atomically (a symbolic link's target, keeping the link); a device,
FIFO or pipe is written through, never replaced; an output that is one of the inputs is
refused. --threads is capped at the machine's cores.

Exit status: 0 on success, 1 when the work fails (missing, unreadable or non-UTF-8 input,
empty corpus, output that cannot be written or full), 2 when the command line is wrong. When
standard output is closed by its reader (`bpe-lab ... | head`), the command stops quietly with
status 0.";

/// `--version`: the version, the commit it was built from and its features (crates/cli/build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("BPE_LAB_GIT_COMMIT"),
    "; features: ",
    env!("BPE_LAB_FEATURES"),
    ")"
);

#[derive(Debug, Parser)]
#[command(
    name = "bpe-lab",
    version = VERSION,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = EXIT_STATUS,
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

// Parsed once per process: the size of its largest flags (lab grade's) costs nothing,
// and boxing them would only make every match on the command harder to read.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Learn BPE merges from a corpus and save the tokenizer (merges and vocabulary) as JSON
    #[command(
        long_about = train::long_about(),
        after_help = train::AFTER_SHORT_HELP,
        after_long_help = train::AFTER_HELP
    )]
    Train(train::TrainArgs),
    /// Count the words (or, with --pattern, the chunks) of a corpus into a table; or add up
    /// such tables (--sum)
    #[cfg(feature = "columnar")]
    #[command(long_about = count::LONG_ABOUT, after_help = count::AFTER_HELP)]
    Count(count::CountArgs),
    /// Count the tokens of text files with byte-level encodings, per file and in all
    #[command(long_about = count_tokens::LONG_ABOUT, after_help = count_tokens::AFTER_HELP)]
    CountTokens(count_tokens::CountTokensArgs),
    /// Encode text into tokens or ids: character-level tokenizers one line at a time, byte-level
    /// ones (tiktoken's, or trained with --byte-level) the whole text or each line
    #[command(long_about = encode::LONG_ABOUT, after_help = encode::AFTER_HELP)]
    Encode(encode::EncodeArgs),
    /// Decode token ids back into text (with the tokenizer or encoding that made them)
    #[command(long_about = decode::LONG_ABOUT, after_help = decode::AFTER_HELP)]
    Decode(decode::DecodeArgs),
    /// Write the tokenizer in another tool's format (Hugging Face tokenizer.json)
    #[command(long_about = export::LONG_ABOUT, after_help = export::AFTER_HELP)]
    Export(export::ExportArgs),
    /// Show a tokenizer: kind, vocabulary size, special tokens, pattern; look up ids and tokens
    #[command(long_about = info::LONG_ABOUT, after_help = info::AFTER_HELP)]
    Info(info::InfoArgs),
    /// Show training on a small corpus round by round (the training problem's table)
    #[command(long_about = explain::LONG_ABOUT, after_help = explain::AFTER_HELP)]
    Explain(explain::ExplainArgs),
    /// Show which copy of Africa Galore loads (cache, download or bundled stand-in) and its size
    #[cfg(feature = "dataset")]
    Dataset(dataset::DatasetArgs),
    /// Print a shell's completion script (bash, zsh, fish, elvish, powershell)
    #[command(after_help = completions::AFTER_HELP)]
    Completions(completions::CompletionsArgs),
    #[command(long_about = lab::LONG_ABOUT)]
    /// Instructor tools: release, verify and grade the lab notebooks; check the machine
    Lab(lab::LabArgs),
}

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> Result<(), CliError> {
    if matches!(
        cli.command,
        Command::Encode(_) | Command::Decode(_) | Command::CountTokens(_)
    ) {
        bpe_lab::allocator::purge_later();
    }
    let done = match cli.command {
        Command::Train(args) if args.byte_level.byte_level => bytelevel::train(&args),
        Command::Train(args) => train::run(&args),
        #[cfg(feature = "columnar")]
        Command::Count(args) => count::run(&args),
        Command::CountTokens(args) => count_tokens::run(&args),
        Command::Encode(args) => encode::run(&args),
        Command::Decode(args) => decode::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Info(args) => info::run(&args),
        #[cfg(feature = "dataset")]
        Command::Dataset(args) => dataset::run(&args),
        Command::Lab(args) => lab::run(&args),
        Command::Completions(args) => completions::run(&args),
    };
    match done {
        // The reader of standard output went away: nothing more to say to anyone.
        Err(e) if e.is_closed_pipe() => Ok(()),
        done => done,
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

    /// The hidden aliases removed before the first release stay removed: each is an unknown
    /// flag (not read as the flag it was an alias of, nor as a prefix of a longer one).
    #[test]
    fn removed_flag_aliases_are_refused() {
        use clap::Parser;
        let cases: [(&[&str], &str); 4] = [
            (
                &[
                    "train", "--input", "a.txt", "--merges", "5", "--out", "t.json",
                ],
                "--out",
            ),
            (
                &["encode", "--tokenizer", "t.json", "--jobs", "2", "a.txt"],
                "--jobs",
            ),
            (
                &["count", "--merge", "a.csv", "--output", "b.csv"],
                "--merge",
            ),
            (
                &[
                    "train",
                    "--input",
                    "a.txt",
                    "--merges",
                    "5",
                    "--special",
                    "<s>",
                ],
                "--special",
            ),
        ];
        for (args, flag) in cases {
            let argv = std::iter::once("bpe-lab").chain(args.iter().copied());
            let err = Cli::try_parse_from(argv).expect_err(flag);
            assert_eq!(
                err.kind(),
                clap::error::ErrorKind::UnknownArgument,
                "{flag}: {err}"
            );
            assert!(err.to_string().contains(&format!("'{flag}'")), "{err}");
        }
    }
}
