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
    for &(kind, text, value) in cases {
        let f = found(text);
        assert!(
            f.contains(&(kind.to_string(), value.to_string())),
            "expected {kind} {value:?} in {text:?}, got {f:?}"
        );
    }
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
    for &(kind, text, value) in cases {
        let f = found(text);
        assert!(
            f.contains(&(kind.to_string(), value.to_string())),
            "expected {kind} {value:?} in {text:?}, got {f:?}"
        );
    }
}

#[test]
fn look_alikes_are_left_alone() {
    let clean = [
        // Digits alone pass a checksum one time in ten: without a cue they are just numbers.
        "order 943 476 5919 shipped",
        "ref 44051401359 in the log",
        "batch 123 456 782 done",
        "ticket 2345 6789 0124",
        // Checksums that fail, with their cues.
        "NHS number 943 476 5918",
        "PESEL 44051401358",
        "TFN 123 456 783",
        "codice fiscale RSSMRA85T10A562X",
        "NRIC S1234567A",
        "Aadhaar 2345 6789 0125",
        "DEA AB1234564",
        // A NINO prefix never issued, an ITIN group never issued, an impossible date.
        "NI number QQ 12 34 56 C",
        "ITIN 912-93-1234",
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
    for &(kind, text, value) in cases {
        let f = found(text);
        assert!(
            f.contains(&(kind.to_string(), value.to_string())),
            "expected {kind} {value:?} in {text:?}, got {f:?}"
        );
    }
    // A label after the number names the next one.
    let f = found("bytes: 239209079. The passport office opens at 9");
    assert!(f.iter().all(|(k, _)| k != "US_PASSPORT"), "{f:?}");
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
