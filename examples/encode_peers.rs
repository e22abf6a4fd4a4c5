//! Encoding OpenAI's `cl100k_base` (or another encoding) in one process: bpe-lab's byte-level
//! tokenizer, tiktoken-rs and bpe-openai, on 1 and 2 threads, ids checked identical on every
//! line before anything is timed.
//!
//!     cargo run --release --no-default-features --features cli,bench-peers \
//!         --example encode_peers -- FILE [--encoding cl100k_base] [--runs 5]
//!
//! The file is read as lines (each line one text, its newline kept, as a batch of documents);
//! every encoder gets the same lines and the time is the median of `--runs` passes over all of
//! them. Prints one JSON object: lines, bytes, tokens and, per encoder and thread count, the
//! median seconds and MB/s. `--write-ranks PATH` writes the encoding's rank file (for Python
//! tiktoken) and stops; `--check-ids PATH` also compares bpe-lab's ids with a JSON list of
//! every line's ids (Python tiktoken's, from scripts/bench/bytelevel.py). `--write-pattern
//! PATH` writes the encoding's split pattern (for Python tiktoken, which must split as the
//! encoding does) and stops.

use std::time::Instant;

use bpe_lab::tokenizer::OpenAiEncoding;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

/// Runs `encode` over the lines on `threads` threads (contiguous runs), returning the ids.
fn on_threads<F>(lines: &[&str], threads: usize, encode: &F) -> Vec<Vec<u32>>
where
    F: Fn(&str) -> Vec<u32> + Sync,
{
    if threads == 1 {
        return lines.iter().map(|l| encode(l)).collect();
    }
    let share = lines.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(share)
            .map(|run| scope.spawn(move || run.iter().map(|l| encode(l)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .expect("usage: encode_peers FILE [--encoding NAME] [--runs N]");
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].clone())
    };
    let encoding: OpenAiEncoding = flag("--encoding")
        .unwrap_or_else(|| "cl100k_base".into())
        .parse()
        .unwrap();
    let runs: usize = flag("--runs").map_or(5, |r| r.parse().unwrap());
    let ours = encoding.tokenizer().unwrap();
    if let Some(path) = flag("--write-pattern") {
        std::fs::write(path, encoding.pattern().regex()).unwrap();
        return;
    }
    if let Some(path) = flag("--write-ranks") {
        // The rank file for Python tiktoken, from the crate's ranks (nothing downloaded).
        let mut out = std::fs::File::create(path).unwrap();
        bpe_lab::tokenizer::tiktoken::write_tiktoken(&mut out, ours.tokens()).unwrap();
        return;
    }
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let tiktoken = match encoding {
        OpenAiEncoding::R50kBase => tiktoken_rs::r50k_base(),
        OpenAiEncoding::Cl100kBase => tiktoken_rs::cl100k_base(),
        OpenAiEncoding::O200kBase => tiktoken_rs::o200k_base(),
    }
    .unwrap();
    let rust_gems = match encoding {
        OpenAiEncoding::Cl100kBase => Some(bpe_openai::cl100k_base()),
        OpenAiEncoding::O200kBase => Some(bpe_openai::o200k_base()),
        OpenAiEncoding::R50kBase => None,
    };

    type Encoder<'a> = Box<dyn Fn(&str) -> Vec<u32> + Sync + 'a>;
    let mut encoders: Vec<(&str, Encoder)> = vec![
        (
            "bpe-lab",
            Box::new(|t: &str| ours.encode_ordinary(t).unwrap()),
        ),
        (
            "tiktoken-rs",
            Box::new(|t: &str| tiktoken.encode_ordinary(t)),
        ),
    ];
    if let Some(bpe) = rust_gems {
        encoders.push(("bpe-openai", Box::new(move |t: &str| bpe.encode(t))));
    }

    // Identical ids first: with Python tiktoken's, when given, and with tiktoken-rs's.
    if let Some(path) = flag("--check-ids") {
        let theirs: Vec<Vec<u32>> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(theirs.len(), lines.len(), "Python tiktoken saw other lines");
        for (line, ids) in lines.iter().zip(&theirs) {
            assert_eq!(&ours.encode_ordinary(line).unwrap(), ids, "{line:?}");
        }
    }
    let reference = on_threads(&lines, 1, &encoders[1].1);
    let tokens: usize = reference.iter().map(Vec::len).sum();
    let mut differing = serde_json::Map::new();
    for (name, encode) in &encoders {
        let ids = on_threads(&lines, 2, encode);
        let bad = ids.iter().zip(&reference).filter(|(a, b)| a != b).count();
        if *name == "bpe-lab" {
            assert_eq!(bad, 0, "bpe-lab differs from tiktoken-rs on {bad} lines");
        }
        differing.insert(name.to_string(), bad.into());
    }

    let mut results = serde_json::Map::new();
    for threads in [1, 2] {
        for (name, encode) in &encoders {
            let mut times = Vec::new();
            for _ in 0..runs {
                let started = Instant::now();
                let ids = on_threads(&lines, threads, encode);
                times.push(started.elapsed().as_secs_f64());
                std::hint::black_box(ids);
            }
            let secs = median(times);
            results.insert(
                format!("{name}/{threads}"),
                serde_json::json!({"seconds": secs, "mb_per_s": text.len() as f64 / 1e6 / secs}),
            );
        }
    }
    println!(
        "{}",
        serde_json::json!({
            "encoding": encoding.name(), "lines": lines.len(), "bytes": text.len(),
            "tokens": tokens, "lines_differing_from_tiktoken": differing, "results": results,
        })
    );
}
