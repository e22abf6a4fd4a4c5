//! The floors of the house (docs/design.md, "Layers"), enforced inside the library: every
//! module of `src/` may use only modules on its own floor or below, and no files may use each
//! other, in a circle of any length.
//!
//! Why the sources are read as Rust (syn) and not as text: a text scan can be walked around. A
//! use through a re-export (`use crate::CharLevelTokenizer`), a glob (`use crate::*`), a
//! `#[macro_export]` macro, `extern crate self`, or a char literal `'"'` that a string scanner
//! takes for the start of a string all slipped past the scan this file used to hold. Here the
//! lexer decides what is code, and every path is followed through the re-exports it passes
//! (`lib.rs`, a `mod.rs`, any `pub use`) to the module that defines it; every module on that
//! route counts, so a lower floor cannot reach up through a facade either.
//!
//! What counts as a use: every path of a `use` (at item level or in a body; groups, renames and
//! globs included); every path in code, types and macro arguments that starts with `crate`,
//! `$crate`, `self`, `super`, `bpe_lab` or a name in scope (a child module or an import); every
//! call of a macro the crate defines; `extern crate`. The circle check leaves out two kinds of
//! use: a module's `pub use` of its own descendants (a facade), and unit tests.
//!
//! Why a test and not only the compiler: inside one package the compiler allows any import;
//! the floors within the library (engine, tokenizer, dataset, lab) are held here. The floors
//! above it, the command and the course tools, are another package (crates/cli) that the
//! library does not depend on, so there the compiler holds them (`package_boundary.rs`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;

/// The floors, lowest first. A module may use its own floor and those below.
const FLOORS: &[(&str, &[&str])] = &[
    ("ground", &["allocator", "exercise", "files", "rng"]),
    ("engine", &["bpe"]),
    ("tokenizer", &["tokenizer"]),
    ("dataset", &["dataset"]),
    ("lab", &["lab"]),
];

/// The library's name, which also starts paths from outside it (`bpe_lab::…`, `::bpe_lab::…`).
pub(crate) const LIB: &str = "bpe_lab";

/// A module: its crate, then its path (`["bpe_lab", "lab", "check"]`).
type ModId = Vec<String>;

/// Source files by their path under `src/` (`lab/check/mod.rs`), so that a planted crate held
/// in memory is checked exactly as the real one is.
pub(crate) type Sources = BTreeMap<String, String>;

fn floor_of(top: &str) -> Option<usize> {
    FLOORS
        .iter()
        .position(|(_, modules)| modules.contains(&top))
}

/// A module's floor; the library's root (`lib.rs`) has none, as it only re-exports.
fn floor_of_module(module: &[String]) -> Option<usize> {
    match module.first().map(String::as_str) {
        Some(LIB) => module.get(1).and_then(|top| floor_of(top)),
        _ => None,
    }
}

pub(crate) fn src() -> &'static Path {
    static SRC: OnceLock<std::path::PathBuf> = OnceLock::new();
    SRC.get_or_init(|| Path::new(env!("BPE_LAB_REPO")).join("src"))
}

pub(crate) fn read_dir(dir: &Path, under: &str, out: &mut Sources) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rel = join(under, &name);
        if path.is_dir() {
            read_dir(&path, &rel, out);
        } else if name.ends_with(".rs") {
            out.insert(rel, fs::read_to_string(&path).unwrap());
        }
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Where `mod x;` in `file` looks for `x`: beside a `lib.rs`, `main.rs` or `mod.rs`, else in
/// the folder named like the file (`engine.rs` + `engine/`).
fn children_dir(file: &str) -> String {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    if matches!(name, "lib.rs" | "main.rs" | "mod.rs") {
        dir.to_string()
    } else {
        file.trim_end_matches(".rs").to_string()
    }
}

/// What a module holds, as far as resolving a path through it needs.
#[derive(Default)]
struct Module {
    /// The file the module is written in (an inline module's is its parent's).
    file: String,
    children: BTreeSet<String>,
    /// Names it defines: functions, types, traits, constants.
    items: BTreeSet<String>,
    /// Names it imports (`use a::b as c;` binds `c`), as written there.
    imports: BTreeMap<String, Vec<String>>,
    /// Modules it glob-imports (`use a::*;`), as written there.
    globs: Vec<Vec<String>>,
}

/// What a use is.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Path,
    Glob,
    /// A call of a macro by this name (with `written` the path before it, if any).
    Macro(String),
    /// `extern crate self`: names the crate from inside itself, around `crate::`.
    ExternSelf,
}

/// One use found in a file.
struct Use {
    file: String,
    /// The module it is written in, which its relative paths start from.
    at: ModId,
    written: Vec<String>,
    kind: Kind,
    /// In unit tests (`#[cfg(test)]`, `mod tests`): on the floors, not in the circles.
    test: bool,
    /// A `pub use` (of any visibility but private): a facade if it names a descendant.
    public: bool,
}

struct MacroDef {
    name: String,
    at: ModId,
    file: String,
    exported: bool,
}

/// The crate as read: its modules, and every use and macro definition in it.
#[derive(Default)]
pub(crate) struct House {
    modules: BTreeMap<ModId, Module>,
    /// The module each file is (not its inline modules).
    file_modules: BTreeMap<String, ModId>,
    uses: Vec<Use>,
    macros: Vec<MacroDef>,
    /// Files that do not parse or that a `mod` names but that do not exist.
    errors: Vec<String>,
}

/// How a use is written in a `use` item: inside a body it binds nothing the module shows.
#[derive(Clone, Copy)]
struct UseSite<'a> {
    file: &'a str,
    test: bool,
    public: bool,
    item_level: bool,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test"))
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

fn item_name(item: &syn::Item) -> Option<String> {
    use syn::Item;
    let ident = match item {
        Item::Fn(i) => &i.sig.ident,
        Item::Struct(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Const(i) => &i.ident,
        Item::Static(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn attrs_of(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn is_punct(token: Option<&TokenTree>, c: char) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// `::` at `tokens[i]`.
fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct(tokens.get(i + 1), ':')
}

fn ident_at(tokens: &[TokenTree], i: usize) -> Option<String> {
    match tokens.get(i) {
        Some(TokenTree::Ident(id)) => Some(id.to_string()),
        _ => None,
    }
}

impl House {
    pub(crate) fn read(sources: &Sources) -> House {
        let mut house = House::default();
        if sources.contains_key("lib.rs") {
            house.read_file(sources, "lib.rs", vec![LIB.to_string()], false);
        }
        house
    }

    fn module(&mut self, at: &ModId) -> &mut Module {
        self.modules.entry(at.clone()).or_default()
    }

    fn read_file(&mut self, sources: &Sources, file: &str, at: ModId, test: bool) {
        let Some(text) = sources.get(file) else {
            self.errors
                .push(format!("module {} has no file src/{file}", at.join("::")));
            return;
        };
        let parsed = match syn::parse_file(text) {
            Ok(parsed) => parsed,
            Err(err) => {
                self.errors
                    .push(format!("src/{file} does not parse: {err}"));
                return;
            }
        };
        self.module(&at).file = file.to_string();
        self.file_modules.insert(file.to_string(), at.clone());
        self.read_items(sources, &parsed.items, file, &at, &children_dir(file), test);
    }

    fn read_items(
        &mut self,
        sources: &Sources,
        items: &[syn::Item],
        file: &str,
        at: &ModId,
        dir: &str,
        test: bool,
    ) {
        for item in items {
            let test = test || is_test(attrs_of(item));
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    self.module(at).children.insert(name.clone());
                    let mut child = at.clone();
                    child.push(name.clone());
                    let test = test || name == "tests";
                    if let Some((_, items)) = &m.content {
                        self.module(&child).file = file.to_string();
                        self.read_items(sources, items, file, &child, &join(dir, &name), test);
                    } else {
                        let path = match path_attr(&m.attrs) {
                            Some(path) => join(file.rsplit_once('/').map_or("", |(d, _)| d), &path),
                            None => {
                                let flat = join(dir, &format!("{name}.rs"));
                                if sources.contains_key(&flat) {
                                    flat
                                } else {
                                    join(dir, &format!("{name}/mod.rs"))
                                }
                            }
                        };
                        self.read_file(sources, &path, child, test);
                    }
                }
                syn::Item::Use(u) => {
                    let site = UseSite {
                        file,
                        test,
                        public: !matches!(u.vis, syn::Visibility::Inherited),
                        item_level: true,
                    };
                    let prefix = if u.leading_colon.is_some() {
                        vec!["::".to_string()]
                    } else {
                        Vec::new()
                    };
                    self.read_use_tree(&u.tree, prefix, at, site);
                }
                syn::Item::ExternCrate(e) if e.ident == "self" => self.uses.push(Use {
                    file: file.to_string(),
                    at: at.clone(),
                    written: vec!["extern crate self".to_string()],
                    kind: Kind::ExternSelf,
                    test,
                    public: false,
                }),
                syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                    if let Some(name) = &m.ident {
                        self.macros.push(MacroDef {
                            name: name.to_string(),
                            at: at.clone(),
                            file: file.to_string(),
                            exported: m.attrs.iter().any(|a| a.path().is_ident("macro_export")),
                        });
                    }
                    // What the macro expands to is used wherever it is called; its `$crate::`
                    // paths count here, in the file that wrote them.
                    self.scan(m.mac.tokens.clone(), at, file, test);
                }
                other => {
                    if let Some(name) = item_name(other) {
                        self.module(at).items.insert(name);
                    }
                    self.scan(other.to_token_stream(), at, file, test);
                }
            }
        }
    }

    fn read_use_tree(
        &mut self,
        tree: &syn::UseTree,
        mut prefix: Vec<String>,
        at: &ModId,
        site: UseSite,
    ) {
        let (written, binds, kind) = match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                return self.read_use_tree(&p.tree, prefix, at, site);
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.read_use_tree(tree, prefix.clone(), at, site);
                }
                return;
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                let binds = prefix.last().cloned();
                (prefix, binds, Kind::Path)
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                (prefix, Some(n.ident.to_string()), Kind::Path)
            }
            syn::UseTree::Rename(r) => {
                if r.ident != "self" {
                    prefix.push(r.ident.to_string());
                }
                let binds = (r.rename != "_").then(|| r.rename.to_string());
                (prefix, binds, Kind::Path)
            }
            syn::UseTree::Glob(_) => (prefix, None, Kind::Glob),
        };
        if site.item_level {
            if kind == Kind::Glob {
                self.module(at).globs.push(written.clone());
            } else if let Some(name) = binds {
                self.module(at).imports.insert(name, written.clone());
            }
        }
        self.uses.push(Use {
            file: site.file.to_string(),
            at: at.clone(),
            written,
            kind,
            test: site.test,
            public: site.public,
        });
    }

    /// Every path and macro call in code, the lexer's tokens: comments are gone and strings
    /// and chars are single literals, so neither can hide nor fake a path.
    fn scan(&mut self, tokens: TokenStream, at: &ModId, file: &str, test: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let site = UseSite {
            file,
            test,
            public: false,
            item_level: false,
        };
        let mut i = 0;
        while i < tokens.len() {
            if let TokenTree::Group(g) = &tokens[i] {
                self.scan(g.stream(), at, file, test);
                i += 1;
                continue;
            }
            if ident_at(&tokens, i).as_deref() == Some("use") {
                let end = tokens[i..]
                    .iter()
                    .position(|t| is_punct(Some(t), ';'))
                    .map_or(tokens.len(), |e| i + e + 1);
                let stream: TokenStream = tokens[i..end].iter().cloned().collect();
                // A `use` in a body; anything else spelled `use` (`impl Trait + use<'a>`)
                // does not parse as one and is scanned on.
                if let Ok(u) = syn::parse2::<syn::ItemUse>(stream) {
                    let prefix = if u.leading_colon.is_some() {
                        vec!["::".to_string()]
                    } else {
                        Vec::new()
                    };
                    self.read_use_tree(&u.tree, prefix, at, site);
                    i = end;
                    continue;
                }
            }
            // Where a path starts: `$crate`, `::name`, or a name not after another `::`.
            let (mut path, mut j) = if is_punct(tokens.get(i), '$')
                && ident_at(&tokens, i + 1).as_deref() == Some("crate")
            {
                (vec!["$crate".to_string()], i + 2)
            } else if is_path_sep(&tokens, i)
                && (i == 0 || ident_at(&tokens, i - 1).is_none())
                && let Some(name) = ident_at(&tokens, i + 2)
            {
                (vec!["::".to_string(), name], i + 3)
            } else if let Some(name) = ident_at(&tokens, i) {
                (vec![name], i + 1)
            } else {
                i += 1;
                continue;
            };
            while is_path_sep(&tokens, j)
                && let Some(name) = ident_at(&tokens, j + 2)
            {
                path.push(name);
                j += 3;
            }
            // `name!(…)`, not `a != b`.
            let is_macro = is_punct(tokens.get(j), '!')
                && matches!(tokens.get(j + 1), Some(TokenTree::Group(_)));
            if is_macro {
                let name = path.pop().unwrap();
                self.push_use(at, path, Kind::Macro(name), site);
            } else if path.len() > 1 {
                self.push_use(at, path, Kind::Path, site);
            }
            i = j;
        }
    }

    fn push_use(&mut self, at: &ModId, written: Vec<String>, kind: Kind, site: UseSite) {
        self.uses.push(Use {
            file: site.file.to_string(),
            at: at.clone(),
            written,
            kind,
            test: site.test,
            public: site.public,
        });
    }

    /// `written` (as in module `at`) as a path from a crate's root, or `None` for paths outside
    /// the crate (std, dependencies) and for the module's own items.
    fn absolute(&self, written: &[String], at: &ModId, depth: usize) -> Option<ModId> {
        let (first, rest) = written.split_first()?;
        let mut base: ModId = match first.as_str() {
            "crate" => vec![at[0].clone()],
            "$crate" | LIB => vec![LIB.to_string()],
            "::" => {
                let (name, rest) = rest.split_first()?;
                if name != LIB {
                    return None;
                }
                let mut path = vec![LIB.to_string()];
                path.extend(rest.iter().cloned());
                return Some(path);
            }
            "self" => at.clone(),
            "super" => at[..at.len().saturating_sub(1)].to_vec(),
            name => {
                let module = self.modules.get(at)?;
                if module.children.contains(name) {
                    let mut base = at.clone();
                    base.push(name.to_string());
                    base
                } else if let Some(import) = module.imports.get(name)
                    && depth < 16
                    && import.first().map(String::as_str) != Some(name)
                {
                    self.absolute(import, at, depth + 1)?
                } else {
                    return None;
                }
            }
        };
        let mut rest = rest;
        while let Some((first, more)) = rest.split_first()
            && first == "super"
        {
            base.pop();
            rest = more;
        }
        if base.is_empty() {
            return None;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// Whether module `m` has `name` in scope as a public path can reach it.
    fn names(&self, m: &ModId, name: &str, depth: usize) -> bool {
        self.modules.get(m).is_some_and(|module| {
            module.children.contains(name)
                || module.items.contains(name)
                || module.imports.contains_key(name)
                || depth < 16
                    && module.globs.iter().any(|g| {
                        self.absolute(g, m, 0)
                            .is_some_and(|t| self.names(&t, name, depth + 1))
                    })
        })
    }

    /// The module that defines `path`, and the modules whose imports the route went through.
    fn resolve(&self, path: &[String], depth: usize) -> (ModId, Vec<ModId>) {
        let mut here = vec![path[0].clone()];
        let mut hops = Vec::new();
        for (i, seg) in path.iter().enumerate().skip(1) {
            if seg == "self" {
                continue;
            }
            let Some(module) = self.modules.get(&here) else {
                break;
            };
            if module.children.contains(seg) {
                here.push(seg.clone());
                continue;
            }
            if module.items.contains(seg) || depth >= 16 {
                break;
            }
            let via_import = module.imports.get(seg).and_then(|import| {
                let mut full = self.absolute(import, &here, 0)?;
                full.extend(path[i + 1..].iter().cloned());
                Some(full)
            });
            let via_glob = || {
                module.globs.iter().find_map(|g| {
                    let mut full = self.absolute(g, &here, 0)?;
                    if !self.names(&full, seg, depth + 1) {
                        return None;
                    }
                    full.extend(path[i..].iter().cloned());
                    Some(full)
                })
            };
            if let Some(full) = via_import.or_else(via_glob) {
                let (target, more) = self.resolve(&full, depth + 1);
                hops.push(here);
                hops.extend(more);
                return (target, hops);
            }
            break;
        }
        (here, hops)
    }

    /// Whether `path` (from a crate's root) names something: each segment a module, an item,
    /// an import or a glob's name on the way, or an exported macro at the root. What follows an
    /// item (a variant, an associated function) is the item's own and left to the compiler, as
    /// is what follows a re-export of another crate (`bpe_lab::polars::…`).
    pub(crate) fn names_path(&self, path: &[String], depth: usize) -> Result<(), String> {
        let mut here = vec![path[0].clone()];
        for (i, seg) in path.iter().enumerate().skip(1) {
            let Some(module) = self.modules.get(&here) else {
                return Ok(());
            };
            if module.children.contains(seg) {
                here.push(seg.clone());
                continue;
            }
            let exported_macro =
                here.len() == 1 && self.macros.iter().any(|m| m.exported && m.name == *seg);
            if seg == "self" || module.items.contains(seg) || exported_macro {
                return Ok(());
            }
            let onward = |target: Option<ModId>, from: usize| {
                target.map(|mut full| {
                    full.extend(path[from..].iter().cloned());
                    full
                })
            };
            if depth < 16 {
                if let Some(import) = module.imports.get(seg) {
                    return match onward(self.absolute(import, &here, 0), i + 1) {
                        Some(full) => self.names_path(&full, depth + 1),
                        None => Ok(()),
                    };
                }
                for glob in &module.globs {
                    let target = self.absolute(glob, &here, 0);
                    match &target {
                        Some(t) if self.names(t, seg, 0) => {
                            return self.names_path(&onward(target, i).unwrap(), depth + 1);
                        }
                        // A glob of another crate (`pub use polars::prelude::*`) may hold it.
                        None => return Ok(()),
                        Some(_) => {}
                    }
                }
            }
            return Err(format!("there is no `{seg}` in `{}`", here.join("::")));
        }
        Ok(())
    }

    /// The definitions a macro call can mean: one in the same file wins; else the exported
    /// ones; else those visible by `#[macro_use]` order.
    fn macro_defs(&self, name: &str, file: &str) -> Vec<&MacroDef> {
        let defs: Vec<&MacroDef> = self.macros.iter().filter(|d| d.name == name).collect();
        if defs.iter().any(|d| d.file == file) {
            return Vec::new();
        }
        let exported: Vec<&MacroDef> = defs.iter().copied().filter(|d| d.exported).collect();
        if exported.is_empty() { defs } else { exported }
    }
}

/// What the check found, each line naming the file and the use.
#[derive(Default, Debug)]
struct Findings {
    /// Uses that reach a higher floor, directly or through a re-export on the way.
    upward: Vec<String>,
    /// Glob imports of the crate root or of another floor: they import whatever that module
    /// will ever show, so the floor of each name is nobody's decision.
    globs: Vec<String>,
    extern_self: Vec<String>,
    /// Files that use each other, each circle as one route from a file back to it.
    circles: Vec<Vec<String>>,
    /// `.rs` files under `src/` that no `mod` reaches, so nothing above checked them.
    unread: Vec<String>,
    errors: Vec<String>,
}

impl Findings {
    fn is_clean(&self) -> bool {
        self.upward.is_empty()
            && self.globs.is_empty()
            && self.extern_self.is_empty()
            && self.circles.is_empty()
            && self.unread.is_empty()
            && self.errors.is_empty()
    }
}

fn check(sources: &Sources) -> Findings {
    let house = House::read(sources);
    let mut found = Findings {
        errors: house.errors.clone(),
        unread: sources
            .keys()
            .filter(|file| !house.file_modules.contains_key(*file))
            .map(|file| format!("src/{file}"))
            .collect(),
        ..Findings::default()
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for u in &house.uses {
        let shown = match &u.kind {
            Kind::Macro(name) if u.written.is_empty() => format!("{name}!"),
            Kind::Macro(name) => format!("{}::{name}!", u.written.join("::")),
            Kind::Glob => format!("{}::*", u.written.join("::")),
            _ => u.written.join("::").replace(":::::", "::"),
        };
        let line = format!("src/{} uses {shown}", u.file);
        let own = floor_of_module(&u.at);
        let (routes, facade) = match &u.kind {
            Kind::ExternSelf => {
                if u.at[0] == LIB {
                    found.extern_self.push(line);
                }
                continue;
            }
            Kind::Macro(name) => (
                house
                    .macro_defs(name, &u.file)
                    .into_iter()
                    .map(|d| (d.at.clone(), Vec::new()))
                    .collect::<Vec<_>>(),
                false,
            ),
            Kind::Path | Kind::Glob => {
                let Some(path) = house.absolute(&u.written, &u.at, 0) else {
                    continue;
                };
                let own_module = &house.file_modules[&u.file];
                let facade =
                    u.public && path.len() > own_module.len() && path.starts_with(own_module);
                (vec![house.resolve(&path, 0)], facade)
            }
        };
        for (target, hops) in routes {
            let passed: Vec<&ModId> = hops.iter().chain([&target]).collect();
            let highest = passed.iter().filter_map(|m| floor_of_module(m)).max();
            if let (Some(own), Some(highest)) = (own, highest)
                && highest > own
            {
                found
                    .upward
                    .push(format!("{line} (reaches {})", FLOORS[highest].0));
            }
            if u.kind == Kind::Glob && (target.len() == 1 || floor_of_module(&target) != own) {
                found.globs.push(line.clone());
            }
            if u.test || facade {
                continue;
            }
            for m in passed {
                if let Some(to) = house.modules.get(m).map(|m| &m.file)
                    && *to != u.file
                {
                    edges.entry(u.file.clone()).or_default().insert(to.clone());
                }
            }
        }
    }
    found.upward.dedup();
    found.circles = circles(&edges)
        .into_iter()
        .map(|c| c.into_iter().map(|f| format!("src/{f}")).collect())
        .collect();
    found
}

/// Every circle in `edges`, one per group of files that all reach each other, shown as one
/// route from its first file back to it. Quadratic in the files, which for two hundred is
/// instant, and plainer to read than Tarjan's algorithm.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = edges.get(from).into_iter().flatten().collect();
        while let Some(file) = todo.pop() {
            if seen.insert(file.clone()) {
                todo.extend(edges.get(file).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|file| (file, reach(file))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for (file, from_here) in &reaches {
        if placed.contains(*file) || !from_here.contains(*file) {
            continue;
        }
        let group: BTreeSet<&String> = from_here
            .iter()
            .filter(|other| reaches.get(other).is_some_and(|r| r.contains(*file)))
            .collect();
        placed.extend(group.iter().map(|f| (*f).clone()));
        out.push(route_back(file, &group, edges));
    }
    out
}

/// The shortest route from `start` back to itself inside `group` (breadth first).
fn route_back(
    start: &String,
    group: &BTreeSet<&String>,
    edges: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(file) = queue.pop_front() {
        for next in edges.get(file).into_iter().flatten() {
            if !group.contains(next) {
                continue;
            }
            if next == start {
                let mut route = vec![start.clone(), file.clone()];
                let mut at = file;
                while let Some(prev) = came_from.get(at) {
                    route.push((*prev).clone());
                    at = prev;
                }
                route.reverse();
                return route;
            }
            if next != start && !came_from.contains_key(next) {
                came_from.insert(next, file);
                queue.push_back(next);
            }
        }
    }
    vec![start.clone()]
}

/// The real `src/`, read once.
pub(crate) fn real_sources() -> &'static Sources {
    static SOURCES: OnceLock<Sources> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let mut sources = Sources::new();
        read_dir(src(), "", &mut sources);
        sources
    })
}

/// The real `src/`, checked once for the tests below.
fn real() -> &'static Findings {
    static FOUND: OnceLock<Findings> = OnceLock::new();
    FOUND.get_or_init(|| check(real_sources()))
}

#[test]
fn every_top_level_module_has_a_floor() {
    let mut missing = Vec::new();
    for entry in fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if matches!(name.as_str(), "lib" | "main") {
            continue;
        }
        if (path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
            && floor_of(&name).is_none()
        {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "modules with no floor in tests/suite/layers.rs: {missing:?}"
    );
}

#[test]
fn every_source_file_is_read() {
    let found = real();
    assert!(
        found.unread.is_empty() && found.errors.is_empty(),
        "files the layers check could not read: {:?} {:?}",
        found.unread,
        found.errors
    );
}

#[test]
fn no_module_uses_a_higher_floor() {
    let found = real();
    assert!(
        found.upward.is_empty() && found.extern_self.is_empty(),
        "uses that climb a floor (docs/design.md, Layers):\n{}",
        [&found.upward[..], &found.extern_self[..]]
            .concat()
            .join("\n")
    );
}

#[test]
fn no_glob_import_crosses_a_floor() {
    let found = real();
    assert!(
        found.globs.is_empty(),
        "glob imports of the crate root or of another floor:\n{}",
        found.globs.join("\n")
    );
}

/// Circles of any length: two files, or three through a `mod.rs` alias, are one circle each.
#[test]
fn no_two_files_use_each_other() {
    let found = real();
    let lines: Vec<String> = found.circles.iter().map(|c| c.join(" -> ")).collect();
    assert!(
        lines.is_empty(),
        "files that use each other, in a circle:\n{}",
        lines.join("\n")
    );
}

/// A small crate with the library's floors and no violation; each planted case adds one.
fn planted_base() -> Sources {
    [
        (
            "lib.rs",
            "pub mod bpe;\npub mod lab;\npub mod tokenizer;\npub use tokenizer::CharLevelTokenizer;\n",
        ),
        (
            "bpe/mod.rs",
            "pub mod encode;\npub mod words;\npub use words::Words;\n",
        ),
        (
            "bpe/encode.rs",
            "use super::Words;\npub fn encode(w: &Words) -> usize { w.0 }\n",
        ),
        ("bpe/words.rs", "pub struct Words(pub usize);\n"),
        (
            "tokenizer/mod.rs",
            "use crate::bpe::encode::encode;\npub struct CharLevelTokenizer;\n\
             impl CharLevelTokenizer { pub fn new() -> Self { let _ = encode; CharLevelTokenizer } }\n",
        ),
        (
            "lab/mod.rs",
            "pub mod check;\npub use check::run;\n#[macro_export]\nmacro_rules! lab_table { () => {} }\n\
             pub struct Shown;\n",
        ),
        (
            "lab/check.rs",
            "use crate::CharLevelTokenizer;\npub fn run() -> crate::tokenizer::CharLevelTokenizer { lab_table!(); CharLevelTokenizer::new() }\n",
        ),
    ]
    .into_iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect()
}

/// What a planted case must make the check report.
#[derive(Clone, Copy, Debug)]
enum Expect {
    Upward,
    Glob,
    ExternSelf,
    Circle,
}

impl Expect {
    fn seen(self, found: &Findings) -> bool {
        let by_encode = |lines: &[String]| lines.iter().any(|l| l.starts_with("src/bpe/encode.rs"));
        match self {
            Expect::Upward => by_encode(&found.upward),
            Expect::Glob => by_encode(&found.globs),
            Expect::ExternSelf => by_encode(&found.extern_self),
            Expect::Circle => !found.circles.is_empty(),
        }
    }
}

/// A planted case: its name, (file, text added to it) pairs, and what must be found.
type PlantedCase = (&'static str, Vec<(&'static str, &'static str)>, Vec<Expect>);

/// The planted cases: what each adds to which file, and what must be found. The first twelve
/// are issue 38's: the first eight are the kinds it lists as missed by the text scan this test
/// replaced (routes through re-exports, globs, macros, `extern crate self`, char literals,
/// circles through a `mod.rs` or longer than two files), the next four those it found.
fn planted_cases() -> Vec<PlantedCase> {
    use Expect::*;
    vec![
        (
            "a use through lib.rs's re-export",
            vec![("bpe/encode.rs", "use crate::CharLevelTokenizer;\n")],
            vec![Upward],
        ),
        (
            "a path in code through lib.rs's re-export",
            vec![(
                "bpe/encode.rs",
                "fn f() { let _ = crate::CharLevelTokenizer::new(); }\n",
            )],
            vec![Upward],
        ),
        (
            "a glob of the crate root",
            vec![("bpe/encode.rs", "use crate::*;\n")],
            vec![Glob],
        ),
        (
            "a #[macro_export] macro of lab, by its name",
            vec![("bpe/encode.rs", "fn f() { lab_table!(); }\n")],
            vec![Upward],
        ),
        (
            "extern crate self, then a path through it",
            vec![(
                "bpe/encode.rs",
                "extern crate self as bpe_lab;\nfn f() { let _ = bpe_lab::lab::Shown; }\n",
            )],
            vec![ExternSelf, Upward],
        ),
        (
            "a char literal '\"' before a use on the same line",
            vec![(
                "bpe/encode.rs",
                "fn q() -> char { '\"' } fn f() { crate::lab::check::run(); }\n",
            )],
            vec![Upward],
        ),
        (
            "two files that use each other through a mod.rs re-export",
            vec![
                ("bpe/mod.rs", "pub use encode::encode;\n"),
                (
                    "bpe/words.rs",
                    "pub fn size() -> usize { super::encode(&Words(1)) }\n",
                ),
            ],
            vec![Circle],
        ),
        (
            "three files in a circle through a moved alias",
            vec![
                (
                    "bpe/mod.rs",
                    "pub mod build;\npub mod options;\npub use crate::bpe::words as moved;\n\
                     fn first() { build::build(); }\n",
                ),
                (
                    "bpe/build.rs",
                    "pub fn build() { let _ = super::options::Options; }\n",
                ),
                (
                    "bpe/options.rs",
                    "pub struct Options(super::moved::Words);\n",
                ),
            ],
            vec![Circle],
        ),
        (
            "a plain use of a higher floor",
            vec![("bpe/encode.rs", "use crate::lab::check;\n")],
            vec![Upward],
        ),
        (
            "a use in braces",
            vec![("bpe/encode.rs", "use crate::{bpe::words, lab::{Shown}};\n")],
            vec![Upward],
        ),
        (
            "a path in code",
            vec![(
                "bpe/encode.rs",
                "fn f() { let _ = crate::tokenizer::CharLevelTokenizer::new(); }\n",
            )],
            vec![Upward],
        ),
        (
            "two files that use each other directly",
            vec![
                ("bpe/words.rs", "use super::encode::encode;\n"),
                ("bpe/encode.rs", "use super::words::Words as Direct;\n"),
            ],
            vec![Circle],
        ),
        // More routes around a text scan.
        (
            "a glob of a higher floor",
            vec![("bpe/encode.rs", "use crate::lab::*;\n")],
            vec![Glob, Upward],
        ),
        (
            "the macro by its path",
            vec![("bpe/encode.rs", "fn f() { crate::lab_table!(); }\n")],
            vec![Upward],
        ),
        (
            "a path inside a macro's arguments",
            vec![(
                "bpe/encode.rs",
                "fn f() { println!(\"{}\", std::mem::size_of::<crate::lab::Shown>()); }\n",
            )],
            vec![Upward],
        ),
        (
            "a use inside a function body",
            vec![(
                "bpe/encode.rs",
                "fn f() { use crate::lab::Shown; let _ = Shown; }\n",
            )],
            vec![Upward],
        ),
        (
            "super::super",
            vec![(
                "bpe/encode.rs",
                "fn f() { let _ = super::super::lab::Shown; }\n",
            )],
            vec![Upward],
        ),
        (
            "a lower floor's mod.rs re-exporting from above, used from below it",
            vec![
                ("bpe/mod.rs", "pub use crate::lab::Shown as Plain;\n"),
                ("bpe/encode.rs", "fn f() { let _ = super::Plain; }\n"),
            ],
            vec![Upward],
        ),
        (
            "a use hidden after a block comment and a string holding `//`",
            vec![(
                "bpe/encode.rs",
                "/* \" */ fn f() { let _ = \"//\"; let _ = crate::lab::Shown; }\n",
            )],
            vec![Upward],
        ),
    ]
}

/// The checker itself: the planted crate is clean, and each planted case makes it fail.
#[test]
fn the_checker_finds_what_it_looks_for() {
    let base = check(&planted_base());
    assert!(base.is_clean(), "the planted crate itself: {base:#?}");
    let mut missed = Vec::new();
    for (name, plants, expected) in planted_cases() {
        let mut sources = planted_base();
        for (file, text) in plants {
            sources.entry(file.to_string()).or_default().push_str(text);
        }
        let found = check(&sources);
        for expect in expected {
            if !expect.seen(&found) {
                missed.push(format!("{name}: no {expect:?} in {found:#?}"));
            }
        }
    }
    assert!(
        missed.is_empty(),
        "planted cases not found:\n{}",
        missed.join("\n")
    );
}

/// The circle finder on a planted graph: a four-file circle with a file hanging off it, a
/// two-file one, and a chain that is not a circle.
#[test]
fn the_circle_finder_finds_circles_of_any_length() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"]),
        ("c", &["d"]),
        ("d", &["a", "e"]),
        ("e", &[]),
        ("f", &["a", "g"]),
        ("g", &["f"]),
        ("h", &["i"]),
        ("i", &[]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(
        circles(&graph),
        [vec!["a", "b", "c", "d", "a"], vec!["f", "g", "f"]]
    );
}
