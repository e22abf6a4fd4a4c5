//! Engine benchmarks: a custom harness that prints markdown tables of medians over repeated runs.
//!
//! ```text
//! cargo bench --bench engine                  # full: 48 MB generated corpus
//! cargo bench --bench engine -- --quick       # smoke run: ~1 MB, few repeats (or BPE_BENCH_QUICK=1)
//! BPE_BENCH_MB=8 cargo bench --bench engine   # smaller generated corpus
//! BPE_BENCH_FILE=path cargo bench --bench engine   # any text file, one paragraph per line
//! BPE_BENCH_SEED=7 ...                        # another generated corpus (default seed 1)
//! ```
//!
//! Sections:
//! 1. the fast trainer against the naive oracle (the training problem literally) on ~1 MB, at two merge
//!    counts so the growth of the gap is visible; both start from the text, and their merge
//!    lists are checked to be equal;
//! 2. the fast trainer at 1k/10k/30k merges on the large corpus, split into word counting and
//!    the merge loop, with the peak RSS of a separate process per point;
//! 3. encoding throughput with a 10k-merge list, and the naive `apply_merges` on a sample.
//!
//! Without `--bench` on the command line (which `cargo bench` passes) the binary runs the quick
//! mode, so `cargo test --all-targets` smoke-tests it instead of running for minutes.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use bpe_lab::bpe::oracle::{apply_merges_naive, train_bpe_naive};
use bpe_lab::{Encoder, TieBreak, Trainer, WordCounts, bpe_initialize};
use support::{Stats, Table, peak_rss_mb, ratio, repeat, secs, timed, zipf};

struct Config {
    quick: bool,
    /// Size of the generated large corpus, when no file is given.
    mb: f64,
    seed: u64,
    file: Option<PathBuf>,
    /// Size of the corpus the naive oracle trains on.
    small_bytes: usize,
    /// Merge counts of the fast-versus-naive comparison.
    naive_points: Vec<usize>,
    naive_runs: usize,
    fast_runs: usize,
    scale_points: Vec<usize>,
    scale_runs: usize,
    encode_merges: usize,
    encode_runs: usize,
    /// Words of the sample the naive encoder runs on.
    encode_sample_words: usize,
}

impl Config {
    fn from_env(args: &[String]) -> Config {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let quick = args.iter().any(|a| a == "--quick")
            || !args.iter().any(|a| a == "--bench")
            || env("BPE_BENCH_QUICK").is_some_and(|v| v != "0");
        let mb = match env("BPE_BENCH_MB") {
            Some(v) => v
                .parse()
                .unwrap_or_else(|_| panic!("BPE_BENCH_MB: expected a number, got {v:?}")),
            None if quick => 1.0,
            None => 48.0,
        };
        let seed = env("BPE_BENCH_SEED").map_or(1, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("BPE_BENCH_SEED: expected an integer, got {v:?}"))
        });
        let file = env("BPE_BENCH_FILE").map(PathBuf::from);
        let full = Config {
            quick,
            mb,
            seed,
            file,
            small_bytes: 1_000_000,
            naive_points: vec![100, 500],
            naive_runs: 3,
            fast_runs: 10,
            scale_points: vec![1_000, 10_000, 30_000],
            scale_runs: 3,
            encode_merges: 10_000,
            encode_runs: 5,
            encode_sample_words: 2_000,
        };
        if !quick {
            return full;
        }
        // The naive oracle costs ~0.3 s per merge on 1 MB: a smoke run (the one `cargo test`
        // runs, alone on one core at the end of the step) trains it on a quarter of that.
        Config {
            small_bytes: 250_000,
            naive_points: vec![10, 50],
            naive_runs: 1,
            fast_runs: 3,
            scale_runs: 1,
            encode_runs: 2,
            encode_sample_words: 200,
            ..full
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child-train") {
        child_train(&args[1..]);
        return;
    }
    let config = Config::from_env(&args);

    let (text, corpus_name) = load_corpus(&config);
    let small = prefix_lines(&text, config.small_bytes);

    println!("# bpe-lab engine benchmarks\n");
    println!(
        "- mode: {}",
        if config.quick {
            "quick (smoke run)"
        } else {
            "full"
        }
    );
    println!("- machine: {}", support::machine());
    println!("- corpus: {corpus_name}");
    println!(
        "- times: median [min–max] over the runs shown, wall clock, in this process; word \
         counting (`WordCounts::from_lines`) uses all available threads, everything else one"
    );
    println!();

    naive_vs_fast(&config, small);
    let merges = scale(&config, &text);
    encode(&config, &text, &merges);
}

/// The large corpus and a line describing it.
fn load_corpus(config: &Config) -> (String, String) {
    let text = match &config.file {
        Some(path) => std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("BPE_BENCH_FILE: cannot read {}: {e}", path.display())),
        None => {
            eprintln!("generating {} MB (seed {})...", config.mb, config.seed);
            zipf::generate((config.mb * 1e6) as usize, config.seed)
        }
    };
    let words = WordCounts::from_lines(&text);
    let source = match &config.file {
        Some(path) => format!("file {}", path.display()),
        None => format!(
            "generated Zipfian English-like text (benches/support/zipf.rs, seed {}; same as \
             `cargo run --release --example gen_corpus -- --mb {} --seed {}`)",
            config.seed, config.mb, config.seed
        ),
    };
    let description = format!(
        "{source}: {:.1} MB, {} lines, {} words, {} distinct words",
        text.len() as f64 / 1e6,
        text.lines().filter(|l| !l.is_empty()).count(),
        words.total(),
        words.len()
    );
    (text, description)
}

/// The first whole lines of `text` adding up to at least `bytes` bytes.
fn prefix_lines(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    match text[bytes..].find('\n') {
        Some(p) => &text[..bytes + p + 1],
        None => text,
    }
}

fn paragraphs(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.is_empty()).collect()
}

/// Section 1: fast trainer against the naive oracle, both from the text.
fn naive_vs_fast(config: &Config, small: &str) {
    let words = WordCounts::from_lines(small);
    println!(
        "## Training: fast engine vs naive oracle\n\n{:.2} MB ({} words, {} distinct), \
         lexicographic tie-break. Both start from the text: fast = `WordCounts::from_lines` + \
         `Trainer::train`; naive = `bpe_initialize` + `train_bpe_naive` (the training problem literally). \
         Their merge lists are checked to be equal.\n",
        small.len() as f64 / 1e6,
        words.total(),
        words.len()
    );
    let table = Table::new(&["merges", "fast", "naive", "naive / fast", "same merges"]);
    let lines = paragraphs(small);
    for &n in &config.naive_points {
        eprintln!("naive vs fast at {n} merges...");
        let mut fast_merges = Vec::new();
        let fast = repeat(config.fast_runs, || {
            let (training, took) = timed(|| {
                Trainer::new(n)
                    .tie_break(TieBreak::Lexicographic)
                    .train(WordCounts::from_lines(small))
            });
            fast_merges = training.merges;
            took
        });
        let mut naive_merges = Vec::new();
        let naive = repeat(config.naive_runs, || {
            let (merges, took) = timed(|| {
                let mut corpus = bpe_initialize(&lines).0;
                train_bpe_naive(&mut corpus, n, TieBreak::Lexicographic)
            });
            naive_merges = merges;
            took
        });
        table.row(&[
            n.to_string(),
            runs(&fast),
            runs(&naive),
            ratio(naive.median / fast.median),
            if fast_merges == naive_merges {
                "yes".into()
            } else {
                "**NO**".into()
            },
        ]);
    }
    println!();
}

fn runs(stats: &Stats) -> String {
    format!("{} ({}×)", stats.show(), stats.runs)
}

/// Section 2: the fast trainer on the large corpus. Returns the merges of the point used for
/// encoding.
fn scale(config: &Config, text: &str) -> Vec<(String, String)> {
    println!(
        "## Training at scale\n\n{:.1} MB. Word counting (`WordCounts::from_lines`) is timed \
         once per run set; the merge loop (`Trainer::train`) gets a fresh copy of the counted \
         words each run. Peak RSS: `VmHWM` of a separate process (this binary re-executed with \
         `--child-train`) that reads the corpus file, counts words and trains once, so each \
         point has its own peak; \"RSS after reading\" is that process's RSS once the file is \
         in memory, before counting.\n",
        text.len() as f64 / 1e6
    );
    eprintln!("counting words...");
    let mut words = WordCounts::new();
    let count = repeat(config.scale_runs, || {
        let (counted, took) = timed(|| WordCounts::from_lines(text));
        words = counted;
        took
    });

    // The child needs the corpus as a file; a generated one is written once to a temp file.
    let temp = std::env::temp_dir().join(format!("bpe-bench-{}.txt", std::process::id()));
    let file = match &config.file {
        Some(path) => path.clone(),
        None => {
            std::fs::write(&temp, text).expect("cannot write the corpus to a temp file");
            temp.clone()
        }
    };

    let table = Table::new(&[
        "merges",
        "learned",
        "count words",
        "merge loop",
        "total (medians)",
        "peak RSS",
        "RSS after reading",
    ]);
    let mut encode_merges = Vec::new();
    for &n in &config.scale_points {
        eprintln!("training {n} merges...");
        let mut learned = Vec::new();
        let train = repeat(config.scale_runs, || {
            let input = words.clone();
            let (training, took) = timed(|| Trainer::new(n).train(input));
            learned = training.merges;
            took
        });
        let memory = child_memory(&file, n);
        let mb = |x: Option<f64>| x.map_or("n/a".into(), |x| format!("{x:.0} MB"));
        table.row(&[
            n.to_string(),
            learned.len().to_string(),
            runs(&count),
            runs(&train),
            secs(count.median + train.median),
            mb(memory.map(|m| m.1)),
            mb(memory.map(|m| m.0)),
        ]);
        if n == config.encode_merges {
            encode_merges = learned;
        }
    }
    let _ = std::fs::remove_file(&temp);
    println!();
    if encode_merges.is_empty() {
        encode_merges = Trainer::new(config.encode_merges).train(words).merges;
    }
    encode_merges
}

/// Re-executes this binary to train once on `file`; returns (RSS after reading, peak RSS) in MB.
fn child_memory(file: &Path, merges: usize) -> Option<(f64, f64)> {
    let exe = std::env::current_exe().ok()?;
    let output = Command::new(exe)
        .arg("--child-train")
        .arg(file)
        .arg(merges.to_string())
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!(
            "child run failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut fields = stdout.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some((fields.next()??, fields.next()??))
}

/// The child side of [`child_memory`]: prints "RSS-after-read peak-RSS" in MB.
fn child_train(args: &[String]) {
    let [file, merges] = args else {
        panic!("usage: engine --child-train FILE MERGES");
    };
    let text = std::fs::read_to_string(file).expect("child: cannot read corpus");
    let after_read = support::proc_status_mb("VmRSS").unwrap_or(f64::NAN);
    let training =
        Trainer::new(merges.parse().expect("child: MERGES")).train(WordCounts::from_lines(&text));
    std::hint::black_box(&training);
    println!("{after_read} {}", peak_rss_mb().unwrap_or(f64::NAN));
}

/// Section 3: encoding throughput, and the naive encoder on a sample.
fn encode(config: &Config, text: &str, merges: &[(String, String)]) {
    println!(
        "## Encoding\n\n{} merges learned on the corpus above. `Encoder::encode_paragraph_into` \
         line by line with a fresh encoder each run (its word cache starts cold; building it is \
         timed on the whole corpus, not on the sample); the naive encoder is the apply-merges problem's \
         `apply_merges_naive`, literally (it builds its rank map on every call), called once \
         per word (chars + `</w>`) on a sample from the start of the corpus. Outputs on the \
         sample are checked to be equal.\n",
        merges.len()
    );
    let lines = paragraphs(text);
    let mut tokens = 0;
    let full = repeat(config.encode_runs, || {
        let (n, took) = timed(|| {
            let mut encoder = Encoder::new(merges);
            let mut out = Vec::new();
            let mut n = 0;
            for line in &lines {
                out.clear();
                encoder.encode_paragraph_into(line, &mut out);
                n += out.len();
            }
            n
        });
        tokens = n;
        took
    });

    // The sample: whole lines from the start until it has enough words.
    let mut sample = Vec::new();
    let mut sample_words = 0;
    for line in &lines {
        if sample_words >= config.encode_sample_words {
            break;
        }
        sample_words += line.split(' ').count();
        sample.push(*line);
    }
    let sample_bytes: usize = sample.iter().map(|l| l.len() + 1).sum();
    let mut fast_tokens: Vec<String> = Vec::new();
    let fast = repeat(config.encode_runs, || {
        // Built outside the timing: on a sample this small, compiling 10k merges would
        // dominate, and the full-corpus row already includes it.
        let mut encoder = Encoder::new(merges);
        let (ids, took) = timed(|| {
            let mut out = Vec::new();
            for line in &sample {
                encoder.encode_paragraph_into(line, &mut out);
            }
            out
        });
        fast_tokens = ids
            .iter()
            .map(|&id| encoder.symbol(id).to_owned())
            .collect();
        took
    });
    eprintln!("naive encoding of {sample_words} words...");
    let mut naive_tokens: Vec<String> = Vec::new();
    let naive = repeat(config.naive_runs, || {
        let (out, took) = timed(|| {
            let mut out = Vec::new();
            for line in &sample {
                for word in line.split(' ') {
                    let mut symbols: Vec<String> = word.chars().map(String::from).collect();
                    symbols.push(bpe_lab::EOW.to_owned());
                    out.extend(apply_merges_naive(&symbols, merges));
                }
            }
            out
        });
        naive_tokens = out;
        took
    });

    let mbps = |bytes: usize, s: &Stats| {
        let rate = bytes as f64 / s.median;
        if rate >= 1e6 {
            format!("{:.1} MB/s", rate / 1e6)
        } else {
            format!("{:.1} KB/s", rate / 1e3)
        }
    };
    let table = Table::new(&["encoder", "input", "time", "throughput", "tokens"]);
    table.row(&[
        "`Encoder`".into(),
        format!("whole corpus, {:.1} MB", text.len() as f64 / 1e6),
        runs(&full),
        mbps(text.len(), &full),
        tokens.to_string(),
    ]);
    table.row(&[
        "`Encoder`".into(),
        format!(
            "sample, {sample_words} words, {:.1} KB",
            sample_bytes as f64 / 1e3
        ),
        runs(&fast),
        mbps(sample_bytes, &fast),
        fast_tokens.len().to_string(),
    ]);
    table.row(&[
        "`apply_merges_naive`".into(),
        "same sample".into(),
        runs(&naive),
        mbps(sample_bytes, &naive),
        naive_tokens.len().to_string(),
    ]);
    println!();
    println!(
        "naive / fast on the sample: {}; same tokens: {}",
        ratio(naive.median / fast.median),
        if naive_tokens == fast_tokens {
            "yes"
        } else {
            "**NO**"
        }
    );
}
