//! Which kind of the lab's kernel scripts/lib/kernel.sh says is installed (kernel/README.md, "Two
//! kinds of the same kernel"): scripts/lab installs the quick kind first on a fresh machine and
//! must then build the full one, must skip both when the full one is there, and must replace a
//! stock evcxr or a build of other patches. cargo's records are faked: a `cargo` on PATH that
//! answers `cargo install --list`, and the `.crates2.json` cargo keeps the features in.

use crate::support::notebooks::root;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// Runs `script` after sourcing kernel.sh, with `home` as HOME, CARGO_HOME and cache, and only
/// `home`'s fake `cargo` and the system's tools on PATH.
fn kernel_sh(home: &Path, script: &str) -> (i32, String) {
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("source scripts/lib/kernel.sh\n{script}"))
        .current_dir(root())
        .env_clear()
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", home.join(".cargo/bin").display()),
        )
        .env("HOME", home)
        .env("CARGO_HOME", home.join(".cargo"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string()
        + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn executable(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Fakes an install of evcxr_jupyter from `folder` (None: from crates.io), with its default
/// features or without them.
fn installed(home: &Path, folder: Option<&str>, no_default_features: bool) {
    let bin = home.join(".cargo/bin");
    let (listed, key) = match folder {
        Some(folder) => (
            format!("evcxr_jupyter v0.22.0 ({folder}):"),
            format!("evcxr_jupyter 0.22.0 (path+file://{folder})"),
        ),
        None => (
            "evcxr_jupyter v0.22.0:".to_string(),
            "evcxr_jupyter 0.22.0 (registry+https://github.com/rust-lang/crates.io-index)"
                .to_string(),
        ),
    };
    executable(
        &bin.join("cargo"),
        &format!(
            "#!/bin/sh\n[ \"$1 $2\" = 'install --list' ] && printf '%s\\n    evcxr_jupyter\\n' '{listed}'\n"
        ),
    );
    executable(&bin.join("evcxr_jupyter"), "#!/bin/sh\n");
    let record = serde_json::json!({"installs": {key: {
        "bins": ["evcxr_jupyter"], "features": if no_default_features { vec!["mimalloc"] } else { vec![] },
        "all_features": false, "no_default_features": no_default_features, "profile": "release",
    }}});
    fs::write(home.join(".cargo/.crates2.json"), record.to_string()).unwrap();
}

#[test]
fn the_kind_installed_decides_what_scripts_lab_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    executable(&home.join(".cargo/bin/cargo"), "#!/bin/sh\n");
    let (_, source) = kernel_sh(home, "kernel_source_dir");
    assert!(
        source.starts_with(
            &home
                .join("cache/bpe-lab/kernel/evcxr-0.22.0-")
                .display()
                .to_string()
        ),
        "{source}"
    );
    let ours = format!("{source}/evcxr_jupyter-0.22.0");
    let ask = "echo \"[$(kernel_installed_kind)]\"; kernel_installed && echo whole";

    assert_eq!(
        kernel_sh(home, ask),
        (1, "[]".to_string()),
        "nothing installed"
    );

    installed(home, Some(&ours), true);
    assert_eq!(
        kernel_sh(home, ask),
        (1, "[quick]".to_string()),
        "the quick kind"
    );

    installed(home, Some(&ours), false);
    assert_eq!(
        kernel_sh(home, ask),
        (0, "[full]\nwhole".to_string()),
        "the full kind"
    );

    let older = ours.replace("evcxr-0.22.0-", "evcxr-0.22.0-0ld");
    installed(home, Some(&older), false);
    assert_eq!(
        kernel_sh(home, ask),
        (1, "[]".to_string()),
        "a build of other patches"
    );

    installed(home, None, false);
    assert_eq!(
        kernel_sh(home, ask),
        (1, "[]".to_string()),
        "stock evcxr from crates.io"
    );

    // A record cargo cannot have written (a damaged file) is no install of ours.
    installed(home, Some(&ours), false);
    fs::write(home.join(".cargo/.crates2.json"), "{").unwrap();
    assert_eq!(
        kernel_sh(home, ask),
        (1, "[]".to_string()),
        "unreadable .crates2.json"
    );
}

#[test]
fn kernel_install_names_the_kinds_it_knows() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, text) = kernel_sh(tmp.path(), "kernel_install fast");
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("KIND is full or quick, not 'fast'"), "{text}");
}
