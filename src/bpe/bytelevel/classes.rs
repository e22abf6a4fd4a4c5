//! The character classes of GPT's split patterns, for the splitters written out by hand
//! ([`super::cl100k`], [`super::o200k`]): `\s` (Unicode White_Space), `\p{N}`, `\p{L}`, and
//! o200k's two letter sides. Beyond ASCII they are read as ranges from regex-syntax's Unicode
//! tables, so that they are the regex engine's own (not the standard library's, whose Unicode
//! version may be newer): the regex is the rule the hand-written splitters are tested against.

use std::sync::OnceLock;

use regex_syntax::hir::{Class, HirKind};

/// The ranges of a Unicode class beyond ASCII, as regex-syntax (the regex engine's parser)
/// has them: the standard library may know a newer Unicode (Rust 1.95 calls the Tolong Siki
/// digits of Unicode 17 numeric; regex-syntax 0.8 does not yet), and the regex is the rule.
fn class_ranges(class: &str) -> Vec<(char, char)> {
    let hir = regex_syntax::parse(class).expect("the class parses");
    match hir.kind() {
        HirKind::Class(Class::Unicode(unicode)) => unicode
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .filter(|&(_, end)| !end.is_ascii())
            .collect(),
        other => panic!("{class} is a class, not {other:?}"),
    }
}

/// One class's ranges beyond ASCII, read once.
macro_rules! ranges {
    ($name:ident, $class:expr) => {
        fn $name() -> &'static [(char, char)] {
            static RANGES: OnceLock<Vec<(char, char)>> = OnceLock::new();
            RANGES.get_or_init(|| class_ranges($class))
        }
    };
}

ranges!(letter_ranges, r"\p{L}");
ranges!(number_ranges, r"\p{N}");
ranges!(space_ranges, r"\s");
ranges!(upper_side_ranges, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]");
ranges!(lower_side_ranges, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]");
ranges!(mark_ranges, r"\p{M}");

/// Whether `c` lies in one of `ranges` (sorted, disjoint).
#[inline]
fn in_ranges(c: char, ranges: &[(char, char)]) -> bool {
    // The last range starting at or before c.
    let i = ranges.partition_point(|&(start, _)| start <= c);
    i > 0 && c <= ranges[i - 1].1
}

// One bit per class in [`plane0`]'s entries.
const LETTER: u8 = 1;
const NUMBER: u8 = 2;
const SPACE: u8 = 4;
const MARK: u8 = 8;
const UPPER_SIDE: u8 = 16;
const LOWER_SIDE: u8 = 32;

/// Every class of every character of the Basic Multilingual Plane, one byte each (64 KB, built
/// once from the ranges above). Almost every character of running text lies in it, and a
/// range search costs a dozen unpredictable branches per character where this is one load
/// (multilingual text is mostly characters beyond ASCII); characters above it keep the search.
fn plane0() -> &'static [u8; 0x10000] {
    static TABLE: OnceLock<Box<[u8; 0x10000]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u8; 0x10000]);
        let classes: [(u8, &[(char, char)]); 6] = [
            (LETTER, letter_ranges()),
            (NUMBER, number_ranges()),
            (SPACE, space_ranges()),
            (MARK, mark_ranges()),
            (UPPER_SIDE, upper_side_ranges()),
            (LOWER_SIDE, lower_side_ranges()),
        ];
        for (bit, ranges) in classes {
            for &(start, end) in ranges {
                for c in start as u32..=(end as u32).min(0xFFFF) {
                    table[c as usize] |= bit;
                }
            }
        }
        table
    })
}

/// Whether `c` (beyond ASCII) is in the class of `bit`, whose ranges are `ranges`.
#[inline]
fn beyond_ascii(c: char, bit: u8, ranges: fn() -> &'static [(char, char)]) -> bool {
    match plane0().get(c as usize) {
        Some(&classes) => classes & bit != 0,
        None => in_ranges(c, ranges()),
    }
}

/// `\p{L}`.
#[inline]
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    beyond_ascii(c, LETTER, letter_ranges)
}

/// `\p{N}`.
#[inline]
pub fn is_number(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        beyond_ascii(c, NUMBER, number_ranges)
    }
}

/// `\s`.
#[inline]
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
    } else {
        beyond_ascii(c, SPACE, space_ranges)
    }
}

/// `\p{M}`: combining marks, which are not letters (`\p{L}`) but sit on both of o200k's
/// letter sides.
#[inline]
pub fn is_mark(c: char) -> bool {
    !c.is_ascii() && beyond_ascii(c, MARK, mark_ranges)
}

/// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what may open a word (capitals, and letters and
/// marks that have no case).
#[inline]
pub fn is_upper_side(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    beyond_ascii(c, UPPER_SIDE, upper_side_ranges)
}

/// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: what may end a word (small letters, and letters and
/// marks that have no case).
#[inline]
pub fn is_lower_side(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_lowercase();
    }
    beyond_ascii(c, LOWER_SIDE, lower_side_ranges)
}

/// The character at byte `i` of `text`, if any.
#[inline]
pub fn char_at(text: &str, i: usize) -> Option<char> {
    let b = *text.as_bytes().get(i)?;
    if b < 0x80 {
        return Some(b as char);
    }
    text[i..].chars().next()
}

/// The end of the run of characters from byte `i` for which `keep` holds.
#[inline]
pub fn run_end(text: &str, mut i: usize, keep: impl Fn(char) -> bool) -> usize {
    while let Some(c) = char_at(text, i) {
        if !keep(c) {
            break;
        }
        i += c.len_utf8();
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_letter_sides_split_letters_by_case_and_share_the_caseless() {
        for (c, upper, lower) in [
            ('A', true, false),
            ('a', false, true),
            ('É', true, false),
            ('ẹ', false, true),
            ('ǅ', true, false),      // Lt, title case
            ('ʰ', true, true),       // Lm
            ('ª', true, true),       // Lo
            ('中', true, true),      // Lo
            ('ሰ', true, true),       // Ethiopic, Lo
            ('\u{301}', true, true), // a combining mark
            ('\u{7EB}', true, true), // an N'Ko tone mark
            ('1', false, false),
            (' ', false, false),
            ('\'', false, false),
        ] {
            assert_eq!(is_upper_side(c), upper, "{c:?}");
            assert_eq!(is_lower_side(c), lower, "{c:?}");
        }
        assert!(is_mark('\u{301}') && !is_letter('\u{301}'));
        assert!(is_letter('ǅ') && is_letter('ʰ') && !is_mark('a'));
    }

    #[test]
    fn the_plane0_table_agrees_with_the_ranges_for_every_character() {
        for c in (0x80u32..0x11_0000).filter_map(char::from_u32) {
            assert_eq!(is_letter(c), in_ranges(c, letter_ranges()), "{c:?}");
            assert_eq!(is_number(c), in_ranges(c, number_ranges()), "{c:?}");
            assert_eq!(is_space(c), in_ranges(c, space_ranges()), "{c:?}");
            assert_eq!(is_mark(c), in_ranges(c, mark_ranges()), "{c:?}");
            assert_eq!(is_upper_side(c), in_ranges(c, upper_side_ranges()), "{c:?}");
            assert_eq!(is_lower_side(c), in_ranges(c, lower_side_ranges()), "{c:?}");
        }
    }
}
