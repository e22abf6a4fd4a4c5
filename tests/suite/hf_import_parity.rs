//! Hugging Face `tokenizer.json` files as the `tokenizers` library's own trainers write them, and
//! GPT-2's own (built by `tokenizers` from the `encoder.json` and `vocab.bpe` OpenAI released,
//! as tiktoken-rs ships them) —
//! `ByteLevelBPETokenizer`, GPT-2-shaped (ByteLevel with its regex, `ignore_merges` false and
//! true), Llama-3-shaped (Split on its regex, then ByteLevel) — read by bpe-lab with exactly
//! `tokenizers`' ids on generated and hostile text (emoji, combining marks, Ethiopic, N'Ko, long
//! space runs, digits, special tokens in every position), and decoded to its text; the shapes
//! bpe-lab does not implement (RoBERTa's post-processor, a template adding a BOS token,
//! `add_prefix_space`, a normalizer) refused naming the one setting (issue 47, finding 7).
//!
//! Python runs as `BPE_LAB_HF_PYTHON` (see `support::parity_python`).

use crate::support;

use bpe_lab::tokenizer::bytelevel::{AllowedSpecial, ByteLevelTokenizer};
use serde_json::{Value, json};
use support::cli::{assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, stdout};
use support::{Rng, parity_python, python_json, python_reference_text};

const SPECIALS: [&str; 2] = ["<|endoftext|>", "<pad>"];

fn texts() -> Vec<String> {
    const PIECES: &[&str] = &[
        "Ẹ kú àárọ̀",
        " Yorùbá",
        " Tiếng Việt",
        " ሰላም ልጆች",
        " ߒߞߏ ߞߊ߲",
        " 日本語",
        " 😀👍🏽",
        "🫠",
        " 🇳🇬",
        " the",
        " don't",
        " I'LL",
        "'s",
        " 12345",
        "1234567",
        "  ",
        "     ",
        "                        ",
        "\t",
        "\n",
        "\n\n",
        "\r\n",
        " \n ",
        "!!!",
        " ...",
        "e\u{301}",
        " x",
        "Hello",
        " \u{A0}",
        "\u{3000}",
        "<|endoftext|>",
        "<pad>",
        "ab<|endoftext|>cd",
    ];
    let mut rng = Rng(4747);
    let mut texts: Vec<String> = (0..1500).map(|_| rng.text(PIECES, 14)).collect();
    texts.extend(
        [
            "",
            " ",
            "<|endoftext|>",
            "<pad><|endoftext|><pad>",
            &" ".repeat(50),
            &format!("x{}y", " ".repeat(33)),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let reference = python_reference_text();
    let lines: Vec<&str> = reference.lines().collect();
    texts.extend(
        lines[lines.len() / 2..]
            .iter()
            .take(300)
            .map(|l| l.to_string()),
    );
    texts
}

fn ids(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn trainer_written_files_read_with_tokenizers_ids() {
    let Some(python) = parity_python("tokenizers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let reference = python_reference_text();
    let lines: Vec<&str> = reference.lines().collect();
    let texts = texts();
    let answer = python_json(
        &python,
        "hf_trained_files.py",
        &json!({
            "dir": dir.path(),
            "training": lines[..lines.len() / 2],
            "specials": SPECIALS,
            "vocab_size": 1200,
            "texts": texts,
            "gpt2": {
                "vocab": support::tiktoken_rs_assets().join("encoder.json"),
                "merges": support::tiktoken_rs_assets().join("vocab.bpe"),
            },
        }),
    );
    let mut read = 0;
    let mut compared = 0;
    for shape in answer["shapes"].as_array().unwrap() {
        let name = shape["shape"].as_str().unwrap();
        let path = shape["path"].as_str().unwrap();
        let loaded = ByteLevelTokenizer::open(path);
        let refused_for = match name {
            "roberta_post_processor" => Some("post_processor RobertaProcessing"),
            "llama3_bos_template" => Some("post_processor TemplateProcessing"),
            "prefix_space" => Some("add_prefix_space=true"),
            "lowercase_normalizer" => Some("normalizer Lowercase"),
            _ => None,
        };
        if let Some(setting) = refused_for {
            let Err(err) = loaded else { panic!("refused") };
            let err = err.to_string();
            assert!(err.contains(setting), "{name}: {err}");
            continue;
        }
        let ours = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
        // The trainers number the special tokens first; GPT-2's release after its ranks.
        let first = if name == "gpt2_release" { 50256 } else { 0 };
        assert_eq!(ours.specials()["<|endoftext|>"], first, "{name}");
        read += 1;
        for (i, text) in texts.iter().enumerate() {
            let got = ours.encode(text, &AllowedSpecial::All).unwrap();
            assert_eq!(got, ids(&shape["encode"][i]), "{name}: {text:?}");
            assert_eq!(
                ours.decode(&got).unwrap(),
                shape["decode"][i].as_str().unwrap(),
                "{name}: {text:?}"
            );
            compared += got.len();
        }
    }
    assert_eq!(read, 5, "every readable shape was compared");
    assert!(compared > 50_000, "compared only {compared} ids");

    // The command line reads them too: `encode -t` gives the same ids.
    let gpt2 = dir.path().join("gpt2.json");
    let text = "Ẹ kú àárọ̀ 🫠<|endoftext|>  12345";
    let out = bpe_lab_with_stdin(
        &[
            "encode",
            "-t",
            gpt2.to_str().unwrap(),
            "--ids",
            "--allow-special",
        ],
        text.as_bytes(),
    );
    assert_success(&out);
    let ours = ByteLevelTokenizer::open(&gpt2).unwrap();
    let want: Vec<String> = ours
        .encode(text, &AllowedSpecial::All)
        .unwrap()
        .iter()
        .map(u32::to_string)
        .collect();
    assert_eq!(stdout(&out).split_whitespace().collect::<Vec<_>>(), want);
    let refused = dir.path().join("roberta_post_processor.json");
    let out = bpe_lab(&["info", "-t", refused.to_str().unwrap()]);
    assert_failure(
        &out,
        1,
        &["roberta_post_processor.json", "RobertaProcessing"],
    );
}
