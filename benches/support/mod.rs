//! Code shared by the bench harness: the corpus generator, timing statistics, memory readings
//! and markdown output.

pub mod zipf;

use std::time::{Duration, Instant};

/// Median, min and max of repeated runs. The median, not the mean: one run disturbed by the
/// machine should not move the headline number.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    pub runs: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Stats {
    pub fn from_secs(mut secs: Vec<f64>) -> Stats {
        assert!(!secs.is_empty(), "no runs to summarize");
        secs.sort_by(f64::total_cmp);
        let n = secs.len();
        let median = if n % 2 == 1 {
            secs[n / 2]
        } else {
            (secs[n / 2 - 1] + secs[n / 2]) / 2.0
        };
        Stats {
            runs: n,
            median,
            min: secs[0],
            max: secs[n - 1],
        }
    }

    /// `median [min–max]` in a unit that suits the magnitude.
    pub fn show(&self) -> String {
        format!(
            "{} [{}–{}]",
            secs(self.median),
            secs(self.min),
            secs(self.max)
        )
    }
}

/// Runs `f` `runs` times; `f` returns the duration of the part that is measured, so set-up
/// (cloning inputs) and tear-down (dropping outputs) can stay outside it.
pub fn repeat(runs: usize, mut f: impl FnMut() -> Duration) -> Stats {
    Stats::from_secs((0..runs).map(|_| f().as_secs_f64()).collect())
}

/// Times one call and passes its result on.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

pub fn secs(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.1} s")
    } else if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

pub fn ratio(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

/// A field of `/proc/self/status` in MB (Linux only; `None` elsewhere).
pub fn proc_status_mb(field: &str) -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// The process's peak resident set size so far (`VmHWM`), in MB.
pub fn peak_rss_mb() -> Option<f64> {
    proc_status_mb("VmHWM")
}

/// The CPU model and the number of threads the process may use, for the report header.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {threads} threads available")
}

/// A markdown table printed row by row, so a long benchmark shows progress as it goes.
pub struct Table {
    columns: usize,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        println!("| {} |", header.join(" | "));
        println!("|{}", "---|".repeat(header.len()));
        Table {
            columns: header.len(),
        }
    }

    pub fn row(&self, cells: &[String]) {
        assert_eq!(cells.len(), self.columns, "row width differs from header");
        println!("| {} |", cells.join(" | "));
    }
}
