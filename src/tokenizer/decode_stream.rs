//! Decoding a stream of id lines: what `bpe-lab decode` does with a file or a pipe. Each line
//! holds token ids and gives one line of text. A line of ids is read by [`parse_id_line`], the
//! one reader of them for both kinds of tokenizer: whole numbers separated by whitespace (what
//! `encode --ids` writes), a JSON array of them (`[1, 2, 3]`, as Python prints a list), or a
//! JSON object with an `"ids"` array (what `encode --json` writes), so any of `encode`'s
//! outputs decodes without being rewritten first.

use std::fmt;
use std::io::{self, BufRead, Write};

use serde_json::json;

use crate::files::InvalidUtf8;
use crate::tokenizer::codec::CharLevelTokenizer;
use crate::tokenizer::error::DecodeError;

/// Why decoding a stream of id lines stopped.
#[derive(Debug)]
pub enum DecodeLinesError {
    /// Reading the input failed.
    Read(io::Error),
    /// The input is not UTF-8 (where, named).
    InvalidUtf8(InvalidUtf8),
    /// A line holds something that is not a token id.
    NotAnId {
        input: String,
        line: u64,
        problem: NotIds,
    },
    /// A line holds an id outside the vocabulary.
    UnknownId {
        input: String,
        line: u64,
        error: DecodeError,
    },
    /// Writing the output failed (a closed pipe among others).
    Write(io::Error),
}

impl fmt::Display for DecodeLinesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeLinesError::Read(e) => write!(f, "cannot read the input: {e}"),
            DecodeLinesError::InvalidUtf8(bad) => write!(f, "{bad}"),
            DecodeLinesError::NotAnId {
                input,
                line,
                problem,
            } => write!(f, "{input}, line {line}: {problem}"),
            DecodeLinesError::UnknownId { input, line, error } => write!(
                f,
                "{input}, line {line}: id {} (item {}) is not in the vocabulary, whose ids are \
                 0 to {}",
                error.id,
                error.position + 1,
                error.vocab_size.saturating_sub(1)
            ),
            DecodeLinesError::Write(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for DecodeLinesError {}

impl CharLevelTokenizer {
    /// Decodes every line of ids of `input` (named `input_name` in errors, e.g. `file 'a.txt'`)
    /// into one line of text of `out`, or with `as_json` one `{"text": ...}` object per line
    /// (which keeps one line per input line even when a text holds a newline). Returns how
    /// many lines were decoded.
    pub fn decode_lines(
        &self,
        input: &mut dyn BufRead,
        input_name: &str,
        out: &mut dyn Write,
        as_json: bool,
    ) -> Result<u64, DecodeLinesError> {
        let (mut bytes, mut ids, mut text) = (Vec::new(), Vec::new(), String::new());
        let mut offset = 0u64;
        for number in 1u64.. {
            bytes.clear();
            let n = input
                .read_until(b'\n', &mut bytes)
                .map_err(DecodeLinesError::Read)?;
            if n == 0 {
                out.flush().map_err(DecodeLinesError::Write)?;
                return Ok(number - 1);
            }
            let line = std::str::from_utf8(&bytes).map_err(|e| {
                let bad = InvalidUtf8::locate(input_name, &bytes, offset, number, e);
                DecodeLinesError::InvalidUtf8(bad)
            })?;
            offset += n as u64;
            parse_id_line(line, &mut ids).map_err(|problem| DecodeLinesError::NotAnId {
                input: input_name.to_owned(),
                line: number,
                problem,
            })?;
            text.clear();
            self.decode_into(&ids, &mut text)
                .map_err(|error| DecodeLinesError::UnknownId {
                    input: input_name.to_owned(),
                    line: number,
                    error,
                })?;
            if as_json {
                serde_json::to_writer(&mut *out, &json!({ "text": text }))
                    .map_err(|e| DecodeLinesError::Write(e.into()))?;
            } else {
                out.write_all(text.as_bytes())
                    .map_err(DecodeLinesError::Write)?;
            }
            out.write_all(b"\n").map_err(DecodeLinesError::Write)?;
        }
        unreachable!("lines are counted until the input ends")
    }
}

/// What is wrong with a line given as token ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotIds {
    /// Item `item` (from 1) of a whitespace-separated line is `text` (cut to 20 characters),
    /// not a whole number below 2³².
    Item { item: usize, text: String },
    /// The line starts as JSON (`[` or `{`) but is not an array of ids nor an object with an
    /// `"ids"` array of them; serde's reason.
    Json(String),
}

impl fmt::Display for NotIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotIds::Item { item, text } => write!(
                f,
                "item {item} is {text:?}, not a token id (expected whole numbers separated by \
                 spaces, a JSON array of them, or {{\"ids\": [...]}} as `encode --json` writes)"
            ),
            NotIds::Json(e) => write!(
                f,
                "not a JSON array of token ids nor an object with an \"ids\" array: {e}"
            ),
        }
    }
}

impl std::error::Error for NotIds {}

/// The ids of one line into `ids` (cleared first): whole numbers separated by whitespace, a
/// JSON array of them, or a JSON object whose `"ids"` is one (other fields, such as `encode
/// --json`'s `"tokens"`, are ignored). A line that starts with `[` or `{` is JSON; a blank
/// line holds no ids.
pub fn parse_id_line(line: &str, ids: &mut Vec<u32>) -> Result<(), NotIds> {
    ids.clear();
    let trimmed = line.trim();
    if trimmed.starts_with(['[', '{']) {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Line {
            Array(Vec<u32>),
            Object { ids: Vec<u32> },
        }
        let parsed: Line = serde_json::from_str(trimmed).map_err(|e| {
            // serde's untagged error says only "did not match any variant": say which shape
            // the line started as, and why it failed as that.
            let why = if trimmed.starts_with('[') {
                serde_json::from_str::<Vec<u32>>(trimmed).err()
            } else {
                #[derive(serde::Deserialize)]
                #[allow(dead_code)]
                struct Object {
                    ids: Vec<u32>,
                }
                serde_json::from_str::<Object>(trimmed).err()
            };
            NotIds::Json(why.map_or_else(|| e.to_string(), |w| w.to_string()))
        })?;
        *ids = match parsed {
            Line::Array(found) | Line::Object { ids: found } => found,
        };
        return Ok(());
    }
    for (i, item) in line.split_ascii_whitespace().enumerate() {
        let id = item.parse::<u32>().map_err(|_| NotIds::Item {
            item: i + 1,
            text: item.chars().take(20).collect(),
        })?;
        ids.push(id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_whole_numbers_separated_by_whitespace() {
        let mut ids = Vec::new();
        parse_id_line(" 1 22\t333 \r\n", &mut ids).unwrap();
        assert_eq!(ids, [1, 22, 333]);
        assert_eq!(
            parse_id_line("1 x2", &mut ids),
            Err(NotIds::Item {
                item: 2,
                text: "x2".to_owned()
            })
        );
        assert!(parse_id_line("-1", &mut ids).is_err());
        assert!(parse_id_line("4294967296", &mut ids).is_err());
    }

    /// `encode --json`'s objects and Python's printed lists decode as they are.
    #[test]
    fn ids_may_be_a_json_array_or_an_object_with_ids() {
        let mut ids = Vec::new();
        parse_id_line("[1, 2, 3]\n", &mut ids).unwrap();
        assert_eq!(ids, [1, 2, 3]);
        parse_id_line(r#" {"ids":[7,8],"tokens":["a","b"]}"#, &mut ids).unwrap();
        assert_eq!(ids, [7, 8]);
        parse_id_line("[]", &mut ids).unwrap();
        assert!(ids.is_empty());
        parse_id_line("", &mut ids).unwrap();
        assert!(ids.is_empty());
        for bad in [
            "[1, -2]",
            "[1, 2",
            r#"{"tokens": ["a"]}"#,
            "[\"1\"]",
            "{\"ids\": 3}",
        ] {
            let err = parse_id_line(bad, &mut ids).unwrap_err();
            assert!(matches!(err, NotIds::Json(_)), "{bad}: {err:?}");
        }
        let err = parse_id_line(r#"{"tokens": ["a"]}"#, &mut ids).unwrap_err();
        assert!(err.to_string().contains("missing field `ids`"), "{err}");
    }

    #[test]
    fn lines_decode_and_errors_name_the_line() {
        let tokenizer = CharLevelTokenizer::train(&["ab ab"], 1);
        let ids: Vec<String> = tokenizer
            .encode("ab  a")
            .iter()
            .map(u32::to_string)
            .collect();
        let input = format!("{}\n\n{}\n", ids.join(" "), ids.join("\t"));
        let mut out = Vec::new();
        let lines = tokenizer
            .decode_lines(&mut input.as_bytes(), "x", &mut out, false)
            .unwrap();
        assert_eq!(
            (lines, String::from_utf8(out).unwrap()),
            (3, "ab  a\n\nab  a\n".into())
        );
        let err = tokenizer
            .decode_lines(
                &mut &b"1\n2 99\n"[..],
                "file 'i.txt'",
                &mut Vec::new(),
                true,
            )
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("file 'i.txt', line 2: id 99 (item 2)"),
            "{err}"
        );
    }
}
