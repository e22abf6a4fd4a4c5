//! The one rule for cutting a text file into paragraphs, used by every corpus reader (the
//! streaming text and JSON Lines readers, the parallel word counter, `explain`): a paragraph
//! is a line without its ending (`\n`, or `\r\n` from Windows editors); empty lines are not
//! paragraphs; a UTF-8 byte-order mark some editors write first is not text.
//!
//! A line of spaces is a paragraph (of empty words), as the lab's `split(" ")` makes it.

/// The byte-order mark, as it starts a file some editors write.
pub const BOM: &str = "\u{feff}";

/// `text` without a byte-order mark at its start (call it on a file's first line or whole
/// text only: elsewhere U+FEFF is an ordinary, if rare, character).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Bytes that may start with a byte-order mark, without it (for readers that check UTF-8
/// after cutting lines).
pub fn strip_bom_bytes(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM.as_bytes()).unwrap_or(bytes)
}

/// A line without its ending: one trailing `\n`, then one trailing `\r`.
pub fn line_body(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// The paragraphs of `text` in order: its lines without their endings, empty ones skipped.
/// A byte-order mark is not removed here; a whole file goes through [`strip_bom`] first.
pub fn paragraphs(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(line_body).filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_and_blank_lines() {
        let text = "a b\r\n\r\n\nc\n  \nlast";
        assert_eq!(
            paragraphs(text).collect::<Vec<_>>(),
            ["a b", "c", "  ", "last"]
        );
        assert_eq!(line_body("x\r\n"), "x");
        assert_eq!(line_body("x\r\r\n"), "x\r");
        assert_eq!(line_body("x"), "x");
    }

    #[test]
    fn only_a_leading_mark_is_dropped() {
        assert_eq!(strip_bom("\u{feff}a\u{feff}"), "a\u{feff}");
        assert_eq!(strip_bom_bytes(b"\xEF\xBB\xBFa"), b"a");
        assert_eq!(strip_bom("a"), "a");
    }
}
