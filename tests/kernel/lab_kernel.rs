//! The doctor with the real evcxr kernel. Needs Jupyter and the `rust` kernel
//! (./scripts/test sets BPE_LAB_KERNEL_TESTS=1 after installing them); without that variable
//! the test says so and does nothing.

use crate::support;

use std::path::PathBuf;
use support::cli::{assert_success, bpe_lab, path_str};

fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

#[test]
fn doctor_finds_everything_and_builds_the_crate_in_a_kernel() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to start a real kernel"
        );
        return;
    }
    let run = bpe_lab(&[
        "lab",
        "doctor",
        "--kernel-dir",
        path_str(&root().join("notebooks")),
    ]);
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_success(&run);
    for line in [
        "✔ Rust toolchain",
        "✔ Python with Jupyter",
        "✔ Jupyter kernel spec \"rust\"",
        "✔ evcxr_jupyter",
        "✔ bpe-lab builds in the kernel",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    assert!(!out.contains('✘'), "{out}");
}
