//! One corpus, five file formats, one reader: the same paragraphs written as text, JSON, JSON
//! Lines, CSV and Parquet are read back identically by `CorpusReader` and train to identical
//! merges, under both tie-breaks. The expected paragraphs come from the fixture as serde_json
//! parses it (not through the reader under test); CSV and Parquet are written with polars'
//! writers, which share no code with the readers.
//!
//! Also: plain text read whole (the parallel counter `train` uses) and read line by line (what
//! `count` and the DataFrame loaders use) give the same words on generated files full of CRLF,
//! blank lines and a byte-order mark.

#![cfg(feature = "columnar")]

use std::fs;
use std::path::{Path, PathBuf};

use bpe_lab::dataset::{CorpusReader, DataFrame, Format, descriptions, read_corpus};
use bpe_lab::polars::prelude::{Column, CsvWriter, ParquetWriter, PlSmallStr, SerWriter};
use bpe_lab::{TieBreak, Trainer, WordCounts};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The stand-in's paragraphs, plus the cases where formats could differ: quotes and commas
/// (CSV), backslashes (JSON), double and leading spaces (empty words), non-ASCII.
fn paragraphs() -> Vec<String> {
    let json: Value =
        serde_json::from_str(include_str!("../../data/africa_galore_stand_in.json")).unwrap();
    let mut paragraphs: Vec<String> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["description"].as_str().unwrap().to_owned())
        .collect();
    paragraphs.extend(
        [
            "she said \"yes, then no\", twice",
            "a\\b  c   d",
            " leading space and trailing ",
            "über ünd élan, naïve café; 東京 and Ọ̀yọ́",
        ]
        .map(String::from),
    );
    paragraphs
}

struct Files {
    _dir: TempDir,
    by_format: Vec<(Format, PathBuf)>,
}

fn frame(paragraphs: &[String]) -> DataFrame {
    let ids: Vec<u32> = (0..paragraphs.len() as u32).collect();
    DataFrame::new_infer_height(vec![
        Column::new(PlSmallStr::from("id"), ids),
        Column::new(PlSmallStr::from("description"), paragraphs.to_vec()),
    ])
    .unwrap()
}

/// The paragraphs written in every format, each by a writer other than the readers under test.
fn write_all(paragraphs: &[String]) -> Files {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let objects: Vec<Value> = paragraphs
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"id": i, "description": p}))
        .collect();

    let mut text = String::from("\u{feff}");
    for p in paragraphs {
        text.push_str(p);
        text.push_str("\r\n\n");
    }
    fs::write(path("corpus.txt"), text).unwrap();
    fs::write(
        path("corpus.json"),
        serde_json::to_string_pretty(&objects).unwrap(),
    )
    .unwrap();
    let lines: Vec<String> = objects.iter().map(Value::to_string).collect();
    fs::write(path("corpus.jsonl"), lines.join("\n\n") + "\n").unwrap();
    let mut csv = fs::File::create(path("corpus.csv")).unwrap();
    CsvWriter::new(&mut csv)
        .finish(&mut frame(paragraphs))
        .unwrap();
    let parquet = fs::File::create(path("corpus.parquet")).unwrap();
    ParquetWriter::new(parquet)
        .finish(&mut frame(paragraphs))
        .unwrap();

    let by_format = [
        (Format::Text, "corpus.txt"),
        (Format::Json, "corpus.json"),
        (Format::JsonLines, "corpus.jsonl"),
        (Format::Csv, "corpus.csv"),
        (Format::Parquet, "corpus.parquet"),
    ]
    .map(|(format, name)| (format, path(name)))
    .to_vec();
    Files {
        _dir: dir,
        by_format,
    }
}

/// (word, count) rows in order, with each word's symbols joined.
fn rows(words: &WordCounts) -> Vec<(String, u64)> {
    (0..words.len())
        .map(|i| (words.word(i).collect::<String>(), words.count(i)))
        .collect()
}

#[test]
fn every_format_gives_the_same_paragraphs() {
    let expected = paragraphs();
    let files = write_all(&expected);
    for (format, path) in &files.by_format {
        assert_eq!(Format::from_path(path), Some(*format));
        let read = CorpusReader::new().paragraphs(path).unwrap();
        assert_eq!(read, expected, "{format}: paragraphs");
        let mut streamed = Vec::new();
        CorpusReader::new()
            .for_each_paragraph(path, &mut |p| streamed.push(p.to_owned()), &mut |_| {})
            .unwrap();
        assert_eq!(streamed, expected, "{format}: streamed paragraphs");
        // The notebooks' loader: the same reader into a DataFrame.
        let frame = read_corpus(path).unwrap();
        assert_eq!(
            descriptions(&frame).unwrap(),
            expected,
            "{format}: DataFrame"
        );
    }
}

#[test]
fn every_format_trains_to_the_same_merges() {
    let expected = paragraphs();
    let files = write_all(&expected);
    for tie_break in [TieBreak::Lexicographic, TieBreak::FirstSeen] {
        let reference = Trainer::new(300)
            .tie_break(tie_break)
            .train_paragraphs(&expected);
        assert_eq!(reference.merges.len(), 300);
        for (format, path) in &files.by_format {
            let words = CorpusReader::new().word_counts(path).unwrap();
            assert_eq!(words.total(), 3778 + 26, "{format}: words in all");
            let training = Trainer::new(300).tie_break(tie_break).train(words);
            assert_eq!(
                training.merges, reference.merges,
                "{format}, {tie_break:?}: merges"
            );
            assert_eq!(training.merge_counts, reference.merge_counts);
        }
    }
}

/// A small generator (xorshift) so the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Text made of the pieces a line reader can get wrong.
fn generated_text(rng: &mut Rng) -> String {
    const PIECES: [&str; 10] = [
        "a", "b", "é", " ", "  ", "\n", "\r\n", "\r", "\u{feff}", "ab",
    ];
    let mut text = String::new();
    if rng.below(2) == 0 {
        text.push('\u{feff}');
    }
    for _ in 0..rng.below(40) {
        text.push_str(PIECES[rng.below(PIECES.len() as u64) as usize]);
    }
    text
}

#[test]
fn text_read_whole_and_line_by_line_gives_the_same_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("generated.txt");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..3000 {
        let text = generated_text(&mut rng);
        fs::write(&path, &text).unwrap();
        let reader = CorpusReader::new();
        let paragraphs = reader.paragraphs(&path).unwrap();
        // The rule, written out literally: lines without "\n" and one "\r", empty ones out,
        // a leading byte-order mark not text.
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let literal: Vec<&str> = body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(paragraphs, literal, "case {case}: {text:?}");
        let whole = reader.word_counts(&path).unwrap();
        let streamed = WordCounts::from_paragraphs(&paragraphs);
        assert_eq!(rows(&whole), rows(&streamed), "case {case}: {text:?}");
    }
}

#[test]
fn invalid_utf8_is_located_the_same_way_in_every_text_reader() {
    let dir = tempfile::tempdir().unwrap();
    let text = write_bytes(&dir, "bad.txt", b"fine\n\xEF\xBB\xBFok\nab\xFFcd\n");
    let jsonl = write_bytes(&dir, "bad.jsonl", b"{\"description\": \"a\"}\n\"\xFF\"\n");
    let expect = |path: &Path, line: u64, offset: u64| {
        format!(
            "file '{}', line {line}, byte offset {offset}: invalid UTF-8 (0xFF",
            path.display()
        )
    };
    let whole = CorpusReader::new().word_counts(&text).unwrap_err();
    let lines = CorpusReader::new().paragraphs(&text).unwrap_err();
    assert!(
        whole.to_string().starts_with(&expect(&text, 3, 13)),
        "{whole}"
    );
    assert!(
        lines.to_string().starts_with(&expect(&text, 3, 13)),
        "{lines}"
    );
    let err = CorpusReader::new().paragraphs(&jsonl).unwrap_err();
    assert!(err.to_string().starts_with(&expect(&jsonl, 2, 22)), "{err}");
}

fn write_bytes(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, bytes).unwrap();
    path
}
