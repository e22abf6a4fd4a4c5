//! Bytes as the engine's symbols.
//!
//! The trainer works on interned *strings*. Byte `b` becomes the one character U+0100 + `b`
//! (Latin Extended, always two UTF-8 bytes, `0xC4`/`0xC5`/`0xC6`/`0xC7` then a continuation
//! byte). The map is monotone and of fixed width, so comparing two mapped strings compares the
//! byte strings they stand for: the engine's lexicographic tie-break (by code point) is byte
//! order, and a merged symbol (a concatenation) maps back to its bytes without ambiguity.

use crate::bpe::symbols::SymbolTable;

/// The first code point of the byte alphabet.
const BASE: u32 = 0x100;

/// The engine's character for byte `b`.
#[inline]
pub fn byte_char(b: u8) -> char {
    // U+0100..U+01FF are all scalar values.
    char::from_u32(BASE + b as u32).expect("U+0100..U+01FF are characters")
}

/// The bytes a symbol of the byte alphabet stands for. Panics on a character outside it: the
/// trainer only ever concatenates symbols it was given.
pub fn symbol_bytes(symbol: &str) -> Vec<u8> {
    symbol
        .chars()
        .map(|c| {
            let code = c as u32;
            assert!(
                (BASE..BASE + 256).contains(&code),
                "{c:?} is not a byte symbol"
            );
            (code - BASE) as u8
        })
        .collect()
}

/// The engine's string for a byte string (what the tests hold `symbol_bytes` to).
#[cfg(test)]
fn bytes_symbol(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| byte_char(b)).collect()
}

/// A symbol table whose ids 0..=255 are the 256 bytes, in byte order.
pub fn byte_table() -> SymbolTable {
    let mut table = SymbolTable::new();
    for b in 0..=255u8 {
        let id = table.intern_char(byte_char(b));
        debug_assert_eq!(id, b as u32);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapped_strings_compare_as_their_bytes() {
        let samples: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 255],
            vec![1],
            vec![127, 128],
            vec![128],
            vec![255],
            vec![255, 0],
            b"ab".to_vec(),
            b"abc".to_vec(),
        ];
        for x in &samples {
            assert_eq!(symbol_bytes(&bytes_symbol(x)), *x);
            for y in &samples {
                assert_eq!(
                    bytes_symbol(x).cmp(&bytes_symbol(y)),
                    x.cmp(y),
                    "{x:?} {y:?}"
                );
            }
        }
        assert_eq!(byte_table().len(), 256);
    }
}
