#!/usr/bin/env python3
"""Turn the PII corpora (shared/corpora/pii, train splits) into word-piece token labels in
Rampart's own label set (config.json id2label), in windows of at most --max-len tokens
including [CLS] and [SEP].

Labelling convention (Rampart's, see crates/encoder/src/decode.rs): every word-piece of a word
carries the word's label, B- on the first word of an entity or of a new kind within it (given
name, then B-SURNAME) and I- on the words after it (the model puts B- on sub-tokens too). -100 = no loss on that token.

Policy (private persons, street addresses, e-mails, phones and IDs are PII; public
figures, brands, places and fictional characters are negatives):
- MEDDOCAN (Spanish clinical, fictitious private data; all of it private):
  PERSON -> GIVEN_NAME on the first word, SURNAME on the others; a span right after
  "Apellidos:", or a one-word span right after a title (Dr., Dra., Sr., Mr ...), is SURNAME.
  STREET_ADDRESS (CALLE: street + number) -> STREET_NAME up to the first word with a digit (or
  "s/n"), BUILDING_NUMBER on it, SECONDARY_ADDRESS after it ("3º B", "1D", "Bajo C").
  LOCATION: a bare postcode -> ZIP_CODE; a city/province on the same line within 40 characters
  after a street span -> CITY; any other city, province or country -> O (a place alone is a
  negative: the engine does not call a city alone an address).
  EMAIL_ADDRESS -> EMAIL, PHONE_NUMBER -> PHONE, ID (record, insurance, licence, episode numbers)
  -> GOVERNMENT_ID. DATE, ORG (hospitals, often named after people) and other_spans (age, sex,
  relatives, profession) -> O.
- TAB (ECHR judgments, English; split on blank lines into paragraphs):
  PERSON DIRECT or QUASI (applicants, relatives, lawyers, agents) -> person as above;
  PERSON NO_MASK (mostly titles or public office holders) -> -100. LOC (places and addresses
  alike, not told apart) and CODE (application numbers) -> -100. DATE, ORG, DEM, QUANTITY,
  MISC -> O.
- WNUT-17 (tweets): PERSON is mostly public figures, celebrities and fictional characters, with
  some private names among them, not told apart -> -100 by default (--wnut-person ignore), or O
  (--wnut-person negative: every annotated person name a negative). LOCATION, ORG (brands,
  bands), product and creative-work -> O: these are the brand/place negatives.
Punctuation-only words inside person and address spans (",", ".") get -100: both conventions
occur and the engine's decoder bridges them.

Output (JSON lines, one window a line): {"src", "id", "ids", "labels"}; counts on stdout.
Usage: prepare_data.py OUT.jsonl [--max-len 128] [--wnut-person ignore|negative]
"""

import argparse
import collections
import json
import os
import re
import sys

from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MODEL_DIR, load_corpus, split_paragraphs, windows  # noqa: E402

IGNORE = "IGNORE"
TRAIN = ["meddocan_train", "tab_train", "wnut17_train"]
APELLIDOS_BEFORE = re.compile(r"apellidos?\s*:?\s*$", re.I)
TITLE_BEFORE = re.compile(r"\b(dr|dra|sr|sra|mr|mrs|ms|miss|prof)\.?\s+$", re.I)
POSTCODE = re.compile(r"^\d{4,5}$")
PUNCT_WORD = re.compile(r"^[^\w]+$")


def word_spans(text, start, end):
    return [(start + m.start(), start + m.end()) for m in re.finditer(r"\S+", text[start:end])]


def person_parts(text, s):
    words = word_spans(text, s["start"], s["end"])
    before = text[max(0, s["start"] - 16):s["start"]]
    all_surname = bool(APELLIDOS_BEFORE.search(before)) or (len(words) == 1 and bool(TITLE_BEFORE.search(before)))
    return [(a, b, "SURNAME" if all_surname or i else "GIVEN_NAME") for i, (a, b) in enumerate(words)]


def street_parts(text, s):
    parts, seen_number = [], False
    for a, b in word_spans(text, s["start"], s["end"]):
        w = text[a:b]
        if seen_number:
            kind = "SECONDARY_ADDRESS"
        elif re.search(r"\d", w) or w.lower().startswith("s/n"):
            kind, seen_number = "BUILDING_NUMBER", True
        else:
            kind = "STREET_NAME"
        parts.append((a, b, kind))
    return parts


def whole(s, kind):
    return [(s["start"], s["end"], kind)]


def meddocan_parts(rec):
    text = rec["text"]
    streets = [s for s in rec["spans"] if s["type"] == "STREET_ADDRESS"]
    out = []
    for s in rec["spans"]:
        t = s["type"]
        if t == "PERSON":
            out.append(person_parts(text, s))
        elif t == "STREET_ADDRESS":
            out.append(street_parts(text, s))
        elif t == "EMAIL_ADDRESS":
            out.append(whole(s, "EMAIL"))
        elif t == "PHONE_NUMBER":
            out.append(whole(s, "PHONE"))
        elif t == "ID":
            out.append(whole(s, "GOVERNMENT_ID"))
        elif t == "LOCATION" and s["label"] == "TERRITORIO":
            if POSTCODE.match(s["value"]):
                out.append(whole(s, "ZIP_CODE"))
            elif any(0 <= s["start"] - st["end"] <= 40 and "\n" not in text[st["end"]:s["start"]] for st in streets):
                out.append([(a, b, "CITY") for a, b in word_spans(text, s["start"], s["end"])])
    return out


def tab_parts(rec):
    text = rec["text"]
    out = []
    for s in rec["spans"]:
        t, ident = s["type"], s.get("identifier_type")
        if t == "PERSON":
            out.append(person_parts(text, s) if ident in ("DIRECT", "QUASI") else whole(s, IGNORE))
        elif t in ("LOCATION", "ID"):
            out.append(whole(s, IGNORE))
    return out


def wnut_parts(rec, person):
    return [whole(s, IGNORE) for s in rec["spans"] if s["type"] == "PERSON" and person == "ignore"]


def label_tokens(text, enc, entities, label2id):
    """Per-token label ids. entities: [[(start, end, KIND)]], one list of word parts per entity."""
    char_kind = [None] * len(text)  # (kind, entity index, part index) or IGNORE
    for e, parts in enumerate(entities):
        for p, (a, b, kind) in enumerate(parts):
            for i in range(a, b):
                char_kind[i] = IGNORE if kind == IGNORE else (kind, e, p)
    labels = []
    first_part_seen = {}
    word_label = {}
    extent = {}
    for w, (a, b) in zip(enc.word_ids, enc.offsets):
        lo, hi = extent.get(w, (a, b))
        extent[w] = (min(lo, a), max(hi, b))
    for t, (w, (a, b)) in enumerate(zip(enc.word_ids, enc.offsets)):
        if w in word_label:
            labels.append(word_label[w])
            continue
        wa, wb = extent[w]  # the word's extent, all its pieces
        kinds = [char_kind[i] for i in range(wa, wb) if not text[i].isspace()]
        if any(k == IGNORE for k in kinds):
            lab = -100
        else:
            tagged = [k for k in kinds if k is not None]
            if not tagged or len(tagged) * 2 < len(kinds):
                lab = label2id["O"]
            else:
                kind, e, p = tagged[0]
                word = text[wa:wb]
                if PUNCT_WORD.match(word) and kind in ("GIVEN_NAME", "SURNAME", "STREET_NAME", "BUILDING_NUMBER",
                                                       "SECONDARY_ADDRESS", "CITY", "ZIP_CODE"):
                    lab = -100
                else:
                    # B- where an entity or a kind starts (given name then surname: B- B-)
                    prefix = "I" if first_part_seen.get(e) == kind else "B"
                    first_part_seen[e] = kind
                    lab = label2id[f"{prefix}-{kind}"]
        word_label[w] = lab
        labels.append(lab)
    return labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--max-len", type=int, default=128)
    parser.add_argument("--wnut-person", choices=["ignore", "negative"], default="ignore")
    parser.add_argument("--synth", help="synth.py's output: labelled parts ready to use")
    parser.add_argument("--skip", action="append", default=[], choices=TRAIN,
                        help="leave a corpus out (repeatable)")
    args = parser.parse_args()

    config = json.load(open(os.path.join(MODEL_DIR, "config.json")))
    label2id = config["label2id"]
    id2label = {int(k): v for k, v in config["id2label"].items()}
    tok = Tokenizer.from_file(os.path.join(MODEL_DIR, "tokenizer.json"))
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")

    counts = collections.OrderedDict()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        sources = [n for n in TRAIN if n not in args.skip] + (["synth"] if args.synth else [])
        for name in sources:
            if name == "synth":
                records = [json.loads(line) for line in open(args.synth)]
            else:
                records = load_corpus(name)
            if name.startswith("tab"):
                records = [p for r in records for p in split_paragraphs(r)]
            c = collections.Counter()
            for rec in records:
                text = rec["text"]
                if name == "synth":
                    entities = [[tuple(p) for p in e] for e in rec["entities"]]
                elif name.startswith("meddocan"):
                    entities = meddocan_parts(rec)
                elif name.startswith("tab"):
                    entities = tab_parts(rec)
                else:
                    entities = wnut_parts(rec, args.wnut_person)
                enc = tok.encode(text, add_special_tokens=False)
                labels = label_tokens(text, enc, entities, label2id)
                c["records"] += 1
                for lo, hi in windows(enc, args.max_len - 2):
                    ids = [cls_id] + enc.ids[lo:hi] + [sep_id]
                    labs = [-100] + labels[lo:hi] + [-100]
                    f.write(json.dumps({"src": name, "id": rec["id"], "ids": ids, "labels": labs}) + "\n")
                    c["windows"] += 1
                    c["tokens"] += len(ids)
                    c["windows_with_pii"] += int(any(l > 0 for l in labs))
                    for l in labs[1:-1]:
                        key = "ignored" if l == -100 else id2label[l]
                        c[f"tok:{key}"] += 1
                # entity count by the kind of its first part
                for parts in entities:
                    if parts and parts[0][2] != IGNORE:
                        c[f"ent:{parts[0][2]}"] += 1
                    elif parts:
                        c["ent:ignored"] += 1
            counts[name] = dict(sorted(c.items()))
    print(json.dumps(counts, indent=1))


if __name__ == "__main__":
    main()
