//! A submitted file's bytes as text, before the notebook is parsed: editors on some systems
//! begin files with a byte-order mark (UTF-8's, or UTF-16's from Windows Notepad), and a cell
//! pasted from a Latin-1 file can hold bytes that are not UTF-8. Neither loses the submission:
//! the mark is dropped, UTF-16 is read as such, and bytes that are not UTF-8 become U+FFFD,
//! with the cells and lines where that happened told to the student.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// The text of a file, and what reading it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decoded<'a> {
    pub(crate) text: Cow<'a, str>,
    /// Some bytes were not UTF-8 and were replaced.
    pub(crate) replaced: bool,
}

/// Reads `bytes` as text: a byte-order mark is dropped, UTF-16 (with its mark) decoded, and
/// bytes that are not UTF-8 replaced.
pub(crate) fn decode(bytes: &[u8]) -> Decoded<'_> {
    let utf16 = |bytes: &[u8], little: bool| {
        let units: Vec<u16> = bytes
            .chunks(2)
            .map(|c| {
                let pair = [c[0], *c.get(1).unwrap_or(&0)];
                if little {
                    u16::from_le_bytes(pair)
                } else {
                    u16::from_be_bytes(pair)
                }
            })
            .collect();
        let text = String::from_utf16_lossy(&units);
        Decoded {
            replaced: text.contains('\u{fffd}'),
            text: Cow::Owned(text),
        }
    };
    if let Some(rest) = bytes.strip_prefix(b"\xff\xfe") {
        return utf16(rest, true);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xfe\xff") {
        return utf16(rest, false);
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Decoded {
            text: Cow::Borrowed(text),
            replaced: false,
        },
        Err(_) => Decoded {
            text: String::from_utf8_lossy(bytes),
            replaced: true,
        },
    }
}

/// A line of a cell's source: both count from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Place {
    pub(crate) cell: usize,
    pub(crate) line: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cell {}, line {}", self.cell, self.line)
    }
}

/// The lines of the cells of `notebook` (its JSON) that hold U+FFFD: where replaced bytes
/// landed. (A U+FFFD the student typed is listed too; it is as unreadable to them.)
pub(crate) fn replaced_places(notebook: &Value) -> Vec<Place> {
    let Some(cells) = notebook.get("cells").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut places = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let source = match cell.get("source") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(lines)) => lines.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        for (j, line) in source.lines().enumerate() {
            if line.contains('\u{fffd}') {
                places.push(Place {
                    cell: i + 1,
                    line: j + 1,
                });
            }
        }
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_are_dropped_and_utf16_is_read() {
        assert_eq!(decode(b"\xef\xbb\xbf{}").text, "{}");
        assert!(!decode(b"\xef\xbb\xbf{}").replaced);
        assert_eq!(decode(b"\xff\xfe{\0}\0").text, "{}");
        assert_eq!(decode(b"\xfe\xff\0{\0}").text, "{}");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced_and_found_by_cell_and_line() {
        let bytes = b"{\"cells\": [{\"source\": \"ok\"}, {\"source\": [\"fn f() {}\\n\", \"// caf\xe9\\n\"]}]}";
        let decoded = decode(bytes);
        assert!(decoded.replaced);
        let json: Value = serde_json::from_str(&decoded.text).unwrap();
        assert_eq!(replaced_places(&json), [Place { cell: 2, line: 2 }]);
        assert_eq!(Place { cell: 2, line: 2 }.to_string(), "cell 2, line 2");
    }
}
