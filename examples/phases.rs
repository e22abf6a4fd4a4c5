//! Where training's time goes, phase by phase, beside the floor of each phase measured in the
//! same run on the same machine. Run through `scripts/bench/phases.sh`, or:
//!
//! ```text
//! cargo run --release --no-default-features --example phases -- FILE [MERGES [RUNS]]
//! ```
//!
//! Phases (as `bpe-lab train` runs them) and their floors:
//! - **read**: `fs::read_to_string` (reading and UTF-8 validation) — floor: `fs::read`, the
//!   bytes alone;
//! - **count words**: `WordCounts::from_lines` (split, count, order, intern) — floor: split the
//!   text at newlines and spaces and hash every word once with the same hash, on as many
//!   threads as counting uses, with no table;
//! - **pair index**: building the pair counts, word lists and queue — floor: hash every
//!   adjacent pair of every distinct word once;
//! - **merge loop**: choosing and merging — floor: one visit per affected word per merge,
//!   replaying exactly the words the merges rewrote, in order, and reading their symbols once,
//!   with no bookkeeping.
//!
//! Prints a markdown table of medians over RUNS runs (default 3) and the ratios, for the
//! lexicographic policy and, for the merge loop, first-seen too.

use std::hash::Hasher;
use std::hint::black_box;
use std::time::{Duration, Instant};

use bpe_lab::{TieBreak, Trainer, WordCounts};
use rustc_hash::FxHasher;

// The CLI's allocator, so the example measures what `bpe-lab` runs (feature `fast-alloc`).
#[cfg(feature = "fast-alloc")]
bpe_lab::fast_allocator!();

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: phases FILE [MERGES [RUNS]]");
        std::process::exit(2);
    };
    let number = |i: usize, default: usize| {
        args.get(i).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("expected a number, got {v:?}"))
        })
    };
    let (merges, runs) = (number(1, 30_000), number(2, 3));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut read = Samples::default();
    let mut count = Samples::default();
    let mut index = Samples::default();
    let mut merge = Samples::default();
    let mut merge_first_seen = Samples::default();
    let mut floors = [(); 4].map(|_| Samples::default());
    let mut visits = (0, 0);
    for run in 0..runs {
        eprintln!("run {}/{runs} ...", run + 1);
        // Floors first, so the page cache is as warm for the floor as for the phase.
        floors[0].time(|| black_box(std::fs::read(path).expect("readable file")).len());
        let text = read.time(|| std::fs::read_to_string(path).expect("a UTF-8 text file"));
        floors[1].time(|| hash_words(&text, threads));
        let words = count.time(|| WordCounts::from_lines(&text));
        floors[2].time(|| hash_pairs(&words));
        if run == 0 {
            // An untimed run that lists the words each merge rewrites, for the floor to replay
            // on the words as they were before training.
            let (_, profile) = Trainer::new(merges).train_profiled(words.clone(), true);
            let rewrites = profile.rewrites.expect("asked for");
            visits = (profile.word_visits, rewrites.len() as u64);
            for _ in 0..runs {
                floors[3].time(|| replay(&words, &rewrites));
            }
        }
        let (_, profile) = Trainer::new(merges).train_profiled(words.clone(), false);
        index.add(profile.pair_index);
        merge.add(profile.merge_loop);
        let (_, profile) = Trainer::new(merges)
            .tie_break(TieBreak::FirstSeen)
            .train_profiled(words, false);
        merge_first_seen.add(profile.merge_loop);
    }

    let mb = std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6);
    println!("## Where training's time goes, against the floor\n");
    println!(
        "{path}: {mb:.1} MB, {merges} merges, {threads} threads for counting (and its floor), \
         one for the rest; median of {runs} runs. The merge loop visited {} words, {} of them \
         holding the pair (the floor visits only those).\n",
        visits.0, visits.1
    );
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = load.split_whitespace().take(3).collect();
        println!(
            "Load average at the end (1, 5, 15 min): {} — other work on the machine stretches \
             every row alike; compare ratios within one run.\n",
            load.join(", ")
        );
    }
    println!("| phase | bpe-lab | floor | bpe-lab / floor | floor measures |");
    println!("|---|---|---|---|---|");
    let rows = [
        (
            "read",
            &read,
            &floors[0],
            "`fs::read`: the bytes, no UTF-8 check",
        ),
        (
            "count words",
            &count,
            &floors[1],
            "split at newlines and spaces, hash every word once (FxHash), no table",
        ),
        (
            "pair index",
            &index,
            &floors[2],
            "hash every adjacent pair of every distinct word once",
        ),
        (
            "merge loop (lexicographic)",
            &merge,
            &floors[3],
            "read each word a merge rewrites, once per merge, in the same order",
        ),
        (
            "merge loop (first-seen)",
            &merge_first_seen,
            &floors[3],
            "as above",
        ),
    ];
    for (name, phase, floor, what) in rows {
        println!(
            "| {name} | {} | {} | {:.1}× | {what} |",
            secs(phase.median()),
            secs(floor.median()),
            phase.median().as_secs_f64() / floor.median().as_secs_f64()
        );
    }
    let total = read.median() + count.median() + index.median() + merge.median();
    let floor: Duration = floors.iter().map(Samples::median).sum();
    println!(
        "| **total (lexicographic)** | **{}** | **{}** | **{:.1}×** | |",
        secs(total),
        secs(floor),
        total.as_secs_f64() / floor.as_secs_f64()
    );
    println!(
        "\nfirst-seen merge loop / lexicographic merge loop: {:.2}×",
        merge_first_seen.median().as_secs_f64() / merge.median().as_secs_f64()
    );
}

#[derive(Default)]
struct Samples(Vec<Duration>);

impl Samples {
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.add(start.elapsed());
        out
    }

    fn add(&mut self, d: Duration) {
        self.0.push(d);
    }

    fn median(&self) -> Duration {
        let mut v = self.0.clone();
        v.sort();
        v[v.len() / 2]
    }
}

fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 0.1 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// The counting floor: every word hashed once, on `threads` threads over newline-aligned
/// chunks, as `WordCounts::from_lines` divides the text.
fn hash_words(text: &str, threads: usize) -> u64 {
    let hash_chunk = |chunk: &str| {
        let mut acc = 0u64;
        for line in chunk.split('\n') {
            for word in line.split(' ') {
                let mut h = FxHasher::default();
                h.write(word.as_bytes());
                acc = acc.wrapping_add(h.finish());
            }
        }
        acc
    };
    let mut chunks = Vec::new();
    let mut rest = text;
    for k in (1..=threads).rev() {
        let cut = if k == 1 {
            rest.len()
        } else {
            let at = rest.len() / k;
            rest[at..].find('\n').map_or(rest.len(), |i| at + i + 1)
        };
        let (chunk, tail) = rest.split_at(cut);
        chunks.push(chunk);
        rest = tail;
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|&chunk| scope.spawn(move || hash_chunk(chunk)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

/// The pair-index floor: every adjacent pair of every distinct word hashed once.
fn hash_pairs(words: &WordCounts) -> u64 {
    let mut acc = 0u64;
    for w in 0..words.len() {
        for pair in words.word_ids(w).windows(2) {
            let mut h = FxHasher::default();
            h.write_u64((u64::from(pair[0]) << 32) | u64::from(pair[1]));
            acc = acc.wrapping_add(h.finish());
        }
    }
    acc
}

/// The merge-loop floor: each rewritten word visited once per merge that rewrote it, reading
/// as many symbols as it had then.
fn replay(words: &WordCounts, rewrites: &[(u32, u32)]) -> u64 {
    let mut acc = 0u64;
    for &(w, len) in rewrites {
        let ids = &words.word_ids(w as usize)[..len as usize];
        acc = acc.wrapping_add(ids.iter().map(|&s| u64::from(s)).sum::<u64>());
    }
    black_box(acc)
}
