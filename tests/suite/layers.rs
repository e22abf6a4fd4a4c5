//! The floors of the house (shared/DESIGN.md, "Layers"), enforced: every module of `src/` may
//! use only modules on its own floor or below, and no two files may use each other.
//!
//! Why a test and not a Cargo workspace: the notebooks compile the crate inside the evcxr
//! kernel with `:dep bpe-lab = { path = … }` and share one kernel cache, the grader's workers
//! are built against this one package, and the hidden conformance tests call `bpe_lab::…`
//! paths. A workspace of seven crates would change every one of those build paths (and the
//! kernel's warm-up) for a guarantee this test gives at `cargo test` time; it reads the
//! sources, so it needs no feature and no build of the layers it checks.
//!
//! What counts as a use: every `crate::…` path in code (comments are skipped), `super::…` and
//! `self::…` paths, and paths that start with a child module's name. A facade's `pub use` of
//! its own children (a `mod.rs` re-exporting what its files define) and a file's unit tests
//! are not uses for the circle check, only for the floor check.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, lowest first. A module may use its own floor and those below.
const FLOORS: &[(&str, &[&str])] = &[
    ("ground", &["allocator", "exercise", "files", "rng"]),
    ("engine", &["bpe"]),
    ("tokenizer", &["tokenizer"]),
    ("dataset", &["dataset"]),
    ("lab", &["lab"]),
    ("instructor", &["instructor"]),
    ("cli", &["cli"]),
];

fn floor_of(top: &str) -> Option<usize> {
    FLOORS
        .iter()
        .position(|(_, modules)| modules.contains(&top))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/lab/check/run.rs` → `["lab", "check", "run"]`; `src/lab/check/mod.rs` → `["lab", "check"]`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// The file that defines the longest prefix of `path` that is a module.
fn file_of(path: &[String]) -> Option<PathBuf> {
    for len in (1..=path.len()).rev() {
        let base = path[..len].iter().fold(src(), |p, s| p.join(s));
        let file = base.with_extension("rs");
        if file.is_file() {
            return Some(file);
        }
        let file = base.join("mod.rs");
        if file.is_file() {
            return Some(file);
        }
    }
    None
}

/// Code without comments (line comments, doc comments and block comments).
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Expands a path that starts at `rest` (just after `prefix::`) into full paths, braces
/// included: `a::{b, c::d}` → `[a, b]`, `[a, c, d]`.
fn expand(rest: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes: Vec<char> = rest.chars().collect();
    let mut i = 0;
    let mut path = prefix;
    loop {
        while i < bytes.len() && bytes[i].is_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == '{' {
            i += 1;
            loop {
                while i < bytes.len() && (bytes[i].is_whitespace() || bytes[i] == ',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == '}' {
                    return i + 1;
                }
                let inner: String = bytes[i..].iter().collect();
                i += expand(&inner, path.clone(), out);
            }
        }
        let start = i;
        while i < bytes.len() && is_ident(bytes[i]) {
            i += 1;
        }
        if i == start {
            out.push(path);
            return i;
        }
        path.push(bytes[start..i].iter().collect());
        if bytes[i..].starts_with(&[':', ':']) {
            i += 2;
        } else {
            out.push(path);
            return i;
        }
    }
}

/// Every module path `file` uses, as absolute paths from the crate root, and whether the use
/// is left out of the circle check (a facade re-export of the file's own child, or a unit
/// test's).
fn uses_of(file: &Path) -> Vec<(Vec<String>, bool)> {
    let code = code_of(&fs::read_to_string(file).unwrap());
    let here = module_of(file);
    let is_mod_file = matches!(
        file.file_name().and_then(|n| n.to_str()),
        Some("mod.rs" | "lib.rs" | "main.rs")
    );
    // A non-mod file's children live in a folder of its name (`engine.rs` + `engine/`).
    let children_dir = if is_mod_file {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    let mut found = Vec::new();
    // Inline modules (`mod tests { … }`) open inside the file, by the brace depth they opened
    // at: their `super::` is the file itself, not its parent.
    let mut inline: Vec<(usize, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<bool> = None;
    let mut line_start = 0usize;
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line_start = i + 1;
                i += 1;
                continue;
            }
            '{' => {
                depth += 1;
                if let Some(tests) = pending_mod.take() {
                    inline.push((depth, tests));
                }
                i += 1;
                continue;
            }
            '}' => {
                if inline.last().is_some_and(|&(d, _)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            ';' => {
                pending_mod = None;
                i += 1;
                continue;
            }
            _ => {}
        }
        let boundary = i == 0 || !is_ident(chars[i - 1]) && chars[i - 1] != ':';
        if !boundary || !is_ident(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        if word == "mod" {
            let name: String = chars[i..]
                .iter()
                .skip_while(|c| c.is_whitespace())
                .take_while(|&&c| is_ident(c))
                .collect();
            pending_mod = Some(name == "tests");
            continue;
        }
        if !chars[i..].starts_with(&[':', ':']) {
            continue;
        }
        let line: String = chars[line_start..start].iter().collect();
        // Facade re-exports and unit tests are left out of the circle check: a `mod.rs` that
        // re-exports its files, and a file's tests that use its parent's public API, are not
        // dependencies of the library's code.
        let in_tests = inline.iter().any(|&(_, tests)| tests);
        let reexport =
            in_tests || line.trim_start().starts_with("pub use") || line.contains("pub(crate) use");
        let rest: String = chars[i + 2..].iter().take_while(|&&c| c != ';').collect();
        let mut paths = Vec::new();
        match word.as_str() {
            "crate" => {
                expand(&rest, Vec::new(), &mut paths);
            }
            "self" if inline.is_empty() => {
                expand(&rest, here.clone(), &mut paths);
            }
            "super" => {
                let mut ups = 1;
                let mut r = rest.as_str();
                while let Some(more) = r.strip_prefix("super::") {
                    ups += 1;
                    r = more;
                }
                if ups > inline.len() {
                    let mut base = here.clone();
                    for _ in 0..ups - inline.len() {
                        base.pop();
                    }
                    expand(r, base, &mut paths);
                }
            }
            child
                if inline.is_empty()
                    && (children_dir.join(format!("{child}.rs")).is_file()
                        || children_dir.join(child).join("mod.rs").is_file()) =>
            {
                let mut base = here.clone();
                base.push(child.to_string());
                expand(&rest, base, &mut paths);
                found.extend(paths.drain(..).map(|p| (p, reexport)));
            }
            _ => {}
        }
        found.extend(paths.into_iter().map(|p| (p, in_tests)));
    }
    found
}

struct Graph {
    /// file → files it uses (facade re-exports of children left out).
    edges: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    /// (file, top-level module it uses) for every use that climbs a floor.
    upward: Vec<(PathBuf, String)>,
}

fn graph() -> Graph {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut edges = BTreeMap::new();
    let mut upward = Vec::new();
    for file in &files {
        let here = module_of(file);
        let own_floor = here.first().and_then(|top| floor_of(top));
        let mut targets = BTreeSet::new();
        for (path, reexport) in uses_of(file) {
            let Some(top) = path.first() else { continue };
            if let (Some(own), Some(theirs)) = (own_floor, floor_of(top))
                && theirs > own
            {
                upward.push((file.clone(), top.clone()));
            }
            if reexport {
                continue;
            }
            if let Some(target) = file_of(&path)
                && target != *file
            {
                targets.insert(target);
            }
        }
        edges.insert(file.clone(), targets);
    }
    Graph { edges, upward }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(src()).unwrap().display().to_string()
}

#[test]
fn every_top_level_module_has_a_floor() {
    let mut missing = Vec::new();
    for entry in fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if matches!(name.as_str(), "lib" | "main") {
            continue;
        }
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            if floor_of(&name).is_none() {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules with no floor in tests/suite/layers.rs: {missing:?}"
    );
}

#[test]
fn no_module_uses_a_higher_floor() {
    let g = graph();
    let mut lines: Vec<String> = g
        .upward
        .iter()
        .map(|(file, top)| format!("src/{} uses crate::{top}", rel(file)))
        .collect();
    lines.dedup();
    assert!(
        lines.is_empty(),
        "uses that climb a floor (shared/DESIGN.md, Layers):\n{}",
        lines.join("\n")
    );
}

#[test]
fn no_two_files_use_each_other() {
    let g = graph();
    let mut circles = Vec::new();
    for (a, targets) in &g.edges {
        for b in targets {
            if a < b && g.edges.get(b).is_some_and(|t| t.contains(a)) {
                circles.push(format!("src/{} <-> src/{}", rel(a), rel(b)));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "files that use each other:\n{}",
        circles.join("\n")
    );
}

/// The checker itself: a planted upward use and a planted circle are found.
#[test]
fn the_checker_finds_what_it_looks_for() {
    let code =
        code_of("// crate::cli::x\nuse crate::{lab::check::{self, Exercise}, bpe::words};\n");
    let mut paths = Vec::new();
    for line in code.lines() {
        if let Some(at) = line.find("crate::") {
            expand(&line[at + 7..], Vec::new(), &mut paths);
        }
    }
    let paths: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        ["lab::check::self", "lab::check::Exercise", "bpe::words"]
    );
    assert!(floor_of("bpe") < floor_of("lab"));
    assert_eq!(module_of(&src().join("lab/check/mod.rs")), ["lab", "check"]);
    assert_eq!(
        file_of(&["lab".into(), "check".into(), "run".into(), "x".into()]),
        Some(src().join("lab/check/run.rs"))
    );
}
