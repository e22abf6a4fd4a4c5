//! Reading an executed notebook: the check results in each cell's outputs (by MIME type,
//! never by scraping text) and the signs of trouble (error outputs, panic messages).

use bpe_lab::lab::check::{RESULT_MIME, Status};
use serde_json::Value;

/// One check result found in a cell's outputs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FoundResult {
    pub(crate) exercise: String,
    pub(crate) status: Option<Status>,
    pub(crate) message: String,
    /// The whole JSON, for feedback (input, expected, got).
    pub(crate) json: Value,
}

fn outputs(cell: &Value) -> &[Value] {
    cell["outputs"].as_array().map(Vec::as_slice).unwrap_or(&[])
}

/// Every check result in the cell's outputs, in order.
pub(crate) fn check_results(cell: &Value) -> Vec<FoundResult> {
    outputs(cell)
        .iter()
        .filter_map(|o| o["data"].get(RESULT_MIME))
        .map(|data| {
            // evcxr hands JSON types over parsed; a string that failed to parse stays one.
            let json = match data {
                Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                other => other.clone(),
            };
            FoundResult {
                exercise: json["exercise"].as_str().unwrap_or_default().to_owned(),
                status: json["status"].as_str().and_then(Status::parse),
                message: json["message"].as_str().unwrap_or_default().to_owned(),
                json,
            }
        })
        .collect()
}

/// Error outputs of the cell (compile errors, panics that reached the kernel), as text.
pub(crate) fn errors(cell: &Value) -> Vec<String> {
    outputs(cell)
        .iter()
        .filter(|o| o["output_type"] == "error")
        .map(|o| {
            let name = o["ename"].as_str().unwrap_or("error");
            let value = o["evalue"].as_str().unwrap_or("");
            let first: String = value.lines().take(4).collect::<Vec<_>>().join(" / ");
            format!("{name}: {first}")
        })
        .collect()
}

fn stream_text(cell: &Value, name: &str) -> String {
    outputs(cell)
        .iter()
        .filter(|o| o["output_type"] == "stream" && o["name"] == name)
        .map(|o| match &o["text"] {
            Value::String(s) => s.clone(),
            Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
            _ => String::new(),
        })
        .collect()
}

/// Panic messages printed by the cell (the default hook's "panicked at" lines), if any.
pub(crate) fn panic_text(cell: &Value) -> Option<String> {
    let stderr = stream_text(cell, "stderr");
    let stdout = stream_text(cell, "stdout");
    [stderr, stdout]
        .into_iter()
        .flat_map(|t| {
            t.lines()
                .filter(|l| l.contains("panicked at") || l.contains("EVCXR_PANIC"))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_by_mime_type_only() {
        let cell = json!({"outputs": [
            {"output_type": "stream", "name": "stdout", "text": "{\"status\": \"passed\"}"},
            {"output_type": "execute_result", "data": {RESULT_MIME: {"exercise": "decode", "status": "failed", "message": "m"}}},
            {"output_type": "display_data", "data": {RESULT_MIME: "{\"exercise\":\"decode\",\"status\":\"passed\"}"}}
        ]});
        let found = check_results(&cell);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].status, Some(Status::Failed));
        assert_eq!(found[1].status, Some(Status::Passed));
    }

    #[test]
    fn errors_and_panics() {
        let cell = json!({"outputs": [
            {"output_type": "stream", "name": "stderr", "text": ["thread '<main>' panicked at src/lib.rs:3:5:\n", "boom\n"]},
            {"output_type": "error", "ename": "Error", "evalue": "cannot find value `x`\nmore", "traceback": []}
        ]});
        assert_eq!(errors(&cell), ["Error: cannot find value `x` / more"]);
        assert!(panic_text(&cell).unwrap().contains("panicked at"));
    }
}
