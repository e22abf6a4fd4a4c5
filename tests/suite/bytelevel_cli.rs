//! `bpe-lab train --byte-level`, `encode`, `decode` and `export --format tiktoken`, run as a
//! user would run them. Expected merges come from the literal byte-level loop over the chunks
//! the pattern gives; expected bytes are the input's own.

use crate::support;

use std::fs;

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::oracle::train_bytes_naive;
use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
use serde_json::Value;
use support::cli::{
    assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, path_str as p, stdout,
};

const CORPUS: &str = "Ẹ kú àárọ̀! the lowest lower low\nTiếng Việt ሰላም ߒߞߏ 👍🏽 aaaa aaaa\n\
                      the the 12345 don't<|endoftext|>more text\n";

#[test]
fn train_encode_decode_export() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    fs::write(&corpus, CORPUS).unwrap();
    let tokenizer = dir.path().join("t.json");
    let out = bpe_lab(&[
        "train",
        "--byte-level",
        "--pattern",
        "gpt4",
        "--tie-break",
        "first-seen",
        "--input",
        p(&corpus),
        "--merges",
        "30",
        "--output",
        p(&tokenizer),
    ]);
    assert_success(&out);

    // The merges: the file's tokens after the 256 bytes are the literal loop's merges, joined.
    let file: Value = serde_json::from_str(&fs::read_to_string(&tokenizer).unwrap()).unwrap();
    let splitter = Splitter::new(SplitPattern::Cl100k).unwrap();
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    for piece in CORPUS.split("<|endoftext|>") {
        chunks.extend(
            splitter
                .chunks(piece)
                .unwrap()
                .iter()
                .map(|c| c.as_bytes().to_vec()),
        );
    }
    let merges = train_bytes_naive(&chunks, 30, TieBreak::FirstSeen);
    use base64::Engine as _;
    let tokens: Vec<Vec<u8>> = file["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            base64::engine::general_purpose::STANDARD
                .decode(t.as_str().unwrap())
                .unwrap()
        })
        .collect();
    let expected: Vec<Vec<u8>> = merges
        .iter()
        .map(|(a, b)| [a.as_slice(), b].concat())
        .collect();
    assert_eq!(tokens[256..], expected[..]);
    assert_eq!(file["special_tokens"]["<|endoftext|>"], 256 + 30);

    // Encode and decode give the input's bytes back; a special token must be allowed.
    let refused = bpe_lab_with_stdin(&["encode", "-t", p(&tokenizer), "--ids"], CORPUS.as_bytes());
    assert_failure(&refused, 1, &["<|endoftext|>", "not allowed"]);
    let encoded = bpe_lab_with_stdin(
        &["encode", "-t", p(&tokenizer), "--ids", "--allow-special"],
        CORPUS.as_bytes(),
    );
    assert_success(&encoded);
    let ids = stdout(&encoded);
    assert!(ids.split_whitespace().any(|id| id == "286"), "{ids}");
    let decoded = bpe_lab_with_stdin(&["decode", "-t", p(&tokenizer)], ids.as_bytes());
    assert_success(&decoded);
    assert_eq!(decoded.stdout, CORPUS.as_bytes());

    // Export: rank file of 256 + 30 lines, and the pattern beside it.
    let ranks = dir.path().join("t.tiktoken");
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        p(&tokenizer),
        "--format",
        "tiktoken",
        "--output",
        p(&ranks),
    ]));
    assert_eq!(
        fs::read_to_string(&ranks).unwrap().lines().count(),
        256 + 30
    );
    let sidecar: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("t.tiktoken.json")).unwrap())
            .unwrap();
    assert_eq!(sidecar["pat_str"], SplitPattern::Cl100k.regex());
}

/// `train --byte-level` reads its corpus through the one corpus reader: the same paragraphs
/// as a text file (whole, byte-order mark dropped), JSON Lines and a JSON array give the same
/// tokenizer, byte for byte.
#[test]
fn byte_level_training_reads_every_corpus_format_alike() {
    let dir = tempfile::tempdir().unwrap();
    let paragraphs = [
        "Ẹ kú àárọ̀! the lowest lower low",
        "Tiếng Việt ሰላም ߒߞߏ 👍🏽 aaaa aaaa",
        "the the 12345 don't",
    ];
    let text = dir.path().join("corpus.txt");
    fs::write(&text, format!("\u{feff}{}", paragraphs.join("\n"))).unwrap();
    let jsonl = dir.path().join("corpus.jsonl");
    let lines: Vec<String> = paragraphs
        .iter()
        .map(|p| serde_json::json!({ "description": p }).to_string())
        .collect();
    fs::write(&jsonl, lines.join("\n")).unwrap();
    let json = dir.path().join("corpus.json");
    let records: Vec<Value> = paragraphs
        .iter()
        .map(|p| serde_json::json!({ "name": "x", "description": p }))
        .collect();
    fs::write(&json, serde_json::to_string(&records).unwrap()).unwrap();
    let mut trained = Vec::new();
    for input in [&text, &jsonl, &json] {
        let output = dir.path().join(format!(
            "{}.tokenizer.json",
            input.extension().unwrap().to_string_lossy()
        ));
        let out = bpe_lab(&[
            "train",
            "--byte-level",
            "--tie-break",
            "first-seen",
            "--input",
            p(input),
            "--merges",
            "40",
            "--output",
            p(&output),
        ]);
        assert_success(&out);
        trained.push(fs::read(&output).unwrap());
    }
    assert!(trained[0] == trained[1], "text and JSON Lines differ");
    assert!(trained[0] == trained[2], "text and JSON differ");
}
