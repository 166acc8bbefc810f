#!/usr/bin/env python3
"""Synthetic training text for what the public corpora lack: private names in chat (lower-case
too), street addresses in English, Spanish, German and French forms, and negatives that look like
them (brands, places alone, developer text). Lines are also packed into longer texts (a pasted
chat, several messages in a row), so that what is found in a short line is found in a long one.

Values come from Faker (MIT; pinned in requirements.txt) per locale; sentence templates are
written here, one list per language, and share no template with the evaluation corpora
(tests/data/eval). Brand negatives are the ORG / product spans of WNUT-17 *train* (CC BY 4.0;
bands, companies and products, see shared/corpora/README.md) set in chat templates, each template
also once with a private name in the brand's slot; developer text is comment and docstring lines
of the Python packages installed beside this script (transformers, torch: Apache-2.0 / BSD), with
lines that name an author, a copyright holder, an e-mail or a URL left out.

Output: JSON lines {"src", "id", "text", "entities": [[[start, end, KIND], ...], ...]} with
Python string offsets and Rampart's label kinds (GIVEN_NAME, SURNAME, STREET_NAME,
BUILDING_NUMBER, SECONDARY_ADDRESS, CITY, STATE, ZIP_CODE, EMAIL, PHONE); everything else is O.

Usage: synth.py OUT.jsonl [--per-locale 900] [--negatives 1500] [--packed 1500] [--seed 0]
"""

import argparse
import glob
import json
import os
import random
import re
import sys
import sysconfig

from faker import Faker

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import load_corpus  # noqa: E402

# Chat lines that carry private data. Slots: {first} given name, {full} given name + surname,
# {last} surname after a title, {email}, {phone}, {addr} a full street address, {street} the
# street line alone, {place} a city alone (not PII on its own), {first2} a second given name.
TEMPLATES = {
    "en": [
        "can you remind me to call {full} tomorrow morning",
        "hey {first}, are we still on for lunch?",
        "my neighbour {full} just moved to {addr}",
        "please ship the order to {addr}",
        "{first}'s new number is {phone}, save it",
        "email {first} at {email} about the invoice",
        "tell {first} and {first2} that dinner is at 7",
        "I had coffee with {full} today, she says hi",
        "text {first} that i'm running late",
        "meeting with {title} {last} moved to Thursday",
        "my landlord {full} wants the rent by friday",
        "send the contract to {full}, {email}",
        "we stayed at {first}'s place in {place} last week",
        "my address changed, it's {addr} now",
        "who is {full}? she emailed me twice",
        "draft a birthday message for my brother {first}",
        "{full} ({phone}) is the plumber we used",
        "can you summarise what {first} said in the last call",
        "I live at {street} near the park",
        "ask {title} {last} if the results are back",
        "my daughter {first} has a fever, what should I do",
        "call {first} on {phone} when you land",
        "the package for {full} went to {addr} by mistake",
        "add {full} to the guest list",
        "{first} {first2} and I are flying to {place} on monday",
        "follow up with {full} in a couple of weeks",
        "{full}\n{addr}",
        "{first}: are you coming tonight?\n{first2}: yes, see you at 8",
        "my name is {full} and I'm writing about my order",
        "thanks {first}, that was really helpful!",
        "{first} said the report will be late again",
        "I'm {full}, we met at the conference",
        "{full} and {first2} are getting married in june",
        "please forward this to {full} ({email})",
    ],
    "es": [
        "mi dirección es {addr}",
        "envía el paquete a {full}, {addr}",
        "llama a {first} al {phone} mañana",
        "el correo de {first} es {email}",
        "he quedado con {full} en {place}",
        "dile a {first} que llego tarde",
        "mi vecina {full} vive en {street}",
        "recuérdame escribir a {title} {last} el lunes",
        "la factura está a nombre de {full}",
        "nos vemos en casa de {first}, {addr}",
        "¿quién es {full}? me ha escrito dos veces",
        "mi hermano {first} se muda a {place}",
    ],
    "de": [
        "meine neue Adresse ist {addr}",
        "schick das Paket bitte an {full}, {addr}",
        "ruf {first} unter {phone} an",
        "die E-Mail von {first} ist {email}",
        "ich treffe {full} morgen in {place}",
        "sag {first}, dass ich später komme",
        "mein Nachbar {full} wohnt in der {street}",
        "erinnere mich, {title} {last} am Montag zu schreiben",
        "die Rechnung geht an {full}",
        "wir feiern bei {first}, {addr}",
        "wer ist {full}? sie hat mir zweimal geschrieben",
        "mein Bruder {first} zieht nach {place}",
    ],
    "fr": [
        "ma nouvelle adresse est {addr}",
        "envoie le colis à {full}, {addr}",
        "appelle {first} au {phone} demain",
        "l'e-mail de {first} est {email}",
        "je vois {full} ce soir à {place}",
        "dis à {first} que je serai en retard",
        "ma voisine {full} habite {street}",
        "rappelle-moi d'écrire à {title} {last} lundi",
    ],
}
TITLES = {"en": ["Dr.", "Mr.", "Mrs.", "Ms.", "Dr"], "es": ["Dr.", "Dra.", "Sr.", "Sra."],
          "de": ["Dr.", "Herr", "Frau"], "fr": ["M.", "Mme", "Dr"]}
LOCALES = {"en": ["en_US", "en_GB"], "es": ["es_ES"], "de": ["de_DE"], "fr": ["fr_FR"]}

# Negatives: the slot is a brand or band ({brand}) or a place alone ({place}). Public figures are
# not among them: taught from context ("sung by", "CEO"), they cost recall of private names in the
# same contexts; which names are public is the suppression stage's decision.
NEGATIVE_TEMPLATES = [
    "is {brand} better than the alternatives for this?",
    "my {brand} subscription renews next week",
    "we drove through {place} on the way back",
    "what's the weather like in {place} in march?",
    "I've been listening to {brand} all day",
    "the {brand} store in {place} was closed",
]

DEV_LINE = re.compile(r"^\s*(?:#\s+|\"\"\"|r\"\"\")(.{30,200}?)(?:\"\"\")?\s*$")
DEV_SKIP = re.compile(r"@|https?:|www\.|copyright|licen[cs]e|warrant|author|contributor|\bby [A-Z]", re.I)


class Builder:
    """Text and entity parts, appended piece by piece."""

    def __init__(self):
        self.text, self.entities = "", []

    def add(self, s):
        self.text += s

    def entity(self, parts):
        """parts: [(string, KIND or None)], joined as given; KIND None is plain text inside."""
        ent = []
        for s, kind in parts:
            if kind:
                ent.append([len(self.text), len(self.text) + len(s), kind])
            self.text += s
        self.entities.append(ent)


def name_parts(fake, lang, rng, given_only=False):
    first = fake.first_name()
    if given_only:
        return [(first, "GIVEN_NAME")]
    parts = [(first, "GIVEN_NAME"), (" ", None), (fake.last_name(), "SURNAME")]
    if lang == "es" and rng.random() < 0.6:
        parts += [(" ", None), (fake.last_name(), "SURNAME")]
    return parts


def words(s, kind):
    """Each word its own part (the corpora tag words); the blanks between them plain."""
    out = []
    for i, w in enumerate(s.split()):
        if i:
            out.append((" ", None))
        out.append((w, kind))
    return out


def street_line(fake, lang, rng):
    number = str(rng.randint(1, 240))
    if lang == "en":
        if rng.random() < 0.2:
            number = fake.building_number()
        line = [(number, "BUILDING_NUMBER"), (" ", None)] + words(fake.street_name(), "STREET_NAME")
        if rng.random() < 0.35:
            line += [(rng.choice([", ", " "]), None)] + words(fake.secondary_address(), "SECONDARY_ADDRESS")
        return line
    if lang == "es":
        name = re.sub(r"^(Calle|Avenida|Paseo|Plaza|Camino|Ronda|Vía|Cañada|Glorieta|Pasaje|Acceso|Callejón|Alameda|Rambla|Urbanización|Carretera|Cuesta|Via|Calle de|Avenida de)\s+", "", fake.street_name())
        prefix = rng.choice(["C/", "C/", "Calle", "Avda.", "Avenida", "Pza.", "Plaza", "Paseo", "c/"])
        line = words(f"{prefix} {name}", "STREET_NAME")
        if rng.random() < 0.1:
            return line + [(" ", None), ("s/n", "BUILDING_NUMBER")]
        line += [(rng.choice([" ", ", ", " nº ", ", n.º "]), None), (number, "BUILDING_NUMBER")]
        r = rng.random()
        if r < 0.6:
            floor = rng.choice([f"{rng.randint(1, 9)}º {rng.choice('ABCDEFI')}", f"{rng.randint(1, 9)}º{rng.randint(1, 4)}ª",
                                f"piso {rng.randint(1, 9)}", f"Bajo {rng.choice('ABC')}", f"{rng.randint(1, 9)}{rng.choice('ABCD')}",
                                f"{rng.randint(1, 9)}º-{rng.choice('ABCD')}", f"Esc. {rng.randint(1, 3)}, {rng.randint(1, 8)}º {rng.choice('ABCD')}"])
            line += [(rng.choice([", ", " ", " - "]), None)] + words(floor, "SECONDARY_ADDRESS")
        return line
    if lang == "de":
        street = fake.street_name()
        if rng.random() < 0.3:
            street = re.sub(r"straße$", "str.", street)
        line = words(street, "STREET_NAME") + [(" ", None), (number + rng.choice(["", "", "", "a", "b"]), "BUILDING_NUMBER")]
        return line
    # fr
    street = fake.street_name()
    return [(number + rng.choice(["", "", " bis"]), "BUILDING_NUMBER"), (rng.choice([" ", ", "]), None)] + words(street, "STREET_NAME")


def address(fake, lang, rng, locale):
    line = street_line(fake, lang, rng)
    city = words(fake.city(), "CITY")
    if lang == "en" and locale == "en_US":
        return line + [(", ", None)] + city + [(", ", None), (fake.state_abbr(), "STATE"), (" ", None), (fake.postcode(), "ZIP_CODE")]
    if lang == "en":
        return line + [(", ", None)] + city + [(rng.choice([" ", ", "]), None)] + words(fake.postcode(), "ZIP_CODE")
    # Spanish, German, French: postcode before the city
    return line + [(", ", None), (fake.postcode(), "ZIP_CODE"), (" ", None)] + city


def lowered(b):
    low = b.text.lower()
    if len(low) == len(b.text):  # offsets hold only when lower() keeps the length
        b.text = low
    return b


def positive(fake, lang, locale, template, rng):
    b = Builder()
    for piece in re.split(r"(\{\w+\})", template):
        slot = piece[1:-1] if piece.startswith("{") else None
        if slot is None:
            b.add(piece)
        elif slot in ("first", "first2"):
            b.entity(name_parts(fake, lang, rng, given_only=True))
        elif slot == "full":
            b.entity(name_parts(fake, lang, rng))
        elif slot == "last":
            b.entity([(fake.last_name(), "SURNAME")])
        elif slot == "title":
            b.add(rng.choice(TITLES[lang]))
        elif slot == "email":
            b.entity([(fake.free_email() if rng.random() < 0.5 else fake.email(), "EMAIL")])
        elif slot == "phone":
            b.entity([(fake.phone_number(), "PHONE")])
        elif slot == "addr":
            b.entity(address(fake, lang, rng, locale))
        elif slot == "street":
            b.entity(street_line(fake, lang, rng))
        elif slot == "place":
            b.add(fake.city())
        else:
            raise ValueError(slot)
    if rng.random() < (0.35 if lang == "en" else 0.15):
        lowered(b)
    elif rng.random() < 0.3:
        b.text = b.text[0].upper() + b.text[1:]
    return b


def brand_names():
    """WNUT-17 train ORG and product values."""
    brands = set()
    for rec in load_corpus("wnut17_train"):
        for s in rec["spans"] + rec.get("other_spans", []):
            v = rec["text"][s["start"]:s["end"]]
            if (s.get("type") == "ORG" or s.get("label") == "product") and 2 < len(v) < 30 and "@" not in v:
                brands.add(v)
    return sorted(brands)


def packed(records, rng, n):
    """n texts of 3 to 8 lines drawn from records, joined as a chat or a paragraph."""
    out = []
    for i in range(n):
        parts = rng.sample(records, rng.randint(3, 8))
        sep = rng.choice(["\n", " ", "\n\n"])
        text, entities = "", []
        for p in parts:
            if text:
                text += sep
            base = len(text)
            text += p["text"]
            entities += [[[a + base, b + base, k] for a, b, k in e] for e in p["entities"]]
        out.append({"src": "synth_packed", "id": f"packed-{i}", "text": text, "entities": entities})
    return out


def developer_lines(rng, n):
    root = sysconfig.get_paths()["purelib"]
    files = sorted(glob.glob(os.path.join(root, "transformers", "**", "*.py"), recursive=True))
    files += sorted(glob.glob(os.path.join(root, "torch", "nn", "**", "*.py"), recursive=True))
    lines = []
    for path in files:
        for line in open(path, encoding="utf-8", errors="ignore"):
            m = DEV_LINE.match(line)
            if m and not DEV_SKIP.search(m.group(1)) and re.search(r"[A-Z]", m.group(1)):
                lines.append(m.group(1).strip())
    lines = sorted(set(lines))  # licence headers and copied comments repeat across files
    rng.shuffle(lines)
    return lines[:n]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--per-locale", type=int, default=900)
    parser.add_argument("--negatives", type=int, default=1500)
    parser.add_argument("--packed", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    Faker.seed(args.seed)
    out = []
    for lang, locales in LOCALES.items():
        for locale in locales:
            fake = Faker(locale)
            n = args.per_locale // len(locales) if lang == "en" else args.per_locale
            for i in range(n):
                b = positive(fake, lang, locale, rng.choice(TEMPLATES[lang]), rng)
                out.append({"src": f"synth_{locale}", "id": f"{locale}-{i}", "text": b.text, "entities": b.entities})
    brands = brand_names()
    fake = Faker("en_US")
    for i in range(args.negatives):
        template = rng.choice(NEGATIVE_TEMPLATES)
        text = template.format(brand=rng.choice(brands), place=fake.city())
        if rng.random() < 0.3:
            text = text.lower()
        out.append({"src": "synth_negative", "id": f"neg-{i}", "text": text, "entities": []})
        # The same context with a person in the slot: what tells a brand from a person must be
        # the name, not the sentence around it.
        twin = template.replace("{brand}", rng.choice(["{full}", "{first}"]))
        b = positive(fake, "en", "en_US", twin, rng)
        out.append({"src": "synth_en_US", "id": f"twin-{i}", "text": b.text, "entities": b.entities})
    for i, line in enumerate(developer_lines(rng, args.negatives)):
        out.append({"src": "developer_text", "id": f"dev-{i}", "text": line, "entities": []})
    out += packed(out, rng, args.packed)
    with open(args.out, "w") as f:
        for rec in out:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(json.dumps({"records": len(out), "brands": len(brands)}))


if __name__ == "__main__":
    main()
