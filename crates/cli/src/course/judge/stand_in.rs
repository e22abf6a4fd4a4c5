//! The stand-in for the crate inside a worker: the `bpe_lab` a student's code sees when the
//! grader compiles it. Built from the crate's own files, not retyped: the lab's steps
//! (`bpe/steps.rs`), the tie-break policies (`bpe/tie_break.rs`) and the notebooks' prelude
//! (`lab/prelude.rs`, less what a worker does not link), so the worker cannot drift from what
//! the notebook offers.

use bpe_lab::lab::check::Exercise;
use bpe_lab::lab::check::table::{Reference, Row, TABLE, Worker};
use bpe_lab::lab::worker_sources::{PRELUDE, STEPS, TIE_BREAK};
use std::fmt::Write as _;

/// The steps a worker for `exercise` offers: each taught before it that `bpe/steps.rs` has
/// (the exercise table's [`Worker::OffersStep`]), under the exercise's name.
fn offered(exercise: Option<Exercise>) -> impl Iterator<Item = &'static Row> {
    TABLE.iter().filter(move |row| {
        row.worker == Worker::OffersStep && exercise.is_none_or(|e| e.may_use(row.exercise))
    })
}

/// The stand-in for an instructor's own exercise: every step the crate offers workers. An
/// instructor's tests name no reference of the lab's, so none is withheld.
pub(crate) fn crate_stand_in_every_step() -> String {
    stand_in(None)
}

/// `EOW`, `TieBreak`, the notebooks' prelude, and the steps taught before `exercise`. The
/// steps' code sits in a private module, so the exercise's own answer is not reachable by any
/// path.
pub(super) fn crate_stand_in(exercise: Exercise) -> String {
    stand_in(Some(exercise))
}

fn stand_in(exercise: Option<Exercise>) -> String {
    let mut out =
        String::from("#[allow(dead_code, unused_imports)]\nmod bpe_lab {\n    mod steps {\n");
    out.push_str(STEPS);
    out.push_str("\n    }\n    pub use steps::EOW;\n");
    // The fixed API's steps at the crate root (`bpe_lab::get_pair_frequencies`), as the crate.
    for row in offered(exercise).filter(|row| row.reference == Reference::Root) {
        let _ = writeln!(out, "    pub use steps::{};", row.name());
    }
    out.push_str("    mod tie_break {\n");
    out.push_str(TIE_BREAK);
    out.push_str("\n    }\n    pub use tie_break::TieBreak;\n");
    out.push_str("    pub mod lab {\n        pub mod prelude {\n");
    for line in worker_prelude() {
        let _ = writeln!(out, "            {line}");
    }
    out.push_str("        }\n");
    // The course's tie rule as the judge reads it, so that code following
    // `bpe_lab::lab::parity::tie_break()` (notebook 04's solution does) is graded by the rule
    // the checks compare with, not by the default a worker's cleared environment would give.
    let _ = writeln!(
        out,
        "        pub mod parity {{\n            pub fn tie_break() -> super::super::TieBreak {{ \
         super::super::TieBreak::{:?} }}\n        }}",
        bpe_lab::lab::parity::tie_break()
    );
    // Every step offered, under `bpe_lab::lab::reference::` too: the one path the notebooks
    // name every reference by (the fixed API's four as well), as `Row::reference_paths` says.
    let references: Vec<&str> = offered(exercise).map(Row::name).collect();
    if !references.is_empty() {
        let _ = writeln!(
            out,
            "        pub mod reference {{\n            pub use super::super::steps::{{{}}};\n        }}",
            references.join(", ")
        );
    }
    out.push_str("    }\n}\n");
    out
}

/// The notebooks' prelude as a worker can have it: every `pub use` of `lab/prelude.rs` that
/// names `std` (kept as written) or the crate's `EOW` (pointed at the steps' own); the checks,
/// display and plots it also re-exports are the crate's, which a worker does not link.
fn worker_prelude() -> Vec<String> {
    let file = syn::parse_file(PRELUDE).expect("lab/prelude.rs is Rust");
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Use(u) => match use_text(&u.tree).as_str() {
                "crate::EOW" => Some("pub use super::super::steps::EOW;".to_owned()),
                text if text.starts_with("std::") => Some(format!("pub use {text};")),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// A use tree written back as Rust (`std::time::{Duration, Instant}`).
fn use_text(tree: &syn::UseTree) -> String {
    match tree {
        syn::UseTree::Path(p) => format!("{}::{}", p.ident, use_text(&p.tree)),
        syn::UseTree::Name(n) => n.ident.to_string(),
        syn::UseTree::Rename(r) => format!("{} as {}", r.ident, r.rename),
        syn::UseTree::Glob(_) => "*".to_owned(),
        syn::UseTree::Group(g) => {
            let items: Vec<String> = g.items.iter().map(use_text).collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prelude_is_the_crates_std_names_and_eow() {
        assert_eq!(
            worker_prelude(),
            [
                "pub use super::super::steps::EOW;",
                "pub use std::collections::{BTreeMap, BTreeSet, HashMap};",
                "pub use std::time::{Duration, Instant};",
            ]
        );
    }

    #[test]
    fn every_step_offered_is_a_function_of_steps_rs() {
        let file = syn::parse_file(STEPS).expect("bpe/steps.rs is Rust");
        let functions: Vec<String> = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Fn(f) if matches!(f.vis, syn::Visibility::Public(_)) => {
                    Some(f.sig.ident.to_string())
                }
                _ => None,
            })
            .collect();
        for row in TABLE.iter().filter(|row| row.worker == Worker::OffersStep) {
            assert!(functions.iter().any(|f| f == row.name()), "{}", row.name());
        }
    }

    /// A worker offers a step at every path the crate has it, among them the one the
    /// notebooks' hints name (`bpe_lab::lab::reference::get_pair_frequencies` in train_bpe).
    #[test]
    fn each_step_is_offered_at_the_crates_paths() {
        let train = crate_stand_in(Exercise::TrainBpe);
        assert!(train.contains("pub use steps::get_pair_frequencies;"));
        assert!(train.contains(
            "pub use super::super::steps::{bpe_initialize, get_pair_frequencies, \
             most_frequent_pair, merge_pair_in_word};"
        ));
        let encode = crate_stand_in(Exercise::Encode);
        assert!(encode.contains("merge_pair_in_word, apply_merges};"));
    }

    #[test]
    fn tie_break_is_the_crates_own() {
        let stand_in = crate_stand_in(Exercise::TrainBpe);
        assert!(stand_in.contains("pub enum TieBreak"));
        assert!(stand_in.contains("pub use tie_break::TieBreak;"));
        assert!(stand_in.contains("pub fn from_loose_name"));
    }

    /// The rule in force reaches the worker; the environment is the judge's (tests in this
    /// binary never set the variable, so the default is what they see).
    #[test]
    fn the_tie_rule_in_force_is_offered_at_the_crates_path() {
        let stand_in = crate_stand_in(Exercise::TrainBpe);
        let expected = format!(
            "super::super::TieBreak::{:?} }}",
            bpe_lab::lab::parity::tie_break()
        );
        assert!(stand_in.contains("pub mod parity"), "{stand_in}");
        assert!(stand_in.contains(&expected), "{stand_in}");
    }
}
