//! The floor between the library and what stands on it is a package boundary: the command and
//! the course tools (release, verify, grade) are the package `bpe-lab-cli` in crates/cli, which
//! depends on the library `bpe-lab`; the library depends on nothing of theirs. So no route
//! upward can compile, whatever path or macro it takes: the crate is simply not there. These
//! tests check that the real manifests keep it so, and plant both ways round it (a dependency
//! added to the library, an import without one) to see cargo refuse each.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const LIBRARY: &str = "bpe-lab";
const CLI: &str = "bpe-lab-cli";

fn cargo(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo runs")
}

/// The workspace's own packages and the dependencies each declares (`--no-deps`: nothing to
/// resolve or download).
fn metadata(dir: &Path) -> Value {
    let out = cargo(
        dir,
        &[
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--no-deps",
        ],
    );
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The real workspace: the library lists no dependency on the CLI of any kind (normal, build,
/// dev), and the CLI is built on the library. The library's other dependencies come from
/// crates.io, where the CLI is not, so none of them can bring it in either.
#[test]
fn the_library_depends_on_nothing_of_the_cli() {
    let meta = metadata(Path::new(env!("BPE_LAB_REPO")));
    let packages = meta["packages"].as_array().unwrap();
    let library = packages.iter().find(|p| p["name"] == LIBRARY).unwrap();
    let cli = packages.iter().find(|p| p["name"] == CLI).unwrap();
    for dep in library["dependencies"].as_array().unwrap() {
        assert_ne!(dep["name"], CLI, "{LIBRARY} lists {CLI} as a dependency");
        assert!(
            dep["path"].is_null(),
            "{LIBRARY} depends on a package of this repository: {}",
            dep["name"]
        );
    }
    assert!(
        cli["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == LIBRARY && d["kind"].is_null()),
        "{CLI} is built on {LIBRARY}"
    );
}

/// Two packages shaped as ours (their manifests' package and dependency lines, stub sources).
fn plant(dir: &Path, library_lib_rs: &str, library_depends_on_cli: bool) {
    let extra = if library_depends_on_cli {
        format!("{CLI} = {{ path = \"crates/cli\" }}\n")
    } else {
        String::new()
    };
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::create_dir_all(dir.join("crates/cli/src")).unwrap();
    fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{LIBRARY}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [lib]\nname = \"bpe_lab\"\n\n[workspace]\nmembers = [\".\", \"crates/cli\"]\n\n\
             [dependencies]\n{extra}"
        ),
    )
    .unwrap();
    fs::write(dir.join("src/lib.rs"), library_lib_rs).unwrap();
    fs::write(
        dir.join("crates/cli/Cargo.toml"),
        format!(
            "[package]\nname = \"{CLI}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [lib]\nname = \"bpe_lab_cli\"\n\n[dependencies]\n\
             {LIBRARY} = {{ path = \"../..\" }}\n"
        ),
    )
    .unwrap();
    fs::write(
        dir.join("crates/cli/src/lib.rs"),
        "pub mod course {\n    pub fn grade() {}\n}\npub use bpe_lab::engine;\n",
    )
    .unwrap();
}

/// Planted: the library made to depend on the CLI, so that it could import it. Cargo refuses
/// the manifest before compiling anything: the two packages would depend on each other.
#[test]
fn a_dependency_of_the_library_on_the_cli_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    plant(dir.path(), "pub fn engine() {}\n", true);
    let out = cargo(
        dir.path(),
        &["metadata", "--format-version", "1", "--offline"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "cargo accepted the cycle");
    assert!(stderr.contains("cyclic package dependency"), "{stderr}");
}

/// Planted: the library's code naming the CLI's crate, by every route a text scan could miss
/// (a `use`, a path in code, `extern crate`), each without a dependency. The compiler refuses
/// each; the same stub with nothing planted compiles, so the refusals are the plants'.
#[test]
fn an_import_of_the_cli_from_the_library_does_not_compile() {
    let clean = "pub fn engine() {}\n";
    let plants = [
        "use bpe_lab_cli::course::grade;\npub fn engine() { grade() }\n",
        "pub fn engine() { ::bpe_lab_cli::course::grade() }\n",
        "extern crate bpe_lab_cli;\npub fn engine() {}\n",
    ];
    let dir = tempfile::tempdir().unwrap();
    plant(dir.path(), clean, false);
    let out = cargo(
        dir.path(),
        &["check", "--offline", "--workspace", "--quiet"],
    );
    assert!(
        out.status.success(),
        "the clean stub: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for lib_rs in plants {
        fs::write(dir.path().join("src/lib.rs"), lib_rs).unwrap();
        let out = cargo(
            dir.path(),
            &["check", "--offline", "-p", LIBRARY, "--quiet"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "compiled: {lib_rs}");
        assert!(
            stderr.contains("bpe_lab_cli") && stderr.contains("error"),
            "{lib_rs}: {stderr}"
        );
    }
}

/// The workspace must not swallow the crates the lab builds under target/: JupyterLab's kernels
/// get target/lab/kernel-tmp as their TMPDIR, and evcxr makes its crate there; cargo, looking
/// upward for a workspace, finds this repository's manifest and refuses to build a package it
/// does not list, unless `exclude` takes target/ out (and no member entry takes it back in).
#[test]
fn a_crate_built_under_target_is_not_taken_for_a_member() {
    let target = Path::new(env!("BPE_LAB_REPO")).join("target");
    fs::create_dir_all(&target).unwrap();
    let dir = tempfile::Builder::new()
        .prefix("kernel-like-")
        .tempdir_in(&target)
        .unwrap();
    fs::create_dir_all(dir.path().join("src")).unwrap();
    fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"kernel_like\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )
    .unwrap();
    fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    let meta = metadata(dir.path());
    let names: Vec<&str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["kernel_like"]);
}
