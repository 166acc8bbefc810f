//! The name a message opens by speaking to. In an app where a person talks to an assistant,
//! a message that opens "olly what's the time", "hey alexa turn off the fan" or "siri do i need
//! an umbrella" calls the assistant by its name: nobody else is spoken of, and redacting the
//! name only changes the question. A name spoken *of* at the start stays a finding: it is
//! followed by its verb ("tom wants the report"), a comma ("Dana, can you…", which is how a
//! letter or a message drafted for someone opens) or "and".

use crate::lexicon::{ADDRESS_OPENERS, AUXILIARIES, IMPERATIVES, REQUEST_OPENERS};

/// Pronouns after an auxiliary that make it open a question ("can you", "do i", "is there").
const REQUEST_SUBJECTS: &[&str] = &["i", "you", "we", "there"];

/// Words after a greeted name that make it the writer's own or one of several: "hey dave
/// here", "hi rosa from accounts", "hi tom again", "hey ann and raj".
const NOT_SPOKEN_TO: &[&str] = &["here", "from", "again", "speaking", "and", "&"];

/// The byte range of the one-word name `text` opens by speaking to, if it does:
/// - after a greeting and a space, a name followed by a space and more words ("hey olly order
///   a pizza"), or
/// - at the very start, a name followed by a space and a word that opens a request: a wh-word,
///   "please", "i" or "you" ([`REQUEST_OPENERS`]), an auxiliary before a pronoun ("alexa can
///   you …"), or a command verb in its base form written lower case ([`IMPERATIVES`]: "olly
///   turn the lights down"; a name that is the subject takes "turns", and "Emily Post" is a
///   surname).
///
/// A comma after the name ("Hi Paul, I'm contacting you …") is how letters open: not an
/// address to the assistant.
pub(super) fn addressee(text: &str) -> Option<(usize, usize)> {
    let start = text.len() - text.trim_start().len();
    let mut words = Words { text, at: start };
    let first = words.next()?;
    let greeted = ADDRESS_OPENERS.contains(&lower(first.2).as_str());
    let (name, next) = if greeted {
        (words.next()?, words.next()?)
    } else {
        (first, words.next()?)
    };
    let spaces = |from: usize, to: usize| text[from..to].chars().all(|c| c == ' ');
    if greeted && !spaces(first.1, name.0) {
        return None;
    }
    let word = lower(name.2);
    let a_function_word =
        REQUEST_OPENERS.contains(&word.as_str()) || AUXILIARIES.contains(&word.as_str());
    if a_function_word || !is_name_like(name.2) || !spaces(name.1, next.0) {
        return None;
    }
    let opener = lower(next.2);
    if NOT_SPOKEN_TO.contains(&opener.as_str()) {
        return None;
    }
    let commands = next.2.starts_with(char::is_lowercase) && IMPERATIVES.contains(&next.2);
    let requests = greeted
        || commands
        || REQUEST_OPENERS.contains(&opener.as_str())
        || (AUXILIARIES.contains(&opener.as_str())
            && words
                .next()
                .is_some_and(|w| REQUEST_SUBJECTS.contains(&lower(w.2).as_str())));
    requests.then_some((name.0, name.1))
}

/// A word that could be a given name: letters only (a hyphen or an apostrophe inside).
fn is_name_like(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_alphabetic)
        && word
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'' || c == '’')
}

fn lower(word: &str) -> String {
    word.to_lowercase().replace('’', "'")
}

/// The words of a text from a byte offset: runs of characters that are not whitespace or
/// sentence punctuation, each as (start, end, word).
struct Words<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Iterator for Words<'t> {
    type Item = (usize, usize, &'t str);

    fn next(&mut self) -> Option<Self::Item> {
        let is_break = |c: char| c.is_whitespace() || ",;:.!?\"()[]".contains(c);
        let rest = &self.text[self.at..];
        let start = self.at + rest.find(|c: char| !is_break(c))?;
        let end = self.text[start..]
            .find(is_break)
            .map_or(self.text.len(), |n| start + n);
        self.at = end;
        Some((start, end, &self.text[start..end]))
    }
}

#[cfg(test)]
mod tests {
    use super::addressee;

    fn spoken_to(text: &str) -> Option<&str> {
        addressee(text).map(|(a, b)| &text[a..b])
    }

    #[test]
    fn a_name_a_request_opens_with_is_spoken_to() {
        assert_eq!(spoken_to("olly what's the time in zimbabwe"), Some("olly"));
        assert_eq!(spoken_to("hey olly order a pizza"), Some("olly"));
        assert_eq!(spoken_to("Alexa please turn off the fan"), Some("Alexa"));
        assert_eq!(spoken_to("siri do i need an umbrella"), Some("siri"));
        assert_eq!(spoken_to("  jo can you check this?"), Some("jo"));
        assert_eq!(spoken_to("Cory I love your videos"), Some("Cory"));
        assert_eq!(spoken_to("olly turn the lights down"), Some("olly"));
        assert_eq!(spoken_to("Jarvis open the garage"), Some("Jarvis"));
        assert_eq!(
            spoken_to("hey tanner"),
            None,
            "a greeting alone names nobody else either"
        );
    }

    #[test]
    fn a_name_spoken_of_or_a_letter_opening_is_not() {
        for text in [
            "tom wants the report by friday",
            "sven says hi",
            "Tom can help with the move",
            "Tom did it again",
            "oliver and grace are both on the family plan",
            "Dana, can you send me the files?",
            "Hi Paul, I'm contacting you about a wire transfer",
            "hi, rosa from accounts. can you resend the payslip",
            "Renátó, can I please speak to your boss?",
            "Priya Natarajan what do you think",
            "hey dave here, the refund never came",
            "hi rosa from accounts can you resend it",
            "hey ann and raj what time works",
            "what do you think",
            "tom turns the lights off at nine",
            "Emily Post wrote the book on etiquette",
            "tom put the keys on the table",
            "Olly, turn the lights down",
        ] {
            assert_eq!(spoken_to(text), None, "{text:?}");
        }
    }
}
