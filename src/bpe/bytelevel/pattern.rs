//! Pre-tokenization: the regular expression that cuts text into chunks, inside which pairs are
//! counted and merged (no pair ever crosses two chunks).
//!
//! The built-in patterns are tiktoken's own strings (Python `tiktoken_ext/openai_public.py`,
//! tiktoken 0.14): GPT-2's (`r50k_base`), GPT-4's (`cl100k_base`) and GPT-4o's (`o200k_base`).
//! They need look-ahead and possessive quantifiers, so they run on `fancy-regex`, as tiktoken's
//! Rust core does.
//!
//! Like tiktoken, the chunks are the matches of the pattern, left to right, and text between
//! two matches is dropped. The three built-in patterns match every character (each character
//! is a letter, a number, whitespace or none of these, and each of those has an alternative),
//! so with them nothing is dropped and every text round-trips; a user pattern may drop text.
//! Empty matches are skipped (a chunk of no bytes encodes to nothing).

use std::fmt;
use std::str::FromStr;

use fancy_regex::Regex;

/// GPT-2's split pattern (`r50k_base`, `p50k_base`), as tiktoken writes it.
pub const GPT2_PATTERN: &str =
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s";

/// GPT-4's split pattern (`cl100k_base`), as tiktoken writes it.
pub const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";

/// GPT-4o's split pattern (`o200k_base`), as tiktoken writes it.
pub const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+",
);

/// Which split pattern: one of the three built in, or the user's own regular expression.
///
/// Parsed from the names `gpt2`, `gpt4` (or `cl100k`), `o200k`; any other name is an error
/// ([`UnknownPatternName`]); a regular expression is [`SplitPattern::Custom`].
///
/// ```
/// use bpe_lab::bpe::bytelevel::SplitPattern;
/// assert_eq!("gpt4".parse::<SplitPattern>().unwrap(), SplitPattern::Cl100k);
/// assert_eq!(SplitPattern::Custom(r"\w+".into()).regex(), r"\w+");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SplitPattern {
    /// [`GPT2_PATTERN`].
    Gpt2,
    /// [`CL100K_PATTERN`].
    Cl100k,
    /// [`O200K_PATTERN`].
    O200k,
    /// A user's regular expression (fancy-regex syntax).
    Custom(String),
}

/// Which hand-written splitter runs a built-in pattern (the regex engine is most of
/// encoding's time, so each built-in pattern has its own; the user's runs on fancy-regex).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HandSplitter {
    Gpt2,
    Cl100k,
    O200k,
}

/// One built-in split pattern: everything the library, the command line and the docs say
/// about it, in one row of [`BUILTIN_PATTERNS`].
#[derive(Debug)]
pub struct BuiltinPattern {
    /// The pattern's variant.
    pub pattern: SplitPattern,
    /// Its short name (`--pattern NAME`, the name a tokenizer file shows).
    pub name: &'static str,
    /// Other names `FromStr` reads for it (its OpenAI encoding's, with and without `_base`).
    pub aliases: &'static [&'static str],
    /// The regular expression, as tiktoken writes it.
    pub regex: &'static str,
    /// The OpenAI encoding that uses it (as named in help and errors).
    pub encoding: &'static str,
    /// The hand-written splitter that runs it; `None` runs the regex on fancy-regex (slower,
    /// the same chunks), as a new pattern does until a splitter is written for it.
    pub(crate) splitter: Option<HandSplitter>,
    /// Whether a text may be cut before an ASCII letter that follows `\n` and each part split
    /// on its own (see [`Splitter::for_each_chunk`]): true when no alternative matches a line
    /// feed followed by a letter and together they match every character, so the matches tile
    /// the text and one of them starts right after the line feed. Threaded encoding cuts texts
    /// only where this holds; a built-in pattern that can match across a line start must say
    /// `false` here.
    pub cuts_before_line_starts: bool,
}

/// The built-in split patterns, in the order help and errors list them. Every name, alias,
/// regular expression and property of a built-in pattern is read from here.
pub static BUILTIN_PATTERNS: [BuiltinPattern; 3] = [
    BuiltinPattern {
        pattern: SplitPattern::Gpt2,
        name: "gpt2",
        aliases: &["r50k", "r50k_base"],
        regex: GPT2_PATTERN,
        encoding: "r50k_base",
        splitter: Some(HandSplitter::Gpt2),
        // Letters are preceded at most by one space; line feeds end or fill a match of
        // whitespace.
        cuts_before_line_starts: true,
    },
    BuiltinPattern {
        pattern: SplitPattern::Cl100k,
        name: "gpt4",
        aliases: &["cl100k", "cl100k_base"],
        regex: CL100K_PATTERN,
        encoding: "cl100k_base",
        splitter: Some(HandSplitter::Cl100k),
        // Letters are preceded at most by one character that is not `\r` or `\n`; line feeds
        // end a match of spaces or punctuation.
        cuts_before_line_starts: true,
    },
    BuiltinPattern {
        pattern: SplitPattern::O200k,
        name: "o200k",
        aliases: &["o200k_base"],
        regex: O200K_PATTERN,
        encoding: "o200k_base",
        splitter: Some(HandSplitter::O200k),
        // As cl100k's: letters after at most one character that is not `\r` or `\n`.
        cuts_before_line_starts: true,
    },
];

impl SplitPattern {
    /// The row of [`BUILTIN_PATTERNS`] for a built-in pattern; `None` for a user's.
    pub fn builtin(&self) -> Option<&'static BuiltinPattern> {
        BUILTIN_PATTERNS.iter().find(|row| row.pattern == *self)
    }

    /// The regular expression.
    pub fn regex(&self) -> &str {
        match (self, self.builtin()) {
            (SplitPattern::Custom(regex), _) => regex,
            (_, Some(row)) => row.regex,
            (_, None) => unreachable!("every variant but Custom has a row in BUILTIN_PATTERNS"),
        }
    }

    /// The short name of a built-in pattern (`gpt2`, `gpt4`, `o200k`); `None` for a user's.
    pub fn name(&self) -> Option<&'static str> {
        self.builtin().map(|row| row.name)
    }

    /// The pattern for a regular expression: a built-in one when the text is one of theirs.
    pub fn from_regex(regex: &str) -> SplitPattern {
        BUILTIN_PATTERNS
            .iter()
            .find(|row| row.regex == regex)
            .map_or_else(
                || SplitPattern::Custom(regex.to_owned()),
                |row| row.pattern.clone(),
            )
    }

    /// Whether a text may be cut before an ASCII letter that follows `\n` and each part split
    /// on its own: the row's [`BuiltinPattern::cuts_before_line_starts`]; never for a user's
    /// pattern, of which nothing is known.
    pub fn cuts_before_line_starts(&self) -> bool {
        self.builtin()
            .is_some_and(|row| row.cuts_before_line_starts)
    }
}

/// The built-in patterns' names as help lists them: `gpt2 (r50k_base), gpt4 (cl100k_base) or
/// o200k (o200k_base)`.
pub fn builtin_pattern_names_with_encodings() -> String {
    let named: Vec<String> = BUILTIN_PATTERNS
        .iter()
        .map(|row| format!("{} ({})", row.name, row.encoding))
        .collect();
    match named.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The built-in patterns' names joined by `|`, as usage lines write them: `gpt2|gpt4|o200k`.
pub fn builtin_pattern_names() -> String {
    let names: Vec<&str> = BUILTIN_PATTERNS.iter().map(|row| row.name).collect();
    names.join("|")
}

/// A pattern name that is none of [`BUILTIN_PATTERNS`]' names nor aliases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPatternName(pub String);

impl fmt::Display for UnknownPatternName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = builtin_pattern_names_with_encodings();
        // The error says "and" where help says "or".
        let names = match names.rsplit_once(" or ") {
            Some((rest, last)) => format!("{rest} and {last}"),
            None => names,
        };
        write!(
            f,
            "unknown pattern name {:?}: the names are {names}; give your own regular expression \
             with --regex",
            self.0
        )
    }
}

impl std::error::Error for UnknownPatternName {}

impl FromStr for SplitPattern {
    type Err = UnknownPatternName;

    /// A built-in pattern by its name (`gpt2`, `gpt4`, `o200k`) or an alias (its encoding's
    /// name, also without `_base`); a user's regular expression is [`SplitPattern::Custom`]
    /// (or [`SplitPattern::from_regex`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BUILTIN_PATTERNS
            .iter()
            .find(|row| row.name == s || row.aliases.contains(&s))
            .map(|row| row.pattern.clone())
            .ok_or_else(|| UnknownPatternName(s.to_owned()))
    }
}

impl fmt::Display for SplitPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name().unwrap_or_else(|| self.regex()))
    }
}

/// A split pattern that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// The regular expression does not compile.
    BadPattern { pattern: String, message: String },
    /// The regex engine gave up on a text (fancy-regex's backtracking limit), at this byte
    /// offset.
    Matching { offset: usize, message: String },
    /// The regular expression matches the empty string, so it would cut text into nothing.
    MatchesEmpty { pattern: String },
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::BadPattern { pattern, message } => {
                write!(
                    f,
                    "the split pattern {pattern:?} is not a valid regex: {message}"
                )
            }
            SplitError::Matching { offset, message } => write!(
                f,
                "the split pattern failed on the text at byte {offset}: {message}"
            ),
            SplitError::MatchesEmpty { pattern } => write!(
                f,
                "the split pattern {pattern:?} matches the empty string; a pattern must match \
                 at least one character (write `+` where it has `*`)"
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// A compiled split pattern.
#[derive(Debug, Clone)]
pub struct Splitter {
    pattern: SplitPattern,
    regex: Regex,
    /// The hand-written splitter of a built-in pattern; `None` runs the regex.
    hand: Option<HandSplitter>,
    /// The pattern's [`SplitPattern::cuts_before_line_starts`], read once.
    cuts: bool,
}

impl Splitter {
    pub fn new(pattern: SplitPattern) -> Result<Self, SplitError> {
        let regex = Regex::new(pattern.regex()).map_err(|e| SplitError::BadPattern {
            pattern: pattern.regex().to_owned(),
            message: e.to_string(),
        })?;
        if regex.is_match("").unwrap_or(false) {
            return Err(SplitError::MatchesEmpty {
                pattern: pattern.regex().to_owned(),
            });
        }
        let hand = pattern.builtin().and_then(|row| row.splitter);
        let cuts = pattern.cuts_before_line_starts();
        Ok(Splitter {
            pattern,
            regex,
            hand,
            cuts,
        })
    }

    pub fn pattern(&self) -> &SplitPattern {
        &self.pattern
    }

    /// The chunks of `text`, in order.
    ///
    /// ```
    /// use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
    /// let gpt4 = Splitter::new(SplitPattern::Cl100k).unwrap();
    /// assert_eq!(gpt4.chunks("Hello world's 12345!!\n").unwrap(),
    ///            ["Hello", " world", "'s", " ", "123", "45", "!!\n"]);
    /// ```
    pub fn chunks<'t>(&self, text: &'t str) -> Result<Vec<&'t str>, SplitError> {
        let mut out = Vec::new();
        self.for_each_chunk(text, 0, text.len(), |c| out.push(c))?;
        Ok(out)
    }

    /// Calls `f` with every chunk that starts in `text[start..end]`, matching on the whole of
    /// `text` (so look-ahead sees past `end`). `start` must be where a chunk of the whole text
    /// starts (0, or a cut given by [`Splitter::cut_points`]).
    ///
    /// The built-in patterns run on hand-written splitters (`gpt2.rs`,
    /// `cl100k.rs`, `o200k.rs`), the user's on fancy-regex.
    pub fn for_each_chunk<'t>(
        &self,
        text: &'t str,
        start: usize,
        end: usize,
        f: impl FnMut(&'t str),
    ) -> Result<(), SplitError> {
        match self.hand {
            Some(HandSplitter::Gpt2) => {
                crate::bpe::bytelevel::gpt2::for_each_chunk(text, start, end, f)
            }
            Some(HandSplitter::Cl100k) => {
                crate::bpe::bytelevel::cl100k::for_each_chunk(text, start, end, f)
            }
            Some(HandSplitter::O200k) => {
                crate::bpe::bytelevel::o200k::for_each_chunk(text, start, end, f)
            }
            None => return self.for_each_chunk_regex(text, start, end, f),
        }
        Ok(())
    }

    /// [`Splitter::for_each_chunk`] on fancy-regex whatever the pattern: what the hand-written
    /// splitter is tested against.
    pub fn for_each_chunk_regex<'t>(
        &self,
        text: &'t str,
        start: usize,
        end: usize,
        mut f: impl FnMut(&'t str),
    ) -> Result<(), SplitError> {
        let mut at = start;
        while at < end {
            let found = self
                .regex
                .find_from_pos(text, at)
                .map_err(|e| SplitError::Matching {
                    offset: at,
                    message: e.to_string(),
                })?;
            let Some(m) = found else { break };
            if m.start() >= end {
                break;
            }
            if m.end() == m.start() {
                // An empty match: step over one character, as a find-iterator does.
                at = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            f(m.as_str());
            at = m.end();
        }
        Ok(())
    }

    /// Whether [`Splitter::cut_points`] finds places to cut texts (the built-in patterns).
    pub fn can_cut(&self) -> bool {
        self.cuts
    }

    /// Whether `text` may be cut at byte `at` (see [`Splitter::cut_points`]): just after a
    /// `\n` and before an ASCII letter, with a pattern that allows cuts.
    pub fn is_cut(&self, text: &str, at: usize) -> bool {
        let bytes = text.as_bytes();
        self.can_cut()
            && at > 0
            && bytes.get(at - 1) == Some(&b'\n')
            && bytes.get(at).is_some_and(u8::is_ascii_alphabetic)
    }

    /// Up to `parts - 1` byte offsets, ascending, where `text` can be cut so that splitting
    /// each part on its own (with [`Splitter::for_each_chunk`]) gives the chunks of the whole
    /// text: just before an ASCII letter that follows `\n`, near equal shares of the text.
    /// None for a user pattern, for which no such place is known.
    pub fn cut_points(&self, text: &str, parts: usize) -> Vec<usize> {
        if !self.cuts || parts < 2 {
            return Vec::new();
        }
        let bytes = text.as_bytes();
        let mut cuts = Vec::new();
        let mut from = 0;
        for k in 1..parts {
            let target = (text.len() * k / parts).max(from + 1);
            let mut i = target;
            // The first "\n" + ASCII letter at or after the target.
            while i < bytes.len() && !self.is_cut(text, i + 1) {
                i += 1;
            }
            if i + 1 >= bytes.len() {
                break;
            }
            cuts.push(i + 1);
            from = i + 1;
        }
        cuts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_compile_and_parse() {
        for name in ["gpt2", "gpt4", "o200k"] {
            let pattern: SplitPattern = name.parse().unwrap();
            assert_eq!(pattern.name(), Some(name));
            Splitter::new(pattern.clone()).unwrap();
            assert_eq!(SplitPattern::from_regex(pattern.regex()), pattern);
        }
        assert!(matches!(
            Splitter::new(SplitPattern::Custom("(".into())),
            Err(SplitError::BadPattern { .. })
        ));
    }

    /// Each row's names, aliases and regex lead back to its own pattern, and no name is two
    /// patterns'.
    #[test]
    fn the_table_reads_both_ways() {
        let mut names = std::collections::BTreeSet::new();
        for row in &BUILTIN_PATTERNS {
            assert_eq!(row.pattern.builtin().map(|r| r.name), Some(row.name));
            assert_eq!(row.pattern.regex(), row.regex);
            assert_eq!(SplitPattern::from_regex(row.regex), row.pattern);
            for name in std::iter::once(&row.name).chain(row.aliases) {
                assert!(names.insert(*name), "{name} names two patterns");
                assert_eq!(name.parse::<SplitPattern>().unwrap(), row.pattern);
            }
        }
        assert!(!SplitPattern::Custom(r"\w+".into()).cuts_before_line_starts());
        let message = UnknownPatternName("gpt5".into()).to_string();
        assert_eq!(
            message,
            "unknown pattern name \"gpt5\": the names are gpt2 (r50k_base), gpt4 (cl100k_base) \
             and o200k (o200k_base); give your own regular expression with --regex"
        );
    }

    #[test]
    fn gpt2_keeps_trailing_space_apart() {
        let gpt2 = Splitter::new(SplitPattern::Gpt2).unwrap();
        assert_eq!(
            gpt2.chunks("Hello  world\n\nok  ").unwrap(),
            ["Hello", " ", " world", "\n", "\n", "ok", "  "]
        );
    }
}
