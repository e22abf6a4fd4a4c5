//! Small file helpers every layer shares, so that every output is written the same safe way
//! and every file problem is worded the same way: the one output rule ([`write_atomically`] for
//! a path, [`Output`] when `-` may mean standard output), the check that an output can be
//! written before long work starts, no temporary left by a signal (`interrupt`), I/O errors in
//! plain words, and (in submodules) the line rule of text corpora, where a text stops being
//! UTF-8, and JSON messages.

#[cfg(unix)]
mod interrupt;
mod json;
pub mod lines;
mod output;
mod utf8;

use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use json::{json_kind, json_message};
pub use output::Output;
pub use utf8::InvalidUtf8;

/// Writes `path` with what `write` produces, by the one output rule:
///
/// - a regular file, or a path that does not exist yet, is replaced atomically: the bytes go
///   into a new temporary file in the same directory (a rename is only atomic within one file
///   system), flushed to disk, then renamed over `path`, and the directory synced so the rename
///   itself survives a crash. Readers see the old file or the complete new one, never a part.
///   On failure the temporary file is removed and `path` is left as it was. A replaced file
///   keeps its permissions; a new one gets the usual ones for a new file. The directory must
///   exist.
/// - a symbolic link is followed: the file it points to is replaced as above (in that file's
///   directory), and the link stays a link.
/// - anything else that exists (a character or block device such as `/dev/full`, a FIFO, a
///   shell's `>(…)` or `/proc/self/fd/N`) is opened and written through: replacing it would
///   destroy a device or a pipe someone is reading. Such a write cannot be atomic.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match Destination::of(path)? {
        Destination::Replace(target) => replace(&target, write),
        Destination::Through => write_through(path, write),
    }
}

/// What writing a path does to it, by [`write_atomically`]'s rule.
#[derive(Debug, PartialEq, Eq)]
enum Destination {
    /// Replace this regular (or new) file atomically: the path itself, or where its links lead.
    Replace(PathBuf),
    /// Open the path and write into it: a device, a FIFO, a pipe.
    Through,
}

impl Destination {
    fn of(path: &Path) -> io::Result<Destination> {
        match fs::metadata(path) {
            // `metadata` follows links: a link to a regular file replaces the file it leads to.
            Ok(meta) if meta.is_file() => Ok(Destination::Replace(follow_links(path)?)),
            // A directory is refused by the rename, in the OS's words.
            Ok(meta) if meta.is_dir() => Ok(Destination::Replace(path.to_owned())),
            Ok(_) => Ok(Destination::Through),
            // Not there (or a link to nothing): a new file where the links end.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Ok(Destination::Replace(follow_links(path)?))
            }
            Err(_) => Ok(Destination::Replace(path.to_owned())),
        }
    }
}

/// Where `path`'s chain of symbolic links ends (the path itself when it is no link); the end
/// need not exist. A chain longer than the kernel follows is refused as the kernel refuses it.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_owned();
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&at)?;
                // A relative target is relative to the link's directory.
                at = parent_dir(&at).join(target);
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Replaces the regular (or new) file `path` atomically (see [`write_atomically`]).
fn replace(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    // Removed by a Ctrl-C or kill before the rename too, not only on an error (the guard).
    let (temp, file, _registered) = create_temp_beside(path)?;
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

/// Writes into what `path` is (a device, a FIFO, a pipe) without replacing it. Nothing is
/// synced: a device or a pipe has no file to sync.
fn write_through(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let file = fs::OpenOptions::new().write(true).open(path)?;
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    out.flush()
}

/// Keeps a temporary's path registered for removal on a signal (nothing where there are no
/// signals).
#[cfg(unix)]
type SignalGuard = interrupt::Registered;
#[cfg(not(unix))]
type SignalGuard = ();

/// A new hidden file beside `path`, named after it so a leftover is recognisable, with its
/// path registered for removal on a signal.
///
/// The path is registered before the file is created, not after: a Ctrl-C between the two
/// left the file behind (seen under load, where a test that signals as soon as the temporary
/// appears lost that race one run in six). A name that turns out to be taken is dropped from
/// the registry before the next is tried; it holds this process's id, so the file there is a
/// leftover of an earlier process with the same id, which a signal in that instant removes.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, fs::File, SignalGuard)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))?
        .to_string_lossy();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = parent_dir(path).join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        #[cfg(unix)]
        let guard = interrupt::register(&temp);
        #[cfg(not(unix))]
        let guard = ();
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file, guard)),
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
/// directory, and the directory of the file that would be replaced (where its links lead)
/// exists and accepts a new file; a device or FIFO passes as it is. Leaves nothing behind (the only
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
    let target = match Destination::of(path) {
        // A device or a FIFO is written through: its directory need not take a new file, and
        // opening a FIFO now would wait for its reader.
        Ok(Destination::Through) => return Ok(()),
        Ok(Destination::Replace(target)) => target,
        Err(error) => {
            let dir = parent_dir(path).to_owned();
            return fail(Unwritable::CannotCreate { dir, error });
        }
    };
    let path = target.as_path();
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
        Ok((temp, file, _registered)) => {
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

/// Whether `a` and `b` name the same existing regular file, through links (hard or symbolic)
/// too, so that writing `b` would replace the file `a` reads: the check that keeps a command
/// from overwriting its input with its output. A device or FIFO is never "the same file":
/// writing it replaces nothing (reading and writing one terminal is fine).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(meta_a), Ok(meta_b)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    if !(meta_a.is_file() && meta_b.is_file()) {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta_a.dev() == meta_b.dev() && meta_a.ino() == meta_b.ino()
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
    }
}

/// How a message names where something was read: `'PATH'`, or `standard input` for `-`, the
/// name every command gives standard input (so a tokenizer read from it, whose errors carry the
/// path `-`, is named in words, not as a file called `-`).
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        format!("'{}'", path.display())
    }
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

    #[cfg(unix)]
    #[test]
    fn a_symlink_stays_and_its_target_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (target, link) = (dir.path().join("target"), dir.path().join("link"));
        fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink("target", &link).unwrap();
        check_writable(&link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        // A link to nothing yet: the file is made where it points.
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("made", &dangling).unwrap();
        write_atomically(&dangling, |w| w.write_all(b"made")).unwrap();
        assert!(
            fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(dir.path().join("made")).unwrap(), "made");
        assert_eq!(count(dir.path()), 4);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to test
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut text = String::new();
                fs::File::open(fifo)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            })
        };
        check_writable(&fifo).unwrap();
        write_atomically(&fifo, |w| w.write_all(b"through")).unwrap();
        assert_eq!(reader.join().unwrap(), "through");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(count(dir.path()), 1);
    }

    #[cfg(unix)]
    #[test]
    fn same_file_sees_through_links_but_not_devices() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        fs::write(&file, "a").unwrap();
        let (soft, hard) = (dir.path().join("soft"), dir.path().join("hard"));
        std::os::unix::fs::symlink(&file, &soft).unwrap();
        fs::hard_link(&file, &hard).unwrap();
        assert!(same_file(&file, &soft));
        assert!(same_file(&soft, &hard));
        assert!(!same_file(&file, &dir.path().join("missing")));
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
    }
}
