//! What redaction reads from a text once, before it judges any candidate in it: facts about
//! the text as a whole that no single finder sees. The suppression stage
//! ([`crate::suppress`]) asks it about every candidate alike, whoever found it.

use crate::public_figures;
use std::cell::OnceCell;

/// The once-per-text facts the suppression stage needs, each read on its first question: a
/// text with no name among its candidates is never searched for public figures.
pub struct TextContext<'t> {
    text: &'t str,
    /// Byte ranges naming a public figure of the deny list ([`public_figures`]).
    famous: OnceCell<Vec<(usize, usize)>>,
}

impl<'t> TextContext<'t> {
    pub fn of(text: &'t str) -> TextContext<'t> {
        TextContext {
            text,
            famous: OnceCell::new(),
        }
    }

    /// Whether `start..end` shares a character with a public figure's mention: "Napoleon
    /// Bonaparte's", "Mr. Darcy", "Lionel Messi or Cristiano Ronaldo". A private person who
    /// shares a listed name is not redacted, whatever cue comes before the name.
    pub fn names_a_public_figure(&self, start: usize, end: usize) -> bool {
        let famous = self
            .famous
            .get_or_init(|| public_figures::mentions(self.text));
        famous.iter().any(|&(a, b)| a < end && start < b)
    }
}
