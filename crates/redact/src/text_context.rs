//! What redaction reads from a text once, before it judges any candidate in it: facts about
//! the text as a whole that no single finder sees. The suppression stage
//! ([`crate::suppress`]) asks it about every candidate alike, whoever found it.

use crate::public_figures;

/// The once-per-text facts the suppression stage needs.
pub struct TextContext {
    /// Byte ranges naming a public figure of the deny list ([`public_figures`]).
    famous: Vec<(usize, usize)>,
}

impl TextContext {
    pub fn of(text: &str) -> TextContext {
        TextContext {
            famous: public_figures::mentions(text),
        }
    }

    /// Whether `start..end` shares a character with a public figure's mention: "Napoleon
    /// Bonaparte's", "Mr. Darcy", "Lionel Messi or Cristiano Ronaldo". A private person who
    /// shares a listed name is not redacted, whatever cue comes before the name.
    pub fn names_a_public_figure(&self, start: usize, end: usize) -> bool {
        self.famous.iter().any(|&(a, b)| a < end && start < b)
    }
}
