//! `bpe-lab encode`, `decode`, `export` and `explain`, run as a user would run them. Expected
//! tokens come from the apply-merges problem's literal `apply_merges` with the merges and vocabulary read from
//! the file here; expected tables from the training problem's text.

use crate::support;

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bpe_lab::EOW;
use bpe_lab::bpe::oracle::apply_merges_naive;
use serde_json::Value;
use support::cli::{
    assert_failure, assert_success, bpe_lab, bpe_lab_with_stdin, path_str as p, stderr, stdout,
};
use tempfile::TempDir;

/// Training text: lowercase words, tabs and non-ASCII inside words, repeated words.
const CORPUS: &str = "the lowest tower stood by the slow river\nlow lower lowest\tnewest widest\n\
                      über älter über the river\nthe  end\n";

/// A directory with `corpus.txt` and `t.json`, the tokenizer trained on it with `extra` options.
fn trained(merges: usize, extra: &[&str]) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    fs::write(&corpus, CORPUS).unwrap();
    let tokenizer = dir.path().join("t.json");
    let merges = merges.to_string();
    let mut args = vec![
        "train",
        "-i",
        p(&corpus),
        "-m",
        &merges,
        "-o",
        p(&tokenizer),
    ];
    args.extend_from_slice(extra);
    assert_success(&bpe_lab(&args));
    (dir, tokenizer)
}

/// The file's merges and vocabulary, read here.
struct FileTokenizer {
    merges: Vec<(String, String)>,
    vocab: Vec<String>,
    ids: HashMap<String, u32>,
}

impl FileTokenizer {
    fn read(path: &Path) -> FileTokenizer {
        let json: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let merges = serde_json::from_value(json["merges"].clone()).unwrap();
        let vocab: Vec<String> = serde_json::from_value(json["vocab"].clone()).unwrap();
        let ids = vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        FileTokenizer { merges, vocab, ids }
    }

    /// The oracle's tokens for one line under the lab's split (a character outside the
    /// vocabulary is `<UNK>`).
    fn tokens(&self, line: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        for word in line.split(' ') {
            let mut symbols: Vec<String> = word.chars().map(String::from).collect();
            symbols.push(EOW.to_string());
            for token in apply_merges_naive(&symbols, &self.merges) {
                if self.ids.contains_key(&token) {
                    tokens.push(token);
                } else {
                    tokens.push("<UNK>".to_string());
                }
            }
        }
        tokens
    }

    fn ids(&self, line: &str) -> Vec<u32> {
        self.tokens(line).iter().map(|t| self.ids[t]).collect()
    }
}

fn join<T: ToString>(items: &[T]) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

/// Input lines with what can go wrong: CRLF, an empty line, double and edge spaces, unknown
/// characters (`z`, `ß`, `😀`), a last line without a newline.
const TEXT: &str = "the lowest river\r\n\n  the  slow   tower \nzebra über ßtraße 😀\nlow";

#[test]
fn encode_gives_the_oracles_tokens_and_ids_line_by_line() {
    let (dir, tokenizer) = trained(40, &[]);
    let file = FileTokenizer::read(&tokenizer);
    let input = dir.path().join("text.txt");
    fs::write(&input, TEXT).unwrap();
    let lines: Vec<&str> = TEXT
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();

    let run = bpe_lab(&["encode", "-t", p(&tokenizer), "-i", p(&input)]);
    assert_success(&run);
    let expected: String = lines.iter().map(|l| join(&file.tokens(l)) + "\n").collect();
    assert_eq!(stdout(&run), expected);
    // Unknown characters are reported with the line of the first.
    let note = stderr(&run);
    assert!(
        note.contains("became <UNK>") && note.contains("line 4"),
        "{note}"
    );
    let unknown = expected.matches("<UNK>").count();
    assert!(
        note.contains(&format!("note: {unknown} characters")),
        "{note}"
    );

    let run = bpe_lab_with_stdin(&["encode", "-t", p(&tokenizer), "--ids"], TEXT.as_bytes());
    assert_success(&run);
    let expected: String = lines.iter().map(|l| join(&file.ids(l)) + "\n").collect();
    assert_eq!(stdout(&run), expected);
    // An empty line is one empty word: the single token </w>.
    assert_eq!(
        stdout(&run).lines().nth(1),
        Some(file.ids[EOW].to_string().as_str())
    );
}

#[test]
fn encode_json_and_whitespace_split() {
    let (_dir, tokenizer) = trained(40, &[]);
    let file = FileTokenizer::read(&tokenizer);
    let run = bpe_lab_with_stdin(
        &[
            "encode",
            "-t",
            p(&tokenizer),
            "--json",
            "--split",
            "whitespace",
        ],
        b"  the\tlowest  river \n",
    );
    assert_success(&run);
    let value: Value = serde_json::from_str(stdout(&run).trim_end()).unwrap();
    // Python's split(): the words without the whitespace runs.
    let expected = file.tokens("the lowest river");
    assert_eq!(value["tokens"], serde_json::json!(expected));
    let ids: Vec<u32> = expected.iter().map(|t| file.ids[t]).collect();
    assert_eq!(value["ids"], serde_json::json!(ids));
}

/// A large input (several blocks, shared out to two threads) gives the same output as one
/// thread, and the oracle's on every line.
#[test]
fn encode_on_two_threads_equals_one_and_the_oracle() {
    let (dir, tokenizer) = trained(60, &[]);
    let file = FileTokenizer::read(&tokenizer);
    let words = [
        "the", "lowest", "tower", "stood", "slow", "river", "newer", "wider", "über", "zz", "",
    ];
    let mut state = 7u64;
    let mut text = String::new();
    while text.len() < 600_000 {
        let mut line = Vec::new();
        for _ in 0..(state % 23) {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            line.push(words[(state >> 33) as usize % words.len()]);
        }
        text.push_str(&line.join(" "));
        text.push('\n');
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
    }
    let input = dir.path().join("big.txt");
    fs::write(&input, &text).unwrap();
    let one = bpe_lab(&[
        "encode",
        "-t",
        p(&tokenizer),
        "-i",
        p(&input),
        "--ids",
        "--threads",
        "1",
    ]);
    let two = bpe_lab(&[
        "encode",
        "-t",
        p(&tokenizer),
        "-i",
        p(&input),
        "--ids",
        "--threads",
        "2",
    ]);
    assert_success(&one);
    assert_success(&two);
    assert_eq!(one.stdout, two.stdout);
    let mut cache: HashMap<&str, String> = HashMap::new();
    let expected: String = text
        .lines()
        .map(|line| {
            cache
                .entry(line)
                .or_insert_with(|| join(&file.ids(line)))
                .clone()
                + "\n"
        })
        .collect();
    assert_eq!(stdout(&two), expected);
}

#[test]
fn decode_gives_each_line_back() {
    let (dir, tokenizer) = trained(40, &[]);
    let known = "the lowest river\n\n  the  slow   tower \nlow\n";
    let ids = bpe_lab_with_stdin(&["encode", "-t", p(&tokenizer), "--ids"], known.as_bytes());
    assert_success(&ids);
    let path = dir.path().join("ids.txt");
    fs::write(&path, &ids.stdout).unwrap();
    let run = bpe_lab(&["decode", "-t", p(&tokenizer), "-i", p(&path)]);
    assert_success(&run);
    assert_eq!(stdout(&run), known);

    // Unknown characters read <UNK>; --json keeps one object per line.
    let ids = bpe_lab_with_stdin(
        &["encode", "-t", p(&tokenizer), "--ids"],
        "zebra".as_bytes(),
    );
    let run = bpe_lab_with_stdin(&["decode", "-t", p(&tokenizer), "--json"], &ids.stdout);
    assert_success(&run);
    let value: Value = serde_json::from_str(stdout(&run).trim_end()).unwrap();
    let file = FileTokenizer::read(&tokenizer);
    let expected: String = "zebra"
        .chars()
        .map(|c| match file.ids.contains_key(&c.to_string()) {
            true => c.to_string(),
            false => "<UNK>".to_string(),
        })
        .collect();
    assert!(expected.contains("<UNK>"));
    assert_eq!(value["text"], expected);
}

#[test]
fn decode_refuses_bad_ids_naming_the_line() {
    let (dir, tokenizer) = trained(10, &[]);
    let size = FileTokenizer::read(&tokenizer).vocab.len();
    let path = dir.path().join("ids.txt");
    fs::write(&path, format!("3 4\n5 {size} 6\n")).unwrap();
    let run = bpe_lab(&["decode", "-t", p(&tokenizer), "-i", p(&path)]);
    assert_failure(
        &run,
        1,
        &[
            "ids.txt",
            "line 2",
            &format!("id {size}"),
            "item 2",
            "not in the vocabulary",
        ],
    );
    fs::write(&path, "3 4\n\n7 seven\n").unwrap();
    let run = bpe_lab(&["decode", "-t", p(&tokenizer), "-i", p(&path)]);
    assert_failure(
        &run,
        1,
        &["ids.txt", "line 3", "\"seven\"", "not a token id"],
    );
}

#[test]
fn bad_inputs_and_tokenizer_files_are_named() {
    let (dir, tokenizer) = trained(10, &[]);
    let input = dir.path().join("bad.txt");
    fs::write(&input, b"fine\nstill fine\nbad \xFF byte\n").unwrap();
    let run = bpe_lab(&["encode", "-t", p(&tokenizer), "-i", p(&input)]);
    assert_failure(&run, 1, &["bad.txt", "line 3", "UTF-8"]);

    let missing = dir.path().join("nope.json");
    let run = bpe_lab(&["encode", "-t", p(&missing)]);
    assert_failure(&run, 1, &["nope.json", "no such file"]);

    let text = fs::read_to_string(&tokenizer).unwrap();
    let truncated = dir.path().join("truncated.json");
    fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    for command in ["encode", "decode"] {
        let run = bpe_lab(&[command, "-t", p(&truncated)]);
        assert_failure(&run, 1, &["truncated.json", "truncated"]);
    }
    let future = dir.path().join("future.json");
    fs::write(&future, text.replace("\"version\": 2", "\"version\": 9")).unwrap();
    let run = bpe_lab(&[
        "export",
        "-t",
        p(&future),
        "-o",
        p(&dir.path().join("hf.json")),
    ]);
    assert_failure(&run, 1, &["future.json", "newer bpe-lab"]);
    assert!(!dir.path().join("hf.json").exists());

    let run = bpe_lab(&["encode", "-t", p(&tokenizer), "--ids", "--json"]);
    assert_failure(&run, 2, &["--json"]);
}

/// `encode … | head -1`: the reader goes away; bpe-lab stops quietly with status 0.
#[test]
fn a_closed_pipe_ends_encode_quietly() {
    let (dir, tokenizer) = trained(10, &[]);
    let input = dir.path().join("many.txt");
    fs::write(&input, "the lowest river\n".repeat(400_000)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(["encode", "-t", p(&tokenizer), "-i", p(&input)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The pipe closes here, with most of the output unread.
    let output = child.wait_with_output().unwrap();
    assert!(!first.is_empty());
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    assert!(stderr(&output).is_empty(), "stderr: {}", stderr(&output));
}

#[test]
fn export_writes_a_hugging_face_file_with_the_same_vocabulary() {
    let (dir, tokenizer) = trained(40, &["--vocab-order", "sorted"]);
    let file = FileTokenizer::read(&tokenizer);
    let out = dir.path().join("hf.json");
    let run = bpe_lab(&[
        "export",
        "-t",
        p(&tokenizer),
        "--format",
        "hf",
        "-o",
        p(&out),
    ]);
    assert_success(&run);
    assert!(stdout(&run).is_empty());
    let json: Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let vocab = json["model"]["vocab"].as_object().unwrap();
    assert_eq!(vocab.len(), file.vocab.len());
    for (id, token) in file.vocab.iter().enumerate() {
        assert_eq!(vocab[&token.replace(EOW, "\u{E000}")], id, "{token}");
    }
    assert_eq!(
        json["model"]["merges"].as_array().unwrap().len(),
        file.merges.len()
    );

    let run = bpe_lab(&["export", "-t", p(&tokenizer), "-o", p(&tokenizer)]);
    assert_failure(&run, 2, &["tokenizer file"]);
    let run = bpe_lab(&[
        "export",
        "-t",
        p(&tokenizer),
        "--format",
        "sentencepiece",
        "-o",
        p(&out),
    ]);
    assert_failure(&run, 2, &["sentencepiece"]);
}

/// A corpus that spells `</w>`: the merges build the marker, and the export says why it
/// cannot keep the ids.
#[test]
fn export_refuses_a_tokenizer_hugging_face_would_read_differently() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.txt");
    fs::write(&corpus, "</w> </w> </w>\n").unwrap();
    let tokenizer = dir.path().join("t.json");
    // First-seen merges (<,/), then (</,w), then (</w,>): the last spells the marker.
    let args = [
        "train",
        "-i",
        p(&corpus),
        "-m",
        "3",
        "--tie-break",
        "first-seen",
        "-o",
        p(&tokenizer),
    ];
    assert_success(&bpe_lab(&args));
    let out = dir.path().join("hf.json");
    let run = bpe_lab(&["export", "-t", p(&tokenizer), "-o", p(&out)]);
    assert_failure(
        &run,
        1,
        &["t.json", "merge 2", "spells the end-of-word marker"],
    );
    assert!(!out.exists());
}

/// The training problem, example 1, with the rows of its table.
#[test]
fn explain_prints_seed_000s_table() {
    let run = bpe_lab(&["explain", "--merges", "3", "--no-eow", "abcab"]);
    assert_success(&run);
    let out = stdout(&run);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows[0], "| round | pair counts | winner | corpus after |");
    assert!(rows[1].starts_with("| 1 | (a,b)=2, (b,c)=1, (c,a)=1 | (a,b) → \"ab\": most frequent"));
    assert!(rows[1].ends_with("| [[\"ab\",\"c\",\"ab\"]] |"));
    assert!(rows[2].starts_with("| 2 | (ab,c)=1, (c,ab)=1 | (ab,c) → \"abc\": tie at 1"));
    assert!(rows[2].contains("lexicographic: \"ab\" < \"c\""));
    assert!(rows[3].starts_with("| 3 | (abc,ab)=1 | (abc,ab)"));
    assert!(rows[3].ends_with("| [[\"abcab\"]] |"));

    // Example 3: frequency beats lexicographic order; the first-seen policy is named.
    let run = bpe_lab(&[
        "explain",
        "-m",
        "1",
        "--no-eow",
        "--tie-break",
        "first-seen",
        "ab",
        "xyxyxy",
    ]);
    assert_success(&run);
    assert!(
        stdout(&run).contains("(x,y) → \"xy\": most frequent (3 > 2)"),
        "{}",
        stdout(&run)
    );
    let run = bpe_lab(&["explain", "-m", "1", "--tie-break", "first-seen", "cd ab"]);
    assert!(
        stdout(&run).contains("first-seen: word 1 symbol 1 comes before word 1 symbol 2"),
        "{}",
        stdout(&run)
    );
}

#[test]
fn explain_json_and_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("small.txt");
    fs::write(&input, "low lower\n\nlowest\n").unwrap();
    let run = bpe_lab(&["explain", "-m", "2", "-i", p(&input), "--json"]);
    assert_success(&run);
    let json: Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(json["initial"].as_array().unwrap().len(), 3);
    assert_eq!(json["rounds"][0]["winner"], serde_json::json!(["l", "o"]));
    assert_eq!(json["rounds"][1]["winner"], serde_json::json!(["lo", "w"]));
    assert_eq!(
        json["rounds"][1]["corpus_after"][2],
        serde_json::json!(["low", "e", "s", "t", EOW])
    );
    assert_eq!(json["tie_break"], "lexicographic");
}

#[test]
fn explain_refuses_what_it_cannot_show_well() {
    let many = "word ".repeat(100);
    let run = bpe_lab(&["explain", "-m", "2", &many]);
    assert_failure(&run, 1, &["101 words", "at most 64", "bpe-lab train"]);
    let run = bpe_lab(&["explain", "-m", "500", "ab"]);
    assert_failure(&run, 2, &["at most 100"]);
    let run = bpe_lab(&["explain", "-m", "2"]);
    assert_failure(&run, 2, &["PARAGRAPH", "required"]);
    let run = bpe_lab(&["explain", "-m", "2", "-i", "x.txt", "ab"]);
    assert_failure(&run, 2, &["cannot be used with"]);
}

#[test]
fn help_explains_the_new_commands() {
    for (command, needles) in [
        (
            "encode",
            &[
                "--ids",
                "--split",
                "<UNK>",
                "one output line per input line",
            ][..],
        ),
        ("decode", &["</w>", "<UNK>", "--json"][..]),
        ("export", &["Hugging Face", "U+E000", "empty text"][..]),
        (
            "explain",
            &[
                "the training problem",
                "--tie-break",
                "--no-eow",
                "at most 64 words",
            ][..],
        ),
    ] {
        let run = bpe_lab(&[command, "--help"]);
        assert_success(&run);
        let help = stdout(&run);
        for needle in needles {
            assert!(
                help.contains(needle),
                "{command} --help lacks {needle:?}:\n{help}"
            );
        }
    }
}
