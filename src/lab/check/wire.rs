//! The bytes between the grader and a student's worker: each value written as its parts, every
//! length as 8 little-endian bytes, strings as UTF-8. Plain `std` Rust, because the grader
//! compiles this same file into the worker; reading never trusts a length (the worker is the
//! student's program) and never allocates more than the bytes that are there.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::hash::Hash;

/// Why bytes could not be read back as a value: what was wanted and what was there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// Fewer bytes left than the value needs.
    Short { wanted: usize, left: usize },
    /// A length longer than the bytes that follow it.
    Length { length: u64, left: usize },
    /// A number too large for the type it is read as.
    TooLarge { value: u64, into: &'static str },
    /// A string whose bytes are not UTF-8.
    NotUtf8 { at: usize },
    /// An option tag other than 0 or 1.
    Tag { tag: u8 },
    /// Bytes after a whole value.
    Trailing { left: usize },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Short { wanted, left } => write!(f, "{wanted} bytes wanted, {left} left"),
            WireError::Length { length, left } => {
                write!(f, "a length of {length} with {left} bytes left")
            }
            WireError::TooLarge { value, into } => write!(f, "{value} does not fit in {into}"),
            WireError::NotUtf8 { at } => write!(f, "a string that is not UTF-8 (byte {at})"),
            WireError::Tag { tag } => write!(f, "an option tagged {tag}"),
            WireError::Trailing { left } => write!(f, "{left} bytes after the value"),
        }
    }
}

impl std::error::Error for WireError {}

/// A value that crosses between the grader and a worker.
pub trait Wire: Sized {
    fn put(&self, out: &mut Vec<u8>);
    fn take(input: &mut &[u8]) -> Result<Self, WireError>;
}

fn take_bytes<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], WireError> {
    if input.len() < n {
        return Err(WireError::Short {
            wanted: n,
            left: input.len(),
        });
    }
    let (head, rest) = input.split_at(n);
    *input = rest;
    Ok(head)
}

fn take_len(input: &mut &[u8]) -> Result<usize, WireError> {
    let n = u64::take(input)?;
    // Every element takes at least one byte, so no honest length exceeds what is left.
    if n > input.len() as u64 {
        return Err(WireError::Length {
            length: n,
            left: input.len(),
        });
    }
    Ok(n as usize)
}

impl Wire for u64 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn take(input: &mut &[u8]) -> Result<u64, WireError> {
        let bytes = take_bytes(input, 8)?;
        let mut le = [0u8; 8];
        le.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(le))
    }
}

impl Wire for usize {
    fn put(&self, out: &mut Vec<u8>) {
        (*self as u64).put(out);
    }
    fn take(input: &mut &[u8]) -> Result<usize, WireError> {
        let value = u64::take(input)?;
        usize::try_from(value).map_err(|_| WireError::TooLarge {
            value,
            into: "usize",
        })
    }
}

impl Wire for u32 {
    fn put(&self, out: &mut Vec<u8>) {
        u64::from(*self).put(out);
    }
    fn take(input: &mut &[u8]) -> Result<u32, WireError> {
        let value = u64::take(input)?;
        u32::try_from(value).map_err(|_| WireError::TooLarge { value, into: "u32" })
    }
}

impl Wire for u8 {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
    fn take(input: &mut &[u8]) -> Result<u8, WireError> {
        Ok(take_bytes(input, 1)?[0])
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn take(input: &mut &[u8]) -> Result<String, WireError> {
        let n = take_len(input)?;
        let bytes = take_bytes(input, n)?;
        String::from_utf8(bytes.to_vec()).map_err(|e| WireError::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        })
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        for item in self {
            item.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<Vec<T>, WireError> {
        let n = take_len(input)?;
        let mut items = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            items.push(T::take(input)?);
        }
        Ok(items)
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.put(out);
            }
        }
    }
    fn take(input: &mut &[u8]) -> Result<Option<T>, WireError> {
        match take_bytes(input, 1)?[0] {
            0 => Ok(None),
            1 => Ok(Some(T::take(input)?)),
            tag => Err(WireError::Tag { tag }),
        }
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<(A, B), WireError> {
        Ok((A::take(input)?, B::take(input)?))
    }
}

impl<A: Wire, B: Wire, C: Wire> Wire for (A, B, C) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
        self.2.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<(A, B, C), WireError> {
        Ok((A::take(input)?, B::take(input)?, C::take(input)?))
    }
}

impl<A: Wire, B: Wire, C: Wire, D: Wire> Wire for (A, B, C, D) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
        self.2.put(out);
        self.3.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<(A, B, C, D), WireError> {
        Ok((
            A::take(input)?,
            B::take(input)?,
            C::take(input)?,
            D::take(input)?,
        ))
    }
}

/// Written as (key, value) pairs in the map's own order; read back into a map, so two maps
/// with the same entries are equal whatever order they iterated in.
impl<K: Wire + Eq + Hash, V: Wire> Wire for HashMap<K, V> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        for (key, value) in self {
            key.put(out);
            value.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<HashMap<K, V>, WireError> {
        let pairs: Vec<(K, V)> = Vec::take(input)?;
        Ok(pairs.into_iter().collect())
    }
}

impl<T: Wire + Ord> Wire for BTreeSet<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        for item in self {
            item.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<BTreeSet<T>, WireError> {
        let items: Vec<T> = Vec::take(input)?;
        Ok(items.into_iter().collect())
    }
}

/// Reads a whole value: trailing bytes are an error.
pub fn decode<T: Wire>(mut bytes: &[u8]) -> Result<T, WireError> {
    let value = T::take(&mut bytes)?;
    if !bytes.is_empty() {
        return Err(WireError::Trailing { left: bytes.len() });
    }
    Ok(value)
}

/// Writes a whole value.
pub fn encode<T: Wire>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.put(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_say_what_was_wrong() {
        let bytes = encode(&vec!["ab".to_string()]);
        assert_eq!(decode::<Vec<String>>(&bytes), Ok(vec!["ab".to_string()]));
        assert_eq!(
            decode::<Vec<String>>(&bytes[..bytes.len() - 1]),
            Err(WireError::Length { length: 2, left: 1 })
        );
        assert_eq!(
            decode::<u64>(&[1, 2, 3]),
            Err(WireError::Short { wanted: 8, left: 3 })
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode::<Vec<String>>(&longer),
            Err(WireError::Trailing { left: 1 })
        );
        assert_eq!(decode::<Option<u32>>(&[7]), Err(WireError::Tag { tag: 7 }));
        assert_eq!(
            decode::<u32>(&encode(&u64::MAX)),
            Err(WireError::TooLarge {
                value: u64::MAX,
                into: "u32"
            })
        );
        let mut not_utf8 = encode(&1usize);
        not_utf8.push(0xff);
        assert_eq!(
            decode::<String>(&not_utf8),
            Err(WireError::NotUtf8 { at: 0 })
        );
    }
}
