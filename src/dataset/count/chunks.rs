//! The (chunk, count) table: what byte-level training reads, counted where the data lives.
//!
//! Byte-level training never looks at its text again once it has the distinct chunks (the
//! pieces the split pattern cuts between the special tokens) in order of first appearance
//! with their counts ([`ChunkCounts`]). So, as for words, the text can be counted file by file
//! or machine by machine, the tables summed in order, and the merges learned from the sum are
//! those of the whole text.
//!
//! A chunk table is not a word table, and chunks cut by one pattern are not those of another,
//! so the table says what it is in its own columns: `chunk` (not `word`) and `count`, then
//! `pattern` (the split pattern's regular expression) and `special_tokens` (the special tokens
//! the text was cut at, a JSON array of strings), the same on every row. Columns rather than
//! Parquet key-value metadata, because CSV has no metadata, Spark's DataFrame writer cannot
//! set it, and tools that rewrite a table (pandas, DuckDB, Spark itself) keep columns but drop
//! metadata. In Parquet a column of one repeated value is dictionary-encoded: stored once.

use polars::prelude::{Column, DataFrame, PlSmallStr};

use crate::bpe::bytelevel::{ChunkCounts, SplitError, SplitPattern, Splitter};
use crate::dataset::count::table::{COUNT_COLUMN, TableFormat, WordTable};

/// The column of chunks in a chunk table.
pub const CHUNK_COLUMN: &str = "chunk";
/// The column of a chunk table holding its split pattern's regular expression.
pub const PATTERN_COLUMN: &str = "pattern";
/// The column of a chunk table holding the special tokens its text was cut at, as a JSON array.
pub const SPECIALS_COLUMN: &str = "special_tokens";

/// How a text was cut into chunks: the split pattern, and the special tokens cut out first
/// (training never sees them). Two tables add up only when they were cut the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkSplit {
    pub pattern: SplitPattern,
    pub special_tokens: Vec<String>,
}

impl ChunkSplit {
    pub fn new(pattern: SplitPattern, special_tokens: Vec<String>) -> Self {
        ChunkSplit {
            pattern,
            special_tokens,
        }
    }

    /// The special tokens as a JSON array, as the `special_tokens` column holds them.
    pub fn specials_json(&self) -> String {
        serde_json::to_string(&self.special_tokens).expect("strings serialize")
    }

    /// The split read back from a table's `pattern` and `special_tokens` values; `None` when
    /// the specials are not a JSON array of strings.
    pub fn from_columns(pattern: &str, specials: &str) -> Option<Self> {
        let special_tokens: Vec<String> = serde_json::from_str(specials).ok()?;
        Some(ChunkSplit::new(
            SplitPattern::from_regex(pattern),
            special_tokens,
        ))
    }
}

impl std::fmt::Display for ChunkSplit {
    /// `pattern gpt4, special tokens ["<|endoftext|>"]`, as errors name a split.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pattern {}, special tokens {}",
            self.pattern,
            self.specials_json()
        )
    }
}

/// Distinct chunks with their counts, in order of first appearance, and how they were cut.
///
/// ```
/// use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
/// use bpe_lab::dataset::{ChunkSplit, ChunkTable};
/// let split = ChunkSplit::new(SplitPattern::Cl100k, vec!["<|endoftext|>".into()]);
/// let splitter = Splitter::new(split.pattern.clone()).unwrap();
/// let mut table = ChunkTable::new(split);
/// table.add_text("the cat<|endoftext|> the", &splitter, 1).unwrap();
/// let rows: Vec<(&str, u64)> = table.iter().collect();
/// assert_eq!(rows, [("the", 1), (" cat", 1), (" the", 1)]);
/// ```
#[derive(Debug, Clone)]
pub struct ChunkTable {
    split: ChunkSplit,
    /// The rows: a chunk is a piece of UTF-8 text, so the word table's first-seen store fits.
    rows: WordTable,
}

impl ChunkTable {
    pub fn new(split: ChunkSplit) -> Self {
        ChunkTable {
            split,
            rows: WordTable::new(),
        }
    }

    /// How the chunks were cut.
    pub fn split(&self) -> &ChunkSplit {
        &self.split
    }

    /// Adds the chunks of `text` as byte-level training counts them ([`ChunkCounts::from_text`]:
    /// cut at the special tokens, split by `splitter`, on `threads` threads). `splitter` must be
    /// this table's pattern's.
    pub fn add_text(
        &mut self,
        text: &str,
        splitter: &Splitter,
        threads: usize,
    ) -> Result<(), SplitError> {
        debug_assert_eq!(splitter.pattern(), &self.split.pattern);
        let specials: Vec<&str> = self
            .split
            .special_tokens
            .iter()
            .map(String::as_str)
            .collect();
        let counts = ChunkCounts::from_text(text, splitter, &specials, threads)?;
        for (chunk, count) in counts.iter() {
            let chunk = std::str::from_utf8(chunk).expect("a chunk of a str is a str");
            self.rows.add(chunk, count);
        }
        Ok(())
    }

    /// Adds `count` occurrences of `chunk`: a new chunk goes last, a known one keeps its row.
    pub fn add(&mut self, chunk: &str, count: u64) {
        self.rows.add(chunk, count);
    }

    /// Number of distinct chunks.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of chunks counted, repeats included.
    pub fn total(&self) -> u64 {
        self.rows.total()
    }

    /// The rows in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.rows.iter()
    }

    /// The byte-level trainer's input.
    pub fn to_chunk_counts(&self) -> ChunkCounts {
        ChunkCounts::from_counts(self.iter().map(|(chunk, count)| (chunk.as_bytes(), count)))
    }

    /// The table as a DataFrame: `chunk` (String), `count` (Int64), `pattern` and
    /// `special_tokens` (String, the same on every row).
    pub fn to_frame(&self) -> DataFrame {
        let mut frame = self.rows.to_frame();
        frame
            .rename(
                super::table::WORD_COLUMN,
                PlSmallStr::from_static(CHUNK_COLUMN),
            )
            .expect("the word table has a word column");
        let height = frame.height();
        let constant = |name: &'static str, value: &str| {
            Column::new_scalar(
                PlSmallStr::from_static(name),
                polars::prelude::Scalar::from(PlSmallStr::from_str(value)),
                height,
            )
        };
        frame
            .hstack_mut(&[
                constant(PATTERN_COLUMN, self.split.pattern.regex()),
                constant(SPECIALS_COLUMN, &self.split.specials_json()),
            ])
            .expect("columns of one length");
        debug_assert_eq!(frame.get_column_names()[1].as_str(), COUNT_COLUMN);
        frame
    }

    /// Writes the table as Parquet (zstd) or, for [`TableFormat::Csv`], CSV with a header.
    pub fn write(&self, format: TableFormat, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        super::table::write_frame(self.to_frame(), format, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split() -> ChunkSplit {
        ChunkSplit::new(
            SplitPattern::Gpt2,
            vec!["<|endoftext|>".into(), "é\"".into()],
        )
    }

    #[test]
    fn the_split_survives_its_columns() {
        let split = split();
        let back = ChunkSplit::from_columns(split.pattern.regex(), &split.specials_json());
        assert_eq!(back, Some(split));
        assert_eq!(ChunkSplit::from_columns(r"\w+", "not json"), None);
        let custom = ChunkSplit::from_columns(r"\w+|\s+", "[]").unwrap();
        assert_eq!(custom.pattern, SplitPattern::Custom(r"\w+|\s+".into()));
    }

    #[test]
    fn the_frame_has_the_split_on_every_row() {
        let splitter = Splitter::new(SplitPattern::Gpt2).unwrap();
        let mut table = ChunkTable::new(split());
        table.add_text("a b a<|endoftext|>a", &splitter, 1).unwrap();
        let frame = table.to_frame();
        let names: Vec<&str> = frame
            .get_column_names()
            .iter()
            .map(|n| n.as_str())
            .collect();
        assert_eq!(names, ["chunk", "count", "pattern", "special_tokens"]);
        assert_eq!(frame.height(), 3);
        let patterns = frame.column("pattern").unwrap().str().unwrap().clone();
        assert!(
            patterns
                .iter()
                .all(|p| p == Some(SplitPattern::Gpt2.regex()))
        );
        let rows: Vec<_> = table.iter().collect();
        assert_eq!(rows, [("a", 2), (" b", 1), (" a", 1)]);
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    /// Texts from a few pieces that exercise the patterns: letters in three scripts, a
    /// combining mark, digits, spaces, line feeds, punctuation, an emoji and a special token.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a",
            "b",
            "Z",
            "ሰ",
            "ߒ",
            "e\u{301}",
            "7",
            "42",
            " ",
            "  ",
            "\n",
            "\n\n",
            "\t",
            "'s",
            "!",
            "...",
            "😀",
            "<|endoftext|>",
            "\r\n",
        ]);
        prop::collection::vec(pieces, 0..40).prop_map(|p| p.concat())
    }

    /// Where `text` may be cut into shards whose chunks are the whole text's: after a `\n`
    /// that follows a non-whitespace character, before an ASCII letter.
    fn safe_cuts(text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        (2..text.len())
            .filter(|&i| {
                bytes[i - 1] == b'\n'
                    && !bytes[i - 2].is_ascii_whitespace()
                    && bytes[i].is_ascii_alphabetic()
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn counting_shards_and_summing_is_counting_the_whole(
            text in text(),
            which in prop::collection::vec(any::<bool>(), 0..8),
            pattern in prop::sample::select(vec![
                SplitPattern::Gpt2, SplitPattern::Cl100k, SplitPattern::O200k,
            ]),
        ) {
            let splitter = Splitter::new(pattern.clone()).unwrap();
            let split = ChunkSplit::new(pattern, vec!["<|endoftext|>".into()]);
            let mut whole = ChunkTable::new(split.clone());
            whole.add_text(&text, &splitter, 1).unwrap();
            // Some of the safe cuts, chosen by `which`.
            let cuts: Vec<usize> = safe_cuts(&text)
                .into_iter()
                .zip(which.iter().chain(std::iter::repeat(&true)))
                .filter(|&(_, &take)| take)
                .map(|(cut, _)| cut)
                .collect();
            let mut summed = ChunkTable::new(split);
            let mut start = 0;
            for end in cuts.into_iter().chain([text.len()]) {
                let mut shard = ChunkTable::new(summed.split().clone());
                shard.add_text(&text[start..end], &splitter, 2).unwrap();
                for (chunk, count) in shard.iter() {
                    summed.add(chunk, count);
                }
                start = end;
            }
            let rows = |t: &ChunkTable| t.iter().map(|(c, n)| (c.to_owned(), n)).collect::<Vec<_>>();
            prop_assert_eq!(rows(&summed), rows(&whole));
            // And the whole table is what byte-level training counts in the text.
            let direct = ChunkCounts::from_text(&text, &splitter, &["<|endoftext|>"], 1).unwrap();
            prop_assert_eq!(whole.to_chunk_counts(), direct);
        }
    }
}
