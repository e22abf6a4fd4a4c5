//! A token's bytes shown without loss: a byte-level token need not be whole UTF-8 (`🫠` is four
//! bytes, often two tokens of two), and showing such a piece with `String::from_utf8_lossy`
//! prints `�` for every piece, so two different tokens look the same. Here the bytes that are
//! whole UTF-8 stay text and every other byte is written `\xNN`, so `🫠`'s pieces show as
//! `\xF0\x9F` and `\xAB\xA0` and each shown form names exactly one byte string
//! ([`parse_token_text`] reads it back).

use std::fmt::Write as _;

/// `bytes` as text: whole UTF-8 characters as themselves, but `\` as `\\`, line feed, carriage
/// return and tab as `\n`, `\r`, `\t`, other control characters as `\u{…}`, and bytes that are
/// not part of a whole UTF-8 character as `\xNN`.
///
/// ```
/// use bpe_lab::tokenizer::token_text::token_text;
/// assert_eq!(token_text(" hello"), " hello");
/// assert_eq!(token_text(&"🫠".as_bytes()[..2]), r"\xF0\x9F");
/// assert_eq!(token_text(b"a\nb\\"), r"a\nb\\");
/// ```
pub fn token_text(bytes: impl AsRef<[u8]>) -> String {
    let mut out = String::new();
    for chunk in bytes.as_ref().utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str(r"\\"),
                '\n' => out.push_str(r"\n"),
                '\r' => out.push_str(r"\r"),
                '\t' => out.push_str(r"\t"),
                c if c.is_control() => {
                    let _ = write!(out, "\\u{{{:X}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// Why a shown token cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTokenText {
    /// The escape that is not one [`token_text`] writes, as given.
    pub escape: String,
}

impl std::fmt::Display for BadTokenText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not an escape: write \\\\, \\n, \\r, \\t, \\xNN (a byte) or \\u{{…}} (a \
             character)",
            self.escape
        )
    }
}

impl std::error::Error for BadTokenText {}

/// The bytes a text written as [`token_text`] writes stands for (the inverse: a token given as
/// `\xF0\x9F` is those two bytes). Text without a backslash is itself.
pub fn parse_token_text(text: &str) -> Result<Vec<u8>, BadTokenText> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let escape = &rest[at..];
        let bad = || BadTokenText {
            escape: escape.chars().take(4).collect(),
        };
        let (bytes, used): (Vec<u8>, usize) = match escape.as_bytes().get(1) {
            Some(b'\\') => (vec![b'\\'], 2),
            Some(b'n') => (vec![b'\n'], 2),
            Some(b'r') => (vec![b'\r'], 2),
            Some(b't') => (vec![b'\t'], 2),
            Some(b'x') => {
                let hex = escape.get(2..4).ok_or_else(bad)?;
                (vec![u8::from_str_radix(hex, 16).map_err(|_| bad())?], 4)
            }
            Some(b'u') if escape[2..].starts_with('{') => {
                let end = escape.find('}').ok_or_else(bad)?;
                let code = u32::from_str_radix(&escape[3..end], 16).map_err(|_| bad())?;
                let c = char::from_u32(code).ok_or_else(bad)?;
                (c.to_string().into_bytes(), end + 1)
            }
            _ => return Err(bad()),
        };
        out.extend_from_slice(&bytes);
        rest = &escape[used..];
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_a_character_are_bytes_and_read_back() {
        let melt = "🫠".as_bytes();
        assert_eq!(token_text(&melt[..2]), r"\xF0\x9F");
        assert_eq!(token_text(&melt[2..]), r"\xAB\xA0");
        assert_eq!(token_text(melt), "🫠");
        assert_ne!(token_text(&melt[..2]), token_text(&melt[2..]));
        for bytes in [
            &melt[..2],
            &melt[1..],
            b"a\\xF0",
            b"\x00\x7f tab\t",
            "é\u{301}".as_bytes(),
            b"\xff\xfe",
        ] {
            assert_eq!(parse_token_text(&token_text(bytes)).unwrap(), bytes);
        }
        assert!(parse_token_text(r"\q").is_err());
        assert!(parse_token_text(r"\x4").is_err());
    }
}
