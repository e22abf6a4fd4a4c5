//! The character-level kind's part of encoding a stream (`bpe-lab encode`): what the stream
//! driver ([`crate::tokenizer::stream`]) needs to encode each line. A character-level tokenizer
//! encodes lines only; its parts are cut at line ends by the driver.
//!
//! Each thread keeps, for every distinct word it has met, the finished output bytes of that
//! word (its ids or tokens, already formatted), so a repeated word costs one hash lookup and a
//! copy; a new word is encoded by [`CharLevelTokenizer::encode_word_uncached`]. This is not the
//! tokenizer's id cache ([`CachedEncoder`](crate::tokenizer::codec)) again: it caches output
//! text. Each thread with a clone of the tokenizer's `CachedEncoder`, formatting ids on every
//! hit, was slower than this cache, so the output cache stays (docs/benchmarks.md, "The
//! character-level tokenizers' output cache").
//!
//! Each line is cut into words by the tokenizer's [`Split`](crate::tokenizer::Split), after the
//! line rule of [`crate::files::lines`] (a trailing `\r` dropped, and a byte-order mark at
//! the start of the input, which an editor wrote and is no character of the text); every line,
//! empty ones too, gives one output line. Truncated, windowed or with offsets
//! ([`crate::tokenizer::windows`]), each line is encoded whole and handed to that module.

use std::hash::Hasher;
use std::io::{Read, Write};

use rustc_hash::FxHashMap;
use serde_json::json;

use crate::files::lines::{BOM, line_body};
use crate::tokenizer::bytelevel::ByteLevelError;
use crate::tokenizer::codec::CharLevelTokenizer;
use crate::tokenizer::split::Split;
use crate::tokenizer::stream::{
    self, EncodeOptions, EncodeOutput, EncodeUnit, LineDone, StreamEncode, StreamEncoded,
    StreamError,
};
use crate::tokenizer::windows::{Span, TokenText, Truncated, WindowFormat, write_unit};

/// Distinct words a thread remembers before it starts over.
const CACHE_LIMIT: usize = 1 << 20;

impl CharLevelTokenizer {
    /// Encodes every line of `input` into `output` as `options` say ([`EncodeUnit::Lines`]
    /// only; the special-token options are byte-level ones and do not apply), on
    /// `options.threads` threads, block by block ([`crate::tokenizer::stream`]). A span
    /// ([`crate::tokenizer::windows::Shape::offsets`]) covers the characters of the word a token
    /// holds (`</w>` holds none; a lone `</w>` token has an empty span at the word's end); the
    /// spaces between words are in no span.
    pub fn encode_stream(
        &self,
        input: &mut dyn Read,
        output: &mut dyn Write,
        options: &EncodeOptions,
    ) -> Result<StreamEncoded, StreamError> {
        stream::encode_stream(self, input, output, options)
    }
}

/// What a character-level run shares among its threads: each token's output text (its id in
/// decimal, or the token itself).
pub(crate) struct CharLevelRun {
    token_text: Vec<Box<[u8]>>,
    unk: u32,
}

/// One thread's cache of finished words; the tokenizer is shared.
pub(crate) struct EncodeThread {
    split: Split,
    cache: OutputCache,
    ids: Vec<u32>,
}

/// The character-level kind in the stream driver: lines only.
impl StreamEncode for CharLevelTokenizer {
    type Run<'a> = CharLevelRun;
    type Worker<'a> = EncodeThread;

    fn start(&self, options: &EncodeOptions) -> Result<CharLevelRun, StreamError> {
        if options.unit == EncodeUnit::Text {
            return Err(StreamError::NoWholeText);
        }
        let token_text = self
            .vocab()
            .tokens()
            .iter()
            .enumerate()
            .map(|(id, token)| match options.output {
                EncodeOutput::Ids | EncodeOutput::Count => {
                    id.to_string().into_bytes().into_boxed_slice()
                }
                EncodeOutput::Tokens | EncodeOutput::Json => token.as_bytes().into(),
            })
            .collect();
        Ok(CharLevelRun {
            token_text,
            unk: self.vocab().unk_id(),
        })
    }

    fn worker(&self, _run: &CharLevelRun) -> EncodeThread {
        EncodeThread {
            split: self.split(),
            cache: OutputCache::default(),
            ids: Vec::new(),
        }
    }

    /// Never: a whole text is refused by [`StreamEncode::start`].
    fn can_cut_text(&self) -> bool {
        false
    }

    fn text_cuts(
        &self,
        _run: &CharLevelRun,
        _text: &str,
        _end: usize,
        _parts: usize,
    ) -> Vec<usize> {
        Vec::new()
    }

    fn text_block_end(&self, _run: &CharLevelRun, _text: &str) -> Option<usize> {
        None
    }

    /// None: a character-level tokenizer's special tokens are never read from the text.
    fn forbidden(&self, _run: &CharLevelRun, _text: &str) -> Option<ByteLevelError> {
        None
    }

    fn encode_text_part(
        &self,
        _run: &CharLevelRun,
        _worker: &mut EncodeThread,
        _text: &str,
        _range: std::ops::Range<usize>,
        _ids: &mut Vec<u32>,
        _spans: Option<&mut Vec<Span>>,
    ) -> Result<(), ByteLevelError> {
        unreachable!("a whole text is refused when the run starts")
    }

    fn write_text_part(&self, _ids: &[u32], _output: EncodeOutput, _out: &mut Vec<u8>) {
        unreachable!("a whole text is refused when the run starts")
    }

    fn encode_line(
        &self,
        run: &CharLevelRun,
        worker: &mut EncodeThread,
        raw: &str,
        first: bool,
        options: &EncodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<LineDone, ByteLevelError> {
        let line = line_body(raw);
        let line = match first {
            true => line.strip_prefix(BOM).unwrap_or(line),
            false => line,
        };
        let mut line_out = LineOut {
            tokenizer: self,
            run,
            thread: worker,
            out,
        };
        let from = line_out.out.len();
        let mut done = match stream::window_format(options.output, &options.shape) {
            Some(format) => line_out.encode_shaped(raw, line, format, options),
            None => match options.output {
                EncodeOutput::Json => line_out.encode_json(line),
                EncodeOutput::Ids | EncodeOutput::Tokens => line_out.encode_cached(line),
                EncodeOutput::Count => {
                    let done = line_out.encode_cached(line);
                    line_out.out.truncate(from);
                    return Ok(LineDone { lines: 0, ..done });
                }
            },
        };
        done.lines = line_out.out[from..].iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(done)
    }

    /// The caches hold up to a million small entries each; the caller is usually about to
    /// exit, and handing them back to the allocator one by one took a fifth of the run.
    fn finish_workers(workers: Vec<EncodeThread>) {
        std::mem::forget(workers);
    }
}

/// One line being encoded by one thread.
struct LineOut<'a> {
    tokenizer: &'a CharLevelTokenizer,
    run: &'a CharLevelRun,
    thread: &'a mut EncodeThread,
    out: &'a mut Vec<u8>,
}

impl LineOut<'_> {
    /// Appends the line's tokens (or ids) separated by spaces, and a newline.
    #[inline]
    fn encode_cached(&mut self, line: &str) -> LineDone {
        let mut done = LineDone::default();
        let mut first = true;
        let thread = &mut *self.thread;
        for word in thread.split.words(line) {
            if !first {
                self.out.push(b' ');
            }
            first = false;
            let hash = OutputCache::hash(word);
            if let Some((bytes, unk, ids)) = thread.cache.get(word, hash) {
                self.out.extend_from_slice(bytes);
                done.unknown += u64::from(unk);
                done.ids += u64::from(ids);
            } else {
                let (unk, ids) =
                    Self::encode_new_word(self.tokenizer, self.run, thread, self.out, word, hash);
                done.unknown += u64::from(unk);
                done.ids += u64::from(ids);
            }
        }
        self.out.push(b'\n');
        done
    }

    /// A word not in the cache: encoded, written and cached; its unknown and id counts.
    #[cold]
    fn encode_new_word(
        tokenizer: &CharLevelTokenizer,
        run: &CharLevelRun,
        thread: &mut EncodeThread,
        out: &mut Vec<u8>,
        word: &str,
        hash: u64,
    ) -> (u32, u32) {
        tokenizer.encode_word_uncached(word, &mut thread.ids);
        let start = out.len();
        let mut unknown = 0;
        for (i, &id) in thread.ids.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(&run.token_text[id as usize]);
            unknown += u32::from(id == run.unk);
        }
        let ids = thread.ids.len() as u32;
        thread.cache.insert(word, hash, &out[start..], unknown, ids);
        (unknown, ids)
    }

    /// A line through [`crate::tokenizer::windows`]: its ids, and each token's span in `raw`
    /// (the line as read; `line` is the part of it that is text).
    fn encode_shaped(
        &mut self,
        raw: &str,
        line: &str,
        format: WindowFormat,
        options: &EncodeOptions,
    ) -> LineDone {
        let shape = &options.shape;
        let tokenizer = self.tokenizer;
        let vocab = tokenizer.vocab();
        let eow = crate::bpe::EOW;
        let unk = self.run.unk;
        let thread = &mut *self.thread;
        let mut ids = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        for word in thread.split.words(line) {
            tokenizer.encode_word_uncached(word, &mut thread.ids);
            ids.extend_from_slice(&thread.ids);
            if !shape.offsets {
                continue;
            }
            // The word's characters, taken in order by its tokens: an unknown character is
            // one; a token is its text without the end-of-word marker.
            let start = word.as_ptr() as usize - raw.as_ptr() as usize;
            let mut chars = word.char_indices().map(|(i, _)| start + i).peekable();
            let end = start + word.len();
            for &id in &thread.ids {
                let count = match id == unk {
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
        let spans = shape.offsets.then_some(&spans[..]);
        let truncated: Truncated = write_unit(tokenizer, &ids, spans, shape, format, self.out);
        LineDone {
            ids: ids.len() as u64,
            truncated,
            unknown: ids.iter().filter(|&&id| id == unk).count() as u64,
            lines: 0,
        }
    }

    fn encode_json(&mut self, line: &str) -> LineDone {
        let tokenizer = self.tokenizer;
        let vocab = tokenizer.vocab();
        let thread = &mut *self.thread;
        let mut ids = Vec::new();
        for word in thread.split.words(line) {
            tokenizer.encode_word_uncached(word, &mut thread.ids);
            ids.extend_from_slice(&thread.ids);
        }
        let tokens: Vec<&str> = ids
            .iter()
            .map(|&id| vocab.tokens()[id as usize].as_str())
            .collect();
        let value = json!({"tokens": tokens, "ids": ids});
        serde_json::to_writer(&mut *self.out, &value).expect("writing JSON to a Vec");
        self.out.push(b'\n');
        LineDone {
            ids: ids.len() as u64,
            unknown: ids.iter().filter(|&&id| id == self.run.unk).count() as u64,
            ..LineDone::default()
        }
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
    ids: u32,
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

    /// The output bytes, unknown count and id count of `word`, if cached. Two words with the same
    /// hash share a slot; the other one is then simply not found and encoded again.
    #[inline]
    fn get(&self, word: &str, hash: u64) -> Option<(&[u8], u32, u32)> {
        let slot = self.index.get(&hash)?;
        let start = slot.start as usize;
        let output = start + slot.word_len as usize;
        if &self.arena[start..output] != word.as_bytes() {
            return None;
        }
        Some((
            &self.arena[output..output + slot.output_len as usize],
            slot.unknown,
            slot.ids,
        ))
    }

    fn insert(&mut self, word: &str, hash: u64, output: &[u8], unknown: u32, ids: u32) {
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
            ids,
        };
        self.arena.extend_from_slice(word.as_bytes());
        self.arena.extend_from_slice(output);
        self.index.insert(hash, slot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let options = EncodeOptions {
                unit: EncodeUnit::Lines,
                output: EncodeOutput::Ids,
                threads,
                block_bytes: 100_000,
                ..EncodeOptions::default()
            };
            let done = tokenizer
                .encode_stream(&mut input.as_bytes(), &mut out, &options)
                .unwrap();
            assert_eq!(out, expected, "{threads} threads");
            assert_eq!(done.lines, 40_000);
            assert_eq!(done.unknown, 30_000);
            assert_eq!(done.first_unknown_line, Some(3));
        }
        let mut bad = input.clone().into_bytes();
        bad.extend_from_slice(b"ok\nab\xFF\n");
        let offset = input.len() as u64 + 5;
        let options = EncodeOptions {
            unit: EncodeUnit::Lines,
            output: EncodeOutput::Tokens,
            threads: 2,
            ..EncodeOptions::default()
        };
        let err = tokenizer
            .encode_stream(&mut &bad[..], &mut Vec::new(), &options)
            .unwrap_err();
        match err {
            StreamError::NotUtf8 {
                offset: at,
                line,
                bytes,
            } => {
                assert_eq!((line, at), (40_002, offset));
                assert_eq!(bytes, [0xFF]);
            }
            other => panic!("{other:?}"),
        }
    }

    /// The first unknown character's line is counted over the whole input, past blocks and
    /// parts, and a byte-order mark is dropped only where the input starts.
    #[test]
    fn the_first_unknown_line_and_the_bom_are_placed_in_the_whole_input() {
        let tokenizer = CharLevelTokenizer::train(&["low lower"], 2);
        let mut input = String::from("\u{FEFF}low\n");
        input.push_str(&"low lower\n".repeat(50_000));
        input.push_str("\u{FEFF}low q\nlow\n");
        for (threads, block_bytes) in [(1, 0), (2, 1000), (3, 64)] {
            let options = EncodeOptions {
                unit: EncodeUnit::Lines,
                output: EncodeOutput::Tokens,
                threads,
                block_bytes,
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            let done = tokenizer
                .encode_stream(&mut input.as_bytes(), &mut out, &options)
                .unwrap();
            // The mark on line 50 002 is no BOM there: an unknown character, as is `q`.
            assert_eq!(done.unknown, 2, "{threads} threads");
            assert_eq!(done.first_unknown_line, Some(50_002));
            assert_eq!(done.lines, 50_003);
            let low: Vec<&str> = tokenizer
                .encode("low")
                .iter()
                .map(|&id| tokenizer.vocab().token(id).unwrap())
                .collect();
            let out = String::from_utf8(out).unwrap();
            assert_eq!(out.lines().next(), Some(low.join(" ").as_str()));
        }
    }

    /// A character-level tokenizer encodes lines; a whole text is refused, not encoded as
    /// something else.
    #[test]
    fn a_whole_text_is_refused() {
        let tokenizer = CharLevelTokenizer::train(&["low lower"], 2);
        let err = tokenizer
            .encode_stream(&mut &b"low"[..], &mut Vec::new(), &EncodeOptions::default())
            .unwrap_err();
        assert!(matches!(err, StreamError::NoWholeText), "{err:?}");
    }
}
