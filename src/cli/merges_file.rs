//! The JSON file `bpe-lab train` writes: the learned merges and how they were learned.
//!
//! ```json
//! {
//!   "format": "bpe-lab-merges",
//!   "version": 1,
//!   "tie_break": "lexicographic",
//!   "min_frequency": 1,
//!   "merges_requested": 2,
//!   "stop_reason": "merges_done",
//!   "merges": [
//!     ["l", "o"],
//!     ["lo", "w"]
//!   ],
//!   "merge_counts": [3, 3]
//! }
//! ```
//!
//! `merges[i]` is the `i`-th merge learned, `[left, right]`; `merge_counts[i]` is how often
//! that pair occurred when it was chosen. The layout puts one merge per line so the file reads
//! and diffs well; any JSON reader sees the same document as the derived [`Serialize`] gives.

use std::io::{self, Write};

use bpe_lab::{StopReason, TieBreak, Training};
use serde::Serialize;

/// The value of `"format"`, so a reader can tell this file from other JSON.
pub const FORMAT: &str = "bpe-lab-merges";
/// The value of `"version"`; raised when a field changes meaning or goes away.
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct MergesFile<'a> {
    pub format: &'static str,
    pub version: u32,
    pub tie_break: &'static str,
    pub min_frequency: u64,
    pub merges_requested: usize,
    pub stop_reason: &'static str,
    pub merges: &'a [(String, String)],
    pub merge_counts: &'a [u64],
}

impl<'a> MergesFile<'a> {
    pub fn new(
        training: &'a Training,
        tie_break: TieBreak,
        min_frequency: u64,
        merges_requested: usize,
    ) -> Self {
        MergesFile {
            format: FORMAT,
            version: VERSION,
            tie_break: tie_break_name(tie_break),
            min_frequency,
            merges_requested,
            stop_reason: stop_reason_name(training.stop),
            merges: &training.merges,
            merge_counts: &training.merge_counts,
        }
    }

    /// Writes the document with one merge per line (the module docs show the layout).
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{{")?;
        writeln!(out, "  \"format\": {},", json(self.format)?)?;
        writeln!(out, "  \"version\": {},", self.version)?;
        writeln!(out, "  \"tie_break\": {},", json(self.tie_break)?)?;
        writeln!(out, "  \"min_frequency\": {},", self.min_frequency)?;
        writeln!(out, "  \"merges_requested\": {},", self.merges_requested)?;
        writeln!(out, "  \"stop_reason\": {},", json(self.stop_reason)?)?;
        if self.merges.is_empty() {
            writeln!(out, "  \"merges\": [],")?;
        } else {
            writeln!(out, "  \"merges\": [")?;
            for (i, (left, right)) in self.merges.iter().enumerate() {
                let comma = if i + 1 < self.merges.len() { "," } else { "" };
                writeln!(out, "    [{}, {}]{comma}", json(left)?, json(right)?)?;
            }
            writeln!(out, "  ],")?;
        }
        write!(out, "  \"merge_counts\": [")?;
        for (i, count) in self.merge_counts.iter().enumerate() {
            if i > 0 {
                write!(out, ", ")?;
            }
            write!(out, "{count}")?;
        }
        writeln!(out, "]")?;
        writeln!(out, "}}")
    }
}

/// The name `--tie-break` takes and the file records.
pub fn tie_break_name(tie_break: TieBreak) -> &'static str {
    match tie_break {
        TieBreak::Lexicographic => "lexicographic",
        TieBreak::FirstSeen => "first-seen",
    }
}

pub fn stop_reason_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::MergesDone => "merges_done",
        StopReason::NoPairs => "no_pairs",
        StopReason::BelowMinFrequency => "below_min_frequency",
    }
}

/// A string as a JSON literal, quoted and escaped by serde_json.
fn json(s: &str) -> io::Result<String> {
    serde_json::to_string(s).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(merges: &[(&str, &str)]) -> (Vec<(String, String)>, Vec<u64>) {
        let merges: Vec<(String, String)> = merges
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let counts = (1..=merges.len() as u64).rev().collect();
        (merges, counts)
    }

    fn file<'a>(merges: &'a [(String, String)], counts: &'a [u64]) -> MergesFile<'a> {
        MergesFile {
            format: FORMAT,
            version: VERSION,
            tie_break: "first-seen",
            min_frequency: 2,
            merges_requested: 10,
            stop_reason: "no_pairs",
            merges,
            merge_counts: counts,
        }
    }

    /// The hand-laid-out text is the same JSON document serde_json derives from the struct.
    #[test]
    fn layout_is_the_derived_document() {
        for merges in [
            &[][..],
            &[("a", "b")][..],
            &[("\"", "\\"), ("</w>", "é\n"), ("\u{1F600}", "\t")][..],
        ] {
            let (merges, counts) = sample(merges);
            let file = file(&merges, &counts);
            let mut text = Vec::new();
            file.write_json(&mut text).unwrap();
            let parsed: serde_json::Value = serde_json::from_slice(&text).unwrap();
            assert_eq!(parsed, serde_json::to_value(&file).unwrap());
        }
    }

    #[test]
    fn one_merge_per_line() {
        let (merges, counts) = sample(&[("l", "o"), ("lo", "w")]);
        let mut text = Vec::new();
        file(&merges, &counts).write_json(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("\n    [\"l\", \"o\"],\n    [\"lo\", \"w\"]\n  ],\n"));
        assert!(text.contains("\n  \"merge_counts\": [2, 1]\n}\n"));
    }
}
