//! Bad input on every byte-level path (train, encode, decode, count-tokens, export, and the
//! files `-t` reads), as one table: each case runs the command as a user would and expects a
//! clear `error:` naming the file or the flag that fixes it, exit status 1 (the work failed) or
//! 2 (the command line asks for something that cannot be done), and no output file left
//! behind, not even a temporary one.

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
    /// Standard input: empty where the command fails before reading it (a write to a
    /// process that has exited would fail the test, not the command).
    stdin: &'static [u8],
    code: i32,
    /// Every one of these is in the message (`{d}` expanded).
    needles: &'static [&'static str],
}

const CORPUS: &str =
    "Morning in Lagos begins long before sunrise.\nJollof in Accra, suya in Kano.\n";

/// The scratch folder: a trained tokenizer, its tiktoken export, and broken files.
fn setup(dir: &Path) {
    let d = dir.to_str().unwrap();
    let (ranks, sidecar) = byte_level_rank_files(dir, CORPUS, 20);
    // Cut off in the middle of a line; a line of garbage; a rank file with no sidecar.
    let cut = ranks.len() - 4;
    fs::write(dir.join("truncated.tiktoken"), &ranks[..cut]).unwrap();
    fs::write(dir.join("truncated.tiktoken.json"), &sidecar).unwrap();
    let garbled = ranks.replacen("IQ==", "I%Q=", 1);
    fs::write(dir.join("garbled.tiktoken"), garbled).unwrap();
    fs::write(dir.join("garbled.tiktoken.json"), &sidecar).unwrap();
    fs::write(dir.join("alone.tiktoken"), &ranks).unwrap();
    fs::write(dir.join("badside.tiktoken"), &ranks).unwrap();
    fs::write(dir.join("badside.tiktoken.json"), "{\"name\": 3}").unwrap();
    // A byte-level JSON file cut short.
    let json = fs::read_to_string(dir.join("bytes.json")).unwrap();
    fs::write(dir.join("cut.json"), &json[..json.len() / 2]).unwrap();
    // A Hugging Face file whose merges would not give tiktoken's ids.
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        &format!("{d}/bytes.json"),
        "--format",
        "hf",
        "--output",
        &format!("{d}/hf.json"),
    ]));
    // The first two merges swapped: Hugging Face merges by the list's order, so its ids would
    // differ from the ranks'. (`ignore_merges` false alone gives the same ids: see
    // src/tokenizer/hf_bytelevel_import.rs.)
    let mut hf: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("hf.json")).unwrap()).unwrap();
    hf["model"]["merges"].as_array_mut().unwrap().swap(0, 1);
    fs::write(dir.join("hf-merges.json"), hf.to_string()).unwrap();
    fs::write(dir.join("latin1.txt"), b"caf\xe9 au lait\n").unwrap();
    fs::write(dir.join("aa.txt"), format!("{}c\n", "a".repeat(60))).unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "a rank file cut off in the middle of a line",
        args: &[
            "encode",
            "-t",
            "{d}/truncated.tiktoken",
            "--ids",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["truncated.tiktoken", "line"],
    },
    Case {
        name: "a rank file with a token that is not base64",
        args: &[
            "encode",
            "-t",
            "{d}/garbled.tiktoken",
            "--ids",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["garbled.tiktoken", "not base64"],
    },
    Case {
        name: "a rank file without its pattern and specials",
        args: &["decode", "-t", "{d}/alone.tiktoken"],
        stdin: b"",
        code: 1,
        needles: &["alone.tiktoken.json", "export --format tiktoken"],
    },
    Case {
        name: "a rank file whose sidecar is not what export writes",
        args: &[
            "encode",
            "-t",
            "{d}/badside.tiktoken",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["badside.tiktoken.json"],
    },
    Case {
        name: "a tokenizer file cut short",
        args: &[
            "encode",
            "-t",
            "{d}/cut.json",
            "--ids",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["cut.json"],
    },
    Case {
        name: "a Hugging Face file that would give other ids",
        args: &[
            "encode",
            "-t",
            "{d}/hf-merges.json",
            "--ids",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["hf-merges.json", "merge 0 is not the one its ids imply"],
    },
    Case {
        name: "a split pattern that does not compile",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            "(",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 2,
        needles: &["--regex", "not a valid regex"],
    },
    Case {
        name: "a split pattern that backtracks without end",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            r"(a|a)+\1b",
            "--input",
            "{d}/aa.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 1,
        needles: &["--regex", "aa.txt", "backtracking"],
    },
    Case {
        name: "a split pattern that matches the empty string",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            r"\w*",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 2,
        needles: &["--regex", "empty string"],
    },
    Case {
        name: "a split pattern that matches nothing in the corpus",
        args: &[
            "train",
            "--byte-level",
            "--regex",
            "zq+",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 1,
        needles: &["--regex", "corpus.txt", "matches nothing"],
    },
    Case {
        name: "a pattern name that is no name",
        args: &[
            "train",
            "--byte-level",
            "--pattern",
            "gpt-4",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 2,
        needles: &["gpt-4", "gpt2", "gpt4", "o200k", "--regex"],
    },
    Case {
        name: "a flag of lab tokenizers given to byte-level training",
        args: &[
            "train",
            "--byte-level",
            "--unk-token",
            "<U>",
            "--input",
            "{d}/corpus.txt",
            "--merges",
            "5",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 2,
        needles: &["--unk-token", "byte-level"],
    },
    Case {
        name: "a vocabulary size smaller than the bytes",
        args: &[
            "train",
            "--byte-level",
            "--vocab-size",
            "200",
            "--input",
            "{d}/corpus.txt",
            "--output",
            "{d}/out.json",
        ],
        stdin: b"",
        code: 2,
        needles: &["--vocab-size", "257"],
    },
    Case {
        name: "an id out of range",
        args: &["decode", "--encoding", "cl100k_base"],
        stdin: b"41 29061 999999",
        code: 1,
        needles: &["999999", "ids go up to"],
    },
    Case {
        name: "an id that is no number",
        args: &["decode", "-t", "{d}/bytes.json", "--unit", "line"],
        stdin: b"1 2\n3 x4\n",
        code: 1,
        needles: &["x4", "line 2"],
    },
    Case {
        name: "text that is not UTF-8, from a file",
        args: &[
            "encode",
            "-t",
            "{d}/bytes.json",
            "-i",
            "{d}/latin1.txt",
            "--output",
            "{d}/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["latin1.txt", "not UTF-8", "byte 3"],
    },
    Case {
        name: "text that is not UTF-8, counted",
        args: &[
            "count-tokens",
            "-t",
            "{d}/bytes.json",
            "{d}/corpus.txt",
            "{d}/latin1.txt",
        ],
        stdin: b"",
        code: 1,
        needles: &["latin1.txt", "not UTF-8"],
    },
    Case {
        name: "a special token in the text",
        args: &["encode", "-t", "{d}/bytes.json", "--output", "{d}/out.ids"],
        stdin: b"end<|endoftext|>",
        code: 1,
        needles: &["<|endoftext|>", "--allow-special", "--special-as-text"],
    },
    Case {
        name: "output into a folder that does not exist",
        args: &[
            "encode",
            "-t",
            "{d}/bytes.json",
            "--output",
            "{d}/no/such/out.ids",
        ],
        stdin: b"",
        code: 1,
        needles: &["out.ids"],
    },
    Case {
        name: "an export into a folder that does not exist",
        args: &[
            "export",
            "-t",
            "{d}/bytes.json",
            "--format",
            "tiktoken",
            "--output",
            "{d}/no/r.tiktoken",
        ],
        stdin: b"",
        code: 1,
        needles: &["r.tiktoken"],
    },
    Case {
        name: "a lab flag given to a byte-level encode",
        args: &[
            "encode",
            "--encoding",
            "cl100k_base",
            "--split",
            "whitespace",
        ],
        stdin: b"",
        code: 2,
        needles: &["--split", "byte-level"],
    },
];

#[test]
fn every_bad_input_is_refused_clearly_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path().to_str().unwrap();
    let before = entries(dir.path());
    for case in CASES {
        let args: Vec<String> = case.args.iter().map(|a| a.replace("{d}", d)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = bpe_lab_with_stdin(&args, case.stdin);
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
