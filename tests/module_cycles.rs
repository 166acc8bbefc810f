#![cfg(not(target_arch = "wasm32"))]
//! Keeps the module graph acyclic: a type shared by two modules lives below both of them, never
//! in one of them. The test reads every file under `src/` as Rust syntax, collects the paths that
//! start with `crate::`, `super::` or `self::` (in `use` items, code and macro arguments; test
//! code under `#[cfg(test)]` is left out, as it may use a layer above), and lifts each reference
//! to the level where the two modules are siblings: `context/sections.rs` naming
//! `super::builder::Budget` is the edge `context::sections -> context::builder` inside `context`;
//! `memory` naming `crate::store::Record` is `memory -> store` between top-level modules.
//! A cycle at any level fails the test and is printed with the line behind each edge. Every
//! crate of the workspace is read this way, each on its own; between the crates, the arrows
//! `cargo metadata` reports must point down the concept order.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

type Module = Vec<String>;

/// One reference: from the file's module to a path, with where it was written.
struct Reference {
    from: Module,
    to: Module,
    at: String,
}

fn module_of(file: &Path, src: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<TokenStream>()
                .is_ok_and(|t| t.to_string() == "test")
    })
}

/// Walks one file, keeping the module it is in (the file's, plus any inline `mod`).
struct Collector<'a> {
    file: &'a str,
    file_module: Module,
    inline: Vec<String>,
    out: Vec<Reference>,
    /// Modules declared `#[cfg(test)] mod x;` here: their files are test code too.
    test_files: Vec<Module>,
}

impl Collector<'_> {
    fn current(&self) -> Module {
        let mut m = self.file_module.clone();
        m.extend(self.inline.iter().cloned());
        m
    }

    /// Resolves a path that starts with `crate`, `super` or `self` to an absolute one.
    fn record(&mut self, segments: &[String], line: usize) {
        let mut here = self.current();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                here.clear();
                rest = &rest[1..];
            }
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    here.pop();
                    rest = &rest[1..];
                }
            }
            Some("self") => rest = &rest[1..],
            _ => return,
        }
        here.extend(rest.iter().cloned());
        self.out.push(Reference {
            from: self.file_module.clone(),
            to: here,
            at: format!("{}:{line}", self.file),
        });
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, line: usize) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, line);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.record(&prefix.clone(), line);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.record(&prefix.clone(), line);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.record(&prefix.clone(), line),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t, line);
                }
            }
        }
    }

    /// Macro arguments are tokens, not syntax: finds `crate :: a :: b` runs in them.
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(g) = &trees[i] {
                self.tokens(g.stream());
            }
            let starts = matches!(&trees[i], TokenTree::Ident(id)
                if id == "crate" || id == "super" || id == "self");
            if !starts {
                i += 1;
                continue;
            }
            let line = trees[i].span().start().line;
            let mut segments = vec![trees[i].to_string()];
            let mut j = i + 1;
            // `::` is two `:` puncts; each step reads `: : ident`.
            while let (
                Some(TokenTree::Punct(a)),
                Some(TokenTree::Punct(b)),
                Some(TokenTree::Ident(id)),
            ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
            {
                if a.as_char() != ':' || b.as_char() != ':' {
                    break;
                }
                segments.push(id.to_string());
                j += 3;
            }
            self.record(&segments, line);
            i = j;
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        } else if let syn::Item::Mod(m) = item {
            if m.content.is_none() {
                let mut module = self.current();
                module.push(m.ident.to_string());
                self.test_files.push(module);
            }
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.content.is_some() {
            self.inline.push(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
            self.inline.pop();
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let line = u.use_token.span.start().line;
        self.use_tree(&mut Vec::new(), &u.tree, line);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(first) = p.segments.first() {
            self.record(&segments, first.ident.span().start().line);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}

/// Edges between sibling modules, grouped by their parent, each with the first line behind it.
type Levels = BTreeMap<Module, BTreeMap<(String, String), String>>;

/// The source directories of the workspace's library crates: the JS face and the crates below.
const CRATE_SOURCES: &[&str] = &[
    "src",
    "crates/core/src",
    "crates/encoder/src",
    "crates/redact/src",
    "crates/sync/src",
];

/// The files of one crate's source directory: module path, name as printed, text.
fn sources(dir: &str) -> Vec<(Module, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .map(|file| {
            let name = file.strip_prefix(root).unwrap().display().to_string();
            (
                module_of(file, &src),
                name,
                fs::read_to_string(file).unwrap(),
            )
        })
        .collect()
}

fn levels(files: &[(Module, String, String)]) -> Levels {
    let modules: BTreeSet<Module> = files.iter().map(|f| f.0.clone()).collect();
    let mut references = Vec::new();
    let mut test_files: Vec<Module> = Vec::new();
    for (module, name, text) in files {
        let syntax = syn::parse_file(text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
        let mut c = Collector {
            file: name,
            file_module: module.clone(),
            inline: Vec::new(),
            out: Vec::new(),
            test_files: Vec::new(),
        };
        c.visit_file(&syntax);
        references.extend(c.out);
        test_files.extend(c.test_files);
    }
    // The files of a test-only module (and its submodules) are test code: left out.
    references.retain(|r| !test_files.iter().any(|t| r.from.starts_with(t)));
    let mut levels = Levels::new();
    for r in references {
        // The module a path names is its longest prefix that is a file of src/.
        let Some(to) = (0..=r.to.len())
            .rev()
            .map(|n| r.to[..n].to_vec())
            .find(|m| modules.contains(m))
        else {
            continue;
        };
        let shared = r.from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if shared == r.from.len() || shared == to.len() {
            continue; // a module and its own descendant or ancestor
        }
        let parent = r.from[..shared].to_vec();
        let (a, b) = (r.from[shared].clone(), to[shared].clone());
        if parent.is_empty() && (a == "bindings" || b == "bindings") {
            continue; // the bindings sit above everything; they are not a core module
        }
        levels
            .entry(parent)
            .or_default()
            .entry((a, b))
            .or_insert(r.at);
    }
    levels
}

/// One cycle through each strongly connected group of the graph (a path back to its start).
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    let reaches = |from: &str, to: &str| -> Option<Vec<String>> {
        // Breadth-first, so the printed cycle is a shortest one.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(n) = queue.pop_front() {
            for &m in next.get(n).into_iter().flatten() {
                if m == to {
                    let mut path = vec![to.to_string(), n.to_string()];
                    let mut at = n;
                    while at != from {
                        at = came_from[at];
                        path.push(at.to_string());
                    }
                    path.reverse();
                    return Some(path);
                }
                if m != from && !came_from.contains_key(m) {
                    came_from.insert(m, n);
                    queue.push_back(m);
                }
            }
        }
        None
    };
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut found = Vec::new();
    for start in next.keys() {
        if seen.contains(*start) {
            continue;
        }
        if let Some(cycle) = reaches(start, start) {
            seen.extend(cycle.iter().cloned());
            found.push(cycle);
        }
    }
    found
}

/// Every cycle, one line per cycle and one per edge with the line behind it.
fn report(levels: &Levels) -> String {
    let mut report = String::new();
    for (parent, edges) in levels {
        let level = if parent.is_empty() {
            "top-level modules".to_string()
        } else {
            format!("inside {}", parent.join("::"))
        };
        for cycle in cycles(edges) {
            report += &format!("cycle {level}: {}\n", cycle.join(" -> "));
            for pair in cycle.windows(2) {
                let at = &edges[&(pair[0].clone(), pair[1].clone())];
                report += &format!("    {} -> {}  ({at})\n", pair[0], pair[1]);
            }
        }
    }
    report
}

#[test]
fn modules_do_not_depend_on_each_other_in_a_cycle() {
    for dir in CRATE_SOURCES {
        let files = sources(dir);
        assert!(files.len() > 1, "{dir} holds no modules");
        let report = report(&levels(&files));
        assert!(report.is_empty(), "modules of {dir} in a cycle:\n{report}");
    }
}

/// The arrows allowed between the workspace's crates (normal and build dependencies; a test
/// may use a crate above): each points down, core at the bottom, the JS face above all.
const ALLOWED: &[(&str, &str)] = &[
    ("llm-memory-encoder", "llm-memory-core"),
    ("llm-memory-redact", "llm-memory-core"),
    ("llm-memory-redact", "llm-memory-encoder"),
    ("llm-memory-sync", "llm-memory-core"),
    ("llm-memory-session", "llm-memory-core"),
    ("llm-memory", "llm-memory-core"),
    ("llm-memory", "llm-memory-encoder"),
    ("llm-memory", "llm-memory-redact"),
    ("llm-memory", "llm-memory-sync"),
    ("llm-memory", "llm-memory-session"),
    ("llm-memory-server", "llm-memory-core"),
    ("llm-memory-server", "llm-memory-sync"),
];

/// The arrows of `edges` (from, to) that are not allowed.
fn wrong_arrows(edges: &[(String, String)]) -> Vec<String> {
    edges
        .iter()
        .filter(|(a, b)| !ALLOWED.contains(&(a.as_str(), b.as_str())))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect()
}

/// Dependencies between workspace members, test-only ones left out, from `cargo metadata`.
fn crate_arrows() -> Vec<(String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let members: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut arrows = Vec::new();
    for p in packages {
        for d in p["dependencies"].as_array().unwrap() {
            let name = d["name"].as_str().unwrap();
            if members.contains(name) && d["kind"].as_str() != Some("dev") {
                arrows.push((p["name"].as_str().unwrap().to_string(), name.to_string()));
            }
        }
    }
    arrows
}

#[test]
fn crates_depend_only_downward() {
    let arrows = crate_arrows();
    assert!(arrows.len() >= 5, "{arrows:?}");
    let wrong = wrong_arrows(&arrows);
    assert!(
        wrong.is_empty(),
        "crate arrows against the concept order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn an_arrow_up_is_found() {
    let arrows = [
        ("llm-memory-redact", "llm-memory-encoder"),
        ("llm-memory-core", "llm-memory-redact"),
        ("llm-memory-encoder", "llm-memory-sync"),
    ]
    .map(|(a, b)| (a.to_string(), b.to_string()));
    assert_eq!(
        wrong_arrows(&arrows),
        [
            "llm-memory-core -> llm-memory-redact",
            "llm-memory-encoder -> llm-memory-sync"
        ]
    );
}

#[test]
fn cycles_are_found_through_use_items_code_and_macros() {
    let file = |module: &str, text: &str| {
        let path: Module = module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        (path, format!("{module}.rs"), text.to_string())
    };
    let files = [
        file("", "pub mod a; pub mod b; pub mod c; pub mod d; pub mod e;"),
        file("a", "pub mod x; pub mod y; pub struct A;"),
        // Inside `a`: a `use` one way, a call in code the other way.
        file("a::x", "use super::y::Y; pub fn g() {}"),
        file(
            "a::y",
            "pub struct Y; fn f() { super::x::g(); let _ = super::A; }",
        ),
        // Between top-level modules: a path in a macro argument, a grouped `use` back.
        file("b", "pub struct B; fn f() { assert!(crate::c::ok()); }"),
        file(
            "c",
            "use crate::{b::B, error}; pub fn ok() -> bool { true }",
        ),
        // Test code may use a module above: not a cycle.
        file(
            "d",
            "pub struct D; #[cfg(test)] mod tests { use crate::e::E; }",
        ),
        file("e", "pub struct E; use crate::d::D;"),
    ];
    let found = report(&levels(&files));
    assert!(found.contains("cycle inside a: x -> y -> x"), "{found}");
    assert!(
        found.contains("cycle top-level modules: b -> c -> b"),
        "{found}"
    );
    assert!(found.contains("    b -> c  (b.rs:1)"), "{found}");
    assert_eq!(
        found.lines().filter(|l| l.starts_with("cycle")).count(),
        2,
        "{found}"
    );
}

#[test]
fn test_only_files_are_left_out() {
    let file = |module: &str, text: &str| {
        let path: Module = module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        (path, format!("{module}.rs"), text.to_string())
    };
    let files = [
        file("", "pub mod a; pub mod b;"),
        file("a", "pub struct A; use crate::b::B;"),
        // A test-only file module of b may use what b may not.
        file("b", "pub struct B; #[cfg(test)] mod tests;"),
        file("b::tests", "use crate::a::A; mod deeper;"),
        file("b::tests::deeper", "use crate::a::A;"),
    ];
    assert_eq!(report(&levels(&files)), "");
    let mut with_code = files.to_vec();
    with_code.push(file("b", "pub struct B; fn f() { let _ = crate::a::A; }"));
    with_code.remove(2);
    assert!(report(&levels(&with_code)).contains("cycle top-level modules: a -> b -> a"));
}
