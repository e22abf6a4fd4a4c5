//! Plain UTF-8 text, one paragraph per line, read line by line or (for the parallel word
//! counter) whole. Both follow [`crate::files::lines`], so the same file gives the same
//! paragraphs either way.

use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::dataset::error::DatasetError;
use crate::files::InvalidUtf8;
use crate::files::lines::{line_body, strip_bom, strip_bom_bytes};

/// Calls `each` with every paragraph (non-empty line) of the file in order, reading one line at
/// a time; `progress` hears the bytes read so far, about once a megabyte.
pub(crate) fn for_each_line(
    path: &Path,
    each: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u64),
) -> Result<(), DatasetError> {
    each_line(
        path,
        &mut |text, _| {
            if !text.is_empty() {
                each(text);
            }
            Ok(())
        },
        progress,
    )
}

/// Calls `each` with every line of the file, without its ending (the first without a
/// byte-order mark) and its 1-based number; stops at `each`'s first error. A line that is not
/// UTF-8 is an error naming the file, the line and the byte. `progress` hears the bytes read
/// so far, about once a megabyte and at the end.
pub(crate) fn each_line(
    path: &Path,
    each: &mut dyn FnMut(&str, u64) -> Result<(), DatasetError>,
    progress: &mut dyn FnMut(u64),
) -> Result<(), DatasetError> {
    let file = open(path)?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut offset, mut reported) = (0u64, 0u64);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| DatasetError::io(path, e))?;
        if n == 0 {
            break;
        }
        let (bytes, skipped) = if number == 1 {
            let rest = strip_bom_bytes(&line);
            (rest, (line.len() - rest.len()) as u64)
        } else {
            (&line[..], 0)
        };
        let text = std::str::from_utf8(bytes).map_err(|e| {
            InvalidUtf8::locate(
                InvalidUtf8::file_name(path),
                bytes,
                offset + skipped,
                number,
                e,
            )
        })?;
        each(line_body(text), number)?;
        offset += n as u64;
        if offset - reported >= 1 << 20 {
            progress(offset);
            reported = offset;
        }
    }
    progress(offset);
    Ok(())
}

/// The whole file as text, without a byte-order mark; invalid UTF-8 is an error naming the
/// file, the line and the byte.
pub(crate) fn read_whole(path: &Path) -> Result<String, DatasetError> {
    open(path)?;
    let bytes = fs::read(path).map_err(|e| DatasetError::io(path, e))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(match strip_bom(&text).len() {
            len if len == text.len() => text,
            len => text[text.len() - len..].to_owned(),
        }),
        Err(e) => {
            let error = e.utf8_error();
            Err(InvalidUtf8::locate(InvalidUtf8::file_name(path), e.as_bytes(), 0, 1, error).into())
        }
    }
}

/// Opens `path` for reading; a directory is an error (reading one fails with an OS-specific
/// error, or on some systems not at all).
pub(crate) fn open(path: &Path) -> Result<File, DatasetError> {
    let metadata = fs::metadata(path).map_err(|e| DatasetError::io(path, e))?;
    if metadata.is_dir() {
        let error = std::io::Error::from(std::io::ErrorKind::IsADirectory);
        return Err(DatasetError::io(path, error));
    }
    File::open(path).map_err(|e| DatasetError::io(path, e))
}
