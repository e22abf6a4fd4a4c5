//! Whether a split pattern covers a text: tiktoken's rule (and ours) keeps only the pattern's
//! matches, so text between two matches is dropped when encoding and never comes back from
//! decoding (`\S+` drops the spaces of `hello   world`). The built-in patterns match every
//! character; a user's may not, and training with it would build a tokenizer that silently
//! loses text. [`first_uncovered`] finds the first byte span no match covers, so training can
//! refuse the pattern naming where, unless the user accepts the loss.
//!
//! Special tokens are no part of any chunk but are not dropped (they are their own ids), so
//! the text between them is checked piece by piece, as training and encoding cut it.

use std::fmt;

use crate::bpe::bytelevel::{Piece, SplitError, Splitter, pieces};

/// A span of a text that no match of the pattern covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncovered {
    /// Byte offsets in the whole text: `start..end`.
    pub start: usize,
    pub end: usize,
    /// Where it starts: line (1-based) and column (1-based, in characters).
    pub line: usize,
    pub column: usize,
    /// The span's text (at most [`SHOWN_CHARS`] characters of it).
    pub text: String,
}

/// How much of an uncovered span a message shows.
pub const SHOWN_CHARS: usize = 40;

impl fmt::Display for Uncovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (bytes {}..{}): {:?} is matched by no part of the pattern",
            self.line, self.column, self.start, self.end, self.text
        )
    }
}

/// The first span of `text` (outside the special tokens `specials`) that no chunk of
/// `splitter` covers, or `None` when the chunks and the specials tile the whole text.
pub fn first_uncovered(
    splitter: &Splitter,
    text: &str,
    specials: &[&str],
) -> Result<Option<Uncovered>, SplitError> {
    let base = text.as_ptr() as usize;
    for piece in pieces(text, specials) {
        let Piece::Text(piece) = piece else { continue };
        let piece_start = piece.as_ptr() as usize - base;
        // The end of what the chunks so far cover, relative to the piece; the first gap wins.
        let mut covered = 0;
        let mut gap: Option<(usize, usize)> = None;
        splitter.for_each_chunk(piece, 0, piece.len(), |chunk| {
            let start = chunk.as_ptr() as usize - base - piece_start;
            if gap.is_none() && start > covered {
                gap = Some((covered, start));
            }
            covered = start + chunk.len();
        })?;
        if gap.is_none() && covered < piece.len() {
            gap = Some((covered, piece.len()));
        }
        if let Some((start, end)) = gap {
            return Ok(Some(locate(text, piece_start + start, piece_start + end)));
        }
    }
    Ok(None)
}

/// The span `start..end` of `text` with its line, column and text.
fn locate(text: &str, start: usize, end: usize) -> Uncovered {
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..start].chars().count() + 1;
    Uncovered {
        start,
        end,
        line,
        column,
        text: text[start..end].chars().take(SHOWN_CHARS).collect(),
    }
}

/// The field of a byte-level tokenizer file that says its training let the pattern leave text
/// uncovered: encoding drops the text the pattern does not match.
pub const DROPS_UNMATCHED_FIELD: &str = "drops_unmatched_text";

/// Whether a byte-level tokenizer encodes every text whole, or drops the text its pattern does
/// not match (its training was allowed to leave text uncovered). One typed field of the
/// tokenizer; in its file it is [`DROPS_UNMATCHED_FIELD`]: `true` for
/// [`Coverage::DropsUnmatched`], absent for [`Coverage::Whole`] (so files written before the
/// field existed, and every file of a covering pattern, read as `Whole`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coverage {
    /// Nothing recorded says text is dropped.
    #[default]
    Whole,
    /// Training let the pattern leave text unmatched: encoding drops it, as tiktoken does.
    DropsUnmatched,
}

impl Coverage {
    /// `Whole`: the field is left out of the file.
    pub fn is_whole(&self) -> bool {
        *self == Coverage::Whole
    }
}

/// Written as the file's boolean.
impl serde::Serialize for Coverage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(*self == Coverage::DropsUnmatched)
    }
}

impl<'de> serde::Deserialize<'de> for Coverage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match bool::deserialize(deserializer)? {
            true => Coverage::DropsUnmatched,
            false => Coverage::Whole,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::bytelevel::SplitPattern;

    /// The file's boolean, both ways.
    #[test]
    fn coverage_is_the_files_boolean() {
        assert_eq!(
            serde_json::to_string(&Coverage::DropsUnmatched).unwrap(),
            "true"
        );
        assert_eq!(
            serde_json::from_str::<Coverage>("false").unwrap(),
            Coverage::Whole
        );
        assert_eq!(
            serde_json::from_str::<Coverage>("true").unwrap(),
            Coverage::DropsUnmatched
        );
    }

    fn splitter(regex: &str) -> Splitter {
        Splitter::new(SplitPattern::from_regex(regex)).unwrap()
    }

    #[test]
    fn the_first_gap_is_found_with_its_line_and_column() {
        let s = splitter(r"\S+");
        let gap = first_uncovered(&s, "hello   world", &[]).unwrap().unwrap();
        assert_eq!((gap.start, gap.end, gap.line, gap.column), (5, 8, 1, 6));
        assert_eq!(gap.text, "   ");
        let gap = first_uncovered(&s, "ab\nçé d", &[]).unwrap().unwrap();
        assert_eq!(
            (gap.start, gap.line, gap.column, gap.text.as_str()),
            (2, 1, 3, "\n")
        );
        let gap = first_uncovered(&splitter(r"[a-z]+\n?"), "ab\nçé", &[])
            .unwrap()
            .unwrap();
        assert_eq!((gap.start, gap.end, gap.line, gap.column), (3, 7, 2, 1));
        // A gap at the very start, and one at the end.
        assert_eq!(first_uncovered(&s, " x", &[]).unwrap().unwrap().start, 0);
        assert_eq!(first_uncovered(&s, "x ", &[]).unwrap().unwrap().start, 1);
    }

    #[test]
    fn built_in_patterns_and_specials_leave_nothing_uncovered() {
        let text = "Hello  world\n\n\t 12345 🫠 don't<|endoftext|>  x \r\n";
        for pattern in [
            SplitPattern::Gpt2,
            SplitPattern::Cl100k,
            SplitPattern::O200k,
        ] {
            let s = Splitter::new(pattern).unwrap();
            assert_eq!(first_uncovered(&s, text, &["<|endoftext|>"]).unwrap(), None);
        }
        // The special is no gap, the spaces after it are.
        let s = splitter(r"\S+");
        let gap = first_uncovered(&s, "a<|endoftext|> b", &["<|endoftext|>"])
            .unwrap()
            .unwrap();
        assert_eq!((gap.start, gap.end), (14, 15));
        assert_eq!(
            first_uncovered(&s, "a<|endoftext|>b", &["<|endoftext|>"]).unwrap(),
            None
        );
    }
}
