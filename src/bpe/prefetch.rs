//! Memory prefetch hints, for the loops whose time goes into cache misses: word counting asks
//! for a batch of words' table slots before counting them, and the merge loop asks for words a
//! few visits ahead.

/// Asks the CPU to start loading `value` into cache; no effect on the program's meaning.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, and SSE is part of x86_64's baseline.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
