//! Matches with a street address's shape that are ordinary prose. German writes "Im Jahr
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
