//! From per-token predictions to what a user means: "maria gonzalez" is one person, "1420 elm
//! street, apt 3b" one address, whatever the model's sub-word pieces and BIO prefixes say.
//!
//! Three steps, each linear in the number of tokens:
//! 1. **Words.** The tokens of one tokenizer word form one unit and take the label of their
//!    most probable token (Hugging Face's `max` aggregation). This model was trained with a
//!    label on every sub-token (`"1420"` → `142` and `##0`, both `B-BUILDING_NUMBER` at 0.99),
//!    so every piece's prediction is meaningful, and the most confident one decides: the first
//!    piece of an ID (`x` of `X12345678`) is often the least informative. A word is tagged only
//!    when that probability reaches the threshold (0.5 by default, the reference's token
//!    threshold), so a span never starts or ends inside a word.
//! 2. **Spans.** Tagged words join when their parts mean the same thing ([`Meaning`]: given
//!    name + surname → a person; street, number, unit, city, state, zip → an address) and the
//!    text between them is a separator that meaning allows (a space for names; `", "` and a
//!    line break for addresses; `-` inside numbers). B-/I- prefixes are ignored: the model puts
//!    `B-` on sub-tokens too, and adjacent parts are what makes an address.
//! 3. **Checks.** Trailing sentence punctuation is left outside; a hyphenated or apostrophe
//!    word is kept whole (`maria-josé`, `o'brien`, not the possessive `'s`); an address needs a
//!    street or unit line, or a number or zip with another part (a city alone is a place, not
//!    someone's address); numbers need a few alphanumerics.
//!
//! A span's score is the mean of its words' probabilities.
//!
//! Everything here is data in, data out: the tagger feeds it, tests feed it hand-made tags.

/// The reference's default: a token counts when its label's probability reaches this.
pub const DEFAULT_THRESHOLD: f32 = 0.5;

/// What a decoded span is. The redactor maps these to its entity types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Meaning {
    Person,
    Address,
    Email,
    Phone,
    Url,
    /// Government, tax, passport and driver's licence numbers: the model does not say which
    /// country's, so no national format applies.
    IdNumber,
    /// Bank account and routing numbers.
    BankNumber,
}

const MEANINGS: usize = 7;

impl Meaning {
    const ALL: [Meaning; MEANINGS] = [
        Meaning::Person,
        Meaning::Address,
        Meaning::Email,
        Meaning::Phone,
        Meaning::Url,
        Meaning::IdNumber,
        Meaning::BankNumber,
    ];

    /// Phone, ID and bank numbers: pieces of one number written without a space
    /// (`D1234-5678-9012`) are one value even when the model calls the pieces differently.
    fn is_number(self) -> bool {
        matches!(
            self,
            Meaning::Phone | Meaning::IdNumber | Meaning::BankNumber
        )
    }
}

/// One label's part of a meaning, and how it counts towards an address (see [`Anchor`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Part {
    meaning: Meaning,
    anchor: Anchor,
}

/// How much an address part says on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// Not an address part.
    None,
    /// A street name or unit line: an address by itself.
    Street,
    /// A building number or zip: an address next to any other part.
    Locator,
    /// A city or state: a place, an address only next to a street or locator.
    Region,
}

/// The model's entity labels (without `B-`/`I-`) and what they mean. Labels not listed (and
/// `O`) are outside any span.
const PARTS: &[(&str, Meaning, Anchor)] = &[
    ("GIVEN_NAME", Meaning::Person, Anchor::None),
    ("SURNAME", Meaning::Person, Anchor::None),
    ("EMAIL", Meaning::Email, Anchor::None),
    ("PHONE", Meaning::Phone, Anchor::None),
    ("URL", Meaning::Url, Anchor::None),
    ("GOVERNMENT_ID", Meaning::IdNumber, Anchor::None),
    ("TAX_ID", Meaning::IdNumber, Anchor::None),
    ("PASSPORT", Meaning::IdNumber, Anchor::None),
    ("DRIVERS_LICENSE", Meaning::IdNumber, Anchor::None),
    ("BANK_ACCOUNT", Meaning::BankNumber, Anchor::None),
    ("ROUTING_NUMBER", Meaning::BankNumber, Anchor::None),
    ("STREET_NAME", Meaning::Address, Anchor::Street),
    ("SECONDARY_ADDRESS", Meaning::Address, Anchor::Street),
    ("BUILDING_NUMBER", Meaning::Address, Anchor::Locator),
    ("ZIP_CODE", Meaning::Address, Anchor::Locator),
    ("CITY", Meaning::Address, Anchor::Region),
    ("STATE", Meaning::Address, Anchor::Region),
];

/// How the words of one meaning hold together.
struct Joining {
    /// Characters allowed between two words of one span (besides none at all).
    separators: &'static str,
    /// Line breaks allowed between two words (an address block spans lines, a name does not).
    line_breaks: usize,
    /// Whether a word joined to the span by `-` or an apostrophe belongs to it.
    whole_words: bool,
    /// Fewer letters and digits than this is not a value of this meaning.
    min_alnum: usize,
}

fn joining(m: Meaning) -> Joining {
    match m {
        Meaning::Person => Joining {
            separators: " \t\u{a0}-'’.",
            line_breaks: 0,
            whole_words: true,
            min_alnum: 2,
        },
        Meaning::Address => Joining {
            separators: " \t\u{a0}\r\n,.-/#",
            line_breaks: 1,
            whole_words: true,
            min_alnum: 2,
        },
        Meaning::Phone | Meaning::IdNumber | Meaning::BankNumber => Joining {
            separators: " \t\u{a0}-./()",
            line_breaks: 0,
            whole_words: false,
            min_alnum: 4,
        },
        Meaning::Email | Meaning::Url => Joining {
            separators: "",
            line_breaks: 0,
            whole_words: false,
            min_alnum: 3,
        },
    }
}

/// Sentence punctuation left outside a span's end ("at 1420 elm street." keeps its period).
const TRAILING: &str = ".,;:!?";

/// The model's label list, read once: label index → part (or none for `O` and unknown labels).
#[derive(Debug, Clone)]
pub struct LabelTable {
    parts: Vec<Option<Part>>,
}

impl LabelTable {
    /// Reads labels such as `O`, `B-GIVEN_NAME`, `I-ZIP_CODE` (any BIO-style prefix).
    pub fn new<S: AsRef<str>>(labels: &[S]) -> LabelTable {
        let parts = labels
            .iter()
            .map(|l| {
                let l = l.as_ref();
                let name = match l.as_bytes() {
                    [p, b'-', ..] if b"BIESLbiesl".contains(p) => &l[2..],
                    _ => l,
                };
                PARTS
                    .iter()
                    .find(|(n, ..)| n.eq_ignore_ascii_case(name))
                    .map(|&(_, meaning, anchor)| Part { meaning, anchor })
            })
            .collect();
        LabelTable { parts }
    }

    fn part(&self, label: usize) -> Option<Part> {
        self.parts.get(label).copied().flatten()
    }

    /// Whether any label means something: a label list without any is not this kind of model.
    pub fn knows_any(&self) -> bool {
        self.parts.iter().any(Option::is_some)
    }
}

/// One token's prediction: its bytes in the text, the word it belongs to (tokens of one word
/// share the index), its most probable label and that probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenTag {
    pub start: usize,
    pub end: usize,
    pub word: u32,
    pub label: u16,
    pub prob: f32,
}

/// A decoded value: byte offsets into the text, what it is, the mean probability of its words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    pub meaning: Meaning,
    pub start: usize,
    pub end: usize,
    pub score: f32,
}

/// A tokenizer word with its label's part (when tagged at or above the threshold).
#[derive(Debug, Clone, Copy)]
struct Word {
    start: usize,
    end: usize,
    part: Option<Part>,
    prob: f32,
}

/// Turns token predictions (in text order) into spans (in text order, not overlapping).
pub fn decode(text: &str, tags: &[TokenTag], labels: &LabelTable, threshold: f32) -> Vec<Span> {
    let words = words(tags, labels, threshold);
    let mut spans = Vec::new();
    let mut open: Option<Building> = None;
    for w in &words {
        let Some(part) = w.part else { continue };
        if let Some(b) = &mut open {
            let gap = &text[b.end..w.start];
            let meaning = b.meaning();
            let same = meaning == part.meaning && joins(gap, meaning);
            let one_number = meaning.is_number()
                && part.meaning.is_number()
                && !gap.contains(char::is_whitespace)
                && joins(gap, Meaning::IdNumber);
            if same || one_number {
                b.add(w, part);
                continue;
            }
        }
        if let Some(b) = open.take() {
            spans.extend(b.finish(text));
        }
        let mut b = Building::new(w);
        b.add(w, part);
        open = Some(b);
    }
    spans.extend(open.and_then(|b| b.finish(text)));
    spans
}

/// Groups consecutive tokens of one word; the word takes its most probable token's label.
fn words(tags: &[TokenTag], labels: &LabelTable, threshold: f32) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::with_capacity(tags.len());
    let mut current: Option<(u32, Word, u16)> = None;
    let close = |w: Word, label: u16, words: &mut Vec<Word>| {
        let part = (w.prob >= threshold)
            .then(|| labels.part(label as usize))
            .flatten();
        words.push(Word { part, ..w });
    };
    for t in tags.iter().filter(|t| t.end > t.start) {
        match &mut current {
            Some((index, w, label)) if *index == t.word => {
                w.start = w.start.min(t.start);
                w.end = w.end.max(t.end);
                if t.prob > w.prob {
                    w.prob = t.prob;
                    *label = t.label;
                }
            }
            _ => {
                if let Some((_, w, label)) = current.take() {
                    close(w, label, &mut words);
                }
                let w = Word {
                    start: t.start,
                    end: t.end,
                    part: None,
                    prob: t.prob,
                };
                current = Some((t.word, w, t.label));
            }
        }
    }
    if let Some((_, w, label)) = current {
        close(w, label, &mut words);
    }
    words
}

/// Whether `gap` (the text between two words) keeps them in one span of `meaning`.
fn joins(gap: &str, meaning: Meaning) -> bool {
    let j = joining(meaning);
    let breaks = gap.matches('\n').count();
    breaks <= j.line_breaks && gap.chars().all(|c| j.separators.contains(c))
}

/// A span being built from words.
struct Building {
    /// Probability mass per meaning of its words: a number's pieces may disagree.
    mass: [f32; MEANINGS],
    start: usize,
    end: usize,
    prob_sum: f32,
    words: u32,
    has_street: bool,
    locators: u32,
    regions: u32,
}

impl Building {
    fn new(w: &Word) -> Building {
        Building {
            mass: [0.0; MEANINGS],
            start: w.start,
            end: w.end,
            prob_sum: 0.0,
            words: 0,
            has_street: false,
            locators: 0,
            regions: 0,
        }
    }

    /// The meaning most of its words' probability says.
    fn meaning(&self) -> Meaning {
        let mut best = 0;
        for (i, &m) in self.mass.iter().enumerate() {
            if m > self.mass[best] {
                best = i;
            }
        }
        Meaning::ALL[best]
    }

    fn add(&mut self, w: &Word, part: Part) {
        self.mass[part.meaning as usize] += w.prob;
        self.end = w.end;
        self.prob_sum += w.prob;
        self.words += 1;
        match part.anchor {
            Anchor::Street => self.has_street = true,
            Anchor::Locator => self.locators += 1,
            Anchor::Region => self.regions += 1,
            Anchor::None => {}
        }
    }

    /// The finished span, or `None` when what was found is not a value of its meaning.
    fn finish(self, text: &str) -> Option<Span> {
        let meaning = self.meaning();
        let j = joining(meaning);
        if meaning == Meaning::Address
            && !self.has_street
            && !(self.locators > 0 && self.locators + self.regions >= 2)
        {
            return None;
        }
        let (mut start, mut end) = (self.start, self.end);
        while let Some(c) = text[start..end].chars().next_back() {
            if !(TRAILING.contains(c) || c.is_whitespace()) {
                break;
            }
            end -= c.len_utf8();
        }
        while let Some(c) = text[start..end].chars().next() {
            if !(TRAILING.contains(c) || c.is_whitespace()) {
                break;
            }
            start += c.len_utf8();
        }
        if j.whole_words {
            (start, end) = whole_words(text, start, end);
        }
        let alnum = text[start..end]
            .chars()
            .filter(|c| c.is_alphanumeric())
            .count();
        (alnum >= j.min_alnum).then(|| Span {
            meaning,
            start,
            end,
            score: self.prob_sum / self.words as f32,
        })
    }
}

/// Widens `start..end` over letters joined to it by a hyphen or an apostrophe (the tokenizer
/// splits `maria-josé` and `o'brien` into words the model may tag apart), but not over a
/// possessive `'s`.
fn whole_words(text: &str, start: usize, end: usize) -> (usize, usize) {
    let joiner = |c: char| matches!(c, '-' | '\'' | '’');
    let letters = |s: &str| {
        s.char_indices()
            .find(|&(_, c)| !c.is_alphanumeric() || is_cjk(c))
            .map_or(s.len(), |(i, _)| i)
    };
    let mut end = end;
    loop {
        let rest = &text[end..];
        let mut chars = rest.chars();
        let Some(j) = chars.next().filter(|&c| joiner(c)) else {
            break;
        };
        let after = &rest[j.len_utf8()..];
        let run = letters(after);
        let possessive = j != '-' && after[..run].eq_ignore_ascii_case("s");
        if run == 0 || possessive {
            break;
        }
        end += j.len_utf8() + run;
    }
    let mut start = start;
    loop {
        let before = &text[..start];
        let Some(j) = before.chars().next_back().filter(|&c| joiner(c)) else {
            break;
        };
        let head = &before[..before.len() - j.len_utf8()];
        let run = head
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_alphanumeric() && !is_cjk(c))
            .last()
            .map_or(head.len(), |(i, _)| i);
        if run == head.len() {
            break;
        }
        start = run;
    }
    (start, end)
}

/// Ideographs, kana and Hangul: the tokenizer makes each a word of its own, and words written
/// without spaces are not to be swallowed whole.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference model's entity labels, in its order (`O`, then `B-`/`I-` of each).
    const NAMES: [&str; 17] = [
        "GIVEN_NAME",
        "SURNAME",
        "EMAIL",
        "PHONE",
        "URL",
        "TAX_ID",
        "BANK_ACCOUNT",
        "ROUTING_NUMBER",
        "GOVERNMENT_ID",
        "PASSPORT",
        "DRIVERS_LICENSE",
        "BUILDING_NUMBER",
        "STREET_NAME",
        "SECONDARY_ADDRESS",
        "CITY",
        "STATE",
        "ZIP_CODE",
    ];

    fn labels() -> LabelTable {
        let mut names = vec!["O".to_string()];
        for name in NAMES {
            names.push(format!("B-{name}"));
            names.push(format!("I-{name}"));
        }
        LabelTable::new(&names)
    }

    fn label_index(name: &str) -> u16 {
        if name == "O" {
            return 0;
        }
        let (prefix, bare) = name.split_at(2);
        let i = NAMES.iter().position(|n| *n == bare).unwrap() as u16;
        1 + 2 * i + (prefix == "I-") as u16
    }

    /// Tags written as `text` plus, per token, `(piece, word, label, prob)`: each piece is
    /// found in the text after the previous one, so offsets are real.
    fn tag(text: &str, pieces: &[(&str, u32, &str, f32)]) -> Vec<TokenTag> {
        let mut at = 0;
        pieces
            .iter()
            .map(|&(piece, word, label, prob)| {
                let start = at + text[at..].find(piece).unwrap();
                at = start + piece.len();
                TokenTag {
                    start,
                    end: at,
                    word,
                    label: label_index(label),
                    prob,
                }
            })
            .collect()
    }

    /// Every piece of the text split at spaces and punctuation, tagged O except the words
    /// listed with their label.
    fn auto(text: &str, tagged: &[(&str, &str, f32)]) -> Vec<TokenTag> {
        let mut tags = Vec::new();
        let mut word = 0;
        let mut i = 0;
        while i < text.len() {
            let c = text[i..].chars().next().unwrap();
            if c.is_whitespace() {
                i += c.len_utf8();
                continue;
            }
            let end = if c.is_alphanumeric() {
                i + text[i..]
                    .char_indices()
                    .find(|&(_, c)| !c.is_alphanumeric())
                    .map_or(text.len() - i, |(j, _)| j)
            } else {
                i + c.len_utf8()
            };
            let piece = &text[i..end];
            let (label, prob) = tagged
                .iter()
                .find(|(p, ..)| *p == piece)
                .map_or(("O", 0.99), |&(_, l, p)| (l, p));
            tags.push(TokenTag {
                start: i,
                end,
                word,
                label: label_index(label),
                prob,
            });
            word += 1;
            i = end;
        }
        tags
    }

    fn spans(text: &str, tags: &[TokenTag]) -> Vec<(Meaning, String)> {
        decode(text, tags, &labels(), DEFAULT_THRESHOLD)
            .into_iter()
            .map(|s| (s.meaning, text[s.start..s.end].to_string()))
            .collect()
    }

    #[test]
    fn given_name_and_surname_are_one_person() {
        let text = "i'm seeing maria gonzalez tomorrow";
        let tags = auto(
            text,
            &[
                ("maria", "B-GIVEN_NAME", 0.97),
                ("gonzalez", "B-SURNAME", 0.98),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [(Meaning::Person, "maria gonzalez".into())]
        );
    }

    #[test]
    fn middle_names_join_and_a_comma_separates_people() {
        let text = "John Michael Smith, Anna Lee";
        let tags = auto(
            text,
            &[
                ("John", "B-GIVEN_NAME", 0.99),
                ("Michael", "I-GIVEN_NAME", 0.97),
                ("Smith", "B-SURNAME", 0.98),
                ("Anna", "B-GIVEN_NAME", 0.9),
                ("Lee", "B-SURNAME", 0.9),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [
                (Meaning::Person, "John Michael Smith".into()),
                (Meaning::Person, "Anna Lee".into())
            ]
        );
    }

    #[test]
    fn address_parts_join_across_commas_and_a_line_break() {
        let text = "ship to 500 Main St.\nSpringfield, IL 62704. Thanks";
        let tags = auto(
            text,
            &[
                ("500", "B-BUILDING_NUMBER", 0.99),
                ("Main", "B-STREET_NAME", 0.99),
                ("St", "I-STREET_NAME", 0.99),
                ("Springfield", "B-CITY", 0.8),
                ("IL", "B-STATE", 0.95),
                ("62704", "B-ZIP_CODE", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [(
                Meaning::Address,
                "500 Main St.\nSpringfield, IL 62704".into()
            )]
        );
    }

    #[test]
    fn trailing_punctuation_stays_outside_and_unit_lines_join() {
        let text = "at 1420 elm street, apt 3b, ok?";
        let tags = tag(
            text,
            &[
                ("at", 0, "O", 0.99),
                ("142", 1, "B-BUILDING_NUMBER", 0.99),
                ("0", 1, "B-BUILDING_NUMBER", 0.99),
                ("elm", 2, "B-STREET_NAME", 1.0),
                ("street", 3, "I-STREET_NAME", 1.0),
                (",", 4, "O", 0.9),
                ("apt", 5, "B-SECONDARY_ADDRESS", 1.0),
                ("3", 6, "I-SECONDARY_ADDRESS", 1.0),
                ("b", 6, "I-SECONDARY_ADDRESS", 1.0),
                (",", 7, "I-SECONDARY_ADDRESS", 0.6),
                ("ok", 8, "O", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [(Meaning::Address, "1420 elm street, apt 3b".into())]
        );
    }

    #[test]
    fn a_word_takes_its_most_probable_pieces_label() {
        // The first piece says O (weakly), the rest say passport: the whole word is one.
        let text = "passport X12345678 thanks";
        let tags = tag(
            text,
            &[
                ("passport", 0, "O", 0.99),
                ("X", 1, "O", 0.45),
                ("12", 1, "B-PASSPORT", 0.99),
                ("345678", 1, "I-PASSPORT", 0.98),
                ("thanks", 2, "O", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [(Meaning::IdNumber, "X12345678".into())]
        );
        // And the other way round: a confident O piece leaves the word out.
        let tags = tag(
            text,
            &[
                ("passport", 0, "O", 0.99),
                ("X", 1, "B-PASSPORT", 0.6),
                ("12345678", 1, "O", 0.9),
                ("thanks", 2, "O", 0.99),
            ],
        );
        assert!(spans(text, &tags).is_empty());
    }

    #[test]
    fn below_the_threshold_nothing_is_tagged_and_the_score_is_the_mean() {
        let text = "maria gonzalez";
        let tags = auto(
            text,
            &[
                ("maria", "B-GIVEN_NAME", 0.6),
                ("gonzalez", "B-SURNAME", 0.9),
            ],
        );
        let out = decode(text, &tags, &labels(), 0.5);
        assert_eq!(out.len(), 1);
        assert!((out[0].score - 0.75).abs() < 1e-6);
        let out = decode(text, &tags, &labels(), 0.7);
        assert_eq!(
            (out[0].start, out[0].end, out[0].meaning),
            (6, 14, Meaning::Person)
        );
        assert!(decode(text, &tags, &labels(), 0.95).is_empty());
    }

    #[test]
    fn hyphenated_numbers_are_one_id_and_different_meanings_split() {
        let text = "tax id 912-34-5678 phone 415 555 0100";
        let tags = auto(
            text,
            &[
                ("912", "B-TAX_ID", 0.99),
                ("-", "I-TAX_ID", 0.99),
                ("34", "I-TAX_ID", 0.99),
                ("5678", "I-TAX_ID", 0.99),
                ("415", "B-PHONE", 0.99),
                ("555", "I-PHONE", 0.99),
                ("0100", "I-PHONE", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [
                (Meaning::IdNumber, "912-34-5678".into()),
                (Meaning::Phone, "415 555 0100".into())
            ]
        );
    }

    #[test]
    fn pieces_of_one_number_are_one_value_whatever_each_piece_is_called() {
        let text = "my driver's license is D1234-5678-9012, call 415 555 0100";
        let tags = auto(
            text,
            &[
                ("D1234", "B-DRIVERS_LICENSE", 0.99),
                ("5678", "B-PHONE", 0.62),
                ("9012", "I-DRIVERS_LICENSE", 0.67),
                ("415", "B-PHONE", 0.99),
                ("555", "I-PHONE", 0.99),
                ("0100", "I-PHONE", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [
                (Meaning::IdNumber, "D1234-5678-9012".into()),
                (Meaning::Phone, "415 555 0100".into())
            ]
        );
        for (i, m) in Meaning::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
        }
    }

    #[test]
    fn a_city_alone_is_a_place_and_a_zip_with_a_city_is_an_address() {
        let text = "we flew to London";
        let tags = auto(text, &[("London", "B-CITY", 0.99)]);
        assert!(spans(text, &tags).is_empty());
        let text = "post it to London NW1 6XE";
        let tags = auto(
            text,
            &[
                ("London", "B-CITY", 0.99),
                ("NW1", "B-ZIP_CODE", 0.99),
                ("6XE", "I-ZIP_CODE", 0.99),
            ],
        );
        assert_eq!(
            spans(text, &tags),
            [(Meaning::Address, "London NW1 6XE".into())]
        );
        let text = "room 1420 please";
        let tags = auto(text, &[("1420", "B-BUILDING_NUMBER", 0.9)]);
        assert!(spans(text, &tags).is_empty());
    }

    #[test]
    fn words_joined_by_hyphens_stay_whole_but_possessives_do_not() {
        let text = "ask maria-josé o'brien's team";
        let tags = auto(
            text,
            &[("maria", "B-GIVEN_NAME", 0.9), ("brien", "B-SURNAME", 0.9)],
        );
        // "josé" and "o" were left untagged; the hyphen and the apostrophe bring them in. The
        // untagged "o" between them keeps the two spans apart.
        assert_eq!(
            spans(text, &tags),
            [
                (Meaning::Person, "maria-josé".into()),
                (Meaning::Person, "o'brien".into())
            ]
        );
    }

    #[test]
    fn names_do_not_join_across_lines_or_other_words() {
        let text = "maria\ngonzalez and maria or gonzalez";
        let tags = auto(
            text,
            &[
                ("maria", "B-GIVEN_NAME", 0.9),
                ("gonzalez", "B-SURNAME", 0.9),
            ],
        );
        assert_eq!(spans(text, &tags).len(), 4);
    }

    #[test]
    fn labels_are_read_by_name_not_position() {
        let table = LabelTable::new(&["I-ZIP_CODE", "O", "B-GIVEN_NAME", "L-SURNAME", "X-NEW"]);
        assert_eq!(table.part(0).unwrap().meaning, Meaning::Address);
        assert!(table.part(1).is_none());
        assert_eq!(table.part(2).unwrap().meaning, Meaning::Person);
        assert_eq!(table.part(3).unwrap().meaning, Meaning::Person);
        assert!(table.part(4).is_none());
        assert!(table.part(99).is_none());
        assert!(table.knows_any());
        assert!(!LabelTable::new(&["O", "B-MISC"]).knows_any());
    }

    #[test]
    fn cjk_runs_are_not_swallowed_and_zero_width_tokens_are_ignored() {
        let text = "我叫-王小明的朋友";
        // Each ideograph is a word of its own, as the tokenizer splits them.
        let mut tags = text
            .char_indices()
            .enumerate()
            .map(|(w, (i, c))| TokenTag {
                start: i,
                end: i + c.len_utf8(),
                word: w as u32,
                label: label_index(if c == '王' { "B-SURNAME" } else { "O" }),
                prob: 0.9,
            })
            .chain([TokenTag {
                start: 0,
                end: 0,
                word: 99,
                label: label_index("B-SURNAME"),
                prob: 1.0,
            }])
            .collect::<Vec<_>>();
        tags.rotate_right(1);
        let out = decode(text, &tags, &labels(), 0.5);
        // One ideograph is below min_alnum for a person (2): nothing, and in particular no
        // span widened over the whole run.
        assert!(out.is_empty());
    }
}
