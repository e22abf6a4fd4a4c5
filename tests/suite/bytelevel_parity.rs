//! The byte-level tokenizer against tiktoken and Hugging Face tokenizers:
//! - OpenAI's encodings (`openai` feature), ids against tiktoken-rs in this process on
//!   thousands of texts, and against Python tiktoken on a held-out corpus;
//! - what we train, exported as a `.tiktoken` file + pattern and as a `tokenizer.json`, loaded
//!   by Python tiktoken and tokenizers: identical ids on held-out text.
//!
//! Python runs as `BPE_LAB_HF_PYTHON` (the venv of `scripts/test`, which installs
//! `scripts/python-requirements.txt`). Set but unable to import tiktoken or tokenizers: the
//! tests fail. Unset: the Python comparisons say they are skipped and pass.

use crate::support;
use bpe_lab::tokenizer::{ByteLevelConfig, TrainingSettings};

use std::path::Path;

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::SplitPattern;
use bpe_lab::tokenizer::bytelevel::{AllowedSpecial, ByteLevelTokenizer};
use serde_json::{Value, json};
use support::{Rng, parity_python, python_json, python_reference_text};

/// Runs the Python side on `jobs` and returns its answers, one per job.
fn run_python(python: &Path, jobs: &[Value]) -> Vec<Value> {
    let answer = python_json(python, "bytelevel_encode.py", &json!(jobs));
    answer["jobs"].as_array().unwrap().clone()
}

fn ids_of(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

/// Generated lines in many scripts and shapes: Yorùbá and Vietnamese with combining marks,
/// Ethiopic, N'Ko, CJK, emoji, digits, contractions, whitespace runs, special tokens.
fn generated_lines(seed: u64, count: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        "Ẹ kú àárọ̀",
        " Yorùbá",
        " Tiếng Việt",
        " người",
        " ሰላም ልጆች",
        " ߒߞߏ ߞߊ߲",
        " 日本語",
        " 中文字",
        " 😀👍🏽",
        " 🇳🇬",
        " the",
        " The",
        " don't",
        " I'LL",
        " it's",
        " 12345",
        " 3.14159",
        "  ",
        "   ",
        "\t",
        "\n",
        "\n\n",
        "\r\n",
        " \n ",
        "!!!",
        " ...",
        " (x)",
        "/",
        "<|endoftext|>",
        " é",
        "e\u{301}",
        " x",
        "Hello",
        "world",
        " \u{A0}",
        "\u{3000}",
        " -",
    ];
    let mut rng = Rng(seed);
    (0..count).map(|_| rng.text(PIECES, 14)).collect()
}

/// Held-out real text: the second half of Python's language reference, by line.
fn held_out_lines(max: usize) -> Vec<String> {
    let text = python_reference_text();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len() / 2..]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .take(max)
        .map(|l| l.to_string())
        .collect()
}

/// Training text: the first half of the reference and the Africa Galore stand-in.
fn training_text() -> String {
    let text = python_reference_text();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines[..lines.len() / 2].join("\n");
    let path = concat!(env!("BPE_LAB_REPO"), "/data/africa_galore_stand_in.json");
    let items: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for item in items.as_array().unwrap() {
        out.push('\n');
        out.push_str(item["description"].as_str().unwrap_or_default());
    }
    out
}

/// Compares our ids (and decoded text) with a tiktoken job's answers.
fn check_tiktoken(
    name: &str,
    ours: &ByteLevelTokenizer,
    texts: &[String],
    theirs: &Value,
) -> usize {
    let mut ids_compared = 0;
    for (i, text) in texts.iter().enumerate() {
        let ids = ours.encode(text, &AllowedSpecial::All).unwrap();
        assert_eq!(
            ids,
            ids_of(&theirs["encode"][i]),
            "{name}: encode differs on {text:?}"
        );
        assert_eq!(
            ids,
            ids_of(&theirs["batch"][i]),
            "{name}: encode_batch differs on {text:?}"
        );
        let ordinary = ours.encode_ordinary(text).unwrap();
        assert_eq!(
            ordinary,
            ids_of(&theirs["ordinary"][i]),
            "{name}: encode_ordinary differs on {text:?}"
        );
        assert_eq!(
            ours.decode(&ids).unwrap(),
            theirs["decode"][i].as_str().unwrap()
        );
        assert_eq!(ours.decode(&ids).unwrap(), *text, "{name}: round trip");
        ids_compared += ids.len() + ordinary.len();
    }
    ids_compared
}

fn tiktoken_job(dir: &Path, tokenizer: &ByteLevelTokenizer, texts: &[String]) -> Value {
    let rank_file = dir.join(format!("{}.tiktoken", tokenizer.name()));
    let sidecar_path = tokenizer.export_tiktoken(&rank_file).unwrap();
    let sidecar: Value =
        serde_json::from_str(&std::fs::read_to_string(sidecar_path).unwrap()).unwrap();
    json!({
        "kind": "tiktoken", "rank_file": rank_file, "name": sidecar["name"],
        "pat_str": sidecar["pat_str"], "special_tokens": sidecar["special_tokens"], "texts": texts,
    })
}

fn test_texts() -> Vec<String> {
    let mut texts = held_out_lines(1000);
    texts.extend(generated_lines(26, 1000));
    texts.extend([
        "".into(),
        " ".into(),
        "a".into(),
        "<|endoftext|><|endoftext|>".into(),
        // Runs of digits and of punctuation longer than a counted repetition takes.
        "In 2024: 1234567 units!!!!!! ...... ?? 12 3 ١٢٣٤٥".into(),
    ]);
    texts
}

/// Trained tokenizers (four patterns, two tie-breaks) exported to tiktoken's files and to
/// Hugging Face's `tokenizer.json`: Python encodes held-out text to our ids.
#[test]
fn trained_exports_encode_identically_in_python() {
    let Some(python) = parity_python("tiktoken, tokenizers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let text = training_text();
    let texts = test_texts();
    let mut tokenizers = Vec::new();
    let mut jobs = Vec::new();
    for (i, (pattern, tie)) in [
        (SplitPattern::Gpt2, TieBreak::FirstSeen),
        (SplitPattern::Cl100k, TieBreak::FirstSeen),
        (SplitPattern::Cl100k, TieBreak::Lexicographic),
        (SplitPattern::O200k, TieBreak::Lexicographic),
        // A user's pattern with possessive counted repetitions, which Oniguruma reads
        // otherwise unless the export writes them as atomic groups.
        (
            SplitPattern::from_regex(r"\p{L}+|\p{N}{1,2}+|[^\p{L}\p{N}\s]{1,3}+|\s+(?!\S)|\s+"),
            TieBreak::FirstSeen,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let trained = ByteLevelTokenizer::train_with(
            &text,
            TrainingSettings::new(1500).tie_break(tie),
            &ByteLevelConfig::new(pattern).special_tokens(["<|endoftext|>"]),
        )
        .unwrap();
        // Through our own file, so the file is what is compared.
        let path = dir.path().join(format!("t{i}.json"));
        trained.save(&path).unwrap();
        let loaded = ByteLevelTokenizer::load(&path).unwrap();
        let renamed = ByteLevelTokenizer::new(
            format!("trained{i}"),
            loaded
                .tokens()
                .iter()
                .map(|&(b, r)| (b.to_vec(), r))
                .collect(),
            loaded.pattern().clone(),
            loaded.specials().clone(),
        )
        .unwrap();
        jobs.push(tiktoken_job(dir.path(), &renamed, &texts));
        let hf_path = dir.path().join(format!("t{i}.tokenizer.json"));
        renamed.export_hf(&hf_path).unwrap();
        jobs.push(json!({"kind": "hf", "tokenizer": hf_path, "texts": texts}));
        tokenizers.push(renamed);
    }
    let answers = run_python(&python, &jobs);
    let mut compared = 0;
    for (k, tokenizer) in tokenizers.iter().enumerate() {
        compared += check_tiktoken(tokenizer.name(), tokenizer, &texts, &answers[2 * k]);
        let hf = &answers[2 * k + 1];
        for (i, text) in texts.iter().enumerate() {
            let ids = tokenizer.encode(text, &AllowedSpecial::All).unwrap();
            assert_eq!(
                ids,
                ids_of(&hf["encode"][i]),
                "{} HF: encode differs on {text:?}",
                tokenizer.name()
            );
            assert_eq!(
                ids,
                ids_of(&hf["batch"][i]),
                "{} HF: batch differs on {text:?}",
                tokenizer.name()
            );
            assert_eq!(
                tokenizer.decode(&ids).unwrap(),
                hf["decode"][i].as_str().unwrap()
            );
            compared += ids.len();
        }
    }
    eprintln!(
        "compared {} texts × {} tokenizers × (tiktoken, HF): {compared} ids",
        texts.len(),
        tokenizers.len()
    );
}

#[cfg(feature = "openai")]
mod openai {
    use super::*;
    use bpe_lab::tokenizer::OpenAiEncoding;

    fn tiktoken_rs(encoding: OpenAiEncoding) -> tiktoken_rs::CoreBPE {
        match encoding {
            OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase => tiktoken_rs::r50k_base(),
            OpenAiEncoding::P50kBase => tiktoken_rs::p50k_base(),
            OpenAiEncoding::P50kEdit => tiktoken_rs::p50k_edit(),
            OpenAiEncoding::Cl100kBase => tiktoken_rs::cl100k_base(),
            OpenAiEncoding::O200kBase => tiktoken_rs::o200k_base(),
            OpenAiEncoding::O200kHarmony => tiktoken_rs::o200k_harmony(),
        }
        .unwrap()
    }

    /// The production encodings give tiktoken-rs's ids on thousands of texts (in process).
    #[test]
    fn production_encodings_equal_tiktoken_rs() {
        let mut texts = held_out_lines(2000);
        texts.extend(generated_lines(7, 2000));
        let mut compared = 0;
        for encoding in OpenAiEncoding::ALL {
            let ours = encoding.tokenizer().unwrap();
            let theirs = tiktoken_rs(encoding);
            for text in &texts {
                let ids = ours.encode(text, &AllowedSpecial::All).unwrap();
                assert_eq!(
                    ids,
                    theirs.encode_with_special_tokens(text),
                    "{encoding}: {text:?}"
                );
                let ordinary = ours.encode_ordinary(text).unwrap();
                assert_eq!(
                    ordinary,
                    theirs.encode_ordinary(text),
                    "{encoding}: {text:?}"
                );
                compared += ids.len() + ordinary.len();
            }
        }
        eprintln!(
            "compared {} texts × 3 encodings: {compared} ids",
            texts.len()
        );
    }

    /// The production encodings give Python tiktoken's ids on held-out text, the rank files
    /// written from the crate's ranks to a local path for Python to load.
    #[test]
    fn production_encodings_equal_python_tiktoken() {
        let Some(python) = parity_python("tiktoken, tokenizers") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let texts = test_texts();
        let tokenizers: Vec<ByteLevelTokenizer> = OpenAiEncoding::ALL
            .into_iter()
            .map(|e| e.tokenizer().unwrap())
            .collect();
        let jobs: Vec<Value> = tokenizers
            .iter()
            .map(|t| tiktoken_job(dir.path(), t, &texts))
            .collect();
        let answers = run_python(&python, &jobs);
        let mut compared = 0;
        for (tokenizer, theirs) in tokenizers.iter().zip(&answers) {
            compared += check_tiktoken(tokenizer.name(), tokenizer, &texts, theirs);
        }
        eprintln!(
            "compared {} texts × 3 encodings with Python tiktoken: {compared} ids",
            texts.len()
        );
    }

    /// Disallowed specials are an error, as in tiktoken's `encode`; allowed ones are one id;
    /// as text they are ordinary tokens.
    #[test]
    fn special_tokens_follow_tiktoken() {
        use bpe_lab::tokenizer::bytelevel::{ByteLevelError, DisallowedSpecial};
        let cl100k = OpenAiEncoding::Cl100kBase.tokenizer().unwrap();
        let text = "hi<|endoftext|>";
        assert_eq!(
            cl100k.encode(text, &AllowedSpecial::None),
            Err(ByteLevelError::DisallowedSpecial {
                token: "<|endoftext|>".into(),
                offset: 2
            })
        );
        assert_eq!(
            cl100k.encode(text, &AllowedSpecial::All).unwrap(),
            [6151, 100257]
        );
        let as_text = cl100k
            .encode_with(text, &AllowedSpecial::None, DisallowedSpecial::AsText)
            .unwrap();
        assert_eq!(
            as_text,
            tiktoken_rs::cl100k_base().unwrap().encode_ordinary(text)
        );
        assert!(as_text.len() > 2);
    }

    /// cl100k_base and o200k_base exported to Hugging Face: every special token has tiktoken's
    /// id (tiktoken-rs here, Python tiktoken on our rank file) in `tokenizers`, and HF decodes
    /// it to its text (issue 47: `<|endofprompt|>` was 100256 and 199998, the FIM pair swapped).
    #[test]
    fn production_specials_have_tiktokens_ids_in_hugging_face() {
        let Some(python) = parity_python("tiktoken, tokenizers") else {
            return;
        };
        for encoding in [OpenAiEncoding::Cl100kBase, OpenAiEncoding::O200kBase] {
            let tokenizer = encoding.tokenizer().unwrap();
            let reference = tiktoken_rs(encoding);
            for text in special_texts(&tokenizer) {
                let theirs: Vec<u32> = reference.encode_with_special_tokens(&text);
                let ours = tokenizer.encode(&text, &AllowedSpecial::All).unwrap();
                assert_eq!(ours, theirs, "{encoding}: {text:?}");
            }
            let compared = check_specials_in_python(&python, &tokenizer);
            assert_eq!(compared, 3 * tokenizer.specials().len());
        }
        // The ids the issue reported wrong, as tiktoken has them.
        let cl100k = OpenAiEncoding::Cl100kBase.tokenizer().unwrap();
        assert_eq!(
            cl100k
                .encode("a<|endofprompt|>b", &AllowedSpecial::All)
                .unwrap(),
            [64, 100276, 65]
        );
    }
}

/// The texts that show a tokenizer's special tokens: each alone, each between two letters,
/// and all of them in a row.
fn special_texts(tokenizer: &ByteLevelTokenizer) -> Vec<String> {
    let specials: Vec<&String> = tokenizer.specials().keys().collect();
    let mut texts: Vec<String> = specials.iter().map(|s| s.to_string()).collect();
    texts.extend(specials.iter().map(|s| format!("a{s}b")));
    texts.push(specials.iter().map(|s| s.as_str()).collect());
    texts
}

/// Runs `tokenizer`'s tiktoken and HF exports on `texts` in Python and checks that both give
/// our ids, and that HF's `decode` (specials kept) gives each text back; returns how many
/// special ids were compared.
fn check_specials_in_python(python: &Path, tokenizer: &ByteLevelTokenizer) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let texts = special_texts(tokenizer);
    let hf_path = dir.path().join("tokenizer.json");
    tokenizer.export_hf(&hf_path).unwrap();
    let jobs = [
        tiktoken_job(dir.path(), tokenizer, &texts),
        json!({"kind": "hf", "tokenizer": hf_path, "texts": texts}),
    ];
    let answers = run_python(python, &jobs);
    check_tiktoken(tokenizer.name(), tokenizer, &texts, &answers[0]);
    let special_ids: Vec<u32> = tokenizer.specials().values().copied().collect();
    let mut compared = 0;
    for (i, text) in texts.iter().enumerate() {
        let ids = tokenizer.encode(text, &AllowedSpecial::All).unwrap();
        assert_eq!(
            ids_of(&answers[1]["encode"][i]),
            ids,
            "{}: HF's ids differ on {text:?}",
            tokenizer.name()
        );
        assert_eq!(
            answers[1]["decode"][i].as_str().unwrap(),
            text,
            "{}: HF's decode differs on {text:?}",
            tokenizer.name()
        );
        compared += ids.iter().filter(|id| special_ids.contains(id)).count();
    }
    compared
}

/// A trained tokenizer whose specials are not in alphabetical order (ids follow the order
/// given): the HF export keeps every special's id, as tiktoken does.
#[test]
fn trained_specials_keep_their_ids_in_hugging_face() {
    let Some(python) = parity_python("tiktoken, tokenizers") else {
        return;
    };
    let specials = ["<|z_end|>", "<|a_start|>", "<|m_pad|>"];
    let tokenizer = ByteLevelTokenizer::train_with(
        &training_text()[..20_000],
        TrainingSettings::new(50).tie_break(TieBreak::FirstSeen),
        &ByteLevelConfig::new(SplitPattern::Cl100k).special_tokens(specials.iter().copied()),
    )
    .unwrap();
    assert_eq!(tokenizer.specials()["<|z_end|>"], 306);
    assert_eq!(tokenizer.specials()["<|a_start|>"], 307);
    let compared = check_specials_in_python(&python, &tokenizer);
    assert_eq!(compared, 3 * 3);
}
