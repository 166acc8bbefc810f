"""Deterministic tune/holdout split and the writing of corpus files, shared by the converters.

A record goes to holdout when the SHA-256 of its split key falls in the lowest 30 %. The key is
the text itself for hand-written messages, and the template for generated sentences, so that
sentences from one template never sit on both sides.
"""

import hashlib
import json
import re
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "eval"
HOLDOUT_SHARE = 30  # percent

# An identifier stated after its label ("my SSN is", "BSN:", "passport no."): such spans are
# marked `after_label`, the class the goal "IDs stated after their label: none leak" is about.
ID_CUE = re.compile(
    r"(ssn|social|social insurance|\bsin\b|national insurance|\bnino\b|tax (id|number|code)|"
    r"\btin\b|\bbsn\b|burgerservicenummer|passport|id (number|no|card)|\bid\b|identity|licen[cs]e|"
    r"personnummer|henkilötunnus|hetu|\bdni\b|\bnie\b|\bnif\b|codice fiscale|pesel|aadhaar|\bpan\b|"
    r"steuer-?id|steueridentifikationsnummer|\bcpr\b|fødselsnummer|\bnhs\b|medicare|\babn\b|\btfn\b|"
    r"\bnric\b|\brrn\b|\bcurp\b|\brfc\b|\bcpf\b|numéro de sécurité sociale|\bnir\b|\bitin\b|"
    r"\bird\b|\brut\b|routing|account (number|no))",
    re.IGNORECASE,
)


def after_label(text, start, window=40):
    return bool(ID_CUE.search(text[max(0, start - window):start]))


def is_holdout(key: str) -> bool:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100 < HOLDOUT_SHARE


def write_split(name: str, records: list[dict]) -> dict:
    """Writes <name>.tune.jsonl and holdout/<name>.holdout.jsonl; returns counts for the README.
    Each record carries a `split_key`, dropped from the written line."""
    tune, holdout = [], []
    for r in records:
        (holdout if is_holdout(r.pop("split_key")) else tune).append(r)
    (EVAL_DIR / "holdout").mkdir(parents=True, exist_ok=True)
    for path, rows in [(EVAL_DIR / f"{name}.tune.jsonl", tune),
                       (EVAL_DIR / "holdout" / f"{name}.holdout.jsonl", holdout)]:
        with open(path, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return {"tune": counts(tune), "holdout": counts(holdout)}


def counts(rows):
    spans = {}
    for r in rows:
        for s in r["spans"]:
            spans[s["type"]] = spans.get(s["type"], 0) + 1
    return {
        "messages": len(rows),
        "with_pii": sum(1 for r in rows if r["spans"]),
        "hard_negatives": sum(1 for r in rows if r.get("hard_negative")),
        "spans": dict(sorted(spans.items())),
    }
