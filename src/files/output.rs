//! [`Output`]: where a command's output goes when the user names it — standard output for
//! `-` (the Unix convention every output flag follows), else a path written by the one output
//! rule of [`write_atomically`](super::write_atomically). The library's own writers take paths;
//! this is for callers whose users may say `-`.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{NotWritable, check_writable, same_file, write_atomically};

/// An output destination: standard output, or a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output (`-`).
    Stdout,
    /// A path: a regular file replaced atomically (through its links), a device or FIFO
    /// written through.
    Path(PathBuf),
}

impl Output {
    /// `-` means standard output; anything else is a path.
    pub fn new(path: impl AsRef<Path>) -> Output {
        let path = path.as_ref();
        if path == Path::new("-") {
            Output::Stdout
        } else {
            Output::Path(path.to_owned())
        }
    }

    /// The path, unless this is standard output.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Output::Stdout => None,
            Output::Path(path) => Some(path),
        }
    }

    /// Checks before any long work that the output can be written ([`check_writable`]);
    /// standard output always can be tried.
    pub fn check(&self) -> Result<(), NotWritable> {
        match self {
            Output::Stdout => Ok(()),
            Output::Path(path) => check_writable(path),
        }
    }

    /// Whether writing this output would replace the regular file `input` (the same file by
    /// device and inode, through links too). Standard output replaces nothing.
    pub fn replaces(&self, input: &Path) -> bool {
        match self {
            Output::Stdout => false,
            Output::Path(path) => input != Path::new("-") && same_file(input, path),
        }
    }

    /// Writes what `write` produces: to standard output (buffered, flushed at the end), or to
    /// the path by [`write_atomically`]'s rule. Every write is checked; the first error is
    /// returned (a closed pipe as [`io::ErrorKind::BrokenPipe`], which a command line tool
    /// usually takes as "stop quietly").
    pub fn write(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self {
            Output::Stdout => {
                let stdout = io::stdout();
                let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
                write(&mut out)?;
                out.flush()
            }
            Output::Path(path) => write_atomically(path, write),
        }
    }
}

/// `standard output`, or the path in quotes (bytes that are not UTF-8 shown as U+FFFD).
impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Stdout => f.write_str("standard output"),
            Output::Path(path) => write!(f, "'{}'", path.display()),
        }
    }
}
