//! Street addresses: a house number next to a street name that a street word marks, in the
//! three orders people write them — "221B Baker Street" (English, number first, suffix last),
//! "Rue de la Paix 5" / "12 rue de Rivoli" (Romance, street word first) and "Hauptstraße 12"
//! (Germanic compounds, number last) — with an optional unit ("Apt. 4", "Zimmer 6").
//!
//! The suffix list is the USPS street-suffix standard plus common European street words. These
//! regexes are compiled once per process; they use Unicode letter classes (street names carry
//! accents) but no Unicode `\b`, which would slow the engine down.

use super::{has_context, Candidate};
use crate::redact::entity::EntityType;
use regex::Regex;
use std::sync::OnceLock;

const EN_SUFFIXES: &str = "Alley|Avenue|Ave|Bend|Boulevard|Blvd|Branch|Bridge|Brook|Burg|Bypass|Camp|Canyon|Cape|Causeway|Center|Centre|Circle|Cir|Cliff|Close|Club|Common|Corner|Course|Court|Ct|Cove|Creek|Crescent|Cres|Crest|Crossing|Crossroad|Curve|Dale|Dam|Divide|Drive|Dr|Estate|Estates|Expressway|Extension|Falls|Ferry|Field|Fields|Flat|Flats|Ford|Forest|Forge|Fork|Fort|Freeway|Garden|Gardens|Gateway|Glen|Green|Grove|Harbor|Harbour|Haven|Heights|Highway|Hwy|Hill|Hills|Hollow|Inlet|Island|Junction|Key|Knoll|Knolls|Lake|Lakes|Land|Landing|Lane|Ln|Light|Lights|Loaf|Lock|Locks|Lodge|Loop|Mall|Manor|Meadow|Meadows|Mews|Mill|Mills|Mission|Motorway|Mount|Mountain|Neck|Orchard|Oval|Overpass|Park|Parkway|Pkwy|Pass|Passage|Path|Pike|Pine|Pines|Place|Pl|Plain|Plains|Plaza|Point|Points|Port|Prairie|Radial|Ramp|Ranch|Rapid|Rapids|Rest|Ridge|River|Road|Rd|Route|Row|Run|Shoal|Shoals|Shore|Shores|Skyway|Spring|Springs|Spur|Square|Sq|Station|Stravenue|Stream|Street|St|Summit|Terrace|Ter|Throughway|Trace|Track|Trafficway|Trail|Tunnel|Turnpike|Underpass|Union|Valley|Via|Viaduct|View|Views|Village|Ville|Vista|Walk|Wall|Way|Well|Wells|Wharf|Wynd|Copse|Croft|Gate|Mead|Rise|Vale|Fold|Chase|Drove|Garth|Grange|Parade|Paddock|Yard|End|Side|Gate|Grove";

const ROMANCE_WORDS: &str = "Rue|Avenue|Av|Boulevard|Bd|Impasse|Chemin|Allée|Place|Quai|Voie|Route|Cours|Passage|Square|Rua|Travessa|Alameda|Avenida|Praça|Largo|Calle|Cuesta|Paseo|Plaza|Camino|Ronda|Carrer|Partida|Puente|Callejón|Glorieta|Urbanización|Via|Viale|Piazza|Corso|Vicolo|Borgo|Incrocio|Contrada|Strada|Rotonda|Piazzale|Stretto|Rodovia|Estrada|Ladeira|Marginal|Vila|Beco|Viela|Travesía|Avinguda|Escalinata|Pasaje|Plazuela|Polígono|Sector|Lungomare|Salita|Ferrocarril|Carretera|Rambla|Acceso|Cañada|Bajada|Subida|Senda|Sendero|Arroyo|Barranco|Barrio|Bulevar|Calleja|Carrera|Colonia|Conjunto|Costanilla|Explanada|Jardines|Lugar|Muelle|Parque|Pasadizo|Plazoleta|Poblado|Prolongación|Rincón|Rinconada|Transversal|Vereda";

const GERMANIC_ENDINGS: &str = "(?i:straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|steig|straat|laan|plein|gracht|dijk|kade|singel|steeg|pad|park|markt|berg|plantsoen|erf|veld|baan|hof)";

const UNIT: &str = r"(?:,?\s(?:Apt\.?|Apto\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor|Zimmer|Etage|Whg\.?|Piano|Sobrado|Bajo|Piso|Puerta|bus|boîte|\d{1,2}º)\s?[0-9A-Za-zº]{0,6}(?:\s[A-Z]\b)?(?:\s\d{1,2}\s?hoog(?:\s(?:achter|voor))?)?|\s\d{1,2}\s?hoog(?:\s(?:achter|voor))?)?";

const UNIT_WORDS: &[&str] = &[
    "apt",
    "apto",
    "apartment",
    "suite",
    "ste",
    "unit",
    "flat",
    "floor",
    "zimmer",
    "etage",
    "whg",
    "piano",
    "sobrado",
    "bajo",
    "piso",
    "puerta",
    "bus",
    "boîte",
];

fn unit_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!("^{UNIT}")).unwrap_or_else(|e| panic!("unit pattern: {e}"))
    })
}

fn regexes() -> &'static [Regex; 3] {
    static RE: OnceLock<[Regex; 3]> = OnceLock::new();
    RE.get_or_init(|| {
        let name_word = r"(?:\p{Lu}[\p{L}'’.\-]*|[0-9]{1,3}(?:st|nd|rd|th))";
        let english = format!(
            r"(?-u:\b)[0-9]{{1,6}}[A-Za-z]?(?:\s[NSEW]\.?)?(?:\s{name_word}){{1,4}}\s(?:{EN_SUFFIXES})\.?(?-u:\b){UNIT}"
        );
        let romance = format!(
            r"(?:(?-u:\b)[0-9]{{1,5}}[a-z]?,?\s)?(?:{ROMANCE_WORDS})\.?(?:\s[\p{{L}}'’\-]+){{1,5}}?(?:,?\s[0-9]{{1,5}}[a-z]?(?-u:\b)|\ss/n\.?){UNIT}|(?-u:\b)[0-9]{{1,5}}[a-z]?,?\s(?:{ROMANCE_WORDS})\.?(?:\s[\p{{L}}'’\-]+){{1,4}}{UNIT}"
        );
        let germanic = format!(
            r"(?:(?:Am|An der|Auf dem|Im|In der|Zum|Zur|de|het)\s)?(?:\p{{Lu}}[\p{{L}}\-]*\s)?\p{{L}}[\p{{L}}\-]*(?:{GERMANIC_ENDINGS}|\s(?:Str\.|Straße|Weg|Gasse|Platz|Allee))\s[0-9]{{1,5}}\s?[a-z]?(?-u:\b){UNIT}|(?:Am|An der|Auf dem|Im|In der|Zum|Zur)\s\p{{Lu}}\p{{L}}+\s[0-9]{{1,5}}[a-z]?(?-u:\b){UNIT}"
        );
        [english, romance, germanic].map(|p| {
            // The patterns are constants; a failure here is a bug caught by the unit tests.
            Regex::new(&p).unwrap_or_else(|e| panic!("address pattern: {e}"))
        })
    })
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

pub fn scan(text: &str, out: &mut Vec<Candidate>) {
    for re in regexes() {
        for m in re.find_iter(text) {
            let (s, mut e) = (m.start(), m.end());
            // A greedy street name may have swallowed a unit word ("Bonaparte Apt"): give it
            // back, then take the whole unit ("Apt. 695") if one follows.
            if let Some(space) = text[s..e].rfind(' ') {
                let last = text[s + space + 1..e].trim_end_matches('.').to_lowercase();
                if UNIT_WORDS.contains(&last.as_str()) {
                    e = s + space;
                }
            }
            if let Some(unit) = unit_regex().find(&text[e..]) {
                e += unit.end();
            }
            let matched = &text[s..e];
            // The Romance pattern's lazy street name can end in a separator.
            while e > s && matches!(text.as_bytes()[e - 1], b',' | b' ') {
                e -= 1;
            }
            if !matched.bytes().any(|b| b.is_ascii_digit()) {
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
        scan(text, &mut out);
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
    fn ignores_numbers_with_words() {
        assert!(addresses("we shipped 3 new features and 2 fixes").is_empty());
        assert!(addresses("version 2 of the API").is_empty());
    }
}
