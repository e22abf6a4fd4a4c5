//! `bpe-lab explain`: training on a small corpus, round by round, as the training problem's table shows it.

use std::path::{Path, PathBuf};

use bpe_lab::dataset::CorpusReader;
use bpe_lab::tokenizer::explain::{self, MAX_ROUNDS};
use clap::{ArgGroup, Args};

use crate::commands::error::CliError;
use crate::commands::flags::tie_break_parser;
use crate::commands::output::{print, print_line};
use crate::commands::train::corpus_error;

pub(crate) const LONG_ABOUT: &str = "\
Show BPE training on a small corpus round by round, as the training problem's table does: the pair counts
of each round, the pair that wins and why (more frequent, or a tie settled by --tie-break),
and the corpus after the merge.

The counts come from the literal textbook loop. Each PARAGRAPH (or line of --input) is cut
into words at every single space; each word is its characters followed by </w> (--no-eow
leaves </w> out, as the training problem's examples do). Meant for small examples: at most 64 words,
1000 symbols and 100 rounds; larger corpora are refused.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab explain --merges 3 --no-eow abcab          # the training problem, example 1
  bpe-lab explain --merges 6 --tie-break first-seen 'low lower lowest'

Exit status: 0 on success, 1 when the work fails (the corpus is too large, a file is
missing), 2 when the command line is wrong.";

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("corpus").required(true).args(["input", "paragraphs"])))]
pub(crate) struct ExplainArgs {
    /// How many rounds (merges) to run, at most 100
    #[arg(short, long, value_name = "N", value_parser = rounds)]
    pub(crate) merges: usize,

    /// The corpus, read as `train` reads it: text (one paragraph per line; `-`: standard
    /// input), .json, .jsonl, .csv or .parquet
    #[arg(short, long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) that holds a paragraph (given
    /// with a text corpus: a note says it is not used) [default: description]
    #[arg(long, value_name = "NAME")]
    pub(crate) field: Option<String>,

    /// The corpus on the command line: each argument is a paragraph, cut into words at spaces
    #[arg(value_name = "PARAGRAPH")]
    pub(crate) paragraphs: Vec<String>,

    /// Which pair wins when several are equally frequent
    #[arg(long, value_name = "RULE", default_value_t, value_parser = tie_break_parser())]
    pub(crate) tie_break: bpe_lab::TieBreak,

    /// Make words of bare characters, without </w> at the end (as the training problem's examples are)
    #[arg(long)]
    pub(crate) no_eow: bool,

    /// Print the rounds as JSON instead of a table
    #[arg(long)]
    pub(crate) json: bool,
}

/// `--merges`: a count up to [`MAX_ROUNDS`].
fn rounds(value: &str) -> Result<usize, String> {
    let n: usize = value.parse().map_err(|e| format!("{e}"))?;
    if n > MAX_ROUNDS {
        return Err(format!(
            "{n} rounds would make a table nobody reads; at most {MAX_ROUNDS} (use `bpe-lab \
             train` for more)"
        ));
    }
    Ok(n)
}

pub(crate) fn run(args: &ExplainArgs) -> Result<(), CliError> {
    let reader =
        CorpusReader::new().text_column(crate::commands::flags::field(args.field.as_deref()));
    let text_source = match &args.input {
        Some(path) if path == Path::new("-") => Some("standard input".to_owned()),
        Some(path) if crate::commands::flags::is_text(&reader, path) => {
            Some(format!("'{}'", path.display()))
        }
        Some(_) => None,
        None => Some("the command line (PARAGRAPH)".to_owned()),
    };
    if let Some(source) = text_source {
        crate::commands::flags::note_field_unused(args.field.as_deref(), &source);
    }
    let (paragraphs, source) = match &args.input {
        Some(path) if path == Path::new("-") => {
            let text = crate::commands::train::read_stdin()?;
            let paragraphs = bpe_lab::files::lines::paragraphs(&text)
                .map(str::to_owned)
                .collect();
            (paragraphs, "standard input".to_owned())
        }
        Some(path) => (
            reader
                .paragraphs(path)
                .map_err(|e| corpus_error(e, "--input"))?,
            format!("'{}'", path.display()),
        ),
        None => (args.paragraphs.clone(), "the command line".to_owned()),
    };
    let corpus = explain::initial_corpus(&paragraphs, !args.no_eow);
    if let Some(why) = explain::too_large(&corpus, args.merges) {
        return Err(CliError::runtime(format!(
            "not explaining the corpus from {source}: {why}"
        )));
    }
    let explanation = explain::explain(corpus, args.merges, args.tie_break);
    if args.json {
        print_line(&explanation.to_json().to_string())
    } else {
        print(&explanation.to_string())
    }
}
