//! Paragraphs with their optional category and name, in the order read: what every format
//! produces before it becomes a list of paragraphs or (feature `dataset`) a DataFrame.

/// The column every loader fills with one paragraph per row.
pub const TEXT_COLUMN: &str = "description";
/// Kept from the source when present (Africa Galore's topic, e.g. "Food").
pub const CATEGORY_COLUMN: &str = "category";
/// Kept from the source when present (Africa Galore's subject, e.g. "Injera").
pub const NAME_COLUMN: &str = "name";

/// A record's optional category and name (`None` when the source has no such field; `Some(None)`
/// when it has the field with no value) and its paragraph.
pub(crate) type Fields = (Option<Option<String>>, Option<Option<String>>, String);

#[derive(Debug, Default)]
pub(crate) struct Records {
    pub(crate) category: Vec<Option<String>>,
    pub(crate) name: Vec<Option<String>>,
    pub(crate) text: Vec<String>,
    /// Whether any record had the field at all: a column of only nulls is still kept when the
    /// source had the field, and left out when it never did.
    pub(crate) has_category: bool,
    pub(crate) has_name: bool,
}

impl Records {
    #[cfg_attr(not(feature = "africa-galore"), allow(dead_code))]
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub(crate) fn push_fields(&mut self, (category, name, text): Fields) {
        self.has_category |= category.is_some();
        self.has_name |= name.is_some();
        self.category.push(category.flatten());
        self.name.push(name.flatten());
        self.text.push(text);
    }

    /// The paragraphs alone, in order.
    pub(crate) fn into_paragraphs(self) -> Vec<String> {
        self.text
    }

    /// Columns `category` and `name` (when the source had them) and `description`.
    #[cfg(feature = "dataset")]
    pub(crate) fn into_frame(self) -> polars::prelude::DataFrame {
        use polars::prelude::{Column, DataFrame, PlSmallStr};
        let height = self.text.len();
        let mut columns = Vec::with_capacity(3);
        if self.has_category {
            columns.push(Column::new(
                PlSmallStr::from_static(CATEGORY_COLUMN),
                self.category,
            ));
        }
        if self.has_name {
            columns.push(Column::new(PlSmallStr::from_static(NAME_COLUMN), self.name));
        }
        columns.push(Column::new(PlSmallStr::from_static(TEXT_COLUMN), self.text));
        DataFrame::new(height, columns).expect("the columns have distinct names and one length")
    }
}
