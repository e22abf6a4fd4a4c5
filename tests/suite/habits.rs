//! The repository's habits, held by tests so they cannot lapse unseen: proptest's saved failing
//! cases are found and replayed, every repository path a comment or a doc names exists, and no
//! comment or doc leans on something a reader cannot open (the numbers of the problem texts the
//! project started from, the wording of a test process outside the repository).

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::saved_cases;

fn repo() -> &'static Path {
    Path::new(env!("BPE_LAB_REPO"))
}

/// Every file under `dir` (recursively) whose name ends with one of `extensions`, skipping
/// build output, version control and virtual environments.
fn files_under(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let skipped = name == "target" || name.starts_with('.') || name == "node_modules";
            if !skipped {
                files_under(&path, extensions, out);
            }
        } else if extensions.iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
}

/// The project's own Rust sources and Markdown documents. The changelog is a record of what
/// was, so it may name what no longer exists.
fn comment_and_doc_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_under(repo(), &[".rs", ".md"], &mut files);
    files.retain(|f| f.file_name().is_none_or(|n| n != "CHANGELOG.md"));
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Each saved-cases file sits beside the test file that wrote it and is read back by the
/// suite's proptest settings; no saved case hides in a folder nobody reads.
#[test]
fn saved_proptest_cases_are_replayed() {
    let mut saved = Vec::new();
    files_under(
        &repo().join("tests"),
        &[&format!(".{}", saved_cases::EXTENSION)],
        &mut saved,
    );
    assert!(
        saved.len() >= 3,
        "expected the saved cases of byte_level, bytelevel_encode and differential, found {saved:?}"
    );
    let persistence = saved_cases::config(1)
        .failure_persistence
        .expect("the suite's settings persist failures");
    for file in &saved {
        let source = file.with_extension("rs");
        assert!(
            source.is_file(),
            "{} has no test file beside it",
            relative(file)
        );
        let recorded = fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|line| line.starts_with("cc "))
            .count();
        // proptest wants the source's name for the life of the program.
        let source: &'static str = Box::leak(source.display().to_string().into_boxed_str());
        let read = persistence.load_persisted_failures2(Some(source)).len();
        assert_eq!(
            read,
            recorded,
            "proptest reads {read} of the {recorded} cases saved in {}",
            relative(file)
        );
        let uses = fs::read_to_string(source).unwrap();
        assert!(
            uses.contains("saved_cases::config"),
            "{} runs proptest without the suite's settings (support::saved_cases::config)",
            relative(Path::new(source))
        );
    }
    // proptest's default folder, where saved cases once went unread.
    let mut unread = Vec::new();
    files_under(
        &repo().join("tests/proptest-regressions"),
        &[""],
        &mut unread,
    );
    assert!(unread.is_empty(), "saved cases nobody reads: {unread:?}");
}

/// A repository path written between backquotes in a comment or a doc (`src/...`, `docs/...`,
/// `tests/...`, `crates/...`), with where it was written. Globs, placeholders and line numbers
/// are left out or cut off: `src/lab/check/*` names a pattern, `file.rs:12` a file.
fn written_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, piece) in text.split('`').enumerate() {
        // Odd pieces are between backquotes.
        if i % 2 == 0 || piece.contains(char::is_whitespace) {
            continue;
        }
        let named = ["src/", "docs/", "tests/", "crates/"]
            .iter()
            .any(|prefix| piece.starts_with(prefix));
        if !named || piece.contains(['*', '<', '{', '…', '$']) {
            continue;
        }
        let path = piece.split(':').next().unwrap_or(piece);
        out.push(path.trim_end_matches(['.', ',', ';']).to_owned());
    }
    out
}

#[test]
fn written_paths_are_read_as_a_reader_would() {
    let text = "see `src/lib.rs`, `tests/suite/main.rs:12`, `src/lab/check/*`, `not/src/x.rs`, \
                `tests/suite/<module>.rs` and `docs/design.md`.";
    assert_eq!(
        written_paths(text),
        ["src/lib.rs", "tests/suite/main.rs", "docs/design.md"]
    );
}

/// Every `src/...`, `docs/...`, `tests/...` or `crates/...` path written in a comment or a doc
/// exists, from the repository's root or (inside `crates/cli`) from that package's.
#[test]
fn repository_paths_in_comments_and_docs_exist() {
    let mut dead = Vec::new();
    for file in comment_and_doc_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let package = if relative(&file).starts_with("crates/cli/") {
            repo().join("crates/cli")
        } else {
            repo().to_path_buf()
        };
        for path in written_paths(&text) {
            if !repo().join(&path).exists() && !package.join(&path).exists() {
                dead.push(format!("{}: `{path}`", relative(&file)));
            }
        }
    }
    assert!(
        dead.is_empty(),
        "paths that do not exist:\n{}",
        dead.join("\n")
    );
}

/// Words that point at something outside the repository: the numbers of the problem texts the
/// project started from ("seed 000"). Say what the thing is instead: the course's training
/// problem, the lab's reference notebook. ("Hidden tests" are a product word now: the part of
/// an instructor's own test cell that `lab release` removes; docs/design.md's glossary.)
fn unopenable_wording(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let seed_number = lower.match_indices("seed").any(|(at, _)| {
        let rest = lower[at + 4..].trim_start_matches('s');
        let digits = rest.strip_prefix(' ').unwrap_or("");
        digits.len() >= 3 && digits.as_bytes()[..3].iter().all(u8::is_ascii_digit)
    });
    if seed_number {
        return Some("a seed number");
    }
    None
}

#[test]
fn unopenable_wording_is_recognised() {
    assert_eq!(
        unopenable_wording("as seed 000 does"),
        Some("a seed number")
    );
    assert_eq!(
        unopenable_wording("Seeds 001 and 002"),
        Some("a seed number")
    );
    assert_eq!(unopenable_wording("the instructor's hidden tests"), None);
    assert_eq!(unopenable_wording("fn seed000_example1()"), None);
    assert_eq!(unopenable_wording("--seed 1 --mb 48"), None);
}

/// No comment or doc names a seed number.
#[test]
fn comments_and_docs_say_what_a_thing_is() {
    let mut found = Vec::new();
    for file in comment_and_doc_files() {
        let name = relative(&file);
        // This file spells the words out to recognise them.
        if name == "tests/suite/habits.rs" {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if let Some(what) = unopenable_wording(line) {
                found.push(format!("{name}:{}: {what}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// docs/library.md lists the built-in split patterns as their table has them: the usage lines
/// and the sentence on `--pattern` name every row, in the table's order, and nothing else.
#[test]
fn the_docs_list_the_builtin_patterns_of_the_table() {
    use bpe_lab::bpe::bytelevel::BUILTIN_PATTERNS;
    let docs = fs::read_to_string(repo().join("docs/library.md")).unwrap();
    let names: Vec<&str> = BUILTIN_PATTERNS.iter().map(|row| row.name).collect();
    let usage = format!("[--pattern {} | --regex REGEX]", names.join("|"));
    assert_eq!(
        docs.matches("[--pattern ").count(),
        docs.matches(&usage).count(),
        "every usage line of docs/library.md should read {usage}"
    );
    assert!(docs.contains(&usage), "docs/library.md has no {usage}");
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let sentence = format!(
        "`--pattern` takes a name ({}, or an encoding's name)",
        quoted.join(", ")
    );
    assert!(
        docs.contains(&sentence),
        "docs/library.md should say: {sentence}"
    );
}
