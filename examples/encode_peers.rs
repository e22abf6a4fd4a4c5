//! The Rust peers of the encoding benchmark (scripts/bench/encode_bytes.sh), in one process:
//! tiktoken-rs and bpe-openai on OpenAI's encodings, on one whole text.
//!
//!     cargo run --release -p bpe-lab --no-default-features --features bench-peers \
//!         --example encode_peers -- FILE --encoding cl100k_base --ids REF.u32 \
//!         --blocks BLOCKS.json [--runs 1]
//!
//! One thread encodes the whole text in one call; two threads take the blocks of BLOCKS.json
//! (byte offsets where the text is cut, the same blocks Python tiktoken's
//! `encode_ordinary_batch` gets) from a shared counter, as a thread pool does. Before anything
//! is timed, every peer's ids (whole text, and the blocks joined) are compared with REF.u32
//! (the reference ids, little-endian u32, written by Python tiktoken); a peer whose ids differ
//! is reported and not timed. Prints one JSON object: per peer and thread count, the seconds of
//! each run, or why it was not timed.
//!
//! Helpers for the driver, each writing a file and stopping: `--write-ranks PATH` (the rank
//! file for Python tiktoken, read out of tiktoken-rs: nothing downloaded), `--write-pattern
//! PATH`, `--write-hf PATH` (the encoding as a Hugging Face tokenizer.json).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bpe_lab::tokenizer::OpenAiEncoding;

type Encoder<'a> = Box<dyn Fn(&str) -> Vec<u32> + Sync + 'a>;

/// The ids of the blocks `text[cuts[i]..cuts[i + 1]]` on `threads` threads, joined in order.
fn on_blocks(text: &str, cuts: &[usize], threads: usize, encode: &Encoder) -> Vec<u32> {
    let blocks: Vec<&str> = cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<u32>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(block) = blocks.get(i) else { break };
                        mine.push((i, encode(block)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().flat_map(|(_, ids)| ids).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .expect("usage: encode_peers FILE --encoding NAME ...");
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].clone())
    };
    let encoding: OpenAiEncoding = flag("--encoding")
        .unwrap_or_else(|| "cl100k_base".into())
        .parse()
        .unwrap();
    if let Some(path) = flag("--write-pattern") {
        std::fs::write(path, encoding.pattern().regex()).unwrap();
        return;
    }
    if let Some(path) = flag("--write-ranks") {
        let ours = encoding.tokenizer().unwrap();
        let mut out = std::fs::File::create(path).unwrap();
        bpe_lab::tokenizer::tiktoken::write_tiktoken(&mut out, ours.tokens()).unwrap();
        return;
    }
    if let Some(path) = flag("--write-hf") {
        encoding.tokenizer().unwrap().export_hf(&path).unwrap();
        return;
    }
    let runs: usize = flag("--runs").map_or(1, |r| r.parse().unwrap());
    let text = std::fs::read_to_string(file).unwrap();
    let reference: Vec<u32> = std::fs::read(flag("--ids").expect("--ids REF.u32"))
        .unwrap()
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let cuts: Vec<usize> =
        serde_json::from_str(&std::fs::read_to_string(flag("--blocks").unwrap()).unwrap()).unwrap();

    let tiktoken = match encoding {
        OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase => tiktoken_rs::r50k_base(),
        OpenAiEncoding::P50kBase => tiktoken_rs::p50k_base(),
        OpenAiEncoding::P50kEdit => tiktoken_rs::p50k_edit(),
        OpenAiEncoding::Cl100kBase => tiktoken_rs::cl100k_base(),
        OpenAiEncoding::O200kBase => tiktoken_rs::o200k_base(),
        OpenAiEncoding::O200kHarmony => tiktoken_rs::o200k_harmony(),
    }
    .unwrap();
    let rust_gems = match encoding {
        OpenAiEncoding::Cl100kBase => Some(bpe_openai::cl100k_base()),
        OpenAiEncoding::O200kBase => Some(bpe_openai::o200k_base()),
        _ => None,
    };
    let mut peers: Vec<(&str, Encoder)> = vec![(
        "tiktoken-rs",
        Box::new(|t: &str| tiktoken.encode_ordinary(t)),
    )];
    if let Some(bpe) = rust_gems {
        peers.push(("bpe-openai", Box::new(move |t: &str| bpe.encode(t))));
    }

    let mut results = serde_json::Map::new();
    for (name, encode) in &peers {
        // Ids first: the whole text, and the blocks joined.
        let whole = encode(&text);
        let blocks = on_blocks(&text, &cuts, 2, encode);
        for (threads, ids) in [(1, &whole), (2, &blocks)] {
            let key = format!("{name}/{threads}");
            if *ids != reference {
                let at = ids
                    .iter()
                    .zip(&reference)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ids.len().min(reference.len()));
                results.insert(
                    key,
                    serde_json::json!({"not_timed": format!(
                        "ids differ from Python tiktoken's at id {at} ({} ids against {})",
                        ids.len(), reference.len())}),
                );
                continue;
            }
            let mut seconds = Vec::new();
            for _ in 0..runs {
                let started = Instant::now();
                let ids = if threads == 1 {
                    encode(&text)
                } else {
                    on_blocks(&text, &cuts, 2, encode)
                };
                seconds.push(started.elapsed().as_secs_f64());
                std::hint::black_box(ids);
            }
            results.insert(key, serde_json::json!({ "seconds": seconds }));
        }
    }
    println!(
        "{}",
        serde_json::json!({"encoding": encoding.name(), "bytes": text.len(), "results": results})
    );
}
