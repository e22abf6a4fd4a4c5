//! Writes a seeded synthetic Zipfian English-like corpus, one paragraph per line.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --mb 48 --seed 1 --out /tmp/zipf48.txt
//! ```
//!
//! The same generator feeds `cargo bench --bench engine`, so a file written here with the same
//! size and seed is the corpus the bench measured. Prints size, lines, tokens and distinct
//! space-split tokens to stderr.

// Shared with the bench harness; only part of it is used here.
#[allow(dead_code)]
#[path = "../benches/support/zipf.rs"]
mod zipf;

use std::collections::HashSet;
use std::process::ExitCode;

const USAGE: &str =
    "usage: gen_corpus [--mb N] [--seed N] [--out PATH]   (defaults: 48, 1, stdout)";

fn main() -> ExitCode {
    let (mut mb, mut seed, mut out): (f64, u64, Option<String>) = (48.0, 1, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        let parsed = match arg.as_str() {
            "--mb" => value("--mb").and_then(|v| {
                v.parse()
                    .map(|n| mb = n)
                    .map_err(|_| format!("--mb: expected a number, got {v:?}"))
            }),
            "--seed" => value("--seed").and_then(|v| {
                v.parse()
                    .map(|n| seed = n)
                    .map_err(|_| format!("--seed: expected an integer, got {v:?}"))
            }),
            "--out" => value("--out").map(|v| out = Some(v)),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => Err(format!("unknown argument {other:?}\n{USAGE}")),
        };
        if let Err(message) = parsed {
            eprintln!("gen_corpus: {message}");
            return ExitCode::FAILURE;
        }
    }

    let text = zipf::generate((mb * 1e6) as usize, seed);
    let written = match &out {
        // Temp file then rename, so an interrupted run never leaves a truncated corpus behind.
        Some(path) => {
            let tmp = format!("{path}.tmp");
            std::fs::write(&tmp, &text).and_then(|()| std::fs::rename(&tmp, path))
        }
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()),
    };
    if let Err(e) = written {
        eprintln!(
            "gen_corpus: cannot write {}: {e}",
            out.as_deref().unwrap_or("stdout")
        );
        return ExitCode::FAILURE;
    }

    let mut distinct = HashSet::new();
    let (mut lines, mut tokens) = (0usize, 0usize);
    for line in text.lines() {
        lines += 1;
        for token in line.split(' ') {
            tokens += 1;
            distinct.insert(token);
        }
    }
    eprintln!(
        "gen_corpus: {:.1} MB, seed {seed}, {lines} lines, {tokens} tokens, {} distinct tokens{}",
        text.len() as f64 / 1e6,
        distinct.len(),
        out.map(|p| format!(" -> {p}")).unwrap_or_default()
    );
    ExitCode::SUCCESS
}
