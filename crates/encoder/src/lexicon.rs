//! Word classes the decoder and the redaction crate (`llm-memory-redact`, which depends on this
//! crate) both read, each written once as a `.txt` file in `lexicon/`: one entry per line,
//! `# ` starts a comment line saying where the words come from. A class one side reads with
//! more words than the other keeps the extra words in its own file, named for that side, with
//! the reason the other side must not read them.

use std::sync::LazyLock;

/// The entries of a word-list file: its lines without blank lines and comment lines. A comment
/// starts with `# ` (a hash and a space), so that `#` alone is an entry (the unit in "# 12").
pub fn entries(list: &str) -> impl Iterator<Item = &str> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("# "))
}

/// Titles before a name that both the decoder and the person recognizer read. Lower case,
/// without a final period.
pub static HONORIFICS: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/honorifics.txt")).collect());

/// Lower-case particles inside family names that both the decoder and the person recognizer
/// read ("van der Berg", "da Silva", "de la Cruz").
pub static PARTICLES: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/particles.txt")).collect());

/// Words for the part of a building or a box an address names ("apt", "suite", "piso"), that
/// both the decoder and the redaction's address check read. Lower case.
pub static UNIT_WORDS: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/unit-words.txt")).collect());
