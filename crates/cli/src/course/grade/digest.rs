//! The SHA-256 of a submitted file, in hex: a resumed run compares it to know whether the
//! file changed, and `--execute` marks its runs with it.

use sha2::Digest;

/// SHA-256 of `bytes`, in hex.
pub(crate) fn digest(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
