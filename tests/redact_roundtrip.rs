//! The reversibility contract: `restore(redact(x).text)` gives back `x` for any input, with one
//! redactor over many turns, whole or streamed in arbitrary chunks — including inputs that
//! already look like placeholders. The one change allowed is the one placeholder per person
//! asks for: a person written in several forms ("Zoltan", later "Zoltan Kovacs") comes back in
//! the form first written for them, and every other byte comes back as it was.

use llm_memory::redact::{EntityType, Redaction, Redactor, RedactorConfig};
use proptest::prelude::*;
use std::sync::OnceLock;

/// A fresh redactor (empty vault) without recompiling the regexes for every case.
fn fresh() -> Redactor {
    static PROTO: OnceLock<Redactor> = OnceLock::new();
    PROTO
        .get_or_init(|| Redactor::new(RedactorConfig::default()).unwrap())
        .clone()
}

/// Text built from pieces that stress the grammar: real PII, placeholder look-alikes, brackets,
/// word joiners, underscores, digits and non-ASCII.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("ann@example.com".to_string()),
        Just("+44 20 7946 0958".to_string()),
        Just("4111 1111 1111 1111".to_string()),
        Just("10.0.0.1".to_string()),
        Just("my name is Zoltan Kovacs".to_string()),
        Just("[EMAIL_1]".to_string()),
        Just("EMAIL_1".to_string()),
        Just("email_2".to_string()),
        Just("[PHONE_1".to_string()),
        Just("IP_ADDRESS_1]".to_string()),
        Just("EMAIL\u{2060}_1".to_string()),
        Just("\u{2060}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        // Markdown links and escapes: restore keeps `[EMAIL_1](` a link and takes
        // `\[EMAIL_1\]` whole, so values before these must still come back as written.
        Just("(".to_string()),
        Just("](".to_string()),
        Just("\\".to_string()),
        Just("\\[EMAIL_1\\]".to_string()),
        Just("_".to_string()),
        Just("PERSON".to_string()),
        "[0-9]{1,4}",
        "[a-zA-Z ]{0,6}",
        "\\PC{0,4}",
    ]
}

/// What restoring `red` must give: `x` with each person's name in the form first written for
/// that person, everything else byte for byte.
fn expected(x: &str, red: &Redaction, r: &Redactor) -> String {
    let units: Vec<u16> = x.encode_utf16().collect();
    let mut out = Vec::with_capacity(units.len());
    let mut at = 0;
    for f in &red.findings {
        out.extend_from_slice(&units[at..f.start]);
        let written = String::from_utf16(&units[f.start..f.end]).unwrap();
        let value = if f.kind == EntityType::Person {
            let first = r.restore(&f.placeholder);
            // Another form of the same name, never somebody else's.
            let words =
                |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
            let (a, b) = (words(&first), words(&written));
            assert!(
                a.iter().any(|w| b
                    .iter()
                    .any(|v| v.starts_with(w.as_str()) || w.starts_with(v.as_str()))),
                "{written:?} restored as {first:?}"
            );
            first
        } else {
            written
        };
        out.extend(value.encode_utf16());
        at = f.end;
    }
    out.extend_from_slice(&units[at..]);
    String::from_utf16(&out).unwrap()
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn restore_inverts_redact(turns in prop::collection::vec(text(), 1..4)) {
        let mut r = fresh();
        let redacted: Vec<Redaction> = turns.iter().map(|t| r.redact(t)).collect();
        for (t, red) in turns.iter().zip(&redacted) {
            prop_assert_eq!(r.restore(&red.text), expected(t, red, &r));
        }
    }

    /// `start`/`end` index the input and `output_start` the redacted text in UTF-16 units,
    /// as JavaScript strings do, whatever characters come before (escaped look-alikes too).
    #[test]
    fn finding_offsets_are_utf16_in_input_and_output(x in text()) {
        let mut r = fresh();
        let red = r.redact(&x);
        let input: Vec<u16> = x.encode_utf16().collect();
        let output: Vec<u16> = red.text.encode_utf16().collect();
        for f in &red.findings {
            prop_assert!(f.start < f.end && f.end <= input.len());
            let value = String::from_utf16(&input[f.start..f.end]).unwrap();
            if f.kind != EntityType::Person {
                prop_assert_eq!(r.restore(&f.placeholder), value);
            }
            let at = f.output_start..f.output_start + f.placeholder.encode_utf16().count();
            prop_assert_eq!(String::from_utf16(&output[at]).unwrap(), f.placeholder.clone());
        }
    }

    #[test]
    fn streaming_restore_matches_whole_restore(x in text(), cuts in prop::collection::vec(0usize..64, 0..6)) {
        let mut r = fresh();
        let redaction = r.redact(&x);
        let want = expected(&x, &redaction, &r);
        let red = redaction.text;
        let mut s = r.stream_restorer();
        let mut out = String::new();
        let mut rest = red.as_str();
        for c in cuts {
            let mut at = c.min(rest.len());
            while !rest.is_char_boundary(at) { at -= 1; }
            out += &s.push(&rest[..at]);
            rest = &rest[at..];
        }
        out += &s.push(rest);
        out += &s.finish();
        prop_assert_eq!(out, want);
    }

    #[test]
    fn arbitrary_unicode_never_panics(x in "\\PC{0,200}") {
        let mut r = fresh();
        let red = r.redact(&x);
        prop_assert_eq!(r.restore(&red.text), expected(&x, &red, &r));
        let units = x.encode_utf16().count();
        for f in &red.findings {
            prop_assert!(f.start < f.end && f.end <= units);
        }
    }
}

#[test]
fn mask_mode_is_not_reversible_but_escapes_nothing_away() {
    let mut r = Redactor::new(RedactorConfig::from_json(r#"{"mode":"mask"}"#).unwrap()).unwrap();
    let out = r.redact("mail ann@example.com about [EMAIL_1]");
    assert!(out.text.starts_with("mail [EMAIL] about"));
    assert!(!out.text.contains("ann@"));
    assert_eq!(r.restore(&out.text), "mail [EMAIL] about [EMAIL_1]");
}

#[test]
fn vault_export_import_keeps_restoring_across_sessions() {
    let mut a = Redactor::new(RedactorConfig::default()).unwrap();
    let red = a.redact("I'm at ann@example.com").text;
    let saved = a.vault().to_json();
    let mut b = Redactor::new(RedactorConfig::default()).unwrap();
    b.set_vault(llm_memory::redact::Vault::from_json(&saved).unwrap());
    assert_eq!(b.restore(&red), "I'm at ann@example.com");
    assert_eq!(
        b.redact("bob@example.com, ann@example.com").text,
        "[EMAIL_2], [EMAIL_1]"
    );
}
