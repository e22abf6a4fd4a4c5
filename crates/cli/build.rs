//! Names the repository's root for the package's code and tests (`env!("BPE_LAB_REPO")`): the
//! notebooks, the data and the library's sources are there, two folders above this manifest.
//! Also says what `bpe-lab --version` reports beside the version: the git commit the command
//! was built from (`BPE_LAB_GIT_COMMIT`, "unknown" outside a git checkout; uncommitted changes
//! are not tracked, which would rebuild the command at every edit) and the features it was built with (`BPE_LAB_FEATURES`), so
//! a bug report names exactly what ran.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let repo = manifest.join("../..");
    let repo = repo.canonicalize().unwrap_or(repo);
    println!("cargo::rustc-env=BPE_LAB_REPO={}", repo.display());
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-env=BPE_LAB_GIT_COMMIT={}", git_commit(&repo));
    // The package's own features (each passes the library's on; see Cargo.toml).
    let features: Vec<&str> = ["dataset", "columnar", "openai", "fast-alloc"]
        .into_iter()
        .filter(|f| {
            let var = format!("CARGO_FEATURE_{}", f.to_uppercase().replace('-', "_"));
            std::env::var_os(var).is_some()
        })
        .collect();
    let features = if features.is_empty() {
        "none".to_owned()
    } else {
        features.join(", ")
    };
    println!("cargo::rustc-env=BPE_LAB_FEATURES={features}");
}

/// The checked-out commit (12 hex digits), and the files that name it, so a new commit or
/// branch reruns this script.
fn git_commit(repo: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".to_owned();
    };
    // HEAD (the branch), the branch's ref and the packed refs: what a commit changes.
    for name in ["HEAD", "refs", "packed-refs"] {
        let file = if name == "refs" {
            git(&["rev-parse", "--symbolic-full-name", "HEAD"])
                .and_then(|r| git(&["rev-parse", "--git-path", &r]))
        } else {
            git(&["rev-parse", "--git-path", name])
        };
        if let Some(file) = file {
            let file = Path::new(&file);
            let file = if file.is_relative() {
                repo.join(file)
            } else {
                file.to_owned()
            };
            if file.exists() {
                println!("cargo::rerun-if-changed={}", file.display());
            }
        }
    }
    commit
}
