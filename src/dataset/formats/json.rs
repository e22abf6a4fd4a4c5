//! JSON arrays of objects (as Africa Galore is published) and JSON Lines.
//!
//! Both are parsed with serde_json rather than polars: it reports the line and column of a
//! syntax error, an array is read as a stream (one item in memory at a time, only the used
//! fields kept), and the same check validates a download before it is cached.

use std::io::{self, BufReader};
use std::path::Path;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde_json::Value;

use super::records::{CATEGORY_COLUMN, Fields, NAME_COLUMN, Records};
use super::text;
use crate::dataset::error::DatasetError;
use crate::files::{json_kind as kind, json_message};

/// Why bytes are not a usable JSON corpus: not JSON at all, or JSON of another shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JsonProblem {
    /// Not well-formed JSON; 1-based line and column (in bytes) of the first error.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// Well-formed, but not an array of objects with a string text field.
    Shape(String),
}

/// The records of a JSON array held in memory (a download, the cache, the bundled stand-in).
#[cfg_attr(not(feature = "africa-galore"), allow(dead_code))]
pub(crate) fn records_from_json_slice(
    bytes: &[u8],
    text_field: &str,
) -> Result<Records, JsonProblem> {
    parse_records(serde_json::Deserializer::from_slice(bytes), text_field).map_err(|e| classify(&e))
}

/// Reads one JSON array of records from `de`, requiring nothing after it.
fn parse_records<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    text_field: &str,
) -> Result<Records, serde_json::Error> {
    let mut records = Records::default();
    RecordArray {
        text_field,
        records: &mut records,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(records)
}

/// The records of a JSON array file, parsed as a stream.
pub(crate) fn read_json_file(path: &Path, text_field: &str) -> Result<Records, DatasetError> {
    let mut reader = BufReader::new(text::open(path)?);
    skip_bom(&mut reader).map_err(|e| DatasetError::io(path, e))?;
    let de = serde_json::Deserializer::from_reader(reader);
    match parse_records(de, text_field) {
        Ok(records) => Ok(records),
        Err(e) if e.is_io() => Err(DatasetError::io(path, io::Error::from(e))),
        Err(e) => Err(match classify(&e) {
            JsonProblem::Syntax {
                line,
                column,
                message,
            } => DatasetError::Malformed {
                file: path.display().to_string(),
                line: Some(line),
                column: Some(column),
                message,
            },
            JsonProblem::Shape(message) => DatasetError::shape(path.display().to_string(), message),
        }),
    }
}

/// Moves `reader` past a byte-order mark at its start, if there is one (see
/// [`crate::files::lines`]: an editor's mark is not text, in any format).
fn skip_bom(reader: &mut impl io::BufRead) -> io::Result<()> {
    let bom = crate::files::lines::BOM.as_bytes();
    if reader.fill_buf()?.starts_with(bom) {
        reader.consume(bom.len());
    }
    Ok(())
}

/// The records of a JSON Lines file: one object per line, blank lines skipped.
#[cfg(feature = "dataset")]
pub(crate) fn read_json_lines_file(path: &Path, text_field: &str) -> Result<Records, DatasetError> {
    let mut records = Records::default();
    for_each_json_line(
        path,
        text_field,
        &mut |record| records.push_fields(record),
        &mut |_| {},
    )?;
    Ok(records)
}

/// Calls `each` with the record of every line of a JSON Lines file in order, reading one line
/// at a time (the lines of [`crate::files::lines`]; blank ones skipped); `progress` hears the
/// bytes read so far, about once a megabyte.
pub(crate) fn for_each_json_line(
    path: &Path,
    text_field: &str,
    each: &mut dyn FnMut(Fields),
    progress: &mut dyn FnMut(u64),
) -> Result<(), DatasetError> {
    let file_name = || path.display().to_string();
    let mut each_line = |line: &str, number: u64| {
        let content = line.trim();
        if content.is_empty() {
            return Ok(());
        }
        let value: Value = serde_json::from_str(content).map_err(|e| DatasetError::Malformed {
            file: file_name(),
            line: Some(number as usize),
            column: Some(e.column()),
            message: json_message(&e),
        })?;
        let record = record_fields(value, text_field, &format!("line {number}"))
            .map_err(|message| DatasetError::shape(file_name(), message))?;
        each(record);
        Ok(())
    };
    text::each_line(path, &mut each_line, progress)
}

/// Visits a top-level array, turning each item into a record as soon as it is parsed.
struct RecordArray<'a> {
    text_field: &'a str,
    records: &'a mut Records,
}

impl<'de> DeserializeSeed<'de> for RecordArray<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RecordArray<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "a JSON array of objects with a string \"{}\" field",
            self.text_field
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        while let Some(item) = seq.next_element::<Value>()? {
            push_record(
                self.records,
                item,
                self.text_field,
                &format!("item {index}"),
            )
            .map_err(de::Error::custom)?;
            index += 1;
        }
        Ok(())
    }
}

/// Adds the record held by `value`, or says (about `subject`, e.g. "item 3") why it is not one.
fn push_record(
    records: &mut Records,
    value: Value,
    text_field: &str,
    subject: &str,
) -> Result<(), String> {
    records.push_fields(record_fields(value, text_field, subject)?);
    Ok(())
}

/// The fields of the record held by `value`, or why (about `subject`) it is not one.
fn record_fields(value: Value, text_field: &str, subject: &str) -> Result<Fields, String> {
    let Value::Object(mut object) = value else {
        return Err(format!(
            "{subject} is {}, expected an object with a string \"{text_field}\" field",
            kind(&value)
        ));
    };
    let text = match object.remove(text_field) {
        Some(Value::String(text)) => text,
        Some(other) => {
            return Err(format!(
                "{subject}: \"{text_field}\" is {}, expected a string",
                kind(&other)
            ));
        }
        None => return Err(format!("{subject} has no \"{text_field}\" field")),
    };
    let category = object.remove(CATEGORY_COLUMN).map(optional_text);
    let name = object.remove(NAME_COLUMN).map(optional_text);
    Ok((category, name, text))
}

/// A kept field's value as text: strings as they are, null as missing, anything else (a number,
/// say) as its JSON text rather than an error, since only the paragraphs are required.
fn optional_text(value: Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    }
}

fn classify(e: &serde_json::Error) -> JsonProblem {
    let message = json_message(e);
    if e.is_syntax() || e.is_eof() {
        JsonProblem::Syntax {
            line: e.line(),
            column: e.column(),
            message,
        }
    } else {
        JsonProblem::Shape(format!(
            "{message} (line {}, column {})",
            e.line(),
            e.column()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(json: &str) -> String {
        match records_from_json_slice(json.as_bytes(), "description") {
            Err(JsonProblem::Shape(m)) => m,
            other => panic!("expected a shape problem, got {other:?}"),
        }
    }

    #[test]
    fn reads_the_fields_it_keeps() {
        let json = r#"[{"category": "Food", "name": "Injera", "description": "A meal", "x": 1},
                       {"description": "No extras", "name": null}]"#;
        let records = records_from_json_slice(json.as_bytes(), "description").unwrap();
        assert_eq!(records.text, ["A meal", "No extras"]);
        assert_eq!(records.category, [Some("Food".to_owned()), None]);
        assert_eq!(records.name, [Some("Injera".to_owned()), None]);
        assert!(records.has_category && records.has_name);
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let json = b"[\n  {\"description\": \"a\"},\n  {oops}\n]";
        let problem = records_from_json_slice(json, "description");
        match problem {
            Err(JsonProblem::Syntax { line, column, .. }) => assert_eq!((line, column), (3, 4)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shape_errors_name_the_item_and_the_field() {
        assert!(shape(r#"{"description": "a"}"#).contains("expected a JSON array of objects"));
        assert!(shape(r#"[{"description": "a"}, 7]"#).starts_with("item 1 is a number"));
        assert!(
            shape(r#"[{"description": "a"}, {"text": "b"}]"#)
                .starts_with("item 1 has no \"description\" field")
        );
        assert!(
            shape(r#"[{"description": ["a"]}]"#)
                .starts_with("item 0: \"description\" is an array, expected a string")
        );
    }

    #[test]
    fn trailing_content_is_an_error() {
        assert!(matches!(
            records_from_json_slice(br#"[{"description": "a"}] []"#, "description"),
            Err(JsonProblem::Syntax { .. })
        ));
    }
}
