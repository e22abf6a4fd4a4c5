//! `bpe-lab encode`'s features from issue 47 and finding 9's encode items: text as an
//! argument, `--max-tokens`, `--chunk-tokens`/`--overlap`, `--json --offsets`,
//! `--allow-special` for a chosen set, `--unit line` streaming line by line, a byte-order mark,
//! and flags that do not apply being said. Each for both kinds of tokenizer where it makes
//! sense; the library's shaping is checked on generated texts against naive slicing, the
//! command against the library's plain encode and (with BPE_LAB_HF_PYTHON) tiktoken itself.

use bpe_lab::tokenizer::{ByteLevelConfig, TrainingSettings};
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::SplitPattern;
use bpe_lab::tokenizer::{
    AllowedSpecial, ByteLevelTokenizer, CharLevelTokenizer, Chunks, DisallowedSpecial,
    EncodeOptions, EncodeOutput, EncodeUnit, Shape,
};
use serde_json::{Value, json};

use crate::support;
use support::cli::{
    assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, path_str, stderr, stdout,
};
use support::{Rng, parity_python, python_json};

const SPECIALS: [&str; 3] = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>"];

/// Pieces of text in many scripts: ASCII words, accents, emoji (4-byte and joined), Ethiopic,
/// N'Ko, spaces and the special tokens.
const ALPHABET: &[&str] = &[
    "low",
    "er",
    " ",
    "  ",
    "é",
    "ñ",
    "😀",
    "👩‍👩‍👧",
    "ሰላም",
    "ߒߞߏ",
    "a",
    "b",
    "\t",
    "x1",
    ",",
];

fn corpus() -> String {
    let mut rng = Rng(47);
    (0..300)
        .map(|_| rng.text(ALPHABET, 12))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Generated texts, the empty one first.
fn texts(count: usize, with_specials: bool) -> Vec<String> {
    let mut rng = Rng(9);
    let mut out = vec![String::new()];
    let mut alphabet = ALPHABET.to_vec();
    if with_specials {
        alphabet.extend(SPECIALS);
    }
    out.extend((0..count).map(|_| rng.text(&alphabet, 24)));
    out
}

fn byte_level() -> ByteLevelTokenizer {
    ByteLevelTokenizer::train_with(
        &corpus(),
        TrainingSettings::new(60).tie_break(TieBreak::default()),
        &ByteLevelConfig::new(SplitPattern::Cl100k).special_tokens(SPECIALS.iter().copied()),
    )
    .unwrap()
}

fn lab() -> CharLevelTokenizer {
    let corpus = corpus();
    let lines: Vec<&str> = corpus.lines().collect();
    CharLevelTokenizer::train(&lines, 40)
}

/// Both kinds of tokenizer written into `dir`: (lab file, byte-level file).
fn tokenizer_files(dir: &Path) -> (String, String) {
    let d = path_str(dir);
    fs::write(dir.join("corpus.txt"), corpus()).unwrap();
    assert_success(&bpe_lab(&[
        "train",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "40",
        "--output",
        &format!("{d}/lab.json"),
    ]));
    assert_success(&bpe_lab(&[
        "train",
        "--byte-level",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "60",
        "--special-tokens",
        &SPECIALS.join(","),
        "--output",
        &format!("{d}/bytes.json"),
    ]));
    (format!("{d}/lab.json"), format!("{d}/bytes.json"))
}

fn json_lines(output: &[u8]) -> Vec<Value> {
    String::from_utf8(output.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(value: &Value) -> Vec<u32> {
    serde_json::from_value(value.clone()).unwrap()
}

fn spans(value: &Value) -> Vec<[usize; 2]> {
    serde_json::from_value(value.clone()).unwrap()
}

/// Byte-level offsets: each token's span holds exactly its bytes, the spans tile the text;
/// the windows joined minus their overlaps are the whole ids; truncation keeps the prefix.
/// Generated texts (empty, emoji that split into byte tokens, Ethiopic, N'Ko, specials).
#[test]
fn byte_level_shaping_agrees_with_naive_slicing() {
    let tokenizer = byte_level();
    for (k, text) in texts(120, true).iter().enumerate() {
        let all = tokenizer.encode(text, &AllowedSpecial::All).unwrap();
        for (unit, threads) in [(EncodeUnit::Text, 1), (EncodeUnit::Lines, 2)] {
            let options = EncodeOptions {
                allowed: AllowedSpecial::All,
                unit,
                output: EncodeOutput::Json,
                threads,
                block_bytes: 64,
                shape: Shape {
                    offsets: true,
                    ..Shape::default()
                },
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            tokenizer
                .encode_stream(&mut text.as_bytes(), &mut out, &options)
                .unwrap();
            let units: Vec<&str> = match unit {
                EncodeUnit::Text => vec![text],
                EncodeUnit::Lines if text.is_empty() => vec![],
                EncodeUnit::Lines => text.split('\n').collect(),
            };
            let objects = json_lines(&out);
            assert_eq!(objects.len(), units.len(), "{k}: {text:?}");
            for (object, unit_text) in objects.iter().zip(&units) {
                let (ids, spans) = (ids(&object["ids"]), spans(&object["offsets"]));
                assert_eq!(ids.len(), spans.len());
                let mut joined = Vec::new();
                let mut at = 0;
                for (&id, &[s, e]) in ids.iter().zip(&spans) {
                    assert_eq!(s, at, "{k}: spans tile the unit");
                    assert_eq!(
                        &unit_text.as_bytes()[s..e],
                        tokenizer.token_bytes(id).unwrap()
                    );
                    joined.extend_from_slice(&unit_text.as_bytes()[s..e]);
                    at = e;
                }
                assert_eq!(joined, unit_text.as_bytes(), "{k}: {text:?}");
            }
        }
        for (max, tokens, overlap) in [(5, 4, 1), (1000, 3, 2), (0, 1, 0), (7, 7, 0)] {
            let shape = Shape {
                max_tokens: Some(max),
                chunks: Some(Chunks::new(tokens, overlap).unwrap()),
                offsets: false,
            };
            let options = EncodeOptions {
                allowed: AllowedSpecial::All,
                output: EncodeOutput::Ids,
                block_bytes: 64,
                shape,
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            let done = tokenizer
                .encode_stream(&mut text.as_bytes(), &mut out, &options)
                .unwrap();
            let windows: Vec<Vec<u32>> = String::from_utf8(out)
                .unwrap()
                .lines()
                .map(|l| {
                    l.split(' ')
                        .filter(|w| !w.is_empty())
                        .map(|w| w.parse().unwrap())
                        .collect()
                })
                .collect();
            let kept = &all[..all.len().min(max)];
            let mut joined: Vec<u32> = windows[0].clone();
            for pair in windows.windows(2) {
                assert_eq!(pair[1][..overlap], pair[0][pair[0].len() - overlap..]);
                joined.extend_from_slice(&pair[1][overlap..]);
            }
            assert_eq!(joined, kept, "{k}: {text:?} max {max}");
            assert!(windows.iter().all(|w| w.len() <= tokens));
            assert_eq!(done.truncated.tokens, all.len().saturating_sub(max) as u64);
        }
    }
}

/// A lab tokenizer's options for one JSON line per input line on one thread, shaped.
fn lab_json(shape: Shape) -> EncodeOptions {
    EncodeOptions {
        unit: EncodeUnit::Lines,
        output: EncodeOutput::Json,
        threads: 1,
        shape,
        ..EncodeOptions::default()
    }
}

/// Lab offsets: each token's span is the characters it holds (its text without `</w>`, one
/// character for `<UNK>`); slicing the line by them and joining gives the line without its
/// spaces. Truncation keeps the prefix of the line's ids.
#[test]
fn lab_shaping_agrees_with_naive_slicing() {
    let tokenizer = lab();
    for (k, text) in texts(120, false).iter().enumerate() {
        let line = text.replace('\n', " ");
        let all = tokenizer.encode(&line);
        let shape = Shape {
            max_tokens: Some(6),
            offsets: true,
            ..Shape::default()
        };
        let mut out = Vec::new();
        let done = tokenizer
            .encode_stream(&mut line.as_bytes(), &mut out, &lab_json(shape))
            .unwrap();
        let objects = json_lines(&out);
        if line.is_empty() {
            // An empty input holds no line.
            assert!(objects.is_empty());
            continue;
        }
        assert_eq!(objects.len(), 1);
        assert_eq!(ids(&objects[0]["ids"]), all[..all.len().min(6)]);
        assert_eq!(done.truncated.tokens, all.len().saturating_sub(6) as u64);
        let shape = Shape {
            offsets: true,
            ..Shape::default()
        };
        let mut out = Vec::new();
        tokenizer
            .encode_stream(&mut line.as_bytes(), &mut out, &lab_json(shape))
            .unwrap();
        let object = &json_lines(&out)[0];
        let (ids, spans) = (ids(&object["ids"]), spans(&object["offsets"]));
        assert_eq!(ids, all);
        let mut joined = String::new();
        for (&id, &[s, e]) in ids.iter().zip(&spans) {
            let piece = &line[s..e];
            let token = tokenizer.vocab().token(id).unwrap();
            if id == tokenizer.vocab().unk_id() {
                assert_eq!(piece.chars().count(), 1);
            } else {
                assert_eq!(piece, token.strip_suffix("</w>").unwrap_or(token), "{k}");
            }
            joined.push_str(piece);
        }
        assert_eq!(joined, line.replace(' ', ""), "{k}: {line:?}");
    }
}

/// `encode TEXT...` encodes the words joined by single spaces, as --input with that text
/// does, for both kinds; TEXT with --input is refused naming both.
#[test]
fn text_as_an_argument_encodes_as_the_input_would() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, bytes) = tokenizer_files(dir.path());
    for tokenizer in [&lab, &bytes] {
        let from_stdin = bpe_lab_with_stdin(
            &["encode", "-t", tokenizer, "--ids"],
            "low ሰላም er".as_bytes(),
        );
        let from_args = bpe_lab(&["encode", "-t", tokenizer, "--ids", "low", "ሰላም er"]);
        assert_success(&from_args);
        assert_eq!(stdout(&from_args), stdout(&from_stdin), "{tokenizer}");
        assert!(!stdout(&from_args).trim().is_empty());
        let both = bpe_lab(&[
            "encode",
            "-t",
            tokenizer,
            "--input",
            &format!("{}/corpus.txt", path_str(dir.path())),
            "low",
        ]);
        assert_failure(&both, 2, &["--input", "TEXT"]);
    }
    let model = bpe_lab(&["encode", "-m", "cl100k_base", "--ids", "hello world"]);
    assert_success(&model);
    assert_eq!(stdout(&model), "15339 1917\n");
}

/// --max-tokens keeps the first N ids of each unit and says on stderr what it cut; the ids are
/// the prefix of the whole encoding, for both kinds.
#[test]
fn max_tokens_keeps_the_prefix_and_says_what_it_cut() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, bytes) = tokenizer_files(dir.path());
    let text = "lower low é😀 ሰላም ߒߞߏ\nlow\n";
    for (tokenizer, unit) in [(&lab, "line"), (&bytes, "line"), (&bytes, "text")] {
        let whole = bpe_lab_with_stdin(
            &["encode", "-t", tokenizer, "--ids", "--unit", unit],
            text.as_bytes(),
        );
        let unit_args = if tokenizer == &lab {
            vec![]
        } else {
            vec!["--unit", unit]
        };
        let mut args = vec!["encode", "-t", tokenizer, "--ids", "--max-tokens", "3"];
        args.extend(&unit_args);
        let cut = bpe_lab_with_stdin(&args, text.as_bytes());
        assert_success(&cut);
        let expected: Vec<String> = stdout(&whole)
            .lines()
            .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
            .collect();
        let got: Vec<String> = stdout(&cut).lines().map(str::to_owned).collect();
        assert_eq!(got, expected, "{tokenizer} {unit}");
        assert!(
            stderr(&cut).contains("--max-tokens 3 cut 1 "),
            "{}",
            stderr(&cut)
        );
        assert!(stderr(&cut).contains("dropping"), "{}", stderr(&cut));
    }
}

/// --chunk-tokens N --overlap K writes windows whose ids, joined minus the overlaps, are the
/// whole encoding; --json gives each window's text. An overlap not below N is refused naming
/// both flags.
#[test]
fn chunks_overlap_and_join_back_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, bytes) = tokenizer_files(dir.path());
    let text = "lower low é😀 ሰላም ߒߞߏ lower lowest a b";
    for tokenizer in [&lab, &bytes] {
        let whole: Vec<u32> = stdout(&bpe_lab(&["encode", "-t", tokenizer, "--ids", text]))
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let out = bpe_lab(&[
            "encode",
            "-t",
            tokenizer,
            "--json",
            "--chunk-tokens",
            "4",
            "--overlap",
            "1",
            text,
        ]);
        assert_success(&out);
        let windows = json_lines(&out.stdout);
        assert!(windows.len() > 1, "{tokenizer}");
        let mut joined = ids(&windows[0]["ids"]);
        for w in &windows[1..] {
            joined.extend_from_slice(&ids(&w["ids"])[1..]);
        }
        assert_eq!(joined, whole, "{tokenizer}");
        assert!(windows.iter().all(|w| w["text"].is_string()));
        let refused = bpe_lab(&[
            "encode",
            "-t",
            tokenizer,
            "--chunk-tokens",
            "3",
            "--overlap",
            "3",
            text,
        ]);
        assert_failure(&refused, 2, &["--chunk-tokens 3", "--overlap 3"]);
    }
    let text_windows = bpe_lab(&[
        "encode",
        "-t",
        &bytes,
        "--json",
        "--chunk-tokens",
        "2",
        "😀ߒ",
    ]);
    // The emoji's four bytes are no token of this small vocabulary: the windows cut it, and
    // each window's text shows its part of it as U+FFFD, as tiktoken's decode does.
    let windows = json_lines(&text_windows.stdout);
    assert!(windows.len() > 1);
    assert!(
        windows
            .iter()
            .all(|w| w["ids"].as_array().unwrap().len() <= 2)
    );
    assert_eq!(windows[0]["ids"].as_array().unwrap().len(), 2);
}

/// --json --offsets through the command: each byte-level token's span holds its bytes, with
/// --max-tokens too.
#[test]
fn offsets_through_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = tokenizer_files(dir.path());
    let text = "é😀 ሰላም ߒߞߏ<|endoftext|>low";
    let out = bpe_lab(&[
        "encode",
        "-t",
        &bytes,
        "--json",
        "--offsets",
        "--allow-special",
        "--",
        text,
    ]);
    assert_success(&out);
    let tokenizer = ByteLevelTokenizer::open(Path::new(&bytes)).unwrap();
    let object = &json_lines(&out.stdout)[0];
    let spans = spans(&object["offsets"]);
    for (&id, [s, e]) in ids(&object["ids"]).iter().zip(spans) {
        assert_eq!(&text.as_bytes()[s..e], tokenizer.token_bytes(id).unwrap());
    }
    let without_json = bpe_lab(&["encode", "-t", &bytes, "--offsets", text]);
    assert_eq!(without_json.status.code(), Some(2));
}

/// --allow-special A,B allows only those; the others stay errors, or text with
/// --special-as-text; a name that is no special token is refused naming it; --allow-special
/// alone is all. With BPE_LAB_HF_PYTHON, the ids equal tiktoken's `encode(text,
/// allowed_special={...})` (and `[:N]` with --max-tokens).
#[test]
fn allow_special_for_a_chosen_set() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, bytes) = tokenizer_files(dir.path());
    let specials = ByteLevelTokenizer::open(Path::new(&bytes))
        .unwrap()
        .specials()
        .clone();
    let text = "a<|endoftext|>b<|fim_prefix|>c<|fim_middle|>";
    let run = |extra: &[&str]| {
        let mut args = vec!["encode", "-t", bytes.as_str(), "--ids"];
        args.extend(extra);
        bpe_lab_with_stdin(&args, text.as_bytes())
    };
    let ids_of = |out: &std::process::Output| -> Vec<u32> {
        assert_success(out);
        stdout(out)
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let two = ids_of(&run(&[
        "--allow-special",
        "<|endoftext|>,<|fim_prefix|>",
        "--special-as-text",
    ]));
    assert!(two.contains(&specials["<|endoftext|>"]) && two.contains(&specials["<|fim_prefix|>"]));
    assert!(!two.contains(&specials["<|fim_middle|>"]));
    let repeated = ids_of(&run(&[
        "--allow-special",
        "<|endoftext|>",
        "--allow-special",
        "<|fim_prefix|>",
        "--special-as-text",
    ]));
    assert_eq!(repeated, two);
    let refused = run(&["--allow-special", "<|endoftext|>,<|fim_prefix|>"]);
    assert_failure(&refused, 1, &["<|fim_middle|>", "not allowed"]);
    let unknown = run(&["--allow-special", "<|nope|>"]);
    assert_failure(
        &unknown,
        2,
        &["--allow-special", "<|nope|>", "not a special token"],
    );
    let all = ids_of(&run(&["--allow-special"]));
    assert!(all.contains(&specials["<|fim_middle|>"]));
    let lab_refused = bpe_lab(&[
        "encode",
        "-t",
        &lab,
        "--allow-special",
        "<|endoftext|>",
        "--",
        "low",
    ]);
    assert_failure(&lab_refused, 2, &["--allow-special", "character-level"]);

    let Some(python) = parity_python("tiktoken") else {
        return;
    };
    let d = path_str(dir.path());
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        &bytes,
        "--format",
        "tiktoken",
        "--output",
        &format!("{d}/ranks.tiktoken"),
    ]));
    let sidecar: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("ranks.tiktoken.json")).unwrap())
            .unwrap();
    let cases = [
        (vec!["<|endoftext|>", "<|fim_prefix|>"], true, None),
        (vec!["<|fim_middle|>"], true, Some(3)),
        (vec!["<|endoftext|>", "<|fim_prefix|>"], false, None),
        (
            vec!["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>"],
            false,
            Some(5),
        ),
    ];
    let mut jobs = Vec::new();
    for text in texts(40, true) {
        for (allowed, as_text, max) in &cases {
            jobs.push(json!({"text": text, "allowed": allowed, "as_text": as_text, "max": max}));
        }
    }
    let answer = python_json(
        &python,
        "tiktoken_allowed.py",
        &json!({"rank_file": format!("{d}/ranks.tiktoken"), "sidecar": sidecar, "cases": jobs}),
    );
    let tokenizer = ByteLevelTokenizer::open(Path::new(&bytes)).unwrap();
    let answers = answer["answers"].as_array().unwrap();
    for (compared, (job, theirs)) in jobs.iter().zip(answers).enumerate() {
        let allowed: Vec<String> = serde_json::from_value(job["allowed"].clone()).unwrap();
        let text = job["text"].as_str().unwrap();
        let mut args = vec!["encode", "-t", bytes.as_str(), "--ids", "--allow-special"];
        let list = allowed.join(",");
        args.push(&list);
        if job["as_text"] == true {
            args.push("--special-as-text");
        }
        let max = job["max"].as_u64().map(|m| m.to_string());
        if let Some(max) = &max {
            args.extend(["--max-tokens", max]);
        }
        // The library's answer stands for the command's on most cases (a process each would
        // be slow); the command is run on a few.
        let others = match job["as_text"] == true {
            true => DisallowedSpecial::AsText,
            false => DisallowedSpecial::Error,
        };
        let ours = tokenizer.encode_with(
            text,
            &AllowedSpecial::Only(allowed.iter().cloned().collect()),
            others,
        );
        match (&theirs["ids"], ours) {
            (Value::Array(_), Ok(mut ours)) => {
                if let Some(max) = job["max"].as_u64() {
                    ours.truncate(max as usize);
                }
                assert_eq!(ours, ids(&theirs["ids"]), "{job}");
            }
            (Value::Null, Err(_)) => assert_eq!(theirs["error"], "disallowed"),
            (_, ours) => panic!("{job}: tiktoken {theirs}, bpe-lab {ours:?}"),
        }
        if compared % 17 == 0 {
            let out = bpe_lab_with_stdin(&args, text.as_bytes());
            match &theirs["ids"] {
                Value::Array(_) => assert_eq!(ids_of(&out), ids(&theirs["ids"]), "{job}"),
                _ => assert_eq!(out.status.code(), Some(1), "{job}"),
            }
        }
    }
}

/// `--unit line` with a byte-level tokenizer answers each line as it comes: the first line's
/// ids are read back before the second line is written.
#[test]
fn byte_level_lines_stream_line_by_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(["encode", "-m", "cl100k_base", "--ids", "--unit", "line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    stdin.write_all(b"hello world\n").unwrap();
    stdin.flush().unwrap();
    let first = receive.recv_timeout(Duration::from_secs(20));
    // Whatever happened, the child is not left waiting for input.
    stdin.write_all(b"hello\n").unwrap();
    drop(stdin);
    assert_eq!(
        first.as_deref(),
        Ok("15339 1917"),
        "the first line's ids before the second line"
    );
    assert_eq!(
        receive.recv_timeout(Duration::from_secs(20)).as_deref(),
        Ok("15339")
    );
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}

/// A byte-order mark starting the input: a lab tokenizer drops it (no `<UNK>`, offsets past
/// it); a byte-level one encodes its bytes as tiktoken does (decoding gives them back).
#[test]
fn a_byte_order_mark_is_dropped_by_the_lab_and_encoded_by_byte_level() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, bytes) = tokenizer_files(dir.path());
    let with_bom = "\u{feff}low er\nlow\n";
    let plain = bpe_lab_with_stdin(&["encode", "-t", &lab, "--ids"], "low er\nlow\n".as_bytes());
    let out = bpe_lab_with_stdin(&["encode", "-t", &lab, "--ids"], with_bom.as_bytes());
    assert_success(&out);
    assert_eq!(stdout(&out), stdout(&plain));
    assert!(!stderr(&out).contains("UNK"), "{}", stderr(&out));
    let offsets = bpe_lab_with_stdin(
        &["encode", "-t", &lab, "--json", "--offsets"],
        with_bom.as_bytes(),
    );
    let first = &json_lines(&offsets.stdout)[0];
    assert_eq!(spans(&first["offsets"])[0][0], 3, "{first}");

    let out = bpe_lab_with_stdin(&["encode", "-t", &bytes, "--ids"], with_bom.as_bytes());
    let ids: Vec<u32> = stdout(&out)
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let tokenizer = ByteLevelTokenizer::open(Path::new(&bytes)).unwrap();
    assert_eq!(tokenizer.decode_bytes(&ids).unwrap(), with_bom.as_bytes());
}

/// --threads where it cannot apply (a byte-level tokenizer whose own --regex has no place to
/// cut text) is said once on stderr; --split with a byte-level tokenizer is refused.
#[test]
fn flags_that_do_not_apply_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let d = path_str(dir.path());
    fs::write(dir.path().join("corpus.txt"), corpus()).unwrap();
    assert_success(&bpe_lab(&[
        "train",
        "--byte-level",
        "--regex",
        r"\S+|\s+",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        "10",
        "--output",
        &format!("{d}/regex.json"),
    ]));
    let out = bpe_lab(&[
        "encode",
        "-t",
        &format!("{d}/regex.json"),
        "--threads",
        "2",
        "low er",
    ]);
    assert_success(&out);
    assert_eq!(
        stderr(&out).matches("--threads 2").count(),
        1,
        "{}",
        stderr(&out)
    );
    let split = bpe_lab(&[
        "encode",
        "-t",
        &format!("{d}/regex.json"),
        "--split",
        "whitespace",
        "low",
    ]);
    assert_failure(&split, 2, &["--split"]);
}
