//! The workspace manifest as the student handout holds it. The repository's `Cargo.toml` is
//! the library package *and* the workspace root that lists `crates/cli` (the instructors'
//! command) as a member and declares examples and benchmarks; the handout leaves those folders
//! out, and cargo refuses a manifest whose members or declared targets are missing (`cargo
//! metadata`, and so the kernel's build of the notebooks' `:dep bpe-lab = { path = ".." }`,
//! fails). So the handout's copy keeps every line but these: the `[workspace]` keys `members`
//! and `default-members` (the root package stays the one member, as it is by being the root),
//! and the `[[example]]` and `[[bench]]` tables. `exclude` stays: the kernels build crates of
//! their own under target/.
//!
//! Line by line rather than through a TOML library, because the edit only removes lines: the
//! rest of the file, comments included, reaches students exactly as written. The handout's test
//! runs `cargo metadata` on the result.

use std::fmt;

/// The tables the handout leaves out with the folders they describe.
const DROPPED_TABLES: [&str; 2] = ["[[example]]", "[[bench]]"];

/// The `[workspace]` keys that name the packages the handout leaves out.
const DROPPED_WORKSPACE_KEYS: [&str; 2] = ["members", "default-members"];

/// A manifest whose lines the handout cannot trim safely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ManifestProblem {
    /// No `[workspace]` table: not the bpe-lab repository's root manifest.
    NoWorkspace,
    /// A dropped key's array opened on `line` (1-based) never closes.
    UnclosedArray { key: String, line: usize },
}

impl fmt::Display for ManifestProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestProblem::NoWorkspace => {
                f.write_str("has no [workspace] table: it is not the bpe-lab repository's root")
            }
            ManifestProblem::UnclosedArray { key, line } => {
                write!(
                    f,
                    "line {line}: the array of `{key}` is never closed with `]`"
                )
            }
        }
    }
}

impl std::error::Error for ManifestProblem {}

/// The handout's `Cargo.toml` from the repository's: see the module's documentation.
pub(crate) fn handout_manifest(text: &str) -> Result<String, ManifestProblem> {
    let mut out = String::with_capacity(text.len());
    let mut table = String::new();
    let mut saw_workspace = false;
    // Comments and blank lines at the end of a dropped table: they may introduce the next
    // table, so they are kept if a header follows and dropped if another key of the dropped
    // table does.
    let mut pending = String::new();
    let mut lines = text.split_inclusive('\n').enumerate();
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            table = trimmed.split('#').next().unwrap_or("").trim().to_owned();
            saw_workspace |= table == "[workspace]";
            if DROPPED_TABLES.contains(&table.as_str()) {
                // What introduced a dropped table goes with it.
                pending.clear();
            } else {
                push_pending(&mut out, &mut pending);
                out.push_str(line);
            }
            continue;
        }
        if DROPPED_TABLES.contains(&table.as_str()) {
            if trimmed.is_empty() || trimmed.starts_with('#') {
                pending.push_str(line);
            } else {
                pending.clear();
            }
            continue;
        }
        if table == "[workspace]"
            && let Some(key) = key_of(trimmed).filter(|k| DROPPED_WORKSPACE_KEYS.contains(k))
        {
            // An array may span lines: drop them up to its closing bracket.
            let value = trimmed.split_once('=').map_or("", |(_, v)| v);
            if value.contains('[') && !value.contains(']') {
                loop {
                    match lines.next() {
                        Some((_, more)) if more.contains(']') => break,
                        Some(_) => {}
                        None => {
                            return Err(ManifestProblem::UnclosedArray {
                                key: key.to_owned(),
                                line: index + 1,
                            });
                        }
                    }
                }
            }
            continue;
        }
        out.push_str(line);
    }
    push_pending(&mut out, &mut pending);
    if !saw_workspace {
        return Err(ManifestProblem::NoWorkspace);
    }
    Ok(out)
}

/// Appends the comments and blank lines kept from the end of a dropped table, without a second
/// blank line where the table's removal put two side by side.
fn push_pending(out: &mut String, pending: &mut String) {
    let text = std::mem::take(pending);
    if out.ends_with("\n\n") || out.is_empty() {
        out.push_str(text.trim_start_matches(['\n', '\r', ' ', '\t']));
    } else {
        out.push_str(&text);
    }
}

/// The bare key a `key = value` line sets.
fn key_of(trimmed: &str) -> Option<&str> {
    let (key, _) = trimmed.split_once('=')?;
    let key = key.trim();
    (!key.is_empty() && !key.starts_with('#')).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"[package]
name = "bpe-lab"
# examples = "not a key of the workspace"

[workspace]
# The root is a member by being the root.
members = ["crates/cli"]
default-members = [
    ".",
    "crates/cli",
]
exclude = ["target"]

[[example]]
name = "encode_peers"
required-features = ["bench-peers"]

[[bench]]
name = "engine"
harness = false

# Line tables for profiling.
[profile.release]
debug = 1
"#;

    #[test]
    fn members_examples_and_benches_go_and_everything_else_stays() {
        let trimmed = handout_manifest(MANIFEST).unwrap();
        assert_eq!(
            trimmed,
            r#"[package]
name = "bpe-lab"
# examples = "not a key of the workspace"

[workspace]
# The root is a member by being the root.
exclude = ["target"]

# Line tables for profiling.
[profile.release]
debug = 1
"#
        );
    }

    #[test]
    fn the_repositorys_own_manifest_loses_only_those_lines() {
        let path = std::path::Path::new(env!("BPE_LAB_REPO")).join("Cargo.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let trimmed = handout_manifest(&text).unwrap();
        assert!(!trimmed.contains("crates/cli\""), "{trimmed}");
        assert!(!trimmed.contains("[[example]]") && !trimmed.contains("[[bench]]"));
        assert!(trimmed.contains("[workspace]") && trimmed.contains("exclude = [\"target\"]"));
        // Only lines were removed, in order.
        let mut kept = text.lines();
        for line in trimmed.lines() {
            assert!(
                kept.any(|l| l == line),
                "{line:?} is not a line of the original"
            );
        }
    }

    #[test]
    fn a_manifest_without_a_workspace_or_with_an_open_array_is_refused() {
        assert_eq!(
            handout_manifest("[package]\nname = \"x\"\n"),
            Err(ManifestProblem::NoWorkspace)
        );
        assert_eq!(
            handout_manifest("[workspace]\nmembers = [\n  \"a\",\n"),
            Err(ManifestProblem::UnclosedArray {
                key: "members".to_owned(),
                line: 2
            })
        );
    }
}
