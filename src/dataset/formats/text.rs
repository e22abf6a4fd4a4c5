//! Plain UTF-8 text, one paragraph per line, read line by line.
//!
//! The rules are those of `bpe-lab train` and [`crate::WordCounts::from_lines`]: a trailing
//! `\r` is dropped and empty lines are skipped, so the same file gives the same paragraphs
//! here and there. A line of spaces is a paragraph (of empty words), as in the lab.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use super::Records;
use crate::dataset::DatasetError;

pub(crate) fn read_text_file(path: &Path) -> Result<Records, DatasetError> {
    let file = File::open(path).map_err(|e| DatasetError::io(path, e))?;
    let mut reader = BufReader::new(file);
    let mut records = Records::default();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        if reader
            .read_until(b'\n', &mut line)
            .map_err(|e| DatasetError::io(path, e))?
            == 0
        {
            break;
        }
        let mut bytes = line.as_slice();
        bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if number == 1 {
            // A byte-order mark some editors write first is not part of the text.
            bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        }
        if bytes.is_empty() {
            continue;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => records.push_text(text.to_owned()),
            Err(e) => {
                let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
                return Err(DatasetError::Malformed {
                    file: path.display().to_string(),
                    line: Some(number),
                    column: Some(valid.chars().count() + 1),
                    message: "not valid UTF-8 (the corpus must be UTF-8 text)".to_owned(),
                });
            }
        }
    }
    Ok(records)
}
