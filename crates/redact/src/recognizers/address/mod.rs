//! Street addresses: a house number next to a street name that a street word marks, in the
//! three orders people write them — "221B Baker Street" (English, number first, suffix last),
//! "Rue de la Paix 5" / "12 rue de Rivoli" (Romance, street word first) and "Hauptstraße 12"
//! (Germanic compounds, number last) — with an optional unit ("Apt. 4", "Zimmer 6").
//!
//! The suffix list is the USPS street-suffix standard plus common European street words; the
//! USPS plurals that title-case prose uses for other things ("2 Hard Drives", "3 API Keys",
//! "5 Easy Ways", "4 Data Centers") are left out. These
//! regexes are compiled once per process; they use Unicode letter classes (street names carry
//! accents) but no Unicode `\b`, which would slow the engine down.

mod cues;
mod lookalikes;
pub(super) mod military;
pub(super) mod po_box;

use super::{has_context, Candidate, Recognizer};
use crate::entity::EntityType;
use crate::scan::gate::{find_in, push_window};
use crate::scan::prescan::{floor_boundary, Needs, Prescan, Spaces};
use cues::Cues;
use lookalikes::{
    is_german_prose, is_http_status, lower_street_end, names_street_without_number,
    street_word_then_name,
};
use regex::Regex;
use regex_automata::meta::Regex as MetaRegex;
use regex_automata::Span;
use std::sync::OnceLock;

pub(crate) const EN_SUFFIXES: &str = "Alley|Avenue|Ave|Bend|Boulevard|Blvd|Branch|Bridge|Brook|Burg|Bypass|Camp|Canyon|Cape|Causeway|Center|Centre|Circle|Cir|Cliff|Close|Club|Common|Corner|Course|Court|Ct|Cove|Creek|Crescent|Cres|Crest|Crossing|Crossroad|Curve|Dale|Dam|Divide|Drive|Dr|Estate|Estates|Expressway|Extension|Falls|Ferry|Field|Fields|Flat|Flats|Ford|Forest|Forge|Fork|Fort|Freeway|Garden|Gardens|Gateway|Glen|Green|Grove|Harbor|Harbour|Haven|Heights|Highway|Hwy|Hill|Hills|Hollow|Inlet|Island|Junction|Key|Knoll|Knolls|Lake|Lakes|Land|Landing|Lane|Ln|Light|Lights|Loaf|Lock|Locks|Lodge|Loop|Mall|Manor|Meadow|Meadows|Mews|Mill|Mills|Mission|Motorway|Mount|Mountain|Neck|Orchard|Oval|Overpass|Park|Parkway|Pkwy|Pass|Passage|Path|Pike|Pine|Pines|Place|Pl|Plain|Plains|Plaza|Point|Points|Port|Prairie|Radial|Ramp|Ranch|Rapid|Rapids|Rest|Ridge|River|Road|Rd|Route|Row|Run|Shoal|Shoals|Shore|Shores|Skyway|Spring|Springs|Spur|Square|Sq|Station|Stravenue|Stream|Street|St|Summit|Terrace|Ter|Throughway|Trace|Track|Trafficway|Trail|Tunnel|Turnpike|Underpass|Union|Valley|Via|Viaduct|View|Views|Village|Ville|Vista|Walk|Wall|Way|Well|Wells|Wharf|Wynd|Copse|Croft|Gate|Mead|Rise|Vale|Fold|Chase|Drove|Garth|Grange|Parade|Paddock|Yard|End|Side|Gate|Grove|Anex|Arcade|Bayou|Bluff|Bluffs|Brooks|Burgs|Cliffs|Coves|Crossroads|Fords|Forges|Glens|Groves|Harbors|Isle|Manors|Mountains|Parkways|Ridges|Streets|Valleys|Villages";

pub(crate) const ROMANCE_WORDS: &str = "Rue|Avenue|Av|Boulevard|Bd|Impasse|Chemin|Allée|Place|Quai|Voie|Route|Cours|Passage|Square|Rua|Travessa|Alameda|Avenida|Praça|Largo|Calle|Cuesta|Paseo|Plaza|Camino|Ronda|Carrer|Partida|Puente|Callejón|Glorieta|Urbanización|Via|Vía|Viale|Piazza|Corso|Vicolo|Borgo|Incrocio|Contrada|Strada|Rotonda|Piazzale|Stretto|Rodovia|Estrada|Ladeira|Marginal|Vila|Beco|Viela|Travesía|Avinguda|Escalinata|Pasaje|Plazuela|Polígono|Sector|Lungomare|Salita|Ferrocarril|Carretera|Rambla|Acceso|Cañada|Bajada|Subida|Senda|Sendero|Arroyo|Barranco|Barrio|Bulevar|Calleja|Carrera|Colonia|Conjunto|Costanilla|Explanada|Jardines|Lugar|Muelle|Parque|Pasadizo|Plazoleta|Poblado|Prolongación|Rincón|Rinconada|Transversal|Vereda|Arrabal|Caserío|Caserio|Chalet|Edificio|Extramuros|Manzana|Masía|Riera|Terrenos";

/// Romance street words as written in lower case after a house number ("12 rue de Rivoli",
/// "5 calle Mayor"): only those that are no English word after a number, and "avenue" and
/// "boulevard" when a street name follows ("15, avenue Victor Hugo", see
/// [`lookalikes::lower_street_end`]).
pub(crate) const ROMANCE_LOWER_WORDS: [&str; 20] = [
    "rue",
    "avenue",
    "boulevard",
    "allée",
    "chemin",
    "impasse",
    "quai",
    "calle",
    "avenida",
    "rua",
    "travessa",
    "viale",
    "piazza",
    "corso",
    "vicolo",
    "carrer",
    "paseo",
    "praça",
    "carretera",
    "rambla",
];

/// Germanic street endings (German, Dutch and Nordic), as the Germanic pattern and its cue
/// read them ([`germanic_endings`]).
pub(crate) const GERMANIC_WORDS: [&str; 38] = [
    "straße",
    "strasse",
    "str.",
    "weg",
    "gasse",
    "platz",
    "allee",
    "ring",
    "damm",
    "ufer",
    "chaussee",
    "steig",
    "straat",
    "laan",
    "plein",
    "gracht",
    "dijk",
    "kade",
    "singel",
    "steeg",
    "pad",
    "park",
    "markt",
    "berg",
    "plantsoen",
    "erf",
    "veld",
    "baan",
    "hof",
    // Swedish, Norwegian, Danish and Finnish ("Storgatan 12", "Sveavägen 44", "Nørrevej 4",
    // "Aleksanterinkatu 52"); not "gate" or "gade", which end English words ("Tailgate 3",
    // "Renegade 2019").
    "gatan",
    "gata",
    "vägen",
    "vegen",
    "veien",
    "vej",
    "torget",
    "gränd",
    "katu",
];

/// [`GERMANIC_WORDS`] as one case-insensitive alternation.
fn germanic_endings() -> String {
    format!("(?i:{})", GERMANIC_WORDS.map(regex::escape).join("|"))
}

/// Words for a flat, a suite or a floor after a street, as written; a final `.` may be left
/// out ("Apt 4", "Apt. 4"). The street patterns' unit and the give-back of a unit word a
/// street name swallowed both read this list.
const UNIT_WORDS: [&str; 18] = [
    "Apt.",
    "Apto.",
    "Apartment",
    "Suite",
    "Ste.",
    "Unit",
    "Flat",
    "Floor",
    "Zimmer",
    "Etage",
    "Whg.",
    "Piano",
    "Sobrado",
    "Bajo",
    "Piso",
    "Puerta",
    "bus",
    "boîte",
];

/// The optional unit after a street: a [`UNIT_WORDS`] word or a Spanish floor ("3º") and its
/// number or letter, and a Dutch floor ("2 hoog achter").
fn unit_pattern() -> String {
    let words = UNIT_WORDS
        .map(|w| match w.strip_suffix('.') {
            Some(stem) => format!(r"{}\.?", regex::escape(stem)),
            None => regex::escape(w),
        })
        .join("|");
    let hoog = r"[^\S\r\n]\d{1,2}[^\S\r\n]?hoog(?:[^\S\r\n](?:achter|voor))?";
    format!(
        r"(?:,?[^\S\r\n](?:{words}|\d{{1,2}}º)[^\S\r\n]?[0-9A-Za-zº]{{0,6}}(?:[^\S\r\n][A-Z](?-u:\b))?(?:{hoog})?|{hoog})?"
    )
}

/// Whether a lower-case word (its final `.` removed) is one of [`UNIT_WORDS`].
fn is_unit_word(word: &str) -> bool {
    UNIT_WORDS
        .iter()
        .any(|u| u.trim_end_matches('.').to_lowercase() == word)
}

/// How far past a street a unit is looked for (bytes): more than the longest [`unit_pattern`] match
/// and the character after it.
const UNIT_REACH: usize = 96;

/// The town and postcode after a street, on its line: "…, Washington, DC 20500" (US),
/// "…, 10115 Berlin" (postcode first), "…, London NW1 6XE" (UK). Only with a postcode: a
/// capitalized word after a comma alone is not a town.
const LOCALITY: &str = r"^,?[^\S\r\n]+(?:\p{Lu}[\p{L}'’.\-]*(?:[^\S\r\n]\p{Lu}[\p{L}'’.\-]*){0,2},[^\S\r\n]+[A-Z]{2}[^\S\r\n]+[0-9]{5}(?:-[0-9]{4})?|[0-9]{4,5}[^\S\r\n]+\p{Lu}[\p{L}'’\-]+(?:[^\S\r\n]\p{Lu}[\p{L}'’\-]+)?|\p{Lu}[\p{L}'’\-]+(?:[^\S\r\n]\p{Lu}[\p{L}'’\-]+)?[^\S\r\n]+[A-Z]{1,2}[0-9][A-Z0-9]?[^\S\r\n]?[0-9][A-Z]{2})(?-u:\b)";

/// How far past a street (and unit) a locality is looked for (bytes).
const LOCALITY_REACH: usize = 96;

fn locality_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(LOCALITY).unwrap_or_else(|e| panic!("locality pattern: {e}")))
}

fn unit_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!("^{}", unit_pattern())).unwrap_or_else(|e| panic!("unit pattern: {e}"))
    })
}

/// The indexes of the Romance, the Germanic and the lower-case Romance patterns in
/// [`regexes`].
const ROMANCE: usize = 1;
const GERMANIC: usize = 2;
const ROMANCE_LOWER: usize = 3;

fn regexes() -> &'static [MetaRegex; 4] {
    static RE: OnceLock<[MetaRegex; 4]> = OnceLock::new();
    RE.get_or_init(|| {
        let name_word = r"(?:\p{Lu}[\p{L}'’.\-]*|[0-9]{1,3}(?:st|nd|rd|th))";
        let (unit, germanic_endings) = (unit_pattern(), germanic_endings());
        let english = format!(
            r"(?-u:\b)[0-9]{{1,6}}[A-Za-z]?(?:[^\S\r\n][NSEW]\.?)?(?:[^\S\r\n]{name_word}){{1,4}}[^\S\r\n](?:{EN_SUFFIXES})\.?(?-u:\b)(?:[^\S\r\n](?:NE|NW|SE|SW|N|S|E|W)\.?(?-u:\b))?{unit}"
        );
        let romance = format!(
            r"(?:(?-u:\b)[0-9]{{1,5}}[a-z]?,?[^\S\r\n])?(?-u:\b)(?:{ROMANCE_WORDS})\.?(?:[^\S\r\n][\p{{L}}'’\-]+){{1,5}}?(?:,?[^\S\r\n][0-9]{{1,5}}[a-z]?(?-u:\b)|[^\S\r\n]s/n\.?){unit}|(?-u:\b)[0-9]{{1,5}}[a-z]?,?[^\S\r\n](?:{ROMANCE_WORDS})\.?(?:[^\S\r\n][\p{{L}}'’\-]+){{1,4}}{unit}"
        );
        // Lower case after a number, its own pattern: as a third alternative of `romance` it
        // doubled the whole redaction's cost (the reverse lazy DFA kept rebuilding states).
        let lower_words = ROMANCE_LOWER_WORDS.join("|");
        let romance_lower = format!(
            r"(?-u:\b)[0-9]{{1,5}}[a-z]?,?[^\S\r\n](?:{lower_words})(?:[^\S\r\n][\p{{L}}'’\-]+){{1,4}}{unit}"
        );
        let germanic = format!(
            r"(?:(?:Am|An der|Auf dem|Im|In der|Zum|Zur|de|het)[^\S\r\n])?(?:\p{{Lu}}[\p{{L}}\-]*[^\S\r\n])?\p{{L}}[\p{{L}}\-]*(?:{germanic_endings}|[^\S\r\n](?:Str\.|Straße|Weg|Gasse|Platz|Allee))[^\S\r\n][0-9]{{1,5}}[^\S\r\n]?[a-z]?(?-u:\b){unit}|(?:Am|An der|Auf dem|Im|In der|Zum|Zur)[^\S\r\n]\p{{Lu}}\p{{L}}+[^\S\r\n][0-9]{{1,5}}[a-z]?(?-u:\b){unit}"
        );
        [english, romance, germanic, romance_lower].map(|p| {
            // The patterns are constants; a failure here is a bug caught by the unit tests.
            MetaRegex::new(&p).unwrap_or_else(|e| panic!("address pattern: {e}"))
        })
    })
}

/// Literal cues that every match of the matching pattern above contains: the English street
/// suffix (ending a word), a Romance street word, a Germanic ending before a house number, or
/// a Germanic preposition. They are searched with literal prefilters, which is cheap, while the
/// patterns themselves (Unicode letter classes, no literal prefix) cost 5–20 ms per MB natively
/// and far more in wasm when run over a whole text.
fn cues() -> &'static [MetaRegex; 5] {
    static RE: OnceLock<[MetaRegex; 5]> = OnceLock::new();
    RE.get_or_init(|| {
        [
            format!(r"(?:{EN_SUFFIXES})(?-u:\b)"),
            format!(r"(?:{ROMANCE_WORDS})"),
            format!(r"{}\s[0-9]", germanic_endings()),
            r"(?:Am|An der|Auf dem|Im|In der|Zum|Zur)\s".to_string(),
            format!(r"(?:{})", ROMANCE_LOWER_WORDS.join("|")),
        ]
        .map(|p| MetaRegex::new(&p).unwrap_or_else(|e| panic!("address cue: {e}")))
    })
}

/// The windows of `text` that can hold a match of each pattern. A window spans from a few
/// words before a cue to a few after, counted in white space: no pattern holds more than six
/// white-space characters before its cue or twelve after it (street names of at most five
/// words, a unit of at most six), and the bounds below leave a margin.
fn windows(text: &str, pre: &Prescan) -> [Vec<Span>; 4] {
    let spaces = Spaces(&pre.spaces);
    let cues = if pre.folds {
        // `(?i)` endings also match `ſ` and `K`: let the cue regexes find them.
        let [english, romance, germanic, preposition, romance_lower] = cues();
        let spans = |re: &MetaRegex| re.find_iter(text).map(|m| (m.start(), m.end())).collect();
        Cues {
            english: spans(english),
            romance: spans(romance),
            germanic: spans(germanic),
            preposition: spans(preposition),
            romance_lower: spans(romance_lower),
        }
    } else {
        cues::find(text, &pre.upper, &pre.groups)
    };
    let b = text.as_bytes();
    // Looked up, not scanned: windows of cues inside one long word would overlap.
    let first_at = |list: &[usize], s: usize| list.get(list.partition_point(|&d| d < s)).copied();
    // A digit in `s..e`: the first group ending after `s` starts before `e`.
    let has_digit = |s: usize, e: usize| {
        let g = &pre.groups;
        g.get(g.partition_point(|g| g.end <= s))
            .is_some_and(|g| g.start.max(s) < e)
    };
    let no_number: Vec<usize> = memchr::memmem::find_iter(b, b"s/n").collect();
    let mut out: [Vec<Span>; 4] = Default::default();
    // English: a house number starts the match, before the suffix.
    for (s, e) in cues.english {
        let start = spaces.back(s, 7);
        if has_digit(start, s) {
            push_window(&mut out[0], start, spaces.forward(e, 8, text.len()));
        }
    }
    // Romance: the number (or "s/n") comes before or after the street word; in lower case,
    // before it.
    for (list, i) in [(&cues.romance, 1), (&cues.romance_lower, 3)] {
        for &(s, e) in list {
            let (start, end) = (spaces.back(s, 2), spaces.forward(e, 14, text.len()));
            if has_digit(start, end) || first_at(&no_number, start).is_some_and(|p| p + 3 <= end) {
                push_window(&mut out[i], start, end);
            }
        }
    }
    // Germanic: "…straße 12" or "Am Markt 5".
    let mut seeds: Vec<(usize, usize)> = cues
        .germanic
        .iter()
        .map(|&(s, e)| (spaces.back(s, 6), spaces.forward(e, 8, text.len())))
        .collect();
    seeds.extend(
        cues.preposition
            .iter()
            .map(|&(s, _)| (spaces.back(s, 1), spaces.forward(s, 12, text.len()))),
    );
    seeds.sort_unstable();
    for (start, end) in seeds {
        push_window(&mut out[2], start, end);
    }
    out
}

const CONTEXT: &[&str] = &[
    "live",
    "address",
    "ship",
    "deliver",
    "located",
    "located at",
    "moved to",
    "visit us",
    "adresse",
    "wohne",
    "dirección",
    "indirizzo",
    "endereço",
    "woon",
    "habito",
    "abito",
];

/// The street-address recognizer (PO boxes and military mail are regex specs: [`po_box`],
/// [`military`]).
struct Address;

/// The registry's maker (see [`super::registry`]).
pub(crate) fn recognizer(enabled: &dyn Fn(&EntityType) -> bool) -> Option<Box<dyn Recognizer>> {
    enabled(&EntityType::Address).then(|| Box::new(Address) as Box<dyn Recognizer>)
}

impl Recognizer for Address {
    fn kinds(&self) -> Vec<EntityType> {
        vec![EntityType::Address]
    }

    /// Capitals and non-ASCII characters (street words), and white space (windows).
    fn needs(&self) -> Needs {
        Needs {
            words: true,
            spaces: true,
            ..Needs::NONE
        }
    }

    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        scan(text, pre, out);
    }
}

pub(crate) fn scan(text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
    let windows = windows(text, pre);
    for (pattern, (re, windows)) in regexes().iter().zip(&windows).enumerate() {
        for (s, mut e) in find_in(re, text, windows) {
            if pattern == ROMANCE_LOWER {
                match lower_street_end(text, s, e) {
                    Some(end) => e = end,
                    None => continue,
                }
            }
            // A greedy street name may have swallowed a unit word ("Bonaparte Apt"): give it
            // back, then take the whole unit ("Apt. 695") if one follows.
            if let Some(space) = text[s..e].rfind(' ') {
                let last = text[s + space + 1..e].trim_end_matches('.').to_lowercase();
                if is_unit_word(&last) {
                    e = s + space;
                }
            }
            // A unit is at most 53 bytes and its `\b` looks one character further: the regex
            // reads a short slice, not the rest of the text (an anchored search over all of it
            // cost a backtracker setup the size of the text, per address).
            let near = floor_boundary(text, e + UNIT_REACH);
            if let Some(unit) = unit_regex().find(&text[e..near]) {
                e += unit.end();
            }
            let near = floor_boundary(text, e + LOCALITY_REACH);
            let town = locality_regex().find(&text[e..near]);
            if (pattern == GERMANIC && is_german_prose(text, s, e, town.is_some()))
                || is_http_status(text, s, e)
            {
                continue;
            }
            if let Some(town) = town {
                e += town.end();
            }
            let matched = &text[s..e];
            // The Romance pattern's lazy street name can end in a separator.
            while e > s && matches!(text.as_bytes()[e - 1], b',' | b' ') {
                e -= 1;
            }
            let numbered = matched.bytes().any(|b| b.is_ascii_digit());
            if !(numbered || (pattern == ROMANCE && names_street_without_number(matched)))
                || (pattern == ROMANCE && !street_word_then_name(matched))
            {
                continue;
            }
            let mut score = 0.7;
            if has_context(text, s, e, (48, 0), CONTEXT) {
                score = 0.9;
            }
            out.push(Candidate {
                kind: EntityType::Address,
                start: s,
                end: e,
                score,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, &Prescan::new(text), &mut out);
        out.iter().map(|c| &text[c.start..c.end]).collect()
    }

    #[test]
    fn the_three_word_orders() {
        assert_eq!(
            addresses("I live at 19522 E 5th Street Suite 982."),
            ["19522 E 5th Street Suite 982"]
        );
        assert_eq!(
            addresses("send it to 3 Holly Close please"),
            ["3 Holly Close"]
        );
        assert_eq!(
            addresses("at 3855 Impasse Bonaparte Apt. 695"),
            ["3855 Impasse Bonaparte Apt. 695"]
        );
        assert_eq!(
            addresses("Borgo Venturelli 22, Piano 2"),
            ["Borgo Venturelli 22, Piano 2"]
        );
        assert_eq!(
            addresses("wohne in der Kneippstr. 82c Zimmer 681"),
            ["Kneippstr. 82c Zimmer 681"]
        );
        assert_eq!(addresses("Fixheider Str. 63c"), ["Fixheider Str. 63c"]);
        assert_eq!(addresses("Manoahstraat 2"), ["Manoahstraat 2"]);
    }

    #[test]
    fn an_address_stays_on_its_line() {
        assert_eq!(
            addresses("12 Rue de Rivoli\n1600 Pennsylvania Avenue"),
            ["1600 Pennsylvania Avenue", "12 Rue de Rivoli"]
        );
        assert_eq!(addresses("postcode 6XE\nHauptstraße 5"), ["Hauptstraße 5"]);
    }

    #[test]
    fn the_town_and_postcode_after_a_street_are_part_of_it() {
        assert_eq!(
            addresses("1600 Pennsylvania Avenue NW, Washington, DC 20500, USA"),
            ["1600 Pennsylvania Avenue NW, Washington, DC 20500"]
        );
        assert_eq!(
            addresses("Ship to 350 Fifth Avenue, New York, NY 10118-0110."),
            ["350 Fifth Avenue, New York, NY 10118-0110"]
        );
        assert_eq!(
            addresses("Deliver to 221B Baker Street, London NW1 6XE today"),
            ["221B Baker Street, London NW1 6XE"]
        );
        assert_eq!(
            addresses("Hauptstraße 5, 10115 Berlin"),
            ["Hauptstraße 5, 10115 Berlin"]
        );
        assert_eq!(
            addresses("Rue de la Paix 5, 75002 Paris"),
            ["Rue de la Paix 5, 75002 Paris"]
        );
        assert_eq!(
            addresses("J'habite au 42 rue de Rivoli, 75001 Paris."),
            ["42 rue de Rivoli, 75001 Paris"]
        );
        assert_eq!(addresses("vivo en el 5, calle Mayor"), ["5, calle Mayor"]);
        assert!(addresses("it takes 3 true believers").is_empty());
        // Without a postcode a following word is not a town.
        assert_eq!(
            addresses("at 3 Holly Close, Which is nice, and 4 Oak Lane, Leeds"),
            ["3 Holly Close", "4 Oak Lane"]
        );
    }

    #[test]
    fn windows_hold_every_match() {
        for text in crate::scan::gate_texts::gate_texts() {
            for (re, windows) in regexes().iter().zip(&windows(&text, &Prescan::new(&text))) {
                let gated: Vec<_> = find_in(re, &text, windows).collect();
                let whole: Vec<_> = re
                    .find_iter(text.as_str())
                    .map(|m| (m.start(), m.end()))
                    .collect();
                assert_eq!(gated, whole, "{text:?}");
            }
        }
    }

    #[test]
    fn streets_without_a_number() {
        assert_eq!(
            addresses("I live at Calle Mayor s/n, Marbella."),
            ["Calle Mayor s/n"]
        );
        assert_eq!(
            addresses("Ship it to Prolongación José Eduardo s/n. please"),
            ["Prolongación José Eduardo s/n."]
        );
        assert_eq!(
            addresses("address: Edificio María del Carmen 1 1º B"),
            ["Edificio María del Carmen 1 1º B"]
        );
        assert!(addresses("Place the s/n sticker on the box").is_empty());
    }

    #[test]
    fn ignores_numbers_with_words() {
        assert!(addresses("we shipped 3 new features and 2 fixes").is_empty());
        assert!(addresses("version 2 of the API").is_empty());
    }
}
