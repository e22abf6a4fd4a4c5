//! The tokenizer file: saving and loading keep everything; every kind of damage is refused
//! with a message naming the file and the problem.

use std::fs;
use std::path::Path;

use bpe_lab::tokenizer::{
    CharLevelTokenizer, FileProblem, Split, TokenizerConfig, TrainingSettings, VocabOrder,
};
use bpe_lab::{StopReason, TieBreak};
use serde_json::{Value, json};

fn paragraphs() -> Vec<String> {
    [
        "the lowest tower  stood",
        "a slow flower, a low wall",
        "é日 tabs\tinside words",
    ]
    .map(String::from)
    .to_vec()
}

fn tokenizers() -> Vec<CharLevelTokenizer> {
    let mut all = vec![
        CharLevelTokenizer::train(&paragraphs(), 30),
        CharLevelTokenizer::train_with(
            &paragraphs(),
            TrainingSettings::new(500)
                .tie_break(TieBreak::FirstSeen)
                .min_frequency(2),
            TokenizerConfig::default()
                .order(VocabOrder::Sorted)
                .split(Split::Whitespace)
                .special_tokens(["<UNK>", "<BOS>", "\"quoted\"", "back\\slash"]),
        )
        .unwrap(),
    ];
    let merges = vec![("a".to_string(), "b".to_string())];
    all.push(CharLevelTokenizer::new("abc".chars(), merges, TokenizerConfig::default()).unwrap());
    all
}

fn save(dir: &Path, tokenizer: &CharLevelTokenizer) -> std::path::PathBuf {
    let path = dir.join("tokenizer.json");
    tokenizer.save(&path).unwrap();
    path
}

#[test]
fn saving_and_loading_keeps_everything() {
    let dir = tempfile::tempdir().unwrap();
    for tokenizer in tokenizers() {
        let path = save(dir.path(), &tokenizer);
        let loaded = CharLevelTokenizer::load(&path).unwrap();
        assert_eq!(loaded.merges(), tokenizer.merges());
        assert_eq!(loaded.vocab(), tokenizer.vocab());
        assert_eq!(loaded.config(), tokenizer.config());
        assert_eq!(loaded.alphabet(), tokenizer.alphabet());
        assert_eq!(loaded.training(), tokenizer.training());
        let text = "the lowest zebra  é\tab abc";
        assert_eq!(loaded.encode(text), tokenizer.clone().encode(text));
        // Saving the loaded tokenizer writes the same bytes.
        assert_eq!(loaded.to_json(), fs::read_to_string(&path).unwrap());
    }
}

/// What scripts rely on: a top-level "merges" array of [left, right] pairs, and the vocabulary
/// in id order, specials first.
#[test]
fn the_file_keeps_a_top_level_merges_array() {
    let tokenizer = CharLevelTokenizer::train(&paragraphs(), 30);
    let json: Value = serde_json::from_str(&tokenizer.to_json()).unwrap();
    let merges: Vec<(String, String)> = serde_json::from_value(json["merges"].clone()).unwrap();
    assert_eq!(merges, tokenizer.merges());
    assert_eq!(json["format"], "bpe-lab-tokenizer");
    assert_eq!(json["version"], 2);
    assert_eq!(json["vocab"][0], "<PAD>");
    assert_eq!(json["vocab"][1], "<UNK>");
    assert_eq!(json["vocab"][2], "</w>");
    assert_eq!(json["vocab_order"], "merge-order");
    assert_eq!(json["split"], "space");
    assert_eq!(json["tie_break"], "lexicographic");
    assert_eq!(json["stop_reason"], "merges_done");
    assert_eq!(json["merge_counts"].as_array().unwrap().len(), 30);
    assert_eq!(
        tokenizer.training().unwrap().stop_reason,
        StopReason::MergesDone
    );
}

/// Version 1 (`"format": "bpe-lab-merges"`, a merges-only file from before 0.1.0) is not read:
/// the error names the file and the format it found and expected.
#[test]
fn a_version_1_merges_file_is_refused_naming_its_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("merges.json");
    fs::write(
        &path,
        r#"{
  "format": "bpe-lab-merges",
  "version": 1,
  "merges": [["l", "o"], ["lo", "w"]],
  "merge_counts": [5, 5]
}
"#,
    )
    .unwrap();
    let err = CharLevelTokenizer::load(&path).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("merges.json"), "{message}");
    assert!(message.contains("\"bpe-lab-merges\""), "{message}");
    assert!(message.contains("\"bpe-lab-tokenizer\""), "{message}");
    assert!(
        matches!(err.problem, FileProblem::NotATokenizer(_)),
        "{err:?}"
    );
}

/// Writes `content` as `tokenizer.json` and returns the error message of loading it, checking
/// it names the file.
fn load_error(content: &str) -> (String, FileProblem) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokenizer.json");
    fs::write(&path, content).unwrap();
    let err = CharLevelTokenizer::load(&path).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()),
        "names the file: {message}"
    );
    (message, err.problem)
}

/// A valid file as JSON, to damage one field at a time.
fn valid() -> Value {
    serde_json::from_str(&CharLevelTokenizer::train(&paragraphs(), 20).to_json()).unwrap()
}

fn with(field: &str, value: Value) -> String {
    let mut json = valid();
    json[field] = value;
    json.to_string()
}

#[test]
fn a_file_from_a_newer_version_is_refused() {
    let (message, problem) = load_error(&with("version", json!(3)));
    assert!(matches!(problem, FileProblem::FutureVersion { found: 3 }));
    assert!(message.contains("newer bpe-lab"), "{message}");
}

#[test]
fn a_truncated_file_is_refused() {
    let text = CharLevelTokenizer::train(&paragraphs(), 20).to_json();
    for cut in [text.len() / 3, text.len() - 3] {
        let (message, problem) = load_error(&text[..cut]);
        assert!(
            matches!(problem, FileProblem::Truncated { .. }),
            "{message}"
        );
        assert!(message.contains("truncated"), "{message}");
    }
    let (message, _) = load_error("");
    assert!(message.contains("empty"), "{message}");
}

#[test]
fn duplicate_and_dangling_merges_are_refused() {
    let mut json = valid();
    let first = json["merges"][0].clone();
    json["merges"].as_array_mut().unwrap().push(first);
    json["merge_counts"].as_array_mut().unwrap().push(json!(1));
    let (message, problem) = load_error(&json.to_string());
    assert!(matches!(problem, FileProblem::Invalid(_)));
    assert!(
        message.contains("merge 20") && message.contains("repeats merge 0"),
        "{message}"
    );

    let mut json = valid();
    json["merges"][3] = json!(["q", "x"]);
    let (message, _) = load_error(&json.to_string());
    assert!(
        message.contains("merge 3") && message.contains("can never apply"),
        "{message}"
    );
}

#[test]
fn a_vocabulary_that_does_not_fit_is_refused() {
    // Two ids swapped.
    let mut json = valid();
    let vocab = json["vocab"].as_array_mut().unwrap();
    vocab.swap(5, 6);
    let (message, _) = load_error(&json.to_string());
    assert!(message.contains("id 5"), "{message}");

    // A token listed twice.
    let mut json = valid();
    let vocab = json["vocab"].as_array_mut().unwrap();
    let again = vocab[4].clone();
    vocab.push(again);
    let (message, _) = load_error(&json.to_string());
    assert!(message.contains("listed twice"), "{message}");

    // A merge's token missing.
    let mut json = valid();
    json["vocab"].as_array_mut().unwrap().pop();
    let (message, _) = load_error(&json.to_string());
    assert!(message.contains("missing"), "{message}");

    // Special tokens not first.
    let (message, _) = load_error(&with("special_tokens", json!(["<UNK>", "<PAD>"])));
    assert!(message.contains("special tokens come first"), "{message}");
}

#[test]
fn wrong_shapes_name_the_field() {
    let cases = [
        (
            with("merges", json!([["a", "b"], ["c"]])),
            "field \"merges\": item 1",
        ),
        (with("merges", json!("ab")), "field \"merges\": is a string"),
        (
            with("vocab_order", json!("random")),
            "field \"vocab_order\"",
        ),
        (with("split", json!("tabs")), "field \"split\""),
        (with("end_of_word", json!("</s>")), "field \"end_of_word\""),
        (
            with("merge_counts", json!([1, 2])),
            "field \"merge_counts\": has 2 counts for 20 merges",
        ),
        (
            with("format", json!("other")),
            "not a bpe-lab tokenizer file",
        ),
        (r#"{"model": {"type": "BPE"}}"#.to_owned(), "Hugging Face"),
        ("[1, 2]".to_owned(), "expected a JSON object"),
        (
            "{\"format\": \"bpe-lab-tokenizer\",, }".to_owned(),
            "not valid JSON at line 1",
        ),
    ];
    for (content, needle) in cases {
        let (message, _) = load_error(&content);
        assert!(message.contains(needle), "expected {needle:?} in {message}");
    }
    let mut json = valid();
    json.as_object_mut().unwrap().remove("vocab");
    let (message, _) = load_error(&json.to_string());
    assert!(message.contains("field \"vocab\": missing"), "{message}");
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.json");
    let err = CharLevelTokenizer::load(&path).unwrap_err();
    assert!(matches!(err.problem, FileProblem::Io(_)));
    assert!(err.to_string().contains("nope.json"));
}

#[test]
fn saving_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let tokenizer = CharLevelTokenizer::train(&paragraphs(), 5);
    // Into a missing directory: an error, nothing written.
    let err = tokenizer
        .save(dir.path().join("missing").join("t.json"))
        .unwrap_err();
    assert!(matches!(err.problem, FileProblem::Io(_)));
    // Over an existing file: replaced whole, no temporary file left.
    let path = dir.path().join("t.json");
    fs::write(&path, "old").unwrap();
    tokenizer.save(&path).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), tokenizer.to_json());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}
