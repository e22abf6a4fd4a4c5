//! The figures the documentation states about the code's behaviour (timeouts, limits,
//! defaults) are the code's: each rule below names a phrase of the docs with a number in it
//! and the constant of the code it must equal, read from the source where the constant is
//! defined. A rule that matches nowhere fails too, so rewording a page means updating its rule
//! rather than silently dropping the check. And the user-facing pages use the product's words:
//! no issue numbers, rounds, targets or notes about one machine.
//!
//! Speed figures are not checked here: they live in docs/benchmarks.md with their date,
//! machine and command.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

/// The user-facing pages: what a student, instructor or user reads.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "notebooks/README.md",
        "data/README.md",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect();
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Evaluates a constant's initializer as the code writes it: `20`, `8 * 1024`,
/// `Duration::from_secs(10 * 60)`.
fn eval(expr: &str) -> u64 {
    let inner = match (expr.find('('), expr.rfind(')')) {
        (Some(open), Some(close)) => &expr[open + 1..close],
        _ => expr,
    };
    inner
        .split('*')
        .map(|factor| {
            let digits: String = factor.trim().chars().filter(|c| *c != '_').collect();
            digits
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("cannot read {factor:?} in {expr:?}"))
        })
        .product()
}

/// The value of `const NAME: T = EXPR;` in `file`.
fn constant(file: &str, name: &str) -> u64 {
    let text = fs::read_to_string(root().join(file)).unwrap();
    let needle = format!("const {name}:");
    let at = text
        .find(&needle)
        .unwrap_or_else(|| panic!("{file} no longer defines `const {name}`"));
    let rest = &text[at..];
    let eq = rest.find('=').unwrap();
    let end = rest.find(';').unwrap();
    eval(&rest[eq + 1..end])
}

/// The `default_value_t` of the clap field `pub FIELD:` (or `pub(crate) FIELD:`) in `file`.
fn clap_default(file: &str, field: &str) -> u64 {
    let text = fs::read_to_string(root().join(file)).unwrap();
    let at = ["pub", "pub(crate)"]
        .iter()
        .find_map(|vis| text.find(&format!("{vis} {field}:")))
        .unwrap_or_else(|| panic!("{file} has no field {field}"));
    let before = &text[..at];
    let attr = before
        .rfind("default_value_t = ")
        .unwrap_or_else(|| panic!("{field} has no default_value_t"));
    assert!(
        !before[attr..].contains("pub "),
        "the default found for {field} belongs to another field"
    );
    let rest = &before[attr + "default_value_t = ".len()..];
    let end = rest.find(')').unwrap();
    eval(&rest[..end])
}

/// One stated figure: wherever `template` occurs in a page (its `{}` standing for a whole
/// number), the number must be `expected`.
struct Rule {
    template: &'static str,
    expected: u64,
    from: &'static str,
}

#[derive(Debug, PartialEq)]
struct Mismatch {
    page: String,
    line: usize,
    stated: u64,
    expected: u64,
    phrase: &'static str,
}

/// Every number that fills `template`'s `{}` in `text`, with its line (1-based).
fn stated(text: &str, template: &str) -> Vec<(usize, u64)> {
    let (prefix, suffix) = template.split_once("{}").expect("a template has one {}");
    let mut found = Vec::new();
    let mut from = 0;
    // Anchor on the longer fixed part, then read the digits next to it.
    if prefix.len() >= suffix.len() {
        while let Some(i) = text[from..].find(prefix) {
            let start = from + i + prefix.len();
            let digits: String = text[start..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect();
            let after = start + digits.len();
            if !digits.is_empty() && text[after..].starts_with(suffix) {
                found.push((
                    line_of(text, start),
                    digits.replace(',', "").parse().unwrap(),
                ));
            }
            from = start;
        }
    } else {
        while let Some(i) = text[from..].find(suffix) {
            let end = from + i;
            let head = &text[..end];
            let digits: String = head
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let start = end - digits.len();
            if !digits.is_empty() && head[..start].ends_with(prefix) {
                found.push((
                    line_of(text, start),
                    digits.replace(',', "").parse().unwrap(),
                ));
            }
            from = end + suffix.len();
        }
    }
    found
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Compares every rule with `text` (named `page`); returns the mismatches and, per rule,
/// how often it matched.
fn check_text(page: &str, text: &str, rules: &[Rule]) -> (Vec<Mismatch>, Vec<usize>) {
    let mut mismatches = Vec::new();
    let mut matched = Vec::new();
    for rule in rules {
        let found = stated(text, rule.template);
        matched.push(found.len());
        for (line, stated) in found {
            if stated != rule.expected {
                mismatches.push(Mismatch {
                    page: page.to_owned(),
                    line,
                    stated,
                    expected: rule.expected,
                    phrase: rule.template,
                });
            }
        }
    }
    (mismatches, matched)
}

/// The figures of the code that the pages state, each read from where the code defines it.
fn rules() -> Vec<Rule> {
    const PUBLISHED: &str = "src/dataset/published.rs";
    const CHECK: &str = "src/lab/check/run.rs";
    const LAB_CLI: &str = "crates/cli/src/commands/lab.rs";
    const WORKER: &str = "crates/cli/src/course/judge/worker.rs";
    let connect = constant(PUBLISHED, "DEFAULT_CONNECT_TIMEOUT");
    let timeout = constant(PUBLISHED, "DEFAULT_TIMEOUT");
    let max_mib = constant(PUBLISHED, "DEFAULT_MAX_BYTES") / (1024 * 1024);
    let failure_minutes = constant("src/dataset/source.rs", "DEFAULT_FAILURE_WINDOW") / 60;
    let check_seconds = constant(CHECK, "DEFAULT_SECONDS");
    let check_timeout = clap_default(LAB_CLI, "check_timeout");
    let compile_timeout = clap_default(LAB_CLI, "compile_timeout");
    let memory_mb = clap_default(LAB_CLI, "memory_mb");
    let execute_timeout = clap_default(LAB_CLI, "execute_timeout");
    let output_kib = constant(WORKER, "OUTPUT_KEPT") / 1024;
    let rule = |template, expected, from| Rule {
        template,
        expected,
        from,
    };
    vec![
        rule("allows {} s to connect", connect, PUBLISHED),
        rule("the connection gives up after {} s", connect, PUBLISHED),
        rule("to connect, {} s in all", timeout, PUBLISHED),
        rule("timed out after {} s", timeout, PUBLISHED),
        rule("waits for it (at most {} s)", timeout, PUBLISHED),
        rule("s in all and {} MiB, retries once", max_mib, PUBLISHED),
        rule(
            "remembered for {} minutes",
            failure_minutes,
            "src/dataset/source.rs",
        ),
        rule("stopped waiting after {} seconds", check_seconds, CHECK),
        rule("does\n  not return within {} s", check_seconds, CHECK),
        rule("`--check-timeout` ({} s)", check_timeout, LAB_CLI),
        rule(
            "(default {} s, as\n  in the notebook)",
            check_timeout,
            LAB_CLI,
        ),
        rule(
            "`--compile-timeout` per compilation ({} s)",
            compile_timeout,
            LAB_CLI,
        ),
        rule("`--compile-timeout` ({} s)", compile_timeout, LAB_CLI),
        rule("`--memory-mb` (default {};", memory_mb, LAB_CLI),
        rule("`--memory-mb` ({} MiB)", memory_mb, LAB_CLI),
        rule("`--execute-timeout` ({} s)", execute_timeout, LAB_CLI),
        rule("({} KiB kept per", output_kib, WORKER),
        rule("| output kept | {} KiB per stream", output_kib, WORKER),
    ]
}

#[test]
fn the_pages_state_the_codes_figures() {
    let rules = rules();
    let mut mismatches = Vec::new();
    let mut matched = vec![0; rules.len()];
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        let (found, counts) = check_text(&name, &text, &rules);
        mismatches.extend(found);
        for (total, n) in matched.iter_mut().zip(counts) {
            *total += n;
        }
    }
    let report: Vec<String> = mismatches
        .iter()
        .map(|m| {
            let from = rules.iter().find(|r| r.template == m.phrase).unwrap().from;
            format!(
                "{}:{}: states {} in {:?}, the code ({from}) says {}",
                m.page, m.line, m.stated, m.phrase, m.expected
            )
        })
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
    let unused: Vec<&str> = rules
        .iter()
        .zip(&matched)
        .filter(|(_, n)| **n == 0)
        .map(|(r, _)| r.template)
        .collect();
    assert!(
        unused.is_empty(),
        "these phrases are no longer in any page; update the rules with the new wording: {unused:?}"
    );
}

#[test]
fn a_planted_mismatch_is_caught() {
    let rules = rules();
    // The figures the pages once stated, against a code that said 3 s and 30 s.
    let planted = "The download allows 10 s to connect, 60 s in all and 64 MiB, retries once.\n\
                   e.g. `download failed: timed out after 60 s (https://…)`";
    let (mismatches, _) = check_text("planted.md", planted, &rules);
    let stated: Vec<(usize, u64, &str)> = mismatches
        .iter()
        .map(|m| (m.line, m.stated, m.phrase))
        .collect();
    assert_eq!(
        stated,
        [
            (1, 10, "allows {} s to connect"),
            (1, 60, "to connect, {} s in all"),
            (2, 60, "timed out after {} s"),
        ],
        "{mismatches:?}"
    );
    // The same sentence with the code's figures passes.
    let right = planted
        .replace("10 s to connect", "3 s to connect")
        .replace("60 s", "30 s");
    assert_eq!(check_text("right.md", &right, &rules).0, []);
    // Thousands separators and a figure at the very start of a line are read too.
    assert_eq!(stated_numbers("1,024 MiB", "{} MiB"), [1024]);
}

fn stated_numbers(text: &str, template: &str) -> Vec<u64> {
    stated(text, template).into_iter().map(|(_, n)| n).collect()
}

#[test]
fn the_constants_are_read_as_the_code_writes_them() {
    assert_eq!(eval("Duration::from_secs(10 * 60)"), 600);
    assert_eq!(eval(" 64 * 1024 * 1024"), 64 << 20);
    assert_eq!(eval("1_000"), 1000);
    assert_eq!(
        constant("src/dataset/source.rs", "DEFAULT_FAILURE_WINDOW"),
        600
    );
    assert_eq!(
        clap_default("crates/cli/src/commands/lab.rs", "check_timeout"),
        20
    );
}

/// Words about how the project was made, which a reader has no use for.
const NOT_PRODUCT_WORDS: &[&str] = &[
    "issue 1",
    "issue 2",
    "issue 3",
    "issue 4",
    "issue 5",
    "issue 6",
    "issue 7",
    "issue 8",
    "issue 9",
    "the issue's",
    "this round",
    "Target: ",
    "the target of",
    "this machine",
    "this project's machine",
    "this project's 2-core",
    "minutes here",
    "cannot be downloaded here",
    "as this one does",
    "former name",
];

fn not_product_words(text: &str) -> Vec<(usize, &'static str)> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    for word in NOT_PRODUCT_WORDS {
        let mut from = 0;
        let needle = word.to_lowercase();
        while let Some(i) = lower[from..].find(&needle) {
            found.push((line_of(text, from + i), *word));
            from += i + needle.len();
        }
    }
    found.sort();
    found
}

#[test]
fn the_pages_speak_of_the_product_not_of_how_it_was_made() {
    let mut report = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (line, word) in not_product_words(&text) {
            report.push(format!("{}:{line}: {word:?}", rel(&page)));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    // And the check itself sees such words.
    assert_eq!(
        not_product_words("Before (issue 15)\nmeasured this round"),
        [(1, "issue 1"), (2, "this round")]
    );
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

#[test]
fn the_legal_and_contributor_files_exist() {
    for file in ["LICENSE", "CONTRIBUTING.md", "CHANGELOG.md"] {
        let text = fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(text.len() > 200, "{file} is nearly empty");
    }
    let license = fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(license.contains("Apache License") && license.contains("Version 2.0"));
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("license = \"Apache-2.0\""),
        "Cargo.toml's license"
    );
}

#[test]
fn every_relative_link_of_the_pages_leads_somewhere() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            let path = target.split('#').next().unwrap();
            if path.is_empty() || path.contains("://") || path.contains(' ') {
                continue;
            }
            if !dir.join(path).exists() {
                broken.push(format!("{}: {target}", rel(&page)));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
