//! What `bpe-lab encode` does to one unit's ids before writing them, the same for both kinds
//! of tokenizer: keep the first N (`--max-tokens`), cut them into windows of N ids that share
//! K with the next (`--chunk-tokens`, `--overlap`), and show each token's byte span in the
//! unit (`--offsets`). One home for these rules, so the lab's encoder
//! ([`crate::tokenizer::encode_stream`]) and the byte-level one
//! ([`crate::tokenizer::bytelevel_stream`]) cannot disagree: each encodes a unit to its ids
//! (and spans), then hands them to [`write_unit`].
//!
//! Truncation comes first, then the windows: `--max-tokens 100 --chunk-tokens 40 --overlap
//! 10` writes windows over the first 100 ids. Truncating keeps exactly the prefix of the
//! unit's ids (tiktoken's `encode(text)[:N]`): it never re-encodes a shorter text.
//!
//! A unit with no ids still writes one (empty) line, so `--unit line` keeps one output line
//! per input line when there are no windows to cut.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// A token's bytes in its unit: `[start, end)`, offsets into the unit's UTF-8 text.
pub type Span = [usize; 2];

/// Windows of `tokens` ids, each sharing its last `overlap` ids with the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunks {
    tokens: usize,
    overlap: usize,
}

/// Windows that cannot be cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunksError {
    /// A window of no ids would never advance.
    NoTokens,
    /// The overlap is not smaller than the window: the next window would not start later.
    OverlapNotSmaller { tokens: usize, overlap: usize },
}

impl fmt::Display for ChunksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunksError::NoTokens => write!(f, "a window must hold at least 1 token"),
            ChunksError::OverlapNotSmaller { tokens, overlap } => write!(
                f,
                "the overlap ({overlap}) must be smaller than the window ({tokens} tokens), or \
                 no window would start after the one before it"
            ),
        }
    }
}

impl std::error::Error for ChunksError {}

impl Chunks {
    /// Windows of `tokens` ids overlapping by `overlap` (`overlap < tokens`).
    pub fn new(tokens: usize, overlap: usize) -> Result<Chunks, ChunksError> {
        if tokens == 0 {
            return Err(ChunksError::NoTokens);
        }
        if overlap >= tokens {
            return Err(ChunksError::OverlapNotSmaller { tokens, overlap });
        }
        Ok(Chunks { tokens, overlap })
    }

    pub fn tokens(&self) -> usize {
        self.tokens
    }

    pub fn overlap(&self) -> usize {
        self.overlap
    }

    /// The windows over `len` ids: the first starts at 0, each next one `tokens - overlap`
    /// later, the last one ends at `len` (and may be shorter). No ids: one empty window.
    pub fn ranges(&self, len: usize) -> Vec<Range<usize>> {
        let step = self.tokens - self.overlap;
        let mut out = Vec::with_capacity(len.div_ceil(step).max(1));
        let mut start = 0;
        loop {
            let end = (start + self.tokens).min(len);
            out.push(start..end);
            if end == len {
                return out;
            }
            start += step;
        }
    }
}

/// What is done to each unit's ids; the default does nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// Keep the first N ids of each unit.
    pub max_tokens: Option<usize>,
    /// Write the ids as windows, one line each.
    pub chunks: Option<Chunks>,
    /// Write each token's span (JSON only).
    pub offsets: bool,
}

impl Shape {
    /// Whether the ids are written as they are.
    pub fn is_plain(&self) -> bool {
        *self == Shape::default()
    }

    /// The windows of a unit of `len` ids (ranges into its ids), and how many ids truncation
    /// dropped.
    pub fn windows(&self, len: usize) -> (Vec<Range<usize>>, usize) {
        let kept = self.max_tokens.map_or(len, |n| n.min(len));
        let windows = match self.chunks {
            None => std::iter::once(0..kept).collect(),
            Some(chunks) => chunks.ranges(kept),
        };
        (windows, len - kept)
    }
}

/// How the windows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowFormat {
    /// Ids in decimal, separated by single spaces.
    Ids,
    /// The tokens as the tokenizer prints them ([`TokenText::write_tokens`]).
    Tokens,
    /// One JSON object: `ids`, `tokens`, with windows their `text`, with spans `offsets`.
    Json,
}

/// How a tokenizer shows its tokens; each kind says it once.
pub trait TokenText {
    /// A token as a JSON string shows it.
    fn token(&self, id: u32) -> Cow<'_, str>;
    /// The tokens of `ids` as one plain output line (without its line feed).
    fn write_tokens(&self, ids: &[u32], out: &mut Vec<u8>);
    /// The text `ids` decode to.
    fn text(&self, ids: &[u32]) -> String;
}

/// Units cut by `--max-tokens`, over a whole input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Truncated {
    /// Units that had more ids than kept.
    pub units: u64,
    /// Ids dropped, in all.
    pub tokens: u64,
}

impl Truncated {
    pub fn add(&mut self, other: Truncated) {
        self.units += other.units;
        self.tokens += other.tokens;
    }
}

/// Writes one unit's ids (and, if given, their spans, one per id) as `shape` and `format` say:
/// one line per window. Returns what truncation dropped.
pub fn write_unit(
    view: &dyn TokenText,
    ids: &[u32],
    spans: Option<&[Span]>,
    shape: &Shape,
    format: WindowFormat,
    out: &mut Vec<u8>,
) -> Truncated {
    let (windows, dropped) = shape.windows(ids.len());
    for window in windows {
        let part = &ids[window.clone()];
        match format {
            WindowFormat::Ids => {
                for (k, id) in part.iter().enumerate() {
                    if k > 0 {
                        out.push(b' ');
                    }
                    out.extend_from_slice(id.to_string().as_bytes());
                }
            }
            WindowFormat::Tokens => view.write_tokens(part, out),
            WindowFormat::Json => {
                out.extend_from_slice(b"{\"ids\":");
                serde_json::to_writer(&mut *out, part).expect("writing to memory");
                out.extend_from_slice(b",\"tokens\":");
                let tokens: Vec<Cow<str>> = part.iter().map(|&id| view.token(id)).collect();
                serde_json::to_writer(&mut *out, &tokens).expect("writing to memory");
                if shape.chunks.is_some() {
                    out.extend_from_slice(b",\"text\":");
                    serde_json::to_writer(&mut *out, &view.text(part)).expect("writing to memory");
                }
                if let Some(spans) = spans {
                    out.extend_from_slice(b",\"offsets\":");
                    serde_json::to_writer(&mut *out, &spans[window]).expect("writing to memory");
                }
                out.push(b'}');
            }
        }
        out.push(b'\n');
    }
    Truncated {
        units: u64::from(dropped > 0),
        tokens: dropped as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The windows as one would write them by hand: every start that is a multiple of the
    /// step, while the window before did not reach the end.
    fn naive_windows(len: usize, tokens: usize, overlap: usize) -> Vec<Range<usize>> {
        if len == 0 {
            return std::iter::once(0..0).collect();
        }
        let step = tokens - overlap;
        let mut out = Vec::new();
        for start in (0..len).step_by(step) {
            out.push(start..(start + tokens).min(len));
            if start + tokens >= len {
                break;
            }
        }
        out
    }

    proptest! {
        /// Windows joined minus their overlaps are the whole ids; each is full but the last;
        /// they match the naive windows.
        #[test]
        fn windows_minus_overlaps_are_the_whole(len in 0usize..200, tokens in 1usize..20, overlap in 0usize..20) {
            prop_assume!(overlap < tokens);
            let ids: Vec<usize> = (0..len).collect();
            let chunks = Chunks::new(tokens, overlap).unwrap();
            let windows = chunks.ranges(len);
            prop_assert_eq!(&windows, &naive_windows(len, tokens, overlap));
            let mut joined: Vec<usize> = Vec::new();
            for (k, w) in windows.iter().enumerate() {
                if k > 0 {
                    prop_assert_eq!(&ids[w.start..w.start + overlap], &joined[joined.len() - overlap..]);
                }
                let skip = if k == 0 { 0 } else { overlap };
                joined.extend_from_slice(&ids[w.start + skip..w.end]);
                if k + 1 < windows.len() {
                    prop_assert_eq!(w.len(), tokens);
                }
            }
            prop_assert_eq!(joined, ids);
        }

        /// Truncation keeps the prefix, and chunking cuts only that prefix.
        #[test]
        fn truncation_keeps_the_prefix(len in 0usize..100, max in 0usize..120, tokens in 1usize..9) {
            let shape = Shape { max_tokens: Some(max), chunks: Chunks::new(tokens, 0).ok(), offsets: false };
            let (windows, dropped) = shape.windows(len);
            prop_assert_eq!(dropped, len.saturating_sub(max));
            prop_assert_eq!(windows.last().unwrap().end, len.min(max));
        }
    }

    #[test]
    fn an_overlap_not_smaller_than_the_window_is_refused() {
        assert_eq!(Chunks::new(0, 0), Err(ChunksError::NoTokens));
        assert_eq!(
            Chunks::new(4, 4),
            Err(ChunksError::OverlapNotSmaller {
                tokens: 4,
                overlap: 4
            })
        );
        assert!(Chunks::new(4, 3).is_ok());
    }

    struct Letters;
    impl TokenText for Letters {
        fn token(&self, id: u32) -> Cow<'_, str> {
            Cow::Owned(char::from(b'a' + id as u8).to_string())
        }
        fn write_tokens(&self, ids: &[u32], out: &mut Vec<u8>) {
            out.extend(ids.iter().map(|&id| b'a' + id as u8));
        }
        fn text(&self, ids: &[u32]) -> String {
            ids.iter().map(|&id| char::from(b'a' + id as u8)).collect()
        }
    }

    #[test]
    fn each_window_is_a_line_with_its_text_and_spans() {
        let shape = Shape {
            max_tokens: Some(4),
            chunks: Some(Chunks::new(3, 1).unwrap()),
            offsets: true,
        };
        let spans = [[0, 1], [1, 3], [3, 4], [4, 4], [4, 5]];
        let mut out = Vec::new();
        let cut = write_unit(
            &Letters,
            &[0, 1, 2, 3, 4],
            Some(&spans),
            &shape,
            WindowFormat::Json,
            &mut out,
        );
        assert_eq!(
            cut,
            Truncated {
                units: 1,
                tokens: 1
            }
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"ids\":[0,1,2],\"tokens\":[\"a\",\"b\",\"c\"],\"text\":\"abc\",\"offsets\":[[0,1],[1,3],[3,4]]}\n\
             {\"ids\":[2,3],\"tokens\":[\"c\",\"d\"],\"text\":\"cd\",\"offsets\":[[3,4],[4,4]]}\n"
        );
        let mut out = Vec::new();
        write_unit(&Letters, &[], None, &shape, WindowFormat::Ids, &mut out);
        assert_eq!(out, b"\n");
    }
}
