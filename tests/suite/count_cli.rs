//! `bpe-lab count` and `bpe-lab train --word-counts` run as a user would: what the table holds,
//! and every bad input refused with a message naming the file, the row and the column, a
//! non-zero exit, and nothing written.

#![cfg(feature = "columnar")]

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use bpe_lab::dataset::{DataFrame, read_word_table};
use bpe_lab::polars::prelude::{Column, ParquetWriter, PlSmallStr};
use support::cli::{assert_success, bpe_lab, entries, path_str, stderr};
use tempfile::TempDir;

fn write(dir: &TempDir, name: &str, content: &str) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, content).unwrap();
    path
}

fn write_parquet(dir: &TempDir, name: &str, columns: Vec<Column>) -> PathBuf {
    let path = dir.path().join(name);
    let mut frame = DataFrame::new(columns[0].len(), columns).unwrap();
    ParquetWriter::new(fs::File::create(&path).unwrap())
        .finish(&mut frame)
        .unwrap();
    path
}

fn rows(table: &Path) -> Vec<(String, u64)> {
    let table = read_word_table(table).unwrap();
    table.iter().map(|(w, c)| (w.to_owned(), c)).collect()
}

fn owned(rows: &[(&str, u64)]) -> Vec<(String, u64)> {
    rows.iter().map(|&(w, c)| (w.to_owned(), c)).collect()
}

/// Runs `bpe-lab args`, expects exit 1 and a message containing each of `expected`, and that
/// the directory holds only `before` afterwards (nothing half-written).
fn refused(dir: &TempDir, args: &[&str], expected: &[&str]) {
    let before = entries(dir.path());
    let out = bpe_lab(args);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {message}");
    for part in expected {
        assert!(
            message.contains(part),
            "{args:?}: {message:?} lacks {part:?}"
        );
    }
    assert_eq!(entries(dir.path()), before, "{args:?} left files behind");
}

#[test]
fn counts_every_format_in_order_of_first_appearance() {
    let dir = TempDir::new().unwrap();
    let text = write(&dir, "a.txt", "\u{feff}the cat  the\r\n\nzebra\n");
    let jsonl = write(&dir, "b.jsonl", "{\"description\": \"cat dog\"}\n\n");
    let json = write(&dir, "c.json", r#"[{"description": "über"}]"#);
    let csv = write(&dir, "d.csv", "id,description\n1,dog 007\n");
    let parquet = write_parquet(
        &dir,
        "e.parquet",
        vec![Column::new(PlSmallStr::from("description"), ["the end"])],
    );
    let out = dir.path().join("counts.csv");
    let inputs = [&text, &jsonl, &json, &csv, &parquet];
    let mut args = vec!["count"];
    args.extend(inputs.iter().map(|p| path_str(p)));
    args.extend(["--output", path_str(&out)]);
    assert_success(&bpe_lab(&args));
    let expected = [
        ("the", 3),
        ("cat", 2),
        ("", 1),
        ("zebra", 1),
        ("dog", 2),
        ("über", 1),
        ("007", 1),
        ("end", 1),
    ];
    assert_eq!(rows(&out), owned(&expected));

    // The same words as bpe_initialize makes from the same paragraphs.
    let paragraphs = [
        "the cat  the",
        "zebra",
        "cat dog",
        "über",
        "dog 007",
        "the end",
    ];
    let (corpus, _) = bpe_lab::bpe_initialize(&paragraphs);
    let total: u64 = expected.iter().map(|(_, c)| c).sum();
    assert_eq!(corpus.len() as u64, total);
}

#[test]
fn merge_sums_tables_keeping_the_first_tables_order() {
    let dir = TempDir::new().unwrap();
    let a = write(&dir, "a.csv", "word,count\nb,2\na,1\n");
    let b = write_parquet(
        &dir,
        "b.parquet",
        vec![
            Column::new(PlSmallStr::from("count"), [5u32, 1, 0]),
            Column::new(PlSmallStr::from("word"), ["c", "a", "z"]),
        ],
    );
    // A folder of parts, as Spark writes a table, read in name order.
    let folder = dir.path().join("spark");
    fs::create_dir(&folder).unwrap();
    fs::write(folder.join("part-00001.csv"), "word,count\nd,1\n").unwrap();
    fs::write(folder.join("part-00000.csv"), "word,count\nb,1\n").unwrap();
    fs::write(folder.join("_SUCCESS"), "").unwrap();
    let out = dir.path().join("merged.parquet");
    assert_success(&bpe_lab(&[
        "count",
        "--sum",
        path_str(&a),
        path_str(&b),
        path_str(&folder),
        "--output",
        path_str(&out),
    ]));
    let expected = [("b", 3), ("a", 2), ("c", 5), ("d", 1)];
    assert_eq!(rows(&out), owned(&expected));
}

#[test]
fn bad_tables_are_refused_naming_file_row_and_column() {
    let dir = TempDir::new().unwrap();
    let output = dir.path().join("tokenizer.json");
    let train = |table: &Path, expected: &[&str]| {
        let args = [
            "train",
            "--word-counts",
            path_str(table),
            "--merges",
            "5",
            "--output",
            path_str(&output),
        ];
        refused(&dir, &args, expected);
        // --sum reads tables the same way.
        let merged = dir.path().join("merged.parquet");
        let args = [
            "count",
            "--sum",
            path_str(table),
            "--output",
            path_str(&merged),
        ];
        refused(&dir, &args, expected);
    };
    let no_count = write(&dir, "no-count.csv", "word,n\na,1\n");
    train(
        &no_count,
        &["no-count.csv", "no column \"count\"", "\"word\", \"n\""],
    );
    let no_word = write(&dir, "no-word.csv", "token,count\na,1\n");
    train(&no_word, &["no-word.csv", "no column \"word\""]);
    let fraction = write(&dir, "fraction.csv", "word,count\na,1\nb,1.5\n");
    train(
        &fraction,
        &["fraction.csv", "column \"count\"", "\"1.5\" in row 2"],
    );
    let text = write(&dir, "text.csv", "word,count\na,many\n");
    train(
        &text,
        &["text.csv", "column \"count\"", "\"many\" in row 1"],
    );
    let negative = write(&dir, "negative.csv", "word,count\na,1\nb,2\nc,-3\n");
    train(
        &negative,
        &["negative.csv", "row 3: column \"count\" is -3", "negative"],
    );
    let float = write_parquet(
        &dir,
        "float.parquet",
        vec![
            Column::new(PlSmallStr::from("word"), ["a"]),
            Column::new(PlSmallStr::from("count"), [1.0f64]),
        ],
    );
    train(
        &float,
        &[
            "float.parquet",
            "column \"count\" holds f64",
            "whole numbers",
        ],
    );
    let null_word = write_parquet(
        &dir,
        "null-word.parquet",
        vec![
            Column::new(PlSmallStr::from("word"), [Some("a"), None, None]),
            Column::new(PlSmallStr::from("count"), [1i64, 2, 3]),
        ],
    );
    train(
        &null_word,
        &[
            "null-word.parquet",
            "column \"word\" has 2 missing values (the first in row 2)",
        ],
    );
    let empty = write(&dir, "empty.csv", "word,count\n");
    refused(
        &dir,
        &[
            "train",
            "--word-counts",
            path_str(&empty),
            "-m",
            "5",
            "-o",
            path_str(&output),
        ],
        &["empty.csv", "has no words"],
    );
    let zeros = write(&dir, "zeros.csv", "word,count\na,0\n");
    refused(
        &dir,
        &[
            "train",
            "--word-counts",
            path_str(&zeros),
            "-m",
            "5",
            "-o",
            path_str(&output),
        ],
        &["zeros.csv", "has no words"],
    );
    let not_a_table = write(&dir, "words.txt", "a 1\n");
    refused(
        &dir,
        &[
            "train",
            "--word-counts",
            path_str(&not_a_table),
            "-m",
            "5",
            "-o",
            path_str(&output),
        ],
        &["words.txt", ".parquet or .csv"],
    );
    let missing = dir.path().join("missing.parquet");
    refused(
        &dir,
        &[
            "train",
            "--word-counts",
            path_str(&missing),
            "-m",
            "5",
            "-o",
            path_str(&output),
        ],
        &["missing.parquet", "no such file"],
    );
}

#[test]
fn bad_corpora_are_refused_and_nothing_is_written() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("counts.parquet");
    let count = |input: &Path, expected: &[&str]| {
        refused(
            &dir,
            &["count", path_str(input), "-o", path_str(&out)],
            expected,
        );
    };
    let bad_utf8 = dir.path().join("latin1.txt");
    fs::write(&bad_utf8, b"ok\ncaf\xe9\n").unwrap();
    count(&bad_utf8, &["latin1.txt", "line 2", "UTF-8"]);
    let bad_json = write(
        &dir,
        "bad.jsonl",
        "{\"description\": \"a\"}\n{\"text\": \"b\"}\n",
    );
    count(
        &bad_json,
        &["bad.jsonl", "line 2 has no \"description\" field"],
    );
    let no_column = write(&dir, "no-column.csv", "text\nhello\n");
    count(&no_column, &["no-column.csv", "no column \"description\""]);
    let nulls = write_parquet(
        &dir,
        "nulls.parquet",
        vec![Column::new(
            PlSmallStr::from("description"),
            [Some("a"), None],
        )],
    );
    count(
        &nulls,
        &[
            "nulls.parquet",
            "column \"description\" has 1 missing value (the first in row 2)",
        ],
    );
    let blank = write(&dir, "blank.txt", "\n\n");
    count(&blank, &["blank.txt", "contain no words"]);
    let unknown = write(&dir, "sheet.xlsx", "");
    count(&unknown, &["sheet.xlsx", "cannot tell the format"]);
    count(&dir.path().join("nothing-*.txt"), &["no file matches"]);
    count(
        &dir.path().join("missing.txt"),
        &["missing.txt", "no such file"],
    );

    // Usage errors (exit 2): an output format that is not a table, an output that is an input.
    let corpus = write(&dir, "ok.txt", "a b\n");
    let out = bpe_lab(&["count", path_str(&corpus), "-o", "counts.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(".parquet or .csv"),
        "{}",
        stderr(&out)
    );
    let table = write(&dir, "table.csv", "word,count\na,1\n");
    let out = bpe_lab(&["count", "--sum", path_str(&table), "-o", path_str(&table)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&table).unwrap(), "word,count\na,1\n");
}

#[test]
fn an_existing_output_is_replaced_only_on_success() {
    let dir = TempDir::new().unwrap();
    let out = write(&dir, "counts.csv", "word,count\nold,1\n");
    let bad = write(&dir, "bad.jsonl", "not json\n");
    refused(
        &dir,
        &["count", path_str(&bad), "-o", path_str(&out)],
        &["bad.jsonl", "line 1"],
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "word,count\nold,1\n");
    let good = write(&dir, "good.txt", "new\n");
    assert_success(&bpe_lab(&["count", path_str(&good), "-o", path_str(&out)]));
    assert_eq!(rows(&out), owned(&[("new", 1)]));
}
