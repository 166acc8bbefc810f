//! Phone numbers after the words people use to give them, and extensions as they are written:
//! the extension is part of the number it belongs to.

use super::found;

fn phones(text: &str) -> Vec<String> {
    found(text)
        .into_iter()
        .filter(|(k, _)| k == "PHONE")
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn national_groupings_after_contact_words() {
    for (text, value) in [
        ("answering at 0612 3456 after six", "0612 3456"),
        ("mój numer 512 345 678", "512 345 678"),
        ("messages to 07700 900123 please", "07700 900123"),
        ("Kontakt: 0151 234 567", "0151 234 567"),
        ("text at 612 345 678 if late", "612 345 678"),
    ] {
        assert_eq!(phones(text), [value], "{text:?}: {:?}", found(text));
    }
}

#[test]
fn extensions_in_any_case_belong_to_the_number() {
    for (text, value) in [
        ("(415) 555-0132 Ext. 12", "(415) 555-0132 Ext. 12"),
        ("reach me at 415-555-0132x459", "415-555-0132x459"),
        (
            "my direct line is 415-555-0132, extension 204",
            "415-555-0132, extension 204",
        ),
        ("office 415.555.0132 EXT 3", "415.555.0132 EXT 3"),
        ("Phone: +1 415 555 0132, ext. 7", "+1 415 555 0132, ext. 7"),
    ] {
        assert_eq!(phones(text), [value], "{text:?}: {:?}", found(text));
    }
}

/// Words that are contact words elsewhere, and a comma before what is no extension.
#[test]
fn code_and_copyright_lines_hold_no_phone() {
    for text in [
        "let text = \"123 456 789\";",
        "pub const __NR_signalfd: u32 = 1073742106;",
        "Copyright: 2005-2016, x264 project",
    ] {
        assert!(phones(text).is_empty(), "{text:?}: {:?}", found(text));
    }
}

/// Numbers given with no word before them: a run in a national plan's shape, and a number alone
/// on a signature line beside an e-mail address.
#[test]
fn numbers_without_a_contact_word() {
    for (text, value) in [
        ("I put 7529170342 on the form yesterday.", "7529170342"),
        ("it's 07700777741 if the bell doesn't work", "07700777741"),
        (
            "Jane Miller\n606 510 973\njane.miller@example.org",
            "606 510 973",
        ),
        ("Best,\nTomás\n96 209344\ntomas@correo.es", "96 209344"),
        ("dial 961 52 200 from the lobby", "961 52 200"),
        ("T: 0151 234 567 | jane@example.org", "0151 234 567"),
    ] {
        assert_eq!(phones(text), [value], "{text:?}: {:?}", found(text));
    }
}

/// What shares those shapes and is no phone: a Unix time, part numbers in a list, a column of
/// figures, keyboard filler.
#[test]
fn runs_that_are_not_phone_numbers() {
    for text in [
        "the log says 1419314170 for the restart",
        "The wiper blades 3397007297 and 3397118932, which one fits?",
        "totals\n606 510 973\n712 004 118",
        "use 0123456789 as the test value",
        "Phone input hint: \"+1 (555) 000-0000\", should I localise it?",
    ] {
        assert!(phones(text).is_empty(), "{text:?}: {:?}", found(text));
    }
}
