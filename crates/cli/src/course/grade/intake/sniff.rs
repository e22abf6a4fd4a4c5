//! What a submitted file that is no notebook is, from its first bytes, so the student reads
//! "not a notebook: a PDF document" rather than a JSON parser's complaint about line 1.

use super::zip::{Archive, looks_like_zip};

/// What `bytes` are, when they are recognizably no notebook; `None` when they may be one
/// (then the notebook parser's own words say what is wrong).
pub(crate) fn what_it_is(bytes: &[u8]) -> Option<String> {
    let start = &bytes[..bytes.len().min(1024)];
    let trimmed = start
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(&start[start.len()..], |i| &start[i..]);
    let kind = if bytes.iter().all(u8::is_ascii_whitespace) {
        "the file is empty".to_owned()
    } else if start.starts_with(b"%PDF") {
        "a PDF document".to_owned()
    } else if looks_like_zip(start) {
        zip_kind(bytes)
    } else if start.starts_with(b"\x89PNG") {
        "a PNG image".to_owned()
    } else if start.starts_with(b"\xff\xd8\xff") {
        "a JPEG image".to_owned()
    } else if start.starts_with(b"GIF8") {
        "a GIF image".to_owned()
    } else if start.starts_with(b"\xd0\xcf\x11\xe0") {
        "an older Microsoft Office document".to_owned()
    } else if start.starts_with(b"{\\rtf") {
        "an RTF document".to_owned()
    } else if trimmed.starts_with(b"<") && contains(start, b"<html") {
        "an HTML page (a notebook exported or printed, not the .ipynb file)".to_owned()
    } else {
        return None;
    };
    Some(kind)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .to_ascii_lowercase()
        .windows(needle.len())
        .any(|w| w == needle)
}

/// A zip that reached grading holds no notebook (else its notebooks were taken): what it holds.
fn zip_kind(bytes: &[u8]) -> String {
    let Ok(mut archive) = Archive::in_memory(bytes.to_vec()) else {
        return "a damaged zip archive".to_owned();
    };
    let names: Vec<String> = archive
        .entries()
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !e.folder)
        .map(|e| e.name)
        .collect();
    if names.iter().any(|n| n == "word/document.xml") {
        return "a Word document".to_owned();
    }
    if names.is_empty() {
        return "an empty zip archive".to_owned();
    }
    let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
    format!(
        "a zip archive holding no notebook ({}{})",
        shown.join(", "),
        if names.len() > 5 { ", …" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_are_no_notebook_are_named_by_what_they_are() {
        assert_eq!(what_it_is(b"").as_deref(), Some("the file is empty"));
        assert_eq!(what_it_is(b" \n").as_deref(), Some("the file is empty"));
        assert_eq!(
            what_it_is(b"%PDF-1.7\n...").as_deref(),
            Some("a PDF document")
        );
        assert!(what_it_is(b"<!DOCTYPE html>\n<html>").is_some());
        assert_eq!(what_it_is(b"{\"cells\": []}"), None);
        assert_eq!(what_it_is(b"{ not json"), None);
    }
}
