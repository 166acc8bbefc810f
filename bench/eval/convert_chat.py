"""Corpus B: hand-written chat messages, written with inline markup, converted to exact offsets.

Markup (tests/data/eval/chat.tune.txt and holdout/chat.holdout.txt):
- `>> text` starts a message; `>>neg CLASS: text` starts a hard negative of that class; the
  lines after it, up to the next `>>`, continue the message (forms, logs, code).
- `## ...` lines are comments (no message has a line starting so).
- `⟦TYPE:value⟧` marks a labeled value: P (PERSON), A (ADDRESS), E (EMAIL), T (PHONE),
  CC (CREDIT_CARD), IBAN, SSN (US_SSN), IP (IP_ADDRESS), ID (any national id, tax, passport,
  licence or account number); `⟦~:value⟧` is an `ignore` span (a city alone, an employer).
- In a CC value `?` is replaced by the Luhn check digit; in an IBAN `??` by its mod-97 check
  digits: the numbers are written by hand, the checksums computed here.

The converter reads every markup file given (or both defaults), splits the messages by the hash
of their text and rewrites both markup files and both JSONL files, so each message lives on one
side only.

  python3 bench/eval/convert_chat.py [MARKUP ...]
"""

import re
import sys

from split import EVAL_DIR, after_label, is_holdout, write_split

TYPES = {"P": "PERSON", "A": "ADDRESS", "E": "EMAIL", "T": "PHONE", "CC": "CREDIT_CARD",
         "IBAN": "IBAN", "SSN": "US_SSN", "IP": "IP_ADDRESS", "ID": "ID", "~": None}
MARK = re.compile(r"⟦([A-Z~]+):(.*?)⟧", re.S)
SOURCES = [EVAL_DIR / "chat.tune.txt", EVAL_DIR / "holdout" / "chat.holdout.txt"]


def luhn_digit(digits):
    total = 0
    for i, d in enumerate(reversed(digits)):
        d = int(d)
        if i % 2 == 0:  # doubled, counting from the digit left of the check digit
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def fill_card(value):
    if "?" not in value:
        return value
    digits = re.sub(r"\D", "", value.replace("?", ""))
    return value.replace("?", luhn_digit(digits))


def fill_iban(value):
    if "??" not in value:
        return value
    compact = re.sub(r"\s", "", value)
    rearranged = compact[4:] + compact[:2] + "00"
    number = int("".join(str(int(c, 36)) for c in rearranged))
    return value.replace("??", f"{98 - number % 97:02d}", 1)


def parse_markup(path):
    """Yields (header, raw message) pairs; header is None or the hard-negative class."""
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(">>"):
            if current:
                yield current
            m = re.match(r">>neg ([a-z_]+): ?(.*)", line)
            current = (m.group(1), [m.group(2)]) if m else (None, [line[2:].lstrip(" ")])
        elif line.startswith("## "):
            continue
        elif current:
            current[1].append(line)
    if current:
        yield current


def convert(negative, raw, index):
    text, spans, ignore, pos = "", [], [], 0
    for m in MARK.finditer(raw):
        text += raw[pos:m.start()]
        kind, value = m.group(1), m.group(2)
        if kind not in TYPES:
            raise ValueError(f"unknown type {kind} in {raw!r}")
        cls = TYPES[kind]
        value = fill_card(value) if cls == "CREDIT_CARD" else fill_iban(value) if cls == "IBAN" else value
        start = len(text)
        text += value
        if cls is None:
            ignore.append({"label": "OTHER", "start": start, "end": len(text)})
        else:
            span = {"type": cls, "start": start, "end": len(text)}
            if cls in ("ID", "US_SSN") and after_label(text, start):
                span["after_label"] = True
            spans.append(span)
        pos = m.end()
    text += raw[pos:]
    if "⟦" in text or "⟧" in text:
        raise ValueError(f"unbalanced markup in {raw!r}")
    if negative and spans:
        raise ValueError(f"hard negative with labeled values: {raw!r}")
    return {"id": f"B{index:04d}", "text": text, "spans": spans, "ignore": ignore,
            "hard_negative": negative, "split_key": text}


def main():
    paths = [p for p in map(__import__("pathlib").Path, sys.argv[1:])] or [p for p in SOURCES if p.exists()]
    messages = []
    for path in paths:
        for negative, lines in parse_markup(path):
            raw = "\n".join(lines).strip("\n")
            if raw:
                messages.append((negative, raw))
    records, sides = [], {False: [], True: []}
    seen = set()
    for negative, raw in messages:
        record = convert(negative, raw, len(records))
        if record["text"] in seen:
            raise ValueError(f"duplicate message {record['text']!r}")
        seen.add(record["text"])
        records.append(record)
        header = f">>neg {negative}: " if negative else ">> "
        sides[is_holdout(record["text"])].append(header + raw)
    # Stable ids: number the messages per side in markup order, B0… tune and BH… holdout.
    counters = {False: 0, True: 0}
    for r in records:
        side = is_holdout(r["text"])
        r["id"] = ("BH" if side else "B") + f"{counters[side]:04d}"
        counters[side] += 1
    for side, path in [(False, SOURCES[0]), (True, SOURCES[1])]:
        note = ("## Corpus B, holdout split: DO NOT LOOK AT WHILE TUNING (see README.md).\n"
                if side else "## Corpus B, tune split (see ../README.md and bench/eval/convert_chat.py).\n")
        path.write_text(note + "\n".join(sides[side]) + "\n", encoding="utf-8")
    print(write_split("chat", records), file=sys.stderr)


if __name__ == "__main__":
    main()
