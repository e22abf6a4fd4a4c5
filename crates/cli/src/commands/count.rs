//! `bpe-lab count`: corpus files in, one (word, count) table out; or, with `--sum`, several
//! tables (shards counted elsewhere) summed into one. See `bpe_lab::dataset::count_corpus`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use bpe_lab::dataset::{
    DatasetError, Format, TableFormat, WordTable, count_corpus, expand_inputs, merge_tables,
};
use clap::Args;
use serde_json::json;

use crate::commands::error::CliError;
use crate::commands::output::{OutputFlag, path_json, print_line};
use crate::commands::progress;

pub(crate) const LONG_ABOUT: &str = "\
Count the words of a corpus and write them as a (word, count) table.

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
summed. The output is Parquet, or CSV when its name ends in .csv; it is written atomically.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab count 'corpus/*.txt' --output counts.parquet
  bpe-lab count --sum shard-1.parquet shard-2.parquet --output counts.parquet
  bpe-lab train --word-counts counts.parquet --merges 30000 --output tokenizer.json

Exit status: 0 on success, 1 when the work fails, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// Corpus files, glob patterns or directories (with --sum: word-count tables)
    #[arg(value_name = "INPUT", required = true)]
    pub(crate) inputs: Vec<PathBuf>,

    /// Where to write the table: Parquet, or CSV for a name ending in .csv (replaced atomically)
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: PathBuf,

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) that holds a paragraph
    #[arg(long, value_name = "NAME", default_value = "description")]
    pub(crate) field: String,

    /// Add up word-count tables (CSV or Parquet with word and count columns) instead of
    /// counting text
    #[arg(long = "sum", conflicts_with = "field")]
    pub(crate) merge: bool,

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
    let output = OutputFlag::new("--output", Some(&args.output));
    for file in &files {
        output.not_input("INPUT", "an input", Some(file))?;
    }
    output.check()?;

    let bytes: u64 = files.iter().map(|f| file_size(f)).sum();
    let bar = progress::bytes_bar(bytes, if args.merge { "merging" } else { "counting" });
    let counted = if args.merge {
        merge_tables(&files, &mut |done| bar.set_position(done))
    } else {
        count_corpus(&files, &args.field, &mut |done| bar.set_position(done))
    };
    bar.finish_and_clear();
    let table = counted.map_err(dataset_error)?;
    check_not_empty(&table, &files, args.merge)?;
    output.write(|out| table.write(format, out).map_err(|e| output.failed(&e)))?;

    let seconds = started.elapsed().as_secs_f64();
    let plural = if files.len() == 1 { "" } else { "s" };
    eprintln!(
        "{} {} words ({} distinct) from {} file{plural} ({:.1} MB, {:.1} MB/s) in {seconds:.2} s; wrote {}",
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
            "total_words": table.total(),
            "distinct_words": table.len(),
            "seconds": seconds,
        });
        print_line(&summary.to_string())?;
    }
    Ok(())
}

/// An empty table would train nothing; saying so here beats a table that fails later.
fn check_not_empty(table: &WordTable, files: &[PathBuf], merge: bool) -> Result<(), CliError> {
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
        format!(
            "{} contain no words: empty, or only blank lines",
            names.join(", ")
        )
    }))
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

pub(crate) fn dataset_error(e: DatasetError) -> CliError {
    CliError::runtime(e.to_string())
}
