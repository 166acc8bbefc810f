//! What a fact's text says about itself: its subject (so a newer statement on the same subject
//! supersedes the older one) and the words that make two statements the same (duplicates).

use super::tokenize::{for_each_term, terms};

/// Where a statement's subject ends and its value starts, with the relation kept as part of
/// the subject ("live in" Lisbon, "work at" Acme).
const RELATIONS: &[(&str, &str)] = &[
    (" is ", ""),
    (" are ", ""),
    (" am ", ""),
    (" was ", ""),
    (" were ", ""),
    (" equals ", ""),
    (" = ", ""),
    (": ", ""),
    (" live in ", "live"),
    (" lives in ", "live"),
    (" living in ", "live"),
    (" moved to ", "live"),
    (" work at ", "work"),
    (" works at ", "work"),
    (" work for ", "work"),
    (" works for ", "work"),
    (" working at ", "work"),
    (" prefer ", "prefer"),
    (" prefers ", "prefer"),
];

/// Words that name the user or hedge, not the subject ("the user's", "actually", "now").
const SUBJECT_FILLER: &[&str] = &[
    "user",
    "users",
    "actually",
    "currently",
    "still",
    "really",
    "new",
    "update",
    "correction",
    "change",
    "changed",
    "longer",
    "okay",
    "ok",
    "well",
    "oh",
    "so",
    "hey",
    "fact",
];

/// The normalized subject of a statement, or "" when none is recognizable.
pub fn subject_of(text: &str) -> String {
    let lower = format!(" {} ", text.to_lowercase());
    let best = RELATIONS
        .iter()
        .filter_map(|(m, canon)| lower.find(m).map(|p| (p, *m, *canon)))
        .min_by_key(|(p, _, _)| *p);
    let Some((pos, _, canon)) = best else {
        return String::new();
    };
    let mut words: Vec<String> = terms(&lower[..pos])
        .into_iter()
        .filter(|w| !SUBJECT_FILLER.contains(&w.as_str()))
        .collect();
    if !canon.is_empty() {
        words.push(canon.to_string());
    }
    words.join(" ")
}

/// The words that make two statements "the same": index terms in order, plus one mark per
/// negation. The index drops "not", "no" and "don't" as stop words, which would make
/// "I don't like coffee" a duplicate of "I like coffee" and lose the correction.
pub(super) fn normalized(text: &str) -> String {
    let mut out = String::new();
    for_each_term(text, |t| {
        out.push_str(t);
        out.push(' ');
    });
    for _ in 0..negations(text) {
        out.push_str("¬ ");
    }
    out
}

/// How many negating words `text` holds ("not", "never", "no", "n't" forms).
fn negations(text: &str) -> usize {
    const WORDS: &[&str] = &[
        "not", "no", "never", "nor", "neither", "without", "cannot", "nobody", "nothing", "none",
        "nowhere",
    ];
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| {
            WORDS.contains(w)
                || w.ends_with("n't")
                || w.ends_with("n\u{2019}t")
                || [
                    "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "cant", "wont",
                ]
                .contains(w)
        })
        .count()
}
