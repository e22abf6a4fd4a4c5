//! Memory prefetch for the merge loop.
//!
//! Visiting a word costs two cache misses (its span, then its symbols), and the words of a
//! pair's list are scattered over the arena, so the loop asks for both a few words ahead.

/// How many words ahead the span is fetched.
pub(super) const SPAN_AHEAD: usize = 16;
/// How many words ahead the symbols are fetched: fewer than [`SPAN_AHEAD`], because finding
/// them needs the span.
pub(super) const SYMBOLS_AHEAD: usize = 8;

/// Asks the CPU to start loading `value` into cache; no effect on the program's meaning.
#[inline(always)]
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, and SSE is part of x86_64's baseline.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
