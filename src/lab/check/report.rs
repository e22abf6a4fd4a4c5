//! How a check result looks: HTML for people, plain text for text-only readers, JSON for
//! `lab verify` — all three in one output bundle.

use super::nbgrader;
use super::result::{Check, Status};
use crate::lab::display::{emit, escape};
use serde_json::json;
use std::fmt::Write as _;

/// The MIME type of the machine-readable result in a check cell's output.
pub const RESULT_MIME: &str = "application/vnd.bpe-lab.check+json";
/// Version of the result's JSON layout.
pub const RESULT_SCHEMA: u32 = 1;

impl Check {
    /// Shows the result (HTML, plain text and the machine-readable JSON) as the cell's output.
    /// Under nbgrader's autograde or validate, a result that did not pass then ends the cell
    /// with an error ([`nbgrader`]).
    pub fn show(&self) {
        show(self);
        nbgrader::end_cell_unless_passed(self);
    }

    /// Called by evcxr when a `Check` is a cell's final expression.
    pub fn evcxr_display(&self) {
        self.show();
    }

    /// The machine-readable result (what [`RESULT_MIME`] carries).
    pub fn to_json(&self) -> serde_json::Value {
        json(self)
    }
}

fn show(check: &Check) {
    let json = json(check).to_string();
    emit(&[
        ("text/html", &html(check)),
        ("text/plain", &text(check)),
        (RESULT_MIME, &json),
    ]);
}

fn json(check: &Check) -> serde_json::Value {
    let mut value = json!({
        "schema": RESULT_SCHEMA,
        "exercise": check.exercise,
        "status": check.status.as_str(),
        "message": check.message,
        "cases": check.cases,
    });
    if let Some(c) = &check.counterexample {
        value["input"] = json!(c.input);
        value["expected"] = json!(c.expected);
        value["got"] = json!(c.got);
    }
    value
}

fn icon(status: Status) -> &'static str {
    match status {
        Status::Passed => "✅",
        Status::NotImplemented => "✏️",
        _ => "❌",
    }
}

fn text(check: &Check) -> String {
    let mut text = format!(
        "{} {}: {}",
        icon(check.status),
        check.exercise,
        check.message
    );
    if let Some(c) = &check.counterexample {
        let _ = write!(
            text,
            "\n  input:    {}\n  expected: {}\n  got:      {}",
            c.input, c.expected, c.got
        );
    }
    text
}

fn html(check: &Check) -> String {
    let (border, background) = match check.status {
        Status::Passed => ("#2e7d32", "#edf7ed"),
        Status::NotImplemented => ("#8a6d00", "#fff8e1"),
        _ => ("#c62828", "#fdecea"),
    };
    let mut html = format!(
        "<div style=\"border-left:5px solid {border};background:{background};color:#000;\
         padding:8px 12px;font-family:sans-serif\">\
         <div style=\"font-size:15px\">{} <b><code>{}</code></b>: {}</div>",
        icon(check.status),
        escape(&check.exercise),
        escape(&check.message)
    );
    if let Some(c) = &check.counterexample {
        let row = |label: &str, value: &str| {
            format!(
                "<tr><td style=\"padding:2px 8px;vertical-align:top\"><b>{label}</b></td>\
                 <td style=\"padding:2px 8px\"><pre style=\"margin:0;white-space:pre-wrap\">{}</pre></td></tr>",
                escape(value)
            )
        };
        let _ = write!(
            html,
            "<table style=\"margin-top:6px\">{}{}{}</table>",
            row("input", &c.input),
            row("expected", &c.expected),
            row(
                if matches!(check.status, Status::Panicked | Status::Crashed) {
                    "panic"
                } else {
                    "got"
                },
                &c.got
            )
        );
    }
    if !check.hint.is_empty() && check.status != Status::Passed {
        let _ = write!(
            html,
            "<details style=\"margin-top:6px\"><summary>Hint</summary><div>{}</div></details>",
            escape(&check.hint)
        );
    }
    html.push_str("</div>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::check::Counterexample;

    fn failed() -> Check {
        Check {
            exercise: "merge_pair_in_word".into(),
            status: Status::Failed,
            message: "wrong result on 1 of 10 cases".into(),
            counterexample: Some(Counterexample {
                input: "[\"a\", \"a\", \"a\"]".into(),
                expected: "[\"aa\", \"a\"]".into(),
                got: "<aa>".into(),
            }),
            cases: 10,
            hint: "Advance by <two>.".into(),
        }
    }

    #[test]
    fn json_has_the_grader_fields() {
        let value = json(&failed());
        assert_eq!(value["exercise"], "merge_pair_in_word");
        assert_eq!(value["status"], "failed");
        assert_eq!(value["expected"], "[\"aa\", \"a\"]");
        assert!(value["message"].as_str().unwrap().contains("wrong"));
    }

    #[test]
    fn html_escapes_and_hides_the_hint() {
        let html = html(&failed());
        assert!(html.contains("&lt;aa&gt;") && !html.contains("<aa>"));
        assert!(html.contains("<details") && html.contains("Advance by &lt;two&gt;."));
    }

    #[test]
    fn text_lists_the_counterexample() {
        let text = text(&failed());
        assert!(text.starts_with("❌ merge_pair_in_word"));
        assert!(text.contains("expected: [\"aa\", \"a\"]"));
    }
}
