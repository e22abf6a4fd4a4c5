//! Every public path the notebooks use, and the fixed API of docs/library.md, names something
//! in the library: a change that moves or hides one fails here, in `cargo test`, not in a
//! student's kernel. The paths are read from the notebooks' code cells (students' and
//! instructors'), so a new notebook cell is covered without editing a list; they are resolved
//! through the library's modules and re-exports by the same reader the layers test uses.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::str::FromStr;

use proc_macro2::{TokenStream, TokenTree};

use super::layers::{House, LIB, real_sources};

/// The fixed public API (docs/library.md, "The fixed API"), all at the crate root.
const FIXED_API: &[&str] = &[
    "EOW",
    "train_bpe",
    "apply_merges",
    "bpe_initialize",
    "get_pair_frequencies",
    "merge_pair_in_word",
    "learn_bpe",
];

/// Every `bpe_lab::…` path of `tokens`: `use` trees expanded (a glob names its module), and
/// paths in code.
fn paths_in(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let is_sep = |i: usize| {
        matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':')
            && matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
    };
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => paths_in(g.stream(), out),
            TokenTree::Ident(id) if id == "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                    .map_or(tokens.len(), |e| i + e + 1);
                let stream: TokenStream = tokens[i..end].iter().cloned().collect();
                if let Ok(u) = syn::parse2::<syn::ItemUse>(stream) {
                    use_paths(&u.tree, Vec::new(), out);
                    i = end;
                    continue;
                }
            }
            TokenTree::Ident(id) if id == LIB && is_sep(i + 1) => {
                let mut path = vec![LIB.to_string()];
                let mut j = i + 1;
                while is_sep(j)
                    && let Some(TokenTree::Ident(next)) = tokens.get(j + 2)
                {
                    path.push(next.to_string());
                    j += 3;
                }
                out.push(path);
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

fn use_paths(tree: &syn::UseTree, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let from_lib = |p: &Vec<String>| p.first().is_some_and(|f| f == LIB);
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
        }
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix.clone(), out);
            }
        }
        syn::UseTree::Name(n) => {
            if n.ident != "self" {
                prefix.push(n.ident.to_string());
            }
            if from_lib(&prefix) {
                out.push(prefix);
            }
        }
        syn::UseTree::Rename(r) => {
            if r.ident != "self" {
                prefix.push(r.ident.to_string());
            }
            if from_lib(&prefix) {
                out.push(prefix);
            }
        }
        syn::UseTree::Glob(_) => {
            if from_lib(&prefix) {
                out.push(prefix);
            }
        }
    }
}

/// Each path the notebooks and the fixed API use, with where it was first seen.
fn used_paths() -> BTreeMap<Vec<String>, String> {
    let root = Path::new(env!("BPE_LAB_REPO"));
    let mut used = BTreeMap::new();
    for name in FIXED_API {
        used.insert(
            vec![LIB.to_string(), name.to_string()],
            "docs/library.md".to_string(),
        );
    }
    // Each exercise's reference and check, at the paths its row of the table names.
    for row in &bpe_lab::lab::check::table::TABLE {
        let check = format!("{LIB}::lab::check::{}", row.name());
        for path in row.reference_paths().into_iter().chain([check]) {
            let path = path.split("::").map(String::from).collect();
            used.insert(path, "lab::check::table".to_string());
        }
    }
    for dir in ["notebooks", "instructor"] {
        let mut files: Vec<_> = fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ipynb"))
            .collect();
        files.sort();
        for file in files {
            let notebook: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
            for (n, cell) in notebook["cells"].as_array().unwrap().iter().enumerate() {
                if cell["cell_type"] != "code" {
                    continue;
                }
                let source = match &cell["source"] {
                    serde_json::Value::Array(lines) => {
                        lines.iter().filter_map(|l| l.as_str()).collect::<String>()
                    }
                    other => other.as_str().unwrap_or_default().to_string(),
                };
                let tokens = TokenStream::from_str(&source).unwrap_or_else(|e| {
                    panic!("{} cell {}: not Rust tokens: {e}", file.display(), n + 1)
                });
                let mut paths = Vec::new();
                paths_in(tokens, &mut paths);
                for path in paths {
                    let seen = format!(
                        "{}/{}, cell {}",
                        dir,
                        file.file_name().unwrap().to_string_lossy(),
                        n + 1
                    );
                    used.entry(path).or_insert(seen);
                }
            }
        }
    }
    used
}

#[test]
fn every_public_path_the_notebooks_and_the_fixed_api_use_resolves() {
    let used = used_paths();
    // The notebooks use dozens of paths; finding only the fixed API would mean the reading
    // above broke, not that every path is fine.
    assert!(
        used.len() > FIXED_API.len() + 40,
        "only {} paths found in the notebooks",
        used.len()
    );
    let house = House::read(real_sources());
    let broken: Vec<String> = used
        .iter()
        .filter_map(|(path, seen)| {
            let err = house.names_path(path, 0).err()?;
            Some(format!("{} ({seen}): {err}", path.join("::")))
        })
        .collect();
    assert!(
        broken.is_empty(),
        "public paths that name nothing in the library:\n{}",
        broken.join("\n")
    );
}

/// The resolver itself: routes through re-exports and globs resolve, a made-up name does not.
#[test]
fn a_path_that_names_nothing_is_refused() {
    let house = House::read(real_sources());
    let path = |p: &str| -> Vec<String> { p.split("::").map(String::from).collect() };
    for good in [
        "bpe_lab::CharLevelTokenizer",
        "bpe_lab::lab::prelude::EOW",
        "bpe_lab::lab::check::train_bpe",
        "bpe_lab::lab::reference::bpe_initialize",
    ] {
        assert_eq!(house.names_path(&path(good), 0), Ok(()), "{good}");
    }
    for bad in [
        "bpe_lab::lab::check::no_such_check",
        "bpe_lab::no_such_module::x",
        "bpe_lab::lab::prelude::no_such_name",
    ] {
        assert!(house.names_path(&path(bad), 0).is_err(), "{bad}");
    }
    let mut paths = Vec::new();
    paths_in(
        TokenStream::from_str(
            "use bpe_lab::{lab::prelude::*, dataset::Dataset as D};\n\
             ::bpe_lab::lab::check::train_bpe(train_bpe); let c = '\"'; bpe_lab::EOW",
        )
        .unwrap(),
        &mut paths,
    );
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        [
            "bpe_lab::lab::prelude",
            "bpe_lab::dataset::Dataset",
            "bpe_lab::lab::check::train_bpe",
            "bpe_lab::EOW"
        ]
    );
}
