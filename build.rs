//! Two jobs: finds the rank files of the `openai` feature (`find_rank_files`), and, inside the
//! lab's evcxr kernels only, keys the kernels' build cache by the source.
//!
//! evcxr's `:cache` keeps compiled crates keyed by rustc's command line. For bpe-lab, a path
//! dependency of every notebook, that command line does not change when the source does, so
//! cargo compiles it incrementally and evcxr never caches it: every new kernel spent 20–30 s
//! rebuilding it. The kernels the lab starts (see `crates/cli/src/course/bpe_lab_executor`) turn
//! incremental compilation off for bpe-lab and set `BPE_LAB_KERNEL_CACHE`; this script then
//! adds a digest of everything the crate is compiled from as a `--cfg`, so the cache key changes
//! exactly when the source does and a kernel reuses a bpe-lab another kernel compiled from the
//! same files. Ordinary builds see no cfg and keep their incremental compilation.

use std::env;
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

/// What bpe-lab is compiled from, relative to its manifest directory.
const INPUTS: [&str; 4] = ["Cargo.toml", "build.rs", "src", "data"];

fn main() {
    find_rank_files();
    println!("cargo::rerun-if-env-changed=BPE_LAB_KERNEL_CACHE");
    println!("cargo::rustc-check-cfg=cfg(bpe_lab_source, values(any()))");
    if env::var_os("BPE_LAB_KERNEL_CACHE").is_none() {
        return;
    }
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for input in INPUTS {
        println!("cargo::rerun-if-changed={input}");
        collect(&root.join(input), &mut files);
    }
    files.sort();
    // Two differently seeded 64-bit hashes: 128 bits, so two different trees never share a key.
    let (mut a, mut b) = (DefaultHasher::new(), DefaultHasher::new());
    b.write_u8(1);
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        let bytes = fs::read(file).unwrap_or_default();
        for hasher in [&mut a, &mut b] {
            hasher.write(relative.to_string_lossy().as_bytes());
            hasher.write_usize(bytes.len());
            hasher.write(&bytes);
        }
    }
    println!(
        "cargo::rustc-cfg=bpe_lab_source=\"{:016x}{:016x}\"",
        a.finish(),
        b.finish()
    );
}

/// With the `openai` feature: the folder of the rank files the tiktoken-rs crate ships (its
/// `assets/`, in cargo's registry, at the version Cargo.lock names), passed to the library as
/// `BPE_LAB_TIKTOKEN_ASSETS` with the cfg `bpe_lab_rank_files`. The library then compiles the
/// files in and parses them itself (a few milliseconds) instead of building tiktoken-rs's
/// encoder and asking it for every token (about 90 ms at every start of `bpe-lab encode
/// --encoding`). Where the folder is not found (a vendored build, bpe-lab used as a
/// dependency) nothing is set and the library asks tiktoken-rs, as before; the parity tests
/// compare both with tiktoken.
fn find_rank_files() {
    println!("cargo::rustc-check-cfg=cfg(bpe_lab_rank_files)");
    println!("cargo::rerun-if-env-changed=CARGO_HOME");
    if env::var_os("CARGO_FEATURE_OPENAI").is_none() {
        return;
    }
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let lock = root.join("Cargo.lock");
    println!("cargo::rerun-if-changed={}", lock.display());
    let Some(version) = fs::read_to_string(&lock).ok().and_then(|text| {
        let at = text.find("name = \"tiktoken-rs\"\nversion = \"")?;
        let rest = &text[at + "name = \"tiktoken-rs\"\nversion = \"".len()..];
        Some(rest[..rest.find('"')?].to_owned())
    }) else {
        return;
    };
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let Some(registry) = cargo_home.map(|h| h.join("registry").join("src")) else {
        return;
    };
    let Ok(indexes) = fs::read_dir(&registry) else {
        return;
    };
    for index in indexes.flatten() {
        let assets = index
            .path()
            .join(format!("tiktoken-rs-{version}"))
            .join("assets");
        let files = ["r50k_base", "cl100k_base", "o200k_base"]
            .map(|name| assets.join(format!("{name}.tiktoken")));
        if files.iter().all(|f| f.is_file()) {
            for file in &files {
                println!("cargo::rerun-if-changed={}", file.display());
            }
            println!("cargo::rustc-cfg=bpe_lab_rank_files");
            println!(
                "cargo::rustc-env=BPE_LAB_TIKTOKEN_ASSETS={}",
                assets.display()
            );
            return;
        }
    }
}

/// Every file under `path` (or `path` itself), missing paths skipped.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    match fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                collect(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}
