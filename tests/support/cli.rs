//! Running the built `bpe-lab` binary as a user would, and checking what it says.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `bpe-lab` with `args` and an empty standard input.
pub fn bpe_lab(args: &[&str]) -> Output {
    bpe_lab_with_stdin(args, b"")
}

/// Runs `bpe-lab` with `args`, feeding `input` to its standard input.
pub fn bpe_lab_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bpe-lab binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread so a large input cannot deadlock against a full stdout.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

/// Runs `bpe-lab` with `args` and the environment variables `env` set.
pub fn bpe_lab_with_env(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command.args(args).stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the bpe-lab binary runs")
}

/// Runs `bpe-lab` with `args`, with `path_first` (if any) put before the PATH.
pub fn bpe_lab_with_path(args: &[&str], path_first: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command.args(args).stdin(Stdio::null());
    if let Some(dir) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![dir.to_owned()];
        dirs.extend(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    command.output().expect("the bpe-lab binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// Names in `dir`, sorted: to see that nothing (such as a temp file) was left behind.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status.code(),
        stderr(output)
    );
}

/// A failure with exit status `code` whose `error: ...` message contains every one of `needles`.
pub fn assert_failure(output: &Output, code: i32, needles: &[&str]) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(code), "stderr: {err}");
    assert!(err.starts_with("error: "), "stderr: {err}");
    for needle in needles {
        assert!(err.contains(needle), "expected {needle:?} in stderr: {err}");
    }
}

/// A byte-level tokenizer trained with `merges` merges on `corpus` (written to
/// `dir/corpus.txt`) into `dir/bytes.json`, and its tiktoken export `dir/ranks.tiktoken` with
/// its sidecar: the files the bad-input tables break copies of. Returns the rank file's text
/// and the sidecar's.
pub fn byte_level_rank_files(dir: &Path, corpus: &str, merges: usize) -> (String, String) {
    let d = path_str(dir);
    fs::write(dir.join("corpus.txt"), corpus).unwrap();
    assert_success(&bpe_lab(&[
        "train",
        "--byte-level",
        "--input",
        &format!("{d}/corpus.txt"),
        "--merges",
        &merges.to_string(),
        "--output",
        &format!("{d}/bytes.json"),
    ]));
    assert_success(&bpe_lab(&[
        "export",
        "-t",
        &format!("{d}/bytes.json"),
        "--format",
        "tiktoken",
        "--output",
        &format!("{d}/ranks.tiktoken"),
    ]));
    (
        fs::read_to_string(dir.join("ranks.tiktoken")).unwrap(),
        fs::read_to_string(dir.join("ranks.tiktoken.json")).unwrap(),
    )
}
