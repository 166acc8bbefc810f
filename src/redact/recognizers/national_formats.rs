//! The national identifier formats and their cue words (see [`super::national`]).

use super::super::entity::EntityType::{self, *};
use super::super::validate::national as v;
use super::national::{Format, LABEL_ONLY};
use std::sync::OnceLock;

const NHS: &[&str] = &[
    "nhs",
    "national health",
    "health service",
    "health and care number",
];
const NINO: &[&str] = &[
    "national insurance",
    "national_insurance",
    "ni number",
    "ni no",
    "nino",
    "insurance number",
];
const DNI: &[&str] = &[
    "dni",
    "nif",
    "d.n.i",
    "n.i.f",
    "documento nacional",
    "identidad",
    "id",
];
const NIE: &[&str] = &["nie", "extranjero", "tie", "identidad", "id"];
const FISCAL: &[&str] = &[
    "codice fiscale",
    "codice_fiscale",
    "cod. fiscale",
    "cf",
    "c.f.",
    "fiscal code",
    "tax code",
];
const PESEL: &[&str] = &["pesel"];
const NRIC: &[&str] = &["nric", "fin", "ic number", "ic no", "identity card"];
const TFN: &[&str] = &["tfn", "tax file"];
const ABN: &[&str] = &["abn", "australian business number", "business number"];
const ACN: &[&str] = &["acn", "australian company number", "company number"];
const MEDICARE: &[&str] = &["medicare"];
const PAN: &[&str] = &["pan", "permanent account", "income tax"];
const AADHAAR: &[&str] = &["aadhaar", "aadhar", "uidai", "uid", "आधार"];
const HETU: &[&str] = &[
    "henkilötunnus",
    "hetu",
    "personal identity",
    "identity code",
    "sotu",
];
const RRN: &[&str] = &[
    "rrn",
    "resident registration",
    "주민등록번호",
    "주민번호",
    "외국인등록번호",
];
const TNIN: &[&str] = &[
    "เลขประจำตัวประชาชน",
    "บัตรประชาชน",
    "เลขบัตรประชาชน",
    "thai id",
    "national id",
    "national_id",
    "id card",
    "citizen id",
    "tnin",
];
const ITIN: &[&str] = &["itin", "taxpayer", "tin"];
const PASSPORT: &[&str] = &["passport"];
// Labels as written in prose, forms and JSON keys (`"drivers_license": "…"`).
const LICENSE: &[&str] = &[
    "driver's license",
    "driver’s license",
    "drivers license",
    "driver license",
    // Abbreviated ("Driver's Lic. D1234567").
    "driver's lic",
    "driver’s lic",
    "drivers lic",
    "driver lic",
    "driver's licence",
    "driving licence",
    "driving license",
    "drivers_license",
    "driver_license",
    "driving_licence",
    "dl#",
    "dl #",
    "dl:",
    // "CA DL D1234567"; the space keeps "dll" and "dlopen" out.
    "dl ",
    "dl no",
    "dl number",
    "dln",
    "license number",
    "licence number",
    "license no",
    "licence no",
    "license #",
    "license_number",
    "licence_number",
    // Keys in camelCase or PascalCase (`driverLicense`, `<DriversLicense>`).
    "driverlicense",
    "driverslicense",
    "driverlicence",
    "driverslicence",
    "drivinglicence",
    "drivinglicense",
    "licensenumber",
];
const BANK: &[&str] = &[
    "account number",
    "account no",
    "account #",
    "acct",
    "bank account",
    "checking account",
    "savings account",
    "account_number",
    "account_no",
    "bank_account",
    // Keys in camelCase or PascalCase (`accountNumber`, `<BankAccount>`).
    "accountnumber",
    "accountno",
    "bankaccount",
    "routing",
    "aba",
    "a/c",
    "kontonummer",
];
const DEA: &[&str] = &[
    "dea",
    "medical license",
    "prescriber",
    "prescription",
    "pharmacy",
    "pharmacist",
];

#[allow(clippy::too_many_arguments)]
const fn format(
    kind: EntityType,
    shape: &'static str,
    seps: &'static [u8],
    valid: fn(&[u8]) -> bool,
    alone: f32,
    separated: f32,
    cued: f32,
    cues: &'static [&'static str],
) -> Format {
    Format {
        kind,
        shape,
        seps,
        valid,
        alone,
        separated,
        cued,
        cues,
        pairs: OnceLock::new(),
    }
}

/// A number that is only a label's value: any digits but one repeated.
fn labeled(s: &[u8]) -> bool {
    s.iter().any(|&c| c != s[s.len() - 1])
}

/// Every format, in the order they are tried. Scores: 0.4 for digits a checksum confirms (one
/// number in ten passes by chance: a cue word must confirm), 0.55–0.95 for shapes with letters
/// or national groupings, which are rare in other text.
#[rustfmt::skip]
static FORMATS: [Format; 27] = [
    // 3-2-4 is no phone grouping: a dashed ITIN outscores a phone cued by "number".
    format(UsItin, "999 99 9999", b"- ", v::us_itin, 0.3, 0.96, 1.0, ITIN),
    format(UkNhs, "999 999 9999", b" -", v::uk_nhs, 0.4, 0.4, 1.0, NHS),
    format(UkNino, "AA 99 99 99 A", b" ", v::uk_nino, 0.6, 0.6, 1.0, NINO),
    format(EsNif, "99999999 A", b"-", v::es_nif, 0.6, 0.6, 1.0, DNI),
    // In thousands, as printed on forms ("D.N.I. 12.345.678-Z"): a count followed by a
    // one-letter word ("12.345.678 a …") passes one time in 23, so only a cue counts.
    format(EsNif, "99.999.999 A", b"- ", v::es_nif, 0.4, 0.4, 1.0, DNI),
    // A space before the letter ("DNI 12345678 Z", "NIE X 1234567 L"), or between the halves of
    // a Korean number: with a cue only ("de 10000000 a 20000000", two counts in a row).
    format(EsNif, "99999999 A", b" ", v::es_nif, 0.0, 0.4, 1.0, DNI),
    format(EsNie, "A 9999999 A", b"-", v::es_nie, 0.8, 0.8, 1.0, NIE),
    format(EsNie, "A 9999999 A", b" ", v::es_nie, 0.0, 0.4, 1.0, NIE),
    format(ItFiscalCode, "AAAAAA@@A@@A@@@A", b"", v::it_fiscal_code, 0.95, 0.95, 1.0, FISCAL),
    format(PlPesel, "99999999999", b"", v::pl_pesel, 0.4, 0.4, 1.0, PESEL),
    format(SgNricFin, "A9999999A", b"", v::sg_nric_fin, 0.85, 0.85, 1.0, NRIC),
    format(AuTfn, "999 999 999", b" -", v::au_tfn, 0.4, 0.4, 1.0, TFN),
    format(AuAbn, "99 999 999 999", b" ", v::au_abn, 0.4, 0.4, 1.0, ABN),
    format(AuAcn, "999 999 999", b" ", v::au_acn, 0.4, 0.4, 1.0, ACN),
    format(AuMedicare, "9999 99999 9", b" ", v::au_medicare, 0.4, 0.4, 1.0, MEDICARE),
    format(InPan, "AAAAA9999A", b"", v::in_pan, 0.6, 0.6, 1.0, PAN),
    format(InAadhaar, "9999 9999 9999", b" -", v::in_aadhaar, 0.4, 0.4, 1.0, AADHAAR),
    format(FiPersonalIdentityCode, "999999C999@", b"", v::fi_personal_identity_code, 0.85, 0.85, 1.0, HETU),
    format(KrRrn, "999999 9999999", b"-", v::kr_rrn, 0.4, 0.96, 1.0, RRN),
    format(KrRrn, "999999 9999999", b" ", v::kr_rrn, 0.0, 0.4, 1.0, RRN),
    format(ThTnin, "9 9999 99999 99 9", b"- ", v::th_tnin, 0.4, 0.85, 1.0, TNIN),
    format(UsPassport, "999999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsPassport, "A99999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsDriverLicense, "A9+", b"", |s| (6..=15).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsDriverLicense, "9+", b"", |s| (7..=12).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsBankNumber, "9+", b"", |s| (8..=17).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, BANK),
    // A registrant letter, an initial and a check digit: found alone, as Presidio does.
    format(MedicalLicense, "A@9999999", b"", v::dea_number, 0.55, 0.55, 1.0, DEA),
];

pub(crate) fn formats() -> &'static [Format] {
    &FORMATS
}
