//! The BPE engine, in the order of the steps it implements, and the literal oracle it must
//! equal.
//!
//! - [`corpus`]: initialize (split on `' '`, characters plus `</w>`);
//! - `count`, [`words`] and [`symbols`]: the distinct words with their counts, symbols
//!   interned;
//! - [`train`]: count, choose ([`TieBreak`]), merge, learn — the fast trainer;
//! - [`encode`]: apply merges by rank;
//! - [`oracle`]: every step again, literally, as the course's Python originals and the lab write it; the fast
//!   paths are tested against it.

pub mod bytelevel;
pub mod corpus;
mod count;
pub mod encode;
#[cfg(test)]
mod guarded;
pub mod oracle;
mod prefetch;
// Not public: its functions are the answers without the guard that watches for them.
pub(crate) mod steps;
pub mod symbols;
mod tie_break;
pub mod train;
pub mod words;

pub use count::{available_threads, threads_for};
pub use steps::EOW;
pub use tie_break::TieBreak;
