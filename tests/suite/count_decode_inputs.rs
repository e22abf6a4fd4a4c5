//! What `count-tokens` and `decode` take in (issue 47, finding 9): directories read recursively,
//! unexpanded glob patterns, standard input named twice, repeated tokenizers as one column each;
//! JSON arrays and `encode --json`'s objects as ids, and a lossless byte-level `decode --json`.

use crate::support;

use std::fs;

use serde_json::Value;
use support::cli::{assert_success, bpe_lab, bpe_lab_with_stdin, stdout};

/// Non-ASCII, emoji, Ethiopic, N'Ko and empty lines.
const TEXT: &str = "héllo wörld 🫠🇬🇭\n\nሰላም ለዓለም\nߒߞߏ ߞߊ߲ߜߍ\n\n  spaces  and\ttabs\n";

/// `encode --json | decode` gives the text back, for both kinds of tokenizer and both units.
#[cfg(feature = "openai")]
#[test]
fn encode_json_decodes_back_for_both_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    for unit in ["text", "line"] {
        let json = bpe_lab_with_stdin(
            &["encode", "-m", "cl100k_base", "--json", "--unit", unit],
            TEXT.as_bytes(),
        );
        assert_success(&json);
        let back = bpe_lab_with_stdin(
            &["decode", "-m", "cl100k_base", "--unit", unit],
            stdout(&json).as_bytes(),
        );
        assert_success(&back);
        let expected = match unit {
            "text" => TEXT.to_owned(),
            _ => TEXT.lines().map(|l| format!("{l}\n")).collect(),
        };
        assert_eq!(stdout(&back), expected, "--unit {unit}");
    }
    // A lab tokenizer: one {"tokens", "ids"} object per line in, each line back.
    fs::write(dir.path().join("corpus.txt"), TEXT).unwrap();
    assert_success(&bpe_lab(&[
        "train",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "20",
        "--output",
        &format!("{d}/lab.json"),
    ]));
    let lab = format!("{d}/lab.json");
    let text = "héllo wörld 🫠\n\nሰላም ለዓለም\nߒߞߏ\n";
    let json = bpe_lab_with_stdin(&["encode", "-t", &lab, "--json"], text.as_bytes());
    assert_success(&json);
    let back = bpe_lab_with_stdin(&["decode", "-t", &lab], stdout(&json).as_bytes());
    assert_success(&back);
    assert_eq!(stdout(&back), text);
}

/// Python's printed lists decode; a line that is no JSON array of ids is named.
#[cfg(feature = "openai")]
#[test]
fn decode_takes_json_arrays_and_names_a_bad_line() {
    let out = bpe_lab_with_stdin(
        &["decode", "-m", "cl100k_base", "--unit", "line"],
        b"[15339, 1917]\n15339 1917\n{\"ids\": [15339]}\n",
    );
    assert_success(&out);
    assert_eq!(stdout(&out), "hello world\nhello world\nhello\n");
    let out = bpe_lab_with_stdin(&["decode", "-m", "cl100k_base"], b"[1, 2]\n[3, \"x\"]\n");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("JSON array"),
        "{err}"
    );
}

/// Ids that cut 🫠 in two: "text" has U+FFFD, "bytes" the exact bytes, which put together give
/// the character back.
#[cfg(feature = "openai")]
#[test]
fn byte_level_decode_json_is_lossless() {
    let ids = bpe_lab_with_stdin(&["encode", "-m", "cl100k_base", "--ids"], "🫠".as_bytes());
    assert_success(&ids);
    let ids: Vec<String> = stdout(&ids).split_whitespace().map(str::to_owned).collect();
    assert!(
        ids.len() > 1,
        "🫠 is several tokens in cl100k_base: {ids:?}"
    );
    let lines = ids.join("\n") + "\n";
    let out = bpe_lab_with_stdin(
        &["decode", "-m", "cl100k_base", "--unit", "line", "--json"],
        lines.as_bytes(),
    );
    assert_success(&out);
    let mut bytes = Vec::new();
    for line in stdout(&out).lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        assert!(
            record["text"].as_str().unwrap().contains('\u{FFFD}'),
            "{line}"
        );
        bytes.extend(
            (record["bytes"].as_array().unwrap().iter()).map(|b| b.as_u64().unwrap() as u8),
        );
    }
    assert_eq!(bytes, "🫠".as_bytes());
    // Whole UTF-8: the text alone.
    let out = bpe_lab_with_stdin(&["decode", "-m", "cl100k_base", "--json"], b"15339 1917");
    assert_success(&out);
    assert_eq!(stdout(&out), "{\"text\":\"hello world\"}\n");
}

/// A directory is read recursively (sorted, hidden files left out), a quoted glob expanded,
/// standard input named twice refused, and a repeated tokenizer counted once, never merged
/// with another under one key.
#[cfg(feature = "openai")]
#[test]
fn count_tokens_expands_inputs_and_keeps_tokenizers_apart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("docs/deep")).unwrap();
    fs::create_dir_all(d.join("docs/.git")).unwrap();
    fs::write(d.join("docs/b.md"), "hello world").unwrap();
    fs::write(d.join("docs/deep/a.md"), "hello").unwrap();
    fs::write(d.join("docs/.git/HEAD"), "ref: refs/heads/main").unwrap();
    fs::write(d.join("x.txt"), "hello world hello").unwrap();
    let glob = format!("{}/*.txt", d.display());
    let docs = format!("{}/docs", d.display());
    let out = bpe_lab(&[
        "count-tokens",
        "--json",
        "-m",
        "cl100k_base,gpt-4,o200k_base",
        &docs,
        &glob,
    ]);
    assert_success(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("counted once"));
    let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let files: Vec<&str> = (result["files"].as_array().unwrap().iter())
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("docs/b.md") && files[1].ends_with("docs/deep/a.md"));
    assert!(files[2].ends_with("x.txt"));
    assert_eq!(result["total"]["cl100k_base"], 6);
    assert_eq!(result["total"]["o200k_base"], 6);
    assert_eq!(result["total"].as_object().unwrap().len(), 2);

    let out = bpe_lab_with_stdin(&["count-tokens", "-", "-"], b"hello");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("named twice"), "{err}");
    let out = bpe_lab(&["count-tokens", &format!("{}/*.nothing", d.display())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no file matches"));
}

/// Two different tokenizer files shown under the same name keep two columns.
#[cfg(feature = "openai")]
#[test]
fn count_tokens_gives_each_tokenizer_its_own_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("corpus.txt"), TEXT.repeat(3)).unwrap();
    for (name, merges) in [("a.json", "3"), ("cl100k_base", "30")] {
        assert_success(&bpe_lab(&[
            "train",
            "--byte-level",
            "--input",
            &d.join("corpus.txt").display().to_string(),
            "--merges",
            merges,
            "--output",
            &d.join(name).display().to_string(),
        ]));
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .current_dir(d)
        .args([
            "count-tokens",
            "--json",
            "-m",
            "cl100k_base",
            "-t",
            "cl100k_base",
        ])
        .args(["-t", "a.json", "-t", "./a.json", "corpus.txt"])
        .output()
        .unwrap();
    assert_success(&out);
    let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let total = result["total"].as_object().unwrap();
    let mut keys: Vec<&String> = total.keys().collect();
    keys.sort();
    assert_eq!(keys, ["a.json", "cl100k_base", "cl100k_base#2"]);
    assert_ne!(total["cl100k_base"], total["cl100k_base#2"]);
}
