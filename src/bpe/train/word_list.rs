//! The list of words a pair may occur in.
//!
//! A merge creates about as many pairs as it has distinct neighbours, and on 48 MB of text
//! 30,000 merges create a million pairs, most of them found in one or two words and never
//! merged. Kept in a `Vec`, each of those lists was an allocation of its own (and the first
//! pages of each allocator page a fresh page fault); up to four words now live inside the
//! pair's slot, in the 16 bytes a `Vec`'s pointer and length took.

use smallvec::SmallVec;

/// Word ids, the first four inline.
pub(super) type WordList = SmallVec<[u32; 4]>;
