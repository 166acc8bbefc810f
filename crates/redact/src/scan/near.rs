//! The windows of a keyword gate ([`super::gate::Gate::Near`]): around each occurrence of its
//! words where a word starts, so many white-space-separated words back and ahead.

use super::prescan::{skip_space, skip_space_back, skip_word, skip_word_back, Prescan};
use regex_automata::Span;

/// A test a keyword occurrence must pass (see `Gate::Near`): the text and the word's start.
pub(crate) type NearTest = fn(&str, usize) -> bool;

/// Adds a window, merging it with the previous one when they overlap. Windows must come in
/// order of their start.
pub(crate) fn push_window(out: &mut Vec<Span>, start: usize, end: usize) {
    if let Some(last) = out.last_mut() {
        if start <= last.end {
            last.end = last.end.max(end);
            return;
        }
    }
    out.push(Span::from(start..end));
}

/// Pushes the windows around the occurrences of `words` that pass `test`, `back` and `ahead`
/// words wide, merged, in order.
pub(crate) fn near_windows(
    text: &str,
    pre: &Prescan,
    words: &[&str],
    (back, ahead): (usize, usize),
    test: Option<NearTest>,
    out: &mut Vec<Span>,
) {
    let mut found: Vec<(usize, usize)> = Vec::new();
    let b = text.as_bytes();
    let starts_word =
        |at: usize| at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
    // Per first letter, the word starts with it (the prescan's, or without them a search for
    // the letter), for every word that starts with it: "p" is common inside words, rarely
    // first, and one search over the text per letter and gate cost more than the rest of the
    // password recognizers.
    let mut letters: Vec<u8> = words.iter().map(|w| w.as_bytes()[0]).collect();
    letters.sort_unstable();
    letters.dedup();
    for first in letters {
        // Occurrences in one word share its window: found once, so a long word
        // full of them stays linear.
        let mut word_end = 0;
        let upper = first.to_ascii_uppercase();
        // The prescan's word starts of this letter, or a search for the letter.
        let shared = pre.starts.as_ref().and_then(|s| s.of_letter(first));
        let searched = match shared {
            Some(_) => None,
            None => Some(memchr::memchr2_iter(first, upper, b)),
        };
        let candidates = shared.into_iter().flatten().copied();
        for at in candidates.chain(searched.into_iter().flatten()) {
            if at < word_end
                || !starts_word(at)
                || !words.iter().any(|w| {
                    let w = w.as_bytes();
                    b.len() - at >= w.len() && b[at..at + w.len()].eq_ignore_ascii_case(w)
                })
                || test.is_some_and(|test| !test(text, at))
            {
                continue;
            }
            word_end = skip_word(text, at);
            let mut start = skip_word_back(text, at);
            for _ in 0..back {
                start = skip_word_back(text, skip_space_back(text, start));
            }
            let mut end = word_end;
            for _ in 0..ahead {
                end = skip_word(text, skip_space(text, end));
            }
            found.push((start, end));
        }
    }
    found.sort_unstable();
    for (s, e) in found {
        push_window(out, s, e);
    }
}
