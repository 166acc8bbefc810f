//! Words as the person scan reads them: runs of letters (an ASCII letter or, beyond ASCII, an
//! alphabetic character) with inner apostrophes and hyphens (O'Brien, Jean-Luc), found
//! forwards or backwards from any position without tokenizing the text.

use super::Token;

/// Whether the character at `i` is a letter of a word: an ASCII letter or, beyond ASCII, an
/// alphabetic character.
fn letter_at(text: &str, i: usize) -> bool {
    match text.as_bytes().get(i) {
        Some(c) if c.is_ascii() => c.is_ascii_alphabetic(),
        Some(_) => text[i..].chars().next().is_some_and(char::is_alphabetic),
        None => false,
    }
}

/// The character ending at byte `i` and where it starts.
#[inline]
fn char_before(text: &str, i: usize) -> Option<(usize, char)> {
    let b = *text.as_bytes().get(i.wrapping_sub(1))?;
    if b.is_ascii() {
        return Some((i - 1, b as char));
    }
    let c = text[..i].chars().next_back()?;
    Some((i - c.len_utf8(), c))
}

fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        c.is_alphabetic()
    }
}

/// Apostrophes and hyphens between two letters join them into one word: O'Brien, Jean-Luc.
fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '-' | '’')
}

/// Whether a word starts at `i`: a letter that no letter (or joiner after a letter) precedes.
pub(super) fn starts_word(text: &str, i: usize) -> bool {
    // Most candidates are ASCII capitals: a letter already.
    if !text.as_bytes()[i].is_ascii_uppercase() && !letter_at(text, i) {
        return false;
    }
    match char_before(text, i) {
        None => true,
        Some((_, c)) if is_letter(c) => false,
        Some((j, c)) if is_joiner(c) => !char_before(text, j).is_some_and(|(_, d)| is_letter(d)),
        Some(_) => true,
    }
}

/// Where the word starting at `i` ends: letters, with inner apostrophes and hyphens.
pub(super) fn word_end(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    let n = b.len();
    while i < n {
        while i < n && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let Some(&c) = b.get(i) else { break };
        if c.is_ascii() {
            if matches!(c, b'\'' | b'-') && letter_at(text, i + 1) {
                i += 1;
                continue;
            }
            break;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        let len = ch.len_utf8();
        if ch.is_alphabetic() || (ch == '’' && letter_at(text, i + len)) {
            i += len;
            continue;
        }
        break;
    }
    i
}

/// The word before byte `i` (which is not inside a word).
pub(super) fn word_before(text: &str, mut i: usize) -> Option<Token> {
    // Back over what is not a letter to the last letter of the word.
    let b = text.as_bytes();
    let end = loop {
        // ASCII that is not a letter is passed without decoding.
        if i > 0 && b[i - 1].is_ascii() && !b[i - 1].is_ascii_alphabetic() {
            i -= 1;
            continue;
        }
        let (j, c) = char_before(text, i)?;
        if is_letter(c) {
            break i;
        }
        i = j;
    };
    // Back over letters and joiners between letters to its first letter.
    let (mut start, _) = char_before(text, end)?;
    loop {
        while start > 0 && b[start - 1].is_ascii_alphabetic() {
            start -= 1;
        }
        let Some((j, c)) = char_before(text, start) else {
            break;
        };
        if is_letter(c) {
            start = j;
        } else if let Some((k, _)) =
            char_before(text, j).filter(|&(_, d)| is_joiner(c) && is_letter(d))
        {
            start = k;
        } else {
            break;
        }
    }
    Some(Token { start, end })
}

/// Whether the word ending at `end` opens a field label: one to three lower-case words and a
/// colon follow it on its line ("Correo electrónico:", "Fecha de ingreso:"). A name run stops
/// before such a word: "Angel Luis Salcedo Mingoarranz Correo electrónico: …".
pub(super) fn opens_a_label(text: &str, end: usize) -> bool {
    let Some(rest) = text[end..].strip_prefix(' ') else {
        return false;
    };
    // Read only as far as three words can reach: this runs for every word a name run may
    // take, and the next colon may be pages away.
    let mut words = 0;
    let mut in_word = false;
    for c in rest.chars() {
        match c {
            ':' => return in_word,
            ' ' if in_word && words < 3 => in_word = false,
            c if c.is_lowercase() => {
                if !in_word {
                    words += 1;
                    in_word = true;
                }
            }
            _ => return false,
        }
    }
    false
}

/// The word after `end` when exactly one space separates them.
pub(super) fn word_after_space(text: &str, end: usize) -> Option<Token> {
    if text.as_bytes().get(end) != Some(&b' ') || !letter_at(text, end + 1) {
        return None;
    }
    Some(Token {
        start: end + 1,
        end: word_end(text, end + 1),
    })
}

/// Whether a word starts with a capital and is not all capitals (acronyms, constants) or
/// words joined into an identifier.
#[inline]
pub(super) fn is_capitalized(word: &str) -> bool {
    // Most words start with an ASCII letter: no need to decode them.
    match word.as_bytes() {
        [c, ..] if c.is_ascii_lowercase() => false,
        [c, rest @ ..] if c.is_ascii_uppercase() && rest.is_ascii() => {
            rest.iter().any(u8::is_ascii_lowercase) && !joins_words(rest)
        }
        _ => capitalized_unicode(word),
    }
}

/// Whether a capital follows three lower-case letters in the rest of a word: identifiers and
/// brands join words ("CustomEvent", "JavaScript", "DeepWiki"); names join shorter prefixes
/// ("McDonald", "MacArthur", "DeShawn", "LaToya").
fn joins_words(rest: &[u8]) -> bool {
    let mut lower = 0;
    for &c in rest {
        if c.is_ascii_uppercase() && lower >= 3 {
            return true;
        }
        lower = if c.is_ascii_lowercase() { lower + 1 } else { 0 };
    }
    false
}

fn capitalized_unicode(word: &str) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    // Needs a lower-case letter: ALL-CAPS words are acronyms, constants and headings. The
    // ordinal indicators, lower-case letters to Unicode, make an abbreviation ("NºCol").
    first.is_uppercase()
        && word.chars().any(char::is_lowercase)
        && !word.contains(['º', 'ª'])
        && word.chars().count() >= 2
}
