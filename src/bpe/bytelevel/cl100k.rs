//! GPT-4's split pattern ([`CL100K_PATTERN`](super::pattern::CL100K_PATTERN)) written out by
//! hand: the regex engine is most of an encoder's time, and this pattern's alternatives are
//! simple enough to follow character by character. [`Splitter`](super::Splitter) uses it for
//! [`SplitPattern::Cl100k`](super::SplitPattern::Cl100k); tests compare it with fancy-regex on
//! generated text.
//!
//! The pattern's alternatives, tried in order at each chunk start (the first that matches wins):
//! 1. `'(?i:[sdmt]|ll|ve|re)`: a contraction (case-insensitive, so `ſ`, the long s, counts as
//!    `s`, as Unicode simple case folding has it);
//! 2. `[^\r\n\p{L}\p{N}]?+\p{L}++`: letters, with at most one character before them that is no
//!    letter, number or line break (a space, a quote, punctuation);
//! 3. `\p{N}{1,3}+`: one to three numbers;
//! 4. ` ?[^\s\p{L}\p{N}]++[\r\n]*+`: punctuation and symbols, an optional space before them and
//!    line breaks after;
//! 5. `\s++$`: whitespace up to the end of the text;
//! 6. `\s*[\r\n]`: whitespace up to its last line break;
//! 7. `\s+(?!\S)`: whitespace but its last character, when that one precedes a non-space;
//! 8. `\s`: one whitespace character.
//!
//! The character classes are [`super::classes`]'s.

use super::alternatives::{
    all_but_the_last, each_chunk, symbols, up_to_the_last_line_break, up_to_three_numbers,
};
use super::classes::{char_at, is_letter, is_number, is_space, run_end};

/// The end of the chunk that starts at byte `i` (`i < text.len()`).
pub fn chunk_end(text: &str, i: usize) -> usize {
    let c = char_at(text, i).expect("a chunk starts inside the text");
    let after_c = i + c.len_utf8();
    // 1. Contractions.
    if c == '\'' {
        let next = char_at(text, after_c);
        match next {
            Some('s' | 'S' | 'd' | 'D' | 'm' | 'M' | 't' | 'T' | 'ſ') => {
                return after_c + next.unwrap().len_utf8();
            }
            Some(n @ ('l' | 'L' | 'v' | 'V' | 'r' | 'R')) => {
                let second = char_at(text, after_c + 1);
                let fits = match n {
                    'l' | 'L' => matches!(second, Some('l' | 'L')),
                    _ => matches!(second, Some('e' | 'E')),
                };
                if fits {
                    return after_c + 2;
                }
            }
            _ => {}
        }
    }
    // 2. Letters, with one optional leading character that is no letter, number or line break.
    let letters_from = if c == '\r' || c == '\n' || is_letter(c) || is_number(c) {
        i
    } else {
        after_c
    };
    let letters_end = run_end(text, letters_from, is_letter);
    if letters_end > letters_from {
        return letters_end;
    }
    // 3. One to three numbers.
    if is_number(c) {
        return up_to_three_numbers(text, i, c);
    }
    // 4. Punctuation and symbols, an optional space before, line breaks after.
    if let Some(end) = symbols(text, i, c, |c| c == '\r' || c == '\n') {
        return end;
    }
    // What is left is whitespace (every character is a letter, a number, whitespace or other).
    debug_assert!(is_space(c));
    let spaces_end = run_end(text, i, is_space);
    // 5. Whitespace up to the end of the text.
    if spaces_end == text.len() {
        return spaces_end;
    }
    // 6. Up to the last line break of the run.
    if let Some(end) = up_to_the_last_line_break(text, i, spaces_end) {
        return end;
    }
    // 7. All but the last whitespace character, which precedes a non-space.
    if let Some(end) = all_but_the_last(text, i, spaces_end) {
        return end;
    }
    // 8. One whitespace character.
    after_c
}

/// Calls `f` with every chunk of `text` that starts in `start..end` (`start` a chunk start).
pub fn for_each_chunk<'t>(text: &'t str, start: usize, end: usize, f: impl FnMut(&'t str)) {
    each_chunk(text, start, end, chunk_end, f);
}
