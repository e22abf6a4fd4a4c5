//! Symbol interning: every distinct token string gets a dense `u32` id.
//!
//! Interning is by *string*, not by history: when a merge produces `a+b` and that string
//! already exists (a base symbol `aab`, or an earlier merge of `a`+`ab`), the result is the
//! existing id. The naive oracle compares strings, so the engine must too.

use rustc_hash::FxHashMap;

/// A dense, append-only table of symbol strings.
#[derive(Debug, Clone)]
pub struct SymbolTable {
    strings: Vec<Box<str>>,
    index: FxHashMap<Box<str>, u32>,
    /// ASCII characters are by far the most common base symbols; a direct table saves a hash.
    ascii: [u32; 128],
}

const NONE: u32 = u32::MAX;

impl Default for SymbolTable {
    fn default() -> Self {
        Self::new()
    }
}

impl SymbolTable {
    pub fn new() -> Self {
        SymbolTable {
            strings: Vec::new(),
            index: FxHashMap::default(),
            ascii: [NONE; 128],
        }
    }

    /// The id of `s`, adding it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        let id = u32::try_from(self.strings.len()).expect("more than 4 billion distinct symbols");
        self.strings.push(s.into());
        self.index.insert(s.into(), id);
        if s.len() == 1 {
            self.ascii[s.as_bytes()[0] as usize] = id;
        }
        id
    }

    /// The id of the one-character string `c`, adding it if new.
    #[inline]
    pub fn intern_char(&mut self, c: char) -> u32 {
        if c.is_ascii() {
            let id = self.ascii[c as usize];
            if id != NONE {
                return id;
            }
        }
        let mut buf = [0u8; 4];
        self.intern(c.encode_utf8(&mut buf))
    }

    /// The id of the concatenation of two symbols, adding it if new.
    pub fn intern_concat(&mut self, left: u32, right: u32) -> u32 {
        let mut s = String::with_capacity(self.get(left).len() + self.get(right).len());
        s.push_str(self.get(left));
        s.push_str(self.get(right));
        self.intern(&s)
    }

    /// The id of `s` if it is known.
    pub fn lookup(&self, s: &str) -> Option<u32> {
        self.index.get(s).copied()
    }

    /// The string of a symbol id. Panics on an id this table never issued.
    #[inline]
    pub fn get(&self, id: u32) -> &str {
        &self.strings[id as usize]
    }

    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    /// All symbols in id order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.strings.iter().map(|s| &**s)
    }
}
