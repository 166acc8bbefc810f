"""Corpus A: template sentences from presidio-evaluator's own generator, run with a fixed seed,
converted to our corpus format (see tests/data/eval/README.md).

Conversion:
- 5 % of sentences are lower-cased, as the generator means to (see `convert`);
- the templates write line breaks as the two characters backslash-n; they become real newlines
  (offsets shifted accordingly), as a pasted address would arrive;
- address parts (street, building number, unit, postcode, and the cities and countries between
  them) that follow each other with only separators between are one ADDRESS, from its first
  street part to its last; a city or country left outside that range is an `ignore` span;
- PERSON, PHONE_NUMBER, EMAIL_ADDRESS, CREDIT_CARD, IBAN_CODE, US_SSN, IP_ADDRESS and
  US_DRIVER_LICENSE are gold spans (mapped by labels.to_class); every other label (GPE,
  ORGANIZATION, DATE_TIME, TITLE, NRP, AGE, DOMAIN_NAME, ZIP_CODE) is an `ignore` span.

  bench/tmp/venv/bin/python bench/eval/gen_presidio_templates.py   # writes tests/data/eval/

A dev set for tuning, larger than the tune split and never touching a holdout template: the same
generator with another seed, keeping only sentences whose template is on the tune side
(`is_holdout` of its split key false). Written where it is asked for, never committed:

  bench/tmp/venv/bin/python bench/eval/gen_presidio_templates.py --dev bench/tmp/a-dev.jsonl \
      [--seed 7] [--samples 6000]
"""

import argparse
import datetime
import json
import random
import re
import sys

import faker.providers.date_time as faker_dates
import numpy

from presidio_evaluator.data_generator import PresidioSentenceFaker
from presidio_evaluator.data_generator.faker_extensions import HospitalProvider

from labels import SCORED, to_class
from split import after_label, is_holdout, write_split

SEED = 42
SAMPLES = 1500
LOWER_CASE_RATIO = 0.05  # the generator's documented default: 5 % of names in lower case
ADDRESS_PARTS = {"STREET_ADDRESS", "GPE", "ZIP_CODE"}
SEPARATORS = re.compile(r"^[\s,.;:/\-]*$")

# Faker dates up to "now": fix the clock, so a rerun writes the same file byte for byte.
class _FixedClock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 12, 1, 12, 0, 0, tzinfo=tz)


faker_dates.datetime = _FixedClock

# The hospital provider asks WikiData for names and falls back to a built-in list when offline;
# use that list directly so the run never leaves the machine (no template uses hospitals).
HospitalProvider.load_wiki_hospitals = lambda self: self.default_list


def unescape_newlines(text, spans):
    """Replaces literal backslash-n with a newline, moving span offsets left to match."""
    cuts = [m.start() for m in re.finditer(r"\\n", text)]

    def shift(i):
        return i - sum(1 for c in cuts if c < i)

    return text.replace("\\n", "\n"), [(t, shift(s), shift(e)) for t, s, e in spans]


def merge_addresses(text, parts):
    """Groups address parts into runs; returns (gold ADDRESS spans, left-over ignore spans)."""
    gold, ignore = [], []
    runs = []
    for p in sorted(parts, key=lambda p: p[1]):
        if runs and SEPARATORS.match(text[runs[-1][-1][2]:p[1]]):
            runs[-1].append(p)
        else:
            runs.append([p])
    for run in runs:
        street = [p for p in run if p[0] == "STREET_ADDRESS"]
        if not street:
            ignore += run
            continue
        start, end = street[0][1], street[-1][2]
        gold.append(("ADDRESS", start, end))
        ignore += [p for p in run if p[2] <= start or p[1] >= end]
    return gold, ignore


def convert(sample, index):
    spans = [(s.entity_type, s.start_position, s.end_position) for s in sample.spans]
    text = sample.full_text
    # The generator lower-cases 5 % of sentences, but 0.3.2 stores the lowered text in `fake`,
    # which `full_text` ignores; take it when lowering kept every offset.
    lowered = getattr(sample, "fake", None)
    if isinstance(lowered, str) and len(lowered) == len(text):
        text = lowered
    text, spans = unescape_newlines(text, spans)
    address_parts = [s for s in spans if s[0] in ADDRESS_PARTS]
    gold, ignore = merge_addresses(text, address_parts)
    for label, start, end in spans:
        if label in ADDRESS_PARTS:
            continue
        cls = to_class(label)
        (gold if cls in SCORED else ignore).append((cls if cls in SCORED else label, start, end))
    gold_rows = []
    for cls, start, end in sorted(gold, key=lambda s: s[1]):
        row = {"type": cls, "start": start, "end": end}
        if cls in ("ID", "US_SSN") and after_label(text, start):
            row["after_label"] = True
        gold_rows.append(row)
    return {
        "id": f"A{index:05d}",
        "text": text,
        "spans": gold_rows,
        "ignore": [{"label": t, "start": s, "end": e} for t, s, e in sorted(ignore, key=lambda s: s[1])],
        "hard_negative": None,
        "template_id": sample.template_id,
        "split_key": f"presidio-template-{sample.template_id}",
    }


def generate(seed, samples):
    # The person records get their middle initials from `random` while the generator is built,
    # before its own seeding: seed first so the whole run repeats.
    random.seed(seed)
    numpy.random.seed(seed)
    faker = PresidioSentenceFaker(locale="en_US", lower_case_ratio=LOWER_CASE_RATIO, random_seed=seed)
    return [convert(s, i) for i, s in enumerate(faker.generate_new_fake_sentences(samples))]


def write_dev(path, seed, samples):
    """Sentences of tune templates only, ids D00000…, split keys dropped."""
    kept = 0
    with open(path, "w", encoding="utf-8") as out:
        for r in generate(seed, samples):
            if is_holdout(r.pop("split_key")):
                continue
            r["id"] = "D" + r["id"][1:]
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
            kept += 1
    print(f"{path}: {kept} of {samples} sentences (tune templates)", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dev", help="write a dev set of tune-template sentences here instead")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--samples", type=int, default=6000)
    args = parser.parse_args()
    if args.dev:
        if args.seed == SEED:
            sys.exit("--dev needs a seed other than the corpus's own (42)")
        write_dev(args.dev, args.seed, args.samples)
        return
    records = generate(SEED, SAMPLES)
    for r in records:
        for s in r["spans"]:
            assert 0 <= s["start"] < s["end"] <= len(r["text"]), r
    counts = write_split("presidio-templates", records)
    print(counts, file=sys.stderr)


if __name__ == "__main__":
    main()
