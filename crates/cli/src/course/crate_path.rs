//! How the notebooks find the crate (`:dep bpe-lab = { path = ".." … }`), and the one thing in a
//! protected cell that differs between releases of the same cells: `lab release` keeps the
//! relative path, `lab nbgrader-course` writes an absolute one. Comparing cells and naming a
//! release both put the path back first, so neither takes the other's notebook for an edit.

use std::borrow::Cow;

/// How the notebooks find the crate (`:dep bpe-lab = { path = ".." … }`).
pub(crate) const RELATIVE_CRATE: &str = "path = \"..\"";

/// `text` with the crate's path in its `:dep bpe-lab = { path = "…" … }` lines put back to the
/// released `".."`: the one thing `lab nbgrader-course` varies in a protected cell, so a cell
/// of an nbgrader-made notebook compares equal to the cell `lab release` wrote (and a
/// student's untouched setup cell is not taken for an edit).
pub(crate) fn with_relative_crate(text: &str) -> Cow<'_, str> {
    if !text.contains(":dep bpe-lab") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match crate_path_span(line) {
            Some((start, end)) => {
                out.push_str(&line[..start]);
                out.push_str(RELATIVE_CRATE);
                out.push_str(&line[end..]);
            }
            None => out.push_str(line),
        }
    }
    Cow::Owned(out)
}

/// Where `path = "…"` (the quoted path with its escapes, as `{:?}` writes it) sits in a
/// `:dep bpe-lab` line, as a byte range.
fn crate_path_span(line: &str) -> Option<(usize, usize)> {
    if !line.trim_start().starts_with(":dep bpe-lab") {
        return None;
    }
    let start = line.find("path = \"")?;
    let quoted = start + "path = \"".len();
    let mut escaped = false;
    for (i, c) in line[quoted..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some((start, quoted + i + 1)),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_crate_path_is_put_back() {
        let odd =
            ":dep bpe-lab = { path = \"/a \\\"b\\\" c\", features = [\"x\"] }\nlet path = \"/x\";";
        assert_eq!(
            with_relative_crate(odd),
            ":dep bpe-lab = { path = \"..\", features = [\"x\"] }\nlet path = \"/x\";"
        );
        assert_eq!(
            with_relative_crate(":dep other = { path = \"/o\" }"),
            ":dep other = { path = \"/o\" }"
        );
        assert!(matches!(
            with_relative_crate("let a = 1;"),
            Cow::Borrowed(_)
        ));
    }
}
