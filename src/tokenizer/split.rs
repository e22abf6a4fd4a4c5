//! How text is cut into words before BPE sees it.
//!
//! Two rules, both exactly as Python spells them:
//!
//! - [`Split::Space`] (the default, the lab's): `text.split(" ")`. Every single space ends a
//!   word, so a double space makes an empty word and `""` is one empty word. Tabs, newlines and
//!   other whitespace are ordinary characters inside words.
//! - [`Split::Whitespace`] (the tokenizer notebook's `gpt_tokenizer`): `text.split()`. Runs of whitespace
//!   separate words, leading and trailing whitespace is ignored, no word is empty.
//!
//! ```
//! use bpe_lab::tokenizer::Split;
//! assert_eq!(Split::Space.words(" a  b").collect::<Vec<_>>(), ["", "a", "", "b"]);
//! assert_eq!(Split::Whitespace.words(" a \t b\n").collect::<Vec<_>>(), ["a", "b"]);
//! ```

use std::fmt;
use std::str::FromStr;

/// A rule for cutting text into words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Split {
    /// Python's `text.split(" ")`: on every single space (the lab's rule).
    #[default]
    Space,
    /// Python's `text.split()`: on runs of whitespace, without empty words.
    Whitespace,
}

impl Split {
    /// The words of `text` under this rule.
    pub fn words(self, text: &str) -> Words<'_> {
        match self {
            // The lab's word rule has one home, which the grader's workers compile too.
            Split::Space => Words(Inner::Space(crate::bpe::corpus::lab_words(text))),
            Split::Whitespace => {
                let at: fn(char) -> bool = is_python_whitespace;
                let non_empty: fn(&&str) -> bool = |word| !word.is_empty();
                Words(Inner::Whitespace(text.split(at).filter(non_empty)))
            }
        }
    }

    /// The name used on the command line and in tokenizer files.
    pub fn name(self) -> &'static str {
        match self {
            Split::Space => "space",
            Split::Whitespace => "whitespace",
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Split {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "space" => Ok(Split::Space),
            "whitespace" => Ok(Split::Whitespace),
            other => Err(format!(
                "unknown split {other:?}: expected \"space\" or \"whitespace\""
            )),
        }
    }
}

/// The words of a text; see [`Split::words`].
pub struct Words<'a>(Inner<'a>);

type WhitespaceWords<'a> =
    std::iter::Filter<std::str::Split<'a, fn(char) -> bool>, fn(&&'a str) -> bool>;

enum Inner<'a> {
    Space(std::str::Split<'a, char>),
    Whitespace(WhitespaceWords<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        match &mut self.0 {
            Inner::Space(words) => words.next(),
            Inner::Whitespace(words) => words.next(),
        }
    }
}

/// Whether Python's `str.split()` splits at `c` (`c.isspace()` in Python 3).
///
/// Python's set is Rust's [`char::is_whitespace`] (the Unicode `White_Space` property) plus
/// the four ASCII information separators U+001C..U+001F, which Python counts as whitespace
/// because their bidirectional class is "paragraph/segment separator".
#[inline]
pub fn is_python_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1C}'..='\u{1F}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_split_keeps_empty_words() {
        let words = |t| Split::Space.words(t).collect::<Vec<_>>();
        assert_eq!(words(""), [""]);
        assert_eq!(words(" "), ["", ""]);
        assert_eq!(words("a\tb c"), ["a\tb", "c"]);
    }

    #[test]
    fn whitespace_split_drops_runs_and_ends() {
        let words = |t| Split::Whitespace.words(t).collect::<Vec<_>>();
        assert!(words("").is_empty());
        assert!(words(" \t\n\u{3000}").is_empty());
        assert_eq!(words("a\u{1F}b\u{A0}c"), ["a", "b", "c"]);
        assert_eq!(words("a\u{200B}b"), ["a\u{200B}b"]); // zero-width space is not whitespace
    }

    #[test]
    fn names_round_trip() {
        for split in [Split::Space, Split::Whitespace] {
            assert_eq!(split.name().parse::<Split>().unwrap(), split);
        }
        assert!("tabs".parse::<Split>().is_err());
    }
}
