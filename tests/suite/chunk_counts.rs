//! Byte-level training from chunk counts made where the data lives, run as a user would: a
//! text cut into shards, each counted with `bpe-lab count --pattern`, the tables summed with
//! `count --sum`, and `train --byte-level --word-counts` on the sum writes the same file, byte
//! for byte, as `train --byte-level --input` on the whole text; and every mix-up of tables,
//! patterns and special tokens refused, naming the flag and the file, with nothing written.

#![cfg(feature = "columnar")]

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::{BUILTIN_PATTERNS, SplitPattern};
use bpe_lab::dataset::{CountTable, read_count_table};
use support::cli::{assert_success, bpe_lab, entries, path_str, stderr};
use tempfile::TempDir;

/// Lines in several scripts (Ethiopic, N'Ko, Latin with combining marks, emoji), empty lines,
/// runs of spaces, digits, punctuation, contractions and special tokens; every third line
/// starts with an ASCII letter after a line that ends in one, where a shard may be cut.
const TEXT: &str = "The cat's here, isn't it? ሰላም ዓለም 123456 ߒߞߏ ߞߊ߲ߜߍ\n\
\n\
  indented   spaces\t\tand tabs  \n\
cafe\u{301} nai\u{308}ve re\u{301}sume\u{301} 😀👍🏽 !!!\n\
<|endoftext|>after the special<|endoftext|>\n\
\n\
\n\
Ethiopic ሀሁሂ ሃሄ and N'Ko ߊߋߌ ߍ we'll see\n\
punctuation...;:--  ((brackets)) 3.14159 you're\n\
\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} family, ZWJ\n\
again The cat's here, isn't it? ሰላም\n\
<|endoftext|>\n\
last line ߒߞߏ e\u{301}\n";

/// `text` cut into three shards, each cut just after a `\n` that follows a character that is
/// not whitespace and just before an ASCII letter: there no chunk of the built-in patterns
/// crosses the cut, so the shards' chunks are the whole text's.
fn shards(text: &str) -> [&str; 3] {
    let cuts: Vec<usize> = (1..text.len())
        .filter(|&i| {
            let bytes = text.as_bytes();
            bytes[i - 1] == b'\n'
                && i >= 2
                && !bytes[i - 2].is_ascii_whitespace()
                && bytes[i].is_ascii_alphabetic()
        })
        .collect();
    assert!(cuts.len() >= 2, "the text needs two places to cut");
    let (a, b) = (cuts[cuts.len() / 3], cuts[2 * cuts.len() / 3]);
    assert!(a < b);
    [&text[..a], &text[a..b], &text[b..]]
}

fn write(dir: &Path, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, content).unwrap();
    path
}

fn run_ok(args: &[&str]) {
    assert_success(&bpe_lab(args));
}

/// Runs `bpe-lab args`, expects exit `code` and a message containing each of `expected`, and
/// that the directory holds what it held before (nothing written, nothing half-written).
fn refused(dir: &Path, args: &[&str], code: i32, expected: &[&str]) {
    let before = entries(dir);
    let out = bpe_lab(args);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {message}");
    for part in expected {
        assert!(
            message.contains(part),
            "{args:?}: {message:?} lacks {part:?}"
        );
    }
    assert_eq!(entries(dir), before, "{args:?} left files behind");
}

/// Counts the shards of `TEXT` under `pattern` (one table as CSV, to cover both formats), sums
/// them, and returns the summed table's path and the whole text's.
fn counted(dir: &Path, pattern: &str) -> (PathBuf, PathBuf) {
    let whole = write(dir, "whole.txt", TEXT.as_bytes());
    let mut tables = Vec::new();
    for (i, shard) in shards(TEXT).iter().enumerate() {
        let file = write(dir, &format!("shard-{i}.txt"), shard.as_bytes());
        let table = dir.join(format!(
            "shard-{i}.{}",
            if i == 1 { "csv" } else { "parquet" }
        ));
        run_ok(&[
            "count",
            "--pattern",
            pattern,
            path_str(&file),
            "--output",
            path_str(&table),
        ]);
        tables.push(table);
    }
    let sum = dir.join(format!("{pattern}.parquet"));
    let mut args = vec!["count", "--sum"];
    args.extend(tables.iter().map(|t| path_str(t)));
    args.extend(["--output", path_str(&sum)]);
    run_ok(&args);
    (sum, whole)
}

#[test]
fn summed_shards_train_to_the_whole_texts_tokenizer_under_every_pattern_and_tie_break() {
    for row in &BUILTIN_PATTERNS {
        let dir = TempDir::new().unwrap();
        let (sum, whole) = counted(dir.path(), row.name);
        for tie in TieBreak::ALL {
            let from_table = dir.path().join(format!("table-{}.json", tie.name()));
            let from_text = dir.path().join(format!("text-{}.json", tie.name()));
            for (source, out) in [("--word-counts", &sum), ("--input", &whole)]
                .into_iter()
                .zip([&from_table, &from_text])
            {
                let mut args = vec!["train", "--byte-level", source.0, path_str(source.1)];
                // The table's pattern is the table's; the text's is given.
                if source.0 == "--input" {
                    args.extend(["--pattern", row.name]);
                }
                args.extend([
                    "--merges",
                    "60",
                    "--tie-break",
                    tie.name(),
                    "--output",
                    path_str(out),
                ]);
                run_ok(&args);
            }
            let (a, b) = (
                fs::read(&from_table).unwrap(),
                fs::read(&from_text).unwrap(),
            );
            assert!(
                a == b,
                "{} {}: the table's tokenizer differs from the text's",
                row.name,
                tie.name()
            );
            // Not vacuous: merges were learned and the special token is in the file.
            let file: serde_json::Value = serde_json::from_slice(&a).unwrap();
            assert_eq!(file["tokens"].as_array().unwrap().len(), 256 + 60);
            assert!(file["special_tokens"].get("<|endoftext|>").is_some());
        }
    }
}

#[test]
fn the_table_says_it_holds_chunks_and_how_they_were_cut() {
    let dir = TempDir::new().unwrap();
    let (sum, _) = counted(dir.path(), "o200k");
    let CountTable::Chunks(table) = read_count_table(&sum).unwrap() else {
        panic!("a chunk table read as words");
    };
    assert_eq!(table.split().pattern, SplitPattern::O200k);
    assert_eq!(table.split().special_tokens, ["<|endoftext|>"]);
    // The special token is cut out, never counted as text.
    assert!(table.iter().all(|(chunk, _)| !chunk.contains("endoftext")));
    use bpe_lab::polars::prelude::{ParquetReader, SerReader};
    let frame = ParquetReader::new(fs::File::open(&sum).unwrap())
        .finish()
        .unwrap();
    let names: Vec<&str> = frame
        .get_column_names()
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(names, ["chunk", "count", "pattern", "special_tokens"]);
    let pattern = frame.column("pattern").unwrap().str().unwrap().get(0);
    assert_eq!(pattern, Some(bpe_lab::bpe::bytelevel::O200K_PATTERN));
    let specials = frame
        .column("special_tokens")
        .unwrap()
        .str()
        .unwrap()
        .get(0);
    assert_eq!(specials, Some(r#"["<|endoftext|>"]"#));
}

#[test]
fn a_jsonl_corpus_counts_as_train_reads_it() {
    let dir = TempDir::new().unwrap();
    let lines: String = TEXT
        .lines()
        .map(|l| serde_json::json!({ "description": l }).to_string() + "\n")
        .collect();
    let corpus = write(dir.path(), "corpus.jsonl", lines.as_bytes());
    let table = dir.path().join("chunks.parquet");
    run_ok(&[
        "count",
        "--pattern",
        "gpt2",
        "--special-tokens",
        "<|endoftext|>,ߒߞߏ",
        path_str(&corpus),
        "-o",
        path_str(&table),
    ]);
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    run_ok(&[
        "train",
        "--byte-level",
        "--word-counts",
        path_str(&table),
        "--vocab-size",
        "300",
        "--tie-break",
        "first-seen",
        "-o",
        path_str(&a),
    ]);
    run_ok(&[
        "train",
        "--byte-level",
        "--pattern",
        "gpt2",
        "--special-tokens",
        "<|endoftext|>,ߒߞߏ",
        "--input",
        path_str(&corpus),
        "--vocab-size",
        "300",
        "--tie-break",
        "first-seen",
        "-o",
        path_str(&b),
    ]);
    assert!(fs::read(&a).unwrap() == fs::read(&b).unwrap());
}

#[test]
fn mixed_up_tables_patterns_and_specials_are_refused_naming_flag_and_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (gpt4, whole) = counted(d, "gpt4");
    let gpt2 = d.join("gpt2-whole.parquet");
    run_ok(&[
        "count",
        "--pattern",
        "gpt2",
        path_str(&whole),
        "-o",
        path_str(&gpt2),
    ]);
    let words = d.join("words.parquet");
    run_ok(&["count", path_str(&whole), "-o", path_str(&words)]);
    let out = d.join("out.json");
    let out = path_str(&out);

    // A word table to byte-level training, a chunk table to lab training.
    refused(
        d,
        &[
            "train",
            "--byte-level",
            "--word-counts",
            path_str(&words),
            "--merges",
            "5",
            "-o",
            out,
        ],
        2,
        &[
            "--word-counts",
            "words.parquet",
            "counted by words, not chunks",
            "--pattern",
        ],
    );
    refused(
        d,
        &[
            "train",
            "--word-counts",
            path_str(&gpt4),
            "--merges",
            "5",
            "-o",
            out,
        ],
        2,
        &[
            "--word-counts",
            "gpt4.parquet",
            "counted by chunks",
            "--byte-level",
        ],
    );
    // A pattern or special tokens that disagree with the table's, both named.
    refused(
        d,
        &[
            "train",
            "--byte-level",
            "--pattern",
            "gpt2",
            "--word-counts",
            path_str(&gpt4),
            "--merges",
            "5",
            "-o",
            out,
        ],
        2,
        &["--pattern gpt2", "gpt4.parquet", "pattern gpt4"],
    );
    refused(
        d,
        &[
            "train",
            "--byte-level",
            "--regex",
            r"\w+|\s+|.",
            "--word-counts",
            path_str(&gpt4),
            "--merges",
            "5",
            "-o",
            out,
        ],
        2,
        &["--regex", "gpt4.parquet"],
    );
    refused(
        d,
        &[
            "train",
            "--byte-level",
            "--special-tokens",
            "<s>",
            "--word-counts",
            path_str(&gpt4),
            "--merges",
            "5",
            "-o",
            out,
        ],
        2,
        &["--special-tokens <s>", "gpt4.parquet", "<|endoftext|>"],
    );
    // The same pattern by another name is the same pattern.
    let same = d.join("same.json");
    run_ok(&[
        "train",
        "--byte-level",
        "--pattern",
        "cl100k_base",
        "--word-counts",
        path_str(&gpt4),
        "--merges",
        "5",
        "-o",
        path_str(&same),
    ]);
    fs::remove_file(&same).unwrap();

    // Summing refuses a word table with a chunk table, and tables cut by other patterns.
    let sum = d.join("sum.parquet");
    let sum = path_str(&sum);
    refused(
        d,
        &[
            "count",
            "--sum",
            path_str(&gpt4),
            path_str(&words),
            "-o",
            sum,
        ],
        1,
        &["gpt4.parquet", "words.parquet", "word table", "chunk table"],
    );
    refused(
        d,
        &[
            "count",
            "--sum",
            path_str(&gpt4),
            path_str(&gpt2),
            "-o",
            sum,
        ],
        1,
        &[
            "gpt4.parquet",
            "gpt2-whole.parquet",
            "pattern gpt2",
            "pattern gpt4",
        ],
    );

    // Counting: a regex that leaves text unmatched, one that does not compile, an unknown
    // name, special tokens without a pattern.
    refused(
        d,
        &["count", "--regex", r"\p{L}+", path_str(&whole), "-o", sum],
        1,
        &["whole.txt", "matched by no part of the pattern"],
    );
    refused(
        d,
        &["count", "--regex", "(", path_str(&whole), "-o", sum],
        2,
        &["--regex"],
    );
    refused(
        d,
        &["count", "--pattern", "gpt5", path_str(&whole), "-o", sum],
        2,
        &["--pattern", "gpt5"],
    );
    refused(
        d,
        &[
            "count",
            "--special-tokens",
            "<s>",
            path_str(&whole),
            "-o",
            sum,
        ],
        2,
        &["--pattern"],
    );
}

#[test]
fn invalid_utf8_is_refused_as_byte_level_training_refuses_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let bad = write(d, "bad.txt", b"good text\nbad \xff byte\n");
    let out = d.join("out.parquet");
    let trained = d.join("out.json");
    let train = bpe_lab(&[
        "train",
        "--byte-level",
        "--input",
        path_str(&bad),
        "--merges",
        "3",
        "-o",
        path_str(&trained),
    ]);
    assert_eq!(train.status.code(), Some(1), "{}", stderr(&train));
    refused(
        d,
        &[
            "count",
            "--pattern",
            "gpt4",
            path_str(&bad),
            "-o",
            path_str(&out),
        ],
        1,
        &["bad.txt", "line 2"],
    );
}

#[test]
fn the_spark_jobs_patterns_are_the_librarys() {
    let script = Path::new(env!("BPE_LAB_REPO")).join("scripts/spark/count_words.py");
    let script = fs::read_to_string(script).unwrap();
    for row in &BUILTIN_PATTERNS {
        let regex = format!("r\"\"\"{}\"\"\"", row.regex);
        assert!(
            script.contains(&regex),
            "the Spark job's {} pattern is not the library's",
            row.name
        );
        let names = format!("(\"{}\", (", row.name);
        assert!(script.contains(&names), "no pattern named {}", row.name);
        for alias in row.aliases {
            assert!(script.contains(&format!("\"{alias}\"")), "no alias {alias}");
        }
    }
}

/// The Spark job's chunk table trains the same tokenizer as the text, alone and summed with a
/// table `bpe-lab count --pattern` wrote. Opt-in (`scripts/spark/test`): it needs pyspark,
/// the `regex` module and Java, found through `BPE_LAB_SPARK_PYTHON` (default
/// `.venv-spark/bin/python`).
#[test]
#[ignore = "needs pyspark and Java; run scripts/spark/test"]
fn the_spark_chunk_table_trains_the_same_tokenizer() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let whole = write(d, "whole.txt", TEXT.as_bytes());
    let shards: Vec<PathBuf> = shards(TEXT)
        .iter()
        .enumerate()
        .map(|(i, s)| write(d, &format!("shard-{i}.txt"), s.as_bytes()))
        .collect();
    let python = std::env::var("BPE_LAB_SPARK_PYTHON")
        .unwrap_or_else(|_| format!("{}/.venv-spark/bin/python", env!("BPE_LAB_REPO")));
    let script = Path::new(env!("BPE_LAB_REPO")).join("scripts/spark/count_words.py");
    for pattern in ["gpt2", "o200k"] {
        // The first two shards by Spark, the third by `bpe-lab count`, summed.
        let spark = d.join(format!("spark-{pattern}"));
        let status = std::process::Command::new(&python)
            .arg(&script)
            .args(&shards[..2])
            .args(["--pattern", pattern, "--master", "local[2]", "--output"])
            .arg(&spark)
            .status()
            .unwrap_or_else(|e| panic!("cannot run {python}: {e} (run scripts/spark/test)"));
        assert!(status.success(), "the Spark job failed: {status}");
        let third = d.join(format!("third-{pattern}.parquet"));
        run_ok(&[
            "count",
            "--pattern",
            pattern,
            path_str(&shards[2]),
            "-o",
            path_str(&third),
        ]);
        let sum = d.join(format!("sum-{pattern}.parquet"));
        run_ok(&[
            "count",
            "--sum",
            path_str(&spark),
            path_str(&third),
            "-o",
            path_str(&sum),
        ]);
        for tie in TieBreak::ALL {
            let (a, b) = (d.join("a.json"), d.join("b.json"));
            run_ok(&[
                "train",
                "--byte-level",
                "--word-counts",
                path_str(&sum),
                "--merges",
                "60",
                "--tie-break",
                tie.name(),
                "-o",
                path_str(&a),
            ]);
            run_ok(&[
                "train",
                "--byte-level",
                "--pattern",
                pattern,
                "--input",
                path_str(&whole),
                "--merges",
                "60",
                "--tie-break",
                tie.name(),
                "-o",
                path_str(&b),
            ]);
            assert!(
                fs::read(&a).unwrap() == fs::read(&b).unwrap(),
                "{pattern} {}: the Spark table's tokenizer differs",
                tie.name()
            );
        }
    }
}
