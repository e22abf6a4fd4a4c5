//! Small file helpers every layer shares, so that every output is written the same safe way
//! and every file problem is worded the same way: atomic writes ([`write_atomically`], the one
//! home of that rule), the check that an output can be written before long work starts, I/O
//! errors in plain words, and (in submodules) the line rule of text corpora, where a text stops
//! being UTF-8, and JSON messages.

mod json;
pub mod lines;
mod utf8;

use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use json::{json_kind, json_message};
pub use utf8::InvalidUtf8;

/// Writes `path` atomically with what `write` produces: into a new temporary file in the same
/// directory (a rename is only atomic within one file system), flushed to disk, then renamed
/// over `path`, and the directory synced so the rename itself survives a crash. Readers see the
/// old file or the complete new one, never a part. On failure the temporary file is removed and
/// `path` is left as it was. A replaced file keeps its permissions; a new one gets the usual
/// ones for a new file. The directory must exist.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let (temp, file) = create_temp_beside(path)?;
    let result = (|| {
        let mut out = BufWriter::new(&file);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        if let Ok(existing) = fs::metadata(path) {
            file.set_permissions(existing.permissions())?;
        }
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
        return result;
    }
    // Make the rename durable; a failure here loses nothing already written.
    #[cfg(unix)]
    if let Ok(dir) = fs::File::open(parent_dir(path)) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// A new hidden file beside `path`, named after it so a leftover is recognisable.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))?
        .to_string_lossy();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = parent_dir(path).join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The directory `path` is in (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// An output file that cannot be written, found before any long work.
#[derive(Debug)]
pub struct NotWritable {
    pub path: PathBuf,
    pub why: Unwritable,
}

/// Why [`NotWritable`].
#[derive(Debug)]
pub enum Unwritable {
    /// The path is empty.
    EmptyPath,
    /// The path is a directory.
    IsDirectory,
    /// Its directory does not exist.
    NoDirectory(PathBuf),
    /// What should be its directory is a file.
    ParentNotADirectory(PathBuf),
    /// Its directory cannot be read, or does not accept a new file.
    CannotCreate { dir: PathBuf, error: io::Error },
}

impl fmt::Display for NotWritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.why {
            Unwritable::EmptyPath => f.write_str("the output path is empty"),
            Unwritable::IsDirectory => {
                write!(f, "cannot write '{path}': it is a directory, not a file")
            }
            Unwritable::NoDirectory(dir) => write!(
                f,
                "cannot write '{path}': directory '{}' does not exist",
                dir.display()
            ),
            Unwritable::ParentNotADirectory(dir) => write!(
                f,
                "cannot write '{path}': '{}' is not a directory",
                dir.display()
            ),
            Unwritable::CannotCreate { dir, error } => write!(
                f,
                "cannot write '{path}': cannot create a file in '{}': {}",
                dir.display(),
                describe_io_error(error)
            ),
        }
    }
}

impl std::error::Error for NotWritable {}

/// Checks, before any long work, that `path` can be written by [`write_atomically`]: it is not a
/// directory, its directory exists and accepts a new file. Leaves nothing behind (the only
/// reliable test of "may I create a file here" is creating one, and removing it).
pub fn check_writable(path: &Path) -> Result<(), NotWritable> {
    let fail = |why| {
        Err(NotWritable {
            path: path.to_owned(),
            why,
        })
    };
    if path.as_os_str().is_empty() {
        return fail(Unwritable::EmptyPath);
    }
    if path.is_dir() {
        return fail(Unwritable::IsDirectory);
    }
    let dir = parent_dir(path);
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return fail(Unwritable::ParentNotADirectory(dir.to_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return fail(Unwritable::NoDirectory(dir.to_owned()));
        }
        Err(error) => {
            let dir = dir.to_owned();
            return fail(Unwritable::CannotCreate { dir, error });
        }
    }
    match create_temp_beside(path) {
        Ok((temp, file)) => {
            drop(file);
            let _ = fs::remove_file(temp);
            Ok(())
        }
        Err(error) => {
            let dir = dir.to_owned();
            fail(Unwritable::CannotCreate { dir, error })
        }
    }
}

/// Whether `a` and `b` name the same existing file (so writing `b` would replace `a`): the
/// check that keeps a command from overwriting its input with its output.
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// The reason behind an I/O error in plain words; the OS text for the rarer kinds.
pub fn describe_io_error(err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "it is a directory, not a file".to_owned(),
        io::ErrorKind::NotADirectory => "a part of the path is not a directory".to_owned(),
        io::ErrorKind::StorageFull => "no space left on the device".to_owned(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_owned(),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many entries `dir` holds: one after a write means no temporary file was left.
    fn count(dir: &Path) -> usize {
        fs::read_dir(dir).unwrap().count()
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let path = dir.join("out.json");
        fs::write(&path, "old").unwrap();
        let err = write_atomically(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk on fire"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(count(dir), 1);
        write_atomically(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(count(dir), 1);
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, |w| w.write_all(b"new")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn check_writable_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("out.json")).unwrap();
        assert_eq!(count(dir.path()), 0);
        let err = check_writable(&dir.path().join("missing/out.json")).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        let err = check_writable(dir.path()).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        assert!(matches!(
            check_writable(Path::new("")).unwrap_err().why,
            Unwritable::EmptyPath
        ));
    }
}
