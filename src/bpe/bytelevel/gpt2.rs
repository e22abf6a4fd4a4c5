//! GPT-2's split pattern ([`GPT2_PATTERN`](super::pattern::GPT2_PATTERN), `r50k_base`) written
//! out by hand, as [`super::cl100k`] is GPT-4's; tests compare it with fancy-regex on generated
//! text.
//!
//! The pattern's alternatives, tried in order at each chunk start (the first that matches wins):
//! 1. `'(?:[sdmt]|ll|ve|re)`: a contraction, small letters only (GPT-2's pattern has no `(?i)`);
//! 2. ` ?\p{L}++`: letters, with one space before them;
//! 3. ` ?\p{N}++`: numbers, as many as there are, with one space before them;
//! 4. ` ?[^\s\p{L}\p{N}]++`: punctuation and symbols, with one space before them;
//! 5. `\s++$`: whitespace up to the end of the text;
//! 6. `\s+(?!\S)`: whitespace but its last character, when that one precedes a non-space;
//! 7. `\s`: one whitespace character.

use super::alternatives::{all_but_the_last, each_chunk, symbols};
use super::classes::{char_at, is_letter, is_number, is_space, run_end};

/// The end of the chunk that starts at byte `i` (`i < text.len()`).
pub fn chunk_end(text: &str, i: usize) -> usize {
    let c = char_at(text, i).expect("a chunk starts inside the text");
    let after_c = i + c.len_utf8();
    // 1. Contractions.
    if c == '\'' {
        // Bytes, not characters: every letter of a contraction is ASCII, and a byte that
        // continues a character is none of them.
        let bytes = text.as_bytes();
        match (bytes.get(after_c), bytes.get(after_c + 1)) {
            (Some(b's' | b'd' | b'm' | b't'), _) => return after_c + 1,
            (Some(b'l'), Some(b'l')) | (Some(b'v' | b'r'), Some(b'e')) => return after_c + 2,
            _ => {}
        }
    }
    // 2 and 3. Letters, or numbers, with one space before them.
    let from = if c == ' ' { after_c } else { i };
    for class in [is_letter, is_number] {
        let end = run_end(text, from, class);
        if end > from {
            return end;
        }
    }
    // 4. Punctuation and symbols, with one space before them.
    if let Some(end) = symbols(text, i, c, |_| false) {
        return end;
    }
    // What is left is whitespace (every character is a letter, a number, whitespace or other).
    debug_assert!(is_space(c));
    let spaces_end = run_end(text, i, is_space);
    // 5. Whitespace up to the end of the text.
    if spaces_end == text.len() {
        return spaces_end;
    }
    // 6. All but the last whitespace character, which precedes a non-space.
    if let Some(end) = all_but_the_last(text, i, spaces_end) {
        return end;
    }
    // 7. One whitespace character.
    after_c
}

/// Calls `f` with every chunk of `text` that starts in `start..end` (`start` a chunk start).
pub fn for_each_chunk<'t>(text: &'t str, start: usize, end: usize, f: impl FnMut(&'t str)) {
    each_chunk(text, start, end, chunk_end, f);
}
