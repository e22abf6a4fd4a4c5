//! Corpus loaders (JSON, JSON Lines, CSV, Parquet, text) and (word, count) tables, on small
//! fixtures each test writes itself; the Parquet ones are written with polars.

#![cfg(feature = "columnar")]

use std::fs;
use std::path::{Path, PathBuf};

use bpe_lab::dataset::{
    AfricaGalore, CorpusReader, DataFrame, DataType, DatasetError, Format, Summary, descriptions,
    read_corpus, read_word_counts, summarize,
};
use bpe_lab::polars::prelude::{Column, ParquetWriter, PlSmallStr};
use bpe_lab::{WordCounts, learn_bpe};
use tempfile::TempDir;

fn write(dir: &TempDir, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, content).unwrap();
    path
}

fn write_parquet(dir: &TempDir, name: &str, mut frame: DataFrame) -> PathBuf {
    let path = dir.path().join(name);
    let file = fs::File::create(&path).unwrap();
    ParquetWriter::new(file).finish(&mut frame).unwrap();
    path
}

fn column<T, P: ?Sized>(name: &str, values: T) -> Column
where
    bpe_lab::polars::prelude::Series: bpe_lab::polars::prelude::NamedFrom<T, P>,
{
    Column::new(PlSmallStr::from(name), values)
}

fn frame(columns: Vec<Column>) -> DataFrame {
    DataFrame::new_infer_height(columns).unwrap()
}

fn names(frame: &DataFrame) -> Vec<String> {
    frame
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect()
}

fn strings(frame: &DataFrame, name: &str) -> Vec<Option<String>> {
    frame
        .column(name)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|v| v.map(str::to_owned))
        .collect()
}

/// The words of a WordCounts as (word without `</w>`, count), in order.
fn table(words: &WordCounts) -> Vec<(String, u64)> {
    (0..words.len())
        .map(|i| {
            let symbols = words.word_strings(i);
            let word = symbols[..symbols.len() - 1].concat();
            (word, words.count(i))
        })
        .collect()
}

// ---- JSON ----------------------------------------------------------------------------------

#[test]
fn json_keeps_category_and_name_and_reads_descriptions() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "corpus.json",
        br#"[{"category": "Food", "name": "Injera", "description": "A meal  begins.", "extra": 1},
            {"category": "Music", "name": null, "description": "Drums at night."}]"#,
    );
    let frame = read_corpus(&path).unwrap();
    assert_eq!(names(&frame), ["category", "name", "description"]);
    assert_eq!(strings(&frame, "name"), [Some("Injera".to_owned()), None]);
    assert_eq!(
        descriptions(&frame).unwrap(),
        ["A meal  begins.", "Drums at night."]
    );
}

#[test]
fn json_text_field_can_be_chosen_and_becomes_description() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "c.json", br#"[{"text": "one"}, {"text": "two"}]"#);
    let frame = CorpusReader::new().text_column("text").read(&path).unwrap();
    assert_eq!(names(&frame), ["description"]);
    assert_eq!(descriptions(&frame).unwrap(), ["one", "two"]);

    // Without choosing it, the default field is missing, and the error says where.
    let err = read_corpus(&path).unwrap_err().to_string();
    assert!(err.contains("c.json"), "{err}");
    assert!(err.contains("item 0 has no \"description\" field"), "{err}");
}

#[test]
fn malformed_json_is_reported_with_line_and_column() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "bad.json",
        b"[\n  {\"description\": \"fine\"},\n  {\"description\": \"unterminated}\n",
    );
    match read_corpus(&path).unwrap_err() {
        DatasetError::Malformed {
            file, line, column, ..
        } => {
            assert!(file.ends_with("bad.json"));
            assert_eq!(line, Some(4));
            assert!(column.is_some());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn json_fields_of_the_wrong_type_are_named() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "t.json",
        br#"[{"description": "a"}, {"description": null}]"#,
    );
    let err = read_corpus(&path).unwrap_err();
    assert!(matches!(err, DatasetError::Shape { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("item 1: \"description\" is null, expected a string"),
        "{err}"
    );
}

// ---- JSON Lines ----------------------------------------------------------------------------

#[test]
fn json_lines_skip_blank_lines() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "c.jsonl",
        "{\"name\": \"A\", \"description\": \"first\"}\n\n{\"description\": \"sécond\"}\r\n"
            .as_bytes(),
    );
    let frame = read_corpus(&path).unwrap();
    assert_eq!(names(&frame), ["name", "description"]);
    assert_eq!(descriptions(&frame).unwrap(), ["first", "sécond"]);
    assert_eq!(strings(&frame, "name"), [Some("A".to_owned()), None]);
}

#[test]
fn json_lines_errors_name_the_line() {
    let dir = TempDir::new().unwrap();
    let bad = write(
        &dir,
        "bad.ndjson",
        b"{\"description\": \"a\"}\n{\"description\": }\n",
    );
    match read_corpus(&bad).unwrap_err() {
        DatasetError::Malformed { line, column, .. } => {
            assert_eq!((line, column), (Some(2), Some(17)));
        }
        other => panic!("{other:?}"),
    }
    let missing = write(
        &dir,
        "m.jsonl",
        b"{\"description\": \"a\"}\n\n{\"text\": \"b\"}\n",
    );
    let err = read_corpus(&missing).unwrap_err().to_string();
    assert!(err.contains("line 3 has no \"description\" field"), "{err}");
}

// ---- CSV -----------------------------------------------------------------------------------

#[test]
fn csv_reads_quoted_text_and_keeps_known_columns() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "c.csv",
        "id,category,description\n1,Food,\"Rice, beans and \"\"stew\"\"\"\n2,Music,\n3,Art,Ümlaut\n"
            .as_bytes(),
    );
    let frame = read_corpus(&path).unwrap();
    assert_eq!(names(&frame), ["category", "description"]);
    assert_eq!(
        descriptions(&frame).unwrap(),
        ["Rice, beans and \"stew\"", "", "Ümlaut"],
        "an empty field is an empty paragraph, not a missing one"
    );
}

#[test]
fn csv_text_that_looks_like_numbers_stays_text() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "n.csv", b"code\n007\n1.50\n");
    let frame = CorpusReader::new().text_column("code").read(&path).unwrap();
    assert_eq!(descriptions(&frame).unwrap(), ["007", "1.50"]);
}

#[test]
fn csv_without_the_text_column_lists_the_columns_it_has() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "c.csv", b"title,body\na,b\n");
    match read_corpus(&path).unwrap_err() {
        DatasetError::MissingColumn {
            file,
            column,
            found,
        } => {
            assert!(file.ends_with("c.csv"));
            assert_eq!(column, "description");
            assert_eq!(found, ["title", "body"]);
        }
        other => panic!("{other:?}"),
    }
}

// ---- Parquet -------------------------------------------------------------------------------

#[test]
fn parquet_round_trips_the_dataset_shape() {
    let dir = TempDir::new().unwrap();
    let original = frame(vec![
        column("category", ["Food", "Music"]),
        column("name", [Some("Injera"), None]),
        column("description", ["A meal begins.", "Drums at night."]),
        column("likes", [3i64, 4]),
    ]);
    let path = write_parquet(&dir, "c.parquet", original.clone());
    let read = read_corpus(&path).unwrap();
    assert_eq!(read, original.drop("likes").unwrap());
}

#[test]
fn parquet_text_column_must_be_text_without_missing_values() {
    let dir = TempDir::new().unwrap();
    let numbers = write_parquet(
        &dir,
        "n.parquet",
        frame(vec![column("description", [1i64, 2])]),
    );
    match read_corpus(&numbers).unwrap_err() {
        DatasetError::WrongType { column, found, .. } => {
            assert_eq!(column, "description");
            assert_eq!(found, DataType::Int64.to_string());
        }
        other => panic!("{other:?}"),
    }

    let gaps = write_parquet(
        &dir,
        "g.parquet",
        frame(vec![column("text", [Some("a"), None, None])]),
    );
    let err = CorpusReader::new()
        .text_column("text")
        .read(&gaps)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("column \"text\" has 2 missing values (the first in row 2)"),
        "{err}"
    );
}

// ---- Text ----------------------------------------------------------------------------------

#[test]
fn text_has_one_paragraph_per_non_empty_line() {
    let dir = TempDir::new().unwrap();
    let content = "\u{feff}first line\r\n\nsecond  line\n  \nlast";
    let path = write(&dir, "c.txt", content.as_bytes());
    let frame = read_corpus(&path).unwrap();
    assert_eq!(names(&frame), ["description"]);
    let paragraphs = descriptions(&frame).unwrap();
    assert_eq!(paragraphs, ["first line", "second  line", "  ", "last"]);
    // The same paragraphs `bpe-lab train` and WordCounts::from_lines see (BOM aside).
    let plain = content.trim_start_matches('\u{feff}');
    assert_eq!(
        table(&WordCounts::from_paragraphs(&paragraphs)),
        table(&WordCounts::from_lines(plain))
    );
}

#[test]
fn text_that_is_not_utf8_is_reported_with_its_line() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "c.txt", b"fine\nab\xffcd\n");
    match read_corpus(&path).unwrap_err() {
        DatasetError::InvalidUtf8(bad) => {
            assert_eq!((bad.line, bad.offset, bad.bytes), (2, 7, vec![0xFF]));
            assert!(bad.input.ends_with("c.txt'"), "{}", bad.input);
        }
        other => panic!("{other:?}"),
    }
}

// ---- Formats and files ---------------------------------------------------------------------

#[test]
fn the_format_can_be_named_when_the_extension_says_nothing() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "dump.log", b"{\"description\": \"x\"}\n");
    assert!(matches!(
        read_corpus(&path).unwrap_err(),
        DatasetError::UnknownFormat { .. }
    ));
    let frame = CorpusReader::new()
        .format(Format::JsonLines)
        .read(&path)
        .unwrap();
    assert_eq!(descriptions(&frame).unwrap(), ["x"]);
}

#[test]
fn a_missing_file_is_named() {
    for name in [
        "absent.json",
        "absent.jsonl",
        "absent.csv",
        "absent.parquet",
        "absent.txt",
    ] {
        let err = read_corpus(Path::new("/nonexistent").join(name)).unwrap_err();
        assert!(matches!(err, DatasetError::Io { .. }), "{name}: {err:?}");
        assert_eq!(
            err.to_string(),
            format!("cannot read '/nonexistent/{name}': no such file or directory")
        );
    }
}

#[test]
fn every_format_gives_the_same_paragraphs() {
    let dir = TempDir::new().unwrap();
    let paragraphs = ["the desert air", "deserted  streets", "über alles"];
    let json = serde_json::to_vec(
        &paragraphs
            .iter()
            .map(|p| serde_json::json!({ "description": p }))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let jsonl: String = paragraphs
        .iter()
        .map(|p| format!("{}\n", serde_json::json!({ "description": p })))
        .collect();
    let csv: String = std::iter::once("description".to_owned())
        .chain(paragraphs.iter().map(|p| format!("\"{p}\"")))
        .map(|l| l + "\n")
        .collect();
    let files = [
        write(&dir, "c.json", &json),
        write(&dir, "c.jsonl", jsonl.as_bytes()),
        write(&dir, "c.csv", csv.as_bytes()),
        write(&dir, "c.txt", paragraphs.join("\n").as_bytes()),
        write_parquet(
            &dir,
            "c.parquet",
            frame(vec![column("description", paragraphs)]),
        ),
    ];
    let expected = learn_bpe(&paragraphs, 20);
    for file in files {
        let loaded = descriptions(&read_corpus(&file).unwrap()).unwrap();
        assert_eq!(loaded, paragraphs, "{}", file.display());
        assert_eq!(learn_bpe(&loaded, 20), expected);
    }
}

// ---- (word, count) tables ------------------------------------------------------------------

#[test]
fn word_counts_from_csv_feed_the_trainer() {
    let dir = TempDir::new().unwrap();
    let path = write(
        &dir,
        "w.csv",
        b"word,count\nlow,5\nlower,2\nnewest,6\nlow,1\nzero,0\n",
    );
    let words = read_word_counts(&path, "word", "count").unwrap();
    assert_eq!(
        table(&words),
        [
            ("low".to_owned(), 6),
            ("lower".to_owned(), 2),
            ("newest".to_owned(), 6)
        ]
    );
    let direct = WordCounts::from_word_counts([("low", 6u64), ("lower", 2), ("newest", 6)]);
    assert_eq!(table(&words), table(&direct));
}

#[test]
fn word_counts_from_parquet_with_any_integer_type() {
    let dir = TempDir::new().unwrap();
    let path = write_parquet(
        &dir,
        "w.parquet",
        frame(vec![
            column("token", ["über", "007"]),
            column("freq", [3u32, 9]),
        ]),
    );
    let words = read_word_counts(&path, "token", "freq").unwrap();
    assert_eq!(
        table(&words),
        [("über".to_owned(), 3), ("007".to_owned(), 9)]
    );
}

#[test]
fn word_count_tables_are_checked() {
    let dir = TempDir::new().unwrap();
    let negative = write(&dir, "n.csv", b"word,count\na,1\nb,-2\n");
    let err = read_word_counts(&negative, "word", "count")
        .unwrap_err()
        .to_string();
    assert!(err.contains("row 2: column \"count\" is -2"), "{err}");

    let fractional = write(&dir, "f.csv", b"word,count\na,1.5\n");
    match read_word_counts(&fractional, "word", "count").unwrap_err() {
        DatasetError::WrongType { column, .. } => assert_eq!(column, "count"),
        other => panic!("{other:?}"),
    }

    let missing = write(&dir, "m.csv", b"word,n\na,1\n");
    match read_word_counts(&missing, "word", "count").unwrap_err() {
        DatasetError::MissingColumn { column, found, .. } => {
            assert_eq!(column, "count");
            assert_eq!(found, ["word", "n"]);
        }
        other => panic!("{other:?}"),
    }

    let gaps = write_parquet(
        &dir,
        "g.parquet",
        frame(vec![
            column("word", ["a", "b"]),
            column("count", [Some(1i64), None]),
        ]),
    );
    let err = read_word_counts(&gaps, "word", "count")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("column \"count\" has 1 missing value (the first in row 2)"),
        "{err}"
    );

    let text = write(&dir, "w.txt", b"a 1\n");
    assert!(read_word_counts(&text, "word", "count").is_err());
}

// ---- The dataset's shape, summaries and helpers --------------------------------------------

#[test]
fn the_stand_in_loads_from_the_embedded_copy() {
    let data = AfricaGalore::new()
        .offline(true)
        .cache_dir("/nonexistent/bpe-lab-test")
        .load()
        .unwrap();
    assert!(data.is_stand_in());
    assert_eq!(names(&data.frame), ["category", "name", "description"]);
    // The embedded copy is the file in data/, byte for byte.
    let on_disk =
        read_corpus(Path::new(env!("BPE_LAB_REPO")).join("data/africa_galore_stand_in.json"))
            .unwrap();
    assert_eq!(data.frame, on_disk);
    assert_eq!(data.paragraphs().len(), 40);
}

#[test]
fn the_summary_counts_like_the_lab() {
    let paragraphs = ["the cat  sat", "über the end", " "];
    let summary = Summary::of_paragraphs(&paragraphs);
    // Python: sum(len(p.split(" ")) for p in ps), len(set(...)), sum(len(p) for p in ps)
    let words: Vec<&str> = paragraphs.iter().flat_map(|p| p.split(' ')).collect();
    let unique: std::collections::BTreeSet<&str> = words.iter().copied().collect();
    assert_eq!(summary.paragraphs, 3);
    assert_eq!(summary.words, words.len() as u64);
    assert_eq!(summary.words, 9);
    assert_eq!(summary.unique_words, unique.len() as u64);
    assert_eq!(summary.characters, 12 + 12 + 1);

    let corpus = frame(vec![column("description", paragraphs)]);
    let table = summarize(&corpus).unwrap();
    assert_eq!(
        names(&table),
        ["paragraphs", "words", "unique_words", "characters"]
    );
    let words_column = table.column("words").unwrap().u64().unwrap().get(0);
    assert_eq!(words_column, Some(9));
}

#[test]
fn descriptions_need_a_text_column() {
    let no_column = frame(vec![column("text", ["a"])]);
    assert!(matches!(
        descriptions(&no_column).unwrap_err(),
        DatasetError::MissingColumn { .. }
    ));
    let numbers = frame(vec![column("description", [1i64])]);
    assert!(matches!(
        descriptions(&numbers).unwrap_err(),
        DatasetError::WrongType { .. }
    ));
}
