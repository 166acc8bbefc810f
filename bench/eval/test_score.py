"""Checks of the scoring rules and the chat converter that every figure in the table rests on.

  python3 -m unittest discover -s bench/eval     # (make eval runs it first)
"""

import tempfile
import unittest
from pathlib import Path

from convert_chat import convert, fill_card, fill_iban, parse_markup
from score import broken_edge, people, score


def corpus_row(text, spans, ignore=(), negative=None):
    return {"id": "x", "text": text, "spans": list(spans), "ignore": list(ignore),
            "hard_negative": negative}


class MeaningRules(unittest.TestCase):
    def test_a_name_that_takes_a_contraction_or_half_a_word_has_a_broken_edge(self):
        text = "Hi, I'm Dana Reyes. I'm Amanda's son. Ask O'Brien."
        def at(value):
            i = text.index(value)
            return broken_edge(text, i, i + len(value))
        self.assertEqual(at("m Dana Reyes"), "starts with a contraction's letter")
        self.assertEqual(at("Amanda's"), "ends with a contraction or a possessive")
        self.assertEqual(at("ana Reyes"), "starts inside a word")
        self.assertIsNone(at("Dana Reyes"))
        self.assertIsNone(at("Amanda"))
        self.assertIsNone(at("O'Brien"))

    def test_forms_of_one_name_are_one_person(self):
        self.assertEqual(people(["Priya Natarajan", "Priya", "PRIYA NATARAJAN", "Natarajan's"]), 1)
        self.assertEqual(people(["Tom Baker", "Tom Hill"]), 2)

    def test_a_message_over_counts_when_one_person_gets_two_placeholders(self):
        text = "Priya Natarajan called; tell Priya hi"
        row = corpus_row(text, [{"type": "PERSON", "start": 0, "end": 15},
                                {"type": "PERSON", "start": 29, "end": 34}])
        two = [{"type": "PERSON", "start": 0, "end": 15, "placeholder": "[PERSON_1]"},
               {"type": "PERSON", "start": 29, "end": 34, "placeholder": "[PERSON_2]"}]
        one = [dict(f, placeholder="[PERSON_1]") for f in two]
        self.assertEqual(score([row], {"x": two})["people_over_counted"], [1, 1])
        self.assertEqual(score([row], {"x": one})["people_over_counted"], [0, 1])
        # Without placeholders, distinct values are distinct people.
        bare = [{k: v for k, v in f.items() if k != "placeholder"} for f in two]
        self.assertEqual(score([row], {"x": bare})["people_over_counted"], [1, 1])


class CoverageRule(unittest.TestCase):
    def test_a_value_is_found_at_ninety_percent_of_its_characters(self):
        text = "call 0123456789 now"
        row = corpus_row(text, [{"type": "PHONE", "start": 5, "end": 15}])
        nine_of_ten = score([row], {"x": [{"type": "PHONE", "start": 5, "end": 14}]})
        eight_of_ten = score([row], {"x": [{"type": "PHONE", "start": 5, "end": 13}]})
        self.assertEqual(nine_of_ten["recall"]["PHONE"], [1, 1])
        self.assertEqual(eight_of_ten["recall"]["PHONE"], [0, 1])

    def test_a_finding_of_another_class_does_not_find_but_still_stops_a_leak(self):
        text = "my BSN is 123456782"
        row = corpus_row(text, [{"type": "ID", "start": 10, "end": 19, "after_label": True}])
        result = score([row], {"x": [{"type": "PHONE", "start": 10, "end": 19}]})
        self.assertEqual(result["recall"]["ID"], [0, 1])
        self.assertEqual(result["after_label_leaked"], [0, 1])
        self.assertEqual(result["precision"]["PHONE"], [0, 1])

    def test_national_id_types_and_ssn_are_compatible(self):
        text = "ssn 123-45-6789"
        row = corpus_row(text, [{"type": "US_SSN", "start": 4, "end": 15}])
        result = score([row], {"x": [{"type": "US_ITIN", "start": 4, "end": 15}]})
        self.assertEqual(result["recall"]["US_SSN"], [1, 1])


class Precision(unittest.TestCase):
    def test_a_finding_on_an_ignore_span_is_not_counted(self):
        text = "I live in Lisbon"
        row = corpus_row(text, [], ignore=[{"label": "GPE", "start": 10, "end": 16}])
        result = score([row], {"x": [{"type": "LOCATION", "start": 10, "end": 16}]})
        self.assertEqual(result["all_precision"], [0, 0])

    def test_every_finding_on_a_hard_negative_is_false(self):
        row = corpus_row("Is a Ford Focus cheap?", [], negative="brand")
        result = score([row], {"x": [{"type": "PERSON", "start": 5, "end": 9},
                                     {"type": "DATE_TIME", "start": 0, "end": 2}]})
        self.assertEqual(result["false_on_negatives"], 1)  # DATE_TIME is dropped
        self.assertEqual(result["negatives_by_class"], {"brand": [1, 1]})


class ChatMarkup(unittest.TestCase):
    def test_offsets_point_at_the_marked_values(self):
        r = convert(None, "hi ⟦P:zoë⟧, mail ⟦E:z@x.io⟧", 0)
        self.assertEqual(r["text"], "hi zoë, mail z@x.io")
        self.assertEqual([r["text"][s["start"]:s["end"]] for s in r["spans"]], ["zoë", "z@x.io"])

    def test_check_digits_are_computed(self):
        self.assertEqual(fill_card("4539 1488 0343 646?"), "4539 1488 0343 6467")
        self.assertEqual(fill_iban("GB?? NWBK 6016 1331 9268 19"), "GB29 NWBK 6016 1331 9268 19")

    def test_comments_and_headers_stay_out_of_messages(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "m.txt"
            path.write_text(">> first line\nsecond line\n## a comment\n>>neg brand: Ford\n")
            self.assertEqual(list(parse_markup(path)),
                             [(None, ["first line", "second line"]), ("brand", ["Ford"])])

    def test_a_hard_negative_cannot_carry_values(self):
        with self.assertRaises(ValueError):
            convert("brand", "⟦P:Ford⟧", 0)


if __name__ == "__main__":
    unittest.main()
