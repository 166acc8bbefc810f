//! The phrases before a capitalized word that make it a name: strong ones ("my name is",
//! "Dear", "ich heiße") and medium ones ("Hi", "ask", "talked to"), and the quick test of the
//! word before a capital that tells whether any of them can end there.

pub(super) const STRONG_CUES: &[&[&str]] = &[
    &["name", "is"],
    &["name's"],
    &["named"],
    &["call", "me"],
    &["dear"],
    &["signed"],
    &["attn"],
    &["je", "m'appelle"],
    &["ich", "heiße"],
    &["me", "llamo"],
    &["mi", "chiamo"],
    &["chamo-me"],
    &["mein", "name", "ist"],
    &["meu", "nome", "é"],
    &["mi", "nombre", "es"],
    &["ik", "heet"],
    &["nazywam", "się"],
    &["jag", "heter"],
    &["jeg", "heter"],
    &["jeg", "hedder"],
    &["naam", "is"],
    &["nimeni", "on"],
    &["меня", "зовут"],
    &["ich", "heisse"],
];

pub(super) const MEDIUM_CUES: &[&[&str]] = &[
    &["i'm"],
    &["i’m"],
    &["i", "am"],
    &["this", "is"],
    &["hi"],
    &["hello"],
    &["hey"],
    &["thanks"],
    &["thank", "you"],
    &["ask"],
    &["tell"],
    &["met"],
    &["meet"],
    &["cc"],
    &["contact"],
    &["talked", "to"],
    &["spoke", "with"],
    &["spoke", "to"],
    &["hola"],
    &["bonjour"],
    &["hallo"],
    &["ciao"],
    &["olá"],
    &["ich", "bin"],
    &["soy"],
    &["sono"],
    &["sou"],
];

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Cue {
    Strong,
    Medium,
}

/// Whether some cue ends in `word`: most words before a capitalized one end none, and this
/// answers without walking the cue lists (a test keeps it in step with them).
pub(super) fn ends_a_cue(word: &str) -> bool {
    matches!(
        word,
        "is" | "name's"
            | "named"
            | "me"
            | "dear"
            | "signed"
            | "attn"
            | "m'appelle"
            | "heiße"
            | "heisse"
            | "heet"
            | "się"
            | "heter"
            | "hedder"
            | "on"
            | "зовут"
            | "llamo"
            | "chiamo"
            | "chamo-me"
            | "ist"
            | "é"
            | "es"
            | "i'm"
            | "i’m"
            | "am"
            | "hi"
            | "hello"
            | "hey"
            | "thanks"
            | "you"
            | "ask"
            | "tell"
            | "met"
            | "meet"
            | "cc"
            | "contact"
            | "to"
            | "with"
            | "hola"
            | "bonjour"
            | "hallo"
            | "ciao"
            | "olá"
            | "bin"
            | "soy"
            | "sono"
            | "sou"
    )
}

/// The cues of `strength` whose last word is `last`, so a capitalized word only checks those
/// in full.
pub(super) fn cues_ending_in(
    last: &str,
    strength: Cue,
) -> impl Iterator<Item = &'static [&'static str]> + '_ {
    let cues = if !ends_a_cue(last) {
        &[]
    } else if strength == Cue::Strong {
        STRONG_CUES
    } else {
        MEDIUM_CUES
    };
    cues.iter()
        .copied()
        .filter(move |c| c.last() == Some(&last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_ends_in_a_listed_word() {
        for cue in STRONG_CUES.iter().chain(MEDIUM_CUES) {
            assert!(ends_a_cue(cue.last().unwrap()), "{cue:?}");
        }
    }
}
