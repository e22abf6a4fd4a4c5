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
    let mut records = Records::default();
    for_each_line(
        path,
        &mut |text| records.push_text(text.to_owned()),
        &mut |_| {},
    )?;
    Ok(records)
}

/// Calls `each` with every paragraph (non-empty line) of the file in order, reading one line at
/// a time; `progress` hears the bytes read so far, about once a megabyte.
pub(crate) fn for_each_line(
    path: &Path,
    each: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u64),
) -> Result<(), DatasetError> {
    let file = File::open(path).map_err(|e| DatasetError::io(path, e))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut read, mut reported) = (0u64, 0u64);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| DatasetError::io(path, e))?;
        if n == 0 {
            break;
        }
        read += n as u64;
        if read - reported >= 1 << 20 {
            progress(read);
            reported = read;
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
            Ok(text) => each(text),
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
    progress(read);
    Ok(())
}
