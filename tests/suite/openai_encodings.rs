//! OpenAI's encodings beyond the first three (`gpt2`, `p50k_base`, `p50k_edit`,
//! `o200k_harmony`) and the model names (`-m gpt-4o`), against tiktoken itself: the patterns,
//! special tokens and vocabulary sizes its `tiktoken_ext.openai_public` constructors define,
//! the ids it gives on generated and hostile text with every special token in every position,
//! and the encoding its `encoding_name_for_model` picks for each model name (issue 47).
//!
//! The rank files tiktoken reads are written from tiktoken-rs's own encoder (not from the
//! files bpe-lab compiles in), and GPT-2's `vocab.bpe` and `encoder.json` are the ones
//! tiktoken-rs ships. Python runs as `BPE_LAB_HF_PYTHON` (see `support::parity_python`).

#![cfg(feature = "openai")]

use crate::support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use bpe_lab::tokenizer::OpenAiEncoding;
use bpe_lab::tokenizer::bytelevel::AllowedSpecial;
use bpe_lab::tokenizer::tiktoken::write_tiktoken;
use serde_json::{Value, json};
use support::cli::{assert_success, bpe_lab, bpe_lab_with_stdin, stdout};
use support::{Rng, parity_python, python_json};

/// The new encodings, each with the rank file its tiktoken constructor reads.
const NEW: [OpenAiEncoding; 4] = [
    OpenAiEncoding::Gpt2,
    OpenAiEncoding::P50kBase,
    OpenAiEncoding::P50kEdit,
    OpenAiEncoding::O200kHarmony,
];

/// Model names from tiktoken's tables and prefixes, dated versions, and names it does not know.
const MODELS: &[&str] = &[
    "gpt-4o",
    "gpt-4o-2024-05-13",
    "chatgpt-4o-latest",
    "gpt-4",
    "gpt-4-0613",
    "gpt-4-32k",
    "gpt-4.1-mini",
    "gpt-4.5-preview",
    "gpt-5",
    "gpt-5-mini",
    "o1",
    "o1-mini",
    "o3-pro",
    "o4-mini",
    "o4-mini-high",
    "gpt-3.5-turbo",
    "gpt-3.5-turbo-16k",
    "gpt-35-turbo",
    "gpt-oss-20b",
    "gpt-oss-120b",
    "text-davinci-003",
    "text-davinci-edit-001",
    "code-davinci-edit-001",
    "code-cushman-001",
    "davinci",
    "davinci-002",
    "text-embedding-3-small",
    "text-search-ada-doc-001",
    "ft:gpt-4o-mini:org::abc",
    "ft:davinci-002:org",
    "gpt2",
    "gpt-2",
    "llama-3",
    "claude",
    "",
];

/// Generated text in many scripts, with whitespace runs, digits and every special token of
/// the new encodings at any position.
fn texts() -> Vec<String> {
    const PIECES: &[&str] = &[
        "Ẹ kú àárọ̀",
        " Yorùbá",
        " ሰላም ልጆች",
        " ߒߞߏ ߞߊ߲",
        " 日本語",
        " 😀👍🏽",
        "🫠",
        " 🇳🇬",
        " don't",
        " I'LL",
        " 12345",
        "1234567",
        "  ",
        "     ",
        "                ",
        "\t",
        "\n",
        "\r\n",
        " \n ",
        "!!!",
        "e\u{301}",
        " x",
        "Hello",
        " \u{A0}",
        "<|endoftext|>",
        "<|fim_prefix|>",
        "<|fim_middle|>",
        "<|fim_suffix|>",
        "<|endofprompt|>",
        "<|startoftext|>",
        "<|channel|>",
        "<|message|>",
        "<|reserved_200018|>",
        "<|reserved_201087|>",
        "<|call|>",
    ];
    let mut rng = Rng(47);
    let mut texts: Vec<String> = (0..600).map(|_| rng.text(PIECES, 12)).collect();
    texts.extend(
        ["", " ", "<|endoftext|><|endoftext|>", &" ".repeat(70)]
            .iter()
            .map(|s| s.to_string()),
    );
    texts
}

/// The local files tiktoken's constructors read, by the last part of their URLs.
fn local_files(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut files = BTreeMap::new();
    for (file, encoding) in [
        ("r50k_base.tiktoken", OpenAiEncoding::R50kBase),
        ("p50k_base.tiktoken", OpenAiEncoding::P50kBase),
        ("o200k_base.tiktoken", OpenAiEncoding::O200kBase),
    ] {
        let path = dir.join(file);
        let ranks = encoding.ranks_from_tiktoken_rs();
        let mut out = fs::File::create(&path).unwrap();
        write_tiktoken(&mut out, ranks.iter().map(|(b, r)| (&b[..], *r))).unwrap();
        files.insert(file.to_owned(), path);
    }
    let assets = support::tiktoken_rs_assets();
    for file in ["vocab.bpe", "encoder.json"] {
        files.insert(file.to_owned(), assets.join(file));
    }
    files
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
fn new_encodings_and_model_names_equal_tiktoken() {
    let Some(python) = parity_python("tiktoken") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let texts = texts();
    let request = json!({
        "files": local_files(dir.path()),
        "encodings": NEW.map(|e| e.name()),
        "texts": texts,
        "models": MODELS,
    });
    let answer = python_json(&python, "tiktoken_openai.py", &request);
    let mut compared = 0;
    for (encoding, theirs) in NEW.iter().zip(answer["encodings"].as_array().unwrap()) {
        let name = encoding.name();
        let specials: BTreeMap<String, u32> =
            serde_json::from_value(theirs["special_tokens"].clone()).unwrap();
        assert_eq!(encoding.specials(), specials, "{name}: special tokens");
        assert_eq!(
            encoding.pattern().regex(),
            theirs["pat_str"].as_str().unwrap(),
            "{name}: pattern"
        );
        assert_eq!(
            u64::from(encoding.n_vocab()),
            theirs["n_vocab"].as_u64().unwrap(),
            "{name}: n_vocab"
        );
        let ours = encoding.tokenizer().unwrap();
        assert_eq!(ours.n_vocab(), encoding.n_vocab(), "{name}");
        for (i, text) in texts.iter().enumerate() {
            let all = ours.encode(text, &AllowedSpecial::All).unwrap();
            assert_eq!(all, ids(&theirs["encode"][i]), "{name}: {text:?}");
            let ordinary = ours.encode_ordinary(text).unwrap();
            assert_eq!(ordinary, ids(&theirs["ordinary"][i]), "{name}: {text:?}");
            compared += all.len() + ordinary.len();
        }
    }
    assert!(compared > 50_000, "compared only {compared} ids");
    for model in MODELS {
        assert_eq!(
            OpenAiEncoding::for_model(model).map(|e| e.name()),
            answer["models"][model].as_str(),
            "model {model:?}"
        );
    }
}

/// `-m MODEL` (and `--model`) wherever `--encoding` is taken gives that model's encoding.
#[test]
fn model_names_work_wherever_encodings_do() {
    let text = "Jollof in Lagos 🫠<|endoftext|>";
    let by_encoding = bpe_lab_with_stdin(
        &[
            "encode",
            "--encoding",
            "o200k_base",
            "--ids",
            "--allow-special",
        ],
        text.as_bytes(),
    );
    assert_success(&by_encoding);
    let by_model = bpe_lab_with_stdin(
        &["encode", "-m", "gpt-4o-mini", "--ids", "--allow-special"],
        text.as_bytes(),
    );
    assert_success(&by_model);
    assert_eq!(stdout(&by_model), stdout(&by_encoding));
    let o200k = OpenAiEncoding::O200kBase.tokenizer().unwrap();
    let want: Vec<String> = o200k
        .encode(text, &AllowedSpecial::All)
        .unwrap()
        .iter()
        .map(u32::to_string)
        .collect();
    assert_eq!(
        stdout(&by_model).split_whitespace().collect::<Vec<_>>(),
        want
    );

    let decoded = bpe_lab_with_stdin(
        &["decode", "--model", "gpt-4o"],
        stdout(&by_model).as_bytes(),
    );
    assert_success(&decoded);
    assert_eq!(stdout(&decoded), text);

    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.txt");
    fs::write(&corpus, "text-davinci-003 counts    spaces").unwrap();
    let counted = bpe_lab(&[
        "count-tokens",
        "-m",
        "text-davinci-003,gpt-4",
        "--json",
        corpus.to_str().unwrap(),
    ]);
    assert_success(&counted);
    let out = stdout(&counted);
    for name in ["p50k_base", "cl100k_base"] {
        assert!(out.contains(name), "{name} in {out}");
    }
    let p50k = OpenAiEncoding::P50kBase.tokenizer().unwrap();
    let n = p50k
        .encode_ordinary("text-davinci-003 counts    spaces")
        .unwrap()
        .len();
    assert!(out.contains(&format!("\"p50k_base\":{n}")), "{n} in {out}");
}
