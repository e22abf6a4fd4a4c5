//! The `bpe-lab` binary, run as a user would: results compared with the literal oracle in
//! `bpe_lab::bpe::oracle`, failures checked for exit status, message and what is left on
//! disk.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use bpe_lab::TieBreak;
use bpe_lab::bpe::oracle::train_bpe_naive;
use bpe_lab::{bpe_initialize, get_pair_frequencies, merge_pair_in_word};
use serde_json::Value;
use support::cli::{assert_failure, assert_success, bpe_lab, entries, path_str, stderr};
use tempfile::TempDir;

/// Blank lines, CRLF, a double space (an empty word), non-ASCII, repeated words: the cases
/// where reading lines could go wrong. Lexicographic and first-seen learn different merges on
/// it (checked in `the_corpus_tells_the_tie_breaks_apart`).
const CORPUS: &str = "zebra  zoo über über the\r\n\nthe cat sat on the mat\n  \nthe end ünd\r\n\n";

/// A temp dir holding `corpus.txt` with `content`.
fn corpus_dir(content: &[u8]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("corpus.txt"), content).unwrap();
    dir
}

/// Runs `train -i input -m merges -o output`.
fn train_paths(input: &Path, merges: usize, output: &Path) -> Output {
    let merges = merges.to_string();
    bpe_lab(&[
        "train",
        "-i",
        path_str(input),
        "-m",
        &merges,
        "-o",
        path_str(output),
    ])
}

/// Runs `train` on `dir/corpus.txt` into `dir/out.json` with `extra` arguments.
fn train(dir: &TempDir, merges: usize, extra: &[&str]) -> Output {
    let input = dir.path().join("corpus.txt");
    let output = dir.path().join("out.json");
    let merges = merges.to_string();
    let mut args = vec![
        "train",
        "--input",
        path_str(&input),
        "--merges",
        &merges,
        "--output",
        path_str(&output),
    ];
    args.extend_from_slice(extra);
    bpe_lab(&args)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).expect("the output is valid JSON")
}

/// The `"merges"` array as pairs, checking each entry is a 2-element array of strings.
fn merges_of(json: &Value) -> Vec<(String, String)> {
    json["merges"]
        .as_array()
        .expect("\"merges\" is an array")
        .iter()
        .map(|pair| {
            let pair = pair.as_array().expect("each merge is an array");
            assert_eq!(pair.len(), 2, "each merge is [left, right]: {pair:?}");
            let s = |v: &Value| v.as_str().expect("merge symbols are strings").to_owned();
            (s(&pair[0]), s(&pair[1]))
        })
        .collect()
}

fn counts_of(json: &Value) -> Vec<u64> {
    json["merge_counts"]
        .as_array()
        .expect("\"merge_counts\" is an array")
        .iter()
        .map(|c| c.as_u64().expect("counts are non-negative integers"))
        .collect()
}

/// The oracle's merges for `text` read one paragraph per line (blank lines skipped, a trailing
/// `\r` dropped), with the count each pair had when chosen, recounted from scratch.
fn oracle(text: &str, num_merges: usize, policy: TieBreak) -> (Vec<(String, String)>, Vec<u64>) {
    let paragraphs: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect();
    let (corpus, _) = bpe_initialize(&paragraphs);
    let merges = train_bpe_naive(&mut corpus.clone(), num_merges, policy);
    let mut corpus = corpus;
    let mut counts = Vec::new();
    for pair in &merges {
        counts.push(get_pair_frequencies(&corpus)[pair] as u64);
        for word in &mut corpus {
            *word = merge_pair_in_word(word, pair);
        }
    }
    (merges, counts)
}

/// A larger corpus from a fixed pseudo-random sequence: a small alphabet so pairs repeat and
/// counts tie often, some multi-byte characters, words of varying length.
fn generated_corpus() -> String {
    let alphabet: Vec<char> = "abcaab éß".chars().collect();
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::new();
    for _ in 0..40 {
        let len = 5 + next() % 60;
        for _ in 0..len {
            text.push(alphabet[(next() % alphabet.len() as u64) as usize]);
        }
        text.push('\n');
    }
    text
}

#[test]
fn the_corpus_tells_the_tie_breaks_apart() {
    let lexicographic = oracle(CORPUS, 30, TieBreak::Lexicographic).0;
    let first_seen = oracle(CORPUS, 30, TieBreak::FirstSeen).0;
    assert_ne!(lexicographic, first_seen);
}

fn check_against_oracle(text: &str, merges: usize, tie_break: &str, policy: TieBreak) {
    let dir = corpus_dir(text.as_bytes());
    let run = train(&dir, merges, &["--tie-break", tie_break]);
    assert_success(&run);
    let json = read_json(&dir.path().join("out.json"));
    let (expected, expected_counts) = oracle(text, merges, policy);
    assert_eq!(
        expected.len(),
        merges,
        "the corpus has room for {merges} merges"
    );
    assert_eq!(merges_of(&json), expected);
    assert_eq!(counts_of(&json), expected_counts);
    // The tokenizer file (version 2) replaced the merges-only file (version 1); the top-level
    // "merges" array and the training fields kept their names and meaning.
    assert_eq!(json["format"], "bpe-lab-tokenizer");
    assert_eq!(json["version"], 2);
    assert_eq!(json["tie_break"], tie_break);
    assert_eq!(json["merges_requested"], merges);
    assert_eq!(json["min_frequency"], 1);
    assert_eq!(json["stop_reason"], "merges_done");
}

#[test]
fn lexicographic_training_equals_the_oracle() {
    check_against_oracle(CORPUS, 25, "lexicographic", TieBreak::Lexicographic);
    check_against_oracle(
        &generated_corpus(),
        200,
        "lexicographic",
        TieBreak::Lexicographic,
    );
}

#[test]
fn first_seen_training_equals_the_oracle() {
    check_against_oracle(CORPUS, 25, "first-seen", TieBreak::FirstSeen);
    check_against_oracle(&generated_corpus(), 200, "first-seen", TieBreak::FirstSeen);
}

#[test]
fn the_default_tie_break_is_lexicographic() {
    let dir = corpus_dir(CORPUS.as_bytes());
    assert_success(&train(&dir, 25, &[]));
    let json = read_json(&dir.path().join("out.json"));
    assert_eq!(
        merges_of(&json),
        oracle(CORPUS, 25, TieBreak::Lexicographic).0
    );
    assert_eq!(json["tie_break"], "lexicographic");
}

#[test]
fn asking_for_more_merges_than_pairs_stops_when_none_is_left() {
    let dir = corpus_dir(CORPUS.as_bytes());
    assert_success(&train(&dir, 10_000, &["--tie-break", "first-seen"]));
    let json = read_json(&dir.path().join("out.json"));
    let expected = oracle(CORPUS, 10_000, TieBreak::FirstSeen).0;
    assert!(expected.len() < 10_000);
    assert_eq!(merges_of(&json), expected);
    assert_eq!(json["stop_reason"], "no_pairs");
    assert_eq!(json["merges_requested"], 10_000);
}

#[test]
fn min_frequency_stops_early() {
    let text = generated_corpus();
    let k = 20;
    let (all, counts) = oracle(&text, 200, TieBreak::Lexicographic);
    let keep = counts.iter().take_while(|&&c| c >= k).count();
    assert!(keep > 0 && keep < all.len(), "k = {k} should cut the list");

    let dir = corpus_dir(text.as_bytes());
    assert_success(&train(&dir, 200, &["--min-frequency", &k.to_string()]));
    let json = read_json(&dir.path().join("out.json"));
    assert_eq!(merges_of(&json), all[..keep]);
    assert_eq!(counts_of(&json), counts[..keep]);
    assert_eq!(json["stop_reason"], "below_min_frequency");
    assert_eq!(json["min_frequency"], k);
}

#[test]
fn zero_merges_writes_an_empty_list() {
    let dir = corpus_dir(CORPUS.as_bytes());
    assert_success(&train(&dir, 0, &[]));
    let json = read_json(&dir.path().join("out.json"));
    assert!(merges_of(&json).is_empty());
    assert!(counts_of(&json).is_empty());
}

#[test]
fn success_leaves_only_the_output_and_replaces_an_old_one() {
    let dir = corpus_dir(CORPUS.as_bytes());
    fs::write(dir.path().join("out.json"), "old contents").unwrap();
    assert_success(&train(&dir, 5, &[]));
    assert_eq!(entries(dir.path()), ["corpus.txt", "out.json"]);
    assert_eq!(merges_of(&read_json(&dir.path().join("out.json"))).len(), 5);
}

#[test]
fn streams_stay_clean_when_not_a_terminal() {
    let dir = corpus_dir(generated_corpus().as_bytes());
    let run = train(&dir, 150, &[]);
    assert_success(&run);
    assert!(run.stdout.is_empty(), "stdout: {:?}", run.stdout);
    let err = stderr(&run);
    assert!(
        !err.contains('\x1b') && !err.contains('\r'),
        "no terminal control characters: {err:?}"
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one summary line: {err:?}");
    assert!(
        lines[0].contains("150"),
        "summary gives the merges learned: {err}"
    );
}

#[test]
fn a_missing_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("no-such-corpus.txt");
    let output = dir.path().join("out.json");
    let run = train_paths(&input, 5, &output);
    assert_failure(&run, 1, &[path_str(&input), "no such file"]);
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn a_directory_as_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("folder");
    fs::create_dir(&input).unwrap();
    let output = dir.path().join("out.json");
    let run = train_paths(&input, 5, &output);
    assert_failure(&run, 1, &[path_str(&input), "directory"]);
    assert_eq!(entries(dir.path()), ["folder"]);
}

/// A path that cannot be opened for any user, root included: it goes through a regular file.
#[test]
fn an_unreadable_input_is_refused() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let input = dir.path().join("corpus.txt").join("inner.txt");
    let output = dir.path().join("out.json");
    let run = train_paths(&input, 5, &output);
    assert_failure(&run, 1, &[path_str(&input), "not a directory"]);
    assert_eq!(entries(dir.path()), ["corpus.txt"]);
}

#[test]
fn invalid_utf8_gives_offset_and_line() {
    // "ab\xFFcd" starts at byte 12 of the file: the bad byte is at offset 14, line 2.
    let dir = corpus_dir(b"hello world\nab\xFFcd\nmore text\n");
    let run = train(&dir, 5, &[]);
    assert_failure(&run, 1, &["corpus.txt", "UTF-8", "offset 14", "line 2"]);
    assert_eq!(entries(dir.path()), ["corpus.txt"]);
}

#[test]
fn an_empty_corpus_is_refused() {
    for content in [&b""[..], b"\n\n\r\n\n"] {
        let dir = corpus_dir(content);
        let run = train(&dir, 5, &[]);
        assert_failure(&run, 1, &["corpus.txt", "no words"]);
        assert_eq!(entries(dir.path()), ["corpus.txt"]);
    }
}

#[test]
fn bad_arguments_exit_with_2() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let run = train(&dir, 5, &["--tie-break", "alphabetical"]);
    assert_failure(&run, 2, &["alphabetical", "lexicographic", "first-seen"]);
    let run = train(&dir, 5, &["--min-frequency", "0"]);
    assert_failure(&run, 2, &["--min-frequency"]);
    let run = bpe_lab(&["train", "--input", "corpus.txt", "--output", "out.json"]);
    assert_failure(&run, 2, &["--merges"]);
    let run = bpe_lab(&["fly"]);
    assert_failure(&run, 2, &["fly"]);
    assert_eq!(entries(dir.path()), ["corpus.txt"]);
}

#[test]
fn output_into_a_missing_directory_fails_cleanly() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let input = dir.path().join("corpus.txt");
    let output = dir.path().join("missing").join("out.json");
    let run = train_paths(&input, 5, &output);
    assert_failure(&run, 1, &[path_str(&output), "does not exist"]);
    assert_eq!(entries(dir.path()), ["corpus.txt"]);
}

#[test]
fn a_directory_as_output_is_left_alone() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let input = dir.path().join("corpus.txt");
    let output = dir.path().join("out.json");
    fs::create_dir(&output).unwrap();
    let run = train_paths(&input, 5, &output);
    assert_failure(&run, 1, &[path_str(&output), "directory"]);
    assert!(output.is_dir() && entries(&output).is_empty());
    assert_eq!(entries(dir.path()), ["corpus.txt", "out.json"]);
}

#[test]
fn an_existing_output_survives_a_failed_run() {
    let before = "{\"merges\": [[\"keep\", \"me\"]]}\n";
    for (content, merges) in [
        (&b"ok\xC3(\n"[..], "5"), // invalid UTF-8
        (b"\n\n", "5"),           // no words
    ] {
        let dir = corpus_dir(content);
        let output = dir.path().join("out.json");
        fs::write(&output, before).unwrap();
        let input = dir.path().join("corpus.txt");
        let run = bpe_lab(&[
            "train",
            "-i",
            path_str(&input),
            "-m",
            merges,
            "-o",
            path_str(&output),
        ]);
        assert_failure(&run, 1, &["corpus.txt"]);
        assert_eq!(fs::read_to_string(&output).unwrap(), before);
        assert_eq!(entries(dir.path()), ["corpus.txt", "out.json"]);
    }
}

#[test]
fn the_corpus_is_never_overwritten_with_its_merges() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let input = dir.path().join("corpus.txt");
    let run = train_paths(&input, 5, &input);
    assert_failure(&run, 2, &["corpus.txt"]);
    assert_eq!(fs::read_to_string(&input).unwrap(), CORPUS);
    assert_eq!(entries(dir.path()), ["corpus.txt"]);
}

#[test]
fn help_explains_merges_and_defaults() {
    let run = bpe_lab(&["train", "--help"]);
    assert!(run.status.success());
    let help = String::from_utf8(run.stdout).unwrap();
    for needle in [
        "A merge is",
        "--tie-break",
        "first-seen",
        "[default: lexicographic]",
        "--min-frequency",
        "[default: 1]",
    ] {
        assert!(help.contains(needle), "expected {needle:?} in:\n{help}");
    }
    let run = bpe_lab(&["--help"]);
    assert!(run.status.success());
    assert!(String::from_utf8(run.stdout).unwrap().contains("train"));
}

/// The bundled stand-in, read as the lab reads Africa Galore: each object's `description` is a
/// paragraph. The expected merges come from the oracle on paragraphs parsed here independently.
#[test]
fn a_json_corpus_trains_on_its_description_field() {
    let data = Path::new(env!("BPE_LAB_REPO")).join("data/africa_galore_stand_in.json");
    let items = read_json(&data);
    let paragraphs: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["description"].as_str().unwrap())
        .collect();
    let (mut corpus, _) = bpe_initialize(&paragraphs);
    let expected = train_bpe_naive(&mut corpus, 120, TieBreak::Lexicographic);

    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.json");
    let run = train_paths(&data, 120, &output);
    assert_success(&run);
    assert_eq!(merges_of(&read_json(&output)), expected);
}

#[test]
fn a_json_corpus_without_the_field_is_refused_naming_the_item() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("corpus.json");
    fs::write(
        &input,
        r#"[{"description": "a b"}, {"name": "no text here"}]"#,
    )
    .unwrap();
    let output = dir.path().join("out.json");
    let run = train_paths(&input, 3, &output);
    assert_failure(&run, 1, &[path_str(&input), "item 1", "\"description\""]);
    assert_eq!(entries(dir.path()), ["corpus.json"]);

    // The same file trains when told which field to read... which no object has: still refused.
    let run = bpe_lab(&[
        "train",
        "--input",
        path_str(&input),
        "--field",
        "name",
        "--merges",
        "3",
        "--output",
        path_str(&output),
    ]);
    assert_failure(&run, 1, &["item 0", "\"name\""]);
}

/// The file `train` writes is a whole tokenizer: the vocabulary in the documented order
/// (special tokens, `</w>`, the characters sorted, then each merge's token), loadable by the
/// library.
#[test]
fn train_writes_the_vocabulary_in_merge_order() {
    let dir = corpus_dir(CORPUS.as_bytes());
    assert_success(&train(&dir, 25, &[]));
    let path = dir.path().join("out.json");
    let json = read_json(&path);
    let (merges, _) = oracle(CORPUS, 25, TieBreak::Lexicographic);
    let mut expected = vec!["<PAD>".to_string(), "<UNK>".into(), "</w>".into()];
    let chars: std::collections::BTreeSet<char> = CORPUS
        .chars()
        .filter(|&c| c != ' ' && c != '\n' && c != '\r')
        .collect();
    expected.extend(chars.iter().map(|c| c.to_string()));
    for (a, b) in &merges {
        let token = format!("{a}{b}");
        if !expected.contains(&token) {
            expected.push(token);
        }
    }
    let vocab: Vec<String> = serde_json::from_value(json["vocab"].clone()).unwrap();
    assert_eq!(vocab, expected);
    assert_eq!(json["vocab_order"], "merge-order");
    assert_eq!(
        json["special_tokens"],
        serde_json::json!(["<PAD>", "<UNK>"])
    );
    let tokenizer = bpe_lab::CharLevelTokenizer::load(&path).unwrap();
    assert_eq!(tokenizer.merges(), merges);
}

#[test]
fn train_takes_the_vocabulary_options() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let run = train(
        &dir,
        10,
        &[
            "--vocab-order",
            "sorted",
            "--special-tokens",
            "[PAD],[UNK],[BOS]",
            "--unk-token",
            "[UNK]",
        ],
    );
    assert_success(&run);
    let json = read_json(&dir.path().join("out.json"));
    let vocab: Vec<String> = serde_json::from_value(json["vocab"].clone()).unwrap();
    assert_eq!(&vocab[..3], ["[PAD]", "[UNK]", "[BOS]"]);
    let mut rest = vocab[3..].to_vec();
    rest.sort();
    assert_eq!(rest, vocab[3..], "sorted after the special tokens");
    assert_eq!(json["vocab_order"], "sorted");
    assert_eq!(json["unk_token"], "[UNK]");

    for (extra, needle) in [
        (&["--unk-token", "<X>"][..], "<X>"),
        (&["--special-tokens", "<UNK>,<UNK>"][..], "twice"),
        (&["--special-tokens", "<PAD>,</w>,<UNK>"][..], "</w>"),
        (&["--vocab-order", "random"][..], "random"),
    ] {
        let run = train(&dir, 5, extra);
        assert_failure(&run, 2, &[needle]);
    }
    assert_eq!(entries(dir.path()), ["corpus.txt", "out.json"]);
}

#[test]
fn train_json_prints_a_summary_on_stdout() {
    let dir = corpus_dir(CORPUS.as_bytes());
    let run = train(&dir, 10_000, &["--json"]);
    assert_success(&run);
    let summary: Value = serde_json::from_slice(&run.stdout).unwrap();
    let json = read_json(&dir.path().join("out.json"));
    assert_eq!(
        summary["merges_learned"],
        json["merges"].as_array().unwrap().len()
    );
    assert_eq!(summary["merges_requested"], 10_000);
    assert_eq!(summary["stop_reason"], "no_pairs");
    assert_eq!(
        summary["vocab_size"],
        json["vocab"].as_array().unwrap().len()
    );
    assert!(summary["distinct_words"].as_u64().unwrap() > 5);
}

/// Without `--input`, `train` learns from Africa Galore; offline, that is the bundled stand-in,
/// and it says so. The merges are the oracle's on the stand-in's descriptions.
#[cfg(feature = "dataset")]
#[test]
fn without_input_train_uses_the_dataset_and_says_which_source() {
    let data = Path::new(env!("BPE_LAB_REPO")).join("data/africa_galore_stand_in.json");
    let items = read_json(&data);
    let paragraphs: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["description"].as_str().unwrap())
        .collect();
    let (mut corpus, _) = bpe_initialize(&paragraphs);
    let expected = train_bpe_naive(&mut corpus, 60, TieBreak::Lexicographic);

    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.json");
    let run = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(["train", "--merges", "60", "--output", path_str(&output)])
        .env("BPE_LAB_OFFLINE", "1")
        .env("BPE_LAB_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    assert_success(&run);
    assert!(stderr(&run).contains("stand-in"), "{}", stderr(&run));
    assert_eq!(merges_of(&read_json(&output)), expected);
}

/// The allocator's settings (src/allocator.rs) are in place when mimalloc starts, before
/// `main`: its verbose start-up report, which lists every option's value, shows them.
#[cfg(all(feature = "fast-alloc", target_os = "linux"))]
#[test]
fn the_allocator_starts_with_huge_pages_and_prompt_purging() {
    let run = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .output()
        .unwrap();
    assert_success(&run);
    let report = stderr(&run);
    for setting in [
        "option 'allow_large_os_pages': 1",
        "option 'purge_delay': 0",
        "option 'allow_thp': 1",
    ] {
        assert!(report.contains(setting), "{setting:?} not in:\n{report}");
    }
}

/// The stand-in's paragraphs, as serde_json reads the fixture (not through bpe-lab's readers).
fn stand_in_paragraphs() -> Vec<String> {
    let json: Value =
        serde_json::from_str(include_str!("../../data/africa_galore_stand_in.json")).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .map(|item| item["description"].as_str().unwrap().to_owned())
        .collect()
}

/// `train --json`'s summary on stdout and the tokenizer file it wrote.
fn train_summary(input: &Path, output: &Path) -> (Value, Value) {
    let run = bpe_lab(&[
        "train",
        "-i",
        path_str(input),
        "-m",
        "200",
        "-o",
        path_str(output),
        "--json",
    ]);
    assert_success(&run);
    let summary: Value = serde_json::from_slice(&run.stdout).expect("--json prints JSON");
    (summary, read_json(output))
}

/// Issue 25: a JSON Lines corpus trains on its paragraphs (1824 distinct words on the
/// stand-in), not on the raw JSON text of its lines (1910).
#[test]
fn json_lines_train_on_the_same_paragraphs_as_text() {
    let paragraphs = stand_in_paragraphs();
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("corpus.txt");
    fs::write(&text, paragraphs.join("\n")).unwrap();
    let jsonl = dir.path().join("corpus.jsonl");
    let lines: Vec<String> = paragraphs
        .iter()
        .map(|p| serde_json::json!({"category": "x", "description": p}).to_string())
        .collect();
    fs::write(&jsonl, lines.join("\n")).unwrap();

    let (from_text, text_file) = train_summary(&text, &dir.path().join("text.json"));
    let (from_jsonl, jsonl_file) = train_summary(&jsonl, &dir.path().join("jsonl.json"));
    assert_eq!(from_text["distinct_words"], 1824);
    assert_eq!(from_text["total_words"], 3778);
    assert_eq!(from_jsonl["distinct_words"], 1824);
    assert_eq!(from_jsonl["total_words"], 3778);
    assert_eq!(merges_of(&jsonl_file), merges_of(&text_file));
    assert_eq!(jsonl_file["vocab"], text_file["vocab"]);
}

/// A byte-order mark some editors write is not text: `train`, `explain` and `count` all see
/// "hello" as the first word.
#[test]
fn a_byte_order_mark_is_not_part_of_the_first_word() {
    let dir = corpus_dir("\u{feff}hello world\r\nhello\n".as_bytes());
    let input = dir.path().join("corpus.txt");
    let (summary, tokenizer) = train_summary(&input, &dir.path().join("out.json"));
    assert_eq!(summary["distinct_words"], 2);
    let vocab = tokenizer["vocab"].as_array().unwrap();
    assert!(!vocab.iter().any(|t| t == "\u{feff}"), "{vocab:?}");
    // Trained until no pair is left: each distinct word became one token.
    assert!(vocab.iter().any(|t| t == "hello</w>"), "{vocab:?}");

    let run = bpe_lab(&["explain", "-i", path_str(&input), "-m", "1", "--json"]);
    assert_success(&run);
    let explained: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(
        explained["initial"][0],
        serde_json::json!(["h", "e", "l", "l", "o", "</w>"])
    );

    #[cfg(feature = "columnar")]
    {
        let table = dir.path().join("counts.csv");
        let run = bpe_lab(&["count", path_str(&input), "-o", path_str(&table)]);
        assert_success(&run);
        let csv = fs::read_to_string(&table).unwrap();
        assert_eq!(csv.lines().nth(1), Some("hello,2"), "{csv}");
    }
}
