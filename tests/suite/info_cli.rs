//! `bpe-lab info` (kind, vocabulary, special tokens, pattern, whether text is dropped; id ↔ token
//! lookups shown without loss), a byte-level tokenizer trained with `--allow-uncovered`,
//! `--version` and `completions` (issue 47: finding 5, finding 9 and the missing features).

use crate::support;

use std::fs;
use std::process::Command;

use bpe_lab::bpe::bytelevel::CL100K_PATTERN;
use serde_json::Value;
use support::cli::{assert_success, bpe_lab, bpe_lab_with_stdin, stdout};

fn json_of(args: &[&str]) -> Value {
    let out = bpe_lab(args);
    assert_success(&out);
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[cfg(feature = "openai")]
#[test]
fn info_describes_openai_encodings() {
    let out = bpe_lab(&["info", "--encoding", "cl100k_base"]);
    assert_success(&out);
    let text = stdout(&out);
    for needle in [
        "kind: byte-level",
        "vocabulary: 100277 ids (100256 tokens, 5 special)",
        "100257\t'<|endoftext|>'",
        "100276\t'<|endofprompt|>'",
        &format!("pattern: gpt4: {CL100K_PATTERN}"),
        "every character is encoded",
    ] {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
    let harmony = json_of(&["info", "-m", "gpt-oss-20b", "--json"]);
    assert_eq!(harmony["name"], "o200k_harmony");
    assert_eq!(harmony["kind"], "byte-level");
    assert_eq!(harmony["vocab_size"], 201088);
    assert_eq!(harmony["special_tokens"].as_array().unwrap().len(), 1091);
    assert_eq!(harmony["pattern"]["name"], "o200k");
    assert_eq!(harmony["drops_unmatched_text"], "never");
}

/// 🫠's pieces print as their bytes (`\xF0\x9F`), never as `�`, and read back through --token.
#[cfg(feature = "openai")]
#[test]
fn lookups_show_tokens_without_loss() {
    let theirs = tiktoken_rs::cl100k_base().unwrap();
    let ids = theirs.encode_ordinary("🫠");
    assert!(ids.len() > 1, "🫠 is several tokens in cl100k_base");
    let mut args = vec!["info".to_owned(), "--encoding".into(), "cl100k_base".into()];
    for id in &ids {
        args.extend(["--id".into(), id.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = bpe_lab(&args);
    assert_success(&out);
    let text = stdout(&out);
    assert!(!text.contains('\u{FFFD}'), "{text}");
    let mut shown = Vec::new();
    for (line, &id) in text.lines().zip(&ids) {
        let bytes = theirs.decode_bytes(&[id]).unwrap();
        assert!(
            std::str::from_utf8(&bytes).is_err(),
            "a piece of a character"
        );
        let escaped: String = bytes.iter().map(|b| format!("\\x{b:02X}")).collect();
        assert_eq!(line, format!("{id}\t'{escaped}'"));
        shown.push(escaped);
    }
    // The shown forms are what --token takes.
    let mut args = vec!["info", "--encoding", "cl100k_base", "--json"];
    for s in &shown {
        args.extend(["--token", s.as_str()]);
    }
    args.extend(["--token", " hello", "--token", "<|endoftext|>"]);
    let found = json_of(&args);
    let found: Vec<u64> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_u64().unwrap())
        .collect();
    let mut want: Vec<u64> = ids.iter().map(|&i| u64::from(i)).collect();
    want.push(u64::from(theirs.encode_ordinary(" hello")[0]));
    want.push(100257);
    assert_eq!(found, want);
}

#[test]
fn info_on_trained_files_and_a_pattern_that_drops_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    fs::write(
        dir.path().join("corpus.txt"),
        "hello   world\nthe slow   flower\n",
    )
    .unwrap();
    // A lab tokenizer.
    assert_success(&bpe_lab(&[
        "train",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "5",
        "--output",
        &format!("{d}/lab.json"),
    ]));
    let file: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("lab.json")).unwrap()).unwrap();
    let lab = json_of(&["info", "-t", &format!("{d}/lab.json"), "--json"]);
    assert_eq!(lab["kind"], "character-level");
    assert_eq!(lab["vocab_size"], file["vocab"].as_array().unwrap().len());
    assert_eq!(lab["special_tokens"][1]["token"], "<UNK>");

    // `\S+` leaves the spaces uncovered: refused, then allowed, recorded and dropped.
    let train = |extra: &[&str]| {
        let input = format!("{d}/corpus.txt");
        let output = format!("{d}/drops.json");
        let mut args: Vec<&str> = vec![
            "train",
            "--byte-level",
            "--regex",
            r"\S+",
            "--input",
            &input,
            "--merges",
            "5",
            "--output",
            &output,
        ];
        args.extend_from_slice(extra);
        bpe_lab(&args)
    };
    assert_eq!(train(&[]).status.code(), Some(1));
    assert!(!dir.path().join("drops.json").exists());
    assert_success(&train(&["--allow-uncovered"]));
    let file: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("drops.json")).unwrap()).unwrap();
    assert_eq!(file["drops_unmatched_text"], true);
    let info = bpe_lab(&["info", "-t", &format!("{d}/drops.json")]);
    assert_success(&info);
    assert!(stdout(&info).contains("drops text not matched by its pattern"));
    // As tiktoken does (tiktoken.Encoding(pat_str=r"\S+") encodes "hello   world" to the ids
    // of "helloworld"), the unmatched spaces do not come back.
    let ids = bpe_lab_with_stdin(
        &["encode", "-t", &format!("{d}/drops.json"), "--ids"],
        b"hello   world",
    );
    assert_success(&ids);
    let text = bpe_lab_with_stdin(
        &["decode", "-t", &format!("{d}/drops.json")],
        stdout(&ids).as_bytes(),
    );
    assert_success(&text);
    assert_eq!(stdout(&text), "helloworld");

    // A built-in pattern covers every text: no field, nothing dropped.
    assert_success(&bpe_lab(&[
        "train",
        "--byte-level",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "5",
        "--output",
        &format!("{d}/covers.json"),
    ]));
    let text = fs::read_to_string(dir.path().join("covers.json")).unwrap();
    assert!(!text.contains("drops_unmatched_text"));
    let info = json_of(&["info", "-t", &format!("{d}/covers.json"), "--json"]);
    assert_eq!(info["drops_unmatched_text"], "never");
}

#[test]
fn version_names_the_commit_and_features() {
    let out = bpe_lab(&["--version"]);
    assert_success(&out);
    let version = stdout(&out);
    let commit = Command::new("git")
        .args([
            "-C",
            env!("BPE_LAB_REPO"),
            "rev-parse",
            "--short=12",
            "HEAD",
        ])
        .output()
        .unwrap();
    let commit = String::from_utf8(commit.stdout).unwrap();
    assert!(
        version.starts_with(&format!("bpe-lab {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    assert!(version.contains(commit.trim()), "{version} names {commit}");
    #[cfg(feature = "openai")]
    assert!(version.contains("openai"), "{version}");
}

#[test]
fn completions_cover_every_command() {
    for (shell, mark) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef bpe-lab"),
        ("fish", "complete -c bpe-lab"),
    ] {
        let out = bpe_lab(&["completions", shell]);
        assert_success(&out);
        let script = stdout(&out);
        assert!(script.contains(mark), "{shell}: {mark}");
        for word in [
            "info",
            "count-tokens",
            "completions",
            // Flags as each shell writes them (fish: `-l encoding`).
            "encoding",
            "allow-uncovered",
        ] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
}
