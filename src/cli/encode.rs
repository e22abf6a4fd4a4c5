//! `bpe-lab encode`: text in, one line of tokens (or ids) out per line of text.
//!
//! Built for large inputs: the input is read in blocks of a few megabytes cut at line ends,
//! each block is shared out to threads at line ends, and each thread keeps, for every distinct
//! word it has met, the finished output bytes of that word (its ids or tokens, already
//! formatted), so a repeated word costs one hash lookup and a copy. Outputs are written in
//! input order. A short read (a pipe with a slow writer) is processed at once, so interactive
//! use sees each line's answer as soon as the line is complete.

use std::hash::Hasher;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use bpe_lab::tokenizer::{Split, Tokenizer};
use clap::Args;
use rustc_hash::FxHashMap;
use serde_json::json;

use crate::cli::error::CliError;
use crate::cli::tokenizer_file::{self, Source, SplitArg, is_broken_pipe};

pub const LONG_ABOUT: &str = "\
Encode text with a tokenizer: one output line per input line, holding its tokens (or, with
--ids, their ids) separated by single spaces.

Each line is cut into words at every single space, as Python's line.split(\" \") and the lab
do (--split whitespace cuts at runs of whitespace instead, as line.split()). Each word becomes
its characters followed by </w>, and the tokenizer's merges are applied, lowest rank first.
A character the vocabulary does not hold becomes <UNK>, one per character; a note on stderr
says how many and on which line the first was. Under the space split an empty line is one
empty word, the single token </w>. A trailing \\r (CRLF files) is dropped.";

pub const AFTER_HELP: &str = "\
Examples:
  bpe-lab encode --tokenizer tokenizer.json --input text.txt --ids > ids.txt
  echo 'the lowest point' | bpe-lab encode -t tokenizer.json

Exit status: 0 on success, 1 when the work fails (a file is missing or not UTF-8: the message
names the file and line), 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The tokenizer file written by `bpe-lab train`
    #[arg(
        short,
        long,
        value_name = "T.json",
        required_unless_present = "encoding"
    )]
    pub tokenizer: Option<PathBuf>,

    /// UTF-8 text to encode, one paragraph per line [default: standard input]
    #[arg(short, long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Print token ids instead of tokens
    #[arg(long)]
    pub ids: bool,

    /// Print one JSON object per line, {"tokens": [...], "ids": [...]}
    #[arg(long, conflicts_with = "ids")]
    pub json: bool,

    /// How to cut lines into words [default: the tokenizer file's setting, normally space]
    #[arg(long, value_enum, value_name = "RULE")]
    pub split: Option<SplitArg>,

    /// Threads to encode on (0: one per core; small inputs always use one)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    #[command(flatten)]
    pub byte_level: crate::cli::bytelevel::ByteLevelEncodeArgs,
}

/// Input is processed in blocks of about this size.
const BLOCK: usize = 4 << 20;
/// Blocks smaller than this are not worth sharing out to threads.
const PARALLEL_MIN: usize = 256 << 10;
/// Distinct words a thread remembers before it starts over.
const CACHE_LIMIT: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Tokens,
    Ids,
    Json,
}

pub fn run(args: &EncodeArgs) -> Result<(), CliError> {
    let path = args.tokenizer.as_deref();
    if args.byte_level.encoding.is_some()
        || path.is_some_and(crate::cli::bytelevel::is_byte_level_file)
    {
        return crate::cli::bytelevel::encode(
            path,
            &args.byte_level,
            args.input.as_deref(),
            args.ids,
        );
    }
    let mut tokenizer = tokenizer_file::load(path.expect("clap requires --tokenizer here"))?;
    if let Some(split) = args.split {
        tokenizer.set_split(split.into());
    }
    let mode = match (args.json, args.ids) {
        (true, _) => Mode::Json,
        (false, true) => Mode::Ids,
        (false, false) => Mode::Tokens,
    };
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let source = Source::new(args.input.as_deref());
    let reader = source.open()?;
    let token_text: Vec<Box<[u8]>> = tokenizer
        .vocab()
        .tokens()
        .iter()
        .enumerate()
        .map(|(id, token)| match mode {
            Mode::Ids => id.to_string().into_bytes().into_boxed_slice(),
            Mode::Tokens | Mode::Json => token.as_bytes().into(),
        })
        .collect();
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker::new(&tokenizer, &token_text, mode))
        .collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut run = Run {
        source: &source,
        line: 1,
        unknown: 0,
        first_unknown_line: None,
    };
    match run.encode_all(reader, &mut workers, &mut out) {
        Err(Failure::Output(e)) if is_broken_pipe(&e) => return Ok(()),
        Err(Failure::Output(e)) => {
            return Err(CliError::runtime(format!(
                "cannot write to standard output: {e}"
            )));
        }
        Err(Failure::Input(e)) => return Err(e),
        Ok(()) => {}
    }
    // The caches hold a million small entries; the process is about to end, and handing them
    // back to the allocator one by one took a fifth of the run.
    std::mem::forget(workers);
    if run.unknown > 0 {
        let unk = tokenizer.vocab().unk_token();
        eprintln!(
            "note: {} character{} not in the vocabulary became {unk} (the first on line {})",
            run.unknown,
            if run.unknown == 1 { "" } else { "s" },
            run.first_unknown_line.unwrap_or(0)
        );
    }
    Ok(())
}

enum Failure {
    /// Reading or decoding the input failed: reported.
    Input(CliError),
    /// Writing the output failed (a closed pipe stops quietly).
    Output(io::Error),
}

/// Position and totals over the whole input.
struct Run<'a> {
    source: &'a Source,
    /// The line number of the next block's first line.
    line: u64,
    unknown: u64,
    first_unknown_line: Option<u64>,
}

impl Run<'_> {
    fn encode_all(
        &mut self,
        mut reader: Box<dyn Read>,
        workers: &mut [Worker],
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let mut buf: Vec<u8> = Vec::with_capacity(BLOCK);
        loop {
            // A line longer than a block grows the buffer instead.
            let want = if buf.len() < BLOCK {
                BLOCK - buf.len()
            } else {
                BLOCK
            };
            let start = buf.len();
            buf.resize(start + want, 0);
            let n = loop {
                match reader.read(&mut buf[start..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Failure::Input(self.source.read_error(&e))),
                }
            };
            buf.truncate(start + n);
            if n == 0 {
                // The end: what is left is the last line, which has no newline.
                if !buf.is_empty() {
                    self.encode_block(&buf, workers, out)?;
                }
                return out.flush().map_err(Failure::Output);
            }
            // A full block, or a short read (a pipe with nothing more for now): encode the
            // complete lines so far.
            if (buf.len() >= BLOCK || n < want)
                && let Some(end) = buf.iter().rposition(|&b| b == b'\n')
            {
                self.encode_block(&buf[..=end], workers, out)?;
                buf.drain(..=end);
                out.flush().map_err(Failure::Output)?;
            }
        }
    }

    /// Encodes whole lines (`block` ends with a newline, or is the input's last line).
    fn encode_block(
        &mut self,
        block: &[u8],
        workers: &mut [Worker],
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let parts = if block.len() >= PARALLEL_MIN {
            split_at_lines(block, workers.len())
        } else {
            vec![block]
        };
        let results: Vec<Result<PartDone, BadUtf8>> = if parts.len() == 1 {
            vec![workers[0].encode_part(parts[0])]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(&parts)
                    .map(|(worker, part)| scope.spawn(move || worker.encode_part(part)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("an encoding thread panicked"))
                    .collect()
            })
        };
        for (worker, result) in workers.iter_mut().zip(results) {
            match result {
                Ok(done) => {
                    if let Some(line) = done.first_unknown_line
                        && self.first_unknown_line.is_none()
                    {
                        self.first_unknown_line = Some(self.line + line);
                    }
                    self.unknown += done.unknown;
                    self.line += done.lines;
                    out.write_all(&worker.out).map_err(Failure::Output)?;
                    worker.out.clear();
                }
                Err(bad) => {
                    return Err(Failure::Input(tokenizer_file::not_utf8(
                        self.source,
                        self.line + bad.line,
                        bad.error,
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Cuts `block` into at most `parts` pieces of about equal size, each ending at a line end.
fn split_at_lines(block: &[u8], parts: usize) -> Vec<&[u8]> {
    let mut pieces = Vec::with_capacity(parts);
    let mut rest = block;
    for remaining in (1..=parts).rev() {
        if remaining == 1 || rest.is_empty() {
            pieces.push(rest);
            break;
        }
        let target = rest.len() / remaining;
        let cut = match rest[target..].iter().position(|&b| b == b'\n') {
            Some(p) => target + p + 1,
            None => rest.len(),
        };
        let (head, tail) = rest.split_at(cut);
        pieces.push(head);
        rest = tail;
    }
    pieces.retain(|p| !p.is_empty());
    if pieces.is_empty() {
        pieces.push(block);
    }
    pieces
}

/// What a worker did with one part.
struct PartDone {
    lines: u64,
    unknown: u64,
    /// 0-based within the part.
    first_unknown_line: Option<u64>,
}

/// Invalid UTF-8 at 0-based `line` of a part.
struct BadUtf8 {
    line: u64,
    error: std::str::Utf8Error,
}

/// One thread's cache of finished words and its output for the current part; the tokenizer
/// is shared.
struct Worker<'t> {
    tokenizer: &'t Tokenizer,
    mode: Mode,
    split: Split,
    unk: u32,
    /// Each token's output text: its id in decimal, or the token itself.
    token_text: &'t [Box<[u8]>],
    cache: WordCache,
    ids: Vec<u32>,
    out: Vec<u8>,
}

impl<'t> Worker<'t> {
    fn new(tokenizer: &'t Tokenizer, token_text: &'t [Box<[u8]>], mode: Mode) -> Worker<'t> {
        Worker {
            mode,
            split: tokenizer.split(),
            unk: tokenizer.vocab().unk_id(),
            tokenizer,
            token_text,
            cache: WordCache::default(),
            ids: Vec::new(),
            out: Vec::new(),
        }
    }

    fn encode_part(&mut self, part: &[u8]) -> Result<PartDone, BadUtf8> {
        let text = std::str::from_utf8(part).map_err(|error| BadUtf8 {
            line: part[..error.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64,
            error: line_relative(part, error),
        })?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut done = PartDone {
            lines: 0,
            unknown: 0,
            first_unknown_line: None,
        };
        for line in body.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let unknown = match self.mode {
                Mode::Json => self.encode_json_line(line),
                Mode::Ids | Mode::Tokens => self.encode_line(line),
            };
            if unknown > 0 {
                done.unknown += u64::from(unknown);
                done.first_unknown_line.get_or_insert(done.lines);
            }
            done.lines += 1;
        }
        Ok(done)
    }

    /// Appends the line's tokens (or ids) separated by spaces, and a newline; returns how many
    /// are unknown.
    #[inline]
    fn encode_line(&mut self, line: &str) -> u32 {
        let mut unknown = 0;
        let mut first = true;
        for word in self.split.words(line) {
            if !first {
                self.out.push(b' ');
            }
            first = false;
            let hash = WordCache::hash(word);
            if let Some((bytes, unk)) = self.cache.get(word, hash) {
                self.out.extend_from_slice(bytes);
                unknown += unk;
            } else {
                unknown += self.encode_new_word(word, hash);
            }
        }
        self.out.push(b'\n');
        unknown
    }

    #[cold]
    fn encode_new_word(&mut self, word: &str, hash: u64) -> u32 {
        self.tokenizer.encode_word_uncached(word, &mut self.ids);
        let start = self.out.len();
        let mut unknown = 0;
        for (i, &id) in self.ids.iter().enumerate() {
            if i > 0 {
                self.out.push(b' ');
            }
            self.out.extend_from_slice(&self.token_text[id as usize]);
            unknown += u32::from(id == self.unk);
        }
        self.cache.insert(word, hash, &self.out[start..], unknown);
        unknown
    }

    fn encode_json_line(&mut self, line: &str) -> u32 {
        let vocab = self.tokenizer.vocab();
        let mut ids = Vec::new();
        for word in self.split.words(line) {
            self.tokenizer.encode_word_uncached(word, &mut self.ids);
            ids.extend_from_slice(&self.ids);
        }
        let tokens: Vec<&str> = ids
            .iter()
            .map(|&id| vocab.tokens()[id as usize].as_str())
            .collect();
        let value = json!({"tokens": tokens, "ids": ids});
        serde_json::to_writer(&mut self.out, &value).expect("writing JSON to a Vec");
        self.out.push(b'\n');
        ids.iter().filter(|&&id| id == self.unk).count() as u32
    }
}

/// The finished output of every distinct word met: the word's bytes and its output bytes side
/// by side in one arena, found by a 64-bit hash of the word. One allocation for all words
/// instead of two per word, and a word's key and output share cache lines, which matters
/// because looking words up is most of the work.
#[derive(Default)]
struct WordCache {
    index: FxHashMap<u64, Slot>,
    arena: Vec<u8>,
}

#[derive(Clone, Copy)]
struct Slot {
    start: u32,
    word_len: u32,
    output_len: u32,
    unknown: u32,
}

impl WordCache {
    /// Bytes the arena may hold before the cache starts over (offsets are `u32`).
    const ARENA_LIMIT: usize = 1 << 31;

    #[inline]
    fn hash(word: &str) -> u64 {
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write(word.as_bytes());
        hasher.finish()
    }

    /// The output bytes and unknown count of `word`, if cached. Two words with the same hash
    /// share a slot; the other one is then simply not found and encoded again.
    #[inline]
    fn get(&self, word: &str, hash: u64) -> Option<(&[u8], u32)> {
        let slot = self.index.get(&hash)?;
        let start = slot.start as usize;
        let output = start + slot.word_len as usize;
        if &self.arena[start..output] != word.as_bytes() {
            return None;
        }
        Some((
            &self.arena[output..output + slot.output_len as usize],
            slot.unknown,
        ))
    }

    fn insert(&mut self, word: &str, hash: u64, output: &[u8], unknown: u32) {
        if self.index.len() >= CACHE_LIMIT
            || self.arena.len() + word.len() + output.len() > Self::ARENA_LIMIT
        {
            self.index.clear();
            self.arena.clear();
        }
        if word.len() + output.len() > Self::ARENA_LIMIT {
            return;
        }
        let slot = Slot {
            start: self.arena.len() as u32,
            word_len: word.len() as u32,
            output_len: output.len() as u32,
            unknown,
        };
        self.arena.extend_from_slice(word.as_bytes());
        self.arena.extend_from_slice(output);
        self.index.insert(hash, slot);
    }
}

/// The error of `from_utf8(part)` re-taken on the bad line alone, so its offset is a column.
fn line_relative(part: &[u8], error: std::str::Utf8Error) -> std::str::Utf8Error {
    let bad = error.valid_up_to();
    let start = part[..bad]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = part[bad..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(part.len(), |p| bad + p);
    std::str::from_utf8(&part[start..end]).expect_err("the bad bytes are on this line")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_end_at_line_ends_and_cover_the_block() {
        let block = b"aa\nbbbb\ncc\nd\neeeeee\n";
        for parts in 1..6 {
            let pieces = split_at_lines(block, parts);
            assert!(pieces.len() <= parts);
            assert_eq!(pieces.concat(), block);
            assert!(pieces.iter().all(|p| p.ends_with(b"\n")));
        }
        assert_eq!(split_at_lines(b"no newline", 2), [b"no newline"]);
    }
}
