"""Turns two public test splits into the scorer's corpus format, for measuring only: they are read
from local git copies of their repositories (`fetch`), written under bench/tmp/, never committed.

- WNUT-17 test (github.com/leondz/emerging_entities_17 `emerging.test.annotated`, CC BY 4.0):
  1 287 posts from Reddit, StackExchange, Twitter and YouTube, text rebuilt from the tokens with
  single spaces. Its person names are mostly public figures, which the project's policy does not
  redact, so they are `ignore`d (not scored either way); a post with no person at all is a
  `social_post` hard negative: any finding on it is false.
- MEDDOCAN test (github.com/PlanTL-GOB-ES/SPACCC_MEDDOCAN `corpus/test/brat`, CC BY 4.0): 250
  Spanish clinical case reports with fictitious private details. Names (patients, clinicians)
  are PERSON, CALLE (street and number) ADDRESS, e-mails, phone and fax numbers, and the ID_*
  labels are scored; places, dates, hospitals, ages and the rest are `ignore`d.
- SLURP (github.com/pswietojanski/slurp `dataset/slurp/{devel,test}.jsonl`, text CC BY 4.0): spoken
  commands to a home assistant, lower case. A `person` slot in a command that reaches the user's own
  people (e-mail, calendar, lists, social, communication) is a private contact: PERSON. Persons in
  questions and recommendations (mostly actors and singers) and every other slot are `ignore`d; a
  command with no person at all is a `voice_command` hard negative. `devel` is for tuning, `test`
  is reported.

  python3 bench/eval/convert_public.py --wnut REPO --meddocan REPO [--slurp REPO] [--out bench/tmp/public]
"""

import argparse
import html
import json
import re
import subprocess
from pathlib import Path

MEDDOCAN_CLASSES = {
    "NOMBRE_SUJETO_ASISTENCIA": "PERSON", "NOMBRE_PERSONAL_SANITARIO": "PERSON", "CALLE": "ADDRESS",
    "CORREO_ELECTRONICO": "EMAIL", "NUMERO_TELEFONO": "PHONE", "NUMERO_FAX": "PHONE",
}


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], check=True,
                          capture_output=True).stdout.decode("utf-8")


def wnut(repo):
    rows, tokens = [], []
    for line in git_show(repo, "emerging.test.annotated").split("\n") + [""]:
        if line.strip():
            word, label = line.rsplit("\t", 1) if "\t" in line else (line.split()[0], line.split()[-1])
            tokens.append((html.unescape(word), label))
            continue
        if not tokens:
            continue
        text, ignore, entity = "", [], None
        for word, label in tokens:
            text += (" " if text else "")
            start = len(text)
            text += word
            kind = label[2:] if label != "O" else None
            if label.startswith("B-") or (kind and not entity):
                entity = {"label": kind, "start": start, "end": len(text)}
                ignore.append(entity)
            elif label.startswith("I-") and entity:
                entity["end"] = len(text)
            else:
                entity = None
        has_person = any(i["label"] == "person" for i in ignore)
        rows.append({"id": f"W{len(rows):04d}", "text": text, "spans": [], "ignore": ignore,
                     "hard_negative": None if has_person else "social_post"})
        tokens = []
    return rows


def meddocan(repo):
    names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD", "corpus/test/brat/"],
                           check=True, capture_output=True, text=True).stdout.split()
    rows = []
    for path in sorted(n for n in names if n.endswith(".txt")):
        text = git_show(repo, path)
        spans, ignore = [], []
        for line in git_show(repo, path[:-4] + ".ann").splitlines():
            if not line.startswith("T"):
                continue
            _, info, value = line.split("\t")
            label, start, end = info.split(" ")
            start, end = int(start), int(end)
            if text[start:end] != value:
                raise SystemExit(f"{path}: {label} {start}-{end} is {text[start:end]!r}, not {value!r}")
            cls = "ID" if label.startswith("ID_") else MEDDOCAN_CLASSES.get(label)
            (spans if cls else ignore).append({"type": cls, "start": start, "end": end} if cls
                                              else {"label": label, "start": start, "end": end})
        rows.append({"id": Path(path).stem, "text": text, "spans": spans, "ignore": ignore, "hard_negative": None})
    return rows


# SLURP scenarios whose person slots are the user's own contacts rather than public figures.
SLURP_PRIVATE_SCENARIOS = {"email", "calendar", "lists", "social", "general"}
SLURP_SLOT = re.compile(r"\[(\w+) : ([^\]]*)\]")
POSSESSIVE = re.compile(r"['\u2019]s?$")


def slurp(repo, split):
    rows = []
    for line in git_show(repo, f"dataset/slurp/{split}.jsonl").splitlines():
        record = json.loads(line)
        annotated, text, spans, ignore, at = record["sentence_annotation"], "", [], [], 0
        for slot in SLURP_SLOT.finditer(annotated):
            text += annotated[at:slot.start()]
            kind, value = slot.group(1), slot.group(2)
            start = len(text)
            text += value
            end = start + len(POSSESSIVE.sub("", value)) if kind == "person" else len(text)
            at = slot.end()
            if kind == "person" and record["scenario"] in SLURP_PRIVATE_SCENARIOS:
                spans.append({"type": "PERSON", "start": start, "end": end})
            else:
                ignore.append({"label": kind, "start": start, "end": end})
        text += annotated[at:]
        has_person = spans or any(i["label"] == "person" for i in ignore)
        rows.append({"id": f"S{record['slurp_id']}", "text": text, "spans": spans, "ignore": ignore,
                     "hard_negative": None if has_person else "voice_command"})
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wnut", required=True)
    parser.add_argument("--meddocan", required=True)
    parser.add_argument("--slurp", help="SLURP repository: adds slurp-devel (tuning) and slurp-test")
    parser.add_argument("--out", default="bench/tmp/public")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    corpora = [("wnut17-test", wnut(args.wnut)), ("meddocan-test", meddocan(args.meddocan))]
    if args.slurp:
        corpora += [("slurp-devel", slurp(args.slurp, "devel")), ("slurp-test", slurp(args.slurp, "test"))]
    for stem, rows in corpora:
        with open(out / f"{stem}.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{stem}: {len(rows)} records, {sum(len(r['spans']) for r in rows)} scored spans, "
              f"{sum(1 for r in rows if r['hard_negative'])} hard negatives")


if __name__ == "__main__":
    main()
