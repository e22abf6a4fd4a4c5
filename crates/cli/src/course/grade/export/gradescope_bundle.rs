//! A Gradescope autograder for one lab (`bpe-lab lab gradescope-bundle`): the zip Gradescope's
//! "Configure Autograder" takes. Gradescope unpacks it into `/autograder/source`, runs
//! `setup.sh` once to build its image (Ubuntu), and for each submission puts the student's
//! files in `/autograder/submission` and runs `/autograder/run_autograder`, which must leave
//! `/autograder/results/results.json` (a score and a test per exercise: the
//! [`super::gradescope`] layout).
//!
//! The bundle holds the two scripts and, beside them, the repository the grader is built and
//! graded from (the crates, the instructor sources with their releases, the data): Gradescope
//! unpacks all of it into `/autograder/source`. It is an
//! instructor's file: Gradescope keeps it from students, and it holds the solutions, as the
//! grader needs them. `run_autograder` honours `BPE_LAB_AUTOGRADER_ROOT` in place of
//! `/autograder`, so it can be tried on a machine of one's own (and is, by the tests).

use bpe_lab::files::describe_io_error;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the bundle copies from the repository, relative to its root: what `cargo install
/// --path crates/cli` needs (the workspace's members and every target its manifests declare)
/// and what grading reads (`instructor/`, with the releases students received).
pub(crate) const SOURCE: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "LICENSE",
    "README.md",
    "src",
    "crates",
    "data",
    "instructor",
    "benches",
    "examples",
    "tests",
];

/// Names never copied from a folder: build output, environments, caches.
const SKIPPED: &[&str] = &["target", "__pycache__", "node_modules"];

/// What `lab gradescope-bundle` needs.
#[derive(Debug, Clone)]
pub(crate) struct BundleOptions {
    /// The instructor sources; the repository is the folder above them.
    pub(crate) sources: PathBuf,
    /// The lab the autograder grades.
    pub(crate) lab: String,
    /// Seconds one exercise's check may take (passed on to `lab grade`).
    pub(crate) check_timeout: u64,
}

/// Why no bundle was written.
#[derive(Debug)]
pub(crate) enum BundleError {
    /// The sources are not in a bpe-lab repository (no `Cargo.toml` and `crates/cli` above).
    NotARepository { sources: PathBuf },
    /// The lab is none of the sources' notebooks.
    UnknownLab { lab: String, known: Vec<String> },
    /// A file of the repository could not be read.
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::NotARepository { sources } => write!(
                f,
                "{}: not the instructor sources of a bpe-lab checkout (no Cargo.toml and \
                 crates/cli in the folder above)",
                sources.display()
            ),
            BundleError::UnknownLab { lab, known } => {
                write!(f, "no lab {lab} (known: {})", known.join(", "))
            }
            BundleError::Read { path, error } => {
                write!(f, "{}: {}", path.display(), describe_io_error(error))
            }
        }
    }
}

impl std::error::Error for BundleError {}

/// `setup.sh`: run once, as root, on Gradescope's Ubuntu image.
fn setup_script() -> String {
    "#!/usr/bin/env bash\n\
     # Gradescope runs this once to build the autograder's image (Ubuntu, as root).\n\
     set -euo pipefail\n\
     export DEBIAN_FRONTEND=noninteractive\n\
     apt-get update\n\
     # bubblewrap: the sandbox student code runs in; a C toolchain for rustc's linker.\n\
     apt-get install -y --no-install-recommends bubblewrap build-essential ca-certificates curl pkg-config\n\
     # Rust, for the grader and for compiling each student's code.\n\
     curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal\n\
     . \"$HOME/.cargo/env\"\n\
     cargo install --locked --path /autograder/source/crates/cli --root /usr/local\n\
     # Students' workers are compiled at grading time: keep the toolchain on every PATH.\n\
     ln -sf \"$HOME/.cargo/bin/\"* /usr/local/bin/\n"
        .to_owned()
}

/// `run_autograder`: grades the submission's notebooks as `lab`, writing `results.json`.
fn run_script(lab: &str, check_timeout: u64) -> String {
    format!(
        "#!/usr/bin/env bash\n\
         # Gradescope runs this for each submission. BPE_LAB_AUTOGRADER_ROOT replaces /autograder\n\
         # to try it elsewhere.\n\
         set -euo pipefail\n\
         root=\"${{BPE_LAB_AUTOGRADER_ROOT:-/autograder}}\"\n\
         mkdir -p \"$root/results\"\n\
         cd \"$root/source\"\n\
         # Every grade is decided by the judge; what the grader could not do fails this run\n\
         # (Gradescope then shows the instructor an error, never a zero to the student).\n\
         exec bpe-lab lab grade \"$root/submission\" --lab {lab} --sources \"$root/source/instructor\" \\\n\
         \x20   --check-timeout {check_timeout} --threads 1 \\\n\
         \x20   --output \"$root/results/grades.csv\" --feedback \"$root/results/feedback\" \\\n\
         \x20   --gradescope-results \"$root/results/results.json\"\n"
    )
}

/// The bundle's bytes: `setup.sh` and `run_autograder` (executable) and the repository's
/// files, all at the top (Gradescope unpacks it as `/autograder/source`).
pub(crate) fn gradescope_bundle(
    options: &BundleOptions,
    known_labs: &[String],
) -> Result<Vec<u8>, BundleError> {
    if !known_labs.contains(&options.lab) {
        return Err(BundleError::UnknownLab {
            lab: options.lab.clone(),
            known: known_labs.to_vec(),
        });
    }
    let root = std::path::absolute(&options.sources)
        .ok()
        .and_then(|s| s.parent().map(Path::to_owned))
        .filter(|r| r.join("Cargo.toml").is_file() && r.join("crates/cli").is_dir())
        .ok_or_else(|| BundleError::NotARepository {
            sources: options.sources.clone(),
        })?;
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let file = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let script = file.unix_permissions(0o755);
    let put = |zip: &mut zip::ZipWriter<_>, name: &str, options, bytes: &[u8]| {
        zip.start_file(name, options)
            .and_then(|()| zip.write_all(bytes).map_err(Into::into))
            .expect("a zip in memory takes any entry");
    };
    put(&mut zip, "setup.sh", script, setup_script().as_bytes());
    put(
        &mut zip,
        "run_autograder",
        script,
        run_script(&options.lab, options.check_timeout).as_bytes(),
    );
    for entry in SOURCE {
        let path = root.join(entry);
        if !path.exists() {
            continue;
        }
        let mut files = Vec::new();
        walk(&path, &mut files)?;
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).map_err(|error| BundleError::Read {
                path: f.clone(),
                error,
            })?;
            let relative = f.strip_prefix(&root).unwrap_or(&f);
            let name = relative.to_string_lossy().replace('\\', "/");
            put(&mut zip, &name, file, &bytes);
        }
    }
    zip.finish().expect("a zip in memory finishes");
    Ok(out.into_inner())
}

/// Every regular file under `path` (itself when it is one), less [`SKIPPED`] and hidden
/// entries; symbolic links are not followed.
fn walk(path: &Path, files: &mut Vec<PathBuf>) -> Result<(), BundleError> {
    let read = |error| BundleError::Read {
        path: path.to_owned(),
        error,
    };
    let meta = std::fs::symlink_metadata(path).map_err(read)?;
    if meta.is_file() {
        files.push(path.to_owned());
    } else if meta.is_dir() {
        for entry in std::fs::read_dir(path).map_err(read)? {
            let entry = entry.map_err(read)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || SKIPPED.contains(&name.as_str()) {
                continue;
            }
            walk(&entry.path(), files)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_bundle_holds_the_scripts_and_the_repository_without_build_output() {
        let repo = Path::new(env!("BPE_LAB_REPO"));
        let options = BundleOptions {
            sources: repo.join("instructor"),
            lab: "03-merge".into(),
            check_timeout: 20,
        };
        let bytes = gradescope_bundle(&options, &["03-merge".into()]).unwrap();
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let names: Vec<String> = (0..zip.len())
            .map(|i| zip.by_index(i).unwrap().name().unwrap().into_owned())
            .collect();
        for needed in [
            "setup.sh",
            "run_autograder",
            "Cargo.toml",
            "Cargo.lock",
            "crates/cli/Cargo.toml",
            "instructor/03-merge.ipynb",
        ] {
            assert!(names.iter().any(|n| n == needed), "{needed}");
        }
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with("target/") || n.contains("/target/") || n.contains("/.")),
            "no build output or hidden files"
        );
        let mut run = String::new();
        let entry = zip.by_name("run_autograder").unwrap();
        assert_eq!(entry.unix_mode().map(|m| m & 0o777), Some(0o755));
        drop(entry);
        zip.by_name("run_autograder")
            .unwrap()
            .read_to_string(&mut run)
            .unwrap();
        assert!(run.contains("--lab 03-merge"), "{run}");
        assert!(run.contains("results/results.json"), "{run}");
    }

    #[test]
    fn an_unknown_lab_or_sources_outside_a_checkout_are_refused() {
        let options = BundleOptions {
            sources: PathBuf::from("instructor"),
            lab: "99-none".into(),
            check_timeout: 20,
        };
        assert!(matches!(
            gradescope_bundle(&options, &["03-merge".into()]),
            Err(BundleError::UnknownLab { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let options = BundleOptions {
            sources: dir.path().join("instructor"),
            lab: "03-merge".into(),
            check_timeout: 20,
        };
        assert!(matches!(
            gradescope_bundle(&options, &["03-merge".into()]),
            Err(BundleError::NotARepository { .. })
        ));
    }
}
