//! Names the repository's root for the package's code and tests (`env!("BPE_LAB_REPO")`): the
//! notebooks, the data and the library's sources are there, two folders above this manifest.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let repo = manifest.join("../..");
    let repo = repo.canonicalize().unwrap_or(repo);
    println!("cargo::rustc-env=BPE_LAB_REPO={}", repo.display());
    println!("cargo::rerun-if-changed=build.rs");
}
