//! Dates of birth: a date (numeric, or with a month name in one of our users' languages) that
//! is a plausible birth date, scored high only near "born", "DOB", "birthday" and the like,
//! in the languages the name lists cover ("urodzony", "født", "syntynyt", "родился",
//! "geboren", "né le", "nacida", "nato il", "nascido").

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::lexicon::MONTHS_EN;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::embedded_in_token;
use crate::validate as v;

/// Dates are common; only one near "born", "DOB", "birthday" is a date of birth.
fn birth_date(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let nums: Vec<u32> = m
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .filter_map(|g| g.parse().ok())
        .collect();
    let lower = m.to_ascii_lowercase();
    let month_word = (lower.bytes().any(|c| c.is_ascii_alphabetic()))
        .then(|| {
            MONTHS
                .iter()
                .position(|stems| stems.split(' ').any(|stem| lower.contains(stem)))
        })
        .flatten()
        .map(|i| i as u32 + 1);
    let ok = match (nums.as_slice(), month_word) {
        ([y, mo, d], None) if *y > 31 => v::plausible_birth_date(*y, *mo, *d),
        // "3.4.14" is a version, not 3 April 1914.
        ([_, _, y], None) if *y < 100 && m.contains('.') => false,
        ([a, b, y], None) => {
            let y = if *y < 100 { 1900 + *y } else { *y };
            v::plausible_birth_date(y, *a, *b) || v::plausible_birth_date(y, *b, *a)
        }
        ([d, y], Some(mo)) | ([y, d], Some(mo)) if *y > 31 => v::plausible_birth_date(*y, mo, *d),
        _ => false,
    };
    (ok && !embedded_in_token(text, s, e)).then_some(Hit {
        start: s,
        end: e,
        score: 0.2,
    })
}

/// The stems of each month's names in the languages our users write in, January first: a
/// date's lower-cased text contains one ("mai", "juin", "luglio", "maj", "março").
const MONTHS: [&str; 12] = [
    "jan ene gen stycz",
    "feb fév fev lut",
    "mar mär maer maa",
    "apr avr abr kwie",
    "may mai maj mei mag",
    "jun juin giu czerw",
    "jul juil lug lip",
    "aug ago aoû aou sierp",
    "sep set wrze",
    "oct okt ott out paźd pazd",
    "nov listop",
    "dec déc dez dic des grud",
];

/// Month names in the other languages our users write in, as dates write them in full.
const OTHER_MONTH_NAMES: &str = r"(?i:januar|jänner|februar|märz|maerz|mai|juni|juli|oktober|dezember|janvier|février|fevrier|mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|januari|februari|maart|mei|augustus|augusti|maj|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro|marts|desember|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|wrzesnia|października|pazdziernika|listopada|grudnia)";

/// Any month's name: the English ones and their abbreviations ([`MONTHS_EN`], each month's
/// longest form first so that the longest one is taken), then [`OTHER_MONTH_NAMES`].
fn month_names() -> String {
    let english: Vec<&str> = MONTHS_EN
        .iter()
        .flat_map(|forms| {
            let mut forms = forms.clone();
            forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
            forms
        })
        .collect();
    format!("(?:(?i-u:{})|{OTHER_MONTH_NAMES})", english.join("|"))
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

/// Two separators at least: a numeric date has three groups of digits.
fn date_run(run: &[u8]) -> bool {
    run.iter().filter(|c| !c.is_ascii_digit()).nth(1).is_some()
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    let month_names = month_names();
    let dob_date = format!(
        r"\b(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|\d{{1,2}}(?:st|nd|rd|th|\.)?(?: of| de)? {month_names}\.?,?(?: de)? \d{{4}}|\d{{1,2}}-{month_names}-\d{{4}}|{month_names}\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}})\b"
    );
    vec![Spec::new(DateOfBirth, &dob_date, birth_date)
        // Context words are matched as word beginnings ("birth" in "birthdate"); "age" only
        // as a word of its own ("Age: 34", not "Agenda", "agent" or "max-age=86400").
        .context(&[
            "born",
            "birth",
            "birthday",
            "dob",
            "d.o.b",
            "geboren",
            "geburt",
            "geb.",
            "né le",
            "née le",
            "naissance",
            "nacido",
            "nacida",
            "nacimiento",
            "nato il",
            "nata il",
            "nascita",
            "geboorte",
            "nascimento",
            "född",
            // Polish, Danish and Norwegian, Swedish, Finnish, Russian (Cyrillic and
            // transliterated), Spanish, Portuguese and French abbreviations.
            "urodzon",
            "urodzin",
            "urodzenia",
            "født",
            "fødd",
            "fødsel",
            "födelse",
            "syntyn",
            "syntymä",
            "родил",
            "рождения",
            "rodilsya",
            "rodilas",
            "rozhdeniya",
            "nac.",
            "nascid",
            "nasceu",
            "né(e)",
            "age ",
            "age:",
            "aged ",
        ])
        .boost(0.65)
        .context_before_only(28)
        .weak(0.2)
        // "12th of September, 1987": a day and a month name take at most 24 bytes.
        .gate(Gate::Dates {
            numeric: Gate::runs(RunShape {
                alphabet: ByteSet::of(&["0-9", "/.-"]),
                seeds: &["0-9"],
                min_seeds: 4,
                min_len: 6,
            })
            .accepting(date_run),
            before: 24,
        })]
}

#[cfg(test)]
mod tests {
    use crate::config::RedactorConfig;
    use crate::recognizers::Recognizers;

    fn birth_dates(text: &str) -> Vec<&str> {
        let r = Recognizers::new(&RedactorConfig::default()).unwrap();
        r.scan(text)
            .into_iter()
            .filter(|c| c.score >= 0.5 && c.kind.to_string() == "DATE_OF_BIRTH")
            .map(|c| &text[c.start..c.end])
            .collect()
    }

    #[test]
    fn birth_cues_in_the_languages_names_cover() {
        for (text, date) in [
            ("data urodzenia: 14.03.1986", "14.03.1986"),
            ("Urodzony 3 maja 1979 w Gdańsku", "3 maja 1979"),
            ("født 12.05.1990 i Bergen", "12.05.1990"),
            ("syntynyt 01.02.1975", "01.02.1975"),
            ("Дата рождения: 07.11.1988", "07.11.1988"),
            ("rodilsya 07.11.1988 v Moskve", "07.11.1988"),
            ("nascido em 22/08/1993", "22/08/1993"),
            ("F. nac. 30/01/1969", "30/01/1969"),
        ] {
            assert_eq!(birth_dates(text), [date], "{text}");
        }
        assert!(birth_dates("the meeting on 14.03.2026").is_empty());
    }
}
