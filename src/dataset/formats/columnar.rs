//! CSV and Parquet through polars' lazy scans: the schema is checked before anything is read,
//! only the needed columns are projected, and the query runs on the streaming engine, so a
//! large file never has to fit in memory beyond the columns that are kept.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::Arc;

use polars::prelude::{
    DataFrame, DataType, Engine, Expr, Field, LazyCsvReader, LazyFileListReader, LazyFrame,
    PlRefPath, PlSmallStr, PolarsError, ScanArgsParquet, Schema, col,
};

use super::{CATEGORY_COLUMN, Format, NAME_COLUMN, TEXT_COLUMN};
use crate::WordCounts;
use crate::dataset::DatasetError;

/// The corpus in a CSV or Parquet file: `text_column` becomes `description`; `category` and
/// `name` are kept when the file has them.
pub(crate) fn read_corpus(
    path: &Path,
    format: Format,
    text_column: &str,
) -> Result<DataFrame, DatasetError> {
    let file = path.display().to_string();
    let mut scan = Scan::open(path, format)?;
    let schema = scan.schema()?;
    let text_type = column_type(&file, &schema, text_column)?;
    let kept: Vec<&str> = [CATEGORY_COLUMN, NAME_COLUMN]
        .into_iter()
        .filter(|c| *c != text_column && schema.get(c).is_some())
        .collect();

    let mut text_columns = kept.clone();
    text_columns.push(text_column);
    match format {
        // CSV has no types: a column polars inferred as numbers is still text, and is read again
        // as text so that "007" stays "007".
        Format::Csv => scan = Scan::csv(path, &text_columns)?,
        _ => require_text(&file, text_column, text_type)?,
    }

    let mut select: Vec<Expr> = kept
        .iter()
        .map(|c| col(*c).cast(DataType::String))
        .collect();
    select.push(col(text_column).alias(TEXT_COLUMN));
    let frame = scan.collect(select)?;
    no_missing_values(&file, &frame, TEXT_COLUMN, text_column)?;
    Ok(frame)
}

/// A (word, count) table in a CSV or Parquet file.
pub(crate) fn read_word_counts(
    path: &Path,
    format: Format,
    word_column: &str,
    count_column: &str,
) -> Result<WordCounts, DatasetError> {
    let file = path.display().to_string();
    let mut scan = Scan::open(path, format)?;
    let schema = scan.schema()?;
    let word_type = column_type(&file, &schema, word_column)?.clone();
    let count_type = column_type(&file, &schema, count_column)?.clone();
    if !count_type.is_integer() {
        return Err(DatasetError::WrongType {
            file,
            column: count_column.to_owned(),
            found: count_type.to_string(),
            expected: "whole numbers (an integer column)",
        });
    }
    match format {
        Format::Csv => scan = Scan::csv(path, &[word_column])?,
        _ => require_text(&file, word_column, &word_type)?,
    }

    // Unsigned counts widen to u64 losslessly; signed ones to i64, checked for negatives below.
    let count_as = if count_type.is_unsigned_integer() {
        DataType::UInt64
    } else {
        DataType::Int64
    };
    let frame = scan.collect(vec![
        col(word_column),
        col(count_column).cast(count_as.clone()),
    ])?;
    no_missing_values(&file, &frame, word_column, word_column)?;
    no_missing_values(&file, &frame, count_column, count_column)?;

    let polars = |e| DatasetError::Polars {
        file: file.clone(),
        error: e,
    };
    let words = frame
        .column(word_column)
        .and_then(|c| c.str())
        .map_err(polars)?;
    let counts: Vec<u64> = if count_as == DataType::UInt64 {
        let counts = frame
            .column(count_column)
            .and_then(|c| c.u64())
            .map_err(polars)?;
        counts.into_no_null_iter().collect()
    } else {
        let counts = frame
            .column(count_column)
            .and_then(|c| c.i64())
            .map_err(polars)?;
        let mut out = Vec::with_capacity(counts.len());
        for (row, count) in counts.into_no_null_iter().enumerate() {
            let count = u64::try_from(count).map_err(|_| {
                DatasetError::shape(
                    file.clone(),
                    format!(
                        "row {}: column \"{count_column}\" is {count}; a count cannot be negative",
                        row + 1
                    ),
                )
            })?;
            out.push(count);
        }
        out
    };
    // Missing words were ruled out above, so no word is replaced by "" here.
    let words = words.iter().map(Option::unwrap_or_default);
    Ok(WordCounts::from_word_counts(words.zip(counts)))
}

/// A lazy scan of one file, with errors that name it.
struct Scan {
    file: String,
    frame: LazyFrame,
}

impl Scan {
    fn open(path: &Path, format: Format) -> Result<Scan, DatasetError> {
        match format {
            Format::Csv => Scan::csv(path, &[]),
            Format::Parquet => {
                let location = checked_location(path)?;
                let args = ScanArgsParquet {
                    glob: false,
                    ..Default::default()
                };
                let frame = LazyFrame::scan_parquet(location, args).map_err(|e| polars(path, e))?;
                Ok(Scan {
                    file: path.display().to_string(),
                    frame,
                })
            }
            other => unreachable!("{other} is not read through polars"),
        }
    }

    /// A CSV scan with a header row; `text_columns` are read as text whatever they look like.
    fn csv(path: &Path, text_columns: &[&str]) -> Result<Scan, DatasetError> {
        let location = checked_location(path)?;
        let overwrite = (!text_columns.is_empty()).then(|| {
            Arc::new(Schema::from_iter(
                text_columns
                    .iter()
                    .map(|c| Field::new(PlSmallStr::from_str(c), DataType::String)),
            ))
        });
        let frame = LazyCsvReader::new(location)
            .with_has_header(true)
            // A file name is a file name, not a glob pattern.
            .with_glob(false)
            // An empty field is an empty paragraph, not a missing one.
            .with_missing_is_null(false)
            .with_dtype_overwrite(overwrite)
            .finish()
            .map_err(|e| polars(path, e))?;
        Ok(Scan {
            file: path.display().to_string(),
            frame,
        })
    }

    fn schema(&mut self) -> Result<Arc<Schema>, DatasetError> {
        self.frame
            .collect_schema()
            .map_err(|error| DatasetError::Polars {
                file: self.file.clone(),
                error,
            })
    }

    fn collect(self, select: Vec<Expr>) -> Result<DataFrame, DatasetError> {
        self.frame
            .select(select)
            .collect_with_engine(Engine::Streaming)
            .map(|result| result.unwrap_single())
            .map_err(|error| DatasetError::Polars {
                file: self.file,
                error,
            })
    }
}

/// The path as polars takes it, after checking that it is a readable file: polars' own
/// messages for a missing file or a directory are less direct than ours.
fn checked_location(path: &Path) -> Result<PlRefPath, DatasetError> {
    let metadata = fs::metadata(path).map_err(|e| DatasetError::io(path, e))?;
    if metadata.is_dir() {
        let error = io::Error::from(io::ErrorKind::IsADirectory);
        return Err(DatasetError::io(path, error));
    }
    PlRefPath::try_from_path(path).map_err(|e| polars(path, e))
}

fn column_type<'s>(
    file: &str,
    schema: &'s Schema,
    column: &str,
) -> Result<&'s DataType, DatasetError> {
    schema
        .get(column)
        .ok_or_else(|| DatasetError::MissingColumn {
            file: file.to_owned(),
            column: column.to_owned(),
            found: schema.iter_names().map(|n| n.to_string()).collect(),
        })
}

fn require_text(file: &str, column: &str, dtype: &DataType) -> Result<(), DatasetError> {
    if dtype.is_string() {
        Ok(())
    } else {
        Err(DatasetError::WrongType {
            file: file.to_owned(),
            column: column.to_owned(),
            found: dtype.to_string(),
            expected: "text (a String column)",
        })
    }
}

/// Fails on the first missing (null) value of `column`, naming the file's column and the row.
fn no_missing_values(
    file: &str,
    frame: &DataFrame,
    column: &str,
    file_column: &str,
) -> Result<(), DatasetError> {
    let Ok(values) = frame.column(column) else {
        return Ok(());
    };
    let missing = values.null_count();
    if missing == 0 {
        return Ok(());
    }
    let first = values
        .as_materialized_series()
        .iter()
        .position(|v| v.is_null())
        .unwrap_or(0);
    Err(DatasetError::shape(
        file,
        format!(
            "column \"{file_column}\" has {missing} missing value{} (the first in row {})",
            if missing == 1 { "" } else { "s" },
            first + 1
        ),
    ))
}

fn polars(path: &Path, error: PolarsError) -> DatasetError {
    DatasetError::Polars {
        file: path.display().to_string(),
        error,
    }
}
