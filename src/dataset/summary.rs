//! How big a corpus is, counted the way the lab counts: words are what Python's
//! `paragraph.split(" ")` gives (a double space makes an empty word), characters are what
//! Python's `len(paragraph)` gives (Unicode scalar values, spaces included).

use std::collections::HashSet;

use polars::prelude::{Column, DataFrame, PlSmallStr};

use crate::bpe::corpus::lab_words;
use crate::dataset::descriptions::descriptions;
use crate::dataset::error::DatasetError;

/// Paragraph, word and character counts of a corpus.
///
/// ```
/// use bpe_lab::dataset::Summary;
/// let summary = Summary::of_paragraphs(&["the cat  sat", "the end"]);
/// assert_eq!(summary.paragraphs, 2);
/// assert_eq!(summary.words, 6); // "the", "cat", "", "sat", "the", "end"
/// assert_eq!(summary.unique_words, 5);
/// assert_eq!(summary.characters, 19);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    pub paragraphs: u64,
    pub words: u64,
    pub unique_words: u64,
    pub characters: u64,
}

impl Summary {
    pub fn of_paragraphs(paragraphs: &[impl AsRef<str>]) -> Summary {
        let mut unique: HashSet<&str> = HashSet::new();
        let mut summary = Summary {
            paragraphs: paragraphs.len() as u64,
            ..Summary::default()
        };
        for paragraph in paragraphs {
            let paragraph = paragraph.as_ref();
            summary.characters += paragraph.chars().count() as u64;
            for word in lab_words(paragraph) {
                summary.words += 1;
                unique.insert(word);
            }
        }
        summary.unique_words = unique.len() as u64;
        summary
    }

    /// The summary of a corpus DataFrame's `description` column.
    pub fn of_frame(frame: &DataFrame) -> Result<Summary, DatasetError> {
        Ok(Summary::of_paragraphs(&descriptions(frame)?))
    }

    /// One row with the columns `paragraphs`, `words`, `unique_words`, `characters` (u64).
    pub fn to_frame(&self) -> DataFrame {
        let column =
            |name: &'static str, value: u64| Column::new(PlSmallStr::from_static(name), [value]);
        DataFrame::new(
            1,
            vec![
                column("paragraphs", self.paragraphs),
                column("words", self.words),
                column("unique_words", self.unique_words),
                column("characters", self.characters),
            ],
        )
        .expect("four distinct columns of one row")
    }
}

/// The summary of a corpus DataFrame as a one-row DataFrame (see [`Summary::to_frame`]).
pub fn summarize(frame: &DataFrame) -> Result<DataFrame, DatasetError> {
    Ok(Summary::of_frame(frame)?.to_frame())
}
