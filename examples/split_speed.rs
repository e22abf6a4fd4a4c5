//! The hand-written splitters of GPT-2's, GPT-4's and GPT-4o's patterns beside fancy-regex
//! running the same pattern, in one process: chunks checked identical on the whole file first,
//! then the median of `--runs` passes of each (MB/s). What the hand-written splitters buy an
//! encoder.
//!
//!     cargo run --release --no-default-features --example split_speed -- FILE [--runs 5]

use std::time::Instant;

use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args.first().expect("usage: split_speed FILE [--runs N]");
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .map_or(5, |i| args[i + 1].parse().unwrap());
    let text = std::fs::read_to_string(file).unwrap();
    let mb = text.len() as f64 / 1e6;
    println!(
        "| split pattern ({mb:.1} MB, median of {runs}) | chunks | hand-written MB/s | fancy-regex MB/s | ratio |"
    );
    println!("|---|---|---|---|---|");
    for pattern in [
        SplitPattern::Gpt2,
        SplitPattern::Cl100k,
        SplitPattern::O200k,
    ] {
        let splitter = Splitter::new(pattern.clone()).unwrap();
        let mut fast = Vec::new();
        splitter
            .for_each_chunk(&text, 0, text.len(), |c| fast.push(c))
            .unwrap();
        let mut regex = Vec::new();
        splitter
            .for_each_chunk_regex(&text, 0, text.len(), |c| regex.push(c))
            .unwrap();
        assert!(fast == regex, "{pattern:?}: the splitters differ");
        let time = |hand: bool| {
            let mut times = Vec::new();
            for _ in 0..runs {
                let mut n = 0usize;
                let started = Instant::now();
                if hand {
                    splitter.for_each_chunk(&text, 0, text.len(), |_| n += 1)
                } else {
                    splitter.for_each_chunk_regex(&text, 0, text.len(), |_| n += 1)
                }
                .unwrap();
                times.push(started.elapsed().as_secs_f64());
                std::hint::black_box(n);
            }
            mb / median(times)
        };
        let (hand, regex_speed) = (time(true), time(false));
        println!(
            "| {} | {} | {hand:.1} | {regex_speed:.1} | {:.1}× |",
            pattern.name().unwrap_or("user"),
            fast.len(),
            hand / regex_speed
        );
    }
}
