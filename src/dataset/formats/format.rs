//! The shapes a corpus file comes in, told by its extension.

use std::fmt;
use std::path::Path;

/// The shape of a corpus file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A JSON array of objects; one field (default `description`) holds a paragraph.
    Json,
    /// One JSON object per line (JSON Lines / NDJSON); blank lines are skipped.
    JsonLines,
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet.
    Parquet,
    /// UTF-8 text, one paragraph per line; the rule of [`crate::files::lines`] (empty lines
    /// skipped, a trailing `\r` and a leading byte-order mark dropped).
    Text,
}

impl Format {
    /// The format a file name says: by its extension (case-insensitive), text when it has none,
    /// `None` for an extension this crate does not know.
    ///
    /// ```
    /// use bpe_lab::dataset::Format;
    /// assert_eq!(Format::from_path("corpus.JSONL"), Some(Format::JsonLines));
    /// assert_eq!(Format::from_path("notes"), Some(Format::Text));
    /// assert_eq!(Format::from_path("sheet.xlsx"), None);
    /// ```
    pub fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        let Some(ext) = path.as_ref().extension() else {
            return Some(Format::Text);
        };
        let ext = ext.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::JsonLines,
            "csv" => Format::Csv,
            "parquet" | "pq" => Format::Parquet,
            "txt" | "text" | "md" => Format::Text,
            _ => return None,
        })
    }

    /// Whether reading this format needs polars' lazy engine (the `columnar` feature).
    pub fn is_columnar(self) -> bool {
        matches!(self, Format::Csv | Format::Parquet)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::JsonLines => "JSON Lines",
            Format::Csv => "CSV",
            Format::Parquet => "Parquet",
            Format::Text => "text",
        })
    }
}
