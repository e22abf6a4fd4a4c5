//! Encoding many texts at once (tiktoken's `encode_ordinary_batch`): each worker thread keeps
//! one [`ChunkEncoder`] (its buffers and chunk cache) across every text it takes, so a batch of
//! many short documents merges each distinct chunk about once per thread, as one whole text of
//! the same words would, instead of once per document. Texts are taken from a shared counter,
//! so a thread that drew long texts does not hold the others up; each text is split and
//! encoded on its own, exactly as a single text is, and the results come back in the texts'
//! order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use crate::bpe::bytelevel::cache::ChunkEncoder;
use crate::bpe::bytelevel::pattern::{SplitError, Splitter};
use crate::bpe::bytelevel::ranks::RankTable;

/// Why a text of a batch could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The split pattern failed on the text at this index.
    Split { text: usize, error: SplitError },
    /// The text at this index holds a byte the rank table has no token for.
    MissingByte { text: usize },
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Split { text, error } => write!(f, "text {text} of the batch: {error}"),
            BatchError::MissingByte { text } => write!(
                f,
                "text {text} of the batch holds a byte the ranks have no token for"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// The ids of each of `texts` (every chunk of the pattern encoded by rank, special tokens as
/// the text they are), on up to `threads` threads, in the texts' order.
pub fn encode_batch<S: AsRef<str> + Sync>(
    ranks: &RankTable,
    splitter: &Splitter,
    texts: &[S],
    threads: usize,
) -> Result<Vec<Vec<u32>>, BatchError> {
    let threads = threads.clamp(1, texts.len().max(1));
    let next = AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, Vec<u32>)>, BatchError> {
        // One encoder per thread, for the whole batch: the point of this module.
        let mut encoder = ChunkEncoder::new(ranks);
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(text) = texts.get(i) else { break };
            let text = text.as_ref();
            let mut ids = Vec::with_capacity(text.len() / 3);
            let mut encoded = true;
            splitter
                .for_each_chunk(text, 0, text.len(), |chunk| {
                    encoded &= encoder.encode(chunk.as_bytes(), &mut ids);
                })
                .map_err(|error| BatchError::Split { text: i, error })?;
            if !encoded {
                return Err(BatchError::MissingByte { text: i });
            }
            done.push((i, ids));
        }
        Ok(done)
    };
    let parts = if threads == 1 {
        vec![work()]
    } else {
        thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an encoding thread panicked"))
                .collect::<Vec<_>>()
        })
    };
    let mut out = vec![Vec::new(); texts.len()];
    let mut first_error: Option<BatchError> = None;
    for part in parts {
        match part {
            Ok(done) => {
                for (i, ids) in done {
                    out[i] = ids;
                }
            }
            // The error of the earliest text, whichever thread met it.
            Err(e) => {
                let index = |e: &BatchError| match e {
                    BatchError::Split { text, .. } | BatchError::MissingByte { text } => *text,
                };
                if first_error.as_ref().is_none_or(|f| index(&e) < index(f)) {
                    first_error = Some(e);
                }
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::bpe::bytelevel::{ByteTrainer, ChunkCounts, SplitPattern};

    /// A small trained table (so that chunks merge into several tokens) and the GPT-4 pattern.
    fn table() -> (RankTable, Splitter) {
        let splitter = Splitter::new("gpt4".parse::<SplitPattern>().unwrap()).unwrap();
        let corpus = "the cat sat on the mat; the cats sat on the mats, 123 4567 -- \
                      ሰላም ዓለም ☃☃ naïve café, the theme of the thesis";
        let chunks = ChunkCounts::from_text(corpus, &splitter, &[], 1).unwrap();
        let training = ByteTrainer::new(60).train(&chunks);
        let tokens = training.tokens().into_iter().zip(0..);
        (RankTable::new(tokens), splitter)
    }

    /// One text alone, the plain way: every chunk by rank, no cache.
    fn alone(ranks: &RankTable, splitter: &Splitter, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        splitter
            .for_each_chunk(text, 0, text.len(), |c| {
                assert!(ranks.encode_piece(c.as_bytes(), &mut ids));
            })
            .unwrap();
        ids
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The batch is each text encoded alone, in order, on any number of threads; texts
        /// repeat words across the batch, so later ones come from the cache.
        #[test]
        fn batch_equals_each_text_alone(
            texts in prop::collection::vec(
                prop::collection::vec(
                    prop::sample::select(vec![
                        "the", " cat", " cats", "sat", " on", " the", " mat", ";", " 123",
                        "4567", " ሰላም", "☃", " naïve", " café", "  ", "\n", "the", "thesis",
                        "é", "\u{301}",
                    ]),
                    0..12,
                ).prop_map(|words| words.concat()),
                0..20,
            ),
            threads in 1usize..4,
        ) {
            let (ranks, splitter) = table();
            let want: Vec<Vec<u32>> = texts.iter().map(|t| alone(&ranks, &splitter, t)).collect();
            prop_assert_eq!(encode_batch(&ranks, &splitter, &texts, threads).unwrap(), want);
        }
    }

    #[test]
    fn a_missing_byte_names_the_first_text_that_needs_it() {
        let splitter = Splitter::new("gpt4".parse::<SplitPattern>().unwrap()).unwrap();
        let ranks = RankTable::new(
            (0..=255u8)
                .filter(|&b| b != b'z')
                .map(|b| (vec![b], b as u32)),
        );
        let texts = ["abc", "xyz", "zz", "ok"];
        for threads in 1..4 {
            assert_eq!(
                encode_batch(&ranks, &splitter, &texts, threads),
                Err(BatchError::MissingByte { text: 1 })
            );
        }
    }
}
