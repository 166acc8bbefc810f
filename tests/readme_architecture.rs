//! README's architecture table names every module folder a newcomer looks for: each top-level
//! module of `src/` (folder or file) and each folder under `src/redact/`. A module added
//! without a row, or a row left behind by a move, fails here.

use std::fs;
use std::path::Path;

fn readme_rows() -> Vec<String> {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    readme
        .lines()
        .filter(|l| l.starts_with("| `src/"))
        .map(str::to_string)
        .collect()
}

/// `src/x/` for folders and `src/x.rs` for files, as the table writes them.
fn modules_under(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for entry in fs::read_dir(root.join(dir)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            out.push(format!("{dir}/{name}/"));
        } else if dir == "src" && name.ends_with(".rs") && name != "lib.rs" {
            out.push(format!("{dir}/{name}"));
        }
    }
    out.sort();
    out
}

#[test]
fn the_architecture_table_names_every_module() {
    let rows = readme_rows();
    // A row may name several (`src/message.rs`, `src/time.rs`), so any mention in quotes counts.
    let named = |m: &str| rows.iter().any(|r| r.contains(&format!("`{m}`")));
    let missing: Vec<String> = modules_under("src")
        .into_iter()
        .chain(modules_under("src/redact"))
        .filter(|m| !named(m))
        .collect();
    assert!(
        missing.is_empty(),
        "README's architecture table has no row for {missing:?}"
    );
}

#[test]
fn every_row_names_a_path_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for row in readme_rows() {
        let cell = row.split('|').nth(1).unwrap();
        for path in cell.split('`').filter(|p| p.starts_with("src/")) {
            assert!(
                root.join(path).exists(),
                "README names {path}, which is gone"
            );
        }
    }
}
