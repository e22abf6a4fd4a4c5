//! What can go wrong loading a corpus or the dataset, worded for the person who has to fix it:
//! every message names the file (or URL) and what was expected there.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(feature = "dataset")]
use polars::prelude::PolarsError;

use crate::dataset::formats::format::Format;
use crate::files::InvalidUtf8;

/// A corpus or the dataset could not be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum DatasetError {
    /// A file could not be opened or read.
    Io { path: PathBuf, error: io::Error },
    /// The text is not well-formed (JSON syntax, a line that is not UTF-8, a CSV that does not
    /// parse). `line` and `column` are 1-based when known.
    Malformed {
        file: String,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    /// The data parses but is not shaped as expected (not an array of objects, an item without
    /// the text field, a field of the wrong type, a missing value).
    Shape { file: String, message: String },
    /// A table has no column of that name.
    MissingColumn {
        file: String,
        column: String,
        found: Vec<String>,
    },
    /// A column holds another type than the one needed.
    WrongType {
        file: String,
        column: String,
        found: String,
        expected: &'static str,
    },
    /// A text file (or a line of one) is not UTF-8; says where.
    InvalidUtf8(InvalidUtf8),
    /// The format cannot be told from the file name.
    UnknownFormat { path: PathBuf },
    /// Reading this format needs a feature this build of bpe-lab was compiled without.
    NeedsFeature {
        path: PathBuf,
        format: Format,
        feature: &'static str,
    },
    /// The download was required (`refresh`, or the stand-in was not allowed) and failed.
    Download {
        url: String,
        failure: DownloadFailure,
    },
    /// The real dataset was required but the network was switched off and nothing was cached.
    Offline { reason: String },
    /// polars failed in a way the checks above did not foresee.
    #[cfg(feature = "dataset")]
    Polars { file: String, error: PolarsError },
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Io { path, error } => {
                write!(
                    f,
                    "cannot read '{}': {}",
                    path.display(),
                    crate::files::describe_io_error(error)
                )
            }
            DatasetError::Malformed {
                file,
                line,
                column,
                message,
            } => {
                write!(f, "'{file}'")?;
                match (line, column) {
                    (Some(l), Some(c)) => write!(f, " at line {l}, column {c}")?,
                    (Some(l), None) => write!(f, " at line {l}")?,
                    _ => {}
                }
                write!(f, ": {message}")
            }
            DatasetError::Shape { file, message } => write!(f, "'{file}': {message}"),
            DatasetError::MissingColumn {
                file,
                column,
                found,
            } => write!(
                f,
                "'{file}': no column \"{column}\" (the columns are: {})",
                quoted_list(found)
            ),
            DatasetError::WrongType {
                file,
                column,
                found,
                expected,
            } => write!(
                f,
                "'{file}': column \"{column}\" holds {found}, expected {expected}"
            ),
            DatasetError::InvalidUtf8(bad) => write!(f, "{bad}"),
            DatasetError::NeedsFeature {
                path,
                format,
                feature,
            } => write!(
                f,
                "cannot read '{}': reading {format} needs bpe-lab built with its `{feature}` \
                 feature (on by default; this build was made without it)",
                path.display()
            ),
            DatasetError::UnknownFormat { path } => write!(
                f,
                "cannot tell the format of '{}' from its extension: expected .json, .jsonl, \
                 .ndjson, .csv, .parquet or .txt, or a format named explicitly",
                path.display()
            ),
            DatasetError::Download { url, failure } => {
                write!(f, "could not download {url}: {failure}")
            }
            DatasetError::Offline { reason } => f.write_str(reason),
            #[cfg(feature = "dataset")]
            DatasetError::Polars { file, error } => write!(f, "'{file}': {error}"),
        }
    }
}

impl std::error::Error for DatasetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatasetError::Io { error, .. } => Some(error),
            DatasetError::Download { failure, .. } => Some(failure),
            DatasetError::InvalidUtf8(bad) => Some(bad),
            #[cfg(feature = "dataset")]
            DatasetError::Polars { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl DatasetError {
    pub(crate) fn io(path: &Path, error: io::Error) -> Self {
        DatasetError::Io {
            path: path.to_owned(),
            error,
        }
    }

    pub(crate) fn shape(file: impl Into<String>, message: impl Into<String>) -> Self {
        DatasetError::Shape {
            file: file.into(),
            message: message.into(),
        }
    }

    /// CSV and Parquet need polars' lazy engine, which builds only with the `columnar` feature.
    #[cfg(not(feature = "columnar"))]
    pub(crate) fn needs_columnar(path: &Path, format: Format) -> Self {
        DatasetError::NeedsFeature {
            path: path.to_owned(),
            format,
            feature: "columnar",
        }
    }
}

impl From<InvalidUtf8> for DatasetError {
    fn from(bad: InvalidUtf8) -> Self {
        DatasetError::InvalidUtf8(bad)
    }
}

/// Why a download did not give a usable copy of the dataset. Shown after "download failed: ".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DownloadFailure {
    /// Not a URL, or not one this loader fetches (only https, and http to the loopback address).
    BadUrl(String),
    /// No connection could be made (refused, unknown host, TLS failure, …).
    Connect(String),
    /// The connection was made but nothing came back in time.
    ConnectTimeout(Duration),
    /// The whole transfer took longer than the total timeout.
    Timeout(Duration),
    /// The server answered with an error status.
    Status { code: u16, reason: String },
    /// The file is larger than the size cap (`announced`: what Content-Length said, if it did).
    TooLarge { limit: u64, announced: Option<u64> },
    /// The connection closed before the whole file arrived.
    Truncated {
        received: u64,
        expected: Option<u64>,
    },
    /// Any other transport error.
    Http(String),
    /// The body is not JSON (1-based line and column of the first error).
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    /// The body is JSON but not an array of objects with a string `description`.
    WrongShape(String),
}

impl fmt::Display for DownloadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DownloadFailure::BadUrl(why) => f.write_str(why),
            DownloadFailure::Connect(why) => write!(f, "could not connect: {why}"),
            DownloadFailure::ConnectTimeout(d) => {
                write!(f, "could not connect within {}", seconds(*d))
            }
            DownloadFailure::Timeout(d) => write!(f, "timed out after {}", seconds(*d)),
            DownloadFailure::Status { code, reason } => {
                write!(f, "the server answered {code}")?;
                if !reason.is_empty() {
                    write!(f, " {reason}")?;
                }
                Ok(())
            }
            DownloadFailure::TooLarge { limit, announced } => {
                write!(f, "the file is larger than the limit of {limit} bytes")?;
                if let Some(size) = announced {
                    write!(f, " (the server announced {size} bytes)")?;
                }
                Ok(())
            }
            DownloadFailure::Truncated { received, expected } => {
                write!(f, "the connection closed after {received} bytes")?;
                if let Some(total) = expected {
                    write!(f, " of {total}")?;
                }
                f.write_str(" (incomplete file)")
            }
            DownloadFailure::Http(why) => f.write_str(why),
            DownloadFailure::NotJson {
                line,
                column,
                message,
            } => write!(
                f,
                "the file is not valid JSON (line {line}, column {column}: {message})"
            ),
            DownloadFailure::WrongShape(why) => write!(f, "the file is not the dataset: {why}"),
        }
    }
}

impl std::error::Error for DownloadFailure {}

impl DownloadFailure {
    /// The failure as a student would put it: what happened, without the resolver's or the
    /// TLS library's vocabulary. The full text stays available through `Display`.
    pub fn in_plain_words(&self) -> String {
        match self {
            DownloadFailure::Connect(why) if is_name_lookup(why) => {
                "no network: the server's name could not be looked up".to_owned()
            }
            DownloadFailure::Connect(why) if why.to_ascii_lowercase().contains("refused") => {
                "the server refused the connection".to_owned()
            }
            DownloadFailure::Connect(_) => "no connection to the server".to_owned(),
            DownloadFailure::ConnectTimeout(d) => {
                format!("no answer from the server within {}", seconds(*d))
            }
            DownloadFailure::Timeout(d) => {
                format!("the download took longer than {}", seconds(*d))
            }
            other => other.to_string(),
        }
    }
}

/// Whether a connection failed because the host name could not be resolved (no network, no
/// DNS): the resolver's messages on Linux, macOS and Windows.
pub(crate) fn is_name_lookup(why: &str) -> bool {
    let why = why.to_ascii_lowercase();
    [
        "lookup address",
        "name or service not known",
        "temporary failure in name resolution",
        "nodename nor servname",
        "no such host",
        "dns error",
    ]
    .iter()
    .any(|sign| why.contains(sign))
}

/// `10 s`, `1.5 s`, `300 ms`: how long, as a person would say it.
pub(crate) fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

fn quoted_list(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(seconds(Duration::from_secs(10)), "10 s");
        assert_eq!(seconds(Duration::from_millis(300)), "300 ms");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5 s");
    }
}
