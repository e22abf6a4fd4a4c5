//! The code a student could edit, as Rust items: solution cells and cells the student added,
//! each cut into its items (`fn`, `struct`, `use`, …) with `syn`. Statements and evcxr's `:`
//! commands are left out with a note — a worker only needs the definitions. When a name is
//! defined twice, the later definition wins, as it does in the kernel when cells run in order.

use proc_macro2::LineColumn;
use syn::spanned::Spanned;

/// One item of a student's cell, in the cell's own text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The cell's position in the notebook (0-based) and its id.
    pub cell: usize,
    pub cell_id: String,
    /// The item's name and namespace, when it has one (`use` and `impl` have none).
    pub name: Option<(Namespace, String)>,
    /// The item's source text, exactly as the student wrote it.
    pub text: String,
    /// The item's first line in the cell (1-based).
    pub line: usize,
}

/// Rust's namespaces, so `struct Foo` and `fn Foo` do not replace each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Namespace {
    Value,
    Type,
    Macro,
}

/// A cell to read: its position, id and source.
#[derive(Debug, Clone)]
pub struct EditableCell {
    pub index: usize,
    pub id: String,
    pub source: String,
}

fn name_of(item: &syn::Item) -> Option<(Namespace, String)> {
    use syn::Item;
    let (namespace, ident) = match item {
        Item::Fn(f) => (Namespace::Value, &f.sig.ident),
        Item::Const(c) => (Namespace::Value, &c.ident),
        Item::Static(s) => (Namespace::Value, &s.ident),
        Item::Struct(s) => (Namespace::Type, &s.ident),
        Item::Enum(e) => (Namespace::Type, &e.ident),
        Item::Union(u) => (Namespace::Type, &u.ident),
        Item::Type(t) => (Namespace::Type, &t.ident),
        Item::Trait(t) => (Namespace::Type, &t.ident),
        Item::TraitAlias(t) => (Namespace::Type, &t.ident),
        Item::Mod(m) => (Namespace::Type, &m.ident),
        Item::Macro(m) => (Namespace::Macro, m.ident.as_ref()?),
        _ => return None,
    };
    Some((namespace, ident.to_string()))
}

/// Byte offset of a (1-based line, 0-based char column) position in `text`.
fn offset(text: &str, at: LineColumn) -> usize {
    let mut line_start = 0;
    for _ in 1..at.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    text[line_start..]
        .char_indices()
        .nth(at.column)
        .map_or(text.len(), |(i, _)| line_start + i)
}

/// The items of one cell, and notes on what was left out.
pub fn items_of(cell: &EditableCell) -> (Vec<Piece>, Vec<String>) {
    let mut notes = Vec::new();
    let where_ = format!("cell {} ({})", cell.index + 1, cell.id);
    // evcxr commands (`:dep`, `:opt`, …) are not Rust; blank them so line numbers stay.
    let mut commands = Vec::new();
    let text: String = cell
        .source
        .lines()
        .map(|line| {
            if line.trim_start().starts_with(':') {
                commands.push(line.trim().to_owned());
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    if !commands.is_empty() {
        notes.push(format!(
            "{where_}: left out the kernel command(s) {} — graded code gets no extra dependencies",
            commands.join(", ")
        ));
    }
    let items: Vec<syn::Item> = match syn::parse_file(&text) {
        Ok(file) => file.items,
        Err(_) => match syn::parse::Parser::parse_str(syn::Block::parse_within, &text) {
            Ok(statements) => {
                let total = statements.len();
                let items: Vec<syn::Item> = statements
                    .into_iter()
                    .filter_map(|s| match s {
                        syn::Stmt::Item(item) => Some(item),
                        _ => None,
                    })
                    .collect();
                if items.len() < total {
                    notes.push(format!(
                        "{where_}: left out {} statement(s) — only definitions (fn, struct, use, …) are graded",
                        total - items.len()
                    ));
                }
                items
            }
            Err(e) => {
                let at = e.span().start();
                notes.push(format!(
                    "{where_} is not valid Rust (line {}: {e}); it was left out, as the kernel would refuse it",
                    at.line
                ));
                return (Vec::new(), notes);
            }
        },
    };
    let pieces = items
        .iter()
        .map(|item| {
            let span = item.span();
            let (start, end) = (offset(&text, span.start()), offset(&text, span.end()));
            Piece {
                cell: cell.index,
                cell_id: cell.id.clone(),
                name: name_of(item),
                text: text[start..end.max(start)].to_owned(),
                line: span.start().line,
            }
        })
        .collect();
    (pieces, notes)
}

/// Keeps the last definition of each name; unnamed items all stay. Order is kept.
pub fn last_definitions(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut kept: Vec<Piece> = Vec::new();
    for piece in pieces {
        if piece.name.is_some() {
            kept.retain(|p| p.name != piece.name);
        }
        kept.push(piece);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(index: usize, source: &str) -> EditableCell {
        EditableCell {
            index,
            id: format!("c{index}"),
            source: source.to_owned(),
        }
    }

    #[test]
    fn items_keep_their_text_and_statements_are_left_out() {
        let (pieces, notes) = items_of(&cell(
            0,
            ":dep foo = \"1\"\n/// Doc.\nfn a() -> u8 { 1 }\nlet x = a();\nstruct Ünï;\nprintln!(\"{x}\");",
        ));
        let texts: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["/// Doc.\nfn a() -> u8 { 1 }", "struct Ünï;"]);
        assert_eq!(pieces[0].line, 2);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains(":dep foo"));
        assert!(notes[1].contains("2 statement(s)"));
    }

    #[test]
    fn later_definitions_replace_earlier_ones() {
        let (mut pieces, _) = items_of(&cell(0, "fn f() {}\nstruct f;\nuse std::fmt;"));
        pieces.extend(items_of(&cell(1, "fn f() { todo!() }")).0);
        let kept = last_definitions(pieces);
        let texts: Vec<&str> = kept.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["struct f;", "use std::fmt;", "fn f() { todo!() }"]);
    }

    #[test]
    fn broken_cells_are_noted() {
        let (pieces, notes) = items_of(&cell(3, "fn broken( {"));
        assert!(pieces.is_empty());
        assert!(
            notes[0].starts_with("cell 4 (c3) is not valid Rust"),
            "{notes:?}"
        );
    }
}
