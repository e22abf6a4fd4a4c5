//! Where a text stops being UTF-8, said the same way by every reader (corpus files, `encode`
//! and `decode` input): "file 'F', line L, byte offset B: invalid UTF-8 (0xFF)".

use std::fmt;
use std::path::Path;

/// The first invalid UTF-8 in a text: which input, its 1-based line, the 0-based byte offset
/// of the first bad byte in the whole input, and the bad bytes (none when the input ends in
/// the middle of a character).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidUtf8 {
    /// The input as a message names it: `file 'corpus.txt'` or `standard input`.
    pub input: String,
    pub line: u64,
    pub offset: u64,
    /// The invalid sequence; empty when the text is cut off inside a character.
    pub bytes: Vec<u8>,
}

impl InvalidUtf8 {
    /// Locates `error`, found in `chunk`, a piece of the input that starts at byte `start`,
    /// on line `first_line`.
    pub fn locate(
        input: impl Into<String>,
        chunk: &[u8],
        start: u64,
        first_line: u64,
        error: std::str::Utf8Error,
    ) -> InvalidUtf8 {
        let valid = error.valid_up_to();
        let newlines = chunk[..valid].iter().filter(|&&b| b == b'\n').count() as u64;
        let bytes = match error.error_len() {
            Some(len) => chunk[valid..valid + len].to_vec(),
            None => Vec::new(),
        };
        InvalidUtf8 {
            input: input.into(),
            line: first_line + newlines,
            offset: start + valid as u64,
            bytes,
        }
    }

    /// How messages name a file: `file 'path'`.
    pub fn file_name(path: &Path) -> String {
        format!("file '{}'", path.display())
    }
}

impl fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, line {}, byte offset {}: ",
            self.input, self.line, self.offset
        )?;
        if self.bytes.is_empty() {
            return f.write_str("invalid UTF-8 (the text ends in the middle of a character)");
        }
        f.write_str("invalid UTF-8 (")?;
        for (i, b) in self.bytes.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "0x{b:02X}")?;
        }
        f.write_str("; the text must be UTF-8)")
    }
}

impl std::error::Error for InvalidUtf8 {}

#[cfg(test)]
mod tests {
    use super::*;

    fn locate(bytes: &[u8], start: u64, line: u64) -> String {
        let err = std::str::from_utf8(bytes).unwrap_err();
        InvalidUtf8::locate("file 'x.txt'", bytes, start, line, err).to_string()
    }

    #[test]
    fn names_the_line_the_offset_and_the_bytes() {
        assert_eq!(
            locate(b"ab\nc\xC3\xA9d\xFFe", 0, 1),
            "file 'x.txt', line 2, byte offset 7: invalid UTF-8 (0xFF; the text must be UTF-8)"
        );
        assert_eq!(
            locate(b"ok\n\xC3(", 100, 5),
            "file 'x.txt', line 6, byte offset 103: invalid UTF-8 (0xC3; the text must be UTF-8)"
        );
    }

    #[test]
    fn a_character_cut_off_at_the_end() {
        assert_eq!(
            locate(b"abc\xE2\x82", 0, 1),
            "file 'x.txt', line 1, byte offset 3: invalid UTF-8 (the text ends in the middle of \
             a character)"
        );
    }
}
