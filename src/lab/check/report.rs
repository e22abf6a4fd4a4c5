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
        inline_markdown(&check.message)
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
            inline_markdown(&check.hint)
        );
    }
    html.push_str("</div>");
    html
}

/// `text` escaped for HTML, with its inline code spans (`` `like this` ``) shown as `<code>`.
/// Messages and hints are written in the notebooks' Markdown, where a student reads backticks
/// as code; HTML would show them raw. Escaping comes first, so nothing in `text` can become a
/// tag; a backtick without a partner stays a backtick.
fn inline_markdown(text: &str) -> String {
    let escaped = escape(text);
    let parts: Vec<&str> = escaped.split('`').collect();
    let mut html = String::with_capacity(escaped.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let inside_backticks = i % 2 == 1;
        // With an odd number of backticks the last part has no closing one.
        let closed = i + 1 < parts.len();
        match (inside_backticks, closed) {
            (true, true) => {
                let _ = write!(html, "<code>{part}</code>");
            }
            (true, false) => {
                html.push('`');
                html.push_str(part);
            }
            (false, _) => html.push_str(part),
        }
    }
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
    fn inline_code_in_messages_and_hints_is_shown_as_code() {
        assert_eq!(
            inline_markdown("replace `todo!()` with `a < b`"),
            "replace <code>todo!()</code> with <code>a &lt; b</code>"
        );
        // Escaped before the spans are made: a tag inside backticks stays text.
        assert_eq!(
            inline_markdown("`<b>` & <i>"),
            "<code>&lt;b&gt;</code> &amp; &lt;i&gt;"
        );
        // A backtick without a partner is kept as it is.
        assert_eq!(inline_markdown("a ` b"), "a ` b");
        assert_eq!(inline_markdown("`x` and ` y"), "<code>x</code> and ` y");
        assert_eq!(inline_markdown("no code"), "no code");

        let mut check = failed();
        check.message = "the body is still `todo!()`".into();
        check.hint = "Try `paragraph.split(' ')`.".into();
        let html = html(&check);
        assert!(html.contains("still <code>todo!()</code>"), "{html}");
        assert!(
            html.contains("Try <code>paragraph.split(&#39; &#39;)</code>."),
            "{html}"
        );
        assert!(!html.contains('`'), "{html}");
        // The plain-text view keeps the Markdown as written.
        assert!(text(&check).contains("`todo!()`"));
    }

    #[test]
    fn text_lists_the_counterexample() {
        let text = text(&failed());
        assert!(text.starts_with("❌ merge_pair_in_word"));
        assert!(text.contains("expected: [\"aa\", \"a\"]"));
    }
}
