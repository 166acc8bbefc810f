//! The labels of [`super`]: the cue words of each class (ASCII case ignored) and the one
//! Aho-Corasick automaton that finds every cue of every class.

use crate::entity::EntityType::{self, *};
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::sync::OnceLock;

/// What follows a class's label.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Value {
    /// An identifier of any format ([`identifier`]).
    Id,
    /// 12–19 digits passing Luhn ([`card`]).
    Card,
}

/// The cue words of each class, in lower case (ASCII case is ignored). A short all-letter cue
/// (an acronym: "ssn", "tin", "dni") counts in lower case only with a connector after it ("tin
/// 60/40" is solder); the cues that start with "id" only after an owner word or at the start
/// of a label ("order ID number: …" names no person's id; `id: 42` is a record's key).
pub(super) const CUES: &[(EntityType, Value, &[&str])] = &[
    (
        UsSsn,
        Value::Id,
        &[
            "ssn",
            "social security",
            "social-security",
            "soc sec",
            "ss#",
        ],
    ),
    (
        UkNino,
        Value::Id,
        &["national insurance", "nino", "ni number", "ni no"],
    ),
    (UkNhs, Value::Id, &["nhs number", "nhs no"]),
    (
        EsNif,
        Value::Id,
        &["dni", "nif", "d.n.i", "documento nacional de identidad"],
    ),
    (EsNie, Value::Id, &["nie"]),
    (
        ItFiscalCode,
        Value::Id,
        &["codice fiscale", "cod. fiscale", "fiscal code"],
    ),
    (PlPesel, Value::Id, &["pesel"]),
    (AuTfn, Value::Id, &["tfn", "tax file number"]),
    (InAadhaar, Value::Id, &["aadhaar", "aadhar"]),
    (
        FiPersonalIdentityCode,
        Value::Id,
        &["henkilötunnus", "hetu"],
    ),
    (UsItin, Value::Id, &["itin"]),
    (
        UsPassport,
        Value::Id,
        &[
            "passport",
            "reisepass",
            "pasaporte",
            "passeport",
            "passaporto",
            "passaporte",
            "paspoort",
            "pass number",
            "passnummer",
        ],
    ),
    (
        UsDriverLicense,
        Value::Id,
        &[
            "driver's license",
            "driver’s license",
            "drivers license",
            "driver license",
            "driver's licence",
            "driving licence",
            "driving license",
            "führerschein",
            "fuhrerschein",
            "permis de conduire",
            "carnet de conducir",
            "licencia de conducir",
            "patente di guida",
            "patente",
            "carta de condução",
            "carteira de motorista",
            "rijbewijs",
            "körkort",
            "ajokortti",
        ],
    ),
    (
        IdNumber,
        Value::Id,
        &[
            // Tax numbers.
            "tax id",
            "tax identification",
            "taxpayer id",
            "tax number",
            "tin",
            "ein",
            "steuer-id",
            "steuerid",
            "steuernummer",
            "steueridentifikationsnummer",
            "numéro fiscal",
            "numero fiscal",
            "partita iva",
            "cpf",
            // Identity numbers and documents.
            "bsn",
            "burgerservicenummer",
            "sofinummer",
            "personalausweis",
            "ausweis",
            "ausweisnummer",
            "identity number",
            "identity card",
            "identification number",
            "national id",
            "national identity",
            "national identification",
            "personal id",
            "government id",
            "citizen id",
            "carte d'identité",
            "carte d’identité",
            "numéro d'identité",
            "carta d'identità",
            "carta d’identità",
            "documento de identidad",
            "cédula",
            "cedula",
            "identiteitskaart",
            "identiteitsbewijs",
            "personnummer",
            "personnr",
            "cpr",
            "cpr-nummer",
            "fødselsnummer",
            "dowód osobisty",
            "dowodu",
            "id number",
            "id no",
            "id card",
            "id-nummer",
            "id",
            "social insurance",
            "sin",
            "sozialversicherungsnummer",
            "versicherungsnummer",
            "numéro de sécurité sociale",
            "sécurité sociale",
            "seguridad social",
            "previdenza",
            // Identity and tax numbers by their national acronyms and names (Latin America,
            // Asia, Europe): an acronym counts in capitals or before a connector only.
            "rut",
            "cuit",
            "cuil",
            "curp",
            "cnpj",
            "nit",
            "nric",
            "hkid",
            "mykad",
            "nik",
            "ktp",
            "iqama",
            "emirates id",
            "kimlik",
            "oib",
            "jmbg",
            "egn",
            "cnp",
            "ahv",
            "pps number",
            "pps no",
            "ird number",
            "nin",
            "pan",
            "amka",
            "afm",
            "isikukood",
            "asmens kodas",
            "personas kods",
            "rodné číslo",
            "rodne cislo",
            "rijksregisternummer",
            "numéro insee",
            "nir",
        ],
    ),
    (
        CreditCard,
        Value::Card,
        &[
            "card",
            "credit card",
            "debit card",
            "card number",
            "visa",
            "mastercard",
            "master card",
            "amex",
            "american express",
            "discover",
            "maestro",
            "unionpay",
            "union pay",
            "jcb",
            "diners",
            "cc",
            "cc#",
            "karte",
            "kreditkarte",
            "kartennummer",
            "tarjeta",
            "carte",
            "carte bancaire",
            "carta",
            "cartão",
            "kaart",
            "creditcard",
            "karta",
            "kortti",
            "kort",
        ],
    ),
];

/// How far before a run of digits a label can start: the longest cue, a word for number, a
/// connector and the blanks between them.
pub(super) const LOOK_BACK: usize = 64;

/// The most bytes between a label's last word and its value.
pub(super) const GAP: usize = 24;

pub(super) struct Cues {
    pub(super) automaton: AhoCorasick,
    /// Per pattern: its class's index in [`CUES`] and its text.
    pub(super) patterns: Vec<(usize, &'static str)>,
}

pub(super) fn cues() -> &'static Cues {
    static CUES_ONCE: OnceLock<Cues> = OnceLock::new();
    CUES_ONCE.get_or_init(|| {
        let patterns: Vec<(usize, &'static str)> = CUES
            .iter()
            .enumerate()
            .flat_map(|(i, (_, _, words))| words.iter().map(move |w| (i, *w)))
            .collect();
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(patterns.iter().map(|p| p.1))
            // The cues are constants; a failure here is a bug caught by the unit tests.
            .expect("label cues");
        Cues {
            automaton,
            patterns,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_compiles_and_fits_the_look_back() {
        let cues = cues();
        assert!(cues.patterns.iter().all(|(_, c)| c.len() + 16 < LOOK_BACK));
        assert!(CUES.len() <= 32);
    }
}
