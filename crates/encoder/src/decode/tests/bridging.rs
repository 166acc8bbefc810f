//! Tests of the decoding rules that bridge what the model left out: unit lines, words
//! between address parts, street numbers, initials, particles and titles (`decode/bridge.rs`).

use super::*;

#[test]
fn a_unit_line_the_model_left_out_joins_the_address_around_it() {
    let text = "sent to 588 Beerzerweg 176 Suite 704, SCHMIEDEN, Austria. Thanks";
    let tags = auto(
        text,
        &[
            ("588", "B-BUILDING_NUMBER", 0.75),
            ("Beerzerweg", "B-STREET_NAME", 1.0),
            ("176", "I-STREET_NAME", 0.99),
            ("SCHMIEDEN", "B-CITY", 1.0),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(
            Meaning::Address,
            "588 Beerzerweg 176 Suite 704, SCHMIEDEN, Austria".into()
        )]
    );
    // A designator without a number is a word, not a unit line.
    let text = "588 Beerzerweg 176 suite upgrade, SCHMIEDEN";
    let tags = auto(
        text,
        &[
            ("588", "B-BUILDING_NUMBER", 0.75),
            ("Beerzerweg", "B-STREET_NAME", 1.0),
            ("176", "I-STREET_NAME", 0.99),
            ("SCHMIEDEN", "B-CITY", 1.0),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "588 Beerzerweg 176".into())]
    );
}

#[test]
fn up_to_two_part_like_words_bridge_two_address_parts() {
    let text = "to 5037 Oakridge Lane Dallas United States 31174?";
    let tags = auto(
        text,
        &[
            ("5037", "B-BUILDING_NUMBER", 0.9),
            ("Oakridge", "B-STREET_NAME", 1.0),
            ("Lane", "I-STREET_NAME", 1.0),
            ("Dallas", "B-CITY", 0.89),
            ("31174", "B-ZIP_CODE", 0.98),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(
            Meaning::Address,
            "5037 Oakridge Lane Dallas United States 31174".into()
        )]
    );
    // Three words, or a word that is not like a part, keep the parts apart.
    let text = "5037 Oakridge Lane and then later 31174";
    let tags = auto(
        text,
        &[
            ("5037", "B-BUILDING_NUMBER", 0.9),
            ("Oakridge", "B-STREET_NAME", 1.0),
            ("Lane", "I-STREET_NAME", 1.0),
            ("31174", "B-ZIP_CODE", 0.98),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "5037 Oakridge Lane".into())]
    );
}

#[test]
fn a_short_number_labeled_as_an_id_inside_an_address_line_is_the_unit() {
    let text = "to 84251 Hadikgasse 49 Apt. 542 KÖTTMANNSDORF, phone 0660 1234567";
    let tags = auto(
        text,
        &[
            ("84251", "B-ZIP_CODE", 1.0),
            ("Hadikgasse", "B-STREET_NAME", 1.0),
            ("49", "B-BUILDING_NUMBER", 1.0),
            ("Apt", "B-SECONDARY_ADDRESS", 0.73),
            (".", "B-DRIVERS_LICENSE", 0.98),
            ("542", "I-DRIVERS_LICENSE", 0.82),
            ("KÖTTMANNSDORF", "B-CITY", 1.0),
            ("0660", "B-PHONE", 0.99),
            ("1234567", "I-PHONE", 0.99),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (
                Meaning::Address,
                "84251 Hadikgasse 49 Apt. 542 KÖTTMANNSDORF".into()
            ),
            (Meaning::Phone, "0660 1234567".into())
        ]
    );
}

#[test]
fn initials_and_particles_stay_inside_a_name() {
    let text = "Juan G. Lopez met Gijsbrecht van Hecke and Hanna J. Ukkonen";
    let tags = auto(
        text,
        &[
            ("Juan", "B-GIVEN_NAME", 0.9),
            ("Lopez", "B-SURNAME", 0.9),
            ("Gijsbrecht", "B-GIVEN_NAME", 0.9),
            ("Hecke", "B-SURNAME", 0.9),
            ("Hanna", "B-GIVEN_NAME", 0.98),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "Juan G. Lopez".into()),
            (Meaning::Person, "Gijsbrecht van Hecke".into()),
            (Meaning::Person, "Hanna J. Ukkonen".into())
        ]
    );
    // A lower-case word that is no particle, or a surname then an initial, ends the name.
    let text = "Anna and Lopez, Lopez J. Smith";
    let tags = auto(
        text,
        &[("Anna", "B-GIVEN_NAME", 0.9), ("Lopez", "B-SURNAME", 0.9)],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "Anna".into()),
            (Meaning::Person, "Lopez".into()),
            (Meaning::Person, "Lopez".into())
        ]
    );
}

#[test]
fn titles_and_post_nominals_are_redacted_with_the_name() {
    let text = "called Mrs. Gracie Marsh MD and Dr Okafor, not Doctor Who";
    let tags = auto(
        text,
        &[
            ("Gracie", "B-GIVEN_NAME", 0.9),
            ("Marsh", "B-SURNAME", 0.9),
            ("Okafor", "B-SURNAME", 0.9),
            ("Who", "B-SURNAME", 0.9),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "Mrs. Gracie Marsh MD".into()),
            (Meaning::Person, "Dr Okafor".into()),
            (Meaning::Person, "Who".into())
        ]
    );
}

#[test]
fn an_address_starts_at_its_unit_line_or_the_corner_it_names() {
    let text = "Ms. Ray Apt. 918 61990 Violvägen 64";
    let tags = auto(
        text,
        &[
            ("61990", "B-ZIP_CODE", 0.9),
            ("Violvägen", "B-STREET_NAME", 1.0),
            ("64", "B-BUILDING_NUMBER", 1.0),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "Apt. 918 61990 Violvägen 64".into())]
    );
    let text = "I live at the corner of 48 rue Descartes and Bergström Plains.";
    let tags = auto(
        text,
        &[
            ("48", "B-BUILDING_NUMBER", 1.0),
            ("rue", "B-STREET_NAME", 1.0),
            ("Descartes", "I-STREET_NAME", 1.0),
            ("Bergström", "B-STREET_NAME", 0.7),
            ("Plains", "I-STREET_NAME", 0.7),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(
            Meaning::Address,
            "the corner of 48 rue Descartes and Bergström Plains".into()
        )]
    );
}

#[test]
fn address_lines_join_across_bullets_and_take_their_street_number() {
    let text = "}} Ulla Berg\n}} 573 Laukaantie 80\n}} Suite 609\n}} KOKKOLA\n\nthanks";
    let tags = auto(
        text,
        &[
            ("573", "B-BUILDING_NUMBER", 0.9),
            ("Laukaantie", "B-STREET_NAME", 0.95),
            ("KOKKOLA", "B-CITY", 0.9),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(
            Meaning::Address,
            "573 Laukaantie 80\n}} Suite 609\n}} KOKKOLA".into()
        )]
    );
    // A lower-case word the model calls a unit does not take the number after it.
    let text = "the card shows error 51 today";
    let tags = auto(text, &[("error", "B-SECONDARY_ADDRESS", 0.57)]);
    assert_eq!(spans(text, &tags), [(Meaning::Address, "error".into())]);
}

#[test]
fn an_abbreviated_street_kind_before_and_a_country_after_belong_to_the_address() {
    let text = "office at ul. Zakrzowska 92, Wrocław Poland. Call us";
    let tags = auto(
        text,
        &[
            ("Zakrzowska", "B-STREET_NAME", 0.65),
            ("92", "B-BUILDING_NUMBER", 0.7),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "ul. Zakrzowska 92, Wrocław Poland".into())]
    );
    // No country after the city: the span ends where the model's parts end.
    let text = "office at ul. Zakrzowska 92, Wrocław Office Hours";
    let tags = auto(
        text,
        &[
            ("Zakrzowska", "B-STREET_NAME", 0.65),
            ("92", "B-BUILDING_NUMBER", 0.7),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [(Meaning::Address, "ul. Zakrzowska 92".into())]
    );
}

#[test]
fn an_initial_before_a_found_surname_or_after_a_given_name_is_part_of_the_name() {
    let text = "James M. Sparks wrote, M. de Vries holds it, review from Harold B.: bad";
    let tags = auto(
        text,
        &[
            ("Sparks", "B-SURNAME", 0.9),
            ("de", "B-SURNAME", 0.8),
            ("Vries", "I-SURNAME", 0.9),
            ("Harold", "B-GIVEN_NAME", 0.74),
        ],
    );
    assert_eq!(
        spans(text, &tags),
        [
            (Meaning::Person, "James M. Sparks".into()),
            (Meaning::Person, "M. de Vries".into()),
            (Meaning::Person, "Harold B.".into())
        ]
    );
    // A sentence's last word is not an initial; its period stays outside.
    let text = "I met Harold. Then";
    let tags = auto(text, &[("Harold", "B-GIVEN_NAME", 0.9)]);
    assert_eq!(spans(text, &tags), [(Meaning::Person, "Harold".into())]);
}
