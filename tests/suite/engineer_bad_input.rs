//! The bad-input table of issue 47's remaining findings (5, 8, 9) and its new features: each
//! case runs the command as a user would and expects an `error:` that names the flag or file
//! and what is wrong, in the user's terms (never a Rust API nor "error parsing pattern 0"), the
//! right exit status, and nothing written.

use std::fs;
use std::path::Path;

use crate::support;
use support::cli::{assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, entries};

/// One row of the table.
struct Case {
    name: &'static str,
    /// The arguments; `{d}` is the scratch folder.
    args: &'static [&'static str],
    code: i32,
    /// Every one of these is in the message (`{d}` expanded).
    needles: &'static [&'static str],
    /// None of these is.
    absent: &'static [&'static str],
}

const CORPUS: &str = "Morning in Lagos begins long before sunrise.\nJollof in Accra, suya in \
                      Kano.\n";

fn setup(dir: &Path) {
    let d = dir.to_str().unwrap();
    fs::write(dir.join("corpus.txt"), CORPUS).unwrap();
    fs::write(dir.join("notes.log"), CORPUS).unwrap();
    fs::write(
        dir.join("table.csv"),
        "name,description\nLagos,a city\nAccra,a city\n",
    )
    .unwrap();
    fs::write(dir.join("array.json"), "[{\"description\": \"Jollof\"}]").unwrap();
    fs::write(dir.join("null.json"), "null").unwrap();
    // bpe-lab's own Hugging Face export of a lab (character-level) tokenizer.
    assert_success(&bpe_lab(&[
        "train",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "5",
        "--output",
        &format!("{d}/lab.json"),
    ]));
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        &format!("{d}/lab.json"),
        "--format",
        "hf",
        "--output",
        &format!("{d}/lab-hf.json"),
    ]));
}

const CASES: &[Case] = &[
    Case {
        name: "a --regex that does not compile",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            r"\p{Bogus}",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--regex", r"\p{Bogus}", "Unicode property not found"],
        absent: &["pattern 0"],
    },
    Case {
        name: "a --regex that leaves the training text uncovered",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            r"\w+",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 1,
        needles: &[
            "--regex",
            "corpus.txt",
            "line 1, column 8",
            "\" \"",
            "--allow-uncovered",
        ],
        absent: &[],
    },
    Case {
        name: "--allow-uncovered without --regex",
        args: &[
            "train",
            "--byte-level",
            "--allow-uncovered",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--allow-uncovered", "--regex"],
        absent: &[],
    },
    Case {
        name: "a corpus whose extension says no format (lab training)",
        args: &[
            "train",
            "--input",
            "{d}/notes.log",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--input", "notes.log", "--input-format"],
        absent: &["CorpusReader"],
    },
    Case {
        name: "a corpus whose extension says no format (byte-level training)",
        args: &[
            "train",
            "--byte-level",
            "--input",
            "{d}/notes.log",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--input", "notes.log", "--input-format"],
        absent: &["CorpusReader"],
    },
    Case {
        name: "a corpus given as the tokenizer",
        args: &[
            "encode",
            "-t",
            "{d}/corpus.txt",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &["corpus.txt", "is not a tokenizer file", "plain text"],
        absent: &["sidecar", ".txt.json", "was not found"],
    },
    Case {
        name: "a CSV table given as the tokenizer",
        args: &["count-tokens", "-t", "{d}/table.csv", "{d}/corpus.txt"],
        code: 1,
        needles: &["table.csv", "is not a tokenizer file", "CSV"],
        absent: &["sidecar", "was not found"],
    },
    Case {
        name: "a JSON array given as the tokenizer",
        args: &[
            "decode",
            "-t",
            "{d}/array.json",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &["array.json", "is not a tokenizer file", "JSON array"],
        absent: &["sidecar", "array.json.json"],
    },
    Case {
        name: "JSON null given as the tokenizer",
        args: &["info", "-t", "{d}/null.json"],
        code: 1,
        needles: &["null.json", "is not a tokenizer file", "JSON null"],
        absent: &["sidecar"],
    },
    Case {
        name: "bpe-lab's Hugging Face export of a lab tokenizer, given as a byte-level one",
        args: &["count-tokens", "-t", "{d}/lab-hf.json", "{d}/corpus.txt"],
        code: 1,
        needles: &["lab-hf.json", "not byte-level", "lab tokenizer"],
        absent: &["ignore_merges"],
    },
    Case {
        name: "a lab tokenizer file where a byte-level one is needed",
        args: &["count-tokens", "-t", "{d}/lab.json", "{d}/corpus.txt"],
        code: 1,
        needles: &[
            "lab.json",
            "not byte-level",
            "lab (character-level) tokenizer",
        ],
        absent: &["not a Hugging Face tokenizer.json"],
    },
    Case {
        name: "an encoding tiktoken does not define",
        args: &[
            "encode",
            "--encoding",
            "p51k_base",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 2,
        needles: &[
            "p51k_base",
            "p50k_base",
            "p50k_edit",
            "o200k_harmony",
            "gpt2",
        ],
        absent: &[],
    },
    Case {
        name: "a model tiktoken does not know",
        args: &["info", "-m", "llama-3"],
        code: 2,
        needles: &["llama-3", "o200k_base"],
        absent: &[],
    },
    Case {
        name: "an --id beyond the vocabulary",
        args: &["info", "--encoding", "cl100k_base", "--id", "100277"],
        code: 1,
        needles: &["--id 100277", "cl100k_base", "100276"],
        absent: &[],
    },
    Case {
        name: "a --token that is no token",
        args: &[
            "info",
            "--encoding",
            "r50k_base",
            "--token",
            "Jollof in Accra",
        ],
        code: 1,
        needles: &["--token", "Jollof in Accra", "not a token of r50k_base"],
        absent: &[],
    },
    Case {
        name: "a --token with an escape info never writes",
        args: &["info", "--encoding", "r50k_base", "--token", r"\q"],
        code: 2,
        needles: &["--token", r"\q"],
        absent: &[],
    },
    Case {
        name: "completions for a shell clap_complete does not know",
        args: &["completions", "tcsh"],
        code: 2,
        needles: &["tcsh", "bash"],
        absent: &[],
    },
];

#[test]
fn every_bad_input_is_refused_naming_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path().to_str().unwrap();
    let before = entries(dir.path());
    for case in CASES {
        eprintln!("case: {}", case.name);
        let args: Vec<String> = case.args.iter().map(|a| a.replace("{d}", d)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = bpe_lab_with_stdin(&args, b"");
        let needles: Vec<String> = case.needles.iter().map(|n| n.replace("{d}", d)).collect();
        let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
        assert_failure(&out, case.code, &needles);
        let err = String::from_utf8_lossy(&out.stderr);
        for absent in case.absent {
            assert!(!err.contains(absent), "{}: {absent:?} in {err}", case.name);
        }
        assert_eq!(
            entries(dir.path()),
            before,
            "{}: a file was written",
            case.name
        );
    }
}
