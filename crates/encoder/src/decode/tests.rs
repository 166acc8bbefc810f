//! Tests of the decoding in `decode.rs`.

use super::*;

/// The reference model's entity labels, in its order (`O`, then `B-`/`I-` of each).
const NAMES: [&str; 17] = [
    "GIVEN_NAME",
    "SURNAME",
    "EMAIL",
    "PHONE",
    "URL",
    "TAX_ID",
    "BANK_ACCOUNT",
    "ROUTING_NUMBER",
    "GOVERNMENT_ID",
    "PASSPORT",
    "DRIVERS_LICENSE",
    "BUILDING_NUMBER",
    "STREET_NAME",
    "SECONDARY_ADDRESS",
    "CITY",
    "STATE",
    "ZIP_CODE",
];

fn labels() -> LabelTable {
    let mut names = vec!["O".to_string()];
    for name in NAMES {
        names.push(format!("B-{name}"));
        names.push(format!("I-{name}"));
    }
    LabelTable::new(&names)
}

fn label_index(name: &str) -> u16 {
    if name == "O" {
        return 0;
    }
    let (prefix, bare) = name.split_at(2);
    let i = NAMES.iter().position(|n| *n == bare).unwrap() as u16;
    1 + 2 * i + (prefix == "I-") as u16
}

/// Tags written as `text` plus, per token, `(piece, word, label, prob)`: each piece is
/// found in the text after the previous one, so offsets are real.
fn tag(text: &str, pieces: &[(&str, u32, &str, f32)]) -> Vec<TokenTag> {
    let mut at = 0;
    pieces
        .iter()
        .map(|&(piece, word, label, prob)| {
            let start = at + text[at..].find(piece).unwrap();
            at = start + piece.len();
            TokenTag {
                start,
                end: at,
                word,
                label: label_index(label),
                prob,
            }
        })
        .collect()
}

/// Every piece of the text split at spaces and punctuation, tagged O except the words
/// listed with their label.
fn auto(text: &str, tagged: &[(&str, &str, f32)]) -> Vec<TokenTag> {
    let mut tags = Vec::new();
    let mut word = 0;
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap();
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let end = if c.is_alphanumeric() {
            i + text[i..]
                .char_indices()
                .find(|&(_, c)| !c.is_alphanumeric())
                .map_or(text.len() - i, |(j, _)| j)
        } else {
            i + c.len_utf8()
        };
        let piece = &text[i..end];
        let (label, prob) = tagged
            .iter()
            .find(|(p, ..)| *p == piece)
            .map_or(("O", 0.99), |&(_, l, p)| (l, p));
        tags.push(TokenTag {
            start: i,
            end,
            word,
            label: label_index(label),
            prob,
        });
        word += 1;
        i = end;
    }
    tags
}

fn spans(text: &str, tags: &[TokenTag]) -> Vec<(Meaning, String)> {
    decode(text, tags, &labels(), DEFAULT_THRESHOLD)
        .into_iter()
        .map(|s| (s.meaning, text[s.start..s.end].to_string()))
        .collect()
}

#[test]
fn given_name_and_surname_are_one_person() {
    let text = "i'm seeing maria gonzalez tomorrow";
    let tags = auto(
        text,
        &[
            ("maria", "B-GIVEN_NAME", 0.97),
            ("gonzalez", "B-SURNAME", 0.98),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Person, "maria gonzalez".into())]
    );
}

#[test]
fn middle_names_join_and_a_comma_separates_people() {
    let text = "John Michael Smith, Anna Lee";
    let tags = auto(
        text,
        &[
            ("John", "B-GIVEN_NAME", 0.99),
            ("Michael", "I-GIVEN_NAME", 0.97),
            ("Smith", "B-SURNAME", 0.98),
            ("Anna", "B-GIVEN_NAME", 0.9),
            ("Lee", "B-SURNAME", 0.9),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "John Michael Smith".into()),
            (Meaning::Person, "Anna Lee".into())
        ]
    );
}

#[test]
fn address_parts_join_across_commas_and_a_line_break() {
    let text = "ship to 500 Main St.\nSpringfield, IL 62704. Thanks";
    let tags = auto(
        text,
        &[
            ("500", "B-BUILDING_NUMBER", 0.99),
            ("Main", "B-STREET_NAME", 0.99),
            ("St", "I-STREET_NAME", 0.99),
            ("Springfield", "B-CITY", 0.8),
            ("IL", "B-STATE", 0.95),
            ("62704", "B-ZIP_CODE", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(
            Meaning::Address,
            "500 Main St.\nSpringfield, IL 62704".into()
        )]
    );
}

#[test]
fn trailing_punctuation_stays_outside_and_unit_lines_join() {
    let text = "at 1420 elm street, apt 3b, ok?";
    let tags = tag(
        text,
        &[
            ("at", 0, "O", 0.99),
            ("142", 1, "B-BUILDING_NUMBER", 0.99),
            ("0", 1, "B-BUILDING_NUMBER", 0.99),
            ("elm", 2, "B-STREET_NAME", 1.0),
            ("street", 3, "I-STREET_NAME", 1.0),
            (",", 4, "O", 0.9),
            ("apt", 5, "B-SECONDARY_ADDRESS", 1.0),
            ("3", 6, "I-SECONDARY_ADDRESS", 1.0),
            ("b", 6, "I-SECONDARY_ADDRESS", 1.0),
            (",", 7, "I-SECONDARY_ADDRESS", 0.6),
            ("ok", 8, "O", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "1420 elm street, apt 3b".into())]
    );
}

#[test]
fn a_word_takes_its_most_probable_pieces_label() {
    // The first piece says O (weakly), the rest say passport: the whole word is one.
    let text = "passport X12345678 thanks";
    let tags = tag(
        text,
        &[
            ("passport", 0, "O", 0.99),
            ("X", 1, "O", 0.45),
            ("12", 1, "B-PASSPORT", 0.99),
            ("345678", 1, "I-PASSPORT", 0.98),
            ("thanks", 2, "O", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::IdNumber, "X12345678".into())]
    );
    // And the other way round: a confident O piece leaves the word out.
    let tags = tag(
        text,
        &[
            ("passport", 0, "O", 0.99),
            ("X", 1, "B-PASSPORT", 0.6),
            ("12345678", 1, "O", 0.9),
            ("thanks", 2, "O", 0.99),
        ],
    );
    assert!(spans(text, &tags).is_empty());
}

#[test]
fn below_the_threshold_nothing_is_tagged_and_the_score_is_the_mean() {
    let text = "maria gonzalez";
    let tags = auto(
        text,
        &[
            ("maria", "B-GIVEN_NAME", 0.6),
            ("gonzalez", "B-SURNAME", 0.9),
        ],
    );
    let out = decode(text, &tags, &labels(), 0.5);
    assert_eq!(out.len(), 1);
    assert!((out[0].score - 0.75).abs() < 1e-6);
    // At 0.8, "maria" (0.6) is under the threshold but over its continuation share (0.48):
    // it joins the surname the model is sure of.
    let out = decode(text, &tags, &labels(), 0.8);
    assert_eq!((out[0].start, out[0].end), (0, 14));
    // At 0.95 no word is sure enough to start a span.
    assert!(decode(text, &tags, &labels(), 0.95).is_empty());
    // Under the continuation share, a word stays out.
    let tags = auto(
        text,
        &[
            ("maria", "B-GIVEN_NAME", 0.3),
            ("gonzalez", "B-SURNAME", 0.9),
        ],
    );
    let out = decode(text, &tags, &labels(), 0.7);
    assert_eq!(
        (out[0].start, out[0].end, out[0].meaning),
        (6, 14, Meaning::Person)
    );
}

#[test]
fn a_weak_word_continues_a_span_but_cannot_make_one() {
    let text = "says Kazu Kichida in an interview";
    let tags = auto(
        text,
        &[
            ("Kazu", "B-GIVEN_NAME", 0.76),
            ("Kichida", "I-GIVEN_NAME", 0.36),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Person, "Kazu Kichida".into())]
    );
    let tags = auto(text, &[("Kichida", "B-SURNAME", 0.36)]);
    assert!(spans(text, &tags).is_empty());
}

#[test]
fn hyphenated_numbers_are_one_id_and_different_meanings_split() {
    let text = "tax id 912-34-5678 phone 415 555 0100";
    let tags = auto(
        text,
        &[
            ("912", "B-TAX_ID", 0.99),
            ("-", "I-TAX_ID", 0.99),
            ("34", "I-TAX_ID", 0.99),
            ("5678", "I-TAX_ID", 0.99),
            ("415", "B-PHONE", 0.99),
            ("555", "I-PHONE", 0.99),
            ("0100", "I-PHONE", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::IdNumber, "912-34-5678".into()),
            (Meaning::Phone, "415 555 0100".into())
        ]
    );
}

#[test]
fn pieces_of_one_number_are_one_value_whatever_each_piece_is_called() {
    let text = "my driver's license is D1234-5678-9012, call 415 555 0100";
    let tags = auto(
        text,
        &[
            ("D1234", "B-DRIVERS_LICENSE", 0.99),
            ("5678", "B-PHONE", 0.62),
            ("9012", "I-DRIVERS_LICENSE", 0.67),
            ("415", "B-PHONE", 0.99),
            ("555", "I-PHONE", 0.99),
            ("0100", "I-PHONE", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::IdNumber, "D1234-5678-9012".into()),
            (Meaning::Phone, "415 555 0100".into())
        ]
    );
    for (i, m) in Meaning::ALL.iter().enumerate() {
        assert_eq!(*m as usize, i);
    }
}

#[test]
fn a_city_alone_is_a_place_and_a_zip_with_a_city_is_an_address() {
    let text = "we flew to London";
    let tags = auto(text, &[("London", "B-CITY", 0.99)]);
    assert!(spans(text, &tags).is_empty());
    let text = "post it to London NW1 6XE";
    let tags = auto(
        text,
        &[
            ("London", "B-CITY", 0.99),
            ("NW1", "B-ZIP_CODE", 0.99),
            ("6XE", "I-ZIP_CODE", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "London NW1 6XE".into())]
    );
    let text = "room 1420 please";
    let tags = auto(text, &[("1420", "B-BUILDING_NUMBER", 0.9)]);
    assert!(spans(text, &tags).is_empty());
}

#[test]
fn words_joined_by_hyphens_stay_whole_but_possessives_do_not() {
    let text = "ask maria-josé o'brien's team";
    let tags = auto(
        text,
        &[("maria", "B-GIVEN_NAME", 0.9), ("brien", "B-SURNAME", 0.9)],
    );
    // "josé" and "o" were left untagged; the hyphen and the apostrophe bring them in. The
    // untagged "o" between them keeps the two spans apart.
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "maria-josé".into()),
            (Meaning::Person, "o'brien".into())
        ]
    );
}

#[test]
fn an_abbreviation_inside_a_name_stays_whole_and_an_initial_keeps_its_period() {
    let text = "Médico: José M.a Gómez";
    let tags = auto(
        text,
        &[("José", "B-GIVEN_NAME", 0.9), ("M", "I-GIVEN_NAME", 0.9)],
    );
    assert_eq!(spans(text, &tags), [(Meaning::Person, "José M.a".into())]);
    let text = "ask Harold B. Smith";
    let tags = auto(
        text,
        &[("Harold", "B-GIVEN_NAME", 0.9), ("B", "I-GIVEN_NAME", 0.9)],
    );
    assert_eq!(spans(text, &tags), [(Meaning::Person, "Harold B.".into())]);
    // A dotted name in code is no abbreviation.
    let text = "celery.worker: Task done";
    let tags = auto(text, &[("celery", "B-GIVEN_NAME", 0.9)]);
    assert_eq!(spans(text, &tags), [(Meaning::Person, "celery".into())]);
}

#[test]
fn names_do_not_join_across_lines_or_other_words() {
    let text = "maria\ngonzalez and maria or gonzalez";
    let tags = auto(
        text,
        &[
            ("maria", "B-GIVEN_NAME", 0.9),
            ("gonzalez", "B-SURNAME", 0.9),
        ],
    );
    assert_eq!(spans(text, &tags).len(), 4);
}

#[test]
fn labels_are_read_by_name_not_position() {
    let table = LabelTable::new(&["I-ZIP_CODE", "O", "B-GIVEN_NAME", "L-SURNAME", "X-NEW"]);
    assert_eq!(table.part(0).unwrap().meaning, Meaning::Address);
    assert!(table.part(1).is_none());
    assert_eq!(table.part(2).unwrap().meaning, Meaning::Person);
    assert_eq!(table.part(3).unwrap().meaning, Meaning::Person);
    assert!(table.part(4).is_none());
    assert!(table.part(99).is_none());
    assert!(table.knows_any());
    assert!(!LabelTable::new(&["O", "B-MISC"]).knows_any());
}

#[test]
fn cjk_runs_are_not_swallowed_and_zero_width_tokens_are_ignored() {
    let text = "我叫-王小明的朋友";
    // Each ideograph is a word of its own, as the tokenizer splits them.
    let mut tags = text
        .char_indices()
        .enumerate()
        .map(|(w, (i, c))| TokenTag {
            start: i,
            end: i + c.len_utf8(),
            word: w as u32,
            label: label_index(if c == '王' { "B-SURNAME" } else { "O" }),
            prob: 0.9,
        })
        .chain([TokenTag {
            start: 0,
            end: 0,
            word: 99,
            label: label_index("B-SURNAME"),
            prob: 1.0,
        }])
        .collect::<Vec<_>>();
    tags.rotate_right(1);
    let out = decode(text, &tags, &labels(), 0.5);
    // One ideograph is below min_alnum for a person (2): nothing, and in particular no
    // span widened over the whole run.
    assert!(out.is_empty());
}

/// The rules that join words the model left out (units, bridges, initials, titles).
mod bridging;

#[test]
fn a_name_never_takes_a_contraction_or_a_possessive() {
    let cases = [
        // The model tags the `m` of "I'm": the person starts at the name.
        (
            "Hi, I'm Dana Reyes.",
            vec![
                ("m", "B-GIVEN_NAME", 0.7),
                ("Dana", "B-GIVEN_NAME", 0.9),
                ("Reyes", "B-SURNAME", 0.9),
            ],
            "Dana Reyes",
        ),
        (
            "i’m tom baker",
            vec![
                ("m", "I-GIVEN_NAME", 0.6),
                ("tom", "B-GIVEN_NAME", 0.9),
                ("baker", "B-SURNAME", 0.9),
            ],
            "tom baker",
        ),
        // Tagged from the `I`: the whole contraction is left out.
        (
            "I'm Priya",
            vec![
                ("I", "B-GIVEN_NAME", 0.7),
                ("m", "I-GIVEN_NAME", 0.7),
                ("Priya", "B-GIVEN_NAME", 0.9),
            ],
            "Priya",
        ),
        (
            "I'm Amanda's daughter",
            vec![
                ("m", "B-GIVEN_NAME", 0.6),
                ("Amanda", "B-GIVEN_NAME", 0.9),
                ("s", "I-GIVEN_NAME", 0.6),
            ],
            "Amanda",
        ),
        (
            "Dana'll call you",
            vec![("Dana", "B-GIVEN_NAME", 0.9), ("ll", "I-GIVEN_NAME", 0.6)],
            "Dana",
        ),
        // A name's own apostrophe stays.
        (
            "ask O'Neill today",
            vec![("O", "B-SURNAME", 0.9), ("Neill", "I-SURNAME", 0.9)],
            "O'Neill",
        ),
    ];
    for (text, tagged, want) in cases {
        let tags = auto(text, &tagged);
        let got: Vec<String> = spans(text, &tags)
            .into_iter()
            .filter(|(m, _)| *m == Meaning::Person)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(got, [want.to_string()], "{text}");
    }
}
