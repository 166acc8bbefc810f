//! The person scan as it was before [`super::scan_from`]: every word of the text tokenized,
//! then read in order. The tests keep it as the reference the lazy scan must equal.

use super::names::{
    is_accented_given_name, is_honorific, is_not_name, names_a_thing, precedes_a_given_name,
};
use super::*;

/// Words: runs of letters, with inner apostrophes and hyphens (O'Brien, Jean-Luc, I'm).
fn tokenize(text: &str, out: &mut Vec<Token>) {
    let b = text.as_bytes();
    let n = b.len();
    // The char at `i` (which must be non-ASCII), whether it is a letter, and its length.
    let decode = |i: usize| {
        let c = text[i..].chars().next().unwrap_or(' ');
        (c, c.len_utf8())
    };
    let letter_at = |i: usize| match b.get(i) {
        Some(c) if c.is_ascii() => c.is_ascii_alphabetic(),
        Some(_) => decode(i).0.is_alphabetic(),
        None => false,
    };
    let mut i = 0;
    // ASCII runs are skipped byte by byte; only other characters are decoded.
    while i < n {
        while i < n && b[i].is_ascii() && !b[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i >= n {
            break;
        }
        if !b[i].is_ascii() {
            let (c, len) = decode(i);
            if !c.is_alphabetic() {
                i += len;
                continue;
            }
        }
        let start = i;
        while i < n {
            while i < n && b[i].is_ascii_alphabetic() {
                i += 1;
            }
            let Some(&c) = b.get(i) else { break };
            if c.is_ascii() {
                // Inner apostrophes and hyphens join letters: O'Brien, Jean-Luc.
                if matches!(c, b'\'' | b'-') && letter_at(i + 1) {
                    i += 1;
                    continue;
                }
                break;
            }
            let (ch, len) = decode(i);
            if ch.is_alphabetic() || (ch == '’' && letter_at(i + len)) {
                i += len;
                continue;
            }
            break;
        }
        out.push(Token { start, end: i });
    }
}

/// Person names, reading every word in order.
pub(super) fn scan_by_tokens(text: &str, out: &mut Vec<Candidate>) {
    let mut toks = Vec::with_capacity(text.len() / 5);
    tokenize(text, &mut toks);
    let word = |k: usize| &text[toks[k].start..toks[k].end];
    let gap = |k: usize| {
        let from = if k == 0 { 0 } else { toks[k - 1].end };
        &text[from..toks[k].start]
    };
    // The lower-cased words before token i match `cue`, separated by plain spaces.
    let cue_matches = |i: usize, cue: &[&str]| {
        if cue.len() > i {
            return false;
        }
        cue.iter().enumerate().all(|(n, w)| {
            let k = i - cue.len() + n;
            let sep = gap(k + 1);
            lower_eq(word(k), w)
                && (sep == " "
                    || (n + 1 == cue.len() && sep.trim() == ",")
                    || (n + 1 == cue.len() && sep.trim() == ":"))
        })
    };
    let (mut lower_buf, mut prev_buf, mut next_buf) = (String::new(), String::new(), String::new());
    let mut i = 0;
    while i < toks.len() {
        let w = word(i);
        // Most words are not capitalized: test that before lower-casing (lower-case ASCII first,
        // without a call).
        if w.as_bytes()[0].is_ascii_lowercase() || !is_capitalized(w) {
            i += 1;
            continue;
        }
        let lower = lower_into(w, &mut lower_buf);
        if is_not_name(lower) || is_honorific(lower) {
            i += 1;
            continue;
        }
        let first_part = lower.split('-').next().unwrap_or("");
        let given = is_given_name(lower) || is_given_name(first_part);
        let alone_a_name = !names_a_thing(lower) && !names_a_thing(first_part);
        let prev_lower = (i > 0).then(|| lower_into(word(i - 1), &mut prev_buf));
        let prev = (i > 0).then(|| toks[i - 1]);
        let after_title = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| cues::is_title(text, t, p, gap(i)));
        let after_name_label = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| cues::labels_a_name(text, t, p, gap(i), given));
        let after_role_label = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| cues::labels_a_role(text, t, p, gap(i), given));
        let header = prev_lower.is_some_and(|p| cues::is_header(p, gap(i)));
        let cue = |strength| {
            prev_lower.is_some_and(|p| cues_ending_in(p, strength).any(|c| cue_matches(i, c)))
        };
        let strong = after_title || after_name_label || cue(Cue::Strong);
        let speaker = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| cues::speaker_after_quote(text, t, p, gap(i)));
        let medium = !strong && (cue(Cue::Medium) || speaker);
        let signature = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| cues::signs_off(text, t, p, gap(i)));

        // Extend over the family name: capitalized words and particles joined by single spaces.
        let mut j = i;
        while j + 1 < toks.len() && j - i < 4 && gap(j + 1) == " " {
            let next = word(j + 1);
            if is_capitalized(next)
                && !super::words::opens_a_label(text, toks[j + 1].end)
                && (precedes_a_given_name(word(j)) || {
                    let next_lower = lower_into(next, &mut next_buf);
                    !is_not_name(next_lower) && !is_honorific(next_lower)
                })
            {
                j += 1;
            } else if is_particle(next) {
                // One or two particles ("da", "van der") must lead to a capitalized word.
                let mut k = j + 1;
                while k + 1 < toks.len()
                    && k - j < 2
                    && gap(k + 1) == " "
                    && is_particle(word(k + 1))
                {
                    k += 1;
                }
                if k + 1 < toks.len() && gap(k + 1) == " " && is_capitalized(word(k + 1)) {
                    j = k + 1;
                } else {
                    break;
                }
            } else if matches!(next, "Jr" | "Sr") {
                j += 1;
            } else {
                break;
            }
        }
        let mut surname_first = false;
        if j == i && (after_name_label || after_role_label || header) {
            if let Some(g) = cues::given_after_comma(text, toks[j].end) {
                assert_eq!(toks[j + 1].start, g.start);
                j += 1;
                surname_first = true;
            }
        }
        let display = (given || j > i || strong || medium || header)
            && cues::mailbox_follows(text, toks[j].end);
        let phrase =
            after_name_label && cues::label_holds_a_phrase(text, given, j > i, toks[j].end);
        let role_named = after_role_label && (given || j > i || is_accented_given_name(lower));
        let score = score(
            text,
            toks[i],
            toks[j].end,
            Evidence {
                strong: (strong && !phrase)
                    || role_named
                    || signature
                    || display
                    || (header && surname_first),
                medium,
                given,
                multi: j > i,
                alone_a_name,
                titled: after_title,
            },
        );
        if score > 0.0 {
            let mut end = toks[j].end;
            if matches!(word(j), "Jr" | "Sr") && text[end..].starts_with('.') {
                end += 1;
            }
            out.push(Candidate {
                kind: EntityType::Person,
                start: toks[i].start,
                end,
                score,
            });
            i = j + 1;
        } else {
            i += 1;
        }
    }
    cased::scan(text, None, out);
}
