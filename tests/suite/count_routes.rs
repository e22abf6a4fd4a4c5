//! Same merges, every route: training from the text, from `bpe-lab count`'s table, from shards
//! counted apart and summed with `count --sum`, and (opt-in, `scripts/spark/test`) from the
//! Spark job's table gives the same tokenizer, merges and vocabulary, under both tie-breaks.
//!
//! The corpus is real text: the Africa Galore stand-in in `data/` and the Python language
//! reference that ships with CPython. The shards are in three formats (text, JSON Lines,
//! Parquet), so every reader takes part, and the first-seen tie-break checks that the table
//! keeps the words in order of first appearance across files.

#![cfg(feature = "columnar")]

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use bpe_lab::dataset::{AfricaGalore, DataFrame};
use bpe_lab::polars::prelude::{Column, ParquetWriter, PlSmallStr};
use serde_json::Value;
use support::cli::{assert_success, bpe_lab, path_str};
use support::python_reference_text;
use tempfile::TempDir;

const MERGES: &str = "400";
const TIE_BREAKS: [&str; 2] = ["lexicographic", "first-seen"];

/// The corpus written once as a whole (`corpus.txt`) and once as three shards in three formats.
struct Corpus {
    dir: TempDir,
    whole: PathBuf,
    shards: Vec<PathBuf>,
}

impl Corpus {
    fn new() -> Corpus {
        let stand_in = AfricaGalore::new()
            .offline(true)
            .cache_dir("/nonexistent/bpe-lab-test")
            .load()
            .unwrap()
            .paragraphs();
        let reference = python_reference_text();
        // Paragraphs as a text file holds them: no line breaks inside, none empty. (A lone
        // carriage return would end a line for Spark's text reader, not for bpe-lab.)
        let paragraphs: Vec<&str> = stand_in
            .iter()
            .map(String::as_str)
            .chain(reference.lines())
            .filter(|p| !p.is_empty() && !p.contains(['\r', '\n']))
            .collect();
        assert!(paragraphs.len() > 5_000, "{} paragraphs", paragraphs.len());

        let dir = TempDir::new().unwrap();
        let whole = dir.path().join("corpus.txt");
        fs::write(&whole, paragraphs.join("\n")).unwrap();

        let third = paragraphs.len() / 3;
        let (a, rest) = paragraphs.split_at(third);
        let (b, c) = rest.split_at(third);
        let text = dir.path().join("shard-1.txt");
        fs::write(&text, a.join("\n")).unwrap();
        let jsonl = dir.path().join("shard-2.jsonl");
        let lines: Vec<String> = b
            .iter()
            .map(|p| serde_json::json!({ "description": p, "n": 1 }).to_string())
            .collect();
        fs::write(&jsonl, lines.join("\n")).unwrap();
        let parquet = dir.path().join("shard-3.parquet");
        let mut frame = DataFrame::new(
            c.len(),
            vec![Column::new(PlSmallStr::from("description"), c.to_vec())],
        )
        .unwrap();
        ParquetWriter::new(fs::File::create(&parquet).unwrap())
            .finish(&mut frame)
            .unwrap();
        Corpus {
            dir,
            whole,
            shards: vec![text, jsonl, parquet],
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// Trains with `source` (`--input FILE` or `--word-counts TABLE`) and returns the tokenizer's
/// merges and vocabulary.
fn train(corpus: &Corpus, source: &[&str], tie_break: &str, name: &str) -> (Value, Value) {
    let output = corpus.path(name);
    let mut args = source.to_vec();
    args.extend(["--merges", MERGES, "--tie-break", tie_break, "--output"]);
    args.push(path_str(&output));
    assert_success(&bpe_lab(&args));
    let mut tokenizer: Value = serde_json::from_slice(&fs::read(&output).unwrap()).unwrap();
    let merges = tokenizer["merges"].take();
    assert_eq!(merges.as_array().unwrap().len(), 400, "{name}");
    (merges, tokenizer["vocab"].take())
}

fn count(args: &[&str]) {
    assert_success(&bpe_lab(&[&["count"], args].concat()));
}

#[test]
fn text_table_and_merged_shards_train_the_same_merges() {
    let corpus = Corpus::new();
    let table = corpus.path("counts.parquet");
    count(&[path_str(&corpus.whole), "--output", path_str(&table)]);

    // Each shard counted on its own (one table as CSV), then summed in shard order.
    let mut tables = Vec::new();
    for (i, shard) in corpus.shards.iter().enumerate() {
        let ext = if i == 1 { "csv" } else { "parquet" };
        let table = corpus.path(&format!("table-{i}.{ext}"));
        count(&[path_str(shard), "--output", path_str(&table)]);
        tables.push(table);
    }
    let merged = corpus.path("merged.parquet");
    let mut args: Vec<&str> = vec!["--sum"];
    args.extend(tables.iter().map(|t| path_str(t)));
    args.extend(["--output", path_str(&merged)]);
    count(&args);

    // The shards as one command's inputs, through a glob.
    let globbed = corpus.path("globbed.csv");
    let pattern = corpus.path("shard-*.*");
    count(&[path_str(&pattern), "--output", path_str(&globbed)]);

    for tie_break in TIE_BREAKS {
        let direct = train(
            &corpus,
            &["train", "--input", path_str(&corpus.whole)],
            tie_break,
            "direct.json",
        );
        for table in [&table, &merged, &globbed] {
            let routed = train(
                &corpus,
                &["train", "--word-counts", path_str(table)],
                tie_break,
                "routed.json",
            );
            assert!(direct == routed, "{tie_break}: {} differs", table.display());
        }
    }
}

/// The Spark job's table trains the same merges. Opt-in (`scripts/spark/test`, about a
/// minute): it needs pyspark and Java, found through `BPE_LAB_SPARK_PYTHON` (default
/// `.venv-spark/bin/python`, which that script makes).
#[test]
#[ignore = "needs pyspark and Java; run scripts/spark/test"]
fn the_spark_table_trains_the_same_merges() {
    let corpus = Corpus::new();
    let spark_table = corpus.path("spark-counts");
    let python = std::env::var("BPE_LAB_SPARK_PYTHON")
        .unwrap_or_else(|_| format!("{}/.venv-spark/bin/python", env!("BPE_LAB_REPO")));
    let script = Path::new(env!("BPE_LAB_REPO")).join("scripts/spark/count_words.py");
    let status = Command::new(&python)
        .arg(&script)
        .args(&corpus.shards)
        .args(["--master", "local[2]", "--output"])
        .arg(&spark_table)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e} (run scripts/spark/test)"));
    assert!(status.success(), "the Spark job failed: {status}");

    for tie_break in TIE_BREAKS {
        let direct = train(
            &corpus,
            &["train", "--input", path_str(&corpus.whole)],
            tie_break,
            "direct.json",
        );
        let spark = train(
            &corpus,
            &["train", "--word-counts", path_str(&spark_table)],
            tie_break,
            "spark.json",
        );
        assert!(direct == spark, "{tie_break}: the Spark table differs");
    }
}
