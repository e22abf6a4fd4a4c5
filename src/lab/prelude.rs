//! `use bpe_lab::lab::prelude::*;` brings what the notebooks use, and nothing named like an
//! exercise (the student writes `bpe_initialize`, `get_pair_frequencies`, … themselves; the
//! reference versions stay reachable as `bpe_lab::bpe_initialize` and so on).

pub use super::check::{self, Check, Status};
pub use super::display::{Html, show_html, show_text};
pub use super::fallback::student_or_reference;
pub use super::plot::{Plot, Scale};
pub use super::tokens::{merges_table, pair_table, tokens_html};
pub use crate::EOW;
pub use crate::own_test;
pub use std::collections::{BTreeMap, BTreeSet, HashMap};
pub use std::time::{Duration, Instant};
