//! The README's command-line examples, for both kinds of tokenizer, run as written: every line
//! of the `sh` blocks under "The command line" in a shell, one after another in one scratch
//! folder (so `train` makes the files the next lines read), the built `bpe-lab` first on the
//! PATH and the repository's `data/` beside. A line must succeed, and where its comment shows
//! output (`# → …`) it must print exactly that.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

/// The lines of the `sh` blocks of the section, with the output each promises, if any.
fn examples(readme: &str) -> Vec<(String, Option<String>)> {
    let start = readme
        .find("## The command line")
        .expect("the README has its command-line section");
    let end = readme[start + 3..]
        .find("\n## ")
        .map_or(readme.len(), |e| start + 3 + e);
    let mut out = Vec::new();
    let mut in_block = false;
    for line in readme[start..end].lines() {
        if line.starts_with("```") {
            in_block = line == "```sh" && !in_block;
            continue;
        }
        if !in_block || line.trim().is_empty() || line.starts_with("cargo install") {
            continue;
        }
        let (command, promised) = match line.split_once(" # → ") {
            Some((c, p)) => (c.trim_end(), Some(p.trim().to_owned())),
            None => (line.split(" # ").next().unwrap().trim_end(), None),
        };
        out.push((command.to_owned(), promised));
    }
    out
}

#[test]
fn the_readme_command_lines_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = examples(&readme);
    assert!(
        lines.len() >= 10,
        "expected the README's examples, got {lines:?}"
    );
    assert!(
        lines.iter().any(|(l, _)| l.contains("--byte-level"))
            && lines.iter().any(|(l, _)| l.contains("--encoding")),
        "the README shows both kinds of tokenizer"
    );
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("data"), dir.path().join("data")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_bpe-lab")).parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.to_owned()];
    dirs.extend(std::env::split_paths(&path));
    let path = std::env::join_paths(dirs).unwrap();
    for (line, promised) in &lines {
        let out = Command::new("sh")
            .args(["-c", &format!("set -e; {line}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(promised) = promised {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim_end(),
                promised,
                "{line}"
            );
        }
    }
}
