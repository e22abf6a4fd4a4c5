//! One merge pass over one word, exactly as the oracle does it, reporting every pair the pass
//! destroys or creates so the trainer can keep its counts without recounting.

/// A pair destroyed or created by merging `(a, b)` into `c`, named by its other symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PairChange {
    /// `(x, a)` destroyed.
    DestroyedLeft(u32),
    /// `(a, b)` destroyed.
    DestroyedMerged,
    /// `(b, y)` destroyed.
    DestroyedRight(u32),
    /// `(x, c)` created.
    CreatedLeft(u32),
    /// `(c, y)` created.
    CreatedRight(u32),
}

/// Reusable output buffers of [`merge_pass`].
#[derive(Debug, Default)]
pub(crate) struct PassBuffers {
    /// The word after the pass.
    pub new: Vec<u32>,
    /// For each symbol of `new`, the index in the old word of the symbol it starts with.
    pub sources: Vec<u32>,
    /// For each symbol of `new`, whether it is a merged `c`.
    pub merged: Vec<bool>,
}

/// Merges `(a, b)` into `c` in `old` with one left-to-right pass (where `old[i..i+2] == (a, b)`
/// emit `c` and skip two, else copy one), leaving the result in `out`, and calls `on_change`
/// for exactly the pairs that differ between the old and the new word: every old pair touching
/// a merged position is destroyed, every new pair touching a `c` is created. Returns whether
/// anything was merged.
pub(crate) fn merge_pass(
    old: &[u32],
    (a, b, c): (u32, u32, u32),
    out: &mut PassBuffers,
    mut on_change: impl FnMut(PairChange),
) -> bool {
    out.new.clear();
    out.sources.clear();
    out.merged.clear();
    let n = old.len();
    let mut i = 0;
    // Index just past the last merged occurrence: the pair ending there was already reported
    // as destroyed, as the right neighbour of that occurrence.
    let mut last_end = usize::MAX;
    while i < n {
        if i + 1 < n && old[i] == a && old[i + 1] == b {
            if i > 0 && last_end != i {
                on_change(PairChange::DestroyedLeft(old[i - 1]));
            }
            on_change(PairChange::DestroyedMerged);
            if i + 2 < n {
                on_change(PairChange::DestroyedRight(old[i + 2]));
            }
            out.new.push(c);
            out.merged.push(true);
            out.sources.push(i as u32);
            i += 2;
            last_end = i;
        } else {
            out.new.push(old[i]);
            out.merged.push(false);
            out.sources.push(i as u32);
            i += 1;
        }
    }
    if out.new.len() == n {
        return false;
    }
    // A pair between two merged symbols is created once, as the left pair of the second.
    let (new, merged) = (&out.new, &out.merged);
    for j in 0..new.len() {
        if merged[j] {
            if j > 0 {
                on_change(PairChange::CreatedLeft(new[j - 1]));
            }
            if j + 1 < new.len() && !merged[j + 1] {
                on_change(PairChange::CreatedRight(new[j + 1]));
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(old: &[u32], abc: (u32, u32, u32)) -> (Vec<u32>, Vec<PairChange>) {
        let mut out = PassBuffers::default();
        let mut changes = Vec::new();
        merge_pass(old, abc, &mut out, |c| changes.push(c));
        (out.new, changes)
    }

    #[test]
    fn a_run_of_four_merges_into_two_and_reports_each_pair_once() {
        // a a a a -> c c: three (a, a) destroyed (one as a right neighbour), one (c, c) created.
        let (new, changes) = run(&[1, 1, 1, 1], (1, 1, 9));
        assert_eq!(new, [9, 9]);
        assert_eq!(
            changes,
            [
                PairChange::DestroyedMerged,
                PairChange::DestroyedRight(1),
                PairChange::DestroyedMerged,
                PairChange::CreatedLeft(9),
            ]
        );
    }

    #[test]
    fn neighbours_are_destroyed_and_recreated_around_the_merge() {
        // x a b y -> x c y
        let (new, changes) = run(&[7, 1, 2, 8], (1, 2, 9));
        assert_eq!(new, [7, 9, 8]);
        assert_eq!(
            changes,
            [
                PairChange::DestroyedLeft(7),
                PairChange::DestroyedMerged,
                PairChange::DestroyedRight(8),
                PairChange::CreatedLeft(7),
                PairChange::CreatedRight(8),
            ]
        );
    }

    #[test]
    fn a_word_without_the_pair_is_left_alone() {
        let (new, changes) = run(&[2, 1], (1, 2, 9));
        assert_eq!(new, [2, 1]);
        assert!(changes.is_empty());
    }
}
