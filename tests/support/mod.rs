//! Helpers shared by the integration tests: a seeded generator, running Python, and whether
//! the sandbox is there.
#![allow(dead_code)] // each test file uses a different part

pub mod alone;
pub mod cli;
pub mod lab03;
pub mod notebooks;
pub mod saved_cases;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// A small seeded generator (splitmix64), so generated cases are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        bpe_lab::rng::splitmix64(&mut self.0)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// Up to `max_len` items of `alphabet`, concatenated.
    pub fn text(&mut self, alphabet: &[&str], max_len: usize) -> String {
        (0..self.below(max_len + 1))
            .map(|_| alphabet[self.below(alphabet.len())])
            .collect()
    }
}

/// Runs `tests/python/<script>` with `input` as JSON on stdin and returns its JSON stdout.
/// Fails (never skips) when python3 cannot run.
pub fn python_script(script: &str, input: &Value) -> Value {
    python_json(std::path::Path::new("python3"), script, input)
}

/// Runs `tests/python/<script>` under `python` with `input` as JSON on stdin and returns its
/// JSON stdout. The input is written from a thread of its own, so a script that answers while
/// it reads a large input cannot block on a full pipe.
pub fn python_json(python: &std::path::Path, script: &str, input: &Value) -> Value {
    let path = format!("{}/tests/python/{script}", env!("BPE_LAB_REPO"));
    let mut child = Command::new(python)
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{} is needed for {script} and could not start: {e}",
                python.display()
            )
        });
    let bytes = serde_json::to_vec(input).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the script printed JSON")
}

/// The Python of the parity tests (BPE_LAB_HF_PYTHON, which ./scripts/test points at .venv),
/// checked to import `modules` (e.g. "tiktoken, tokenizers"); `None`, with a note, when the
/// variable is unset. Set but broken is a failure, never a skip.
pub fn parity_python(modules: &str) -> Option<std::path::PathBuf> {
    let Some(python) = std::env::var_os("BPE_LAB_HF_PYTHON") else {
        eprintln!(
            "skipped: BPE_LAB_HF_PYTHON is not set (./scripts/test installs {modules} into \
             .venv and sets it)"
        );
        return None;
    };
    let python = std::path::PathBuf::from(python);
    let output = Command::new(&python)
        .args(["-c", &format!("import {modules}")])
        .output()
        .unwrap_or_else(|e| panic!("BPE_LAB_HF_PYTHON={} cannot run: {e}", python.display()));
    assert!(
        output.status.success(),
        "BPE_LAB_HF_PYTHON={} cannot import {modules}: {}",
        python.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(python)
}

/// Real English: the Python language reference that ships with every CPython
/// (`pydoc_data.topics`, about 460 KB of prose and examples).
pub fn python_reference_text() -> String {
    let output = Command::new("python3")
        .args([
            "-c",
            "import pydoc_data.topics as t, sys; sys.stdout.write('\\n'.join(t.topics.values()))",
        ])
        .output()
        .expect("python3 is needed for this test and could not be started");
    assert!(output.status.success(), "python3 failed: {output:?}");
    let text = String::from_utf8(output.stdout).expect("the topics text is UTF-8");
    assert!(
        text.len() > 300_000,
        "expected a few hundred KB of text, got {} bytes",
        text.len()
    );
    text
}

/// Whether bubblewrap is installed. ./scripts/test installs it and sets
/// BPE_LAB_SANDBOX_TESTS, which makes a missing sandbox a failure rather than a skip.
pub fn sandbox_available() -> bool {
    let required = std::env::var_os("BPE_LAB_SANDBOX_TESTS").is_some();
    let present = std::process::Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        present || !required,
        "BPE_LAB_SANDBOX_TESTS is set but bubblewrap (bwrap) is not installed"
    );
    if !present {
        eprintln!("skipped: bubblewrap is not installed (./scripts/test installs it)");
    }
    present
}

/// tiktoken-rs's `assets/` in cargo's registry, at the version Cargo.lock names: the rank files
/// and GPT-2's own `vocab.bpe` and `encoder.json` it ships.
pub fn tiktoken_rs_assets() -> std::path::PathBuf {
    let lock = std::fs::read_to_string(concat!(env!("BPE_LAB_REPO"), "/Cargo.lock")).unwrap();
    let at = lock.find("name = \"tiktoken-rs\"\nversion = \"").unwrap();
    let rest = &lock[at + "name = \"tiktoken-rs\"\nversion = \"".len()..];
    let version = &rest[..rest.find('"').unwrap()];
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo")
        });
    std::fs::read_dir(home.join("registry/src"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .join(format!("tiktoken-rs-{version}/assets"))
        })
        .find(|p| p.join("vocab.bpe").exists())
        .expect("tiktoken-rs's assets in cargo's registry")
}
