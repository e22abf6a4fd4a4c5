//! The notebooks to grade and whose they are: files as given; folders searched for `*.ipynb`
//! (skipping `.ipynb_checkpoints`), the student being the first folder under the given one,
//! else the file's stem.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A submission found on disk: the file and whose it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Submission {
    pub(crate) student: String,
    pub(crate) file: PathBuf,
}

/// What was found: the submissions, and the folders given that held none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) submissions: Vec<Submission>,
    pub(crate) empty_folders: Vec<PathBuf>,
}

/// The submissions under `args`, in argument order, each folder's files sorted.
pub(crate) fn find_submissions(args: &[PathBuf]) -> Found {
    let mut found = Found::default();
    for arg in args {
        if !arg.is_dir() {
            found.submissions.push(Submission {
                student: stem(arg),
                file: arg.clone(),
            });
            continue;
        }
        let mut files = Vec::new();
        walk(arg, &mut files);
        files.sort();
        if files.is_empty() {
            found.empty_folders.push(arg.clone());
        }
        for file in files {
            let student = student_of(arg, &file);
            found.submissions.push(Submission { student, file });
        }
    }
    found
}

/// The first folder of `file` under `folder`, else the file's stem.
fn student_of(folder: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(folder).unwrap_or(file);
    match relative.components().count() {
        0 | 1 => stem(file),
        _ => relative
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

/// A file's name without its extension.
pub(crate) fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with(".ipynb_checkpoints") {
                walk(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "ipynb") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn students_come_from_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ana/.ipynb_checkpoints")).unwrap();
        std::fs::write(dir.path().join("ana/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("ana/.ipynb_checkpoints/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("bo.ipynb"), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("empty")).unwrap();
        let found = find_submissions(&[dir.path().to_owned(), dir.path().join("empty")]);
        let students: Vec<&str> = found
            .submissions
            .iter()
            .map(|s| s.student.as_str())
            .collect();
        assert_eq!(students, ["ana", "bo"]);
        assert_eq!(found.empty_folders, [dir.path().join("empty")]);
    }
}
