//! Telling a tokenizer file from everything else given where one is expected (`-t`): a corpus,
//! a CSV table, a JSON array or `null` is not "a tiktoken rank file without its sidecar" nor
//! "a bad Hugging Face file", but simply not a tokenizer file, and the message says what it
//! looks like instead. The tokenizer readers keep their own, precise errors for files that are
//! tokenizer files of some kind (a JSON object, or lines of `BASE64 RANK`).

use std::fmt;
use std::path::{Path, PathBuf};

/// What a file that is no tokenizer file looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LooksLike {
    Empty,
    JsonArray,
    JsonNull,
    /// A JSON string, number or boolean.
    JsonScalar,
    Csv,
    Parquet,
    /// Bytes that are not UTF-8 text.
    Binary,
    /// Text, such as a corpus.
    Text,
}

impl LooksLike {
    fn describe(self) -> &'static str {
        match self {
            LooksLike::Empty => "it is empty",
            LooksLike::JsonArray => "it is a JSON array (a corpus of records?)",
            LooksLike::JsonNull => "it is JSON null",
            LooksLike::JsonScalar => "it is a single JSON value, not an object",
            LooksLike::Csv => "it looks like CSV (a corpus or a table?)",
            LooksLike::Parquet => "it is a Parquet file (a corpus or a table?)",
            LooksLike::Binary => "it is binary data, not text",
            LooksLike::Text => "it looks like plain text (a corpus?)",
        }
    }
}

/// A file given as a tokenizer that is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotATokenizer {
    pub path: PathBuf,
    pub looks_like: LooksLike,
}

impl fmt::Display for NotATokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a tokenizer file: {}. A tokenizer file is one `bpe-lab train` \
             writes, a Hugging Face tokenizer.json, or a tiktoken rank file (lines of \
             `BASE64 RANK`, its pattern and special tokens in FILE.json beside it)",
            crate::files::source_name(&self.path),
            self.looks_like.describe()
        )
    }
}

impl std::error::Error for NotATokenizer {}

/// `None` when `bytes` may be a tokenizer file (a JSON object, or a rank file's lines), else
/// what they look like.
pub fn not_a_tokenizer(bytes: &[u8]) -> Option<LooksLike> {
    let start = bytes.trim_ascii_start();
    if start.is_empty() {
        return Some(LooksLike::Empty);
    }
    if start.starts_with(b"{") {
        return None;
    }
    if bytes.starts_with(b"PAR1") {
        return Some(LooksLike::Parquet);
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) {
        return Some(match value {
            serde_json::Value::Array(_) => LooksLike::JsonArray,
            serde_json::Value::Null => LooksLike::JsonNull,
            _ => LooksLike::JsonScalar,
        });
    }
    // A JSON array too large or broken to parse still starts like one.
    if start.starts_with(b"[") {
        return Some(LooksLike::JsonArray);
    }
    let Ok(text) = std::str::from_utf8(&bytes[..bytes.len().min(1 << 16)]).or_else(|e| {
        // A cut in the middle of a character at the end of the sample is still text.
        std::str::from_utf8(&bytes[..e.valid_up_to()]).map_err(|_| e)
    }) else {
        return Some(LooksLike::Binary);
    };
    if text.len() < bytes.len().min(1 << 16).saturating_sub(3) {
        return Some(LooksLike::Binary);
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or_default();
    if is_rank_line(first) {
        return None;
    }
    let commas = first.matches(',').count();
    if commas > 0
        && lines
            .next()
            .is_some_and(|l| l.matches(',').count() == commas)
    {
        return Some(LooksLike::Csv);
    }
    Some(LooksLike::Text)
}

/// `BASE64 RANK`, a line of a tiktoken rank file.
fn is_rank_line(line: &str) -> bool {
    line.trim_end()
        .split_once(' ')
        .is_some_and(|(token, rank)| {
            !token.is_empty()
                && token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                && !rank.is_empty()
                && rank.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Refuses a file's content read elsewhere (standard input) that is no tokenizer file; the
/// error names `source`.
pub fn check_tokenizer_bytes(bytes: &[u8], source: &Path) -> Result<(), NotATokenizer> {
    match not_a_tokenizer(bytes) {
        None => Ok(()),
        Some(looks_like) => Err(NotATokenizer {
            path: source.to_owned(),
            looks_like,
        }),
    }
}

/// Refuses a file at `path` that is no tokenizer file, saying what it looks like; a file that
/// cannot be read is left to the reader that follows (its error names the problem).
pub fn check_tokenizer_file(path: &Path) -> Result<(), NotATokenizer> {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(());
    };
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    // The first 64 KiB tell, but for JSON, which is parsed whole.
    let mut head = Vec::new();
    if file.take(1 << 16).read_to_end(&mut head).is_err() {
        return Ok(());
    }
    let trimmed = head.trim_ascii_start();
    let bytes = if trimmed.starts_with(b"[") || trimmed.starts_with(b"n") {
        std::fs::read(path).unwrap_or(head)
    } else {
        head
    };
    match not_a_tokenizer(&bytes) {
        None => Ok(()),
        Some(looks_like) => Err(NotATokenizer {
            path: path.to_owned(),
            looks_like,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_files_pass_and_others_say_what_they_are() {
        assert_eq!(not_a_tokenizer(b"{\"format\": 1}"), None);
        assert_eq!(not_a_tokenizer(b"IQ== 0\nIg== 1\n"), None);
        assert_eq!(not_a_tokenizer(b""), Some(LooksLike::Empty));
        assert_eq!(not_a_tokenizer(b" \n"), Some(LooksLike::Empty));
        assert_eq!(
            not_a_tokenizer(b"[{\"description\": \"x\"}]"),
            Some(LooksLike::JsonArray)
        );
        assert_eq!(not_a_tokenizer(b"null"), Some(LooksLike::JsonNull));
        assert_eq!(not_a_tokenizer(b"3"), Some(LooksLike::JsonScalar));
        assert_eq!(
            not_a_tokenizer(b"name,description\na,b c\n"),
            Some(LooksLike::Csv)
        );
        assert_eq!(
            not_a_tokenizer(b"Jollof rice is cooked in Lagos.\nAnd in Accra.\n"),
            Some(LooksLike::Text)
        );
        assert_eq!(
            not_a_tokenizer(b"\xff\xfe\x00\x01"),
            Some(LooksLike::Binary)
        );
        assert_eq!(not_a_tokenizer(b"PAR1\x15\x04"), Some(LooksLike::Parquet));
    }
}
