//! Passwords said in the languages the name cues cover, and door, gate and alarm codes.

use super::found;

fn secrets(text: &str) -> Vec<String> {
    found(text)
        .into_iter()
        .filter(|(k, _)| k == "PASSWORD")
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn passwords_said_in_more_languages() {
    for (text, value) in [
        ("la password è Ciao123", "Ciao123"),
        ("hasło to Kot12345", "Kot12345"),
        ("lösenordet är Hund2024", "Hund2024"),
        ("adgangskode: Kage1234", "Kage1234"),
        ("passordet er Fjord2024", "Fjord2024"),
        ("salasana on Kissa123", "Kissa123"),
        ("пароль: Qwerty123", "Qwerty123"),
    ] {
        assert_eq!(secrets(text), [value], "{text:?}: {:?}", found(text));
    }
}

#[test]
fn door_and_gate_codes() {
    for (text, value) in [
        ("the door code is 4821", "4821"),
        ("gate code: 1357#", "1357#"),
        ("Türcode 4711, klingeln bei Meier", "4711"),
        ("el código de la puerta es 2580", "2580"),
        ("code de la porte : 4821", "4821"),
        ("codice del cancello 4477", "4477"),
        ("alarm code is 9876", "9876"),
    ] {
        assert_eq!(secrets(text), [value], "{text:?}: {:?}", found(text));
    }
}

/// A code that is a year or a word, "pass" before a name, and code that names a code.
#[test]
fn codes_and_words_that_are_no_secret() {
    for text in [
        "see the gate code 2024 release notes",
        "the door code was changed last week",
        "pass to McDonald on the left",
        "error code 4821 means the door is open",
        "let code = 4821;",
    ] {
        assert!(secrets(text).is_empty(), "{text:?}: {:?}", found(text));
    }
}
