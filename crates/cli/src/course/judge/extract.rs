//! The code a student could edit, as Rust items: solution cells and cells the student added,
//! each cut into its items (`fn`, `struct`, `use`, …) with `syn`. Statements and evcxr's `:`
//! commands are left out with a note — a worker only needs the definitions. When a name is
//! defined twice, the later definition wins, as it does in the kernel when cells run in order.

use super::note::CellNote;
use crate::course::notebook::CellRef;
use proc_macro2::LineColumn;
use syn::spanned::Spanned;

/// One item of a student's cell, in the cell's own text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    /// The cell's position in the notebook (0-based) and its id.
    pub(crate) cell: usize,
    pub(crate) cell_id: String,
    /// The item's name and namespace, when it has one (`use` and `impl` have none).
    pub(crate) name: Option<(Namespace, String)>,
    /// The item's source text, exactly as the student wrote it.
    pub(crate) text: String,
    /// The item's first line in the cell (1-based).
    pub(crate) line: usize,
}

/// Rust's namespaces, so `struct Foo` and `fn Foo` do not replace each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Namespace {
    Value,
    Type,
    Macro,
}

/// A cell to read: its position, id and source.
#[derive(Debug, Clone)]
pub(crate) struct EditableCell {
    pub(crate) index: usize,
    pub(crate) id: String,
    pub(crate) source: String,
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
pub(crate) fn offset(text: &str, at: LineColumn) -> usize {
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
pub(crate) fn items_of(cell: &EditableCell) -> (Vec<Piece>, Vec<CellNote>) {
    let mut notes = Vec::new();
    let here = CellRef {
        number: cell.index + 1,
        id: cell.id.clone(),
    };
    let (text, commands) = without_commands(&cell.source);
    if !commands.is_empty() {
        notes.push(CellNote::KernelCommands {
            cell: here.clone(),
            commands,
        });
    }
    let items = match parse_items(&text) {
        Ok((items, 0)) => items,
        Ok((items, count)) => {
            notes.push(CellNote::Statements { cell: here, count });
            items
        }
        Err(e) => {
            notes.push(CellNote::NotRust {
                cell: here,
                line: e.span().start().line,
                error: e.to_string(),
            });
            return (Vec::new(), notes);
        }
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

/// The cell's text with evcxr's commands (`:dep`, `:opt`, …) blanked, so line numbers stay,
/// and the commands.
fn without_commands(source: &str) -> (String, Vec<String>) {
    let mut commands = Vec::new();
    let text = source
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
    (text, commands)
}

/// The items of `text` read as a file, else as a block's statements; with the number of
/// statements that are not items (left out).
fn parse_items(text: &str) -> syn::Result<(Vec<syn::Item>, usize)> {
    if let Ok(file) = syn::parse_file(text) {
        return Ok((file.items, 0));
    }
    let statements = syn::parse::Parser::parse_str(syn::Block::parse_within, text)?;
    let total = statements.len();
    let items: Vec<syn::Item> = statements
        .into_iter()
        .filter_map(|s| match s {
            syn::Stmt::Item(item) => Some(item),
            _ => None,
        })
        .collect();
    let left_out = total - items.len();
    Ok((items, left_out))
}

/// Keeps the last definition of each name; unnamed items all stay. Order is kept.
pub(crate) fn last_definitions(pieces: Vec<Piece>) -> Vec<Piece> {
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
        assert!(notes[0].to_string().contains(":dep foo"));
        assert!(notes[1].to_string().contains("2 statement(s)"));
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
            notes[0]
                .to_string()
                .starts_with("cell 4 (c3) is not valid Rust"),
            "{notes:?}"
        );
    }
}
