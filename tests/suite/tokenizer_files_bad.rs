//! Corrupt tokenizer files and flags that would make one, as one table: each case runs the
//! command as a user would and expects an `error:` naming the file and the line (or the flag),
//! a non-zero exit, and nothing written. Before these checks, each of these files loaded and
//! counted differently (issue 47, finding 6).

use std::fs;
use std::path::Path;

use crate::support;
use support::cli::{
    assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, byte_level_rank_files, entries,
};

/// One row of the table.
struct Case {
    name: &'static str,
    /// The arguments; `{d}` is the scratch folder.
    args: &'static [&'static str],
    code: i32,
    /// Every one of these is in the message (`{d}` expanded).
    needles: &'static [&'static str],
}

const CORPUS: &str = "Morning in Lagos begins long before sunrise.\nJollof in Accra, suya in \
                      Kano.\nThe market opens at dawn in Lagos.\n";

/// Writes `text` as a rank file with the sidecar `sidecar` beside it.
fn rank_file(dir: &Path, name: &str, text: &str, sidecar: &str) {
    fs::write(dir.join(name), text).unwrap();
    fs::write(dir.join(format!("{name}.json")), sidecar).unwrap();
}

/// The scratch folder: a trained tokenizer, its exports, and broken copies of them.
fn setup(dir: &Path) {
    let d = dir.to_str().unwrap();
    fs::write(dir.join("empty.txt"), "").unwrap();
    fs::write(dir.join("blank.txt"), "\n\n  \n").unwrap();
    let (ranks, sidecar) = byte_level_rank_files(dir, CORPUS, 30);
    let lines: Vec<&str> = ranks.lines().collect();
    assert_eq!(lines.len(), 256 + 30, "the corpus gives 30 merges");
    // Cut after line 100, between lines: every line still reads.
    rank_file(
        dir,
        "cut.tiktoken",
        &(lines[..100].join("\n") + "\n"),
        &sidecar,
    );
    // Line 10 (rank 9) lost.
    let mut lost = lines.clone();
    lost.remove(9);
    rank_file(dir, "lost.tiktoken", &(lost.join("\n") + "\n"), &sidecar);
    // A sidecar of an older bpe-lab (no "n_ranks"), a file without specials cut short: the
    // declared n_vocab tells.
    let mut old: serde_json::Value = serde_json::from_str(&sidecar).unwrap();
    old.as_object_mut().unwrap().remove("n_ranks");
    old["special_tokens"] = serde_json::json!({});
    old["n_vocab"] = serde_json::json!(lines.len());
    rank_file(
        dir,
        "old.tiktoken",
        &(lines[..200].join("\n") + "\n"),
        &old.to_string(),
    );

    // The byte-level JSON: a token repeated, an empty special, a special that is a rank.
    let json = fs::read_to_string(dir.join("bytes.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let tokens = doc["tokens"].as_array().unwrap().clone();
    let mut repeated = doc.clone();
    repeated["tokens"][270] = tokens[100].clone();
    let repeated = serde_json::to_string_pretty(&repeated).unwrap();
    // The line the message must name: the second line holding token 100's text.
    let token_100 = tokens[100].to_string();
    let holding: Vec<usize> = repeated
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim().trim_end_matches(',') == token_100)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(holding[1], 279, "the table's line for \"tokens\"[270]");
    fs::write(dir.join("repeated.json"), repeated).unwrap();
    let mut empty_special = doc.clone();
    empty_special["special_tokens"] = serde_json::json!({"": 286});
    fs::write(dir.join("empty-special.json"), empty_special.to_string()).unwrap();
    doc["special_tokens"] = serde_json::json!({"a": 286});
    fs::write(dir.join("special-rank.json"), doc.to_string()).unwrap();

    // A Hugging Face file whose added token says an id HF would not give it.
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        &format!("{d}/bytes.json"),
        "--format",
        "hf",
        "--output",
        &format!("{d}/hf.json"),
    ]));
    let mut hf: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("hf.json")).unwrap()).unwrap();
    hf["model"]["vocab"]
        .as_object_mut()
        .unwrap()
        .remove("<|endoftext|>");
    hf["added_tokens"][0]["id"] = serde_json::json!(300);
    fs::write(dir.join("hf-renumbered.json"), hf.to_string()).unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "a rank file cut after a whole line (its sidecar declares more ranks)",
        args: &["count-tokens", "-t", "{d}/cut.tiktoken", "{d}/corpus.txt"],
        code: 1,
        needles: &[
            "cut.tiktoken",
            "line 101",
            "100 ranks",
            "declares 286 ranks",
        ],
    },
    Case {
        name: "a rank file with a line deleted",
        args: &["count-tokens", "-t", "{d}/lost.tiktoken", "{d}/corpus.txt"],
        code: 1,
        needles: &["lost.tiktoken", "line 10", "no line has rank 9"],
    },
    Case {
        name: "a rank file cut short beside an older sidecar (n_vocab only)",
        args: &["count-tokens", "-t", "{d}/old.tiktoken", "{d}/corpus.txt"],
        code: 1,
        needles: &["old.tiktoken", "line 201", "n_vocab 286"],
    },
    Case {
        name: "a byte-level JSON file with a token repeated",
        args: &["count-tokens", "-t", "{d}/repeated.json", "{d}/corpus.txt"],
        code: 1,
        // Checked in `setup` to be the line of the repeat.
        needles: &[
            "repeated.json",
            "line 279",
            "\"tokens\"[270] repeats token 100",
        ],
    },
    Case {
        name: "a byte-level JSON file with an empty special token",
        args: &[
            "count-tokens",
            "-t",
            "{d}/empty-special.json",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &["empty-special.json", "special token is empty"],
    },
    Case {
        name: "a byte-level JSON file whose special token is a rank's bytes",
        args: &[
            "count-tokens",
            "-t",
            "{d}/special-rank.json",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &["special-rank.json", "\"a\"", "rank 97"],
    },
    Case {
        name: "a Hugging Face file whose added token HF would number otherwise",
        args: &[
            "count-tokens",
            "-t",
            "{d}/hf-renumbered.json",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &["hf-renumbered.json", "<|endoftext|>", "says id 300"],
    },
    Case {
        name: "an empty special token for byte-level training",
        args: &[
            "train",
            "--byte-level",
            "--special-tokens",
            "",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--special-tokens", "empty"],
    },
    Case {
        name: "an empty special token for lab training",
        args: &[
            "train",
            "--special-tokens",
            "",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--special-tokens", "empty"],
    },
    Case {
        name: "byte-level training on an empty file",
        args: &[
            "train",
            "--byte-level",
            "--input",
            "{d}/empty.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 1,
        needles: &["empty.txt", "contains no", "empty or has only blank lines"],
    },
    Case {
        name: "byte-level training on blank lines",
        args: &[
            "train",
            "--byte-level",
            "--input",
            "{d}/blank.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 1,
        needles: &["blank.txt", "contains no", "empty or has only blank lines"],
    },
    Case {
        name: "lab training on an empty file (the wording the byte-level one follows)",
        args: &[
            "train",
            "--input",
            "{d}/empty.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 1,
        needles: &["empty.txt", "contains no", "empty or has only blank lines"],
    },
];

#[test]
fn every_corrupt_file_is_refused_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path().to_str().unwrap();
    let before = entries(dir.path());
    for case in CASES {
        let args: Vec<String> = case.args.iter().map(|a| a.replace("{d}", d)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = bpe_lab_with_stdin(&args, b"");
        let needles: Vec<String> = case.needles.iter().map(|n| n.replace("{d}", d)).collect();
        let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
        eprintln!("case: {}", case.name);
        assert_failure(&out, case.code, &needles);
        assert_eq!(
            entries(dir.path()),
            before,
            "{}: a file was written",
            case.name
        );
    }
}
