//! Which lab a submitted notebook is: the one its metadata names, else the lab whose released
//! cells it holds — by the `grade_id`s the release wrote into them, else by their content
//! ([`match_cells`]) — at least half of the lab's cells; else the lab asked for with `--lab`.
//! Colab replaces a notebook's metadata and some Jupyters make new cell ids, so neither alone
//! may decide.

use super::graded_notebook::GradedNotebook;
use super::note::Ungradable;
use crate::course::cell_match::{Recognised, match_cells};
use crate::course::notebook::{Notebook, grade_id};
use std::collections::HashSet;

/// The lab `nb` is, or why it is none of `labs`; `asked` is the lab `--lab` names, which
/// decides when the notebook itself does not.
pub(crate) fn identify<'a>(
    nb: &Notebook,
    labs: &'a [GradedNotebook],
    asked: Option<&str>,
) -> Result<&'a GradedNotebook, Ungradable> {
    let asked = asked.and_then(|name| labs.iter().find(|l| l.name == name));
    if let Some(name) = nb.lab() {
        // The notebook says which lab it is: a lab not graded here is none of these, however
        // alike its cells (unless `--lab` says otherwise).
        return match labs.iter().find(|l| l.name == name) {
            Some(lab) => Ok(lab),
            None => asked.ok_or_else(|| Ungradable::UnknownLab {
                named: name.to_owned(),
                known: labs.iter().map(|l| l.name.clone()).collect(),
            }),
        };
    }
    if let Some(lab) =
        best(labs, |lab| by_grade_id(nb, lab)).or_else(|| best(labs, |lab| by_content(nb, lab)))
    {
        return Ok(lab);
    }
    asked.ok_or(Ungradable::NoLab)
}

/// The lab with the most of its released cells recognised, if that is at least half of them.
fn best(
    labs: &[GradedNotebook],
    recognised: impl Fn(&GradedNotebook) -> usize,
) -> Option<&GradedNotebook> {
    labs.iter()
        .map(|lab| (recognised(lab), lab))
        .filter(|(shared, lab)| *shared > 0 && *shared * 2 >= lab.released.cells().len())
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, lab)| lab)
}

/// How many of the lab's released cells the notebook holds by `grade_id` (cheap: tried first).
fn by_grade_id(nb: &Notebook, lab: &GradedNotebook) -> usize {
    let held: HashSet<&str> = nb.cells().iter().filter_map(grade_id).collect();
    lab.released
        .cells()
        .iter()
        .filter_map(grade_id)
        .filter(|g| held.contains(g))
        .count()
}

/// How many of the lab's released cells the notebook holds, recognised by metadata or content.
fn by_content(nb: &Notebook, lab: &GradedNotebook) -> usize {
    match_cells(nb.cells(), lab.released.cells(), &lab.releases)
        .iter()
        .flatten()
        .filter(|f| f.how != Recognised::ByPlace)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::graded_notebook::graded_notebooks;
    use serde_json::json;
    use std::path::Path;

    fn named(result: Result<&GradedNotebook, Ungradable>) -> Result<&str, Ungradable> {
        result.map(|lab| lab.name.as_str())
    }

    #[test]
    fn by_metadata_then_grade_ids_then_content_then_the_lab_asked_for() {
        let labs = graded_notebooks(&Path::new(env!("BPE_LAB_REPO")).join("instructor")).unwrap();
        let lab03 = labs.iter().find(|l| l.name == "03-merge").unwrap();
        let mut nb = lab03.released.clone();
        assert_eq!(named(identify(&nb, &labs, None)), Ok("03-merge"));
        // Colab: the notebook's metadata is its own, the cells keep theirs.
        nb.json["metadata"] = json!({"colab": {}, "accelerator": "GPU"});
        assert_eq!(named(identify(&nb, &labs, None)), Ok("03-merge"));
        // Stripped: the cells' content alone.
        for cell in nb.cells_mut() {
            cell["metadata"] = json!({});
            cell["id"] = json!("x");
        }
        assert_eq!(named(identify(&nb, &labs, None)), Ok("03-merge"));
        // Nothing to go on: `--lab` decides, else none.
        nb.cells_mut().clear();
        assert_eq!(named(identify(&nb, &labs, None)), Err(Ungradable::NoLab));
        assert_eq!(
            named(identify(&nb, &labs, Some("03-merge"))),
            Ok("03-merge")
        );
        // A lab not graded here, by its own word.
        nb.json["metadata"] = json!({"bpe_lab": {"lab": "09-other"}});
        assert!(matches!(
            identify(&nb, &labs, None),
            Err(Ungradable::UnknownLab { .. })
        ));
        assert_eq!(
            named(identify(&nb, &labs, Some("03-merge"))),
            Ok("03-merge")
        );
    }
}
