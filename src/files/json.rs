//! JSON problems worded once: what kind a value is, and serde_json's message without the
//! position it appends (callers report the position in their own words, or not at all).

use serde_json::Value;

/// What kind of JSON value this is, for messages such as "found an array".
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message for `e` without its " at line L column C" suffix.
pub fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&suffix) {
        Some(message) => message.to_owned(),
        None => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_is_cut_off() {
        let e = serde_json::from_str::<Value>("[1,\n 2,]").unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 4));
        assert_eq!(json_message(&e), "trailing comma");
        let e = serde_json::from_str::<Value>("[1, 2").unwrap_err();
        assert_eq!(json_message(&e), "EOF while parsing a list");
    }
}
