//! Encoding with a byte-level tokenizer on several threads, and as a stream (`bpe-lab encode`).
//!
//! One text on several threads: the text is cut where no chunk of the pattern can cross
//! ([`Splitter::cut_points`]: before an ASCII letter that follows a line feed) and where no
//! special token lies across the cut, and each part is split and encoded on its own, looking
//! past its end as the whole text would. The parts' ids, joined in order, are the whole text's
//! (tests compare them on generated text with every kind of character). A part is small (a
//! few hundred KB) and the threads take the next part from a shared counter, so a part that
//! encodes slowly (a script with many tokens a word) does not hold the other threads up.
//!
//! A stream is read in blocks and each block ends at such a cut, so the ids come out while the
//! rest is still being read. A user's pattern (run by the regex engine) has no known cut: the
//! whole input is read first and encoded on one thread.
//!
//! A part's ids are written as soon as it and every part before it are done: on one thread
//! right after the part, on several by the calling thread while the others encode. So only a
//! few parts' output is ever held, not a block's (tens of megabytes of fresh memory, which the
//! kernel zeroes page by page), and writing overlaps encoding.
//!
//! Two units: the whole input as one text (tiktoken's `encode`), or each line as its own text
//! without its line feed, one output line per input line (as the lab's `encode` does).

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use crate::bpe::bytelevel::{ChunkEncoder, Piece, pieces};
use crate::tokenizer::bytelevel::{
    AllowedSpecial, ByteLevelError, ByteLevelTokenizer, DisallowedSpecial,
};
use crate::tokenizer::windows::{Shape, Span, TokenText, Truncated, WindowFormat, write_unit};

/// What one output line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EncodeUnit {
    /// The whole input is one text, its ids on one line (tiktoken's `encode` of the text).
    #[default]
    Text,
    /// Each input line is one text, without its line feed: one output line per input line.
    Lines,
}

/// How the ids of a text are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EncodeOutput {
    /// Ids separated by spaces.
    #[default]
    Ids,
    /// A JSON array of the tokens as strings (bytes that are not UTF-8 as U+FFFD).
    Tokens,
    /// A JSON object, `{"ids": [...], "tokens": [...]}`.
    Json,
    /// Nothing: the ids are only counted ([`StreamEncoded::ids`]).
    Count,
}

/// How [`ByteLevelTokenizer::encode_stream`] encodes.
#[derive(Debug, Clone, Default)]
pub struct EncodeOptions {
    pub allowed: AllowedSpecial,
    pub others: DisallowedSpecial,
    pub unit: EncodeUnit,
    pub output: EncodeOutput,
    /// Threads to encode on (0: one per core, [`crate::bpe::threads_for`]).
    pub threads: usize,
    /// About how many bytes are read before a block is encoded (0: 8 MB). Only the memory
    /// used and how soon the first ids come out depend on it, never the ids.
    pub block_bytes: usize,
}

/// What a stream held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamEncoded {
    pub bytes: u64,
    pub ids: u64,
    /// Output lines written.
    pub lines: u64,
    /// What `--max-tokens` cut ([`ByteLevelTokenizer::encode_stream_shaped`]).
    pub truncated: Truncated,
}

/// What encoding one part of a block gave.
#[derive(Default)]
struct PartDone {
    /// The part's output, ready to write.
    bytes: Vec<u8>,
    ids: u64,
    lines: u64,
    truncated: Truncated,
    /// A shaped whole text: the part's ids and spans (relative to the block), written when the
    /// whole text is done.
    raw: Vec<u32>,
    spans: Vec<Span>,
}

/// Why a stream could not be encoded.
#[derive(Debug)]
pub enum StreamError {
    Read(io::Error),
    Write(io::Error),
    /// The input is not UTF-8 at this byte offset.
    NotUtf8 {
        offset: u64,
    },
    /// The text could not be encoded (a special token not allowed, the pattern failed), at
    /// this byte offset of the input where the error is about a place in the text.
    Encode(ByteLevelError),
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Read(e) => write!(f, "cannot read: {e}"),
            StreamError::Write(e) => write!(f, "cannot write: {e}"),
            StreamError::NotUtf8 { offset } => write!(
                f,
                "not UTF-8 at byte {offset}; byte-level tokenizers encode text"
            ),
            StreamError::Encode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StreamError {}

/// One encoding thread's state, kept from block to block: its chunk cache, and buffers that
/// would otherwise be fresh memory for every part (which the kernel must zero first).
struct EncodeThread<'r> {
    encoder: ChunkEncoder<'r>,
    ids: Vec<u32>,
}

/// Output buffers, handed back after they are written so the next parts reuse them.
type BufferPool = Mutex<Vec<Vec<u8>>>;

/// Parts of a block at least this long are worth a thread's attention.
const PART_BYTES: usize = 256 << 10;
/// A stream is encoded in blocks of about this many bytes.
const BLOCK_BYTES: usize = 8 << 20;

/// The special tokens that act on a text under some options: those cutting it (allowed) and
/// those that are errors where they occur.
struct SpecialsInPlay<'a> {
    allowed: Vec<&'a str>,
    errors: Vec<&'a str>,
}

impl<'a> SpecialsInPlay<'a> {
    fn new(
        tokenizer: &'a ByteLevelTokenizer,
        allowed: &AllowedSpecial,
        others: DisallowedSpecial,
    ) -> Result<Self, ByteLevelError> {
        if let AllowedSpecial::Only(set) = allowed
            && let Some(unknown) = set.iter().find(|s| !tokenizer.specials().contains_key(*s))
        {
            return Err(ByteLevelError::UnknownSpecial(unknown.clone()));
        }
        let is_allowed = |s: &str| match allowed {
            AllowedSpecial::None => false,
            AllowedSpecial::All => true,
            AllowedSpecial::Only(set) => set.contains(s),
        };
        let names = || tokenizer.specials().keys().map(String::as_str);
        Ok(SpecialsInPlay {
            allowed: names().filter(|s| is_allowed(s)).collect(),
            errors: match others {
                DisallowedSpecial::Error => names().filter(|s| !is_allowed(s)).collect(),
                DisallowedSpecial::AsText => Vec::new(),
            },
        })
    }

    /// The first special token in `text` that is an error: (its offset, its text).
    fn first_error(&self, text: &str) -> Option<(usize, &'a str)> {
        if self.errors.is_empty() {
            return None;
        }
        let mut at = 0;
        for piece in pieces(text, &self.errors) {
            match piece {
                Piece::Text(t) => at = t.as_ptr() as usize - text.as_ptr() as usize + t.len(),
                Piece::Special(i) => return Some((at, self.errors[i])),
            }
        }
        None
    }

    /// Whether a cut at byte `cut` of `text` leaves every acting special whole and not
    /// starting at the cut (the part before must not end where a special begins, which would
    /// change what the last chunk before it sees).
    fn cut_is_clear(&self, text: &str, cut: usize) -> bool {
        self.allowed.iter().chain(&self.errors).all(|s| {
            let from = floor_char(text, cut.saturating_sub(s.len() - 1));
            let to = ceil_char(text, (cut + s.len()).min(text.len()));
            // An occurrence overlapping [cut, cut + 1) starts in (cut - len, cut].
            let mut at = from;
            while let Some(o) = text[at..to].find(*s) {
                let start = at + o;
                if start <= cut && cut < start + s.len() {
                    return false;
                }
                at = start + 1;
                at = ceil_char(text, at);
                if at >= to {
                    break;
                }
            }
            true
        })
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl ByteLevelTokenizer {
    /// Whether a long text is encoded as it is read, in blocks and on several threads: true
    /// for the built-in patterns; a user's regex has no known place to cut text, so the whole
    /// input is read first and encoded on one thread.
    pub fn can_stream(&self) -> bool {
        self.splitter().can_cut()
    }

    /// Places where `text[from..to]` can be cut into about `parts` parts whose ids, joined,
    /// are the whole text's: ascending, strictly inside `from..to`.
    fn part_cuts(
        &self,
        text: &str,
        from: usize,
        to: usize,
        parts: usize,
        acting: &SpecialsInPlay,
    ) -> Vec<usize> {
        self.splitter()
            .cut_points(&text[from..to], parts)
            .into_iter()
            .map(|c| c + from)
            .filter(|&c| acting.cut_is_clear(text, c))
            .collect()
    }

    /// Appends the ids of `text[range]` to `out`, where the range's ends are 0, the text's
    /// length or places [`Self::part_cuts`] gave: the chunks of the whole text that start in
    /// the range.
    fn encode_part(
        &self,
        text: &str,
        range: std::ops::Range<usize>,
        acting: &SpecialsInPlay,
        encoder: &mut ChunkEncoder,
        out: &mut Vec<u32>,
        mut spans: Option<&mut Vec<Span>>,
    ) -> Result<(), ByteLevelError> {
        let (start, end) = (range.start, range.end);
        let part = &text[start..end];
        if !acting.errors.is_empty()
            && let Some(Piece::Special(i)) = pieces(part, &acting.errors)
                .into_iter()
                .find(|p| matches!(p, Piece::Special(_)))
        {
            let token = acting.errors[i];
            return Err(ByteLevelError::DisallowedSpecial {
                token: token.to_owned(),
                offset: start + part.find(token).unwrap_or(0),
            });
        }
        // Where the next piece starts in `text` (for spans).
        let mut pos = start;
        for piece in pieces(part, &acting.allowed) {
            match piece {
                Piece::Special(i) => {
                    let token = acting.allowed[i];
                    out.push(self.specials()[token]);
                    if let Some(spans) = spans.as_deref_mut() {
                        spans.push([pos, pos + token.len()]);
                    }
                    pos += token.len();
                }
                Piece::Text(t) => {
                    // Where the piece starts in `text`; the last piece of a part that ends at
                    // a cut is split seeing past the cut, as in the whole text.
                    let at = t.as_ptr() as usize - text.as_ptr() as usize;
                    pos = at + t.len();
                    let view = if at + t.len() == end { &text[at..] } else { t };
                    // Only a table built to allow it lacks a byte (see
                    // `ByteLevelTokenizer::new_allowing_missing_bytes`).
                    let mut encoded = true;
                    self.splitter()
                        .for_each_chunk(view, 0, t.len(), |chunk| {
                            let first = out.len();
                            encoded &= encoder.encode(chunk.as_bytes(), out);
                            if let Some(spans) = spans.as_deref_mut() {
                                // A chunk's tokens are its bytes in order, so each token's
                                // span follows the one before (a pattern that drops text
                                // leaves gaps between chunks, never inside one).
                                let mut at = chunk.as_ptr() as usize - text.as_ptr() as usize;
                                for &id in &out[first..] {
                                    let len = self.token_bytes(id).map_or(0, <[u8]>::len);
                                    spans.push([at, at + len]);
                                    at += len;
                                }
                            }
                        })
                        .map_err(ByteLevelError::from)?;
                    if !encoded {
                        return Err(ByteLevelError::MissingBytes(self.ranks().missing_bytes()));
                    }
                }
            }
        }
        Ok(())
    }

    /// The ids of `text` (as [`ByteLevelTokenizer::encode_with`]), cut into up to `parts`
    /// parts encoded on `threads` threads. The ids are the same for any `parts` and
    /// `threads`; more parts than threads balance the threads' work.
    pub fn encode_in_parts(
        &self,
        text: &str,
        allowed: &AllowedSpecial,
        others: DisallowedSpecial,
        parts: usize,
        threads: usize,
    ) -> Result<Vec<u32>, ByteLevelError> {
        let acting = SpecialsInPlay::new(self, allowed, others)?;
        let mut cuts = vec![0];
        cuts.extend(self.part_cuts(text, 0, text.len(), parts.max(1), &acting));
        cuts.push(text.len());
        // One encoder (its buffers and cache: a few MB) per thread that has a part to take.
        let mut encoders: Vec<ChunkEncoder> = (0..threads.clamp(1, cuts.len() - 1))
            .map(|_| ChunkEncoder::new(self.ranks()))
            .collect();
        let results = on_threads(&cuts, &mut encoders, |start, end, encoder| {
            // Room for a token per four bytes from the start: growing a buffer of millions of
            // ids by doubling copied it again at each step.
            let mut ids = Vec::with_capacity((end - start) / 4 + 16);
            self.encode_part(text, start..end, &acting, encoder, &mut ids, None)
                .map(|()| ids)
        });
        let mut parts: Vec<Vec<u32>> = results.into_iter().collect::<Result<_, _>>()?;
        if parts.len() == 1 {
            // One part (one thread): its ids are the result, not copied into another buffer.
            return Ok(parts.pop().unwrap_or_default());
        }
        let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        for ids in parts {
            out.extend(ids);
        }
        Ok(out)
    }

    /// Encodes what `input` holds and writes it to `output` as `options` say, block by block
    /// (see the module's notes); returns how much there was. Nothing is written for a block
    /// that fails (a special token not allowed, input that is not UTF-8), but blocks before it
    /// may have been.
    pub fn encode_stream(
        &self,
        input: &mut dyn Read,
        output: &mut dyn Write,
        options: &EncodeOptions,
    ) -> Result<StreamEncoded, StreamError> {
        self.encode_stream_shaped(input, output, options, &Shape::default())
    }

    /// [`ByteLevelTokenizer::encode_stream`], each unit's ids truncated, cut into windows or
    /// shown with their spans as `shape` says ([`crate::tokenizer::windows`]). A shaped whole
    /// text is written when all of it is encoded (its windows need its length); lines are
    /// written as they come.
    pub fn encode_stream_shaped(
        &self,
        input: &mut dyn Read,
        output: &mut dyn Write,
        options: &EncodeOptions,
        shape: &Shape,
    ) -> Result<StreamEncoded, StreamError> {
        let format = window_format(options.output, shape);
        let acting = SpecialsInPlay::new(self, &options.allowed, options.others)
            .map_err(StreamError::Encode)?;
        // Workers are made when a block has parts for them (see `encode_block`), so a small
        // input costs one, whatever `threads` says.
        let mut encoders: Vec<EncodeThread> = Vec::new();
        let pool = BufferPool::default();
        // Cuts are known for the built-in patterns; a user's pattern reads everything first.
        let streams = self.splitter().can_cut();
        let block = match options.block_bytes {
            0 => BLOCK_BYTES,
            n => n,
        };
        let step = block.min(1 << 20);
        let mut writer = OutputState::new(options.output, options.unit);
        let mut done = StreamEncoded::default();
        // Room for a block and one step more from the start: growing by doubling would copy
        // the text into fresh memory at every step.
        let mut buf: Vec<u8> = Vec::with_capacity(if streams { block + step } else { 0 });
        let mut base: u64 = 0;
        let mut eof = false;
        let mut want = block;
        // A shaped whole text: its ids and spans so far.
        let mut whole: (Vec<u32>, Vec<Span>) = Default::default();
        while !eof || !buf.is_empty() {
            // Fill the buffer to a block (or everything, for a pattern without cuts).
            while !eof && (!streams || buf.len() < want) {
                if options.unit == EncodeUnit::Lines {
                    // One read at a time: a line that has come (a pipe written line by line)
                    // is encoded and written before the next is waited for.
                    let n = read_some(input, &mut buf, step).map_err(StreamError::Read)?;
                    eof = n == 0;
                    // A short read is all there is for now (a file fills every read).
                    if n < step && buf[buf.len() - n..].contains(&b'\n') {
                        break;
                    }
                    continue;
                }
                // `read_to_end` reads into the spare capacity without zeroing it first.
                let n = (&mut *input)
                    .take(step as u64)
                    .read_to_end(&mut buf)
                    .map_err(StreamError::Read)?;
                eof = n == 0;
            }
            let text = match std::str::from_utf8(&buf) {
                Ok(text) => text,
                Err(e) if e.error_len().is_none() && !eof => {
                    std::str::from_utf8(&buf[..e.valid_up_to()]).expect("valid up to here")
                }
                Err(e) => {
                    return Err(StreamError::NotUtf8 {
                        offset: base + e.valid_up_to() as u64,
                    });
                }
            };
            let valid = text.len();
            // Where this block ends.
            let end = if eof && valid == buf.len() {
                text.len()
            } else {
                match self.block_end(text, options.unit, &acting) {
                    Some(end) => end,
                    None if eof => text.len(),
                    None => {
                        // No place to end a block yet: read on.
                        want = buf.len() + step;
                        continue;
                    }
                }
            };
            // A special token that is not allowed fails the block before any of it is written.
            if let Some((offset, token)) = acting.first_error(&text[..end]) {
                return Err(StreamError::Encode(ByteLevelError::DisallowedSpecial {
                    token: token.to_owned(),
                    offset: base as usize + offset,
                }));
            }
            let block_work = BlockWork {
                acting: &acting,
                options,
                shape,
                format,
            };
            self.encode_block(text, end, &block_work, &mut encoders, &pool, |part| {
                let part = part.map_err(|e| StreamError::Encode(shift(e, base)))?;
                done.ids += part.ids;
                done.lines += part.lines;
                done.truncated.add(part.truncated);
                if let (EncodeUnit::Text, Some(_)) = (options.unit, format) {
                    whole.0.extend_from_slice(&part.raw);
                    let at = base as usize;
                    whole
                        .1
                        .extend(part.spans.iter().map(|[s, e]| [s + at, e + at]));
                    return Ok(());
                }
                writer
                    .write(output, &part.bytes, part.ids)
                    .map_err(StreamError::Write)?;
                pool.lock().expect("no thread panicked").push(part.bytes);
                Ok(())
            })?;
            done.bytes += end as u64;
            base += end as u64;
            buf.drain(..end);
            want = block;
            if options.unit == EncodeUnit::Lines {
                // What came line by line goes out so: the reader may be waiting for it.
                output.flush().map_err(StreamError::Write)?;
            }
        }
        match (options.unit, format) {
            (EncodeUnit::Text, Some(format)) => {
                let mut bytes = Vec::new();
                let spans = shape.offsets.then_some(&whole.1[..]);
                done.truncated = write_unit(self, &whole.0, spans, shape, format, &mut bytes);
                done.lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                output.write_all(&bytes).map_err(StreamError::Write)?;
            }
            _ => done.lines += writer.finish(output).map_err(StreamError::Write)?,
        }
        output.flush().map_err(StreamError::Write)?;
        Ok(done)
    }

    /// Where a block of `text` (the valid text read so far, more to come) may end: after its
    /// last line feed for lines; at the last cut for a whole text, leaving room after it for
    /// the look-ahead and for a special token to be seen whole.
    fn block_end(&self, text: &str, unit: EncodeUnit, acting: &SpecialsInPlay) -> Option<usize> {
        match unit {
            EncodeUnit::Lines => text.rfind('\n').map(|i| i + 1),
            EncodeUnit::Text => {
                let margin = acting
                    .allowed
                    .iter()
                    .chain(&acting.errors)
                    .map(|s| s.len())
                    .max()
                    .unwrap_or(0)
                    + 8;
                let bytes = text.as_bytes();
                let mut i = text.len().checked_sub(margin)?;
                while i > 0 {
                    i -= 1;
                    if bytes[i] == b'\n'
                        && self.splitter().is_cut(text, i + 1)
                        && acting.cut_is_clear(text, i + 1)
                    {
                        return Some(i + 1);
                    }
                }
                None
            }
        }
    }

    /// The output of `text[..end]` (a block), in parts, each handed to `deliver` in order as
    /// (bytes, ids, lines), or the error that encoding it met; stops at `deliver`'s first error.
    fn encode_block<'s>(
        &'s self,
        text: &str,
        end: usize,
        block: &BlockWork,
        encoders: &mut Vec<EncodeThread<'s>>,
        pool: &BufferPool,
        deliver: impl FnMut(Result<PartDone, ByteLevelError>) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        let BlockWork {
            acting,
            options,
            shape,
            format,
        } = *block;
        let threads = crate::bpe::threads_for(options.threads);
        let parts = (end / PART_BYTES).max(1) * threads;
        let mut cuts = vec![0];
        match options.unit {
            EncodeUnit::Text => cuts.extend(self.part_cuts(text, 0, end, parts, acting)),
            EncodeUnit::Lines => {
                let share = end.div_ceil(parts).max(1);
                let mut at = share;
                while at < end {
                    match text.as_bytes()[at..end].iter().position(|&b| b == b'\n') {
                        Some(i) if at + i + 1 < end => cuts.push(at + i + 1),
                        _ => break,
                    }
                    at = cuts[cuts.len() - 1] + share;
                }
            }
        }
        cuts.push(end);
        // The block was searched for specials that are errors before (encode_stream): its
        // parts need not be again.
        let acting = &SpecialsInPlay {
            allowed: acting.allowed.clone(),
            errors: Vec::new(),
        };
        let work = |start: usize, stop: usize, worker: &mut EncodeThread| {
            let EncodeThread { encoder, ids } = worker;
            ids.clear();
            let mut bytes = pool
                .lock()
                .expect("no thread panicked")
                .pop()
                .unwrap_or_default();
            bytes.clear();
            let mut spans = Vec::new();
            let want_spans = shape.offsets && format.is_some();
            match options.unit {
                EncodeUnit::Text if format.is_some() => {
                    let spans_out = want_spans.then_some(&mut spans);
                    self.encode_part(text, start..stop, acting, encoder, ids, spans_out)?;
                    Ok(PartDone {
                        ids: ids.len() as u64,
                        raw: ids.clone(),
                        spans,
                        ..PartDone::default()
                    })
                }
                EncodeUnit::Text => {
                    self.encode_part(text, start..stop, acting, encoder, ids, None)?;
                    self.format(ids, options.output, &mut bytes);
                    Ok(PartDone {
                        bytes,
                        ids: ids.len() as u64,
                        ..PartDone::default()
                    })
                }
                EncodeUnit::Lines => {
                    let mut part = PartDone::default();
                    for line in text[start..stop].split_inclusive('\n') {
                        let line = line.strip_suffix('\n').unwrap_or(line);
                        ids.clear();
                        spans.clear();
                        let spans_out = want_spans.then_some(&mut spans);
                        self.encode_part(line, 0..line.len(), acting, encoder, ids, spans_out)
                            .map_err(|e| {
                                shift(e, (line.as_ptr() as usize - text.as_ptr() as usize) as u64)
                            })?;
                        part.ids += ids.len() as u64;
                        if let Some(format) = format {
                            let from = bytes.len();
                            let spans = want_spans.then_some(&spans[..]);
                            part.truncated
                                .add(write_unit(self, ids, spans, shape, format, &mut bytes));
                            part.lines +=
                                bytes[from..].iter().filter(|&&b| b == b'\n').count() as u64;
                            continue;
                        }
                        self.format_unit(ids, options.output, &mut bytes);
                        if options.output != EncodeOutput::Count {
                            bytes.push(b'\n');
                        }
                        part.lines += 1;
                    }
                    part.bytes = bytes;
                    Ok(part)
                }
            }
        };
        // A worker per thread that has a part to take, made the first time one is needed: the
        // memory follows the input's size, not `threads` (each worker's cache starts at a few MB).
        let needed = threads.min(cuts.len() - 1).max(1);
        while encoders.len() < needed {
            encoders.push(EncodeThread {
                encoder: ChunkEncoder::new(self.ranks()),
                ids: Vec::new(),
            });
        }
        in_order(&cuts, &mut encoders[..needed], work, deliver)
    }

    /// Ids as text, for one part of a whole text: ids separated by spaces; tokens as JSON
    /// strings separated by commas; for JSON, the ids, a NUL, then the tokens.
    fn format(&self, ids: &[u32], output: EncodeOutput, out: &mut Vec<u8>) {
        match output {
            EncodeOutput::Count => {}
            EncodeOutput::Ids => write_ids(ids, out),
            EncodeOutput::Tokens => self.write_tokens(ids, out),
            EncodeOutput::Json => {
                write_ids_json(ids, out);
                out.push(0);
                self.write_tokens(ids, out);
            }
        }
    }

    /// One whole unit (a line) in its final form.
    fn format_unit(&self, ids: &[u32], output: EncodeOutput, out: &mut Vec<u8>) {
        match output {
            EncodeOutput::Count => {}
            EncodeOutput::Ids => write_ids(ids, out),
            EncodeOutput::Tokens => {
                out.push(b'[');
                self.write_tokens(ids, out);
                out.push(b']');
            }
            EncodeOutput::Json => {
                out.extend_from_slice(b"{\"ids\":[");
                write_ids_json(ids, out);
                out.extend_from_slice(b"],\"tokens\":[");
                self.write_tokens(ids, out);
                out.extend_from_slice(b"]}");
            }
        }
    }

    fn write_tokens(&self, ids: &[u32], out: &mut Vec<u8>) {
        for (k, &id) in ids.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            let token = String::from_utf8_lossy(self.token_bytes(id).unwrap_or_default());
            serde_json::to_writer(&mut *out, &token).expect("writing to memory");
        }
    }
}

/// What every part of a block is encoded with.
#[derive(Clone, Copy)]
struct BlockWork<'a> {
    acting: &'a SpecialsInPlay<'a>,
    options: &'a EncodeOptions,
    shape: &'a Shape,
    /// `Some` when the units are shaped ([`crate::tokenizer::windows`]).
    format: Option<WindowFormat>,
}

/// How shaped units are written, or `None` when the ids are written as they are.
fn window_format(output: EncodeOutput, shape: &Shape) -> Option<WindowFormat> {
    match output {
        _ if shape.is_plain() => None,
        EncodeOutput::Count => None,
        EncodeOutput::Ids => Some(WindowFormat::Ids),
        EncodeOutput::Tokens => Some(WindowFormat::Tokens),
        EncodeOutput::Json => Some(WindowFormat::Json),
    }
}

/// Reads what `input` has now (at most `step` bytes, one read) onto the end of `buf`.
fn read_some(input: &mut dyn Read, buf: &mut Vec<u8>, step: usize) -> io::Result<usize> {
    let start = buf.len();
    buf.resize(start + step, 0);
    let n = loop {
        match input.read(&mut buf[start..]) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => break other,
        }
    };
    buf.truncate(start + *n.as_ref().unwrap_or(&0));
    n
}

/// Tokens as a byte-level tokenizer shows them: JSON strings, bytes that are no whole
/// character as U+FFFD; a plain line is a JSON array of them.
impl TokenText for ByteLevelTokenizer {
    fn token(&self, id: u32) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.token_bytes(id).unwrap_or_default())
    }

    fn write_tokens(&self, ids: &[u32], out: &mut Vec<u8>) {
        out.push(b'[');
        ByteLevelTokenizer::write_tokens(self, ids, out);
        out.push(b']');
    }

    fn text(&self, ids: &[u32]) -> String {
        String::from_utf8_lossy(&self.decode_bytes(ids).unwrap_or_default()).into_owned()
    }
}

/// An error about a place in a part, moved to the place in the whole input.
fn shift(e: ByteLevelError, by: u64) -> ByteLevelError {
    match e {
        ByteLevelError::DisallowedSpecial { token, offset } => ByteLevelError::DisallowedSpecial {
            token,
            offset: offset + by as usize,
        },
        other => other,
    }
}

/// Runs `work` on every part `cuts[i]..cuts[i + 1]` on one thread per encoder, each thread
/// taking the next part from a shared counter; the results in the parts' order.
fn on_threads<W: Send, T: Send>(
    cuts: &[usize],
    encoders: &mut [W],
    work: impl Fn(usize, usize, &mut W) -> T + Sync,
) -> Vec<T> {
    let parts = cuts.len() - 1;
    if encoders.len() == 1 || parts == 1 {
        let encoder = &mut encoders[0];
        return cuts.windows(2).map(|w| work(w[0], w[1], encoder)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = thread::scope(|scope| {
        let workers: Vec<_> = encoders
            .iter_mut()
            .take(parts)
            .map(|encoder| {
                let (next, work) = (&next, &work);
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= parts {
                            break mine;
                        }
                        mine.push((i, work(cuts[i], cuts[i + 1], encoder)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("an encoding thread panicked"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// Runs `work` on every part `cuts[i]..cuts[i + 1]` on one thread per encoder, as
/// [`on_threads`] does, and hands each result to `deliver` on the calling thread in the parts'
/// order, as soon as it and every one before it are done: the calling thread writes while the
/// encoders encode, and only parts finished ahead of their turn wait in memory. At
/// `deliver`'s first error no new part starts and that error is returned.
fn in_order<W: Send, T: Send, E>(
    cuts: &[usize],
    encoders: &mut [W],
    work: impl Fn(usize, usize, &mut W) -> T + Sync,
    mut deliver: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    let parts = cuts.len() - 1;
    if encoders.len() == 1 || parts == 1 {
        let encoder = &mut encoders[0];
        for w in cuts.windows(2) {
            deliver(work(w[0], w[1], encoder))?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for encoder in encoders.iter_mut().take(parts) {
            let (next, stop, work, send) = (&next, &stop, &work, send.clone());
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= parts || send.send((i, work(cuts[i], cuts[i + 1], encoder))).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the encoders hold senders now: the loop ends when they are all done.
        drop(send);
        let mut waiting: BTreeMap<usize, T> = BTreeMap::new();
        let mut due = 0;
        for (i, t) in receive {
            waiting.insert(i, t);
            while let Some(t) = waiting.remove(&due) {
                due += 1;
                if let Err(e) = deliver(t) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}

/// The separators between the parts of a whole text, and the brackets around it.
struct OutputState {
    output: EncodeOutput,
    unit: EncodeUnit,
    started: bool,
    /// Something was written inside the current array.
    any: bool,
    /// For JSON of a whole text: the tokens, written after the ids.
    tokens: Vec<u8>,
}

impl OutputState {
    fn new(output: EncodeOutput, unit: EncodeUnit) -> Self {
        OutputState {
            output,
            unit,
            started: false,
            any: false,
            tokens: Vec::new(),
        }
    }

    fn write(&mut self, out: &mut dyn Write, bytes: &[u8], ids: u64) -> io::Result<()> {
        if self.unit == EncodeUnit::Lines || self.output == EncodeOutput::Count {
            return out.write_all(bytes);
        }
        if !self.started {
            self.started = true;
            match self.output {
                EncodeOutput::Ids | EncodeOutput::Count => {}
                EncodeOutput::Tokens => out.write_all(b"[")?,
                EncodeOutput::Json => out.write_all(b"{\"ids\":[")?,
            }
        }
        if ids == 0 {
            return Ok(());
        }
        let (ids_text, tokens) = match self.output {
            EncodeOutput::Json => {
                let nul = bytes.iter().position(|&b| b == 0).expect("a NUL");
                (&bytes[..nul], Some(&bytes[nul + 1..]))
            }
            _ => (bytes, None),
        };
        if self.any {
            out.write_all(if self.output == EncodeOutput::Ids {
                b" "
            } else {
                b","
            })?;
            if tokens.is_some() {
                self.tokens.push(b',');
            }
        }
        self.any = true;
        if let Some(tokens) = tokens {
            self.tokens.extend_from_slice(tokens);
        }
        out.write_all(ids_text)
    }

    /// Closes the whole text's line; the number of lines written.
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        if self.unit == EncodeUnit::Lines || self.output == EncodeOutput::Count {
            return Ok(0);
        }
        if !self.started {
            self.write(out, &[], 0)?;
        }
        match self.output {
            EncodeOutput::Ids | EncodeOutput::Count => out.write_all(b"\n")?,
            EncodeOutput::Tokens => out.write_all(b"]\n")?,
            EncodeOutput::Json => {
                out.write_all(b"],\"tokens\":[")?;
                out.write_all(&self.tokens)?;
                out.write_all(b"]}\n")?;
            }
        }
        Ok(1)
    }
}

/// Ids in decimal, separated by single spaces.
fn write_ids(ids: &[u32], out: &mut Vec<u8>) {
    write_separated(ids, b' ', out);
}

/// Ids in decimal, separated by commas.
fn write_ids_json(ids: &[u32], out: &mut Vec<u8>) {
    write_separated(ids, b',', out);
}

fn write_separated(ids: &[u32], sep: u8, out: &mut Vec<u8>) {
    // Two digits at a time, from a table of "00" to "99".
    const PAIRS: [[u8; 2]; 100] = {
        let mut t = [[0u8; 2]; 100];
        let mut i = 0;
        while i < 100 {
            t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
            i += 1;
        }
        t
    };
    out.reserve(ids.len() * 7);
    let mut digits = [0u8; 10];
    for (k, &id) in ids.iter().enumerate() {
        if k > 0 {
            out.push(sep);
        }
        let mut n = id;
        let mut i = digits.len();
        while n >= 100 {
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[(n % 100) as usize]);
            n /= 100;
        }
        if n >= 10 {
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[n as usize]);
        } else {
            i -= 1;
            digits[i] = b'0' + n as u8;
        }
        for &d in &digits[i..] {
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::{ByteLevelConfig, TrainingSettings};

    #[test]
    fn ids_are_written_in_decimal() {
        let mut out = Vec::new();
        write_ids(&[0, 7, 10, 4294967295, 100257], &mut out);
        assert_eq!(out, b"0 7 10 4294967295 100257");
    }

    /// A worker (its cache reserves a few MB) is made only for a part there is: a huge thread
    /// count on a small input costs one, where reserving one per thread up front ran out of
    /// memory.
    #[test]
    fn a_small_input_costs_one_worker_whatever_the_threads() {
        use crate::bpe::TieBreak;
        use crate::bpe::bytelevel::SplitPattern;
        let text = "low lower lowest low";
        let tokenizer = ByteLevelTokenizer::train_with(
            text,
            TrainingSettings::new(4).tie_break(TieBreak::default()),
            &ByteLevelConfig::new(SplitPattern::Cl100k),
        )
        .unwrap();
        let encode = |threads| {
            let options = EncodeOptions {
                threads,
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            tokenizer
                .encode_stream(&mut text.as_bytes(), &mut out, &options)
                .unwrap();
            let parts = tokenizer
                .encode_in_parts(
                    text,
                    &AllowedSpecial::None,
                    DisallowedSpecial::Error,
                    4,
                    threads,
                )
                .unwrap();
            (out, parts)
        };
        assert_eq!(encode(1_000_000), encode(1));
    }
}
