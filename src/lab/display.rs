//! evcxr's display protocol and small HTML helpers.
//!
//! evcxr turns stdout lines between `EVCXR_BEGIN_CONTENT <mime>` and `EVCXR_END_CONTENT` into
//! one output of that MIME type for the cell (JSON types are parsed as JSON). Everything shown
//! here also carries a `text/plain` version, so executed notebooks read well as text too.

use std::fmt::Write as _;
use std::io::Write as _;

/// Prints one output bundle: every `(mime type, content)` pair in evcxr's protocol, in one
/// write so concurrent output cannot interleave.
pub fn emit(bundle: &[(&str, &str)]) {
    let mut out = String::new();
    for (mime, content) in bundle {
        // A line equal to the end marker would cut the content short; nothing we build has one.
        let _ = writeln!(
            out,
            "EVCXR_BEGIN_CONTENT {mime}\n{content}\nEVCXR_END_CONTENT"
        );
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
}

/// Shows `html` as the cell's rich output, with `text` as its plain-text version.
pub fn show_html(html: &str, text: &str) {
    emit(&[("text/html", html), ("text/plain", text)]);
}

/// Shows an SVG drawing as the cell's output, with `text` as its plain-text version (the
/// plots and bar charts).
pub fn show_svg(svg: &str, text: &str) {
    emit(&[("image/svg+xml", svg), ("text/plain", text)]);
}

/// Shows `text` as the cell's plain-text output (a line printed with `println!` does the same
/// as a stream; this one is the cell's result).
pub fn show_text(text: &str) {
    emit(&[("text/plain", text)]);
}

/// An HTML fragment with a plain-text version. Evaluating an `Html` as a cell's last
/// expression shows it (evcxr calls [`Html::evcxr_display`]).
///
/// ```
/// use bpe_lab::lab::display::{Html, table};
/// let t: Html = table(&["pair", "count"], &[vec!["('e', '</w>')".into(), "3".into()]]);
/// assert!(t.html.contains("<table") && t.text.contains("('e', '</w>')"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Html {
    pub html: String,
    pub text: String,
}

impl Html {
    pub fn new(html: impl Into<String>, text: impl Into<String>) -> Html {
        Html {
            html: html.into(),
            text: text.into(),
        }
    }

    /// Shows it as the cell's output.
    pub fn show(&self) {
        show_html(&self.html, &self.text);
    }

    /// Called by evcxr when an `Html` is a cell's final expression.
    pub fn evcxr_display(&self) {
        self.show();
    }
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table cell's style. `pre-wrap` keeps every space of the cell as typed (HTML would fold
/// `"a  b"` into `"a b"`, hiding the very double space a round-trip table is about) and still
/// wraps long cells.
const CELL_STYLE: &str = "text-align:left;padding:2px 10px;white-space:pre-wrap";

/// A table with a header row; cells are text (escaped here), spaces kept as they are. The
/// plain-text version aligns columns with spaces.
///
/// ```
/// use bpe_lab::lab::display::table;
/// let t = table(&["text"], &[vec!["Is the  river".into()]]);
/// assert!(t.html.contains(">Is the  river<") && t.html.contains("white-space:pre-wrap"));
/// ```
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> Html {
    let mut html =
        String::from("<table style=\"border-collapse:collapse;font-family:monospace\"><thead><tr>");
    for h in headers {
        let _ = write!(
            html,
            "<th style=\"{CELL_STYLE};border-bottom:1px solid #999\">{}</th>",
            escape(h)
        );
    }
    html.push_str("</tr></thead><tbody>");
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            let _ = write!(html, "<td style=\"{CELL_STYLE}\">{}</td>", escape(cell));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>");
    Html::new(html, plain_table(headers, rows))
}

fn plain_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let columns = headers
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut widths = vec![0; columns];
    let header_row: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header_row).chain(rows) {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(width(cell));
        }
    }
    let mut text = String::new();
    for row in std::iter::once(&header_row).chain(rows) {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| padded(cell, widths[i]))
            .collect();
        let _ = writeln!(text, "{}", line.join("  ").trim_end());
    }
    text
}

/// How many columns `text` takes in a monospaced font, near enough to align tables: a
/// combining mark (`\p{M}`), a zero-width joiner or a variation selector takes none (it sits
/// on the character before it), an emoji or a CJK character two, anything else one. `{:<12}`
/// counts characters instead, so `Yoru\u{300}ba\u{301}` (8 characters, 6 columns) would be
/// padded short.
///
/// ```
/// use bpe_lab::lab::display::width;
/// assert_eq!(width("Yoru\u{300}ba\u{301}"), 6);
/// assert_eq!(width("ኢትዮጵያ"), 5);
/// assert_eq!(width("🙂"), 2);
/// ```
pub fn width(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            c if crate::bpe::bytelevel::classes::is_mark(c) => 0,
            '\u{200B}'..='\u{200F}' | '\u{FE00}'..='\u{FE0F}' | '\u{2060}'..='\u{206F}' => 0,
            '\u{1F000}'..='\u{1FAFF}'
            | '\u{2E80}'..='\u{9FFF}'
            | '\u{AC00}'..='\u{D7AF}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{FF00}'..='\u{FF60}'
            | '\u{20000}'..='\u{3FFFD}' => 2,
            _ => 1,
        })
        .sum()
}

/// `text` followed by spaces up to `columns` columns as [`width`] counts them: the
/// width-aware `{:<columns$}`.
///
/// ```
/// use bpe_lab::lab::display::padded;
/// assert_eq!(padded("Yoru\u{300}ba\u{301}", 8), "Yoru\u{300}ba\u{301}  ");
/// ```
pub fn padded(text: &str, columns: usize) -> String {
    let mut out = text.to_string();
    out.extend(std::iter::repeat_n(
        ' ',
        columns.saturating_sub(width(text)),
    ));
    out
}

/// A piece of text as a table shows it: a piece that starts with a combining mark gets the
/// dotted circle `◌` (U+25CC) in front, as Unicode's charts show a mark on its own, so that the
/// mark does not sit on the quote before it (`'̀ba'`).
///
/// ```
/// assert_eq!(bpe_lab::lab::display::mark_on_circle("\u{300}ba"), "\u{25CC}\u{300}ba");
/// assert_eq!(bpe_lab::lab::display::mark_on_circle("ba"), "ba");
/// ```
pub fn mark_on_circle(piece: &str) -> String {
    match piece.chars().next() {
        Some(c) if crate::bpe::bytelevel::classes::is_mark(c) => format!("\u{25CC}{piece}"),
        _ => piece.to_string(),
    }
}

/// `text` with every space shown as `·` (a middle dot), for comparing texts whose spaces
/// matter: `"a··b"` is plainly not `"a·b"`, in any font.
///
/// ```
/// assert_eq!(bpe_lab::lab::display::visible_spaces("Is the  river"), "Is·the··river");
/// ```
pub fn visible_spaces(text: &str) -> String {
    text.replace(' ', "·")
}

/// A pair as Python prints a tuple of strings: `('e', '</w>')`.
pub fn python_pair(pair: &(String, String)) -> String {
    format!("({}, {})", python_str(&pair.0), python_str(&pair.1))
}

/// A string as Python's `repr` shows it, for the common cases in the lab (quotes chosen as
/// Python does; backslash, newline, tab and carriage return escaped).
pub fn python_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<w>&'\""), "&lt;w&gt;&amp;&#39;&quot;");
    }

    #[test]
    fn python_reprs() {
        assert_eq!(python_str("ab"), "'ab'");
        assert_eq!(python_str("it's"), "\"it's\"");
        assert_eq!(python_str("a'\"b"), "'a\\'\"b'");
        assert_eq!(python_pair(&("e".into(), "</w>".into())), "('e', '</w>')");
    }

    #[test]
    fn tables_keep_every_space() {
        let t = table(
            &["text", "back"],
            &[vec!["Is the  river".into(), "  two  ".into()]],
        );
        // Each cell's text is in the HTML unchanged, in a cell that keeps white space.
        assert!(t.html.contains("\">Is the  river</td>"), "{}", t.html);
        assert!(t.html.contains("\">  two  </td>"), "{}", t.html);
        assert_eq!(t.html.matches("white-space:pre-wrap").count(), 4);
        assert!(t.text.contains("Is the  river"));
    }

    #[test]
    fn plain_table_aligns_columns() {
        let t = table(&["a", "bb"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t.text, "a    bb\nxyz  1\n");
    }
}
