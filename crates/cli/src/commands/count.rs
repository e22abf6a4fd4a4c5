//! `bpe-lab count`: corpus files in, one (word, count) table out, or with `--pattern`/`--regex`
//! one (chunk, count) table for byte-level training; or, with `--sum`, several tables (shards
//! counted elsewhere) summed into one. See `bpe_lab::dataset::count_corpus`, `count_chunks`
//! and `sum_tables`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
use bpe_lab::dataset::{
    CountTable, DatasetError, Format, TableFormat, count_chunks, count_corpus, expand_inputs,
    sum_tables,
};
use clap::Args;
use serde_json::json;

use crate::commands::error::CliError;
use crate::commands::output::{OutputFlag, path_json, print_line};
use crate::commands::progress;

pub(crate) const LONG_ABOUT: &str = "\
Count the words of a corpus and write them as a (word, count) table (with --pattern or
--regex: its chunks, as a (chunk, count) table for byte-level training).

Words are split as the lab splits them (every single space; a double space makes an empty
word), exactly the words `bpe-lab train` learns from. Inputs are UTF-8 text (one paragraph per
line), .json (an array of objects), .jsonl/.ndjson, .csv and .parquet files, glob patterns
(quote them: 'corpus/*.jsonl') and directories (their files, in name order). They are read as
streams, CSV and Parquet through polars' streaming engine, so memory grows with the number of
distinct words, not with the corpus.

The table has the columns word and count, one row per distinct word in order of first
appearance (inputs in the order given), so that training from it gives the same merges as
training from the text under both tie-breaks. With --sum the inputs are such tables (for
example shards counted on other machines, or a Spark job's output folder) and their counts are
summed. The output is Parquet, or CSV when its name ends in .csv; it is written atomically.

With --pattern NAME or --regex REGEX the table counts chunks for `train --byte-level`
instead: each input is read as train --byte-level reads its --input (a text file whole, other
formats' paragraphs one per line; text that is not UTF-8 is refused as there), cut at the
special tokens (--special-tokens, default <|endoftext|>) and split by the pattern exactly as
byte-level training splits it; no chunk crosses two files, and one file's text is in memory
at a time. The table's columns are chunk and count, then pattern (the regex) and
special_tokens (a JSON array), the same on every row, so that the table says how it was cut.
Shards add up to the whole text's chunks when each cut falls just before a line that starts
with a letter, after one that does not end in whitespace. --sum adds chunk tables cut the same
way and refuses to mix them with word tables or with tables cut another way.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab count 'corpus/*.txt' --output counts.parquet
  bpe-lab count --sum shard-1.parquet shard-2.parquet --output counts.parquet
  bpe-lab train --word-counts counts.parquet --merges 30000 --output tokenizer.json
  bpe-lab count --pattern gpt4 shard-1.txt --output chunks-1.parquet
  bpe-lab count --sum chunks-1.parquet chunks-2.parquet --output chunks.parquet
  bpe-lab train --byte-level --word-counts chunks.parquet --vocab-size 4096 --output bytes.json

Exit status: 0 on success, 1 when the work fails, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// Corpus files, glob patterns or directories (with --sum: word or chunk tables)
    #[arg(value_name = "INPUT", required = true)]
    pub(crate) inputs: Vec<PathBuf>,

    /// Where to write the table: Parquet, or CSV for a name ending in .csv (replaced atomically)
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: PathBuf,

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) that holds a paragraph (given
    /// with text inputs only: a note says it is not used) [default: description]
    #[arg(long, value_name = "NAME")]
    pub(crate) field: Option<String>,

    /// Add up count tables (CSV or Parquet with word and count columns, or chunk tables)
    /// instead of counting text
    #[arg(long = "sum", conflicts_with_all = ["field", "split"])]
    pub(crate) merge: bool,

    // Help: "Count the chunks of a split pattern ...: gpt2 (r50k_base), ...", the names read
    // from the pattern table.
    #[arg(long, value_name = "NAME", group = "split",
          value_parser = crate::commands::flags::pattern_parser, help = pattern_help())]
    pub(crate) pattern: Option<SplitPattern>,

    /// Count the chunks of your own split pattern, a regular expression (fancy-regex syntax),
    /// for `train --byte-level --regex`
    #[arg(long, value_name = "REGEX", group = "split")]
    pub(crate) regex: Option<String>,

    /// With --pattern/--regex: the special tokens the text is cut at before splitting (as
    /// train --byte-level cuts it), comma-separated [default: <|endoftext|>]
    #[arg(long, value_name = "LIST", value_delimiter = ',', requires = "split")]
    pub(crate) special_tokens: Option<Vec<String>>,

    /// Also print a summary as one JSON object on stdout
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn run(args: &CountArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let format = TableFormat::from_path(&args.output).ok_or_else(|| {
        CliError::usage(format!(
            "--output '{}': the table is written as .parquet or .csv; name the file so",
            args.output.display()
        ))
    })?;
    let files = if args.merge {
        expand_inputs(&args.inputs, |p| TableFormat::from_path(p).is_some())
    } else {
        expand_inputs(&args.inputs, |p| Format::from_path(p).is_some())
    }
    .map_err(dataset_error)?;
    let split = split_of(args)?;
    let field = crate::commands::flags::field(args.field.as_deref());
    if !files.is_empty()
        && files
            .iter()
            .all(|f| Format::from_path(f) == Some(Format::Text))
    {
        let source = match &files[..] {
            [one] => format!("'{}'", one.display()),
            _ => "every INPUT".to_owned(),
        };
        crate::commands::flags::note_field_unused(args.field.as_deref(), &source);
    }
    let output = OutputFlag::new("--output", Some(&args.output));
    for file in &files {
        output.not_input("INPUT", "an input", Some(file))?;
    }
    output.check()?;

    let bytes: u64 = files.iter().map(|f| file_size(f)).sum();
    let bar = progress::bytes_bar(bytes, if args.merge { "merging" } else { "counting" });
    let mut progress = |done| bar.set_position(done);
    let counted = match (args.merge, split) {
        (true, _) => sum_tables(&files, &mut progress),
        (false, Some((splitter, specials))) => {
            count_chunks(&files, field, &splitter, &specials, &mut progress).map(CountTable::Chunks)
        }
        (false, None) => count_corpus(&files, field, &mut progress).map(CountTable::Words),
    };
    bar.finish_and_clear();
    let table = counted.map_err(dataset_error)?;
    check_not_empty(&table, &files, args.merge)?;
    output.write(|out| table.write(format, out).map_err(|e| output.failed(&e)))?;

    let seconds = started.elapsed().as_secs_f64();
    let plural = if files.len() == 1 { "" } else { "s" };
    let unit = match &table {
        CountTable::Words(_) => "words",
        CountTable::Chunks(_) => "chunks",
    };
    eprintln!(
        "{} {} {unit} ({} distinct) from {} file{plural} ({:.1} MB, {:.1} MB/s) in {seconds:.2} s; wrote {}",
        if args.merge { "merged" } else { "counted" },
        table.total(),
        table.len(),
        files.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / seconds.max(1e-9),
        output
    );
    if args.json {
        let summary = json!({
            "output": path_json(&args.output),
            "files": files.len(),
            "bytes": bytes,
            format!("total_{unit}"): table.total(),
            format!("distinct_{unit}"): table.len(),
            "seconds": seconds,
        });
        print_line(&summary.to_string())?;
    }
    Ok(())
}

/// `count --pattern`'s help, the built-in patterns' names read from their table.
fn pattern_help() -> String {
    format!(
        "Count the chunks of a split pattern for `train --byte-level` instead of words: {}",
        bpe_lab::bpe::bytelevel::builtin_pattern_names_with_encodings()
    )
}

/// `--pattern`/`--regex` and `--special-tokens` as a compiled splitter and the specials, before
/// anything is read (a regex that does not compile is a command-line error, as for train).
fn split_of(args: &CountArgs) -> Result<Option<(Splitter, Vec<String>)>, CliError> {
    let pattern = match (&args.pattern, &args.regex) {
        (_, Some(regex)) => SplitPattern::from_regex(regex),
        (Some(pattern), None) => pattern.clone(),
        (None, None) => return Ok(None),
    };
    let splitter = Splitter::new(pattern.clone())
        .map_err(|e| crate::commands::train::regex_error(pattern.regex(), &e))?;
    let specials = args
        .special_tokens
        .clone()
        .unwrap_or_else(|| vec![crate::commands::bytelevel::DEFAULT_SPECIAL.to_owned()]);
    bpe_lab::tokenizer::bytelevel::check_specials(specials.iter().map(String::as_str))
        .map_err(|e| CliError::usage(format!("--special-tokens: {e}")))?;
    Ok(Some((splitter, specials)))
}

/// An empty table would train nothing; saying so here beats a table that fails later.
fn check_not_empty(table: &CountTable, files: &[PathBuf], merge: bool) -> Result<(), CliError> {
    if !table.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = files.iter().map(|f| format!("'{}'", f.display())).collect();
    Err(CliError::runtime(if merge {
        format!(
            "the tables {} have no rows with a count above zero",
            names.join(", ")
        )
    } else {
        match table {
            CountTable::Words(_) => format!(
                "{} contain no words: empty, or only blank lines",
                names.join(", ")
            ),
            CountTable::Chunks(_) => format!(
                "{} contain no chunks: empty, or only special tokens",
                names.join(", ")
            ),
        }
    }))
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

pub(crate) fn dataset_error(e: DatasetError) -> CliError {
    CliError::runtime(e.to_string())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::commands::{Cli, Command};

    fn parse(args: &[&str]) -> Result<CountArgs, clap::Error> {
        let cli = Cli::try_parse_from(["bpe-lab", "count"].iter().chain(args))?;
        match cli.command {
            Command::Count(args) => Ok(args),
            _ => unreachable!("`count` parses as Count"),
        }
    }

    #[test]
    fn count_pattern_flags_become_a_splitter_and_specials() {
        let args = parse(&["--pattern", "cl100k_base", "c.txt", "-o", "t.parquet"]).unwrap();
        let (splitter, specials) = split_of(&args).unwrap().unwrap();
        assert_eq!(splitter.pattern(), &SplitPattern::Cl100k);
        assert_eq!(specials, ["<|endoftext|>"]);

        let args = parse(&[
            "--regex",
            r"\w+|\s+",
            "--special-tokens",
            "<a>,<b>",
            "c.txt",
            "-o",
            "t.csv",
        ])
        .unwrap();
        let (splitter, specials) = split_of(&args).unwrap().unwrap();
        assert_eq!(splitter.pattern(), &SplitPattern::Custom(r"\w+|\s+".into()));
        assert_eq!(specials, ["<a>", "<b>"]);

        // A built-in pattern's own regex is that pattern, so its tables add up with --pattern's.
        let regex = bpe_lab::bpe::bytelevel::GPT2_PATTERN;
        let args = parse(&["--regex", regex, "c.txt", "-o", "t.csv"]).unwrap();
        assert_eq!(
            split_of(&args).unwrap().unwrap().0.pattern(),
            &SplitPattern::Gpt2
        );

        let words = parse(&["c.txt", "-o", "t.csv"]).unwrap();
        assert!(split_of(&words).unwrap().is_none());
    }

    #[test]
    fn count_refuses_split_flags_that_do_not_fit() {
        for args in [
            &["--pattern", "gpt2", "--regex", "x", "c.txt", "-o", "t.csv"][..],
            &["--sum", "--pattern", "gpt2", "t1.csv", "-o", "t.csv"],
            &["--special-tokens", "<a>", "c.txt", "-o", "t.csv"],
            &["--pattern", "gpt5", "c.txt", "-o", "t.csv"],
        ] {
            let e = parse(args).map(|_| ()).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
        }
        let args = parse(&["--regex", "(", "c.txt", "-o", "t.csv"]).unwrap();
        let e = split_of(&args).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("--regex"), "{e}");
        let args = parse(&[
            "--pattern",
            "gpt2",
            "--special-tokens",
            "",
            "c.txt",
            "-o",
            "t.csv",
        ]);
        let e = split_of(&args.unwrap()).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("--special-tokens"), "{e}");
    }
}
