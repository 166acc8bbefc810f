//! Matches with a street address's shape that are ordinary prose, or that took prose after
//! the street. German writes "Im Jahr
//! 2020", "Am Ende 2 Punkte" and "Zum Beispiel 3 Äpfel" exactly as it writes the streets "Am
//! Markt 5" and "Zum Sportplatz 3": a preposition, a capitalized noun, a number. The noun and
//! the number tell them apart: streets are not named after years, months or chapters, and
//! house numbers do not run to four digits; a postcode and town after the number settle it
//! for a street ("Im Winkel 12, 10115 Berlin").

/// The prepositions that start a German street name without a street word.
const PREPOSITIONS: [&str; 7] = [
    "Am ", "An der ", "Auf dem ", "Im ", "In der ", "Zum ", "Zur ",
];

/// Nouns that follow those prepositions in prose before a number: time (years, months,
/// seasons, days), order (chapters, parts, steps, ends and beginnings) and set phrases.
const PROSE_NOUNS: &[&str] = &[
    "Jahr",
    "Jahre",
    "Jahren",
    "Vorjahr",
    "Geschäftsjahr",
    "Schuljahr",
    "Jahrhundert",
    "Jahrzehnt",
    "Halbjahr",
    "Quartal",
    "Monat",
    "Zeitraum",
    "Januar",
    "Jänner",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
    "Frühjahr",
    "Frühling",
    "Sommer",
    "Herbst",
    "Winter",
    "Semester",
    "Montag",
    "Dienstag",
    "Mittwoch",
    "Donnerstag",
    "Freitag",
    "Samstag",
    "Sonntag",
    "Wochenende",
    "Tag",
    "Morgen",
    "Abend",
    "Alter",
    "Kapitel",
    "Teil",
    "Abschnitt",
    "Absatz",
    "Artikel",
    "Paragraph",
    "Paragraf",
    "Punkt",
    "Schritt",
    "Level",
    "Stufe",
    "Runde",
    "Spiel",
    "Spieltag",
    "Finale",
    "Ende",
    "Anfang",
    "Beginn",
    "Start",
    "Schluss",
    "Beispiel",
    "Moment",
    "Prinzip",
    "Grunde",
    "Rahmen",
    "Laufe",
    "Fall",
    "Folgenden",
    "Vergleich",
    "Durchschnitt",
    "Schnitt",
    "Mittel",
    "Gegensatz",
    "Vorfeld",
    "Bereich",
    "Test",
    "Versuch",
    "Durchgang",
];

/// Whether the match `text[s..e]`, found by the Germanic pattern, is a prepositional phrase
/// of prose rather than a street. `with_town` says a postcode and town follow the number.
pub(crate) fn is_german_prose(text: &str, s: usize, e: usize, with_town: bool) -> bool {
    if with_town {
        return false;
    }
    let m = &text[s..e];
    let Some(rest) = PREPOSITIONS.iter().find_map(|p| m.strip_prefix(p)) else {
        return false;
    };
    let Some((noun, after)) = rest.split_once(' ') else {
        return false;
    };
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    digits >= 4 || PROSE_NOUNS.contains(&noun)
}

/// Where a match of the lower-case Romance pattern ("12 rue de Rivoli et je") ends: after its
/// last capitalized word, since the pattern takes up to four words of any case and the
/// sentence goes on after the street; the whole match when no word is capitalized ("5, calle
/// mayor"). `None` for "avenue" or "boulevard" not followed by a name or a particle: "15
/// avenue options" is English.
pub(crate) fn lower_street_end(text: &str, s: usize, e: usize) -> Option<usize> {
    let m = &text[s..e];
    let mut words = m.split(char::is_whitespace).filter(|w| !w.is_empty());
    let (_number, street) = (words.next()?, words.next()?);
    let named = matches!(street, "avenue" | "boulevard");
    let mut end = None;
    for (n, w) in words.enumerate() {
        let capital = w.starts_with(char::is_uppercase);
        let particle =
            matches!(w, "de" | "du" | "des") || w.starts_with("d'") || w.starts_with("d’");
        if n == 0 && named && !capital && !particle {
            return None;
        }
        if capital {
            // `w` is a slice of `m`: its offset is the distance between their starts.
            end = Some(s + (w.as_ptr() as usize - m.as_ptr() as usize) + w.len());
        }
    }
    Some(end.unwrap_or(e))
}

/// Whether a match with no house number, ending in "s/n" (*sin número*: "Calle Mayor s/n",
/// "Prolongación José Eduardo s/n."), names a street: every word between the street word and
/// "s/n" is capitalized or a particle ("Calle de Alcalá s/n"), and at least one is a name.
/// English writes "s/n" for a serial number: "Place the s/n label" is no street.
pub(crate) fn names_street_without_number(m: &str) -> bool {
    m.find(" s/n")
        .is_some_and(|at| names_after_street_word(&m[..at]))
}

/// Whether a Romance match that opens with its street word ("Calle de Alcalá 12", "Via
/// Roma 5") names its street as streets are named: every word between the street word and the
/// house number is capitalized or a particle, and one is a name. "Square root of 2" and "Via
/// email 2" are prose with a street word's spelling.
pub(crate) fn street_word_then_name(m: &str) -> bool {
    if m.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let number = m
        .match_indices(' ')
        .map(|(i, _)| i)
        .find(|&i| {
            m[i + 1..].starts_with(|c: char| c.is_ascii_digit()) || m[i + 1..].starts_with("s/n")
        })
        .unwrap_or(m.len());
    names_after_street_word(&m[..number])
}

/// Whether the words after the first (the street word) are each capitalized or a particle,
/// and one is a name.
fn names_after_street_word(m: &str) -> bool {
    let mut named = false;
    for w in m.split_whitespace().skip(1) {
        let w = w.trim_end_matches(',');
        if w.starts_with(char::is_uppercase) {
            named = true;
        } else if !is_particle(w) {
            return false;
        }
    }
    named
}

/// The small words inside Romance street names ("de la", "dos", "d'Italie").
const PARTICLES: &[&str] = &[
    "de", "del", "la", "las", "los", "el", "y", "i", "e", "da", "do", "das", "dos", "di", "della",
    "delle", "dei", "degli", "du", "des", "le", "les", "dels", "en", "na",
];

fn is_particle(w: &str) -> bool {
    PARTICLES.contains(&w) || ["d'", "d’", "l'", "l’"].iter().any(|p| w.starts_with(p))
}

/// Whether the match at `s..e` is an HTTP status and its reason ("HTTP/2 502 Bad Gateway",
/// "503 Service Unavailable"): a code from 100 to 599 after a protocol version, or before a
/// reason phrase's words.
pub(crate) fn is_http_status(text: &str, s: usize, e: usize) -> bool {
    const REASON_WORDS: [&str; 16] = [
        "Gateway",
        "Found",
        "Error",
        "Unavailable",
        "Forbidden",
        "Unauthorized",
        "Request",
        "Required",
        "Allowed",
        "Modified",
        "Content",
        "Permanently",
        "Redirect",
        "Large",
        "Timeout",
        "Entity",
    ];
    let m = &text[s..e];
    let code = m.as_bytes().get(..4).is_some_and(|c| {
        (b'1'..=b'5').contains(&c[0])
            && c[1].is_ascii_digit()
            && c[2].is_ascii_digit()
            && c[3] == b' '
    });
    let before = &text.as_bytes()[s.saturating_sub(12)..s];
    code && (before.windows(5).any(|w| w == b"HTTP/")
        || m.split([' ', ',']).any(|w| REASON_WORDS.contains(&w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_status_lines_are_no_streets() {
        let t = "HTTP/2 502 Bad Gateway from the balancer";
        assert!(is_http_status(t, 7, 22));
        assert!(is_http_status("got 503 Service Unavailable", 4, 27));
        assert!(!is_http_status("lives at 502 Bad Axe Road", 9, 25));
    }

    #[test]
    fn prose_nouns_and_years_are_no_streets() {
        let prose = |m: &str| is_german_prose(m, 0, m.len(), false);
        assert!(prose("Im Jahr 2020"));
        assert!(prose("Am Ende 2"));
        assert!(prose("Im Winkel 2020"));
        assert!(!prose("Am Markt 5"));
        assert!(!prose("Hauptstraße 2020"));
        assert!(!is_german_prose("Im Teil 2", 0, 9, true));
    }

    #[test]
    fn lower_case_streets_end_at_their_name() {
        fn end(m: &str) -> Option<&str> {
            lower_street_end(m, 0, m.len()).map(|e| &m[..e])
        }
        assert_eq!(end("12 rue de Rivoli et je"), Some("12 rue de Rivoli"));
        assert_eq!(
            end("15, avenue Victor Hugo"),
            Some("15, avenue Victor Hugo")
        );
        assert_eq!(
            end("15 avenue des Champs-Élysées"),
            Some("15 avenue des Champs-Élysées")
        );
        assert_eq!(end("5, calle mayor"), Some("5, calle mayor"));
        assert_eq!(end("15 avenue options and"), None);
    }

    #[test]
    fn a_street_without_number_is_named() {
        assert!(names_street_without_number("Calle Mayor s/n"));
        assert!(names_street_without_number("Calle de Alcalá s/n."));
        assert!(names_street_without_number(
            "Prolongación José Eduardo s/n."
        ));
        assert!(!names_street_without_number("Place the s/n"));
        assert!(!names_street_without_number("Route de la s/n"));
        assert!(!names_street_without_number("Calle Mayor"));
    }

    #[test]
    fn a_street_word_before_its_number_is_followed_by_a_name() {
        for street in [
            "Calle de Alcalá 12",
            "Via Roma 5",
            "Avenida da Liberdade 110, 3º",
            "12 rue de Rivoli",
            "Rua Augusta 274",
        ] {
            assert!(street_word_then_name(street), "{street}");
        }
        for prose in [
            "Square root of 2",
            "Via email 2",
            "Route to 66",
            "Place de la 3",
        ] {
            assert!(!street_word_then_name(prose), "{prose}");
        }
    }
}
