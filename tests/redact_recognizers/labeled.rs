//! Values stated with their label, whatever their format: the label says what they are, so an
//! SSN with an unissued prefix, an ID in another country's format or a card of an unknown
//! issuer is redacted all the same; and the label takes the value, not the sentence after it.

use super::found;

/// Asserts that `text` yields exactly one finding, of `kind` and `value`.
fn assert_only(kind: &str, text: &str, value: &str) {
    assert_eq!(
        found(text),
        [(kind.to_string(), value.to_string())],
        "{text:?}"
    );
}

#[test]
fn identifiers_after_their_label_are_found_in_any_format() {
    let cases: &[(&str, &str, &str)] = &[
        // Unissued SSN prefixes (666, 9xx) and no grouping: no SSN check passes them.
        ("US_SSN", "my SSN is 666123456 and my zip is", "666123456"),
        ("US_SSN", "my SSN is 900-12-3456", "900-12-3456"),
        (
            "US_SSN",
            "My social security number is 123 45 6789 thanks",
            "123 45 6789",
        ),
        // Another country's format after "my SSN is".
        ("US_SSN", "my SSN is AB123456C, I think", "AB123456C"),
        (
            "UK_NINO",
            "My national insurance number is QQ 12 34 56 A.",
            "QQ 12 34 56 A",
        ),
        ("ID_NUMBER", "my tax id is 12-3456789", "12-3456789"),
        ("ID_NUMBER", "TIN: 98-7654321", "98-7654321"),
        ("ID_NUMBER", "my BSN is 111222333", "111222333"),
        (
            "US_PASSPORT",
            "my passport number is C01X00T47.",
            "C01X00T47",
        ),
        ("US_PASSPORT", "passport: X1234567", "X1234567"),
        (
            "ID_NUMBER",
            "my ID number is 7701015009087",
            "7701015009087",
        ),
        (
            "US_DRIVER_LICENSE",
            "driver's license: D123-4567-8901",
            "D123-4567-8901",
        ),
        (
            "ID_NUMBER",
            "mein Personalausweis ist L01X00T47",
            "L01X00T47",
        ),
        (
            "ID_NUMBER",
            "Personalausweisnummer: T220001293",
            "T220001293",
        ),
        (
            "US_DRIVER_LICENSE",
            "Führerschein-Nr. B072RRE2I55",
            "B072RRE2I55",
        ),
        // Check letters that do not check out.
        ("ES_NIF", "mi DNI es 12345678A", "12345678A"),
        ("ES_NIE", "mi NIE es X1234567Z", "X1234567Z"),
        (
            "IT_FISCAL_CODE",
            "codice fiscale: RSSMRA85T10A562X",
            "RSSMRA85T10A562X",
        ),
        ("ID_NUMBER", r#"{"bsn": "123456782"}"#, "123456782"),
    ];
    for (kind, text, value) in cases {
        assert_only(kind, text, value);
    }
}

#[test]
fn cards_after_their_label_need_only_luhn() {
    let cases: &[(&str, &str)] = &[
        ("card: 4111.1111.1111.1111", "4111.1111.1111.1111"),
        // Maestro, UnionPay and Verve prefixes, 15 to 18 digits.
        ("CC 6759649826438453", "6759649826438453"),
        ("my card is 622126123456789015 ok", "622126123456789015"),
        ("Karte: 501812345678900", "501812345678900"),
        ("tarjeta 6221 2612 3456 7890 15", "6221 2612 3456 7890 15"),
    ];
    for (text, value) in cases {
        assert_only("CREDIT_CARD", text, value);
    }
}

/// A label that is no person's identifier, a value that is no identifier, a card number that
/// fails Luhn: nothing.
#[test]
fn labels_take_identifiers_only() {
    for text in [
        "my passport is expired",
        "My SSN is on file with HR since 2019",
        "the passport office opens at 9",
        "Tax ID: N/A",
        // A record's key, an order's id, a type.
        r#"{"id": 72295728, "type": "HttpRule"}"#,
        "order ID number: ORD44172",
        "struct Cache { id: AtomicU64 }",
        "ms.add({ id: 'tt0102926', title: 'The Silence of the Lambs' })",
        // "tin" the metal, "ein" the article, "sin" the function.
        "solder tin 60/40 at 350 degrees",
        "Es ist ein 2024er Modell",
        "y = sin 12345",
        "card 4111 1111 1111 1112 was declined",
        "card games 1 2 3 4 5 6 7 8 9 10 11 12",
    ] {
        let f = found(text);
        assert!(f.is_empty(), "{text:?}: {f:?}");
    }
}

/// A label holds for a second value of the same shape in its sentence, for the writer's own
/// value after a question about the label, and by national acronyms.
#[test]
fn labels_reach_a_second_value_an_answer_and_national_acronyms() {
    let ids = |text: &str| -> Vec<String> {
        found(text)
            .into_iter()
            .filter(|(k, _)| k != "PERSON")
            .map(|(_, v)| v)
            .collect()
    };
    assert_eq!(
        ids("my BSN is 236518417 and my partner's is 174903226, both expired"),
        ["236518417", "174903226"]
    );
    assert_eq!(
        ids(
            "What's the format for a national insurance number? Mine is QQ 12 34 56 C but it fails"
        ),
        ["QQ 12 34 56 C"]
    );
    assert_eq!(
        ids("RUT 12.345.678-5, ¿cómo emito una boleta?"),
        ["12.345.678-5"]
    );
    assert_eq!(ids("mi CURP es GODE561231HDFRRN04"), ["GODE561231HDFRRN04"]);
    // A different shape later in the sentence is another number; an acronym in lower case
    // without a connector is a word.
    assert_eq!(ids("my BSN is 236518417 and order 55 ships"), ["236518417"]);
    assert!(ids("we had pan 12345 grams of flour").is_empty());
}
