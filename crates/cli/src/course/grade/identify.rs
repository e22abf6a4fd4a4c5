//! Which lab a submitted notebook is: the one its metadata names, else the lab sharing most
//! cell ids with it (at least half of the lab's cells).

use super::lab::Lab;
use super::note::Ungradable;
use crate::course::notebook::{Notebook, cell_id};

/// The lab `nb` is, or why it is none of `labs`.
pub(crate) fn identify<'a>(nb: &Notebook, labs: &'a [Lab]) -> Result<&'a Lab, Ungradable> {
    if let Some(name) = nb.lab() {
        return labs
            .iter()
            .find(|l| l.name == name)
            .ok_or_else(|| Ungradable::UnknownLab {
                named: name.to_owned(),
                known: labs.iter().map(|l| l.name.clone()).collect(),
            });
    }
    let ids: Vec<&str> = nb.cells().iter().filter_map(cell_id).collect();
    labs.iter()
        .map(|lab| {
            let shared = lab
                .released
                .cells()
                .iter()
                .filter_map(cell_id)
                .filter(|id| ids.contains(id))
                .count();
            (shared, lab)
        })
        .filter(|(shared, lab)| *shared * 2 >= lab.released.cells().len() && *shared > 0)
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, lab)| lab)
        .ok_or(Ungradable::NoLab)
}
