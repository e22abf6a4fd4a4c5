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
    // A byte-level tokenizer (bytes.json), its rank file with its sidecar (ranks.tiktoken),
    // and the same rank file bare (bare.tiktoken, no bare.tiktoken.json).
    support::cli::byte_level_rank_files(dir, CORPUS, 5);
    fs::copy(dir.join("ranks.tiktoken"), dir.join("bare.tiktoken")).unwrap();
    // bpe-lab's own Hugging Face export of a character-level tokenizer.
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
        name: "bpe-lab's Hugging Face export of a character-level tokenizer, given as a byte-level one",
        args: &["count-tokens", "-t", "{d}/lab-hf.json", "{d}/corpus.txt"],
        code: 1,
        needles: &["lab-hf.json", "not byte-level", "character-level tokenizer"],
        absent: &["ignore_merges"],
    },
    Case {
        name: "a character-level tokenizer file where a byte-level one is needed",
        args: &["count-tokens", "-t", "{d}/lab.json", "{d}/corpus.txt"],
        code: 1,
        needles: &["lab.json", "not byte-level", "character-level tokenizer"],
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
    // Issue 47, the last gaps: a tokenizer on standard input, a bare rank file, and flags of
    // the other kind of tokenizer.
    Case {
        name: "-t - with the text to encode on standard input too",
        args: &["encode", "-t", "-", "--ids"],
        code: 2,
        needles: &[
            "--tokenizer -",
            "--input",
            "standard input can be read once",
        ],
        absent: &["rank file"],
    },
    Case {
        name: "-t - with --input -",
        args: &["decode", "-t", "-", "--input", "-"],
        code: 2,
        needles: &[
            "--tokenizer -",
            "--input",
            "standard input can be read once",
        ],
        absent: &[],
    },
    Case {
        name: "-t - with count-tokens reading standard input (no FILE)",
        args: &["count-tokens", "-t", "-"],
        code: 2,
        needles: &["--tokenizer -", "FILE", "standard input can be read once"],
        absent: &[],
    },
    Case {
        name: "-t - with - among count-tokens' files",
        args: &["count-tokens", "-t", "-", "{d}/corpus.txt", "-"],
        code: 2,
        needles: &["--tokenizer -", "FILE", "standard input can be read once"],
        absent: &[],
    },
    Case {
        name: "a bare rank file without --pattern",
        args: &[
            "encode",
            "-t",
            "{d}/bare.tiktoken",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 1,
        needles: &[
            "bare.tiktoken",
            "--pattern NAME or --regex REGEX",
            "--special-tokens",
            "bare.tiktoken.json",
        ],
        absent: &[],
    },
    Case {
        name: "--pattern for a rank file with its sidecar",
        args: &[
            "encode",
            "-t",
            "{d}/ranks.tiktoken",
            "--pattern",
            "gpt4",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 2,
        needles: &[
            "--pattern",
            "ranks.tiktoken.json",
            "carries its own split pattern",
        ],
        absent: &[],
    },
    Case {
        name: "--regex for bpe-lab's byte-level file",
        args: &["info", "-t", "{d}/bytes.json", "--regex", r"\S+|\s+"],
        code: 2,
        needles: &["--regex", "bytes.json", "carries its own split pattern"],
        absent: &[],
    },
    Case {
        name: "--special-tokens for a Hugging Face file",
        args: &[
            "export",
            "-t",
            "{d}/lab-hf.json",
            "--pattern",
            "gpt2",
            "--special-tokens",
            "<|endoftext|>=5",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &[
            "--pattern",
            "lab-hf.json",
            "Hugging Face",
            "carries its own",
        ],
        absent: &[],
    },
    Case {
        name: "--pattern for a character-level tokenizer",
        args: &[
            "decode",
            "-t",
            "{d}/lab.json",
            "--pattern",
            "gpt4",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 2,
        needles: &["--pattern", "lab.json", "character-level tokenizer"],
        absent: &[],
    },
    Case {
        name: "--pattern with --encoding",
        args: &[
            "encode",
            "--encoding",
            "cl100k_base",
            "--pattern",
            "gpt4",
            "x",
        ],
        code: 2,
        needles: &["--pattern", "--encoding cl100k_base", "carries its own"],
        absent: &[],
    },
    Case {
        name: "--pattern with count-tokens' encodings only",
        args: &["count-tokens", "--pattern", "gpt4", "{d}/corpus.txt"],
        code: 2,
        needles: &["--pattern", "-t FILE", "encodings carry their own"],
        absent: &[],
    },
    Case {
        name: "--special-tokens without a pattern",
        args: &[
            "count-tokens",
            "-t",
            "{d}/bare.tiktoken",
            "--special-tokens",
            "<|endoftext|>=300",
            "{d}/corpus.txt",
        ],
        code: 2,
        needles: &["--special-tokens", "--pattern NAME or --regex REGEX"],
        absent: &[],
    },
    Case {
        name: "--special-tokens not NAME=ID",
        args: &[
            "info",
            "-t",
            "{d}/bare.tiktoken",
            "--pattern",
            "gpt4",
            "--special-tokens",
            "<|endoftext|>",
        ],
        code: 2,
        needles: &["--special-tokens", "NAME=ID"],
        absent: &[],
    },
    Case {
        name: "--special-tokens with an empty name",
        args: &[
            "info",
            "-t",
            "{d}/bare.tiktoken",
            "--pattern",
            "gpt4",
            "--special-tokens",
            "=300",
        ],
        code: 2,
        needles: &["--special-tokens", "empty"],
        absent: &[],
    },
    Case {
        name: "--special-tokens naming one token twice",
        args: &[
            "info",
            "-t",
            "{d}/bare.tiktoken",
            "--pattern",
            "gpt4",
            "--special-tokens",
            "<|a|>=300,<|a|>=301",
        ],
        code: 2,
        needles: &["--special-tokens", "'<|a|>' is given twice"],
        absent: &[],
    },
    Case {
        name: "a --special-tokens id that is a rank's",
        args: &[
            "info",
            "-t",
            "{d}/bare.tiktoken",
            "--pattern",
            "gpt4",
            "--special-tokens",
            "<|endoftext|>=3",
        ],
        code: 1,
        needles: &["bare.tiktoken", "3"],
        absent: &[],
    },
    Case {
        name: "a --pattern name no table row has",
        args: &[
            "encode",
            "-t",
            "{d}/bare.tiktoken",
            "--pattern",
            "gpt5",
            "x",
        ],
        code: 2,
        needles: &["--pattern", "gpt5", "gpt2", "o200k"],
        absent: &[],
    },
    Case {
        name: "a --regex for a bare rank file that does not compile",
        args: &[
            "encode",
            "-t",
            "{d}/bare.tiktoken",
            "--regex",
            r"\p{Bogus}",
            "x",
        ],
        code: 2,
        needles: &["--regex", r"\p{Bogus}", "Unicode property not found"],
        absent: &["pattern 0"],
    },
    Case {
        name: "--split (lab only) with a byte-level tokenizer",
        args: &["encode", "-t", "{d}/bytes.json", "--split", "space", "x"],
        code: 2,
        needles: &["--split", "byte-level"],
        absent: &[],
    },
    Case {
        name: "--allow-special (byte-level only) with a character-level tokenizer",
        args: &["encode", "-t", "{d}/lab.json", "--allow-special", "x"],
        code: 2,
        needles: &["--allow-special", "character-level tokenizer"],
        absent: &[],
    },
    Case {
        name: "--special-as-text (byte-level only) with a character-level tokenizer",
        args: &["encode", "-t", "{d}/lab.json", "--special-as-text", "x"],
        code: 2,
        needles: &["--special-as-text", "character-level tokenizer"],
        absent: &[],
    },
    Case {
        name: "--unit text (byte-level only) with a character-level tokenizer",
        args: &[
            "decode",
            "-t",
            "{d}/lab.json",
            "--unit",
            "text",
            "--input",
            "{d}/corpus.txt",
        ],
        code: 2,
        needles: &["--unit text", "character-level tokenizer"],
        absent: &[],
    },
    Case {
        name: "--split (lab only) exporting a byte-level tokenizer",
        args: &[
            "export",
            "-t",
            "{d}/bytes.json",
            "--split",
            "space",
            "--output",
            "{d}/out.json",
        ],
        code: 2,
        needles: &["--split", "byte-level"],
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
