//! National identifiers, tax numbers and licences: each format found where people write it,
//! with or without its cue word as its shape allows, and the look-alikes left alone.

use llm_memory::redact::{Redactor, RedactorConfig};

fn found(text: &str) -> Vec<(String, String)> {
    let r = Redactor::new(RedactorConfig::default()).unwrap();
    r.detect(text)
        .into_iter()
        .map(|c| (c.kind.to_string(), text[c.start..c.end].to_string()))
        .collect()
}

#[test]
fn identifiers_are_found_with_their_cues() {
    let cases: &[(&str, &str, &str)] = &[
        ("UK_NHS", "My NHS number is 943 476 5919.", "943 476 5919"),
        ("UK_NHS", "nhs no: 943-476-5919", "943-476-5919"),
        ("UK_NINO", "NI number: AB 12 34 56 C", "AB 12 34 56 C"),
        ("ES_NIF", "mi DNI es 12345678Z, gracias", "12345678Z"),
        ("ES_NIF", "NIF 12345678-Z", "12345678-Z"),
        ("ES_NIE", "NIE: X-1234567-L", "X-1234567-L"),
        (
            "IT_FISCAL_CODE",
            "il mio codice fiscale è rssmra85t10a562s",
            "rssmra85t10a562s",
        ),
        ("PL_PESEL", "PESEL: 44051401359", "44051401359"),
        ("SG_NRIC_FIN", "my NRIC is S1234567D", "S1234567D"),
        ("AU_TFN", "TFN 123 456 782 attached", "123 456 782"),
        ("AU_ABN", "our ABN is 51 824 753 556", "51 824 753 556"),
        ("AU_ACN", "ACN 004 085 616", "004 085 616"),
        ("AU_MEDICARE", "Medicare card 2123 45670 1", "2123 45670 1"),
        ("IN_PAN", "PAN: ABCPE1234F", "ABCPE1234F"),
        ("IN_AADHAAR", "Aadhaar no. 2345 6789 0124", "2345 6789 0124"),
        (
            "FI_PERSONAL_IDENTITY_CODE",
            "henkilötunnus 131052-308T",
            "131052-308T",
        ),
        (
            "KR_RRN",
            "주민등록번호 900101-1234568 입니다",
            "900101-1234568",
        ),
        (
            "TH_TNIN",
            "เลขประจำตัวประชาชน 1-2345-67890-12-1",
            "1-2345-67890-12-1",
        ),
        ("US_ITIN", "my ITIN is 912-70-1234", "912-70-1234"),
        ("US_ITIN", "ITIN 912701234", "912701234"),
        ("US_PASSPORT", "passport number 123456789", "123456789"),
        ("US_PASSPORT", "Passport: A12345678", "A12345678"),
        ("US_DRIVER_LICENSE", "driver's license D1234567", "D1234567"),
        ("US_DRIVER_LICENSE", "DL# 123456789012", "123456789012"),
        (
            "US_BANK_NUMBER",
            "account number 12345678901",
            "12345678901",
        ),
        ("US_BANK_NUMBER", "routing 011000015", "011000015"),
        ("MEDICAL_LICENSE", "DEA number AB1234563", "AB1234563"),
    ];
    finds_all(cases);
}

/// The shapes with letters, separators or a date are rare enough to be found without a cue.
#[test]
fn distinctive_shapes_need_no_cue() {
    let cases: &[(&str, &str, &str)] = &[
        ("UK_NINO", "form for AB123456C attached", "AB123456C"),
        ("ES_NIE", "see X1234567L", "X1234567L"),
        (
            "IT_FISCAL_CODE",
            "here: RSSMRA85T10A562S.",
            "RSSMRA85T10A562S",
        ),
        ("SG_NRIC_FIN", "for T1234567J", "T1234567J"),
        ("IN_PAN", "for ABCPE1234F", "ABCPE1234F"),
        (
            "FI_PERSONAL_IDENTITY_CODE",
            "for 131052-308T",
            "131052-308T",
        ),
        ("KR_RRN", "for 900101-1234568", "900101-1234568"),
        ("TH_TNIN", "for 1-2345-67890-12-1", "1-2345-67890-12-1"),
        ("US_ITIN", "for 912-70-1234", "912-70-1234"),
    ];
    finds_all(cases);
}

#[test]
fn look_alikes_are_left_alone() {
    let clean = [
        // Digits alone pass a checksum one time in ten: without a cue they are just numbers.
        "order 943 476 5919 shipped",
        "ref 44051401359 in the log",
        "batch 123 456 782 done",
        "ticket 2345 6789 0124",
        // A checksum that fails, with a cue that is no label of a value (DEA numbers are
        // found by their format alone). "NRIC S1234567A" is a label and its value: found
        // whatever the checksum, as every labeled value (tests/redact_recognizers/labeled.rs).
        "DEA AB1234564",
        // An impossible date.
        "주민등록번호 901301-1234568",
        // A cue on another line names another number.
        "passport photo attached\norder 123456789",
        // Part of a longer number, an identifier or a version.
        "NHS helpline +44 943 476 5919",
        "ORD-12345678Z",
        "build 12345678Z-1",
        "v1.2.3 and 2024-05-01",
        "sha 3f9a2b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
    ];
    for text in clean {
        let kinds: Vec<(String, String)> = found(text)
            .into_iter()
            .filter(|(k, _)| k != "PHONE")
            .collect();
        assert!(
            kinds.is_empty(),
            "expected nothing in {text:?}, got {kinds:?}"
        );
    }
}

/// A value right after its label is that value even when its checksum fails or its prefix was
/// never issued: a typo or another country's format must not leave it in the clear.
#[test]
fn values_after_their_label_need_no_checksum() {
    for (kind, text, value) in [
        ("UK_NHS", "NHS number 943 476 5918", "943 476 5918"),
        ("PL_PESEL", "PESEL 44051401358", "44051401358"),
        ("AU_TFN", "TFN 123 456 783", "123 456 783"),
        (
            "IT_FISCAL_CODE",
            "codice fiscale RSSMRA85T10A562X",
            "RSSMRA85T10A562X",
        ),
        ("IN_AADHAAR", "Aadhaar 2345 6789 0125", "2345 6789 0125"),
        ("UK_NINO", "NI number QQ 12 34 56 C", "QQ 12 34 56 C"),
        ("US_ITIN", "ITIN 912-93-1234", "912-93-1234"),
    ] {
        assert_eq!(
            found(text),
            [(kind.to_string(), value.to_string())],
            "{text:?}"
        );
    }
}

/// Labels as forms, tables and JSON give them: each number takes the label nearest in front
/// of it, a table cell its column's header.
#[test]
fn numbers_take_their_own_label() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "US_DRIVER_LICENSE",
            "driver's license 12345678, account number 20176318991",
            "12345678",
        ),
        (
            "US_BANK_NUMBER",
            "driver's license 12345678, account number 20176318991",
            "20176318991",
        ),
        (
            "US_BANK_NUMBER",
            r#"{"drivers_license": "67189215", "account_number": "9343004795"}"#,
            "9343004795",
        ),
        (
            "AU_ACN",
            r#"{"acn": "004 085 616", "tfn": "123456782"}"#,
            "004 085 616",
        ),
        (
            "PL_PESEL",
            "| Imię | PESEL |\n| --- | --- |\n| Jan | 44051401359 |",
            "44051401359",
        ),
        // A thirteen-digit Visa passes Luhn one time in ten: the label says what it is.
        (
            "US_BANK_NUMBER",
            "Account number: 4427604555210",
            "4427604555210",
        ),
    ];
    finds_all(cases);
    // A label after the number names the next one.
    let f = found("bytes: 239209079. The passport office opens at 9");
    assert!(f.iter().all(|(k, _)| k != "US_PASSPORT"), "{f:?}");
}

/// Short cue words count as whole words only.
#[test]
fn short_cues_are_whole_words() {
    for text in [
        "a tiny 912701234 box",
        "the panel ABCDE1234 part",
        "a great deal AB1234563",
    ] {
        let f: Vec<(String, String)> = found(text)
            .into_iter()
            .filter(|(k, _)| matches!(k.as_str(), "US_ITIN" | "IN_PAN"))
            .collect();
        assert!(f.is_empty(), "{text}: {f:?}");
    }
    assert!(found("my TIN 912701234").contains(&("US_ITIN".to_string(), "912701234".to_string())));
}

#[test]
fn a_redactor_limited_to_one_country_finds_only_its_types() {
    let config = RedactorConfig::from_json(r#"{"types": ["UK_NHS", "UK_NINO"]}"#).unwrap();
    let r = Redactor::new(config).unwrap();
    let text = "NHS number 943 476 5919, PESEL 44051401359, NINO AB123456C";
    let kinds: Vec<String> = r
        .detect(text)
        .into_iter()
        .map(|c| c.kind.to_string())
        .collect();
    assert_eq!(kinds, ["UK_NHS", "UK_NINO"]);
    // Ten digits inside a longer number in the same grouping (a phone here) are no NHS number.
    for text in [
        "NHS: +44 943 476 5919",
        "NHS 943 476 5919 12",
        "NHS 1-943-476-5919",
    ] {
        assert!(r.detect(text).is_empty(), "{text}");
    }
}

#[test]
fn identifiers_round_trip_through_placeholders() {
    let mut r = Redactor::new(RedactorConfig::default()).unwrap();
    let text = "NHS 943 476 5919 / codice fiscale RSSMRA85T10A562S / 주민등록번호 900101-1234568";
    let out = r.redact(text);
    for value in ["943 476 5919", "RSSMRA85T10A562S", "900101-1234568"] {
        assert!(!out.text.contains(value), "{value} left in {:?}", out.text);
    }
    assert!(out.text.contains("[UK_NHS_1]"), "{}", out.text);
    assert!(out.text.contains("[IT_FISCAL_CODE_1]"), "{}", out.text);
    assert_eq!(r.restore(&out.text), text);
    // A value found once with its cue is found again without it.
    let again = r.redact("the number 943 476 5919 again");
    assert!(again.text.contains("[UK_NHS_1]"), "{}", again.text);
}

use proptest::prelude::*;

proptest! {
    /// Text made of identifier pieces, separators, cue words, table bars and non-ASCII cues:
    /// no panic (debug builds check every index), and the round trip gives the text back.
    #[test]
    fn identifier_pieces_never_panic_and_round_trip(
        parts in proptest::collection::vec(prop_oneof![
            Just("943"), Just("476"), Just("5919"), Just("12"), Just("1234567"),
            Just("44051401359"), Just("AB"), Just("C"), Just("X"), Just("RSSMRA"), Just("85T10A562S"),
            Just("131052"), Just("-"), Just(" "), Just("\n"), Just("| "), Just(" |"), Just("+"),
            Just("NHS "), Just("passport "), Just("account number "), Just("주민등록번호 "),
            Just("เลขประจำตัวประชาชน "), Just("é"), Just("_"), Just("\"tfn\": \""),
        ], 0..30)
    ) {
        let text = parts.concat();
        let mut r = Redactor::new(RedactorConfig::default()).unwrap();
        let out = r.redact(&text);
        prop_assert_eq!(r.restore(&out.text), text);
    }
}

/// Asserts each `(type, text, value)`: the value is found in the text as that type.
fn finds_all(cases: &[(&str, &str, &str)]) {
    for &(kind, text, value) in cases {
        assert!(
            has(text, kind, value),
            "expected {kind} {value:?} in {text:?}, got {:?}",
            found(text)
        );
    }
}

fn has(text: &str, kind: &str, value: &str) -> bool {
    found(text).contains(&(kind.to_string(), value.to_string()))
}

fn kinds_in(text: &str) -> Vec<String> {
    found(text).into_iter().map(|(k, _)| k).collect()
}

/// `NHS#…`, `Acct#…`, `No.…`: a number glued by `#` or `.` to its label or a number sign is
/// the label's value, not part of a token (`REF#…`, `ORD-…` still are).
#[test]
fn numbers_glued_to_their_label_are_found() {
    let cases: &[(&str, &str, &str)] = &[
        ("UK_NHS", "NHS#9434765919", "9434765919"),
        ("UK_NHS", "NHS No.9434765919", "9434765919"),
        ("AU_TFN", "TFN#123456782", "123456782"),
        ("PL_PESEL", "PESEL nr.44051401359", "44051401359"),
        ("US_PASSPORT", "Passport No.E12345678", "E12345678"),
        ("US_PASSPORT", "Passport#E12345678", "E12345678"),
        ("US_BANK_NUMBER", "Acct#4359572553", "4359572553"),
        ("US_DRIVER_LICENSE", "DL#D9031236", "D9031236"),
    ];
    finds_all(cases);
    for text in [
        "NHS ticket REF#9434765919",
        "NHS build v2.9434765919",
        "passport INV#123456789",
    ] {
        let f = found(text);
        assert!(
            f.iter().all(|(k, _)| k != "UK_NHS" && k != "US_PASSPORT"),
            "{text}: {f:?}"
        );
    }
}

/// Abbreviated commit hashes in a git log (`Merge: bc899650c ae9afd977`) read as a NINO, NIF,
/// PAN or DEA number in lower case: a word of lower-case hex needs a cue.
#[test]
fn lower_case_hex_words_need_a_cue() {
    for text in [
        "Merge: bc899650c ae9afd977\nAuthor: Someone",
        "Merge: 43016715e b114b26a5",
        "Merge: fedd8e6c1 fb0590821",
        "(merge cacae4329f jk/harden-protocol-v2)",
        "    As 503748d fix",
    ] {
        let f = found(text);
        assert!(
            f.iter()
                .all(|(k, _)| !["UK_NINO", "ES_NIF", "IN_PAN", "MEDICAL_LICENSE"]
                    .contains(&k.as_str())),
            "{text:?}: {f:?}"
        );
    }
    // With their cue they are what the cue says; in upper case they count alone.
    assert!(has("NI number: bc899650c", "UK_NINO", "bc899650c"));
    assert!(has("DEA fb0590821", "MEDICAL_LICENSE", "fb0590821"));
    assert!(has("form for BC899650C", "UK_NINO", "BC899650C"));
}

/// A CSV or TSV header names its columns as a Markdown table's does.
#[test]
fn csv_and_tsv_headers_name_their_columns() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "UK_NHS",
            "Name,NHS Number,Ward\nAlice Green,9434765919,B4\nBob Hall,6639233215,C1",
            "6639233215",
        ),
        (
            "UK_NHS",
            "Name,NHS Number,Ward\nAlice Green,943 476 5919,B4",
            "943 476 5919",
        ),
        (
            "AU_TFN",
            "Employee\tTFN\tStart\nJack\t262 385 734\t2024-01-02",
            "262 385 734",
        ),
        (
            "PL_PESEL",
            "Imię;Nazwisko;PESEL\nJan;Kowalski;71041366657",
            "71041366657",
        ),
    ];
    finds_all(cases);
    // Another column's name, no header above the row, or a first line that is a row of values
    // (code here) name nothing.
    for text in [
        "Name,NHS Number,Order\nAlice Green,B4,9434765919",
        "Alice Green,9434765919,B4",
        "pub const __NR_acct: u32 = 1073741987;\npub const __NR_x: u32 = 1073742063;",
    ] {
        let f = found(text);
        assert!(
            f.iter().all(|(k, v)| k != "UK_NHS" && v != "1073742063"),
            "{text:?}: {f:?}"
        );
    }
}

/// A form's label on its own line names the value starting the next line.
#[test]
fn a_label_line_names_the_value_below_it() {
    let cases: &[(&str, &str, &str)] = &[
        ("US_PASSPORT", "Passport number:\nE73312910", "E73312910"),
        (
            "US_DRIVER_LICENSE",
            "Driver's License Number\n278622558",
            "278622558",
        ),
        (
            "US_BANK_NUMBER",
            "Bank account number:\n  59416539",
            "59416539",
        ),
        ("UK_NHS", "NHS number\n\"9434765919\"", "9434765919"),
    ];
    finds_all(cases);
    for text in [
        // The line above holds its own value.
        "NHS number 9434765919\n6639233215 is the next referral",
        // A sentence, not a label.
        "I lost my passport somewhere at the airport last week, sadly\n123456789 people fly daily",
        // Not at the start of its line.
        "Passport number:\nref 123456789",
    ] {
        let f = found(text);
        assert!(
            f.iter()
                .all(|(k, v)| !(k == "US_PASSPORT" || (k == "UK_NHS" && v == "6639233215"))),
            "{text:?}: {f:?}"
        );
    }
}

/// Keys in camelCase or PascalCase and abbreviated licence labels.
#[test]
fn camel_case_keys_and_abbreviated_labels_are_cues() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "US_BANK_NUMBER",
            r#"{"accountNumber": "6977968486"}"#,
            "6977968486",
        ),
        (
            "US_BANK_NUMBER",
            "<BankAccount>5723839732</BankAccount>",
            "5723839732",
        ),
        (
            "US_DRIVER_LICENSE",
            r#"driverLicense: "D5551122""#,
            "D5551122",
        ),
        (
            "US_DRIVER_LICENSE",
            "<DriversLicense>D5147265</DriversLicense>",
            "D5147265",
        ),
        ("US_DRIVER_LICENSE", "Driver's Lic. D6940969", "D6940969"),
        ("US_DRIVER_LICENSE", "CA DL D6584508", "D6584508"),
        // A long cue runs into a word for number, and into no other word.
        ("US_PASSPORT", "passportNumber: 533218739", "533218739"),
        ("IN_AADHAAR", "aadhaarno 2345 6789 0124", "2345 6789 0124"),
    ];
    finds_all(cases);
    for text in [
        "dlopen returned 12345678",
        "libfoo.dll 12345678 bytes",
        "accountNotes: 12345678",
    ] {
        assert!(
            !kinds_in(text)
                .iter()
                .any(|k| k == "US_DRIVER_LICENSE" || k == "US_BANK_NUMBER"),
            "{text}"
        );
    }
}

/// A DNI in thousands (`12.345.678-Z`), a space before a DNI's or NIE's letter, a space between
/// the halves of a Korean number: found with their cue, left alone without it.
#[test]
fn dotted_and_spaced_numbers_are_found_with_their_cue() {
    let cases: &[(&str, &str, &str)] = &[
        ("ES_NIF", "DNI: 12.345.678-Z", "12.345.678-Z"),
        ("ES_NIF", "D.N.I. 12.345.678 Z", "12.345.678 Z"),
        ("ES_NIF", "mi dni es 12.345.678z", "12.345.678z"),
        ("ES_NIF", "DNI 12345678 Z", "12345678 Z"),
        ("ES_NIE", "NIE: X 1234567 L", "X 1234567 L"),
        ("KR_RRN", "주민등록번호: 900101 1234568", "900101 1234568"),
    ];
    finds_all(cases);
    for (kind, text) in [
        ("ES_NIF", "de 12.345.678 Z en adelante"),
        ("ES_NIF", "pedido 12345678 Z"),
        ("ES_NIF", "1.12.345.678-Z"),
        ("ES_NIE", "entre X 1234567 L"),
        ("KR_RRN", "주문 900101 1234568"),
    ] {
        assert!(
            !kinds_in(text).contains(&kind.to_string()),
            "{text}: {:?}",
            found(text)
        );
    }
}

/// The Finnish century sign in lower case, as typed.
#[test]
fn finnish_codes_are_found_in_lower_case() {
    assert!(has(
        "hetu 050922a140n",
        "FI_PERSONAL_IDENTITY_CODE",
        "050922a140n"
    ));
    assert!(has(
        "syntynyt 050922a140n",
        "FI_PERSONAL_IDENTITY_CODE",
        "050922a140n"
    ));
}
