//! Writing an output file atomically: into a temporary file beside it, then renamed over it.
//!
//! Readers see either the old file or the complete new one, never a partial write. If anything
//! fails, the temporary file is removed (by [`tempfile::NamedTempFile`]'s destructor) and an
//! existing file at the destination is left as it was.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use tempfile::NamedTempFile;

use crate::cli::error::{CliError, describe};

/// Checks, before any long work, that `path` can be written: its directory exists and accepts
/// a new file, and `path` itself is not a directory. Leaves nothing behind.
pub fn check_writable(path: &Path) -> Result<(), CliError> {
    if path.as_os_str().is_empty() {
        return Err(CliError::usage("the output path is empty"));
    }
    match why_not_writable(path) {
        None => Ok(()),
        Some(reason) => Err(CliError::runtime(format!(
            "cannot write '{}': {reason}",
            path.display()
        ))),
    }
}

fn why_not_writable(path: &Path) -> Option<String> {
    if path.is_dir() {
        return Some("it is a directory, not a file".to_owned());
    }
    let dir = parent_dir(path);
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Some(format!("'{}' is not a directory", dir.display())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Some(format!("directory '{}' does not exist", dir.display()));
        }
        Err(e) => return Some(format!("directory '{}': {}", dir.display(), describe(&e))),
    }
    // The only reliable test of "may I create a file here" is creating one.
    let probe = temp_file_for(path).err()?;
    Some(format!(
        "cannot create a file in '{}': {}",
        dir.display(),
        describe(&probe)
    ))
}

/// Writes `path` atomically with what `write` produces (see [`bpe_lab::files::write_atomically`]).
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), CliError> {
    bpe_lab::files::write_atomically(path, write)
        .map_err(|e| CliError::io("cannot write", path, &e))?;
    // Make the rename itself durable; a failure here loses nothing already written.
    #[cfg(unix)]
    if let Ok(dir) = fs::File::open(parent_dir(path)) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The directory `path` is in (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A hidden temporary file in the destination's directory (a rename only stays atomic within
/// one file system), named after the destination so a leftover is recognisable. It gets the
/// permissions a newly created file would (0666 less the umask) or, when the destination
/// exists, the destination's own.
fn temp_file_for(path: &Path) -> io::Result<NamedTempFile> {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let temp = builder.tempfile_in(parent_dir(path))?;
    if let Ok(existing) = fs::metadata(path) {
        temp.as_file().set_permissions(existing.permissions())?;
    }
    Ok(temp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        fs::write(&path, "old").unwrap();
        let result = write_atomically(&path, |w: &mut dyn Write| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk on fire"))
        });
        let err = result.unwrap_err().to_string();
        assert!(
            err.contains("out.json") && err.contains("disk on fire"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(entries(dir.path()), ["out.json"]);
    }

    #[test]
    fn a_successful_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        fs::write(&path, "old").unwrap();
        write_atomically(&path, |w: &mut dyn Write| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(entries(dir.path()), ["out.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, |w: &mut dyn Write| w.write_all(b"new")).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn check_writable_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("out.json")).unwrap();
        assert!(entries(dir.path()).is_empty());
        let err = check_writable(&dir.path().join("missing/out.json")).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        let err = check_writable(dir.path()).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
    }
}
