//! Issue 47's last gaps, as a user meets them: a tokenizer read from standard input (`-t -`),
//! a bare tiktoken rank file given its pattern and special tokens on the command line (as
//! tiktoken's `Encoding` takes them beside the ranks), and a `--field` the user gave that no
//! input uses, said once. The ids are compared with `--encoding`'s, which come from the rank
//! files compiled into the binary, not from the files under test.

use std::fs;
use std::path::Path;

use crate::support;
use support::cli::{assert_success, bpe_lab, bpe_lab_with_stdin, path_str, stderr, stdout};

/// Text tiktoken's tests and issue 47's engineer found hard: emoji (one split across tokens),
/// Ethiopic, N'Ko, stacked combining marks, runs of spaces and of digits, CRLF, a special
/// token.
const HOSTILE: &str = "hi 🫠 ሰላም ዓለም ߒߞߏ e\u{301}\u{301}\u{301}   x    \t 1234567 \r\n\
                       <|endoftext|> after\n\n   trailing   ";

/// cl100k_base's rank file, written by `export` and its sidecar deleted; returns the
/// `--special-tokens` value the sidecar held (NAME=ID, comma-separated).
fn bare_cl100k(dir: &Path) -> String {
    let d = path_str(dir);
    assert_success(&bpe_lab(&[
        "export",
        "--encoding",
        "cl100k_base",
        "--format",
        "tiktoken",
        "--output",
        &format!("{d}/cl100k.tiktoken"),
    ]));
    let sidecar = dir.join("cl100k.tiktoken.json");
    let side: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&sidecar).unwrap()).expect("the sidecar is JSON");
    fs::remove_file(&sidecar).unwrap();
    let specials = side["special_tokens"].as_object().unwrap();
    assert!(specials.contains_key("<|endoftext|>"), "{side}");
    specials
        .iter()
        .map(|(name, id)| format!("{name}={id}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The bare rank file with `--pattern cl100k` (the table's alias for gpt4) and its special
/// tokens gives `--encoding cl100k_base`'s ids on hostile text, from a file and from standard
/// input; decoding through `-t -` gives the text back; count-tokens counts the same.
#[test]
fn a_bare_rank_file_with_its_pattern_encodes_as_the_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let d = path_str(dir.path()).to_owned();
    let specials = bare_cl100k(dir.path());
    fs::write(dir.path().join("hostile.txt"), HOSTILE).unwrap();
    let text = format!("{d}/hostile.txt");
    let bare = format!("{d}/cl100k.tiktoken");
    let ranks = fs::read(&bare).unwrap();

    let expected = bpe_lab(&[
        "encode",
        "-m",
        "cl100k_base",
        "--allow-special",
        "--ids",
        "-i",
        &text,
    ]);
    assert_success(&expected);
    let expected = stdout(&expected);
    assert!(expected.contains("100257"), "{expected}");

    let rank_flags = ["--pattern", "cl100k", "--special-tokens", &specials];
    let mut from_file = vec![
        "encode",
        "-t",
        &bare,
        "--allow-special",
        "--ids",
        "-i",
        &text,
    ];
    from_file.extend(rank_flags);
    let from_file = bpe_lab(&from_file);
    assert_success(&from_file);
    assert_eq!(stdout(&from_file), expected);

    let mut from_stdin = vec!["encode", "-t", "-", "--allow-special", "--ids", "-i", &text];
    from_stdin.extend(rank_flags);
    let from_stdin = bpe_lab_with_stdin(&from_stdin, &ranks);
    assert_success(&from_stdin);
    assert_eq!(stdout(&from_stdin), expected);

    // The ids back to the text, the tokenizer again from standard input.
    fs::write(dir.path().join("ids.txt"), &expected).unwrap();
    let ids = format!("{d}/ids.txt");
    let mut decode = vec!["decode", "-t", "-", "-i", &ids];
    decode.extend(rank_flags);
    let decoded = bpe_lab_with_stdin(&decode, &ranks);
    assert_success(&decoded);
    assert_eq!(stdout(&decoded), HOSTILE);

    // Without the special tokens, the same pattern: `<|endoftext|>` is ordinary text, as
    // `--special-as-text` makes it for the encoding.
    let plain = bpe_lab(&[
        "encode",
        "-m",
        "cl100k_base",
        "--special-as-text",
        "--ids",
        "-i",
        &text,
    ]);
    let bare_plain = bpe_lab(&[
        "encode",
        "-t",
        &bare,
        "--pattern",
        "cl100k",
        "--ids",
        "-i",
        &text,
    ]);
    assert_success(&bare_plain);
    assert_eq!(stdout(&bare_plain), stdout(&plain));

    let counted = bpe_lab_with_stdin(
        &[
            "count-tokens",
            "-t",
            "-",
            "--pattern",
            "gpt4",
            "--json",
            &text,
        ],
        &ranks,
    );
    assert_success(&counted);
    let counts: serde_json::Value = serde_json::from_str(&stdout(&counted)).unwrap();
    let n = stdout(&plain).split_whitespace().count() as u64;
    assert_eq!(counts["total"]["-"], n, "{counts}");
}

/// Every command that takes `--tokenizer` takes `-`: a bpe-lab tokenizer file piped in loads
/// as it does from its path, and its errors name standard input, not a file called `-`.
#[test]
fn every_tokenizer_command_reads_the_tokenizer_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = path_str(dir.path()).to_owned();
    support::cli::byte_level_rank_files(dir.path(), "low lower lowest\nnewest widest\n", 8);
    let bytes = fs::read(dir.path().join("bytes.json")).unwrap();
    let file = format!("{d}/bytes.json");

    let by_path = bpe_lab(&["info", "-t", &file, "--json"]);
    let by_stdin = bpe_lab_with_stdin(&["info", "-t", "-", "--json"], &bytes);
    assert_success(&by_stdin);
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&by_path)).unwrap(),
        serde_json::from_str(&stdout(&by_stdin)).unwrap(),
    );
    assert_eq!(a["vocab_size"], b["vocab_size"]);
    assert_eq!(a["pattern"], b["pattern"]);

    let encoded = bpe_lab_with_stdin(&["encode", "-t", "-", "--ids", "lowest newest"], &bytes);
    assert_success(&encoded);
    assert_eq!(
        stdout(&encoded),
        stdout(&bpe_lab(&["encode", "-t", &file, "--ids", "lowest newest"]))
    );

    let exported = bpe_lab_with_stdin(
        &[
            "export",
            "-t",
            "-",
            "--format",
            "hf",
            "--output",
            &format!("{d}/hf.json"),
        ],
        &bytes,
    );
    assert_success(&exported);
    assert!(dir.path().join("hf.json").exists());

    // A lab tokenizer on standard input too.
    let lab = bpe_lab(&[
        "train",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "4",
        "--output",
        "-",
    ]);
    assert_success(&lab);
    let lab_ids = bpe_lab_with_stdin(&["encode", "-t", "-", "--ids", "lower"], &lab.stdout);
    assert_success(&lab_ids);
    assert!(!stdout(&lab_ids).trim().is_empty());

    // Broken content is named as standard input.
    let mut broken = bytes.clone();
    broken.truncate(bytes.len() / 2);
    let out = bpe_lab_with_stdin(&["encode", "-t", "-", "x"], &broken);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("standard input"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("'-'"), "{}", stderr(&out));
    let corpus = bpe_lab_with_stdin(&["encode", "-t", "-", "x"], b"Jollof in Accra.\n");
    assert_eq!(corpus.status.code(), Some(1));
    assert!(
        stderr(&corpus).contains("standard input is not a tokenizer file"),
        "{}",
        stderr(&corpus)
    );
}

/// A `--field` the user gave where no input has fields is said once on stderr (the way
/// `--threads` is where it does not apply); the default never is, and a JSON input uses it.
#[cfg(feature = "columnar")]
#[test]
fn a_field_given_for_text_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = path_str(dir.path()).to_owned();
    fs::write(dir.path().join("corpus.txt"), "low lower lowest\n").unwrap();
    fs::write(
        dir.path().join("corpus.json"),
        r#"[{"text": "low lower lowest"}]"#,
    )
    .unwrap();
    let txt = format!("{d}/corpus.txt");
    let json = format!("{d}/corpus.json");
    let note = "note: --field text applies only to JSON";
    let runs: [(&str, Vec<String>); 3] = [
        (
            "count",
            vec!["count".into(), "--output".into(), format!("{d}/c.csv")],
        ),
        (
            "train",
            vec![
                "train".into(),
                "--merges".into(),
                "2".into(),
                "--output".into(),
                format!("{d}/t.json"),
                "--input".into(),
            ],
        ),
        (
            "explain",
            vec![
                "explain".into(),
                "--merges".into(),
                "2".into(),
                "--input".into(),
            ],
        ),
    ];
    for (name, base) in &runs {
        let run = |input: &str, field: bool| {
            let mut args: Vec<&str> = base.iter().map(String::as_str).collect();
            args.push(input);
            if field {
                args.extend(["--field", "text"]);
            }
            let out = bpe_lab(&args);
            assert_success(&out);
            stderr(&out).matches(note).count()
        };
        assert_eq!(run(&txt, true), 1, "{name}: --field given, text input");
        assert_eq!(run(&txt, false), 0, "{name}: --field not given");
        assert_eq!(run(&json, true), 0, "{name}: --field given, JSON input");
    }
    // Standard input is text too.
    let out = bpe_lab_with_stdin(
        &[
            "train",
            "--byte-level",
            "--merges",
            "2",
            "--input",
            "-",
            "--output",
            &format!("{d}/b.json"),
            "--field",
            "text",
        ],
        b"low lower lowest\n",
    );
    assert_success(&out);
    assert!(stderr(&out).contains("note: --field text applies only to JSON"));
    assert!(
        stderr(&out).contains("standard input is text"),
        "{}",
        stderr(&out)
    );
    // So is an --input-format given for standard input, which is always read as text.
    let out = bpe_lab_with_stdin(
        &[
            "train",
            "--merges",
            "2",
            "--input",
            "-",
            "--input-format",
            "json",
            "--output",
            &format!("{d}/l.json"),
        ],
        b"low lower lowest\n",
    );
    assert_success(&out);
    assert_eq!(
        stderr(&out)
            .matches("note: --input-format json applies only to a file")
            .count(),
        1,
        "{}",
        stderr(&out)
    );
}
