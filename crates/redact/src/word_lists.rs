//! The large word lists that ship inside the model file (its header's `word_lists`, written by
//! `scripts/convert-ner-model.py` from `crates/redact/word-lists/`) rather than in the wasm: today
//! the 2 200 English given names beyond the recognizer's own 551. They serve recall, which the
//! model brings anyway; the lists that keep meaning with rules alone (public figures, eponymous
//! brands: `lexicon/`) stay in the wasm, so a redactor without the model still leaves "Tim
//! Hortons" and "Victor Hugo" alone.
//!
//! A redactor with a model reads the lists its model file carries; one without (rules only)
//! reads none, and natively any lists it is given ([`WordLists::from_dir`]).
//!
//! The recognizers are free functions asked word by word, far below the redactor; rather than
//! a parameter on each of them, [`Redactor`](crate::Redactor) puts its lists in use for the
//! thread while it scans a text ([`using`]), and the word questions read them ([`with`]).

use llm_memory_encoder::lexicon::entries;
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::sync::Arc;

/// The lists' names: their files in `crates/redact/word-lists/` (`.txt`) and their keys in a
/// model file's header.
pub const GIVEN_NAMES: &str = "given-names-en";
pub const NAMES: [&str; 1] = [GIVEN_NAMES];

/// The loaded lists; empty by default.
#[derive(Default)]
pub struct WordLists {
    /// Lower case. The file writes several names to a line.
    given_names: FxHashSet<String>,
}

impl std::fmt::Debug for WordLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordLists")
            .field("given_names", &self.given_names.len())
            .finish()
    }
}

impl WordLists {
    /// Reads the lists from `(name, text)` pairs, in the files' format (one entry per line,
    /// `# ` comment lines; given names several to a line). Unknown names are skipped, so a
    /// model file from a later version still loads.
    pub fn from_texts<'a>(lists: impl IntoIterator<Item = (&'a str, &'a str)>) -> WordLists {
        let mut out = WordLists::default();
        for (_, text) in lists.into_iter().filter(|(name, _)| *name == GIVEN_NAMES) {
            let names = entries(text).flat_map(str::split_whitespace);
            out.given_names.extend(names.map(str::to_lowercase));
        }
        out
    }

    /// Reads the `.txt` files of `dir` (natively: tests, benches and servers that redact
    /// without the model).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_dir(dir: &std::path::Path) -> std::io::Result<WordLists> {
        let mut texts = Vec::new();
        for name in NAMES {
            texts.push((
                name,
                std::fs::read_to_string(dir.join(format!("{name}.txt")))?,
            ));
        }
        Ok(WordLists::from_texts(
            texts.iter().map(|(n, t)| (*n, t.as_str())),
        ))
    }

    /// The lists of this repository's `crates/redact/word-lists/`, read once (natively).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn of_this_repository() -> Arc<WordLists> {
        static LISTS: std::sync::LazyLock<Arc<WordLists>> = std::sync::LazyLock::new(|| {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("word-lists");
            Arc::new(WordLists::from_dir(&dir).expect("crates/redact/word-lists reads"))
        });
        LISTS.clone()
    }

    /// Whether the lists hold nothing.
    pub fn is_empty(&self) -> bool {
        self.given_names.is_empty()
    }

    /// Whether a lower-case word is a given name of the list.
    pub fn is_given_name(&self, lower: &str) -> bool {
        self.given_names.contains(lower)
    }

    /// The given names, lower case, in no order.
    pub fn given_names(&self) -> impl Iterator<Item = &str> {
        self.given_names.iter().map(String::as_str)
    }
}

thread_local! {
    static IN_USE: RefCell<Arc<WordLists>> = RefCell::new(Arc::new(WordLists::default()));
}

/// Runs `f` with `lists` in use on this thread, then puts back the lists in use before (a
/// redactor's scan may run inside another's, as the vault's checks do).
pub fn using<R>(lists: &Arc<WordLists>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<WordLists>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(before) = self.0.take() {
                IN_USE.with(|l| *l.borrow_mut() = before);
            }
        }
    }
    let before = IN_USE.with(|l| std::mem::replace(&mut *l.borrow_mut(), lists.clone()));
    let _restore = Restore(Some(before));
    f()
}

/// Asks the lists in use on this thread.
pub fn with<R>(f: impl FnOnce(&WordLists) -> R) -> R {
    IN_USE.with(|l| f(&l.borrow()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_in_use_only_inside_their_scope() {
        let lists = WordLists::of_this_repository();
        assert!(!with(|l| l.is_given_name("abbie")));
        let inner = using(&lists, || {
            let nested = using(&Arc::new(WordLists::default()), || {
                with(|l| l.is_given_name("abbie"))
            });
            (with(|l| l.is_given_name("abbie")), nested)
        });
        assert_eq!(inner, (true, false));
        assert!(!with(|l| l.is_given_name("abbie")));
    }
}
