//! GPT-4o's split pattern ([`O200K_PATTERN`](super::pattern::O200K_PATTERN)) written out by
//! hand, as [`super::cl100k`] is GPT-4's: [`Splitter`](super::Splitter) uses it for
//! [`SplitPattern::O200k`](super::SplitPattern::O200k); tests compare it with fancy-regex on
//! generated text (mixed case, title-case and caseless letters, combining marks, contractions,
//! every kind of whitespace, any character).
//!
//! The pattern's alternatives, tried in order at each chunk start (the first that matches wins),
//! with `U` = `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]` (a word's capitals), `L` =
//! `[\p{Ll}\p{Lm}\p{Lo}\p{M}]` (its small letters; caseless letters and marks are both), `P` =
//! `[^\r\n\p{L}\p{N}]` (one leading character that is no letter, number or line break — marks
//! included) and `C` = `(?i:'s|'t|'re|'ve|'m|'ll|'d)`:
//! 1. `P?U*L+C?`: a word that ends in small letters, with a contraction after it;
//! 2. `P?U+L*C?`: a word of capitals (and the small letters after them);
//! 3. `\p{N}{1,3}`: one to three numbers;
//! 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: punctuation and symbols, an optional space before them,
//!    line breaks and slashes after;
//! 5. `\s*[\r\n]+`: whitespace up to its last line break;
//! 6. `\s+(?!\S)`: whitespace to the end of the text, or but its last character;
//! 7. `\s+`: the rest of the whitespace (one character, by then).
//!
//! Unlike GPT-4's possessive pattern, this one backtracks, and that is where the care goes:
//! `U*` gives back characters until `L+` can start, and `P?` gives back its character when the
//! word fails without it — which matters only for a combining mark, the one `P` character that
//! is also `U` and `L`.

use super::alternatives::{
    all_but_the_last, each_chunk, symbols, up_to_the_last_line_break, up_to_three_numbers,
};
use super::classes::{
    char_at, is_letter, is_lower_side, is_mark, is_number, is_space, is_upper_side, run_end,
};

/// The length of `C` at byte `i`, 0 when there is none: `'` and one of `s t m d` (the long s
/// `ſ` counts as `s`, as Unicode simple case folding has it), or of `re ve ll`, in any case.
fn contraction(text: &str, i: usize) -> usize {
    if char_at(text, i) != Some('\'') {
        return 0;
    }
    let Some(first) = char_at(text, i + 1) else {
        return 0;
    };
    match first {
        's' | 'S' | 't' | 'T' | 'm' | 'M' | 'd' | 'D' | 'ſ' => 1 + first.len_utf8(),
        'r' | 'R' | 'v' | 'V' => match char_at(text, i + 2) {
            Some('e' | 'E') => 3,
            _ => 0,
        },
        'l' | 'L' => match char_at(text, i + 2) {
            Some('l' | 'L') => 3,
            _ => 0,
        },
        _ => 0,
    }
}

/// `U*L+C?` from byte `j`: where it ends, if it matches. `U*` takes all the capitals it can,
/// then gives them back one by one until a character of `L` is next (the first `L` character
/// after the capitals, else the last one among them).
fn word_ending_small(text: &str, j: usize) -> Option<usize> {
    // One pass over the capitals, noting where the last character of `L` among them ends: in
    // a caseless script every letter is both, and a second pass back over the word to find
    // where `L+` can start cost as much as the first.
    let mut capitals_end = j;
    let mut last_small_end = None;
    while let Some(c) = char_at(text, capitals_end) {
        if !is_upper_side(c) {
            break;
        }
        capitals_end += c.len_utf8();
        if is_lower_side(c) {
            last_small_end = Some(capitals_end);
        }
    }
    let small_end = match char_at(text, capitals_end) {
        Some(c) if is_lower_side(c) => run_end(text, capitals_end, is_lower_side),
        // Given back down to the last character of `L` among the capitals, `L+` takes that
        // one only: what follows it is no `L`.
        _ => last_small_end?,
    };
    Some(small_end + contraction(text, small_end))
}

/// `U+L*C?` from byte `j`: where it ends, if it matches.
fn word_of_capitals(text: &str, j: usize) -> Option<usize> {
    let capitals_end = run_end(text, j, is_upper_side);
    if capitals_end == j {
        return None;
    }
    let small_end = run_end(text, capitals_end, is_lower_side);
    Some(small_end + contraction(text, small_end))
}

/// The end of the chunk that starts at byte `i` (`i < text.len()`).
pub fn chunk_end(text: &str, i: usize) -> usize {
    let c = char_at(text, i).expect("a chunk starts inside the text");
    let after_c = i + c.len_utf8();
    // 1 and 2: words. With `P` taken, the word starts after `c`; given back (or when `c` is
    // not `P`), it starts at `c`, which can begin a word only if it is a letter or a mark.
    let leading = c != '\r' && c != '\n' && !is_letter(c) && !is_number(c);
    let starts: &[usize] = if leading {
        if is_mark(c) {
            &[after_c, i]
        } else {
            &[after_c]
        }
    } else {
        &[i]
    };
    for word in [word_ending_small, word_of_capitals] {
        if let Some(end) = starts.iter().find_map(|&j| word(text, j)) {
            return end;
        }
    }
    // 3. One to three numbers.
    if is_number(c) {
        return up_to_three_numbers(text, i, c);
    }
    // 4. Punctuation and symbols, an optional space before, line breaks and slashes after.
    if let Some(end) = symbols(text, i, c, |c| matches!(c, '\r' | '\n' | '/')) {
        return end;
    }
    // What is left is whitespace (every character is a letter, a number, whitespace or other).
    debug_assert!(is_space(c));
    let spaces_end = run_end(text, i, is_space);
    // 5. Up to the last line break of the run.
    if let Some(end) = up_to_the_last_line_break(text, i, spaces_end) {
        return end;
    }
    // 6. The whole run at the end of the text; else all but its last character.
    if spaces_end == text.len() {
        return spaces_end;
    }
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
