//! Encodes a text file (one paragraph per line) with a merge list, and reports the throughput.
//!
//! ```text
//! cargo run --release --example encode_file -- MERGES.json FILE
//! ```
//!
//! `MERGES.json` is a JSON array of `[left, right]` pairs in rank order. Used by
//! `scripts/bench/compare.sh` to time `Encoder` against Hugging Face tokenizers on the same
//! merges; prints one line of JSON on stdout. Only the encoding is timed, not reading files.

use std::process::ExitCode;
use std::time::Instant;

use bpe_lab::Encoder;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("encode_file: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [merges_path, text_path] = args.as_slice() else {
        return Err("usage: encode_file MERGES.json FILE".into());
    };
    let read =
        |path: &str| std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"));
    let merges: Vec<(String, String)> = serde_json::from_str(&read(merges_path)?).map_err(|e| {
        format!("{merges_path}: expected a JSON array of [left, right] string pairs: {e}")
    })?;
    let text = read(text_path)?;

    let start = Instant::now();
    let mut encoder = Encoder::new(&merges);
    let mut out = Vec::new();
    let mut tokens = 0;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        out.clear();
        encoder.encode_paragraph_into(line, &mut out);
        tokens += out.len();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"tokens\": {tokens}, \"bytes\": {}, \"encode_s\": {secs:.4}, \"merges\": {}}}",
        text.len(),
        merges.len()
    );
    Ok(())
}
