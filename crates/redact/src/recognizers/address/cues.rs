//! Where the street-address patterns can match, found without running a regex over the text.
//!
//! Every address match holds a cue: an English street suffix, a Romance street word, a
//! Germanic street ending right before white space and a house number, or a Germanic
//! preposition. The cue words all start with an ASCII capital (or, for the endings, end right
//! before " 12"), so one look at each capital and at each digit finds every place a cue regex
//! would match, and some more, which only widens the windows. Running the four cue regexes
//! over every text cost more than all other address work together in wasm.

use super::{EN_SUFFIXES, GERMANIC_WORDS, ROMANCE_LOWER_WORDS, ROMANCE_WORDS};
use regex_automata::Span;
use std::sync::OnceLock;

/// Where cues start and end (byte offsets), one list per cue kind, each sorted by start.
#[derive(Default)]
pub(crate) struct Cues {
    pub english: Vec<(usize, usize)>,
    pub romance: Vec<(usize, usize)>,
    pub germanic: Vec<(usize, usize)>,
    pub preposition: Vec<(usize, usize)>,
    /// Romance street words in lower case after a house number.
    pub romance_lower: Vec<(usize, usize)>,
}

/// Words by their first letter (`A`..`Z`) and the length of their ASCII beginning (below
/// [`MAX_LEN`]): a capital's word is compared only with words it can be. Walking a letter's
/// whole list for every capital cost more than the rest of the address search.
struct Buckets(Vec<Vec<&'static str>>);

/// Longer than any street word's ASCII beginning.
const MAX_LEN: usize = 24;

impl Buckets {
    fn of(words: &'static str) -> Buckets {
        let mut out = vec![Vec::new(); 26 * MAX_LEN];
        for w in words.split('|') {
            if let Some(c) = w.bytes().next().filter(u8::is_ascii_uppercase) {
                out[(c - b'A') as usize * MAX_LEN + ascii_len(w)].push(w);
            }
        }
        Buckets(out)
    }

    /// The words starting with capital `c` whose ASCII beginning is `len` bytes long.
    fn get(&self, c: u8, len: usize) -> &[&'static str] {
        if len >= MAX_LEN {
            return &[];
        }
        &self.0[(c - b'A') as usize * MAX_LEN + len]
    }
}

/// The English suffixes: a cue is a whole run of ASCII word bytes (it ends at `\b`).
fn english() -> &'static Buckets {
    static B: OnceLock<Buckets> = OnceLock::new();
    B.get_or_init(|| Buckets::of(EN_SUFFIXES))
}

/// The Romance street words.
fn romance() -> &'static Buckets {
    static B: OnceLock<Buckets> = OnceLock::new();
    B.get_or_init(|| Buckets::of(ROMANCE_WORDS))
}

/// `hay.starts_with(word)`, compared inline: street words are short, and a call to compare
/// each cost more than the comparison (one per capital of a text).
fn starts_with(hay: &[u8], word: &str) -> bool {
    hay.len() >= word.len() && word.bytes().zip(hay).all(|(w, &h)| w == h)
}

/// The length of `word`'s ASCII beginning.
fn ascii_len(word: &str) -> usize {
    word.bytes()
        .position(|c| !c.is_ascii())
        .unwrap_or(word.len())
}

const PREPOSITIONS: [&str; 7] = ["Am", "An der", "Auf dem", "Im", "In der", "Zum", "Zur"];

/// The first char of `text[i..]`, if it is white space (Unicode `\s`), and its length.
fn space_at(text: &str, i: usize) -> Option<usize> {
    let c = text.get(i..)?.chars().next()?;
    c.is_whitespace().then(|| c.len_utf8())
}

/// Whether `text[..end]` ends with `ending`, ignoring case (`ß` also matches `ẞ`, `ä` also
/// `Ä`, as `(?i)` does), and where that ending starts.
fn ends_with_ci(text: &str, end: usize, ending: &str) -> Option<usize> {
    let mut at = end;
    for e in ending.chars().rev() {
        let c = text[..at].chars().next_back()?;
        let same = if e == 'ß' {
            c == 'ß' || c == 'ẞ'
        } else if e.is_ascii() {
            c.is_ascii() && c.eq_ignore_ascii_case(&e)
        } else {
            // "vägen", "gränd": `(?i)` takes "VÄGEN" too.
            c.to_lowercase().eq(e.to_lowercase())
        };
        if !same {
            return None;
        }
        at -= c.len_utf8();
    }
    Some(at)
}

/// The Germanic endings by their last byte: a digit group is compared only with the endings
/// that end with the byte before it.
fn germanic_by_last() -> &'static [Vec<&'static str>] {
    static B: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    B.get_or_init(|| {
        let mut by_last = vec![Vec::new(); 256];
        for w in GERMANIC_WORDS {
            by_last[w.as_bytes()[w.len() - 1] as usize].push(w);
        }
        by_last
    })
}

/// The cues of `text`. `upper` holds the positions of its ASCII capitals, `groups` its runs
/// of ASCII digits.
pub(crate) fn find(text: &str, upper: &[usize], groups: &[Span]) -> Cues {
    let b = text.as_bytes();
    let mut cues = Cues::default();
    let word_byte = |i: usize| {
        b.get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    };
    // The end of the run of word bytes holding the previous capital: capitals in one run
    // share it, which keeps a long run of capitals linear.
    let mut end = 0;
    let (english, romance) = (english(), romance());
    for &p in upper {
        let rest = &text[p..];
        // English: a suffix ending at an ASCII word boundary (anywhere: "MainStreet" too).
        if end <= p {
            end = p + 1;
            while word_byte(end) {
                end += 1;
            }
        }
        let word = &b[p..end];
        if english
            .get(b[p], word.len())
            .iter()
            .any(|w| w.as_bytes() == word)
        {
            cues.english.push((p, end));
        }
        // A Romance word is followed by `\.?\s`, so the run of ASCII word bytes from `p` ends
        // where the word's ASCII part does: only words of that ASCII length can be there.
        // The longest word there, whose window holds those of the shorter ones.
        let longest = romance
            .get(b[p], end - p)
            .iter()
            .filter(|w| starts_with(rest.as_bytes(), w))
            .map(|w| w.len())
            .max();
        if let Some(n) = longest {
            cues.romance.push((p, p + n));
        }
        if matches!(b[p], b'A' | b'I' | b'Z') {
            for w in PREPOSITIONS
                .iter()
                .filter(|w| starts_with(rest.as_bytes(), w))
            {
                if let Some(n) = space_at(text, p + w.len()) {
                    cues.preposition.push((p, p + w.len() + n));
                }
            }
        }
    }
    // Romance words in lower case follow a house number: "12 rue", "5, calle". Most groups
    // are followed by no white space and a letter that starts none of them.
    let mut lower_firsts = [false; 256];
    for w in ROMANCE_LOWER_WORDS {
        lower_firsts[w.as_bytes()[0] as usize] = true;
    }
    for g in groups {
        let mut i = g.end;
        i += b.get(i).is_some_and(u8::is_ascii_lowercase) as usize;
        i += (b.get(i) == Some(&b',')) as usize;
        let n = match b.get(i) {
            Some(c) if c.is_ascii_whitespace() || *c == 0x0b => 1,
            Some(c) if c.is_ascii() => continue,
            _ => match space_at(text, i) {
                Some(n) => n,
                None => continue,
            },
        };
        let rest = &b[i + n..];
        if !rest.first().is_some_and(|&c| lower_firsts[c as usize]) {
            continue;
        }
        if let Some(w) = ROMANCE_LOWER_WORDS
            .iter()
            .find(|w| starts_with(rest, w) && space_at(text, i + n + w.len()).is_some())
        {
            cues.romance_lower.push((i + n, i + n + w.len()));
        }
    }
    // Germanic: an ending, one white-space character, a digit (the first of its group: the
    // character before it is white space). Only endings whose last letter is there need a
    // closer look.
    let by_last = germanic_by_last();
    for d in groups.iter().map(|g| g.start) {
        let Some(c) = text[..d].chars().next_back().filter(|c| c.is_whitespace()) else {
            continue;
        };
        let before = d - c.len_utf8();
        // Only endings whose last letter is there need a closer look.
        let Some(last) = before.checked_sub(1).map(|i| b[i].to_ascii_lowercase()) else {
            continue;
        };
        let ending = &by_last[last as usize];
        if ending.is_empty() {
            continue;
        }
        let start = ending
            .iter()
            .filter_map(|w| ends_with_ci(text, before, w))
            .min();
        if let Some(start) = start {
            cues.germanic.push((start, d + 1));
        }
    }
    cues
}
