//! Which lab a submitted notebook is: the one its metadata names (when graded here), else the
//! lab whose released cells it holds — by the `grade_id`s the release wrote into them, else by
//! their content ([`match_cells`]) — at least half of the lab's cells; else the lab asked for
//! with `--lab`. Colab replaces a notebook's metadata and some Jupyters make new cell ids, so
//! neither alone may decide.

use super::lab::Lab;
use super::note::Ungradable;
use crate::course::cell_match::{Recognised, match_cells};
use crate::course::notebook::{Notebook, grade_id};
use std::collections::HashSet;

/// The lab `nb` is, or why it is none of `labs`; `asked` is the lab `--lab` names, which
/// decides when the notebook itself does not.
pub(crate) fn identify<'a>(
    nb: &Notebook,
    labs: &'a [Lab],
    asked: Option<&str>,
) -> Result<&'a Lab, Ungradable> {
    let named = nb.lab();
    if let Some(lab) = named.and_then(|name| labs.iter().find(|l| l.name == name)) {
        return Ok(lab);
    }
    if let Some(lab) =
        best(labs, |lab| by_grade_id(nb, lab)).or_else(|| best(labs, |lab| by_content(nb, lab)))
    {
        return Ok(lab);
    }
    if let Some(lab) = asked.and_then(|name| labs.iter().find(|l| l.name == name)) {
        return Ok(lab);
    }
    match named {
        Some(name) => Err(Ungradable::UnknownLab {
            named: name.to_owned(),
            known: labs.iter().map(|l| l.name.clone()).collect(),
        }),
        None => Err(Ungradable::NoLab),
    }
}

/// The lab with the most of its released cells recognised, if that is at least half of them.
fn best(labs: &[Lab], recognised: impl Fn(&Lab) -> usize) -> Option<&Lab> {
    labs.iter()
        .map(|lab| (recognised(lab), lab))
        .filter(|(shared, lab)| *shared > 0 && *shared * 2 >= lab.released.cells().len())
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, lab)| lab)
}

/// How many of the lab's released cells the notebook holds by `grade_id` (cheap: tried first).
fn by_grade_id(nb: &Notebook, lab: &Lab) -> usize {
    let held: HashSet<&str> = nb.cells().iter().filter_map(grade_id).collect();
    lab.released
        .cells()
        .iter()
        .filter_map(grade_id)
        .filter(|g| held.contains(g))
        .count()
}

/// How many of the lab's released cells the notebook holds, recognised by metadata or content.
fn by_content(nb: &Notebook, lab: &Lab) -> usize {
    match_cells(nb.cells(), lab.released.cells(), &lab.releases)
        .iter()
        .flatten()
        .filter(|f| f.how != Recognised::ByPlace)
        .count()
}
