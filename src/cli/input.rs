//! Reading a corpus file, with errors that say which file and where it went wrong.
//!
//! Two shapes: plain UTF-8 text with one paragraph per line, and (for a `.json` file) a JSON
//! array of objects whose `field` holds one paragraph each, as Africa Galore is published.

use std::fs;
use std::path::Path;

use bpe_lab::WordCounts;
use bpe_lab::files::json_kind as kind;
use serde_json::Value;

use crate::cli::error::CliError;

/// The words of the corpus at `path`: a `.json` file is read as an array of objects and the
/// string `field` of each is a paragraph; anything else is text, one paragraph per line.
pub fn read_corpus(path: &Path, field: &str) -> Result<WordCounts, CliError> {
    let text = read_text(path)?;
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        let paragraphs = json_paragraphs(&text, field)
            .map_err(|why| CliError::runtime(format!("'{}': {why}", path.display())))?;
        Ok(WordCounts::from_paragraphs(&paragraphs))
    } else {
        Ok(WordCounts::from_lines(&text))
    }
}

/// The paragraphs of the corpus at `path`, read as [`read_corpus`] reads them (blank lines of
/// a text file are skipped, a trailing `\r` dropped), for commands that need the text itself.
pub fn read_paragraphs(path: &Path, field: &str) -> Result<Vec<String>, CliError> {
    let text = read_text(path)?;
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        json_paragraphs(&text, field)
            .map_err(|why| CliError::runtime(format!("'{}': {why}", path.display())))
    } else {
        Ok(text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect())
    }
}

/// The string `field` of every object of a JSON array, in order.
fn json_paragraphs<'a>(text: &'a str, field: &str) -> Result<Vec<String>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!("not valid JSON: {e} (expected an array of objects with a \"{field}\" field)")
    })?;
    let Value::Array(items) = value else {
        return Err(format!(
            "expected a JSON array of objects with a \"{field}\" field, found {}",
            kind(&value)
        ));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Object(mut object) => match object.remove(field) {
                Some(Value::String(paragraph)) => Ok(paragraph),
                Some(other) => Err(format!(
                    "item {i}: field \"{field}\" is {}, expected a string",
                    kind(&other)
                )),
                None => Err(format!("item {i}: no \"{field}\" field")),
            },
            other => Err(format!("item {i} is {}, expected an object", kind(&other))),
        })
        .collect()
}

/// The whole file as text. Fails with a message naming the file when it is missing, a
/// directory, unreadable, or not UTF-8 (then with the byte offset, line and column).
fn read_text(path: &Path) -> Result<String, CliError> {
    // Checked first because reading a directory fails with an OS-specific error, or, on some
    // systems, not at all.
    let metadata = fs::metadata(path).map_err(|e| CliError::io("cannot read", path, &e))?;
    if metadata.is_dir() {
        return Err(CliError::runtime(format!(
            "cannot read '{}': it is a directory, not a file",
            path.display()
        )));
    }
    let bytes = fs::read(path).map_err(|e| CliError::io("cannot read", path, &e))?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::runtime(format!(
            "'{}' is not valid UTF-8: {}",
            path.display(),
            describe_utf8_error(e.as_bytes(), e.utf8_error())
        ))
    })
}

/// Where the first invalid sequence is: byte offset, 1-based line, 1-based column in
/// characters, and the offending bytes.
fn describe_utf8_error(bytes: &[u8], err: std::str::Utf8Error) -> String {
    let offset = err.valid_up_to();
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    // Everything before `valid_up_to` is valid UTF-8 by definition.
    let column = std::str::from_utf8(&before[line_start..]).map_or(0, |s| s.chars().count()) + 1;
    let place = format!("byte offset {offset} (line {line}, column {column})");
    match err.error_len() {
        Some(len) => {
            let hex: Vec<String> = bytes[offset..offset + len]
                .iter()
                .map(|b| format!("0x{b:02X}"))
                .collect();
            format!("invalid byte sequence {} at {place}", hex.join(" "))
        }
        None => format!("the file ends in the middle of a character at {place}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_paragraphs_come_from_the_field_in_order() {
        let text = r#"[{"name": "x", "description": "a b"}, {"description": "c"}]"#;
        assert_eq!(json_paragraphs(text, "description").unwrap(), ["a b", "c"]);
    }

    #[test]
    fn json_errors_name_the_item_and_the_problem() {
        let missing = json_paragraphs(r#"[{"description": "a"}, {"name": "b"}]"#, "description");
        assert_eq!(missing.unwrap_err(), "item 1: no \"description\" field");
        let wrong = json_paragraphs(r#"[{"description": 3}]"#, "description");
        assert_eq!(
            wrong.unwrap_err(),
            "item 0: field \"description\" is a number, expected a string"
        );
        let not_array = json_paragraphs(r#"{"description": "a"}"#, "description");
        assert!(not_array.unwrap_err().contains("found an object"));
        let malformed = json_paragraphs("[{\"description\": ", "description");
        assert!(malformed.unwrap_err().contains("line 1"));
    }

    fn describe(bytes: &[u8]) -> String {
        describe_utf8_error(bytes, std::str::from_utf8(bytes).unwrap_err())
    }

    #[test]
    fn locates_the_bad_byte() {
        assert_eq!(
            describe(b"ab\nc\xC3\xA9d\xFFe"),
            "invalid byte sequence 0xFF at byte offset 7 (line 2, column 4)"
        );
    }

    #[test]
    fn reports_a_truncated_character_at_the_end() {
        assert_eq!(
            describe(b"abc\xE2\x82"),
            "the file ends in the middle of a character at byte offset 3 (line 1, column 4)"
        );
    }
}
