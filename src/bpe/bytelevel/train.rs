//! Byte-level training on the engine's exact trainer.
//!
//! No second trainer: each distinct chunk becomes a word of byte symbols (see
//! [`symbols`](super::symbols)) with its count and no `</w>`, and the fast trainer of
//! [`crate::bpe::train`] learns the merges. Its rules carry over as they are:
//! - the most frequent pair, counts weighted by how often each chunk occurs, as minbpe counts
//!   every chunk of the text;
//! - [`TieBreak::FirstSeen`]: the tied pair that occurs first reading the chunks in text
//!   order, left to right: minbpe's `max(stats, key=stats.get)` over a dictionary filled in
//!   that order (see [`ChunkCounts`] for why distinct chunks give the same order);
//! - [`TieBreak::Lexicographic`]: the smallest `(left, right)` pair by byte order;
//! - tokens are byte *strings*: when a merge builds bytes that an earlier merge already built
//!   (`(a, bc)` after `(ab, c)`), it is the same token. minbpe would give it a second id;
//!   tiktoken's rank files key tokens by their bytes, so bytes are the only identity that can
//!   be exported. The two agree whenever no merge rebuilds an existing token.

use crate::bpe::TieBreak;
use crate::bpe::bytelevel::chunks::ChunkCounts;
use crate::bpe::bytelevel::symbols::{byte_table, symbol_bytes};
use crate::bpe::train::{Progress, StopReason, Trainer, TrainingSettings};
use crate::bpe::words::WordCounts;

/// One learned merge, as byte strings.
pub type ByteMerge = (Vec<u8>, Vec<u8>);

/// What byte-level training produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteTraining {
    /// The merges in the order they were learned.
    pub merges: Vec<ByteMerge>,
    /// The weighted count each merge had when it was chosen.
    pub merge_counts: Vec<u64>,
    /// Why training stopped.
    pub stop: StopReason,
}

impl ByteTraining {
    /// The tokens by rank: the 256 bytes (rank = byte value), then the bytes of each merge in
    /// order, skipping a merge whose bytes are already a token. These are the ids of the
    /// trained tokenizer and the ranks of its tiktoken file.
    pub fn tokens(&self) -> Vec<Vec<u8>> {
        let mut seen: rustc_hash::FxHashSet<Vec<u8>> = rustc_hash::FxHashSet::default();
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        seen.extend(tokens.iter().cloned());
        for (a, b) in &self.merges {
            let merged = [a.as_slice(), b].concat();
            if seen.insert(merged.clone()) {
                tokens.push(merged);
            }
        }
        tokens
    }
}

/// Learns byte-level merges, configured builder-style.
///
/// ```
/// use bpe_lab::TieBreak;
/// use bpe_lab::bpe::bytelevel::{ByteTrainer, ChunkCounts};
/// let chunks = ChunkCounts::from_chunks(["aaab", " aab"]);
/// let training = ByteTrainer::new(2).tie_break(TieBreak::FirstSeen).train(&chunks);
/// assert_eq!(training.merges[0], (b"a".to_vec(), b"a".to_vec()));
/// ```
pub struct ByteTrainer<'a> {
    /// The same settings type as character-level training: what a run is asked to do does
    /// not depend on what the symbols are.
    settings: TrainingSettings,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
}

impl<'a> ByteTrainer<'a> {
    /// At most `num_merges` merges, first-seen tie-break (minbpe's), no minimum frequency.
    pub fn new(num_merges: usize) -> Self {
        Self::from_settings(TrainingSettings::new(num_merges).tie_break(TieBreak::FirstSeen))
    }

    /// A trainer that does what `settings` ask (their tie-break included: lexicographic
    /// unless they say otherwise, where [`ByteTrainer::new`] takes minbpe's first-seen).
    pub fn from_settings(settings: TrainingSettings) -> Self {
        ByteTrainer {
            settings,
            progress: None,
        }
    }

    pub fn tie_break(mut self, tie_break: TieBreak) -> Self {
        self.settings = self.settings.tie_break(tie_break);
        self
    }

    /// Stop when the most frequent pair occurs fewer than `k` times.
    pub fn min_frequency(mut self, k: u64) -> Self {
        self.settings = self.settings.min_frequency(k);
        self
    }

    /// Called after every merge.
    pub fn on_progress(mut self, callback: impl FnMut(Progress) + 'a) -> Self {
        self.progress = Some(Box::new(callback));
        self
    }

    /// Trains on counted chunks.
    pub fn train(&mut self, chunks: &ChunkCounts) -> ByteTraining {
        let mut words = WordCounts::with_symbols(byte_table());
        let mut ids: Vec<u32> = Vec::new();
        for (chunk, count) in chunks.iter() {
            // A chunk of fewer than two bytes holds no pair: leaving it out changes no count
            // and no order between the others.
            if chunk.len() < 2 {
                continue;
            }
            ids.clear();
            ids.extend(chunk.iter().map(|&b| b as u32));
            words.push(&ids, count);
        }
        let mut trainer = Trainer::from_settings(self.settings);
        if let Some(progress) = self.progress.as_mut() {
            trainer = trainer.on_progress(progress);
        }
        let training = trainer.train(words);
        ByteTraining {
            merges: training
                .merges
                .iter()
                .map(|(a, b)| (symbol_bytes(a), symbol_bytes(b)))
                .collect(),
            merge_counts: training.merge_counts,
            stop: training.stop,
        }
    }
}
