//! The stream driver: encoding what a reader holds, in blocks, on several threads, for either
//! kind of tokenizer (`bpe-lab encode`, `bpe-lab count-tokens`).
//!
//! The input is read in blocks of about 8 MB. A block ends where a text may be cut: after a line
//! feed when each line is its own text ([`EncodeUnit::Lines`]); for one whole text
//! ([`EncodeUnit::Text`]) where the kind says no unit of it can cross (a byte-level pattern's
//! cut points), leaving room after it for the look-ahead and for a special token to be seen
//! whole. A kind that knows no such place (a user's regex) has the whole input read first. A
//! short read in line mode (a pipe written line by line) is encoded at once, so interactive use
//! sees each line's answer as soon as the line is complete.
//!
//! A block is cut into parts of a few hundred KB, more parts than threads, and the threads take
//! the next part from a shared counter, so a part that encodes slowly does not hold the others
//! up. A part's output is written as soon as it and every part before it are done: on one thread
//! right after the part, on several by the calling thread while the others encode. Only a few
//! parts' output is ever held (their buffers are reused), never a block's, so memory follows the
//! block size, not the thread count; and a thread's state (its caches, a few MB) is made only
//! when a block has a part for it.
//!
//! Nothing is written for a block that fails (input that is not UTF-8, a special token not
//! allowed), but blocks before it may have been.
//!
//! What differs by kind is behind [`StreamEncode`]: what a run and a thread need, where a whole
//! text may be cut, which special tokens are forbidden, and how one part or one line is
//! encoded. The character-level kind implements it in `encode_stream.rs`, the byte-level kind in
//! `bytelevel_stream.rs`.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use crate::tokenizer::bytelevel::{AllowedSpecial, ByteLevelError, DisallowedSpecial};
use crate::tokenizer::windows::{Shape, Span, TokenText, Truncated, WindowFormat, write_unit};

/// What one output line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EncodeUnit {
    /// The whole input is one text, its ids on one line (tiktoken's `encode` of the text).
    /// Byte-level tokenizers only.
    #[default]
    Text,
    /// Each input line is one text, without its line feed: one output line per input line.
    Lines,
}

/// What is written for each unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EncodeOutput {
    /// Ids in decimal, separated by spaces.
    #[default]
    Ids,
    /// The tokens: a character-level tokenizer's separated by spaces, a byte-level one's as a
    /// JSON array of strings (bytes that are not UTF-8 as U+FFFD).
    Tokens,
    /// A JSON object, `{"ids": [...], "tokens": [...]}`.
    Json,
    /// Nothing: the ids are only counted ([`StreamEncoded::ids`]).
    Count,
}

/// How [`crate::tokenizer::Tokenizer::encode_stream`] encodes, for either kind. Build it with
/// `..EncodeOptions::default()` so that a new option touches only the places that set it.
#[derive(Debug, Clone, Default)]
pub struct EncodeOptions {
    /// Byte-level tokenizers: the special tokens encoded as themselves where the text holds
    /// them.
    pub allowed: AllowedSpecial,
    /// Byte-level tokenizers: what the other special tokens are where the text holds them.
    pub others: DisallowedSpecial,
    pub unit: EncodeUnit,
    pub output: EncodeOutput,
    /// Each unit's ids truncated, cut into windows or shown with their spans
    /// ([`crate::tokenizer::windows`]). A shaped whole text is written when all of it is
    /// encoded (its windows need its length); lines are written as they come.
    pub shape: Shape,
    /// Threads to encode on (0: one per core, [`crate::bpe::threads_for`]).
    pub threads: usize,
    /// About how many bytes are read before a block is encoded (0: 8 MB). Only the memory
    /// used and how soon the first ids come out depend on it, never the output.
    pub block_bytes: usize,
}

/// What a stream held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamEncoded {
    /// Input bytes.
    pub bytes: u64,
    pub ids: u64,
    /// Output lines written.
    pub lines: u64,
    /// What [`Shape::max_tokens`] cut.
    pub truncated: Truncated,
    /// Character-level tokenizers: characters outside the vocabulary (each became the unknown
    /// token).
    pub unknown: u64,
    /// The 1-based input line of the first of them.
    pub first_unknown_line: Option<u64>,
}

/// Why a stream could not be encoded.
#[derive(Debug)]
pub enum StreamError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed (a closed pipe among others).
    Write(io::Error),
    /// The input is not UTF-8: the 0-based byte offset of the first bad byte in the whole
    /// input, its 1-based line, and the bad bytes (none when the input ends inside a
    /// character).
    NotUtf8 {
        offset: u64,
        line: u64,
        bytes: Vec<u8>,
    },
    /// The text could not be encoded (a special token not allowed, the pattern failed); a
    /// place in the text is a byte offset of the whole input.
    Encode(ByteLevelError),
    /// The tokenizer encodes no whole text ([`EncodeUnit::Text`]): a character-level one
    /// encodes each line on its own.
    NoWholeText,
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Read(e) => write!(f, "cannot read: {e}"),
            StreamError::Write(e) => write!(f, "cannot write: {e}"),
            StreamError::NotUtf8 {
                offset,
                line,
                bytes,
            } => {
                write!(f, "not UTF-8 at byte {offset} (line {line}")?;
                match bytes.is_empty() {
                    true => f.write_str(", the text ends in the middle of a character")?,
                    false => {
                        f.write_str(":")?;
                        for b in bytes {
                            write!(f, " 0x{b:02X}")?;
                        }
                    }
                }
                f.write_str("); tokenizers encode text, which must be UTF-8")
            }
            StreamError::Encode(e) => write!(f, "{e}"),
            StreamError::NoWholeText => f.write_str(
                "a character-level tokenizer encodes each line on its own, not a whole text",
            ),
        }
    }
}

impl std::error::Error for StreamError {}

/// What one kind of tokenizer brings to the stream driver; everything else is the driver's.
pub(crate) trait StreamEncode: TokenText + Sync {
    /// What one run needs beyond the options, shared by its threads.
    type Run<'a>: Sync
    where
        Self: 'a;
    /// One encoding thread's state, kept from block to block.
    type Worker<'a>: Send
    where
        Self: 'a;

    /// Checks the options and prepares a run.
    fn start<'a>(&'a self, options: &EncodeOptions) -> Result<Self::Run<'a>, StreamError>;

    /// A new encoding thread's state.
    fn worker<'a>(&'a self, run: &Self::Run<'a>) -> Self::Worker<'a>;

    /// Whether a whole text can be cut at all (else the whole input is read first and encoded
    /// on one thread).
    fn can_cut_text(&self) -> bool;

    /// Where a whole text may be cut into about `parts` parts whose outputs, joined, are the
    /// whole's: ascending, strictly inside `0..end`.
    fn text_cuts(&self, run: &Self::Run<'_>, text: &str, end: usize, parts: usize) -> Vec<usize>;

    /// Where a block of a whole text read so far (more to come) may end, if anywhere.
    fn text_block_end(&self, run: &Self::Run<'_>, text: &str) -> Option<usize>;

    /// The first special token in `text` that is an error under the run's options, as the
    /// error (its offset in `text`).
    fn forbidden(&self, run: &Self::Run<'_>, text: &str) -> Option<ByteLevelError>;

    /// Appends the ids of `text[range]` of a whole text (and, if asked, each id's span in
    /// `text`), where the range's ends are 0, the text's length or [`Self::text_cuts`]'.
    fn encode_text_part(
        &self,
        run: &Self::Run<'_>,
        worker: &mut Self::Worker<'_>,
        text: &str,
        range: std::ops::Range<usize>,
        ids: &mut Vec<u32>,
        spans: Option<&mut Vec<Span>>,
    ) -> Result<(), ByteLevelError>;

    /// Writes one part of a whole text's ids as [`EncodeOutput`] says, to be joined with the
    /// others by the driver: ids separated by spaces; tokens as JSON strings separated by
    /// commas; for JSON, the ids, a NUL, then the tokens.
    fn write_text_part(&self, ids: &[u32], output: EncodeOutput, out: &mut Vec<u8>);

    /// Encodes one line (without its line feed) and appends its output lines to `out`;
    /// `first`: the line starts the input.
    fn encode_line(
        &self,
        run: &Self::Run<'_>,
        worker: &mut Self::Worker<'_>,
        line: &str,
        first: bool,
        options: &EncodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<LineDone, ByteLevelError>;

    /// Ends the run's threads (by default, drops their state).
    fn finish_workers(workers: Vec<Self::Worker<'_>>) {
        drop(workers);
    }
}

/// What encoding one line gave.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct LineDone {
    pub(crate) ids: u64,
    /// Output lines written.
    pub(crate) lines: u64,
    pub(crate) truncated: Truncated,
    /// Characters outside the vocabulary.
    pub(crate) unknown: u64,
}

/// What encoding one part of a block gave.
#[derive(Default)]
struct PartDone {
    /// The part's output, ready to write.
    bytes: Vec<u8>,
    ids: u64,
    lines: u64,
    truncated: Truncated,
    /// Input lines (line unit).
    input_lines: u64,
    unknown: u64,
    /// 0-based within the part.
    first_unknown_line: Option<u64>,
    /// A shaped whole text: the part's ids and spans (relative to the block), written when the
    /// whole text is done.
    raw: Vec<u32>,
    spans: Vec<Span>,
}

/// An encoding thread: the kind's state, and a buffer for a part's ids that would otherwise be
/// fresh memory for every part (which the kernel must zero first).
struct Thread<W> {
    state: W,
    ids: Vec<u32>,
}

/// Output buffers, handed back after they are written so the next parts reuse them.
type BufferPool = Mutex<Vec<Vec<u8>>>;

/// Parts of a block at least this long are worth a thread's attention.
const PART_BYTES: usize = 256 << 10;
/// A stream is encoded in blocks of about this many bytes.
const BLOCK_BYTES: usize = 8 << 20;

/// What every part of a block is encoded with.
struct BlockWork<'r, 'a, K: StreamEncode + 'a> {
    kind: &'a K,
    run: &'r K::Run<'a>,
    options: &'r EncodeOptions,
    /// `Some` when the units are shaped ([`crate::tokenizer::windows`]).
    format: Option<WindowFormat>,
    pool: &'r BufferPool,
}

/// Encodes what `input` holds and writes it to `output` as `options` say, block by block (see
/// the module's notes); returns how much there was.
pub(crate) fn encode_stream<K: StreamEncode>(
    kind: &K,
    input: &mut dyn Read,
    output: &mut dyn Write,
    options: &EncodeOptions,
) -> Result<StreamEncoded, StreamError> {
    let shape = &options.shape;
    let format = window_format(options.output, shape);
    let run = kind.start(options)?;
    // Workers are made when a block has parts for them (see `encode_block`), so a small
    // input costs one, whatever `threads` says.
    let mut workers: Vec<Thread<K::Worker<'_>>> = Vec::new();
    let pool = BufferPool::default();
    // Lines end at line feeds; a whole text is cut where the kind knows it may be, or read
    // whole first.
    let streams = options.unit == EncodeUnit::Lines || kind.can_cut_text();
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
    // The 1-based line the buffer starts on.
    let mut base_line: u64 = 1;
    let mut eof = false;
    let mut want = block;
    // A shaped whole text: its ids and spans so far.
    let mut whole: (Vec<u32>, Vec<Span>) = Default::default();
    let work = BlockWork {
        kind,
        run: &run,
        options,
        format,
        pool: &pool,
    };
    while !eof || !buf.is_empty() {
        // Fill the buffer to a block (or everything, when the text cannot be cut).
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
                let valid = e.valid_up_to();
                let bad = e
                    .error_len()
                    .map_or(&[][..], |len| &buf[valid..valid + len]);
                return Err(StreamError::NotUtf8 {
                    offset: base + valid as u64,
                    line: base_line + count_lines(&buf[..valid]),
                    bytes: bad.to_vec(),
                });
            }
        };
        let valid = text.len();
        // Where this block ends.
        let end = if eof && valid == buf.len() {
            text.len()
        } else {
            let end = match options.unit {
                EncodeUnit::Lines => text.rfind('\n').map(|i| i + 1),
                EncodeUnit::Text => kind.text_block_end(&run, text),
            };
            match end {
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
        if let Some(e) = kind.forbidden(&run, &text[..end]) {
            return Err(StreamError::Encode(shift(e, base)));
        }
        // Input lines of this block delivered so far (to place an unknown character).
        let mut block_lines = 0;
        encode_block(&work, text, end, base == 0, &mut workers, |part| {
            let part = part.map_err(|e| StreamError::Encode(shift(e, base)))?;
            done.ids += part.ids;
            done.lines += part.lines;
            done.truncated.add(part.truncated);
            done.unknown += part.unknown;
            if let Some(line) = part.first_unknown_line {
                done.first_unknown_line
                    .get_or_insert(base_line + block_lines + line);
            }
            block_lines += part.input_lines;
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
        base_line += count_lines(&buf[..end]);
        buf.drain(..end);
        want = block;
        if options.unit == EncodeUnit::Lines {
            // What came line by line goes out so: the reader may be waiting for it.
            output.flush().map_err(StreamError::Write)?;
        }
    }
    K::finish_workers(workers.into_iter().map(|t| t.state).collect());
    match (options.unit, format) {
        (EncodeUnit::Text, Some(format)) => {
            let mut bytes = Vec::new();
            let spans = shape.offsets.then_some(&whole.1[..]);
            done.truncated = write_unit(kind, &whole.0, spans, shape, format, &mut bytes);
            done.lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            output.write_all(&bytes).map_err(StreamError::Write)?;
        }
        _ => done.lines += writer.finish(output).map_err(StreamError::Write)?,
    }
    output.flush().map_err(StreamError::Write)?;
    Ok(done)
}

/// Line feeds in `bytes`.
fn count_lines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// The output of `text[..end]` (a block), in parts, each handed to `deliver` in order, or the
/// error that encoding it met; stops at `deliver`'s first error. `at_start`: the block starts
/// the input.
fn encode_block<'a, K: StreamEncode>(
    block: &BlockWork<'_, 'a, K>,
    text: &str,
    end: usize,
    at_start: bool,
    workers: &mut Vec<Thread<K::Worker<'a>>>,
    deliver: impl FnMut(Result<PartDone, ByteLevelError>) -> Result<(), StreamError>,
) -> Result<(), StreamError> {
    let BlockWork {
        kind,
        run,
        options,
        format,
        pool,
    } = *block;
    let threads = crate::bpe::threads_for(options.threads);
    let parts = (end / PART_BYTES).max(1) * threads;
    let mut cuts = vec![0];
    match options.unit {
        EncodeUnit::Text => cuts.extend(kind.text_cuts(run, text, end, parts)),
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
    let work = |start: usize, stop: usize, thread: &mut Thread<K::Worker<'a>>| {
        let Thread { state: worker, ids } = thread;
        ids.clear();
        let mut bytes = pool
            .lock()
            .expect("no thread panicked")
            .pop()
            .unwrap_or_default();
        bytes.clear();
        let mut spans = Vec::new();
        let want_spans = options.shape.offsets && format.is_some();
        match options.unit {
            EncodeUnit::Text if format.is_some() => {
                let spans_out = want_spans.then_some(&mut spans);
                kind.encode_text_part(run, worker, text, start..stop, ids, spans_out)?;
                Ok(PartDone {
                    ids: ids.len() as u64,
                    raw: ids.clone(),
                    spans,
                    ..PartDone::default()
                })
            }
            EncodeUnit::Text => {
                kind.encode_text_part(run, worker, text, start..stop, ids, None)?;
                kind.write_text_part(ids, options.output, &mut bytes);
                Ok(PartDone {
                    bytes,
                    ids: ids.len() as u64,
                    ..PartDone::default()
                })
            }
            EncodeUnit::Lines => {
                let mut part = PartDone::default();
                for line in text[start..stop].split_inclusive('\n') {
                    let at = line.as_ptr() as usize - text.as_ptr() as usize;
                    let line = line.strip_suffix('\n').unwrap_or(line);
                    let first = at_start && at == 0;
                    let done = kind
                        .encode_line(run, worker, line, first, options, &mut bytes)
                        .map_err(|e| shift(e, at as u64))?;
                    part.ids += done.ids;
                    part.lines += done.lines;
                    part.truncated.add(done.truncated);
                    if done.unknown > 0 {
                        part.unknown += done.unknown;
                        part.first_unknown_line.get_or_insert(part.input_lines);
                    }
                    part.input_lines += 1;
                }
                part.bytes = bytes;
                Ok(part)
            }
        }
    };
    // A worker per thread that has a part to take, made the first time one is needed: the
    // memory follows the input's size, not `threads`.
    let needed = threads.min(cuts.len() - 1).max(1);
    while workers.len() < needed {
        workers.push(Thread {
            state: kind.worker(run),
            ids: Vec::new(),
        });
    }
    in_order(&cuts, &mut workers[..needed], work, deliver)
}

/// How shaped units are written, or `None` when the ids are written as they are.
pub(crate) fn window_format(output: EncodeOutput, shape: &Shape) -> Option<WindowFormat> {
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

/// An error about a place in a part, moved to the place in the whole input.
pub(crate) fn shift(e: ByteLevelError, by: u64) -> ByteLevelError {
    match e {
        ByteLevelError::DisallowedSpecial { token, offset } => ByteLevelError::DisallowedSpecial {
            token,
            offset: offset + by as usize,
        },
        other => other,
    }
}

/// Runs `work` on every part `cuts[i]..cuts[i + 1]` on one thread per worker, each thread
/// taking the next part from a shared counter, and hands each result to `deliver` on the
/// calling thread in the parts' order, as soon as it and every one before it are done: the
/// calling thread writes while the workers encode, and only parts finished ahead of their turn
/// wait in memory. At `deliver`'s first error no new part starts and that error is returned.
fn in_order<W: Send, T: Send, E>(
    cuts: &[usize],
    workers: &mut [W],
    work: impl Fn(usize, usize, &mut W) -> T + Sync,
    mut deliver: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    let parts = cuts.len() - 1;
    if workers.len() == 1 || parts == 1 {
        let worker = &mut workers[0];
        for w in cuts.windows(2) {
            deliver(work(w[0], w[1], worker))?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for worker in workers.iter_mut().take(parts) {
            let (next, stop, work, send) = (&next, &stop, &work, send.clone());
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= parts || send.send((i, work(cuts[i], cuts[i + 1], worker))).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers hold senders now: the loop ends when they are all done.
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
pub(crate) fn write_ids(ids: &[u32], out: &mut Vec<u8>) {
    write_separated(ids, b' ', out);
}

/// Ids in decimal, separated by commas.
pub(crate) fn write_ids_json(ids: &[u32], out: &mut Vec<u8>) {
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

    #[test]
    fn ids_are_written_in_decimal() {
        let mut out = Vec::new();
        write_ids(&[0, 7, 10, 4294967295, 100257], &mut out);
        assert_eq!(out, b"0 7 10 4294967295 100257");
    }
}
