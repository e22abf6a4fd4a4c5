//! What a training run is asked to do, as plain data: the options of a [`super::Trainer`] and
//! the record a tokenizer file keeps of how its merges were learned. One type for both, so the
//! two cannot drift apart: a `Trainer` is these settings plus a progress callback.

use crate::bpe::TieBreak;

/// The options of a training run: how many merges, how ties are broken, when to stop early.
///
/// ```
/// use bpe_lab::{TieBreak, Trainer, TrainingSettings};
/// let settings = TrainingSettings::new(3).tie_break(TieBreak::FirstSeen);
/// let training = Trainer::from_settings(settings).train_paragraphs(&["low lower"]);
/// assert_eq!(training.merges.len(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainingSettings {
    /// Merges asked for (training may learn fewer).
    pub num_merges: usize,
    pub tie_break: TieBreak,
    /// Training stops once the best pair occurs fewer times than this (at least 1).
    pub min_frequency: u64,
}

impl TrainingSettings {
    /// `num_merges` merges, lexicographic tie-break, no minimum frequency.
    pub fn new(num_merges: usize) -> Self {
        TrainingSettings {
            num_merges,
            tie_break: TieBreak::default(),
            min_frequency: 1,
        }
    }

    /// How ties between equally frequent pairs are broken.
    pub fn tie_break(mut self, tie_break: TieBreak) -> Self {
        self.tie_break = tie_break;
        self
    }

    /// Stop as soon as the most frequent pair occurs fewer than `k` times (`0` and `1` both
    /// mean "keep going while any pair exists").
    pub fn min_frequency(mut self, k: u64) -> Self {
        self.min_frequency = k.max(1);
        self
    }
}
