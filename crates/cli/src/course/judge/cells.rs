//! The cells a student could edit, in the restored notebook: solution cells (not locked in
//! the released version) and cells the student added.

use super::extract::EditableCell;
use crate::course::notebook::{Notebook, cell_id, is_code, is_locked, source};
use std::collections::HashSet;

/// The notebook's code cells the student could edit, in order.
pub(crate) fn editable_cells(restored: &Notebook, released: &Notebook) -> Vec<EditableCell> {
    let locked: HashSet<&str> = released
        .cells()
        .iter()
        .filter(|c| is_locked(c))
        .filter_map(cell_id)
        .collect();
    restored
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, c)| is_code(c))
        .filter(|(_, c)| !cell_id(c).is_some_and(|id| locked.contains(id)))
        .map(|(index, c)| EditableCell {
            index,
            id: cell_id(c).unwrap_or("no id").to_owned(),
            source: source(c),
        })
        .collect()
}
