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
lines that name an author, a copyright holder, an e-mail or a URL left out. Context negatives are
words that name a person elsewhere, set where they do not: software called by a given name (Debian
package names, from `apt-cache pkgnames`, that are Faker given names), WNUT-17 train LOCATION and
creative-work values and in travel and culture questions,
Faker surnames in eponymous terms; each is followed by a private name in the same kind of sentence.

Output: JSON lines {"src", "id", "text", "entities": [[[start, end, KIND], ...], ...]} with
Python string offsets and Rampart's label kinds (GIVEN_NAME, SURNAME, STREET_NAME,
BUILDING_NUMBER, SECONDARY_ADDRESS, CITY, STATE, ZIP_CODE, EMAIL, PHONE); everything else is O.

Usage: synth.py OUT.jsonl [--per-locale 900] [--negatives 1500] [--packed 1500] [--seed 0]
                [--fame N] [--context N]
"""

import argparse
import glob
import json
import os
import random
import re
import subprocess
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

# Words that name a person elsewhere, in contexts where they do not: each template set comes with
# private names in the same kind of sentence (CONTEXT_TWINS), so what is taught is the context
# *and* the name, never the context alone.
# {tech}: a software name that is also a given name (Debian package names that are Faker given
# names: "julia", "jetty", "ruby"), capitalised as developers write them.
TECH_TEMPLATES = [
    "In {tech}, why is this loop so much slower than the vectorised version?",
    "how do I install {tech} on ubuntu 24.04 without root?",
    "{tech} keeps crashing with exit code 137 after the upgrade",
    "Starting {tech} on port 8080 fails with address already in use",
    "is {tech} still maintained or should we move to something else?",
    "{tech} vs {tech2} for a small internal web service?",
    "the {tech} config file is ignored when I run it inside docker",
    "`{tech} --version` prints nothing, is my PATH wrong?",
    "Why does {tech} log a warning about deprecated options on every start?",
    "what's the {tech} equivalent of a python list comprehension?",
]
# {loc}: a place, landmark or venue (WNUT-17 train LOCATION values) in travel and history
# questions. Street names without a number are left out: taught as negatives, they cost street
# addresses in chat (a first round lost 3.5 points of address recall on the chat tune split).
PLACE_TEMPLATES = [
    "what's the quickest way from {loc} to the airport?",
    "is {loc} worth visiting in winter or is it too cold?",
    "when was {loc} built, and who designed it?",
    "Any tips for photographing {loc} at sunset?",
    "we're staying near {loc}, any good cafes around there?",
    "how early should we get to {loc} to avoid the queues?",
]
# {work}: a film, show, book or song (WNUT-17 train creative-work values).
WORK_TEMPLATES = [
    "have you seen {work}? is it worth watching?",
    "what's the ending of {work} supposed to mean?",
    "I just finished {work}, what should I read next?",
    "Is {work} suitable for a ten-year-old?",
]
# {last}: a surname in an eponymous term.
EPONYM_TEMPLATES = [
    "is the {last}-{last2} divergence symmetric?",
    "how do I compute the {last} correlation coefficient in pandas?",
    "can you explain the proof of {last}'s theorem step by step?",
    "{last} filter or moving average for smoothing noisy sensor data?",
    "what's the difference between the {last} test and a t-test?",
    "is the {last} distribution heavy-tailed?",
]
# Private names in the same settings: a developer's team, a trip with friends, a book club, a
# teacher. What tells them apart from the negatives above is the name's role in the sentence.
CONTEXT_TWINS = [
    "In the standup, {first} said the loop is slower than the vectorised version",
    "{first} keeps pushing to main after the upgrade, how do I stop that?",
    "ask {full} why the config file is ignored inside docker",
    "{full} from the backend team says port 8080 is taken",
    "is {first} still maintaining the deploy scripts or should I ask {first2}?",
    "we're staying at {first}'s flat, any good cafes around there?",
    "{full} is picking us up at the airport at 6",
    "how long does it take to walk from {street} to the station?",
    "the bus to {first}'s place was rerouted because of the parade",
    "I just finished the book {first} lent me, what should I read next?",
    "{full} recommended a film, is it suitable for a ten-year-old?",
    "can you explain the proof {title} {last} showed us step by step?",
    "{full} wants the correlation coefficient by friday",
    "my teacher {full} says the distribution is heavy-tailed",
]

# Street addresses in the settings of the negatives above (travel, a venue, a developer's
# office), per language: a round that taught places and software as negatives without these lost
# street addresses in chat (scripts/train/README.md, "Context rounds").
ADDRESS_TWINS = {
    "en": [
        "what's the quickest way from {addr} to the airport?",
        "we're staying at {addr}, any good cafes around there?",
        "how early should we leave {street} to get to the station by 9?",
        "the office moved to {addr}, is there parking nearby?",
        "is {street} a safe area to walk at night?",
        "{full}\n{addr}\nis this address format right for a parcel?",
    ],
    "es": [
        "¿cómo llego desde {addr} al aeropuerto?",
        "nos alojamos en {addr}, ¿hay cafeterías cerca?",
        "la oficina está en {street}, ¿hay aparcamiento?",
    ],
    "de": [
        "wie komme ich von {addr} zum Flughafen?",
        "wir wohnen in der {street}, gibt es dort Cafés?",
        "das Büro ist jetzt {addr}, gibt es Parkplätze?",
    ],
    "fr": [
        "comment aller de {addr} à l'aéroport ?",
        "nous logeons au {street}, des cafés près de là ?",
    ],
}

# Private names where a reader might expect a famous one: music, work, speeches, quotes. The
# model finds every name; which names are public is the suppression stage's decision. Names come
# from many locales (NAME_LOCALES), some with a middle initial.
FAME_TEMPLATES = [
    "{full}'s new album drops on friday and I can't wait",
    "honestly the cover by {full} is better than the original",
    "{full} was named employee of the month at {brand}",
    "{full}, who founded {brand} with {first2}, is giving the keynote",
    "we invited {full} to speak at the meetup next month",
    "did you hear the interview with {full} on the local radio?",
    "\"the numbers look good this quarter,\" {full} told the team",
    "I've been a fan of {full} since her first show at the pub",
    "that song was written and sung by {full} back in 1998",
    "{last} and {last2} built the prototype in a garage",
    "the award went to {full} of {brand} for the second year",
    "{full}\n{brand}\nhead of sales",
    "{first} was a huge {full} fan growing up",
]
NAME_LOCALES = ["en_US", "en_GB", "fi_FI", "hu_HU", "cs_CZ", "is_IS", "it_IT", "pt_BR", "nl_NL",
                "da_DK", "sv_SE", "pl_PL", "tr_TR", "es_MX", "de_DE", "fr_FR", "no_NO", "sl_SI"]

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
        elif slot in ("last", "last2"):
            b.entity([(fake.last_name(), "SURNAME")])
        elif slot == "initialled":  # the initial counts as part of the given name
            initial = rng.choice("ABCDEFGHJKLMNPRSTVW") + rng.choice([".", "", "."])
            b.entity([(fake.first_name(), "GIVEN_NAME"), (" ", None), (initial, "GIVEN_NAME"), (" ", None), (fake.last_name(), "SURNAME")])
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


def wnut_values():
    """(kinds, value) of every span of WNUT-17 train, kinds its type and label: {"ORG",
    "corporation"}, {"LOCATION", "location"}, {None, "product"}, {None, "creative-work"}..."""
    for rec in load_corpus("wnut17_train"):
        for s in rec["spans"] + rec.get("other_spans", []):
            yield {s.get("type"), s.get("label")}, rec["text"][s["start"]:s["end"]]


def brand_names():
    """WNUT-17 train ORG and product values."""
    return sorted({v for kinds, v in wnut_values()
                   if kinds & {"ORG", "product"} and 2 < len(v) < 30 and "@" not in v})


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


def fame_positives(rng, n, brands):
    """n private names in sentences about music, work and speeches, from many locales."""
    fakes = [Faker(locale) for locale in NAME_LOCALES]
    out = []
    for i in range(n):
        fake = rng.choice(fakes)
        template = rng.choice(FAME_TEMPLATES).replace("{brand}", rng.choice(brands).replace("{", "").replace("}", ""))
        if rng.random() < 0.2:  # a middle initial: "Daniel R. Andersen", "Santino V Renteria"
            template = template.replace("{full}", "{initialled}", 1)
        b = positive(fake, "en", "en_US", template, rng)
        out.append({"src": "synth_fame", "id": f"fame-{i}", "text": b.text, "entities": b.entities})
    return out


def creative_and_places():
    """WNUT-17 train location and creative-work values, as (locations, works)."""
    kept = [(kinds, v) for kinds, v in wnut_values() if 2 < len(v) < 40 and "@" not in v and not v.startswith("#")]
    return sorted({v for kinds, v in kept if "location" in kinds}), sorted({v for kinds, v in kept if "creative-work" in kinds})


# Debian sections of programming tools: a name from these is software a developer asks about.
DEV_SECTIONS = {"interpreters", "devel", "web", "httpd", "java", "database", "editors", "python",
                "ruby", "javascript", "rust", "perl", "php", "golang"}


def tech_names():
    """Debian programming tools (apt-cache; its Section in DEV_SECTIONS) whose name, trailing
    version digits dropped, is a Faker given name or surname: software people call by a person's
    name, capitalised as developers write it. None where apt-cache is missing."""
    try:
        names = subprocess.run(["apt-cache", "pkgnames"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    packages = {}
    for p in sorted(names.split()):
        m = re.fullmatch(r"([a-z]{3,10})\d*", p)
        if m:
            packages.setdefault(m.group(1), p)
    people = set()
    for locale in ("en_US", "en_GB", "es_ES", "de_DE", "fr_FR", "it_IT", "pt_BR", "nl_NL"):
        provider = next(p for p in Faker(locale).providers if "person" in type(p).__module__)
        for attr in ("first_names_male", "first_names_female", "first_names", "last_names"):
            people.update(n.lower() for n in getattr(provider, attr, ()))
    out = []
    for name in sorted(set(packages) & people):
        info = subprocess.run(["apt-cache", "show", "--no-all-versions", packages[name]],
                              capture_output=True, text=True).stdout
        section = re.search(r"^Section: (\S+)", info, re.M)
        if section and section.group(1).split("/")[-1] in DEV_SECTIONS:
            out.append(name.capitalize())
    return out


def context_negatives(fake, rng, n, brands):
    """n negatives from the template sets above, each followed by a private-name twin and a
    street address in a travel or office sentence (any of the four languages)."""
    if n == 0:
        return [], {}
    locs, works = creative_and_places()
    techs = tech_names() or brands
    address_fakes = {locale: Faker(locale) for locales in LOCALES.values() for locale in locales}
    sets = [(TECH_TEMPLATES, "tech"), (PLACE_TEMPLATES, "place"), (WORK_TEMPLATES, "work"), (EPONYM_TEMPLATES, "eponym")]
    out = []
    for i in range(n):
        templates, kind = sets[i % len(sets)]
        values = {"tech": rng.choice(techs), "tech2": rng.choice(techs), "loc": rng.choice(locs),
                  "work": rng.choice(works),
                  "last": fake.last_name(), "last2": fake.last_name()}
        text = rng.choice(templates).format(**values)
        if rng.random() < 0.2:
            text = text.lower()
        out.append({"src": "synth_negative", "id": f"ctx-{kind}-{i}", "text": text, "entities": []})
        b = positive(fake, "en", "en_US", rng.choice(CONTEXT_TWINS), rng)
        out.append({"src": "synth_en_US", "id": f"ctx-twin-{i}", "text": b.text, "entities": b.entities})
        lang = rng.choice(list(LOCALES))
        locale = rng.choice(LOCALES[lang])
        b = positive(address_fakes[locale], lang, locale, rng.choice(ADDRESS_TWINS[lang]), rng)
        out.append({"src": f"synth_{locale}", "id": f"ctx-addr-{i}", "text": b.text, "entities": b.entities})
    return out, {"locations": len(locs), "works": len(works), "tech": len(techs)}


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
    # Off by default: the shipped fine-tune was trained without them (scripts/train/README.md,
    # "Context rounds"); `make train-model SYNTH_FLAGS="--fame 900 --context 800"` adds them.
    parser.add_argument("--fame", type=int, default=0, help="private names in music, work and speech sentences")
    parser.add_argument("--context", type=int, default=0, help="tech, place, work and eponym negatives (each with a twin)")
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
    out += fame_positives(rng, args.fame, brands)
    ctx, ctx_counts = context_negatives(fake, rng, args.context, brands)
    out += ctx
    for i, line in enumerate(developer_lines(rng, args.negatives)):
        out.append({"src": "developer_text", "id": f"dev-{i}", "text": line, "entities": []})
    out += packed(out, rng, args.packed)
    with open(args.out, "w") as f:
        for rec in out:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(json.dumps({"records": len(out), "brands": len(brands), **ctx_counts}))


if __name__ == "__main__":
    main()
