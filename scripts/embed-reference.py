#!/usr/bin/env python3
"""Reference sentence embeddings for tests/embed_reference.rs: onnxruntime runs the original
int8 ONNX all-MiniLM-L6-v2 on texts tokenized by the `tokenizers` library with the model's own
tokenizer.json, then mean pooling over every token ([CLS] and [SEP] included, as
sentence-transformers does) and L2 normalization.

Texts longer than the window (256 tokens with [CLS] and [SEP], sentence-transformers'
max_seq_length) are cut into the windows crates/encoder/src/windows.rs computes (no overlap asked: the
fewest windows of 254 text tokens, spread evenly); each window is embedded as above and the
normalized window vectors are averaged, then normalized again: the rule EmbedModel follows.

Writes PREFIX.jsonl (one {"text", "tokens"} per line) and PREFIX.f16 (the vectors, row after
row, little-endian float16: 768 bytes per text).

Usage: embed-reference.py MODEL.onnx TOKENIZER.json PREFIX
"""

import json
import os
import random
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

WINDOW = 256
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def windows(n, max_tokens, overlap=0):
    """Token ranges of crates/encoder/src/windows.rs: `windows(n, max_tokens, overlap)`."""
    width = max_tokens - 2
    if n == 0:
        return []
    if n <= width:
        return [(0, n)]
    count = -(-(n - width) // (width - overlap)) + 1
    return [(k * (n - width) // (count - 1), k * (n - width) // (count - 1) + width) for k in range(count)]


def jsonl_texts(name):
    with open(os.path.join(ROOT, "tests", "data", name), encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f if line.strip()]


def texts():
    """About 530 texts: chat turns with PII in many locales, facts and reworded questions about
    them, small talk, scripts other than Latin, edge cases, and long texts that need windows."""
    corpus = jsonl_texts("redact_corpus.jsonl")
    national = jsonl_texts("redact_national.jsonl")
    out = corpus[::25][:340] + national[::30][:100]
    facts = [
        "My favorite color is teal.", "What is my favorite color?", "Which hue do I like best?",
        "My dog's name is Biscuit.", "What do I call my puppy?", "I work at Zentrix as an engineer.",
        "Which company employs me?", "My sister lives in Reykjavik.", "In which city is my sibling based?",
        "The wifi password is kalomi.", "What's the network key for the internet here?",
        "My locker number is 4471.", "Which cubby is mine at the pool?", "My doctor's name is Dr. Okonkwo.",
        "Who is my physician?", "My car is a Volvo XC40.", "What vehicle do I drive?",
        "My favorite food is ramen.", "Which dish do I love most?", "My gym class is on Mondays.",
        "What day do I exercise?", "I moved to Porto last spring.", "Where am I based?",
        "My manager is Priya Raman.", "Who do I report to?", "I'm allergic to peanuts.",
        "Is there any food I should avoid?", "My daughter starts school in September.",
        "When does my kid begin classes?", "We are vegetarian at home.", "Do we eat meat?",
        "I prefer short answers with code examples.", "How should you format replies for me?",
        "Our product launch is planned for March 3.", "When do we ship the new release?",
        "The staging server runs Ubuntu 22.04.", "Which OS is on the test machine?",
        "I speak Portuguese and a little German.", "What languages do I know?",
        "Actually, my favorite color is crimson now.", "Update: I work at Orbitly now.",
    ]
    small_talk = [
        "I repainted the hallway, the color turned out lighter than the sample.",
        "We walked past the dog park and it was packed this morning.",
        "Work has been hectic, three deadlines in one week.",
        "Can you suggest a good book about the history of maps?",
        "How do I keep basil alive on a windowsill?",
        "Explain the difference between a virus and a bacterium.",
        "Any tips for sleeping better when it is hot?",
        "Good question. Start small, keep it consistent, and adjust as you learn what works for you.",
        "Got it, I'll keep that in mind.",
        "Here is a simple approach: list the options, compare the costs, and pick the one you can keep up.",
    ]
    edge = [
        "", " ", "?", "a", "OK", "ok!!!", "Café naïve résumé Ångström Øresund Łódź Dvořák",
        "東京都渋谷区の天気はどうですか", "北京市朝阳区", "한국어 서울특별시 강남구", "Привет, как дела?",
        "مرحبا، كيف حالك؟", "שָׁלוֹם", "नमस्ते, आप कैसे हैं?", "กรุงเทพมหานคร สวัสดีครับ",
        "👨‍👩‍👧‍👦 🧑🏿‍💻 ❤️‍🔥 🇩🇪🇯🇵 great party!", "fn main() { println!(\"hello\"); }",
        "SELECT * FROM users WHERE id = 42;", "https://example.com/a/b?c=d#e", "+49 (0)30 123-4567",
        "[CLS] [SEP] [UNK] [MASK] [PAD]", "tab\there\r\nnew line", "ﬁle ﬂow Ĳssel œuvre ① ｆｕｌｌ",
        "x" * 150, "supercalifragilisticexpialidocious antidisestablishmentarianism",
        "Ich wohne seit drei Jahren in Berlin und arbeite als Lehrerin.",
        "Je préfère le thé au café le matin.", "Me mudé a Oporto el año pasado.",
    ]
    out += facts + small_talk + edge
    rng = random.Random(21)
    for size in (40, 60, 90, 140):  # corpus texts joined into 300 to 1500 tokens
        for _ in range(3):
            out.append("\n".join(rng.choice(corpus) for _ in range(size // 4)))
    out.append("word " * 600)
    return out


def main():
    model_path, tokenizer_path, prefix = sys.argv[1:4]
    # Without its added tokens: "[SEP]" typed in a text is read as text, as our tokenizer
    # reads it (user input cannot place separators in the model's input).
    with open(tokenizer_path, encoding="utf-8") as f:
        spec = json.load(f)
    spec["added_tokens"] = []
    tok = Tokenizer.from_str(json.dumps(spec))
    tok.no_truncation()
    tok.no_padding()
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])

    def embed_window(ids):
        ids = np.array([[cls] + ids + [sep]], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        hidden = session.run(["last_hidden_state"], feed)[0][0].astype(np.float64)
        v = hidden.mean(axis=0)
        return v / max(np.linalg.norm(v), 1e-12)

    all_texts = texts()
    vectors = []
    with open(prefix + ".jsonl", "w", encoding="utf-8") as f:
        for text in all_texts:
            ids = tok.encode(text, add_special_tokens=False).ids
            parts = [embed_window(ids[a:b]) for a, b in windows(len(ids), WINDOW)] or [embed_window([])]
            v = np.mean(parts, axis=0)
            vectors.append(v / max(np.linalg.norm(v), 1e-12))
            f.write(json.dumps({"text": text, "tokens": len(ids)}, ensure_ascii=False) + "\n")
    np.array(vectors, dtype="<f2").tofile(prefix + ".f16")
    long = sum(len(tok.encode(t, add_special_tokens=False).ids) > WINDOW - 2 for t in all_texts)
    print(f"wrote {prefix}.jsonl and .f16: {len(all_texts)} texts, {long} longer than one window")


if __name__ == "__main__":
    main()
