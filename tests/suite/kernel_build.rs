//! How the lab's kernels reuse compiled code: bpe-lab's build script puts a digest of the
//! sources on rustc's command line (evcxr's cache key) only in kernel builds, and the notebook
//! runner fixes dependency lists in evcxr's cache that point into a dead kernel's build folder.
//! No kernel needed: cargo and python3 only.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        fs::copy(from, to).unwrap();
    }
}

/// The `bpe_lab_source` cfg cargo passed to rustc for the library, if any. `cargo check` runs
/// the build script and hands rustc the same cfg as the kernel's `cargo build`, without the
/// code generation (four compiles of the crate: a third of the time).
fn digest_of_build(crate_dir: &Path, kernel: bool) -> Option<String> {
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args([
            "check",
            "-p",
            "bpe-lab",
            "--lib",
            "--no-default-features",
            "--offline",
            "--locked",
            "-v",
        ])
        .current_dir(crate_dir)
        // Shared by every run of this test, so only bpe-lab itself is compiled again.
        .env(
            "CARGO_TARGET_DIR",
            root().join("target").join("kernel-build-test"),
        )
        .env_remove("BPE_LAB_KERNEL_CACHE");
    if kernel {
        cargo.env("BPE_LAB_KERNEL_CACHE", "1");
    }
    let out = cargo.output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo build failed:\n{log}");
    let line = log
        .lines()
        .rfind(|l| l.contains("--crate-name bpe_lab ") && l.contains("Running"));
    let Some(line) = line else {
        // Fresh: cargo did not run rustc; the caller asks again after a change.
        return Some("fresh".to_owned());
    };
    line.split("bpe_lab_source=").nth(1).map(|rest| {
        rest.trim_start_matches(['"', '\\'])
            .chars()
            .take(32)
            .collect()
    })
}

#[test]
fn kernel_builds_carry_a_digest_that_follows_the_sources() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("bpe-lab");
    fs::create_dir_all(&crate_dir).unwrap();
    for piece in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src",
        "data",
        "benches",
        "examples",
        "README.md",
        "crates",
        "tests",
    ] {
        copy_tree(&root().join(piece), &crate_dir.join(piece));
    }
    // Cargo.toml names examples/encode_peers.rs ([[example]] with its feature), so the
    // examples come along; the workspace's other package (crates/cli, whose test targets are in
    // tests/) too, so that the copy is the workspace the lab's kernels build from.

    let first = digest_of_build(&crate_dir, true).expect("a kernel build carries the digest");
    assert_eq!(first.len(), 32, "{first}");
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()), "{first}");

    // Any change to a source file changes the digest, so evcxr's cache cannot hand back the
    // bpe-lab compiled from the old file.
    let rng = crate_dir.join("src").join("rng.rs");
    let text = fs::read_to_string(&rng).unwrap();
    fs::write(&rng, format!("{text}\n// changed\n")).unwrap();
    let second = digest_of_build(&crate_dir, true).expect("digest after a change");
    assert_ne!(first, second);

    // Putting the file back gives back the first digest: the key depends on content only.
    fs::write(&rng, &text).unwrap();
    let third = digest_of_build(&crate_dir, true).expect("digest after the revert");
    assert_eq!(first, third);

    // An ordinary build carries no digest (and keeps its incremental compilation).
    assert_eq!(digest_of_build(&crate_dir, false), None);
}

/// The executor package's parent folder: `bpe_lab_executor` is imported from there.
const EXECUTOR_PARENT: &str = "crates/cli/src/course";

fn forget(cache: &Path) -> usize {
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys\n\
             sys.path.insert(0, sys.argv[1])\n\
             from bpe_lab_executor.evcxr_cache import forget_old_build_folders\n\
             print(forget_old_build_folders(sys.argv[2]))",
        )
        .arg(root().join(EXECUTOR_PARENT))
        .arg(cache)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

#[test]
fn cached_dependency_lists_forget_the_dead_kernels_build_folder() {
    let cache = tempfile::tempdir().unwrap();
    let old = "/tmp/run_notebook-kernel-abc/.tmpXYZ/target/";
    let registry = "/home/s/.cargo/registry/src/index/serde_core-1.0.229/src";
    let deps = format!("{old}x86_64-unknown-linux-gnu/debug/deps");
    let generated =
        format!("{old}x86_64-unknown-linux-gnu/debug/build/serde_core-f/out/private.rs");

    let entry = cache.path().join("1413");
    fs::create_dir_all(&entry).unwrap();
    let artifacts = format!(
        "{{\"artifact\":\"{deps}/serde_core-01.d\",\"emit\":\"dep-info\"}}\n\
         {{\"artifact\":\"{deps}/libserde_core-01.rlib\",\"emit\":\"link\"}}\n"
    );
    fs::write(entry.join("stderr"), artifacts).unwrap();
    let dep_info = format!(
        "{deps}/serde_core-01.d: {registry}/lib.rs {registry}/de.rs {generated}\n\n\
         {deps}/libserde_core-01.rlib: {registry}/lib.rs {registry}/de.rs {generated}\n\n\
         {registry}/lib.rs:\n{registry}/de.rs:\n{generated}:\n\n\
         # env-dep:OUT_DIR={old}x86_64-unknown-linux-gnu/debug/build/serde_core-f/out\n"
    );
    let d = entry.join("serde_core-01.d");
    fs::write(&d, &dep_info).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&d, fs::Permissions::from_mode(0o644)).unwrap();
    }

    // An entry whose lists name only registry files is left alone.
    let clean = cache.path().join("77");
    fs::create_dir_all(&clean).unwrap();
    fs::write(
        clean.join("stderr"),
        format!("{{\"artifact\":\"{deps}/itoa-02.d\",\"emit\":\"dep-info\"}}\n"),
    )
    .unwrap();
    let clean_info = format!("{deps}/itoa-02.d: {registry}/itoa.rs\n\n{registry}/itoa.rs:\n");
    fs::write(clean.join("itoa-02.d"), &clean_info).unwrap();
    // Not a cache entry at all (no stderr): ignored.
    fs::create_dir_all(cache.path().join("stray")).unwrap();

    assert_eq!(forget(cache.path()), 1);
    let fixed = fs::read_to_string(&d).unwrap();
    assert!(!fixed.contains("private.rs"), "{fixed}");
    assert_eq!(
        fixed.matches(&format!("{registry}/de.rs")).count(),
        3,
        "{fixed}"
    );
    // The rules' targets and rustc's env-dep comment stay as they were.
    assert!(
        fixed.starts_with(&format!("{deps}/serde_core-01.d: {registry}/lib.rs ")),
        "{fixed}"
    );
    assert!(
        fixed.contains(&format!("{deps}/libserde_core-01.rlib: ")),
        "{fixed}"
    );
    assert!(fixed.contains("# env-dep:OUT_DIR="), "{fixed}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&d).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "the fixed file keeps its permissions");
    }
    assert_eq!(
        fs::read_to_string(clean.join("itoa-02.d")).unwrap(),
        clean_info
    );

    // A second pass has nothing left to do.
    assert_eq!(forget(cache.path()), 0);
    assert_eq!(fs::read_to_string(&d).unwrap(), fixed);
    // A cache that does not exist yet is not an error.
    assert_eq!(forget(&cache.path().join("missing")), 0);
}

/// Binder starts the notebook server through `binder/start`; the kernels it spawns must find
/// the settings that let evcxr's cache keep bpe-lab, and cargo on PATH.
#[test]
fn binder_start_gives_kernels_the_cache_settings() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(root().join("binder").join("start"))
        .arg("env")
        .env("HOME", home.path())
        .env_remove("TMPDIR")
        .current_dir(home.path())
        .output()
        .expect("bash runs binder/start");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = String::from_utf8_lossy(&out.stdout);
    let tmpdir = root().join("target").join("lab").join("kernel-tmp");
    assert!(
        env.lines()
            .any(|l| l == format!("TMPDIR={}", tmpdir.display())),
        "{env}"
    );
    let cargo_bin = home.path().join(".cargo").join("bin");
    assert!(
        env.lines()
            .any(|l| l.starts_with(&format!("PATH={}:", cargo_bin.display()))),
        "{env}"
    );
    let config = fs::read_to_string(tmpdir.join(".cargo").join("config.toml")).unwrap();
    assert!(config.contains("BPE_LAB_KERNEL_CACHE = \"1\""), "{config}");
    assert!(config.contains("[profile.dev.package.bpe-lab]"), "{config}");
}
