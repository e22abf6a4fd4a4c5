//! The test cell's format: its metadata key, the hidden-test markers, and the named tests
//! read out of its Rust (`own_test!("name", points, { … })`, plus any helper items).

use crate::course::judge::extract::offset;
use serde_json::Value;
use std::fmt;
use syn::spanned::Spanned;

/// The marker lines around tests only the grader runs (nbgrader's words, as Rust comments).
pub(crate) const BEGIN_HIDDEN: &str = "// BEGIN HIDDEN TESTS";
pub(crate) const END_HIDDEN: &str = "// END HIDDEN TESTS";

/// The macro a test cell's tests are written with.
const MACRO: &str = "own_test";

/// The exercise a test cell grades (`metadata.bpe_lab.own_test`), when it is one.
pub(crate) fn own_exercise(cell: &Value) -> Option<&str> {
    cell["metadata"]["bpe_lab"]["own_test"].as_str()
}

/// Why a test cell cannot be used, in the instructor's terms (lines are the cell's, 1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TestCellError {
    /// A `// BEGIN HIDDEN TESTS` inside the region opened on line `open`.
    Nested { line: usize, open: usize },
    /// A `// END HIDDEN TESTS` with no region open.
    Unopened { line: usize },
    /// The region opened on line `open` never ends.
    Unclosed { open: usize },
    /// The cell's Rust does not parse.
    NotRust { hidden: bool, problem: String },
    /// An `own_test!` whose arguments are not a string, a number of points and a block.
    BadTest { problem: String },
    /// Something other than `own_test!` calls and items (functions, `use`, …).
    Statement { what: String },
    /// Two tests of one name.
    SameName { name: String },
    /// No `own_test!` at all.
    NoTests,
}

impl fmt::Display for TestCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestCellError::Nested { line, open } => write!(
                f,
                "line {line}: {BEGIN_HIDDEN} inside the hidden tests opened on line {open}"
            ),
            TestCellError::Unopened { line } => {
                write!(f, "line {line}: {END_HIDDEN} without a {BEGIN_HIDDEN}")
            }
            TestCellError::Unclosed { open } => {
                write!(
                    f,
                    "line {open}: {BEGIN_HIDDEN} is never closed by {END_HIDDEN}"
                )
            }
            TestCellError::NotRust { hidden, problem } => write!(
                f,
                "the {} tests are not Rust the grader can read: {problem}",
                if *hidden { "hidden" } else { "visible" }
            ),
            TestCellError::BadTest { problem } => write!(
                f,
                "{MACRO}! takes a name (a string), points (a number) and a block: \
                 `{MACRO}!(\"name\", 2, {{ assert!(…); }});` ({problem})"
            ),
            TestCellError::Statement { what } => write!(
                f,
                "a test cell holds {MACRO}! tests and items (functions, `use`) only, not {what}"
            ),
            TestCellError::SameName { name } => write!(f, "two tests are named {name:?}"),
            TestCellError::NoTests => write!(f, "a test cell needs at least one {MACRO}! test"),
        }
    }
}

impl std::error::Error for TestCellError {}

/// The cell's text split at the markers: what students see, and what only the grader runs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Split {
    visible: String,
    hidden: String,
}

fn split(text: &str) -> Result<Split, TestCellError> {
    let mut out = Split {
        visible: String::new(),
        hidden: String::new(),
    };
    let mut inside: Option<usize> = None;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let line_number = number + 1;
        match (line.trim(), inside) {
            (BEGIN_HIDDEN, None) => inside = Some(line_number),
            (BEGIN_HIDDEN, Some(open)) => {
                return Err(TestCellError::Nested {
                    line: line_number,
                    open,
                });
            }
            (END_HIDDEN, Some(_)) => inside = None,
            (END_HIDDEN, None) => return Err(TestCellError::Unopened { line: line_number }),
            (_, Some(_)) => out.hidden.push_str(line),
            (_, None) => out.visible.push_str(line),
        }
    }
    if let Some(open) = inside {
        return Err(TestCellError::Unclosed { open });
    }
    Ok(out)
}

/// The student's version of a test cell: every hidden region, markers included, removed.
pub(crate) fn strip_hidden(text: &str) -> Result<String, TestCellError> {
    let mut visible = split(text)?.visible;
    if !text.ends_with('\n') && visible.ends_with('\n') {
        visible.pop();
    }
    Ok(visible)
}

/// One named test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OwnTest {
    pub(crate) name: String,
    pub(crate) points: f64,
    /// The block, as Rust the worker compiles (`{ assert!(…); }`).
    pub(crate) body: String,
    /// Between the hidden-test markers: run only when grading, never shown to students.
    pub(crate) hidden: bool,
}

/// A test cell as the grader reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OwnTestCell {
    /// The exercise it grades: its gradebook column.
    pub(crate) exercise: String,
    pub(crate) tests: Vec<OwnTest>,
    /// Helper items of the cell (functions, `use`), visible and hidden, as Rust.
    pub(crate) items: Vec<String>,
    /// Helper items of the visible part only.
    pub(crate) visible_items: Vec<String>,
}

/// The text of `text` that `span` covers, as the instructor wrote it.
fn cut(text: &str, span: proc_macro2::Span) -> String {
    text[offset(text, span.start())..offset(text, span.end())].to_owned()
}

/// `own_test!`'s arguments.
struct TestArgs {
    name: syn::LitStr,
    points: f64,
    body: syn::Block,
}

impl syn::parse::Parse for TestArgs {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<TestArgs> {
        let name: syn::LitStr = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let points = match input.parse::<syn::Lit>()? {
            syn::Lit::Int(n) => n.base10_parse::<u64>()? as f64,
            syn::Lit::Float(n) => n.base10_parse::<f64>()?,
            other => return Err(syn::Error::new(other.span(), "points must be a number")),
        };
        input.parse::<syn::Token![,]>()?;
        let body: syn::Block = input.parse()?;
        let _ = input.parse::<Option<syn::Token![,]>>()?;
        Ok(TestArgs { name, points, body })
    }
}

impl OwnTestCell {
    /// Reads the test cell of `exercise` from its full text (the instructor's, hidden tests
    /// included; a student's copy simply has none).
    pub(crate) fn parse(exercise: &str, text: &str) -> Result<OwnTestCell, TestCellError> {
        let parts = split(text)?;
        let mut cell = OwnTestCell {
            exercise: exercise.to_owned(),
            tests: Vec::new(),
            items: Vec::new(),
            visible_items: Vec::new(),
        };
        for (part, hidden) in [(&parts.visible, false), (&parts.hidden, true)] {
            let file = syn::parse_file(part).map_err(|e| TestCellError::NotRust {
                hidden,
                problem: e.to_string(),
            })?;
            for item in file.items {
                match item {
                    syn::Item::Macro(m) if m.mac.path.is_ident(MACRO) => {
                        let args: TestArgs =
                            m.mac.parse_body().map_err(|e| TestCellError::BadTest {
                                problem: e.to_string(),
                            })?;
                        let name = args.name.value();
                        if cell.tests.iter().any(|t| t.name == name) {
                            return Err(TestCellError::SameName { name });
                        }
                        cell.tests.push(OwnTest {
                            name,
                            points: args.points,
                            body: cut(part, args.body.span()),
                            hidden,
                        });
                    }
                    syn::Item::Macro(m) => {
                        return Err(TestCellError::Statement {
                            what: format!("a call of {}!", cut(part, m.mac.path.span())),
                        });
                    }
                    syn::Item::Verbatim(v) => {
                        return Err(TestCellError::Statement {
                            what: format!("`{}`", cut(part, v.span())),
                        });
                    }
                    item => {
                        let text = cut(part, item.span());
                        if !hidden {
                            cell.visible_items.push(text.clone());
                        }
                        cell.items.push(text);
                    }
                }
            }
        }
        if cell.tests.is_empty() {
            return Err(TestCellError::NoTests);
        }
        Ok(cell)
    }

    /// The exercise's points: the sum of its tests'.
    pub(crate) fn points(&self) -> f64 {
        self.tests.iter().map(|t| t.points).sum()
    }

    /// Whether some tests are hidden from students.
    pub(crate) fn has_hidden(&self) -> bool {
        self.tests.iter().any(|t| t.hidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CELL: &str = "fn words(n: usize) -> String { vec![\"a\"; n].join(\" \") }\n\
own_test!(\"counts two\", 2, {\n    assert_eq!(count_tokens(\"a b\"), 2);\n});\n\
// BEGIN HIDDEN TESTS\nown_test!(\"counts many\", 1.5, {\n    assert_eq!(count_tokens(&words(9)), 9);\n});\n// END HIDDEN TESTS\n";

    #[test]
    fn tests_are_read_with_names_points_and_whether_hidden() {
        let cell = OwnTestCell::parse("count_tokens", CELL).unwrap();
        let names: Vec<(&str, f64, bool)> = cell
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.points, t.hidden))
            .collect();
        assert_eq!(
            names,
            [("counts two", 2.0, false), ("counts many", 1.5, true)]
        );
        assert_eq!(cell.points(), 3.5);
        assert!(cell.tests[1].body.contains("count_tokens"));
        assert_eq!(cell.items.len(), 1);
        assert!(cell.has_hidden());
    }

    #[test]
    fn stripping_removes_the_hidden_region_and_its_markers() {
        let student = strip_hidden(CELL).unwrap();
        assert!(!student.contains("counts many"), "{student}");
        assert!(!student.contains("HIDDEN"), "{student}");
        assert!(student.contains("counts two"));
        let cell = OwnTestCell::parse("count_tokens", &student).unwrap();
        assert_eq!(cell.tests.len(), 1);
        assert!(!cell.has_hidden());
    }

    #[test]
    fn markers_that_do_not_pair_are_refused_by_line() {
        let unclosed =
            "own_test!(\"a\", 1, {});\n// BEGIN HIDDEN TESTS\nown_test!(\"b\", 1, {});\n";
        assert_eq!(
            strip_hidden(unclosed),
            Err(TestCellError::Unclosed { open: 2 })
        );
        let unopened = "own_test!(\"a\", 1, {});\n// END HIDDEN TESTS\n";
        assert_eq!(
            strip_hidden(unopened),
            Err(TestCellError::Unopened { line: 2 })
        );
        let nested = "// BEGIN HIDDEN TESTS\n// BEGIN HIDDEN TESTS\n// END HIDDEN TESTS\n";
        assert_eq!(
            strip_hidden(nested),
            Err(TestCellError::Nested { line: 2, open: 1 })
        );
        assert!(
            TestCellError::Unclosed { open: 2 }
                .to_string()
                .contains("line 2: // BEGIN HIDDEN TESTS is never closed")
        );
    }

    #[test]
    fn malformed_cells_are_refused_saying_why() {
        let bad = |text: &str| OwnTestCell::parse("x", text).unwrap_err();
        assert!(matches!(
            bad("own_test!(\"a\", {});"),
            TestCellError::BadTest { .. }
        ));
        assert!(matches!(
            bad("own_test!(1, 1, {});"),
            TestCellError::BadTest { .. }
        ));
        assert!(matches!(
            bad("println!(\"hi\");"),
            TestCellError::Statement { .. }
        ));
        assert_eq!(
            bad("own_test!(\"a\", 1, {});\nown_test!(\"a\", 1, {});"),
            TestCellError::SameName { name: "a".into() }
        );
        assert_eq!(bad("fn helper() {}"), TestCellError::NoTests);
        assert!(matches!(
            bad("own_test!(\"a\", 1, { let });"),
            TestCellError::BadTest { .. }
        ));
    }
}
