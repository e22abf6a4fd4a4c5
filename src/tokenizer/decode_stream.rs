//! Decoding a stream of id lines: what `bpe-lab decode` does with a file or a pipe. Each line
//! holds token ids (whole numbers separated by whitespace) and gives one line of text.

use std::fmt;
use std::io::{self, BufRead, Write};

use serde_json::json;

use crate::files::InvalidUtf8;
use crate::tokenizer::codec::Tokenizer;
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
        /// 1-based position of the item on the line.
        item: usize,
        /// The item, cut to 20 characters.
        text: String,
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
                item,
                text,
            } => write!(
                f,
                "{input}, line {line}: item {item} is {text:?}, not a token id (expected whole \
                 numbers separated by spaces)"
            ),
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

impl Tokenizer {
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
            parse_ids(line, &mut ids).map_err(|(item, text)| DecodeLinesError::NotAnId {
                input: input_name.to_owned(),
                line: number,
                item,
                text,
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

/// The ids of one line (whole numbers separated by whitespace) into `ids`, cleared first; or
/// the 1-based position and text (cut to 20 characters) of the first item that is not one.
fn parse_ids(line: &str, ids: &mut Vec<u32>) -> Result<(), (usize, String)> {
    ids.clear();
    for (i, item) in line.split_ascii_whitespace().enumerate() {
        let id = item
            .parse::<u32>()
            .map_err(|_| (i + 1, item.chars().take(20).collect()))?;
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
        parse_ids(" 1 22\t333 \r\n", &mut ids).unwrap();
        assert_eq!(ids, [1, 22, 333]);
        assert_eq!(parse_ids("1 x2", &mut ids), Err((2, "x2".to_owned())));
        assert!(parse_ids("-1", &mut ids).is_err());
        assert!(parse_ids("4294967296", &mut ids).is_err());
    }

    #[test]
    fn lines_decode_and_errors_name_the_line() {
        let tokenizer = Tokenizer::train(&["ab ab"], 1);
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
