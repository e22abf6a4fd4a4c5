//! tiktoken's rank files (`.tiktoken`): one token per line, its bytes in standard base64, a
//! space, its rank in decimal. Read and written here; the split pattern and the special tokens
//! are not part of the format (tiktoken passes them to `Encoding` beside the file), so export
//! writes them to a JSON file beside it ([`TiktokenSidecar`]).

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What is wrong with one line of a rank file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TiktokenProblem {
    /// The line is not `TOKEN RANK`.
    Shape,
    /// The token is not standard base64.
    Base64(String),
    /// The rank is not a number below 2³².
    Rank(String),
    /// This token's bytes were already given a rank on an earlier line.
    DuplicateToken { first_line: usize },
    /// This rank was already given to another token on an earlier line.
    DuplicateRank { first_line: usize },
    /// The ranks skip `missing`: this line holds the lowest rank above it. Ranks run 0, 1, 2,
    /// … without a gap, so a file with a line lost (or cut short) is refused, not read as a
    /// smaller tokenizer.
    Gap { missing: u32, rank: u32 },
}

/// A rank file that cannot be read: the line (from 1) and what is wrong with it, or an I/O
/// error (line 0).
#[derive(Debug)]
pub struct TiktokenError {
    pub path: Option<PathBuf>,
    pub line: usize,
    pub problem: Result<TiktokenProblem, io::ErrorKind>,
    message: String,
}

impl fmt::Display for TiktokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "'{}': ", path.display())?;
        }
        match &self.problem {
            Err(_) => write!(f, "{}", self.message),
            Ok(problem) => {
                write!(f, "line {}: ", self.line)?;
                match problem {
                    TiktokenProblem::Shape => {
                        write!(f, "expected a base64 token, one space and a rank")
                    }
                    TiktokenProblem::Base64(e) => write!(f, "the token is not base64: {e}"),
                    TiktokenProblem::Rank(e) => write!(f, "the rank is not a number: {e}"),
                    TiktokenProblem::DuplicateToken { first_line } => {
                        write!(f, "the same token was ranked on line {first_line}")
                    }
                    TiktokenProblem::DuplicateRank { first_line } => {
                        write!(f, "the same rank was given on line {first_line}")
                    }
                    TiktokenProblem::Gap { missing, rank } => write!(
                        f,
                        "rank {rank}, but no line has rank {missing}: the ranks must run 0, 1, \
                         2, … without a gap (was a line lost?)"
                    ),
                }
            }
        }
    }
}

impl std::error::Error for TiktokenError {}

impl TiktokenError {
    /// The file's bytes stop being UTF-8 on this line (base64 and decimal are ASCII).
    pub fn not_utf8(line: usize) -> TiktokenError {
        TiktokenError {
            path: None,
            line,
            problem: Err(io::ErrorKind::InvalidData),
            message: format!("line {line}: not UTF-8 text (a rank file is ASCII)"),
        }
    }
}

fn fail(line: usize, problem: TiktokenProblem) -> TiktokenError {
    TiktokenError {
        path: None,
        line,
        problem: Ok(problem),
        message: String::new(),
    }
}

/// Parses the text of a rank file: (token bytes, rank) in the order of the lines. Blank lines
/// are skipped (tiktoken's reader skips them too).
pub fn parse_tiktoken(text: &str) -> Result<Vec<(Vec<u8>, u32)>, TiktokenError> {
    let mut numbers = Vec::new();
    let out = parse_lines(text, Some(&mut numbers))?;
    // Duplicates, after the lines are read (so the tokens are borrowed, not copied): the
    // first line that repeats an earlier token or rank.
    let mut first_of_token: FxHashMap<&[u8], usize> = FxHashMap::default();
    first_of_token.reserve(out.len());
    let mut first_of_rank: FxHashMap<u32, usize> = FxHashMap::default();
    first_of_rank.reserve(out.len());
    let mut problem: Option<(usize, TiktokenProblem)> = None;
    for ((token, rank), &number) in out.iter().zip(&numbers) {
        let found = if let Some(&first_line) = first_of_token.get(&token[..]) {
            Some(TiktokenProblem::DuplicateToken { first_line })
        } else {
            first_of_rank
                .get(rank)
                .map(|&first_line| TiktokenProblem::DuplicateRank { first_line })
        };
        if let Some(found) = found {
            problem = Some((number, found));
            break;
        }
        first_of_token.insert(token, number);
        first_of_rank.insert(*rank, number);
    }
    if let Some((number, found)) = problem {
        return Err(fail(number, found));
    }
    drop(first_of_token);
    // No rank repeats, so they are 0..n exactly when the highest is below n.
    if first_of_rank.keys().any(|&r| r as usize >= out.len()) {
        let mut ranks: Vec<u32> = first_of_rank.keys().copied().collect();
        ranks.sort_unstable();
        let (missing, rank) = ranks
            .iter()
            .zip(0u32..)
            .find(|&(&r, i)| r != i)
            .map(|(&r, i)| (i, r))
            .expect("a rank at or above the count leaves a gap below it");
        return Err(fail(
            first_of_rank[&rank],
            TiktokenProblem::Gap { missing, rank },
        ));
    }
    Ok(out)
}

/// [`parse_tiktoken`] without the search for repeated tokens and ranks, for the rank files
/// compiled into the binary: they are tiktoken's own (a test compares them with tiktoken-rs's
/// encoders), and on 200,000 lines the search is two hash tables built for nothing, on the
/// way to encoding one text.
#[cfg_attr(not(bpe_lab_rank_files), allow(dead_code))]
pub(crate) fn parse_tiktoken_shipped(text: &str) -> Result<Vec<(Vec<u8>, u32)>, TiktokenError> {
    parse_lines(text, None)
}

/// The lines of a rank file, and their line numbers in `numbers` if asked for.
fn parse_lines(
    text: &str,
    mut numbers: Option<&mut Vec<usize>>,
) -> Result<Vec<(Vec<u8>, u32)>, TiktokenError> {
    // OpenAI's files have 16 bytes a line on average: room made once, not grown by doubling.
    let mut out = Vec::with_capacity(text.len() / 14);
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split(' ');
        let (Some(token), Some(rank), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(fail(number, TiktokenProblem::Shape));
        };
        let token = STANDARD
            .decode(token)
            .map_err(|e| fail(number, TiktokenProblem::Base64(e.to_string())))?;
        let rank: u32 = rank.parse().map_err(|e: std::num::ParseIntError| {
            fail(number, TiktokenProblem::Rank(e.to_string()))
        })?;
        out.push((token, rank));
        if let Some(numbers) = numbers.as_mut() {
            numbers.push(number);
        }
    }
    Ok(out)
}

/// Reads a rank file.
pub fn read_tiktoken(path: impl AsRef<Path>) -> Result<Vec<(Vec<u8>, u32)>, TiktokenError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| TiktokenError {
        path: Some(path.to_owned()),
        line: 0,
        problem: Err(e.kind()),
        message: format!("cannot read it: {e}"),
    })?;
    parse_tiktoken(&text).map_err(|mut e| {
        e.path = Some(path.to_owned());
        e
    })
}

/// Writes tokens as a rank file, by ascending rank.
pub fn write_tiktoken<'a>(
    out: &mut dyn Write,
    tokens: impl IntoIterator<Item = (&'a [u8], u32)>,
) -> io::Result<()> {
    let mut sorted: Vec<(&[u8], u32)> = tokens.into_iter().collect();
    sorted.sort_by_key(|&(_, rank)| rank);
    for (bytes, rank) in sorted {
        writeln!(out, "{} {rank}", STANDARD.encode(bytes))?;
    }
    Ok(())
}

/// What tiktoken's `Encoding` needs beside the rank file, written next to it as JSON
/// (`T.tiktoken.json`): `tiktoken.Encoding(name, pat_str=…, mergeable_ranks=…,
/// special_tokens=…)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiktokenSidecar {
    pub name: String,
    pub pat_str: String,
    pub special_tokens: BTreeMap<String, u32>,
    /// One past the highest id (tiktoken's `explicit_n_vocab`).
    pub n_vocab: u32,
    /// How many lines (ranks) the rank file has, so a file cut short is refused. Absent in
    /// sidecars written before bpe-lab wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_ranks: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let tokens = vec![
            (b"!".to_vec(), 0),
            (vec![0xFF, 0x00], 1),
            (b" the".to_vec(), 2),
        ];
        let mut out = Vec::new();
        write_tiktoken(&mut out, tokens.iter().map(|(b, r)| (b.as_slice(), *r))).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "IQ== 0\n/wA= 1\nIHRoZQ== 2\n");
        assert_eq!(parse_tiktoken(&text).unwrap(), tokens);
        let err = parse_tiktoken("IQ== 0\nIQ== 1\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert_eq!(
            err.problem,
            Ok(TiktokenProblem::DuplicateToken { first_line: 1 })
        );
        assert_eq!(
            err.to_string(),
            "line 2: the same token was ranked on line 1"
        );
        assert_eq!(
            parse_tiktoken("IQ==\n").unwrap_err().problem,
            Ok(TiktokenProblem::Shape)
        );
        assert!(matches!(
            parse_tiktoken("I@== 0\n").unwrap_err().problem,
            Ok(TiktokenProblem::Base64(_))
        ));
    }

    /// A lost line leaves a gap: the line holding the lowest rank above it is named, in
    /// whatever order the lines come.
    #[test]
    fn a_gap_in_the_ranks_names_its_line() {
        let err = parse_tiktoken("IQ== 0\nIg== 1\nJA== 3\nJQ== 4\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert_eq!(
            err.problem,
            Ok(TiktokenProblem::Gap {
                missing: 2,
                rank: 3
            })
        );
        let err = parse_tiktoken("JQ== 4\nIQ== 0\nJA== 3\nIg== 1\n").unwrap_err();
        assert_eq!(
            (err.line, err.problem),
            (
                3,
                Ok(TiktokenProblem::Gap {
                    missing: 2,
                    rank: 3
                })
            )
        );
        assert_eq!(parse_tiktoken("Ig== 1\nIQ== 0\n").unwrap().len(), 2);
    }
}
