//! The tokenizer file's name and versions, which its reader, writer and error messages share.

/// The value of `"format"` in a tokenizer file.
pub const FORMAT: &str = "bpe-lab-tokenizer";
/// The version this bpe-lab writes, and the newest it reads.
pub const VERSION: u64 = 2;
