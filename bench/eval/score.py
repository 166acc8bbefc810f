"""Scores one system's findings against one labeled corpus, the same way for every system.

Corpus lines: {"id", "text", "spans": [{"type", "start", "end", "after_label"?}],
"ignore": [{"label", "start", "end"}], "hard_negative": CLASS | null}.
Findings lines: {"id", "findings": [{"type", "start", "end", "source"?}]}.
All offsets are Unicode code points into "text" (Python string indices).

Rules:
- A gold span is found when >= 90 % of its characters are covered by findings of a compatible
  class (labels.compatible). "Leaked" means less than 90 % covered by findings of any class.
- A finding of a scored class is correct when it overlaps a gold span of a compatible class; it
  is not counted when it overlaps only an `ignore` span (a city, a date, an organisation the
  corpus labels but nobody scores); otherwise it is a false finding.
- On a hard negative every finding counts as false (after dropping labels.IGNORED_FINDINGS).
- Meaning: a PERSON finding has a broken edge when it starts or ends inside a word, takes the
  letter of a contraction ("I'm" -> "m Dana"), or ends on a possessive or an apostrophe. A
  message over-counts people when the findings on its gold names name more people than the gold
  does: findings are told apart by their placeholder (a system without numbered placeholders, by
  the exact value, as a numbering anonymizer would), gold names are one person when their words
  match once case and possessives are set aside, or when one word of a full name stands alone.

  python3 bench/eval/score.py CORPUS.jsonl FINDINGS.jsonl [--show]   # --show lists the errors
"""

import json
import sys
from collections import Counter, defaultdict

from labels import IGNORED_FINDINGS, SCORED, STRUCTURED, compatible, to_class

COVERED_ENOUGH = 0.9
APOSTROPHES = "'\u2019"
# The words a contraction or a possessive adds after an apostrophe (English).
CLITICS = {"m", "s", "re", "ll", "d", "ve", "t"}


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def covered(span, findings):
    """Share of the span's characters inside any of the findings."""
    chars = set()
    for f in findings:
        chars.update(range(max(span["start"], f["start"]), min(span["end"], f["end"])))
    return len(chars) / max(1, span["end"] - span["start"])


def overlaps(a, b):
    return a["start"] < b["end"] and b["start"] < a["end"]


def is_lower_case_name(text, span):
    value = text[span["start"]:span["end"]]
    return span["type"] == "PERSON" and value == value.lower() and value != value.upper()


def broken_edge(text, start, end):
    """Why the PERSON value text[start:end] is not a whole-word name, or None."""
    value = text[start:end]
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if before.isalnum():
        return "starts inside a word"
    if after.isalnum():
        return "ends inside a word"
    first_word = ""
    for c in value:
        if not c.isalnum():
            break
        first_word += c
    if before and before in APOSTROPHES and start > 1 and text[start - 2].isalnum() \
            and first_word.lower() in CLITICS:
        return "starts with a contraction's letter"
    if value and value[-1] in APOSTROPHES:
        return "ends on an apostrophe"
    lower = value.lower()
    if any(lower.endswith(a + c) for a in APOSTROPHES for c in CLITICS):
        return "ends with a contraction or a possessive"
    return None


def name_words(value):
    words = []
    for w in value.lower().split():
        w = w.strip(".,;:!?\"()")
        for a in APOSTROPHES:
            w = w[:-2] if w.endswith(a + "s") else w.rstrip(a)
        if w:
            words.append(w)
    return tuple(words)


def people(values):
    """How many people a message's gold names are (see the module's rules)."""
    forms = sorted({name_words(v) for v in values if name_words(v)}, key=len, reverse=True)
    groups = []  # each a set of full forms
    for f in forms:
        for g in groups:
            if f in g or (len(f) == 1 and any(f[0] in full for full in g)):
                g.add(f)
                break
        else:
            groups.append({f})
    return len(groups)


def score(corpus, findings_by_id, show=False):
    gold = Counter()
    found = Counter()
    predicted = Counter()
    correct = Counter()
    lower = [0, 0]  # found, total
    after_label = [0, 0]  # leaked, total
    negatives = Counter()  # messages per hard-negative class
    false_on_negatives = Counter()  # findings per hard-negative class
    errors = []  # (kind, class, value, context) for --show
    broken = 0
    with_people = 0
    over_counted = 0
    for row in corpus:
        text = row["text"]
        raw = findings_by_id.get(row["id"], [])
        found_here = []
        for f in raw:
            cls = to_class(f["type"])
            if cls not in IGNORED_FINDINGS:
                found_here.append({**f, "cls": cls})
        for f in found_here:
            if f["cls"] == "PERSON":
                why = broken_edge(text, f["start"], f["end"])
                if why:
                    broken += 1
                    errors.append(("broken edge", why, text[f["start"]:f["end"]], text))
        gold_people = [s for s in row["spans"] if s["type"] == "PERSON"]
        if gold_people:
            with_people += 1
            told = {f.get("placeholder") or text[f["start"]:f["end"]]
                    for f in found_here if f["cls"] == "PERSON"
                    and any(overlaps(f, s) for s in gold_people)}
            if len(told) > people(text[s["start"]:s["end"]] for s in gold_people):
                over_counted += 1
                errors.append(("people over-counted", "PERSON", ", ".join(sorted(told)), text))
        if row.get("hard_negative"):
            negatives[row["hard_negative"]] += 1
            false_on_negatives[row["hard_negative"]] += len(found_here)
            for f in found_here:
                errors.append(("false on negative", f"{row['hard_negative']}/{f['cls']}",
                               text[f["start"]:f["end"]], text))
            continue
        for span in row["spans"]:
            cls = span["type"]
            gold[cls] += 1
            hit = covered(span, [f for f in found_here if compatible(cls, f["cls"])]) >= COVERED_ENOUGH
            found[cls] += hit
            if not hit:
                errors.append(("missed", cls, text[span["start"]:span["end"]], text))
            if is_lower_case_name(text, span):
                lower[0] += hit
                lower[1] += 1
            if span.get("after_label"):
                after_label[1] += 1
                after_label[0] += covered(span, found_here) < COVERED_ENOUGH
        for f in found_here:
            if f["cls"] not in SCORED:
                continue
            right = any(compatible(s["type"], f["cls"]) and overlaps(s, f) for s in row["spans"])
            if not right and any(overlaps(i, f) for i in row.get("ignore", [])):
                continue
            predicted[f["cls"]] += 1
            correct[f["cls"]] += right
            if not right:
                errors.append(("false finding", f["cls"], text[f["start"]:f["end"]], text))
    n_neg = sum(negatives.values())
    result = {
        "messages": len(corpus),
        "recall": {c: [found[c], gold[c]] for c in SCORED if gold[c]},
        "precision": {c: [correct[c], predicted[c]] for c in SCORED if predicted[c]},
        "structured": [sum(found[c] for c in STRUCTURED), sum(gold[c] for c in STRUCTURED)],
        "all": [sum(found.values()), sum(gold.values())],
        "all_precision": [sum(correct.values()), sum(predicted.values())],
        "lower_case_names": lower,
        "after_label_leaked": after_label,
        "hard_negatives": n_neg,
        "false_on_negatives": sum(false_on_negatives.values()),
        "negatives_by_class": {k: [false_on_negatives[k], negatives[k]] for k in sorted(negatives)},
        "broken_edges": broken,
        "people_over_counted": [over_counted, with_people],
    }
    if show:
        by_kind = defaultdict(list)
        for kind, cls, value, context in errors:
            by_kind[(kind, cls)].append((value, context))
        for (kind, cls), items in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
            print(f"## {kind} {cls}: {len(items)}")
            for value, context in items:
                print(f"  {value!r}\t| {context[:160]!r}")
    return result


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    corpus = read_jsonl(args[0])
    findings = {r["id"]: r["findings"] for r in read_jsonl(args[1])}
    result = score(corpus, findings, show="--show" in sys.argv)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
