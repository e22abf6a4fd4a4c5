//! Which submitted cell is which released cell, whichever Jupyter saved the notebook.
//!
//! Cell ids do not survive every Jupyter: Notebook 6 saves nbformat 4.4 without them, and
//! nbformat's upgrade, VS Code and Colab make new ones. What the release wrote into a cell's
//! metadata does survive (JupyterLab, Notebook, VS Code and Colab all keep cell metadata), so a
//! cell is known, in this order, by:
//!
//! 1. its `metadata.nbgrader.grade_id`, or the lab's own `metadata.bpe_lab` when it names one
//!    released cell (a check's exercise, the setup's role);
//! 2. its content, for a protected cell: a source equal to one a known release gave that cell
//!    (anywhere), then nearly equal (between the cells known around it);
//! 3. its place, for a solution cell: the code cell between the known cells around it that
//!    holds the released signature line (`fn name`), else the first code cell there, else a
//!    cell with that signature anywhere.
//!
//! A Jupyter cell id alone never says which cell a cell is.

use super::notebook::{grade_id, is_locked, source};
use super::release_record::{Releases, comparable};
use serde_json::Value;
use std::collections::HashMap;
use std::ops::Range;

/// How a submitted cell was recognised as a released one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // each reads as the sentence it stands for: recognised by ...
pub(crate) enum Recognised {
    /// By what the release wrote into its metadata.
    ByMetadata,
    /// A protected cell, by its source.
    ByContent,
    /// A solution cell, by its signature line or its place between known cells.
    ByPlace,
}

/// The submitted cell a released cell was found as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    /// Its index among the submitted cells.
    pub(crate) submitted: usize,
    pub(crate) how: Recognised,
}

/// For each released cell (by index), the submitted cell that is it, if any; no submitted
/// cell is two released ones. `releases` gives the sources a protected cell had in every known
/// release.
pub(crate) fn match_cells(
    submitted: &[Value],
    released: &[Value],
    releases: &Releases,
) -> Vec<Option<Found>> {
    let mut matching = Matching {
        found: vec![None; released.len()],
        taken: vec![false; submitted.len()],
    };
    by_metadata(&mut matching, submitted, released);
    for nearly in [false, true] {
        for (r, release) in released.iter().enumerate() {
            if matching.found[r].is_none() && is_locked(release) {
                let versions = versions(release, releases);
                let same = |cell: &Value| {
                    cell["cell_type"] == release["cell_type"]
                        && versions.iter().any(|v| same_text(&source(cell), v, nearly))
                };
                let s = matching.find(r, submitted, same, !nearly);
                matching.take(r, s, Recognised::ByContent);
            }
        }
    }
    for (r, release) in released.iter().enumerate() {
        if matching.found[r].is_some() || is_locked(release) {
            continue;
        }
        let kind = &release["cell_type"];
        let signature = signature(&source(release));
        let same_kind = |cell: &Value| &cell["cell_type"] == kind;
        let signed = |cell: &Value| {
            same_kind(cell)
                && signature
                    .as_ref()
                    .is_some_and(|name| has_signature(cell, name))
        };
        let window = matching.window(r);
        let s = matching
            .find_in(window.clone(), submitted, signed)
            .or_else(|| matching.find_in(window, submitted, same_kind))
            .or_else(|| matching.find_in(0..submitted.len(), submitted, signed));
        matching.take(r, s, Recognised::ByPlace);
    }
    matching.found
}

struct Matching {
    found: Vec<Option<Found>>,
    taken: Vec<bool>,
}

impl Matching {
    fn take(&mut self, r: usize, s: Option<usize>, how: Recognised) {
        if let Some(s) = s {
            self.found[r] = Some(Found { submitted: s, how });
            self.taken[s] = true;
        }
    }

    /// The submitted cells between those found for the released cells around `r`.
    fn window(&self, r: usize) -> Range<usize> {
        let after = self.found[..r]
            .iter()
            .rev()
            .find_map(|f| f.map(|f| f.submitted + 1))
            .unwrap_or(0);
        let before = self.found[r + 1..]
            .iter()
            .find_map(|f| f.map(|f| f.submitted))
            .unwrap_or(self.taken.len());
        after..before.max(after)
    }

    fn find_in(
        &self,
        range: Range<usize>,
        submitted: &[Value],
        fits: impl Fn(&Value) -> bool,
    ) -> Option<usize> {
        range
            .into_iter()
            .find(|&s| !self.taken[s] && fits(&submitted[s]))
    }

    /// A free submitted cell that `fits`, between the known cells around `r` first, then
    /// (`anywhere`) in the whole notebook.
    fn find(
        &self,
        r: usize,
        submitted: &[Value],
        fits: impl Fn(&Value) -> bool,
        anywhere: bool,
    ) -> Option<usize> {
        self.find_in(self.window(r), submitted, &fits).or_else(|| {
            anywhere
                .then(|| self.find_in(0..submitted.len(), submitted, &fits))
                .flatten()
        })
    }
}

/// Step 1: the first submitted cell carrying a released cell's `grade_id` (or, without one,
/// the lab metadata of exactly one released cell) is that cell; later copies are the
/// student's own cells.
fn by_metadata(matching: &mut Matching, submitted: &[Value], released: &[Value]) {
    let by_grade_id: HashMap<&str, usize> = released
        .iter()
        .enumerate()
        .filter_map(|(r, c)| grade_id(c).map(|g| (g, r)))
        .collect();
    for (s, cell) in submitted.iter().enumerate() {
        let r = match grade_id(cell) {
            Some(g) => by_grade_id.get(g).copied(),
            None => by_lab_metadata(cell, released),
        };
        if let Some(r) = r
            && matching.found[r].is_none()
        {
            matching.take(r, Some(s), Recognised::ByMetadata);
        }
    }
}

/// The one released cell whose `metadata.bpe_lab` is this cell's, if exactly one is.
fn by_lab_metadata(cell: &Value, released: &[Value]) -> Option<usize> {
    let own = cell["metadata"]["bpe_lab"]
        .as_object()
        .filter(|m| !m.is_empty())?;
    let mut same = released
        .iter()
        .enumerate()
        .filter(|(_, c)| c["metadata"]["bpe_lab"].as_object() == Some(own))
        .map(|(r, _)| r);
    let first = same.next()?;
    same.next().is_none().then_some(first)
}

/// The sources a protected released cell had: in every known release, and as released now.
fn versions(cell: &Value, releases: &Releases) -> Vec<String> {
    let mut all = vec![comparable(&source(cell))];
    if let Some(g) = grade_id(cell) {
        all.extend(releases.versions(g).map(|v| comparable(&v)));
    }
    all.dedup();
    all
}

/// Whether a submitted source is a released one (`released` already comparable): equal (the
/// crate's path aside), or with `nearly`, equal but for whitespace or at least 85% alike.
fn same_text(submitted: &str, released: &str, nearly: bool) -> bool {
    let submitted = comparable(submitted);
    if submitted == released {
        return true;
    }
    if !nearly {
        return false;
    }
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let (a, b) = (squeeze(&submitted), squeeze(released));
    if a == b {
        return true;
    }
    let (short, long) = {
        let (x, y) = (a.chars().count(), b.chars().count());
        (x.min(y), x.max(y))
    };
    // Texts this far apart in length cannot be 85% alike; most candidates stop here.
    short >= 20 && short * 4 >= long * 3 && likeness(&a, &b) >= 0.85
}

/// How alike two texts are, from 0 to 1: the Dice coefficient of their character pairs.
fn likeness(a: &str, b: &str) -> f64 {
    let pairs = |t: &str| {
        let chars: Vec<char> = t.chars().collect();
        let mut counts: HashMap<(char, char), usize> = HashMap::new();
        for w in chars.windows(2) {
            *counts.entry((w[0], w[1])).or_default() += 1;
        }
        counts
    };
    let (pa, pb) = (pairs(a), pairs(b));
    let total: usize = pa.values().sum::<usize>() + pb.values().sum::<usize>();
    if total == 0 {
        return 0.0;
    }
    let shared: usize = pa
        .iter()
        .map(|(p, n)| (*n).min(pb.get(p).copied().unwrap_or(0)))
        .sum();
    2.0 * shared as f64 / total as f64
}

/// The name of the first function a solution cell declares (`fn name` / `pub fn name`).
fn signature(text: &str) -> Option<String> {
    text.lines().find_map(declared_function)
}

fn declared_function(line: &str) -> Option<String> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("pub ").unwrap_or(rest);
    let name: String = rest
        .strip_prefix("fn ")?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn has_signature(cell: &Value, name: &str) -> bool {
    source(cell)
        .lines()
        .any(|l| declared_function(l).as_deref() == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::notebook::Notebook;
    use crate::course::release_record::ReleaseRecord;
    use serde_json::json;

    fn cell(id: &str, kind: &str, text: &str, locked: bool) -> Value {
        json!({"cell_type": kind, "id": id, "source": text,
               "metadata": {"nbgrader": {"grade_id": id, "locked": locked}}})
    }

    fn released() -> Vec<Value> {
        vec![
            cell(
                "title",
                "markdown",
                "# Merging a pair, the lab's third step",
                true,
            ),
            cell(
                "task",
                "markdown",
                "Write `merge` so that the pair becomes one symbol.",
                true,
            ),
            cell(
                "sol",
                "code",
                "/// Merges.\nfn merge(w: &[String]) -> Vec<String> {\n    todo!()\n}",
                false,
            ),
            cell(
                "check",
                "code",
                "let merge_check = check::merge(merge);",
                true,
            ),
            cell("end", "markdown", "## Summary of what the lab taught", true),
        ]
    }

    fn releases() -> Releases {
        let nb = Notebook {
            json: json!({"nbformat": 4, "metadata": {}, "cells": released()}),
        };
        Releases::current_only(ReleaseRecord::of("x", &nb))
    }

    fn stripped(cells: &[Value]) -> Vec<Value> {
        cells
            .iter()
            .map(|c| json!({"cell_type": c["cell_type"], "source": c["source"], "metadata": {}}))
            .collect()
    }

    fn found(cells: &[Value]) -> Vec<Option<(usize, Recognised)>> {
        match_cells(cells, &released(), &releases())
            .into_iter()
            .map(|f| f.map(|f| (f.submitted, f.how)))
            .collect()
    }

    #[test]
    fn grade_ids_win_over_cell_ids_and_order() {
        let mut cells = released();
        cells.reverse();
        for (i, c) in cells.iter_mut().enumerate() {
            c["id"] = json!(format!("random-{i}"));
        }
        let m = Recognised::ByMetadata;
        assert_eq!(
            found(&cells),
            [
                Some((4, m)),
                Some((3, m)),
                Some((2, m)),
                Some((1, m)),
                Some((0, m))
            ]
        );
    }

    #[test]
    fn the_first_cell_carrying_a_grade_id_is_it_and_a_copy_is_the_students_own() {
        let mut cells = released();
        cells.insert(0, cells[3].clone());
        let f = found(&cells);
        assert_eq!(f[3], Some((0, Recognised::ByMetadata)));
        assert_eq!(f[0], Some((1, Recognised::ByMetadata)));
    }

    #[test]
    fn without_metadata_protected_cells_by_content_and_the_solution_by_place() {
        let mut cells = stripped(&released());
        cells[2]["source"] = json!("fn merge(w: &[String]) -> Vec<String> {\n    w.to_vec()\n}");
        // A cell of the student's own before the solution, and the title's typo "fixed".
        cells.insert(
            2,
            json!({"cell_type": "code", "source": "fn helper() {}", "metadata": {}}),
        );
        cells[0]["source"] = json!("# Merging a pair, the labs third step");
        let (c, p) = (Recognised::ByContent, Recognised::ByPlace);
        assert_eq!(
            found(&cells),
            [
                Some((0, c)),
                Some((1, c)),
                Some((3, p)),
                Some((4, c)),
                Some((5, c))
            ]
        );
    }

    #[test]
    fn without_a_signature_the_first_code_cell_in_place_is_the_solution() {
        let mut cells = stripped(&released());
        cells[2]["source"] = json!("// I gave up");
        assert_eq!(found(&cells)[2], Some((2, Recognised::ByPlace)));
        cells.remove(2);
        assert_eq!(
            found(&cells)[2],
            None,
            "nothing between the task and the check"
        );
    }

    #[test]
    fn nothing_alike_is_not_taken() {
        let cells =
            vec![json!({"cell_type": "markdown", "source": "# My own notes", "metadata": {}})];
        assert!(found(&cells).iter().all(Option::is_none));
        assert!(likeness("abcdef", "abcdef") > 0.99);
        assert!(likeness("abcdef", "uvwxyz") < 0.01);
    }

    #[test]
    fn the_lab_metadata_names_a_check_or_the_setup() {
        let mut released = released();
        released[3]["metadata"]["bpe_lab"] = json!({"exercise": "merge", "points": 1});
        let submitted = vec![
            json!({"cell_type": "code", "source": "edited", "metadata": {"bpe_lab": {"exercise": "merge", "points": 1}}}),
        ];
        let f = match_cells(&submitted, &released, &releases());
        assert_eq!(
            f[3],
            Some(Found {
                submitted: 0,
                how: Recognised::ByMetadata
            })
        );
    }
}
