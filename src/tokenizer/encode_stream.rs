//! Encoding a stream of lines on every core: what `bpe-lab encode` does with a file or a pipe.
//!
//! The input is read in blocks of a few megabytes cut at line ends; a large block is shared
//! out to threads at line ends, and the outputs are written in input order. A short read (a
//! pipe with a slow writer) is encoded at once, so interactive use sees each line's answer as
//! soon as the line is complete.
//!
//! Each thread keeps, for every distinct word it has met, the finished output bytes of that
//! word (its ids or tokens, already formatted), so a repeated word costs one hash lookup and a
//! copy; a new word is encoded by [`CharLevelTokenizer::encode_word_uncached`]. This is not the
//! tokenizer's id cache ([`CachedEncoder`](crate::tokenizer::codec)) again: it caches output
//! text. Each thread with a clone of the tokenizer's `CachedEncoder`, formatting ids on every
//! hit, was slower than this cache, so the output cache stays (docs/benchmarks.md, "The lab
//! tokenizers' output cache").
//!
//! Each line is cut into words by the tokenizer's [`Split`](crate::tokenizer::Split), after the
//! line rule of [`crate::files::lines`] (a trailing `\r` dropped, and a byte-order mark at
//! the start of the input, which an editor wrote and is no character of the text); every line,
//! empty ones too, gives one output line. Truncated, windowed or with offsets
//! ([`crate::tokenizer::windows`]), each line is encoded whole and handed to that module.

use std::hash::Hasher;
use std::io::{self, Read, Write};

use rustc_hash::FxHashMap;
use serde_json::json;

use crate::files::InvalidUtf8;
use crate::files::lines::{BOM, line_body};
use crate::tokenizer::codec::CharLevelTokenizer;
use crate::tokenizer::split::Split;
use crate::tokenizer::windows::{Shape, Span, TokenText, Truncated, WindowFormat, write_unit};

/// Input is processed in blocks of about this size.
const BLOCK: usize = 4 << 20;
/// Blocks smaller than this are not worth sharing out to threads.
const PARALLEL_MIN: usize = 256 << 10;
/// Distinct words a thread remembers before it starts over.
const CACHE_LIMIT: usize = 1 << 20;

/// What each output line holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineOutput {
    /// The tokens, separated by single spaces.
    Tokens,
    /// The ids in decimal, separated by single spaces.
    Ids,
    /// One JSON object, `{"tokens": [...], "ids": [...]}`.
    Json,
}

/// What encoding the whole input found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinesEncoded {
    pub lines: u64,
    /// Characters outside the vocabulary (each became the unknown token).
    pub unknown: u64,
    /// The 1-based line of the first of them.
    pub first_unknown_line: Option<u64>,
    /// What `--max-tokens` cut ([`CharLevelTokenizer::encode_lines_shaped`]).
    pub truncated: Truncated,
}

/// Why encoding a stream stopped.
#[derive(Debug)]
pub enum EncodeLinesError {
    /// Reading the input failed.
    Read(io::Error),
    /// The input is not UTF-8 (where, named).
    InvalidUtf8(InvalidUtf8),
    /// Writing the output failed (a closed pipe among others).
    Write(io::Error),
}

impl CharLevelTokenizer {
    /// Encodes every line of `input` (named `input_name` in errors, e.g. `file 'a.txt'` or
    /// `standard input`) into one line of `out` each, on `threads` threads (0: one per core,
    /// [`crate::bpe::threads_for`]).
    pub fn encode_lines(
        &self,
        input: &mut dyn Read,
        input_name: &str,
        out: &mut dyn Write,
        output: LineOutput,
        threads: usize,
    ) -> Result<LinesEncoded, EncodeLinesError> {
        self.encode_lines_shaped(input, input_name, out, output, threads, &Shape::default())
    }

    /// [`CharLevelTokenizer::encode_lines`], each line's ids truncated, cut into windows (one output
    /// line each) or shown with their byte spans in the line, as `shape` says. A span covers
    /// the characters of the word a token holds (`</w>` holds none; a lone `</w>` token has an
    /// empty span at the word's end); the spaces between words are in no span.
    pub fn encode_lines_shaped(
        &self,
        input: &mut dyn Read,
        input_name: &str,
        out: &mut dyn Write,
        output: LineOutput,
        threads: usize,
        shape: &Shape,
    ) -> Result<LinesEncoded, EncodeLinesError> {
        let token_text: Vec<Box<[u8]>> = self
            .vocab()
            .tokens()
            .iter()
            .enumerate()
            .map(|(id, token)| match output {
                LineOutput::Ids => id.to_string().into_bytes().into_boxed_slice(),
                LineOutput::Tokens | LineOutput::Json => token.as_bytes().into(),
            })
            .collect();
        let mut workers: Vec<EncodeThread> = (0..crate::bpe::threads_for(threads))
            .map(|_| EncodeThread::new(self, &token_text, output, shape))
            .collect();
        let mut stream = Stream {
            input_name,
            line: 1,
            offset: 0,
            done: LinesEncoded::default(),
        };
        let result = stream.encode_all(input, &mut workers, out);
        // The caches hold up to a million small entries each; the caller is usually about to
        // exit, and handing them back to the allocator one by one took a fifth of the run.
        std::mem::forget(workers);
        result.map(|()| stream.done)
    }
}

/// Position and totals over the whole input.
struct Stream<'a> {
    input_name: &'a str,
    /// The line number and byte offset of the next block's start.
    line: u64,
    offset: u64,
    done: LinesEncoded,
}

impl Stream<'_> {
    fn encode_all(
        &mut self,
        reader: &mut dyn Read,
        workers: &mut [EncodeThread],
        out: &mut dyn Write,
    ) -> Result<(), EncodeLinesError> {
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
                    Err(e) => return Err(EncodeLinesError::Read(e)),
                }
            };
            buf.truncate(start + n);
            if n == 0 {
                // The end: what is left is the last line, which has no newline.
                if !buf.is_empty() {
                    self.encode_block(&buf, workers, out)?;
                }
                return out.flush().map_err(EncodeLinesError::Write);
            }
            // A full block, or a short read (a pipe with nothing more for now): encode the
            // complete lines so far.
            if (buf.len() >= BLOCK || n < want)
                && let Some(end) = buf.iter().rposition(|&b| b == b'\n')
            {
                self.encode_block(&buf[..=end], workers, out)?;
                buf.drain(..=end);
                out.flush().map_err(EncodeLinesError::Write)?;
            }
        }
    }

    /// Encodes whole lines (`block` ends with a newline, or is the input's last line).
    fn encode_block(
        &mut self,
        block: &[u8],
        workers: &mut [EncodeThread],
        out: &mut dyn Write,
    ) -> Result<(), EncodeLinesError> {
        let parts = if block.len() >= PARALLEL_MIN {
            split_at_lines(block, workers.len())
        } else {
            vec![block]
        };
        // Only the input's first line may start with a byte-order mark.
        let at_start = self.offset == 0;
        let results: Vec<Result<PartDone, std::str::Utf8Error>> = if parts.len() == 1 {
            vec![workers[0].encode_part(parts[0], at_start)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(&parts)
                    .enumerate()
                    .map(|(k, (worker, part))| {
                        scope.spawn(move || worker.encode_part(part, at_start && k == 0))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("an encoding thread panicked"))
                    .collect()
            })
        };
        for ((worker, result), part) in workers.iter_mut().zip(results).zip(&parts) {
            let done = result.map_err(|error| {
                let bad = InvalidUtf8::locate(self.input_name, part, self.offset, self.line, error);
                EncodeLinesError::InvalidUtf8(bad)
            })?;
            if let Some(line) = done.first_unknown_line {
                self.done.first_unknown_line.get_or_insert(self.line + line);
            }
            self.done.unknown += done.unknown;
            self.done.truncated.add(done.truncated);
            self.done.lines += done.lines;
            self.line += done.lines;
            self.offset += part.len() as u64;
            out.write_all(&worker.out)
                .map_err(EncodeLinesError::Write)?;
            worker.out.clear();
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
    truncated: Truncated,
}

/// One thread's cache of finished words and its output for the current part; the tokenizer
/// is shared.
struct EncodeThread<'t> {
    tokenizer: &'t CharLevelTokenizer,
    output: LineOutput,
    split: Split,
    unk: u32,
    /// Each token's output text: its id in decimal, or the token itself.
    token_text: &'t [Box<[u8]>],
    cache: OutputCache,
    ids: Vec<u32>,
    out: Vec<u8>,
    shape: &'t Shape,
}

impl<'t> EncodeThread<'t> {
    fn new(
        tokenizer: &'t CharLevelTokenizer,
        token_text: &'t [Box<[u8]>],
        output: LineOutput,
        shape: &'t Shape,
    ) -> Self {
        EncodeThread {
            tokenizer,
            output,
            split: tokenizer.split(),
            unk: tokenizer.vocab().unk_id(),
            token_text,
            cache: OutputCache::default(),
            ids: Vec::new(),
            out: Vec::new(),
            shape,
        }
    }

    /// Encodes the lines of `part`; `at_start`: the part starts the input, where a byte-order
    /// mark is dropped.
    fn encode_part(
        &mut self,
        part: &[u8],
        at_start: bool,
    ) -> Result<PartDone, std::str::Utf8Error> {
        let text = std::str::from_utf8(part)?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut done = PartDone {
            lines: 0,
            unknown: 0,
            first_unknown_line: None,
            truncated: Truncated::default(),
        };
        for (k, raw) in body.split('\n').enumerate() {
            let line = line_body(raw);
            let line = match at_start && k == 0 {
                true => line.strip_prefix(BOM).unwrap_or(line),
                false => line,
            };
            let unknown = match self.output {
                _ if !self.shape.is_plain() => {
                    let (unknown, cut) = self.encode_shaped_line(raw, line);
                    done.truncated.add(cut);
                    unknown
                }
                LineOutput::Json => self.encode_json_line(line),
                LineOutput::Ids | LineOutput::Tokens => self.encode_line(line),
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
            let hash = OutputCache::hash(word);
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

    /// A line through [`crate::tokenizer::windows`]: its ids, and each token's span in `raw`
    /// (the line as read; `line` is the part of it that is text); returns the unknown
    /// characters and what truncation cut.
    fn encode_shaped_line(&mut self, raw: &str, line: &str) -> (u32, Truncated) {
        let vocab = self.tokenizer.vocab();
        let eow = crate::bpe::EOW;
        let mut ids = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        for word in self.split.words(line) {
            self.tokenizer.encode_word_uncached(word, &mut self.ids);
            ids.extend_from_slice(&self.ids);
            if !self.shape.offsets {
                continue;
            }
            // The word's characters, taken in order by its tokens: an unknown character is
            // one; a token is its text without the end-of-word marker.
            let start = word.as_ptr() as usize - raw.as_ptr() as usize;
            let mut chars = word.char_indices().map(|(i, _)| start + i).peekable();
            let end = start + word.len();
            for &id in &self.ids {
                let count = match id == self.unk {
                    true => 1,
                    false => {
                        let token = vocab.tokens()[id as usize].as_str();
                        token.strip_suffix(eow).unwrap_or(token).chars().count()
                    }
                };
                let from = chars.peek().copied().unwrap_or(end);
                for _ in 0..count {
                    chars.next();
                }
                spans.push([from, chars.peek().copied().unwrap_or(end)]);
            }
        }
        let format = match self.output {
            LineOutput::Ids => WindowFormat::Ids,
            LineOutput::Tokens => WindowFormat::Tokens,
            LineOutput::Json => WindowFormat::Json,
        };
        let spans = self.shape.offsets.then_some(&spans[..]);
        let cut = write_unit(
            self.tokenizer,
            &ids,
            spans,
            self.shape,
            format,
            &mut self.out,
        );
        let unknown = ids.iter().filter(|&&id| id == self.unk).count() as u32;
        (unknown, cut)
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

/// Tokens as the lab shows them: the vocabulary's strings (`</w>` included), a plain line of
/// them separated by spaces; the text is [`CharLevelTokenizer::decode`]'s.
impl TokenText for CharLevelTokenizer {
    fn token(&self, id: u32) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Borrowed(self.vocab().token(id).unwrap_or_default())
    }

    fn write_tokens(&self, ids: &[u32], out: &mut Vec<u8>) {
        for (k, &id) in ids.iter().enumerate() {
            if k > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(self.vocab().token(id).unwrap_or_default().as_bytes());
        }
    }

    fn text(&self, ids: &[u32]) -> String {
        self.decode(ids).unwrap_or_default()
    }
}

/// The finished output of every distinct word met: the word's bytes and its output bytes side
/// by side in one arena, found by a 64-bit hash of the word. One allocation for all words
/// instead of two per word, and a word's key and output share cache lines, which matters
/// because looking words up is most of the work.
#[derive(Default)]
struct OutputCache {
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

impl OutputCache {
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

    /// Every output mode, on one thread and on several, gives what encoding each line alone
    /// gives; a bad byte is located in the whole input.
    #[test]
    fn lines_encode_as_each_line_alone() {
        let tokenizer = CharLevelTokenizer::train(&["low lower lowest", "slow  flow"], 12);
        let mut input = String::new();
        for i in 0..40_000 {
            input.push_str(["low lower\r\n", "\n", "slowest flo xyz\n", "  \n"][i % 4]);
        }
        let mut expected = Vec::new();
        for line in input.lines() {
            let ids = tokenizer.encode(line_body(line));
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            expected.extend_from_slice(ids.join(" ").as_bytes());
            expected.push(b'\n');
        }
        for threads in [1, 3] {
            let mut out = Vec::new();
            let done = tokenizer
                .encode_lines(
                    &mut input.as_bytes(),
                    "x",
                    &mut out,
                    LineOutput::Ids,
                    threads,
                )
                .unwrap();
            assert_eq!(out, expected, "{threads} threads");
            assert_eq!(done.lines, 40_000);
            assert_eq!(done.unknown, 30_000);
            assert_eq!(done.first_unknown_line, Some(3));
        }
        let mut bad = input.clone().into_bytes();
        bad.extend_from_slice(b"ok\nab\xFF\n");
        let offset = input.len() as u64 + 5;
        let err = tokenizer
            .encode_lines(
                &mut &bad[..],
                "standard input",
                &mut Vec::new(),
                LineOutput::Tokens,
                2,
            )
            .unwrap_err();
        match err {
            EncodeLinesError::InvalidUtf8(bad) => {
                assert_eq!((bad.line, bad.offset), (40_002, offset));
                assert_eq!(bad.input, "standard input");
            }
            other => panic!("{other:?}"),
        }
    }
}
