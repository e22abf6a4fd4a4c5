//! What a byte-level tokenizer is, apart from what training learns: the split pattern and
//! the special tokens. Byte-level training takes it beside the one [`TrainingSettings`] both
//! kinds of training take, as character-level training takes its [`TokenizerConfig`].
//!
//! Why two types and not one: the settings say how a run goes (how many merges, ties, when to
//! stop) and are the same for both kinds — the engine's trainer reads them, and a tokenizer
//! file records them. The config says what the tokenizer is, and that differs by kind (a
//! pattern and specials cut out of the text here; an unknown token, a vocabulary order and a
//! word split there). Folding them together would give every field of one kind a meaning for
//! the other, or an `Option` that is `None` for half the callers.
//!
//! [`TrainingSettings`]: crate::tokenizer::TrainingSettings
//! [`TokenizerConfig`]: crate::tokenizer::TokenizerConfig

use crate::bpe::bytelevel::SplitPattern;

/// A byte-level tokenizer's split pattern and special tokens, as training is given them.
///
/// ```
/// use bpe_lab::bpe::bytelevel::SplitPattern;
/// use bpe_lab::tokenizer::ByteLevelConfig;
/// let config = ByteLevelConfig::default();
/// assert_eq!(config.pattern, SplitPattern::Cl100k);
/// assert!(config.special_tokens.is_empty());
/// let config = ByteLevelConfig::new(SplitPattern::O200k).special_tokens(["<|endoftext|>"]);
/// assert_eq!(config.special_tokens, ["<|endoftext|>"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteLevelConfig {
    /// How the text is cut into chunks before merging (no pair crosses two chunks).
    pub pattern: SplitPattern,
    /// Cut out of the text before splitting, never trained on, given the ids after the
    /// learned tokens in this order.
    pub special_tokens: Vec<String>,
}

impl ByteLevelConfig {
    /// GPT-4's pattern (cl100k_base's): the default of [`ByteLevelConfig::default`] and of
    /// `bpe-lab train --byte-level`.
    pub const DEFAULT_PATTERN: SplitPattern = SplitPattern::Cl100k;

    /// `pattern` and no special tokens.
    pub fn new(pattern: SplitPattern) -> Self {
        ByteLevelConfig {
            pattern,
            special_tokens: Vec::new(),
        }
    }

    /// These special tokens, in id order.
    pub fn special_tokens<S: Into<String>>(mut self, tokens: impl IntoIterator<Item = S>) -> Self {
        self.special_tokens = tokens.into_iter().map(Into::into).collect();
        self
    }

    /// The special tokens as the splitting functions take them.
    pub(crate) fn specials(&self) -> Vec<&str> {
        self.special_tokens.iter().map(String::as_str).collect()
    }
}

impl Default for ByteLevelConfig {
    /// [`ByteLevelConfig::DEFAULT_PATTERN`], no special tokens.
    fn default() -> Self {
        ByteLevelConfig::new(Self::DEFAULT_PATTERN)
    }
}
