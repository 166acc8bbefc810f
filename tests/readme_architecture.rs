//! README's architecture table names every module folder a newcomer looks for: each crate, each
//! top-level module of the core (folder or file), each folder of the redaction crate and the JS
//! face. A module added without a row, or a row left behind by a move, fails here.

use std::fs;
use std::path::Path;

fn readme_rows() -> Vec<String> {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    readme
        .lines()
        .filter(|l| {
            ["| `src/", "| `crates/", "| `llm-memory"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(str::to_string)
        .collect()
}

/// `dir/x/` for folders and, with `files`, `dir/x.rs` for files, as the table writes them.
fn modules_under(dir: &str, files: bool) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for entry in fs::read_dir(root.join(dir)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            out.push(format!("{dir}/{name}/"));
        } else if files && name.ends_with(".rs") && name != "lib.rs" {
            out.push(format!("{dir}/{name}"));
        }
    }
    out.sort();
    out
}

/// What the table must name: every crate, the core's modules, redaction's folders, the face.
fn required() -> Vec<String> {
    let crates: Vec<String> = modules_under("crates", false);
    assert!(crates.len() >= 4, "{crates:?}");
    crates
        .into_iter()
        .chain(modules_under("crates/core/src", true))
        .chain(modules_under("crates/redact/src", false))
        .chain(modules_under("src", false))
        .collect()
}

#[test]
fn the_architecture_table_names_every_module() {
    let rows = readme_rows();
    // A row may name several (`message.rs`, `time.rs`), so any mention in quotes counts.
    let named = |m: &str| rows.iter().any(|r| r.contains(&format!("`{m}`")));
    let missing: Vec<String> = required().into_iter().filter(|m| !named(m)).collect();
    assert!(
        missing.is_empty(),
        "README's architecture table has no row for {missing:?}"
    );
}

#[test]
fn every_row_names_a_path_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = readme_rows();
    assert!(rows.len() >= 10, "{rows:?}");
    for row in rows {
        let cell = row.split('|').nth(1).unwrap();
        for path in cell
            .split('`')
            .filter(|p| p.starts_with("src/") || p.starts_with("crates/"))
        {
            assert!(
                root.join(path).exists(),
                "README names {path}, which is gone"
            );
        }
    }
}
