//! Which files the command-line arguments name: files as they are, glob patterns (`*`, `?`,
//! `[abc]`, `**`) expanded in sorted order, and directories (such as Spark's output folders)
//! as the data files directly inside them, in sorted order.
//!
//! The order is part of the result: a table keeps its words in order of first appearance, so
//! the same files in the same order give the same table, whichever tool counted them.

use std::fs;
use std::path::{Path, PathBuf};

use crate::dataset::DatasetError;

/// The files that `arguments` name, in order: each argument's files in sorted order, arguments
/// in the order given. A pattern that matches nothing, a missing file and an empty directory
/// are errors naming the argument. Inside a directory, files whose names start with `_` or `.`
/// (Spark's `_SUCCESS`, checksum files) are left out, and so are files of other formats when
/// `keep` says so.
///
/// ```no_run
/// use bpe_lab::dataset::{Format, expand_inputs};
/// let files = expand_inputs(&["shards/*.txt", "extra.jsonl"], |_| true)?;
/// let parts = expand_inputs(&["spark-counts/"], |p| Format::from_path(p) == Some(Format::Parquet))?;
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
pub fn expand_inputs(
    arguments: &[impl AsRef<Path>],
    keep: impl Fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, DatasetError> {
    let mut files = Vec::new();
    for argument in arguments {
        let argument = argument.as_ref();
        let text = argument.to_string_lossy();
        let found = if !argument.exists() && text.contains(['*', '?', '[']) {
            matching(&text)?
        } else if argument.is_dir() {
            directory_files(argument, &keep)?
        } else {
            // A missing file is reported when it is opened, with the reason.
            vec![argument.to_owned()]
        };
        files.extend(found);
    }
    Ok(files)
}

/// The text files that `arguments` name, for commands that read each file as one text
/// (`count-tokens`): as [`expand_inputs`], but a directory is read recursively (its files and
/// those of its subdirectories, sorted by path; hidden entries such as `.git` left out;
/// symbolic links to directories not followed, so a link cannot make a loop), and `-`
/// (standard input) is kept as it is. A pattern that matches nothing or a directory with no
/// file is an error naming it.
pub fn expand_text_inputs(arguments: &[impl AsRef<Path>]) -> Result<Vec<PathBuf>, DatasetError> {
    let mut files = Vec::new();
    for argument in arguments {
        let argument = argument.as_ref();
        let text = argument.to_string_lossy();
        if argument == Path::new("-") {
            files.push(argument.to_owned());
        } else if !argument.exists() && text.contains(['*', '?', '[']) {
            files.extend(matching(&text)?);
        } else if argument.is_dir() {
            let before = files.len();
            walk(argument, &mut files)?;
            if files.len() == before {
                return Err(DatasetError::shape(
                    argument.display().to_string(),
                    "the directory holds no file",
                ));
            }
            files[before..].sort();
        } else {
            files.push(argument.to_owned());
        }
    }
    Ok(files)
}

/// Every file under `dir`, hidden entries left out, directory links not followed.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), DatasetError> {
    for entry in fs::read_dir(dir).map_err(|e| DatasetError::io(dir, e))? {
        let entry = entry.map_err(|e| DatasetError::io(dir, e))?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type().map_err(|e| DatasetError::io(&path, e))?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            files.push(path);
        }
    }
    Ok(())
}

/// The files matching a glob pattern, sorted.
fn matching(pattern: &str) -> Result<Vec<PathBuf>, DatasetError> {
    let shape = |message: String| DatasetError::shape(pattern, message);
    let paths = glob::glob(pattern).map_err(|e| shape(format!("not a valid pattern: {e}")))?;
    let mut files = Vec::new();
    for path in paths {
        let path = path.map_err(|e| {
            DatasetError::io(e.path(), std::io::Error::other(e.error().to_string()))
        })?;
        if path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(shape("no file matches this pattern".to_owned()));
    }
    files.sort();
    Ok(files)
}

/// The data files directly inside `dir`, sorted by name.
fn directory_files(
    dir: &Path,
    keep: &impl Fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, DatasetError> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| DatasetError::io(dir, e))? {
        let path = entry.map_err(|e| DatasetError::io(dir, e))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if name.starts_with(['_', '.']) || !path.is_file() || !keep(&path) {
            continue;
        }
        files.push(path);
    }
    if files.is_empty() {
        return Err(DatasetError::shape(
            dir.display().to_string(),
            "the directory holds no file of a format this command reads",
        ));
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_directories_expand_in_sorted_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.txt", "a.txt", "c.csv", "_SUCCESS", ".a.txt.crc"] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        let pattern = dir.path().join("*.txt");
        let files = expand_inputs(&[pattern.as_path(), dir.path()], |p| {
            p.extension().is_some_and(|e| e == "csv")
        })
        .unwrap();
        let names: Vec<_> = files.iter().map(|f| f.file_name().unwrap()).collect();
        assert_eq!(names, ["a.txt", "b.txt", "c.csv"]);
    }

    /// `count-tokens docs/`: every file below, sorted by path, hidden ones left out; `-` stays.
    #[test]
    fn text_inputs_read_directories_recursively() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("b/c")).unwrap();
        fs::create_dir_all(d.join(".git")).unwrap();
        for name in [
            "z.txt",
            "b/y.md",
            "b/c/x.txt",
            ".git/HEAD",
            "b/.hidden",
            "_kept.txt",
        ] {
            fs::write(d.join(name), "x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(d, d.join("b/loop")).unwrap();
        let files = expand_text_inputs(&[d, Path::new("-")]).unwrap();
        let names: Vec<_> = files
            .iter()
            .map(|f| {
                f.strip_prefix(d)
                    .unwrap_or(f)
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names, ["_kept.txt", "b/c/x.txt", "b/y.md", "z.txt", "-"]);
        let pattern = d.join("*.txt");
        assert_eq!(expand_text_inputs(&[pattern]).unwrap().len(), 2);
        let empty = d.join("empty");
        fs::create_dir(&empty).unwrap();
        let err = expand_text_inputs(&[&empty]).unwrap_err();
        assert!(err.to_string().contains("holds no file"), "{err}");
    }

    #[test]
    fn a_pattern_without_matches_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = expand_inputs(&[dir.path().join("*.txt")], |_| true).unwrap_err();
        assert!(err.to_string().contains("no file matches"), "{err}");
        let err = expand_inputs(&[dir.path()], |_| true).unwrap_err();
        assert!(err.to_string().contains("holds no file"), "{err}");
    }
}
