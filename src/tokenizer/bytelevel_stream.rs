//! The byte-level kind's part of encoding: one text on several threads, and what the stream
//! driver ([`crate::tokenizer::stream`]) needs to encode a stream.
//!
//! One text on several threads: the text is cut where no chunk of the pattern can cross
//! ([`Splitter::cut_points`]: before an ASCII letter that follows a line feed, for the patterns
//! whose row in the pattern table says so) and where no special token lies across the cut, and
//! each part is split and encoded on its own, looking past its end as the whole text would. The
//! parts' ids, joined in order, are the whole text's (tests compare them on generated text with
//! every kind of character). A part is small (a few hundred KB) and the threads take the next
//! part from a shared counter, so a part that encodes slowly (a script with many tokens a word)
//! does not hold the other threads up.
//!
//! A stream is read in blocks and each block ends at such a cut, so the ids come out while the
//! rest is still being read. A user's pattern (run by the regex engine) has no known cut: the
//! whole input is read first and encoded on one thread.
//!
//! Two units: the whole input as one text (tiktoken's `encode`), or each line as its own text
//! without its line feed, one output line per input line.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use crate::bpe::bytelevel::{ChunkEncoder, Piece, pieces};
use crate::tokenizer::bytelevel::{
    AllowedSpecial, ByteLevelError, ByteLevelTokenizer, DisallowedSpecial,
};
use crate::tokenizer::stream::{
    self, EncodeOptions, EncodeOutput, LineDone, StreamEncode, StreamEncoded, StreamError,
    write_ids, write_ids_json,
};
use crate::tokenizer::windows::{Span, TokenText, write_unit};

/// One encoding thread's state, kept from block to block: its chunk cache, and a buffer for a
/// line's ids.
pub(crate) struct EncodeThread<'r> {
    encoder: ChunkEncoder<'r>,
    ids: Vec<u32>,
    spans: Vec<Span>,
}

/// What a byte-level run needs: the special tokens in play, and the same without those that
/// are errors (a block is searched for them before its parts are encoded).
pub(crate) struct ByteLevelRun<'a> {
    acting: SpecialsInPlay<'a>,
    checked: SpecialsInPlay<'a>,
}

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
    /// ([`crate::tokenizer::stream`]); returns how much there was. Nothing is written for a
    /// block that fails (a special token not allowed, input that is not UTF-8), but blocks
    /// before it may have been.
    pub fn encode_stream(
        &self,
        input: &mut dyn Read,
        output: &mut dyn Write,
        options: &EncodeOptions,
    ) -> Result<StreamEncoded, StreamError> {
        stream::encode_stream(self, input, output, options)
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

/// The byte-level kind in the stream driver.
impl StreamEncode for ByteLevelTokenizer {
    type Run<'a> = ByteLevelRun<'a>;
    type Worker<'a> = EncodeThread<'a>;

    fn start<'a>(&'a self, options: &EncodeOptions) -> Result<ByteLevelRun<'a>, StreamError> {
        let acting = SpecialsInPlay::new(self, &options.allowed, options.others)
            .map_err(StreamError::Encode)?;
        let checked = SpecialsInPlay {
            allowed: acting.allowed.clone(),
            errors: Vec::new(),
        };
        Ok(ByteLevelRun { acting, checked })
    }

    fn worker<'a>(&'a self, _run: &ByteLevelRun<'a>) -> EncodeThread<'a> {
        EncodeThread {
            encoder: ChunkEncoder::new(self.ranks()),
            ids: Vec::new(),
            spans: Vec::new(),
        }
    }

    fn can_cut_text(&self) -> bool {
        self.can_stream()
    }

    fn text_cuts(&self, run: &ByteLevelRun, text: &str, end: usize, parts: usize) -> Vec<usize> {
        self.part_cuts(text, 0, end, parts, &run.acting)
    }

    /// After the last line feed that is a cut, leaving room after it for the look-ahead and
    /// for a special token to be seen whole.
    fn text_block_end(&self, run: &ByteLevelRun, text: &str) -> Option<usize> {
        let acting = &run.acting;
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

    fn forbidden(&self, run: &ByteLevelRun, text: &str) -> Option<ByteLevelError> {
        let (offset, token) = run.acting.first_error(text)?;
        Some(ByteLevelError::DisallowedSpecial {
            token: token.to_owned(),
            offset,
        })
    }

    fn encode_text_part(
        &self,
        run: &ByteLevelRun,
        worker: &mut EncodeThread,
        text: &str,
        range: std::ops::Range<usize>,
        ids: &mut Vec<u32>,
        spans: Option<&mut Vec<Span>>,
    ) -> Result<(), ByteLevelError> {
        self.encode_part(text, range, &run.checked, &mut worker.encoder, ids, spans)
    }

    fn write_text_part(&self, ids: &[u32], output: EncodeOutput, out: &mut Vec<u8>) {
        self.format(ids, output, out);
    }

    /// The line as its own text (a byte-order mark is text to a byte-level tokenizer).
    fn encode_line(
        &self,
        run: &ByteLevelRun,
        worker: &mut EncodeThread,
        line: &str,
        _first: bool,
        options: &EncodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<LineDone, ByteLevelError> {
        let EncodeThread {
            encoder,
            ids,
            spans,
        } = worker;
        ids.clear();
        spans.clear();
        let shape = &options.shape;
        let format = stream::window_format(options.output, shape);
        let want_spans = shape.offsets && format.is_some();
        let spans_out = want_spans.then_some(&mut *spans);
        self.encode_part(line, 0..line.len(), &run.checked, encoder, ids, spans_out)?;
        let mut done = LineDone {
            ids: ids.len() as u64,
            ..LineDone::default()
        };
        if let Some(format) = format {
            let from = out.len();
            let spans = want_spans.then_some(&spans[..]);
            done.truncated = write_unit(self, ids, spans, shape, format, out);
            done.lines = out[from..].iter().filter(|&&b| b == b'\n').count() as u64;
            return Ok(done);
        }
        self.format_unit(ids, options.output, out);
        if options.output != EncodeOutput::Count {
            out.push(b'\n');
        }
        done.lines = 1;
        Ok(done)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::{ByteLevelConfig, TrainingSettings};

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
