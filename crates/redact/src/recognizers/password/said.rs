//! Passwords said rather than assigned: in other languages ("Passwort: …", "mot de passe : …",
//! "mein Passwort ist …"), in short forms ("pass: …", "my pw is …", "with password …"), in a
//! login line ("login: jsmith / …"), a command (`curl -u admin:…`) and a Basic authorization
//! header. Each pattern has a word gate, so only the few windows around its keyword are
//! searched; the value must look like a secret (a digit, a symbol or an inner capital), which
//! keeps "password protection", "pass the salt" and "Passwort vergessen" out.

use crate::entity::EntityType::Password;
use crate::recognizers::{Hit, Spec};
use crate::scan::gate::Gate;
use crate::scan::prescan::{skip_space, skip_space_back};
use crate::scan::text::starts_ci;

/// The specs, appended to the built-in ones.
pub(super) fn specs() -> Vec<Spec> {
    vec![
        Spec::new(Password, r"(?:\b(?i-u:passwort|kennwort|mot de passe|contrase(?:ñ|Ñ)a|senha|wachtwoord|pass|pw)(?:\s+(?i-u:ist|is|est|es|é|è|era|was)\s+|\s*[:=]\s*)|\b(?i-u:parola|passord(?:et)?|adgangskode(?:n)?|lösenord(?:et)?|salasana|hasło|haslo)(?:\s+(?i-u:è|er|är|on|jest|to|is)\s+|\s*[:=]\s*)|\b(?i-u:password|passwd)\s+(?i-u:is|was|è|é|es|ist|est)\s+|(?:п|П)ароль(?:\s+(?:—|-)\s+|\s*[:=]\s*))([^\s,;]{4,100})", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["pass", "pw", "kennwort", "mot", "contrase", "senha", "wachtwoord", "parola", "adgangskode", "lösenord", "salasana", "hasło", "haslo", "пароль", "Пароль"], back: 0, ahead: 4, test: Some(says_secret) }),
        // Door, gate and alarm codes: "the door code is 4821", "gate code: 1357#", "Türcode
        // 4711", "el código de la puerta es 2580", "code de la porte : 4821".
        Spec::new(Password, r"\b(?:(?i-u:door|gate|garage|alarm|keypad|entry|building|lockbox|key box|keybox)\s+code|(?i-u:türcode|tuercode|torcode|haustürcode|alarmcode|deurcode|portkod|portkode|digicode)|(?i-u:código|codigo)\s+(?i-u:de\s+la|del|do|da|de)\s+(?i-u:puerta|portal|portão|portao|porta|alarma|alarme)|(?i-u:code)\s+(?i-u:de\s+la|du|de\s+l'|d')\s*(?i-u:porte|portail|alarme|entrée|immeuble)|(?i-u:codice)\s+(?i-u:della|del|dell')\s*(?i-u:porta|portone|cancello|allarme))(?:\s+(?i-u:is|was|ist|es|est|è|é|er|är|on)\s+|\s*[:=]\s*|\s+)([0-9]{3,8}[#*]?)(?:[^0-9A-Za-z]|$)", door_code)
            .group(1)
            .gate(Gate::Near { words: &["door", "gate", "garage", "alarm", "keypad", "entry", "building", "lockbox", "key", "türcode", "tuercode", "torcode", "haustürcode", "deurcode", "portkod", "digicode", "código", "codigo", "code", "codice"], back: 0, ahead: 6, test: Some(opens_door_code) }),
        Spec::new(Password, r"\b(?i-u:with|using)\s+(?i-u:password|passwort|pass|pw)\s+([^\s,;]{4,100})", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["pass", "pw"], back: 1, ahead: 1, test: Some(used_secret) }),
        Spec::new(Password, r"\b(?i-u:login|username|user|creds|credentials)\s*:\s*[^\s/]+\s*/\s*([^\s,;]{4,100})", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["login", "user", "creds", "credentials"], back: 0, ahead: 4, test: Some(labels_login) }),
        Spec::new(Password, r"(?:-u|--user)\s+[^\s:'\x22$]+:([^\s'\x22]{4,100})", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["-u", "--user"], back: 0, ahead: 1, test: None }),
        // "the password for the wifi is …", "password to the admin panel: …", on one line (a
        // prompt "Enter passphrase for key '…':" is followed by output on the next).
        Spec::new(Password, r"\b(?i-u:password|passcode|passphrase|pin)[^\S\n]+(?i-u:for|to|of|on)[^\S\n]+(?:[^\s:=]+[^\S\n]+){0,3}?(?:(?i-u:is|was)[^\S\n]+|[^\s:=]+[^\S\n]*[:=][^\S\n]*)([^\s,;]{4,100})", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["pass", "pin"], back: 0, ahead: 7, test: Some(secret_for) }),
        // A PIN after its label ("PIN: 4921", "pin is 7731"): digits only, so `pin: GPIO_NUM_4`
        // in firmware code is none, and at least four (GPIO pin numbers are smaller).
        Spec::new(Password, r"\b(?i-u:pin)(?:\s+(?i-u:is|was)\s+|\s*[:=]\s*)([0-9]{4,8})\b", said_secret)
            .group(1)
            .gate(Gate::Near { words: &["pin"], back: 0, ahead: 2, test: Some(labels_pin) }),
        Spec::new(Password, r"\b(?i-u:basic)\s+([A-Za-z0-9+/]{8,}={0,2})", basic_credentials)
            .group(1)
            .gate(Gate::Near { words: &["basic"], back: 0, ahead: 1, test: None }),
    ]
}

/// Whether `(?i-u:password|passcode|passphrase|pin)\s+(?i-u:for|to|of|on)\s` starts at `at`,
/// as every match of the "password for …" pattern does.
fn secret_for(text: &str, at: usize) -> bool {
    ["password", "passcode", "passphrase", "pin"]
        .iter()
        .any(|w| {
            let after = at + w.len();
            let next = skip_space(text, after);
            starts_ci(text, at, w)
                && next > after
                && ["for", "to", "of", "on"].iter().any(|p| {
                    starts_ci(text, next, p) && skip_space(text, next + p.len()) > next + p.len()
                })
        })
}

/// Whether `(?i-u:pin)(?:\s+(?i-u:is|was)\s+|\s*[:=]\s*)[0-9]` starts at `at`, as every match
/// of the PIN pattern does.
fn labels_pin(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    if !starts_ci(text, at, "pin") {
        return false;
    }
    let after = at + 3;
    let next = skip_space(text, after);
    let value = match b.get(next) {
        Some(b':' | b'=') => skip_space(text, next + 1),
        _ if next > after => ["is", "was"]
            .iter()
            .find(|v| starts_ci(text, next, v))
            .map_or(next, |v| skip_space(text, next + v.len())),
        _ => return false,
    };
    b.get(value).is_some_and(u8::is_ascii_digit)
}

/// Whether a login line starts at `at`: `(?i-u:login|username|user|creds|credentials)\s*:\s*[^\s/]+\s*/`,
/// the start of every match of its pattern. "user" is a common word; a colon after it is not,
/// and "User: …" in a chat transcript is followed by no slash.
fn labels_login(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    ["login", "username", "user", "creds", "credentials"]
        .iter()
        .any(|w| {
            let colon = skip_space(text, at + w.len());
            starts_ci(text, at, w)
                && b.get(colon) == Some(&b':')
                && slash_after_name(text, colon + 1)
        })
}

/// Whether `\s*[^\s/]+\s*/` matches at `i`: a user name, then the slash before its password.
/// The name is the whole run of bytes that are neither white space nor `/` (none of them could
/// be the slash), so one walk decides.
fn slash_after_name(text: &str, i: usize) -> bool {
    let start = skip_space(text, i);
    let name = text[start..]
        .find(|c: char| c.is_whitespace() || c == '/')
        .unwrap_or(text.len() - start);
    name > 0 && text.as_bytes().get(skip_space(text, start + name)) == Some(&b'/')
}

/// Whether a said password's keyword starts at `at`, as in every match of the first pattern:
/// a keyword, then `\s*[:=]` or white space and a verb (`\s+(?:is|was|…)`; "password" and
/// "passwd" take only the verb). A verb is "é" too, so any non-ASCII character after the white
/// space passes; "contraseña" passes whatever follows. Most "pass" in prose is "password"
/// followed by neither.
fn says_secret(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let follows = |keyword: &str, verbs: &[&str], operator: bool| {
        if !starts_ci(text, at, keyword) {
            return false;
        }
        let after = at + keyword.len();
        let next = skip_space(text, after);
        (operator && matches!(b.get(next), Some(b':' | b'=')))
            || (next > after
                && (b.get(next).is_some_and(|&c| c >= 0x80)
                    || verbs.iter().any(|v| starts_ci(text, next, v))))
    };
    let verbs = ["ist", "is", "est", "es", "era", "was"];
    let said = [
        "passwort",
        "kennwort",
        "mot de passe",
        "senha",
        "wachtwoord",
        "pass",
        "pw",
    ];
    let nordic = ["er", "on", "jest", "to", "is"];
    let said_nordic = [
        "parola",
        "passordet",
        "passord",
        "adgangskoden",
        "adgangskode",
        "lösenordet",
        "lösenord",
        "salasana",
        "hasło",
        "haslo",
    ];
    starts_ci(text, at, "contrase")
        || said.iter().any(|k| follows(k, &verbs, true))
        || said_nordic.iter().any(|k| follows(k, &nordic, true))
        || ["пароль", "Пароль"]
            .iter()
            .any(|k| follows(k, &["-"], true))
        || ["password", "passwd"]
            .iter()
            .any(|k| follows(k, &["is", "was"], false))
}

/// Whether `(?i-u:with|using)\s+(?i-u:password|passwort|pass|pw)\s+` has its keyword at `at`,
/// as every match of the second pattern does.
fn used_secret(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let before = skip_space_back(text, at);
    let ends = |word: &str| {
        before >= word.len() && b[before - word.len()..before].eq_ignore_ascii_case(word.as_bytes())
    };
    before < at
        && (ends("with") || ends("using"))
        && ["password", "passwort", "pass", "pw"]
            .iter()
            .any(|k| starts_ci(text, at, k) && skip_space(text, at + k.len()) > at + k.len())
}

/// Whether a stated secret's keyword starts at `at`, as in every match of the `my password
/// is …` pattern: `(?i-u:password|passcode|passphrase|pin)(?:\s+(?i-u:is|was)|\s*[=:])` ("wifi
/// password" holds "password"). White space runs to "is" or "was" whole: `\s+` stops only
/// before a byte that is not white space.
pub(super) fn states_secret(text: &str, at: usize) -> bool {
    ["password", "passcode", "passphrase", "pin"]
        .iter()
        .any(|w| {
            if !starts_ci(text, at, w) {
                return false;
            }
            let after = at + w.len();
            let next = skip_space(text, after);
            matches!(text.as_bytes().get(next), Some(b'=' | b':'))
                || (next > after && (starts_ci(text, next, "is") || starts_ci(text, next, "was")))
        })
}

/// Whether a stated secret starts at `at` as the `my password is …` pattern needs it:
/// [`states_secret`], after "my", "the", "our" or "your" (and "wifi" or "wi-fi" between them
/// and "password"). Most "password:" and "pin" in a text have no such word before them.
pub(super) fn owns_secret(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    // The one of `words` that ends white space before `end`, and where it starts.
    let word_before = |end: usize, words: &[&str]| {
        let e = skip_space_back(text, end);
        (e < end)
            .then(|| {
                words.iter().find_map(|w| {
                    let s = e.checked_sub(w.len())?;
                    b[s..e].eq_ignore_ascii_case(w.as_bytes()).then_some(s)
                })
            })
            .flatten()
    };
    let owners = ["my", "the", "our", "your"];
    let owned = word_before(at, &owners).is_some()
        || word_before(at, &["wifi", "wi-fi"]).is_some_and(|s| word_before(s, &owners).is_some());
    owned && states_secret(text, at)
}

/// The first words of a door-code label, and what must follow each ("door" → "code").
const DOOR_LABELS: &[(&str, &[&str])] = &[
    ("door", &["code"]),
    ("gate", &["code"]),
    ("garage", &["code"]),
    ("alarm", &["code"]),
    ("keypad", &["code"]),
    ("entry", &["code"]),
    ("building", &["code"]),
    ("lockbox", &["code"]),
    ("key", &["box", "code"]),
    ("türcode", &[]),
    ("tuercode", &[]),
    ("torcode", &[]),
    ("haustürcode", &[]),
    ("alarmcode", &[]),
    ("deurcode", &[]),
    ("portkod", &[]),
    ("digicode", &[]),
    ("código", &["de", "del", "do", "da"]),
    ("codigo", &["de", "del", "do", "da"]),
    ("code", &["de", "du", "d'"]),
    ("codice", &["della", "del", "dell'"]),
];

/// Whether a door-code label starts at `at`: its first word, then (for most) the word the
/// pattern wants next. Most "code" and "door" in a text are followed by something else.
fn opens_door_code(text: &str, at: usize) -> bool {
    DOOR_LABELS.iter().any(|(first, next)| {
        if !starts_ci(text, at, first) {
            return false;
        }
        let after = at + first.len();
        if next.is_empty() {
            return !text
                .as_bytes()
                .get(after)
                .is_some_and(u8::is_ascii_alphabetic);
        }
        let n = skip_space(text, after);
        n > after && next.iter().any(|w| starts_ci(text, n, w))
    })
}

/// A door code: its digits (and a closing `#` or `*`), not a year after "code" or a count.
fn door_code(text: &str, s: usize, e: usize) -> Option<Hit> {
    let b = text.as_bytes();
    // "gate code 2024" in a changelog names a year more often than a code.
    let digits = b[s..e].iter().take_while(|c| c.is_ascii_digit()).count();
    let year = digits == 4 && (&b"1900"[..]..=&b"2099"[..]).contains(&&b[s..s + 4]);
    (!year).then_some(Hit {
        start: s,
        end: e,
        score: 0.85,
    })
}

/// A value that reads as a secret: four characters or more, not a variable or a placeholder,
/// and with a digit, a symbol or a capital after its first letter (most words after "pass" and
/// "password" are prose: "is required", "protection", "vergessen").
fn said_secret(text: &str, s: usize, e: usize) -> Option<Hit> {
    let value = text[s..e].trim_end_matches(['.', ',', ';', ')']);
    let e = s + value.len();
    let secret_like = value.chars().skip(1).any(|c| !c.is_lowercase());
    (value.chars().count() >= 4
        && secret_like
        && !value.starts_with(['$', '<', '{', '%', '*', '[', '('])
        // A call or an index in code (`pass = getpass.getpass()`).
        && !value.contains(['(', '['])
        && !value.bytes().all(|b| matches!(b, b'x' | b'X' | b'*' | b'.')))
    .then_some(Hit {
        start: s,
        end: e,
        score: 0.85,
    })
}

/// `Basic <base64>` whose decoded text is `user:password`.
fn basic_credentials(text: &str, s: usize, e: usize) -> Option<Hit> {
    let mut bits = 0u32;
    let mut nbits = 0;
    let mut colon = false;
    for c in text[s..e].bytes().take_while(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        bits = (bits << 6) | v as u32;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            let byte = (bits >> nbits) as u8;
            // Credentials are text: a control byte means this is no `user:password`.
            if byte < 0x20 || byte == 0x7f {
                return None;
            }
            colon |= byte == b':';
        }
    }
    colon.then_some(Hit {
        start: s,
        end: e,
        score: 0.9,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_decode_to_user_and_password() {
        let t = "YWRtaW46U3VwZXJTZWNyZXQxMjM=";
        assert!(basic_credentials(t, 0, t.len()).is_some());
        // "hello world" has no colon.
        let t = "aGVsbG8gd29ybGQ=";
        assert!(basic_credentials(t, 0, t.len()).is_none());
    }
}
