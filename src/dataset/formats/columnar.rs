//! CSV and Parquet through polars' lazy scans: the schema is checked before anything is read,
//! only the needed columns are projected, and the query runs on the streaming engine, so a
//! large file never has to fit in memory beyond the columns that are kept.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::{Arc, mpsc};

use polars::prelude::{
    Column, DataFrame, DataType, Engine, Expr, Field, LazyCsvReader, LazyFileListReader, LazyFrame,
    PlRefPath, PlSmallStr, PlanCallback, PolarsError, PolarsResult, ScanArgsParquet, Schema, col,
};

use super::format::Format;
use super::records::{CATEGORY_COLUMN, NAME_COLUMN, TEXT_COLUMN};
use crate::dataset::error::DatasetError;

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

/// Calls `each` with every (word, count) row of a table file, read batch by batch on the
/// streaming engine. Words must be text and present; counts whole numbers, zero or more, and
/// present. Errors name the file, the column
/// and (for a bad value) the row, counted from 1 without the header.
pub(crate) fn add_word_counts(
    path: &Path,
    format: Format,
    word_column: &str,
    count_column: &str,
    each: &mut dyn FnMut(&str, u64),
) -> Result<(), DatasetError> {
    let file = path.display().to_string();
    let mut scan = Scan::open(path, format)?;
    let schema = scan.schema()?;
    let word_type = column_type(&file, &schema, word_column)?.clone();
    let count_type = column_type(&file, &schema, count_column)?.clone();
    let counts = match format {
        // CSV has no types: both columns are read as text and each count parsed here, so a bad
        // one is reported with its row rather than as a column polars typed otherwise.
        Format::Csv => {
            scan = Scan::csv(path, &[word_column, count_column])?;
            CountColumn::Text
        }
        _ => {
            require_text(&file, word_column, &word_type)?;
            if !count_type.is_integer() {
                return Err(DatasetError::WrongType {
                    file,
                    column: count_column.to_owned(),
                    found: count_type.to_string(),
                    expected: "whole numbers (an integer column)",
                });
            }
            // Unsigned counts widen to u64 losslessly; signed ones to i64, checked below.
            if count_type.is_unsigned_integer() {
                CountColumn::Unsigned
            } else {
                CountColumn::Signed
            }
        }
    };
    let select = vec![col(word_column), counts.cast(col(count_column))];
    let mut missing = [Missing::new(word_column), Missing::new(count_column)];
    let mut rows = 0u64;
    scan.for_each_batch(select, |batch| {
        let polars = |error| DatasetError::Polars {
            file: file.clone(),
            error,
        };
        let words = batch
            .column(word_column)
            .and_then(|c| c.str())
            .map_err(polars)?;
        let values = batch
            .column(count_column)
            .and_then(|c| counts.values(c))
            .map_err(polars)?;
        for ((word, count), row) in words.iter().zip(values).zip(rows + 1..) {
            let count = count.map_err(|why| bad_count(&file, count_column, row, why))?;
            match (word, count) {
                (Some(word), Some(count)) => each(word, count),
                (word, count) => {
                    missing[0].saw(row, word.is_none());
                    missing[1].saw(row, count.is_none());
                }
            }
        }
        rows += batch.height() as u64;
        Ok(true)
    })?;
    for column in &missing {
        column.check(&file)?;
    }
    Ok(())
}

/// The names of a table file's columns, from its schema (nothing else is read): what tells a
/// word table from a chunk table.
pub(crate) fn column_names(path: &Path, format: Format) -> Result<Vec<String>, DatasetError> {
    let schema = Scan::open(path, format)?.schema()?;
    Ok(schema.iter_names().map(|n| n.to_string()).collect())
}

/// The distinct values of a text column, in order of first appearance, up to `at_most` of
/// them (the scan stops there): for a column that says how the whole table was made (a chunk
/// table's pattern), which should hold one value. A missing value is an error naming its row.
pub(crate) fn distinct_text_values(
    path: &Path,
    format: Format,
    column: &str,
    at_most: usize,
) -> Result<Vec<String>, DatasetError> {
    let file = path.display().to_string();
    let mut scan = Scan::open(path, format)?;
    let schema = scan.schema()?;
    let dtype = column_type(&file, &schema, column)?.clone();
    match format {
        Format::Csv => scan = Scan::csv(path, &[column])?,
        _ => require_text(&file, column, &dtype)?,
    }
    let mut values: Vec<String> = Vec::new();
    let mut missing = Missing::new(column);
    let mut rows = 0u64;
    scan.for_each_batch(vec![col(column)], |batch| {
        let text = batch
            .column(column)
            .and_then(|c| c.str())
            .map_err(|error| DatasetError::Polars {
                file: file.clone(),
                error,
            })?;
        for (value, row) in text.iter().zip(rows + 1..) {
            match value {
                Some(value) if values.iter().any(|v| v == value) => {}
                Some(value) => values.push(value.to_owned()),
                None => missing.saw(row, true),
            }
        }
        rows += batch.height() as u64;
        Ok(values.len() < at_most && missing.count == 0)
    })?;
    missing.check(&file)?;
    Ok(values)
}

/// How the count column is read, by the type the file gives it.
#[derive(Clone, Copy)]
enum CountColumn {
    Text,
    Signed,
    Unsigned,
}

/// Why a count is not a count: its text, or a negative value.
enum BadCount {
    NotWhole(String),
    Negative(i64),
}

impl CountColumn {
    fn cast(self, count: Expr) -> Expr {
        match self {
            CountColumn::Text => count,
            CountColumn::Signed => count.cast(DataType::Int64),
            CountColumn::Unsigned => count.cast(DataType::UInt64),
        }
    }

    /// The counts of a batch's column in order; `None` where one is missing.
    fn values(
        self,
        column: &Column,
    ) -> PolarsResult<Box<dyn Iterator<Item = Result<Option<u64>, BadCount>> + '_>> {
        let signed = |n: i64| u64::try_from(n).map_err(|_| BadCount::Negative(n));
        Ok(match self {
            CountColumn::Text => Box::new(column.str()?.iter().map(move |text| {
                text.map(|text| match text.trim().parse::<i64>() {
                    Ok(n) => signed(n),
                    // Beyond i64 but maybe still a count.
                    Err(_) => (text.trim().parse::<u64>())
                        .map_err(|_| BadCount::NotWhole(text.to_owned())),
                })
                .transpose()
            })),
            CountColumn::Signed => {
                Box::new(column.i64()?.iter().map(move |n| n.map(signed).transpose()))
            }
            CountColumn::Unsigned => Box::new(column.u64()?.iter().map(Ok)),
        })
    }
}

fn bad_count(file: &str, column: &str, row: u64, why: BadCount) -> DatasetError {
    match why {
        BadCount::Negative(n) => DatasetError::shape(
            file,
            format!("row {row}: column \"{column}\" is {n}; a count cannot be negative"),
        ),
        BadCount::NotWhole(text) => DatasetError::WrongType {
            file: file.to_owned(),
            column: column.to_owned(),
            found: format!("{text:?} in row {row}"),
            expected: "a whole number of occurrences (0, 1, 2, …)",
        },
    }
}

/// Missing values of one column met so far: how many, and the first row.
struct Missing<'a> {
    column: &'a str,
    count: u64,
    first: u64,
}

impl<'a> Missing<'a> {
    fn new(column: &'a str) -> Self {
        Missing {
            column,
            count: 0,
            first: 0,
        }
    }

    fn saw(&mut self, row: u64, is_missing: bool) {
        if is_missing {
            if self.count == 0 {
                self.first = row;
            }
            self.count += 1;
        }
    }

    fn check(&self, file: &str) -> Result<(), DatasetError> {
        if self.count == 0 {
            return Ok(());
        }
        Err(missing_values(file, self.column, self.count, self.first))
    }
}

/// Calls `each` with every paragraph in the text column of a CSV or Parquet corpus, in order,
/// batch by batch on the streaming engine; a missing value is an error naming its row.
pub(crate) fn for_each_paragraph(
    path: &Path,
    format: Format,
    text_column: &str,
    each: &mut dyn FnMut(&str),
) -> Result<(), DatasetError> {
    let file = path.display().to_string();
    let mut scan = Scan::open(path, format)?;
    let schema = scan.schema()?;
    let text_type = column_type(&file, &schema, text_column)?;
    match format {
        Format::Csv => scan = Scan::csv(path, &[text_column])?,
        _ => require_text(&file, text_column, text_type)?,
    }
    let mut missing = Missing::new(text_column);
    let mut rows = 0u64;
    scan.for_each_batch(vec![col(text_column)], |batch| {
        let text = batch
            .column(text_column)
            .and_then(|c| c.str())
            .map_err(|error| DatasetError::Polars {
                file: file.clone(),
                error,
            })?;
        for (paragraph, row) in text.iter().zip(rows + 1..) {
            match paragraph {
                Some(paragraph) => each(paragraph),
                None => missing.saw(row, true),
            }
        }
        rows += batch.height() as u64;
        Ok(true)
    })?;
    missing.check(&file)
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

    /// Runs the query on the streaming engine and hands its result to `each` one batch at a
    /// time, in order, so that only a batch or two are in memory whatever the file's size.
    /// `each` returns `Ok(false)` to stop early; its error ends the scan and is returned.
    fn for_each_batch(
        self,
        select: Vec<Expr>,
        mut each: impl FnMut(&DataFrame) -> Result<bool, DatasetError>,
    ) -> Result<(), DatasetError> {
        // polars calls the sink from its own threads and wants a 'static callback, so batches
        // cross a small channel to this thread; a full channel holds the scan back.
        let (send, receive) = mpsc::sync_channel::<DataFrame>(2);
        let plan = self
            .frame
            .select(select)
            .sink_batches(
                PlanCallback::new(move |batch: DataFrame| Ok(send.send(batch).is_err())),
                true,
                None,
            )
            .map_err(|error| DatasetError::Polars {
                file: self.file.clone(),
                error,
            })?;
        let file = self.file;
        std::thread::scope(|scope| {
            let query = scope.spawn(move || plan.collect_with_engine(Engine::Streaming).map(drop));
            let mut outcome = Ok(());
            for batch in receive.iter() {
                match each(&batch) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
            }
            // Dropping the receiver makes the sink's next send fail, which stops the query.
            drop(receive);
            let finished = query.join().expect("the polars query thread panicked");
            outcome?;
            finished.map_err(|error| DatasetError::Polars { file, error })
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
    Err(missing_values(
        file,
        file_column,
        missing as u64,
        first as u64 + 1,
    ))
}

/// `column "x" has 2 missing values (the first in row 5)`; `first` counts from 1.
fn missing_values(file: &str, column: &str, missing: u64, first: u64) -> DatasetError {
    DatasetError::shape(
        file,
        format!(
            "column \"{column}\" has {missing} missing value{} (the first in row {first})",
            if missing == 1 { "" } else { "s" },
        ),
    )
}

fn polars(path: &Path, error: PolarsError) -> DatasetError {
    DatasetError::Polars {
        file: path.display().to_string(),
        error,
    }
}
