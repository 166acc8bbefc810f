//! What redaction reads from a text once, before it judges any candidate in it: facts about
//! the text as a whole that no single finder sees. The suppression stage
//! ([`crate::suppress`]) asks it about every candidate alike, whoever found it.

mod addressee;
pub(crate) mod public_figures;
mod samples;

use std::cell::OnceCell;

/// The once-per-text facts the suppression stage needs, each read on its first question: a
/// text with no name among its candidates is never searched for public figures.
pub struct TextContext<'t> {
    text: &'t str,
    /// Byte ranges naming a public figure of the deny list ([`public_figures`]).
    famous: OnceCell<Vec<(usize, usize)>>,
    /// The one-word name the text opens by speaking to ([`addressee`]).
    addressee: OnceCell<Option<(usize, usize)>>,
    /// Byte ranges of values the vault already holds, seen again in this text.
    known: Vec<(usize, usize)>,
}

impl<'t> TextContext<'t> {
    pub fn of(text: &'t str) -> TextContext<'t> {
        TextContext {
            text,
            famous: OnceCell::new(),
            addressee: OnceCell::new(),
            known: Vec::new(),
        }
    }

    /// The same context, told where the text repeats values the vault holds: a name the
    /// writer already gave as someone's stays theirs wherever it stands.
    pub fn knowing(mut self, known: Vec<(usize, usize)>) -> TextContext<'t> {
        self.known = known;
        self
    }

    /// Whether `start..end` is a quoted sample in a message about test data: `does my regex
    /// match "Mary Ann"?`. A name the vault holds is not.
    pub fn is_quoted_sample(&self, start: usize, end: usize) -> bool {
        samples::quoted_sample(self.text, start, end) && !self.is_known(start, end)
    }

    fn is_known(&self, start: usize, end: usize) -> bool {
        self.known.iter().any(|&(a, b)| a < end && start < b)
    }

    /// Whether `start..end` is the one-word name the text opens by speaking to: "olly what's
    /// the time", "hey alexa turn off the fan". In a chat with an assistant that is the
    /// assistant's name, not someone the writer tells of. A name the vault holds is not.
    pub fn is_spoken_to(&self, start: usize, end: usize) -> bool {
        let spoken_to = self
            .addressee
            .get_or_init(|| addressee::addressee(self.text));
        spoken_to.is_some_and(|(a, b)| a <= start && end <= b) && !self.is_known(start, end)
    }

    /// Whether a name at `start..end` is no one's private data by what the text around it
    /// says: a public figure's ([`Self::names_a_public_figure`]), the name the message speaks
    /// to ([`Self::is_spoken_to`]), or a quoted sample ([`Self::is_quoted_sample`]).
    pub fn clears_name(&self, start: usize, end: usize) -> bool {
        self.names_a_public_figure(start, end)
            || self.is_spoken_to(start, end)
            || self.is_quoted_sample(start, end)
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
