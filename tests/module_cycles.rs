#![cfg(not(target_arch = "wasm32"))]
//! Keeps the module graph acyclic: a type shared by two modules lives below both of them, never
//! in one of them. The test reads every file under `src/` as Rust syntax, collects the paths that
//! start with `crate::`, `super::` or `self::` (in `use` items, code and macro arguments; test
//! code under `#[cfg(test)]` is left out, as it may use a layer above), and lifts each reference
//! to the level where the two modules are siblings: `context/sections.rs` naming
//! `super::builder::Budget` is the edge `context::sections -> context::builder` inside `context`;
//! `memory` naming `crate::store::Record` is `memory -> store` between top-level modules.
//! A cycle at any level fails the test and is printed with the line behind each edge.

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

/// The files of `src/`: module path, name as printed, text.
fn sources() -> Vec<(Module, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
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
    let report = report(&levels(&sources()));
    assert!(report.is_empty(), "modules in a cycle:\n{report}");
}

/// The concept each top-level module belongs to: the crates the code is being cut into
/// (core at the bottom; the encoder, redaction and sync above it; the bindings above all).
fn concept(module: &str) -> &'static str {
    match module {
        "ner" => "encoder",
        "redact" => "redact",
        "sync" => "sync",
        _ => "core",
    }
}

/// The arrows allowed between concepts: each points down.
const ALLOWED: &[(&str, &str)] = &[
    ("encoder", "core"),
    ("redact", "core"),
    ("redact", "encoder"),
    ("sync", "core"),
];

/// Module arrows that break the concept order today and are to be cut (a ratchet: a new one
/// fails, and one that is cut must leave this list). Empty: the memory reaches redaction
/// through the `Redacting` trait, and import checks of redaction's records are passed in.
const TO_CUT: &[(&str, &str)] = &[];

/// Top-level arrows between concepts that are neither allowed nor listed to be cut, and the
/// listed ones that no longer exist.
fn concept_violations(levels: &Levels) -> (Vec<String>, Vec<(&'static str, &'static str)>) {
    let empty = BTreeMap::new();
    let top = levels.get(&Vec::new()).unwrap_or(&empty);
    let mut wrong = Vec::new();
    for ((a, b), at) in top {
        let (ca, cb) = (concept(a), concept(b));
        if ca != cb && !ALLOWED.contains(&(ca, cb)) && !TO_CUT.contains(&(a.as_str(), b.as_str())) {
            wrong.push(format!("{a} -> {b} ({ca} -> {cb}) at {at}"));
        }
    }
    let cut = TO_CUT
        .iter()
        .filter(|(a, b)| !top.contains_key(&(a.to_string(), b.to_string())))
        .copied()
        .collect();
    (wrong, cut)
}

#[test]
fn concepts_depend_only_downward() {
    let (wrong, cut) = concept_violations(&levels(&sources()));
    assert!(
        wrong.is_empty(),
        "arrows against the concept order (core <- encoder <- redact, core <- sync):\n{}",
        wrong.join("\n")
    );
    assert!(cut.is_empty(), "cut, so remove from TO_CUT: {cut:?}");
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
fn test_only_files_are_left_out_and_arrows_against_the_concepts_are_found() {
    let file = |module: &str, text: &str| {
        let path: Module = module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        (path, format!("{module}.rs"), text.to_string())
    };
    let files = [
        file(
            "",
            "pub mod history; pub mod sync; pub mod ner; pub mod redact;",
        ),
        file("history", "pub struct H; fn f() { let _ = crate::ner::N; }"),
        file("ner", "pub struct N;"),
        file("redact", "pub struct R; use crate::ner::N;"),
        // A test-only file module of sync may use what sync may not.
        file("sync", "pub struct S; #[cfg(test)] mod tests;"),
        file("sync::tests", "use crate::redact::R; mod deeper;"),
        file("sync::tests::deeper", "use crate::redact::R;"),
    ];
    let (wrong, _) = concept_violations(&levels(&files));
    assert_eq!(wrong, ["history -> ner (core -> encoder) at history.rs:1"]);
}
