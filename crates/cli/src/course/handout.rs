//! The student handout: the one folder a class receives, and what every way of giving it to
//! them (a repository students clone, Binder, a Codespace, the Docker image) is built from.
//!
//! The instructors' repository holds the solutions — `instructor/` (the sources), the sample
//! solution and submissions of `docs/samples/`, the self-study edition when one was written,
//! and tests full of right answers — so it is never what students get. The handout is a list of
//! what students need, copied ([`COPIED`]); everything else stays behind, so a folder an
//! instructor adds later is left out until someone decides students should have it. Two parts
//! are written rather than copied: the notebooks, released afresh from the sources in the
//! graded edition (never the self-study one), and the workspace manifest, trimmed of the
//! packages the handout leaves out ([`super::handout_manifest`]).
//!
//! Not to be confused with [`super::release::Edition`], which is which *notebooks* students
//! get (graded or self-study): the handout is the whole folder around the graded edition.
//!
//! The reference answers of `bpe_lab::lab::reference` are in the handout's `src/`: the
//! notebooks' checks compare with them, so the crate cannot ship without them
//! (docs/instructors.md says what the grader does about a submission that calls them).

use super::handout_manifest::{ManifestProblem, handout_manifest};
use super::notebook::NotebookError;
use super::release::{Edition, Stale, release_edition, stale_edition};
use bpe_lab::files::describe_io_error;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Where `bpe-lab lab handout` writes when not told (at the repository's root, git-ignored).
pub(crate) const DEFAULT_OUTPUT: &str = "student-handout";

/// The file that marks a folder as a handout: the Dockerfile copies it first, so an image
/// cannot be built from the instructors' checkout by mistake.
pub(crate) const MARKER: &str = ".bpe-lab-handout";

/// What the handout copies from the repository, relative to its root, and why students need
/// each. Folders are copied whole (less [`SKIPPED`]).
pub(crate) const COPIED: &[(&str, &str)] = &[
    // The crate the notebooks load (`:dep bpe-lab = { path = ".." }`); Cargo.toml is written.
    (
        "Cargo.lock",
        "the versions the kernel builds the crate with",
    ),
    ("build.rs", "the crate's build script"),
    (
        "src",
        "the crate: checks, reference answers, display, the engine",
    ),
    ("data", "the datasets the crate bundles"),
    ("LICENSE", "the licence the crate is distributed under"),
    (
        "README.md",
        "the crate's front page (also compiled into its documentation)",
    ),
    // The notebooks' folder: its README; the notebooks themselves are released afresh.
    ("notebooks/README.md", "what the notebooks are"),
    // What a student runs: scripts/lab and what it sources or starts.
    ("scripts/lab", "set-up and JupyterLab: the student's way in"),
    ("scripts/lib/kernel.sh", "scripts/lab: installs the kernel"),
    (
        "scripts/lib/kernel-env.sh",
        "scripts/lab, binder/start: the kernels' settings",
    ),
    (
        "scripts/lib/rust-kernel",
        "the kernel spec scripts/lab open writes",
    ),
    ("scripts/lib/packages.sh", "scripts/lab: system packages"),
    ("scripts/lib/sandbox.sh", "scripts/lab: bubblewrap"),
    ("scripts/lib/venv.sh", "scripts/lab: the Python environment"),
    (
        "scripts/python-requirements.txt",
        "scripts/lab: JupyterLab, nbclient, nbconvert",
    ),
    (
        "crates/cli/src/course/bpe_lab_executor",
        "scripts/lab's notebook runner and warm-up (Python, not the command)",
    ),
    ("kernel", "the patches scripts/lab applies to evcxr"),
    // Ready machines, built from this folder.
    (
        "Dockerfile",
        "the lab's image (docker build on the handout)",
    ),
    (".dockerignore", "what docker build leaves out"),
    ("binder", "Binder, and the image's set-up"),
    (".devcontainer", "Codespaces and VS Code"),
    (".gitignore", "for the handout's own repository"),
    // The students' pages.
    ("docs/students.md", "the students' guide"),
    ("docs/library.md", "the library and the command line"),
    (
        "docs/deploying.md",
        "Binder, Codespaces, JupyterHub, Docker",
    ),
    ("docs/img", "the pictures the pages show"),
];

/// Names never copied out of a copied folder: caches a run leaves behind.
const SKIPPED: [&str; 3] = ["__pycache__", ".ipynb_checkpoints", ".DS_Store"];

/// What [`write_handout`] is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct HandoutOptions {
    /// The instructor sources (`instructor/`); the repository is the folder above them.
    pub(crate) sources: PathBuf,
    /// The folder to write: new, or empty.
    pub(crate) output: PathBuf,
}

/// A handout written.
#[derive(Debug, Clone)]
pub(crate) struct Handout {
    /// The folder, as given.
    pub(crate) output: PathBuf,
    /// The student notebooks it holds, by file name.
    pub(crate) notebooks: Vec<String>,
    /// Every file in it.
    pub(crate) files: usize,
}

/// Why no handout was written. The first six are the instructor's to fix (the command exits
/// 2, [`HandoutError::is_instructors`]); the rest are the machine's or the checkout's.
#[derive(Debug)]
pub(crate) enum HandoutError {
    /// The sources folder cannot be found.
    NoSources { sources: PathBuf, problem: String },
    /// The folder above the sources is no crate.
    NotARepository { sources: PathBuf, root: PathBuf },
    /// The output is the repository itself, or inside something the handout is made from.
    InsideSources { output: PathBuf, inside: PathBuf },
    /// The output exists and is not a folder.
    NotAFolder { output: PathBuf },
    /// The output folder already holds something.
    NotEmpty { output: PathBuf },
    /// The committed student notebooks are not what the sources release: students would get
    /// notebooks nobody verified.
    Stale {
        notebooks: PathBuf,
        stale: Vec<Stale>,
    },
    /// A source notebook cannot be released.
    Notebook(NotebookError),
    /// Something the handout copies is missing from the repository.
    Missing { path: PathBuf },
    /// A symbolic link where the handout copies files: its target could be anything.
    Link { path: PathBuf },
    /// The repository's Cargo.toml cannot be trimmed.
    Manifest {
        path: PathBuf,
        problem: ManifestProblem,
    },
    /// Reading or writing failed.
    Io { path: PathBuf, problem: String },
}

impl HandoutError {
    /// Whether the instructor asked for something that cannot be done (exit 2).
    pub(crate) fn is_instructors(&self) -> bool {
        matches!(
            self,
            HandoutError::NoSources { .. }
                | HandoutError::NotARepository { .. }
                | HandoutError::InsideSources { .. }
                | HandoutError::NotAFolder { .. }
                | HandoutError::NotEmpty { .. }
                | HandoutError::Stale { .. }
        )
    }
}

impl fmt::Display for HandoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandoutError::NoSources { sources, problem } => {
                write!(f, "{}: {problem}", sources.display())
            }
            HandoutError::NotARepository { sources, root } => write!(
                f,
                "{}: the folder above it, {}, has no Cargo.toml: give the instructor sources \
                 of a bpe-lab repository",
                sources.display(),
                root.display()
            ),
            HandoutError::InsideSources { output, inside } => write!(
                f,
                "{} is inside {}, which the handout is made from: choose a folder outside it \
                 (the default, {DEFAULT_OUTPUT}, or one outside the repository)",
                output.display(),
                inside.display()
            ),
            HandoutError::NotAFolder { output } => {
                write!(f, "{} exists and is not a folder", output.display())
            }
            HandoutError::NotEmpty { output } => write!(
                f,
                "{} is not empty: the handout is written into a new or empty folder only \
                 (remove it, or choose another)",
                output.display()
            ),
            HandoutError::Stale { notebooks, stale } => {
                let list: Vec<String> = stale.iter().map(|s| format!("  {s}")).collect();
                write!(
                    f,
                    "the student notebooks in {} are not what the sources release; run `bpe-lab \
                     lab release` and `bpe-lab lab verify` first:\n{}",
                    notebooks.display(),
                    list.join("\n")
                )
            }
            HandoutError::Notebook(e) => e.fmt(f),
            HandoutError::Missing { path } => write!(
                f,
                "{}: missing, and the handout needs it (is this a whole bpe-lab checkout?)",
                path.display()
            ),
            HandoutError::Link { path } => write!(
                f,
                "{}: a symbolic link; the handout copies files and folders only",
                path.display()
            ),
            HandoutError::Manifest { path, problem } => write!(f, "{}: {problem}", path.display()),
            HandoutError::Io { path, problem } => write!(f, "{}: {problem}", path.display()),
        }
    }
}

impl std::error::Error for HandoutError {}

impl From<NotebookError> for HandoutError {
    fn from(e: NotebookError) -> Self {
        HandoutError::Notebook(e)
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> HandoutError + '_ {
    move |e| HandoutError::Io {
        path: path.to_owned(),
        problem: describe_io_error(&e),
    }
}

/// Writes the handout of the repository above `options.sources` into `options.output`: built
/// aside in a hidden folder beside it, then renamed into place, so the output is the whole
/// handout or nothing.
pub(crate) fn write_handout(options: &HandoutOptions) -> Result<Handout, HandoutError> {
    let sources_dir = options
        .sources
        .canonicalize()
        .map_err(|e| HandoutError::NoSources {
            sources: options.sources.clone(),
            problem: describe_io_error(&e),
        })?;
    let root = sources_dir.parent().unwrap_or(&sources_dir).to_owned();
    if !root.join("Cargo.toml").is_file() {
        return Err(HandoutError::NotARepository {
            sources: options.sources.clone(),
            root,
        });
    }
    let output = resolved(&options.output).map_err(io_error(&options.output))?;
    let inside = if output == root {
        Some(root.clone())
    } else {
        made_from(&root, &sources_dir)
            .into_iter()
            .find(|from| output.starts_with(from))
    };
    if let Some(inside) = inside {
        return Err(HandoutError::InsideSources {
            output: options.output.clone(),
            inside,
        });
    }
    check_empty(&options.output)?;
    let notebooks = root.join("notebooks");
    let stale = stale_edition(&sources_dir, &notebooks, Edition::Graded)?;
    if !stale.is_empty() {
        return Err(HandoutError::Stale { notebooks, stale });
    }

    let parent = output.parent().unwrap_or(Path::new("/"));
    fs::create_dir_all(parent).map_err(io_error(parent))?;
    let name = output.file_name().unwrap_or_default().to_string_lossy();
    // Removed on any failure below (the TempDir's drop); kept once complete.
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.partial-"))
        .tempdir_in(parent)
        .map_err(io_error(parent))?;
    let notebooks = fill(&root, &sources_dir, staging.path())?;
    let files = count_files(staging.path()).map_err(io_error(staging.path()))?;
    let built = staging.keep();
    if let Err(e) = fs::rename(&built, &output) {
        let _ = fs::remove_dir_all(&built);
        return Err(io_error(&options.output)(e));
    }
    Ok(Handout {
        output: options.output.clone(),
        notebooks,
        files,
    })
}

/// Writes the handout's contents into `dir`; returns the notebooks' file names.
fn fill(root: &Path, sources_dir: &Path, dir: &Path) -> Result<Vec<String>, HandoutError> {
    for (item, _why) in COPIED {
        let from = root.join(item);
        if fs::symlink_metadata(&from).is_err() {
            return Err(HandoutError::Missing { path: from });
        }
        copy(&from, &dir.join(item))?;
    }
    let manifest = root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(io_error(&manifest))?;
    let trimmed = handout_manifest(&text).map_err(|problem| HandoutError::Manifest {
        path: manifest.clone(),
        problem,
    })?;
    let target = dir.join("Cargo.toml");
    fs::write(&target, trimmed).map_err(io_error(&target))?;
    let released = release_edition(sources_dir, &dir.join("notebooks"), Edition::Graded)?;
    let marker = dir.join(MARKER);
    fs::write(&marker, MARKER_TEXT).map_err(io_error(&marker))?;
    Ok(released
        .iter()
        .filter_map(|r| r.student.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect())
}

const MARKER_TEXT: &str = "\
This folder is a bpe-lab student handout, written by `bpe-lab lab handout`: the student
notebooks and what they need, without the instructors' solutions. The Dockerfile refuses to
build without this file, so that no image is built from a checkout that holds them.
";

/// Copies `from` (a file or a folder, recursively) to `to`, keeping permissions (scripts stay
/// executable).
fn copy(from: &Path, to: &Path) -> Result<(), HandoutError> {
    let meta = fs::symlink_metadata(from).map_err(io_error(from))?;
    if meta.file_type().is_symlink() {
        return Err(HandoutError::Link {
            path: from.to_owned(),
        });
    }
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(io_error(parent))?;
    }
    if meta.is_dir() {
        fs::create_dir_all(to).map_err(io_error(to))?;
        let mut entries: Vec<_> = fs::read_dir(from)
            .map_err(io_error(from))?
            .collect::<Result<_, _>>()
            .map_err(io_error(from))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name();
            if SKIPPED.iter().any(|s| name == *s) {
                continue;
            }
            copy(&entry.path(), &to.join(&name))?;
        }
        Ok(())
    } else {
        fs::copy(from, to).map(drop).map_err(io_error(from))
    }
}

fn count_files(dir: &Path) -> io::Result<usize> {
    let mut n = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        n += if entry.file_type()?.is_dir() {
            count_files(&entry.path())?
        } else {
            1
        };
    }
    Ok(n)
}

/// What a handout must not be written into: everything it is made from (a folder inside one
/// would be copied into itself or released over) and the instructor sources.
fn made_from(root: &Path, sources_dir: &Path) -> Vec<PathBuf> {
    let mut from: Vec<PathBuf> = COPIED.iter().map(|(item, _)| root.join(item)).collect();
    from.push(root.join("notebooks"));
    from.push(root.join("Cargo.toml"));
    from.push(sources_dir.to_owned());
    from
}

/// `output` is new or an empty folder.
fn check_empty(output: &Path) -> Result<(), HandoutError> {
    match fs::symlink_metadata(output) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(output)(e)),
        Ok(meta) if !meta.is_dir() => Err(HandoutError::NotAFolder {
            output: output.to_owned(),
        }),
        Ok(_) => {
            let mut entries = fs::read_dir(output).map_err(io_error(output))?;
            match entries.next() {
                None => Ok(()),
                Some(_) => Err(HandoutError::NotEmpty {
                    output: output.to_owned(),
                }),
            }
        }
    }
}

/// `path` absolute, with its symbolic links resolved as far as it exists and `.`/`..` taken
/// out of the rest, so that two spellings of one folder compare equal.
fn resolved(path: &Path) -> io::Result<PathBuf> {
    let mut out = PathBuf::new();
    for component in std::path::absolute(path)?.components() {
        match component {
            Component::CurDir => {}
            // After a resolved prefix: the real parent, as the system would take it.
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if let Ok(real) = out.canonicalize() {
                    out = real;
                }
            }
            Component::RootDir | Component::Prefix(_) => out.push(component),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolved_paths_compare_equal_whatever_the_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        fs::create_dir(real.join("a")).unwrap();
        assert_eq!(
            resolved(&real.join("a/../a/./new")).unwrap(),
            real.join("a/new")
        );
        assert_eq!(resolved(&real.join("x/../y")).unwrap(), real.join("y"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("a"), real.join("link")).unwrap();
            assert_eq!(
                resolved(&real.join("link/new")).unwrap(),
                real.join("a/new")
            );
        }
    }

    #[test]
    fn an_output_that_exists_must_be_an_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_empty(&dir.path().join("new")).is_ok());
        assert!(check_empty(dir.path()).is_ok());
        fs::write(dir.path().join("f"), "x").unwrap();
        assert!(matches!(
            check_empty(dir.path()),
            Err(HandoutError::NotEmpty { .. })
        ));
        assert!(matches!(
            check_empty(&dir.path().join("f")),
            Err(HandoutError::NotAFolder { .. })
        ));
    }

    /// Nothing of the instructors' is on the list, whatever else is added to it.
    #[test]
    fn the_list_leaves_the_instructors_files_behind() {
        for (item, _) in COPIED {
            for kept in [
                "instructor",
                "docs/samples",
                "docs/instructors.md",
                "notebooks-self-study",
                "tests",
                "target",
                ".venv",
            ] {
                assert!(
                    !Path::new(item).starts_with(kept) && !Path::new(kept).starts_with(item),
                    "{item} would copy {kept}"
                );
            }
        }
    }
}
