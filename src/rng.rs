//! SplitMix64, the one seeded generator behind the checks' generated cases, the tests'
//! property cases and the benchmarks' synthetic corpora: tiny, and fully determined by its
//! seed, so every run sees the same inputs.

/// Advances `state` and returns the next 64 random bits.
///
/// ```
/// let mut state = 1;
/// let first = bpe_lab::rng::splitmix64(&mut state);
/// assert_ne!(first, bpe_lab::rng::splitmix64(&mut state));
/// ```
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
