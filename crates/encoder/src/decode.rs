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
//!    A word under the threshold but over [`CONTINUATION`] of it extends a span; words the
//!    model left untagged join it when a closed class of words says they belong (a unit line,
//!    an initial, a particle, a country: see `bridge`).
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

/// A word next to a span continues it at this share of the threshold (hysteresis, as edge
/// detectors link weak edges to strong ones): the model is often sure of a given name and
/// unsure of the surname after it (`kazu` 0.76, `kichida` 0.36), or of a country between a
/// city and a postcode. A span still needs one word at the full threshold.
pub const CONTINUATION: f32 = 0.6;

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
    /// A given name: a surname may still follow (after an initial, say).
    Given,
}

/// The model's entity labels (without `B-`/`I-`) and what they mean. Labels not listed (and
/// `O`) are outside any span.
const PARTS: &[(&str, Meaning, Anchor)] = &[
    ("GIVEN_NAME", Meaning::Person, Anchor::Given),
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

/// A tokenizer word with its most probable label's part (whatever its probability).
#[derive(Debug, Clone, Copy)]
struct Word {
    start: usize,
    end: usize,
    part: Option<Part>,
    prob: f32,
}

/// Turns token predictions (in text order) into spans (in text order, not overlapping).
pub fn decode(text: &str, tags: &[TokenTag], labels: &LabelTable, threshold: f32) -> Vec<Span> {
    let words = words(tags, labels);
    let weak = threshold * CONTINUATION;
    let mut spans = Vec::new();
    let mut open: Option<Building> = None;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let Some(part) = w.part.filter(|_| w.prob >= weak) else {
            // An untagged word may still belong to the open span: a unit line, an initial.
            if let Some(b) = &mut open {
                if let Some(next) = bridge::across(text, &words, i, b, weak) {
                    i = next;
                    continue;
                }
            }
            i += 1;
            continue;
        };
        let strong = w.prob >= threshold;
        if let Some(b) = &mut open {
            let gap = &text[b.end..w.start];
            let meaning = b.meaning();
            let same = meaning == part.meaning && joins(gap, meaning);
            let one_number = meaning.is_number()
                && part.meaning.is_number()
                && !gap.contains(char::is_whitespace)
                && joins(gap, Meaning::IdNumber);
            if same || one_number {
                b.add(w, i, part, strong);
                i += 1;
                continue;
            }
            // A unit number the model calls an ID (`Apt. 542`, `542` as a licence number):
            // a short number inside an address line is part of the address.
            if meaning == Meaning::Address && part.meaning.is_number() {
                if let Some(next) = bridge::number_in_address(text, &words, i, b) {
                    i = next;
                    continue;
                }
            }
        }
        if let Some(b) = open.take() {
            spans.extend(b.finish(text, &words));
        }
        let mut b = Building::new(w, i);
        b.add(w, i, part, strong);
        open = Some(b);
        i += 1;
    }
    spans.extend(open.and_then(|b| b.finish(text, &words)));
    spans
}

/// Groups consecutive tokens of one word; the word takes its most probable token's label.
fn words(tags: &[TokenTag], labels: &LabelTable) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::with_capacity(tags.len());
    let mut current: Option<(u32, Word, u16)> = None;
    let close = |w: Word, label: u16, words: &mut Vec<Word>| {
        let part = labels.part(label as usize);
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
    let separators = |s: &str| s.chars().all(|c| j.separators.contains(c));
    match gap.split_once('\n') {
        // A line of an address block may open with a bullet or a quote mark (`> `, `• `,
        // `- `): what comes before the first letter of the next line is not a word.
        Some((line_end, next_line)) if meaning == Meaning::Address && breaks == 1 => {
            separators(line_end) && !next_line.contains(char::is_alphanumeric)
        }
        _ => breaks <= j.line_breaks && separators(gap),
    }
}

/// A span being built from words.
struct Building {
    /// Probability mass per meaning of its words: a number's pieces may disagree.
    mass: [f32; MEANINGS],
    start: usize,
    end: usize,
    /// Index of its first and of its last word in the word list.
    first_word: usize,
    last_word: usize,
    prob_sum: f32,
    words: u32,
    /// Whether a word reached the full threshold (a span cannot be all continuation).
    strong: bool,
    has_street: bool,
    locators: u32,
    regions: u32,
    /// What the last word added counts as: after a given name a surname may follow an
    /// initial, after a street its number.
    last_anchor: Anchor,
}

impl Building {
    fn new(w: &Word, index: usize) -> Building {
        Building {
            mass: [0.0; MEANINGS],
            start: w.start,
            end: w.end,
            first_word: index,
            last_word: index,
            prob_sum: 0.0,
            words: 0,
            strong: false,
            has_street: false,
            locators: 0,
            regions: 0,
            last_anchor: Anchor::None,
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

    fn add(&mut self, w: &Word, index: usize, part: Part, strong: bool) {
        self.mass[part.meaning as usize] += w.prob;
        self.end = w.end;
        self.last_word = index;
        self.prob_sum += w.prob;
        self.words += 1;
        self.strong |= strong;
        self.last_anchor = part.anchor;
        self.count(part.anchor);
    }

    fn count(&mut self, anchor: Anchor) {
        match anchor {
            Anchor::Street => self.has_street = true,
            Anchor::Locator => self.locators += 1,
            Anchor::Region => self.regions += 1,
            Anchor::None | Anchor::Given => {}
        }
    }

    /// Takes words `from..to` that the model did not tag but that belong to the span (see
    /// [`bridge`]), counting as `anchor`.
    fn take(&mut self, words: &[Word], to: usize, anchor: Anchor) {
        self.end = words[to - 1].end;
        self.last_word = to - 1;
        self.last_anchor = anchor;
        self.count(anchor);
    }

    /// The finished span, or `None` when what was found is not a value of its meaning.
    fn finish(self, text: &str, words: &[Word]) -> Option<Span> {
        let meaning = self.meaning();
        let j = joining(meaning);
        if !self.strong {
            return None;
        }
        if meaning == Meaning::Address
            && !self.has_street
            && !(self.locators > 0 && self.locators + self.regions >= 2)
        {
            return None;
        }
        let (mut start, mut end) = (self.start, self.end);
        match meaning {
            Meaning::Person => (start, end) = bridge::widen_person(text, words, &self),
            Meaning::Address => {
                start = bridge::widen_address_start(text, words, &self);
                end = bridge::widen_address_end(text, &self);
            }
            _ => {}
        }
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
        if meaning == Meaning::Person {
            (start, end) = without_clitics(text, start, end);
        }
        // An initial keeps its period (`Harold B.`): it is part of the name, not the sentence.
        let initial_last = text[start..end]
            .rsplit(' ')
            .next()
            .is_some_and(|w| w.chars().count() == 1 && w.chars().all(char::is_uppercase));
        if meaning == Meaning::Person && initial_last && text[end..].starts_with('.') {
            end += 1;
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
/// possessive `'s`; and forward over a period between letters, an abbreviation's inside
/// (`M.a`, Spanish for María: "José M." would end inside the word).
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
        let Some(j) = (chars.next()).filter(|&c| joiner(c) || c == '.') else {
            break;
        };
        let after = &rest[j.len_utf8()..];
        let run = letters(after);
        let possessive = j != '-' && is_clitic(&after[..run]);
        // A period joins only an abbreviation's short letters (`M.a`), never a dotted name in
        // code (`celery.worker`).
        let before = text[..end]
            .chars()
            .rev()
            .take_while(|c| c.is_alphabetic())
            .count();
        let short = |n: usize| (1..=2).contains(&n);
        let dotted = j == '.' && !(short(before) && short(after[..run].chars().count()));
        if run == 0 || possessive || dotted {
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

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’')
}

/// Whether `word` is an English clitic ("m" of "I'm", "s" of "Dana's"): shared with the
/// redactor's name completion, which must not take "I'm" for a name word either.
pub fn is_clitic(word: &str) -> bool {
    word_classes::APOSTROPHE_CLITICS
        .iter()
        .any(|c| c.eq_ignore_ascii_case(word))
}

/// Moves a person span's edges off the clitics of a contraction or a possessive: the model
/// may tag the `m` of "I'm Dana" (the tokenizer makes it a word of its own), and `whole_words`
/// may then pull in the "I'" before it; "Dana'll" ends at "Dana". The span keeps the name's
/// own word boundaries, so "Hi, I'm Dana Reyes." is sent as "Hi, I'm [PERSON_1]."
pub fn without_clitics(text: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    // A head word that is a clitic after an apostrophe ("m Dana"), or a whole contraction
    // ("I'm Dana", "i’m tom"): the name starts after it and the blanks that follow.
    loop {
        let span = &text[start..end];
        let word_end = span.find(char::is_whitespace).unwrap_or(span.len());
        let word = &span[..word_end];
        let after_apostrophe = text[..start].chars().next_back().is_some_and(is_apostrophe)
            && text[..start]
                .chars()
                .rev()
                .nth(1)
                .is_some_and(char::is_alphanumeric);
        let contraction = word
            .char_indices()
            .find(|&(_, c)| is_apostrophe(c))
            .is_some_and(|(i, c)| i > 0 && is_clitic(&word[i + c.len_utf8()..]));
        if !((after_apostrophe && is_clitic(word)) || contraction) || word_end == span.len() {
            break;
        }
        let rest = &span[word_end..];
        start += word_end + (rest.len() - rest.trim_start().len());
    }
    // A tail clitic ("Dana's", "Dana'll"): the name ends before its apostrophe.
    let span = &text[start..end];
    if let Some((i, c)) = span.char_indices().rev().find(|&(_, c)| is_apostrophe(c)) {
        let tail = &span[i + c.len_utf8()..];
        if i > 0 && !tail.contains(char::is_whitespace) && is_clitic(tail) {
            end = start + i;
        }
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

mod bridge;
#[cfg(test)]
mod tests;
mod word_classes;
