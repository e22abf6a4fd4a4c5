//! A binary max-heap of candidate pairs whose order is decided by a caller-supplied rule.
//!
//! `std::collections::BinaryHeap` needs `Ord` on the items, but comparing two pairs under the
//! lexicographic tie-break needs the symbol table, which the items cannot carry cheaply. So
//! every operation takes the ordering as an argument instead.
//!
//! The trainer uses it *lazily*: an entry records the pair's count (and tie-break key) at the
//! time it was pushed and may be stale by the time it is popped; see `engine.rs` for the
//! invariant that makes this exact.

/// A pair as it was when pushed: its count and the keys that order equal counts (see
/// `tie::Policy::tie_keys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub count: u64,
    pub key: u64,
    pub key2: u64,
    pub pair: u32,
}

#[derive(Debug, Default)]
pub(crate) struct PairQueue {
    heap: Vec<Candidate>,
}

impl PairQueue {
    /// Builds a heap from arbitrary entries in linear time.
    pub fn from_vec(heap: Vec<Candidate>, before: impl Fn(&Candidate, &Candidate) -> bool) -> Self {
        let mut queue = PairQueue { heap };
        for i in (0..queue.heap.len() / 2).rev() {
            queue.sift_down(i, &before);
        }
        queue
    }

    pub fn push(&mut self, item: Candidate, before: impl Fn(&Candidate, &Candidate) -> bool) {
        self.heap.push(item);
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if !before(&self.heap[i], &self.heap[parent]) {
                break;
            }
            self.heap.swap(i, parent);
            i = parent;
        }
    }

    /// Removes and returns the entry that comes before all others.
    pub fn pop(&mut self, before: impl Fn(&Candidate, &Candidate) -> bool) -> Option<Candidate> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.heap[0], last);
        self.sift_down(0, &before);
        Some(top)
    }

    fn sift_down(&mut self, mut i: usize, before: &impl Fn(&Candidate, &Candidate) -> bool) {
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                return;
            }
            let right = left + 1;
            let child = if right < n && before(&self.heap[right], &self.heap[left]) {
                right
            } else {
                left
            };
            if !before(&self.heap[child], &self.heap[i]) {
                return;
            }
            self.heap.swap(i, child);
            i = child;
        }
    }
}
