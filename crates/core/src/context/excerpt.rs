//! Excerpts of long turns. An old answer of 900 tokens should not cost 900 tokens when one
//! paragraph of it is what the query is about: a long turn is cut into passages (paragraphs,
//! list items, a heading with what follows it, a fenced code block whole), the passages are
//! scored against the query's words, and the best one is sent with its neighbours while they
//! fit a cap. An excerpt is always a run of whole passages, so it never cuts a code block or
//! a table row in half.

use crate::recall::tokenize;
use std::collections::HashSet;
use std::ops::Range;

/// A turn longer than this (in characters, about 300 tokens of English) may go as an excerpt.
pub const LONG_TURN_CHARS: usize = 1200;
/// An excerpt grows to about this many characters (about 150 tokens) when its passages allow.
pub const EXCERPT_CHARS: usize = 600;

/// Whether `line` opens a passage of its own: a heading, a list item, a fence.
fn opens_passage(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with('#') || t.starts_with("```") || t.starts_with("~~~") {
        return true;
    }
    if let Some(rest) = t.strip_prefix(['-', '*', '+']) {
        return rest.starts_with(' ');
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && digits < 4
        && t[digits..].starts_with(['.', ')'])
        && t[digits + 1..].starts_with(' ')
}

fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The passages of `text` as byte ranges that together cover it, in order. A boundary falls
/// only at the start of a line outside a code fence: before a blank-line-separated paragraph,
/// a heading, a list item or a fence. A heading stays with what follows it.
pub fn passages(text: &str) -> Vec<Range<usize>> {
    let mut starts = vec![0];
    let mut in_fence = false;
    let mut after_blank = false;
    let mut after_heading = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let blank = line.trim().is_empty();
        let fence = is_fence(line);
        let opens = !blank && (after_blank || opens_passage(line));
        if !in_fence && at > 0 && !after_heading && opens && starts.last() != Some(&at) {
            starts.push(at);
        }
        if fence {
            in_fence = !in_fence;
            // What follows a closing fence starts anew.
            if !in_fence {
                after_blank = true;
                after_heading = false;
                at += line.len();
                continue;
            }
        }
        if !blank {
            after_heading = !in_fence && line.trim_start().starts_with('#');
        }
        after_blank = blank;
        at += line.len();
    }
    let mut out: Vec<Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
    out.push(*starts.last().unwrap_or(&0)..text.len());
    out.retain(|r| !r.is_empty());
    out
}

/// The run of passages of `text` that best matches `query`, as a byte range: the passage that
/// shares the most of the query's rarer words (rare across this turn's passages), grown to
/// the neighbour that matches more (the next one on a tie) while the whole stays within
/// `EXCERPT_CHARS`. With no word in common (a hit by meaning), the opening passages. `None`
/// when the turn is short or one passage.
pub fn best(text: &str, query: &str) -> Option<Range<usize>> {
    if text.len() <= LONG_TURN_CHARS {
        return None;
    }
    let parts = passages(text);
    if parts.len() < 2 {
        return None;
    }
    let wanted: HashSet<String> = tokenize::terms(query).into_iter().collect();
    let words: Vec<HashSet<String>> = parts
        .iter()
        .map(|r| {
            tokenize::terms(&text[r.clone()])
                .into_iter()
                .filter(|t| wanted.contains(t))
                .collect()
        })
        .collect();
    let n = parts.len() as f32;
    let weight = |t: &String| {
        let df = words.iter().filter(|w| w.contains(t)).count() as f32;
        (1.0 + n / df.max(1.0)).ln()
    };
    let score: Vec<f32> = words.iter().map(|w| w.iter().map(weight).sum()).collect();
    let top = (0..parts.len())
        .max_by(|&a, &b| score[a].total_cmp(&score[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let (mut lo, mut hi) = (top, top);
    let len = |lo: usize, hi: usize| parts[hi].end - parts[lo].start;
    loop {
        let next = (hi + 1 < parts.len() && len(lo, hi + 1) <= EXCERPT_CHARS).then(|| hi + 1);
        let prev = (lo > 0 && len(lo - 1, hi) <= EXCERPT_CHARS).then(|| lo - 1);
        match (prev, next) {
            (Some(p), Some(x)) if score[p] > score[x] => lo = p,
            (_, Some(x)) => hi = x,
            (Some(p), None) => lo = p,
            (None, None) => break,
        }
    }
    let range = parts[lo].start..parts[hi].end;
    (range.len() < text.len()).then_some(range)
}

/// The text of an excerpt as it is sent: `[…]` where something was cut.
pub fn render(text: &str, range: &Range<usize>) -> String {
    let body = text[range.clone()].trim();
    let before = if range.start > 0 { "[…] " } else { "" };
    let after = if range.end < text.len() { " […]" } else { "" };
    format!("{before}{body}{after}")
}

/// A byte offset of `text` in UTF-16 code units, as JS indexes strings.
pub fn utf16_offset(text: &str, byte: usize) -> usize {
    text[..byte].encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> String {
        let mut t = String::from("Here are three ways to speed up the build.\n\n");
        t.push_str("## Caching\n\nUse sccache so repeated compiles of the same crate are free. ");
        t.push_str(&"It keeps objects on disk. ".repeat(12));
        t.push_str(
            "\n\n```rust\nfn main() {\n\n    println!(\"fence with a blank line\");\n}\n```\n\n",
        );
        t.push_str("- Split the workspace into crates so each rebuild touches less code.\n");
        t.push_str("- Use the mold linker on Linux for faster links.\n\n");
        t.push_str("| tool | gain |\n| --- | --- |\n| sccache | 40 % |\n| mold | 20 % |\n\n");
        t.push_str(
            &"Finally, profile with cargo --timings to see which crate dominates. ".repeat(10),
        );
        t
    }

    #[test]
    fn passages_cover_the_text_and_keep_fences_and_tables_whole() {
        let t = answer();
        let p = passages(&t);
        assert_eq!(p.first().unwrap().start, 0);
        assert_eq!(p.last().unwrap().end, t.len());
        for w in p.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
        let fence = p
            .iter()
            .find(|r| t[(*r).clone()].contains("```rust"))
            .unwrap();
        assert!(
            t[fence.clone()].trim_end().ends_with("```"),
            "{:?}",
            &t[fence.clone()]
        );
        let table = p
            .iter()
            .find(|r| t[(*r).clone()].contains("| tool"))
            .unwrap();
        assert!(t[table.clone()].contains("| mold | 20 % |"));
        let heading = p
            .iter()
            .find(|r| t[(*r).clone()].contains("## Caching"))
            .unwrap();
        assert!(
            t[heading.clone()].contains("sccache"),
            "a heading stays with its passage"
        );
        assert!(p.iter().any(|r| t[r.clone()].starts_with("- Use the mold")));
    }

    #[test]
    fn the_best_passage_is_found_and_cut_on_passage_edges() {
        let t = answer();
        let r = best(&t, "which linker did you suggest, mold?").unwrap();
        assert!(t[r.clone()].contains("mold linker"));
        assert!(r.len() <= EXCERPT_CHARS);
        let starts: Vec<usize> = passages(&t).iter().map(|p| p.start).collect();
        assert!(starts.contains(&r.start));
        assert!(starts.contains(&r.end) || r.end == t.len());
        let sent = render(&t, &r);
        assert!(sent.starts_with("[…] ") && sent.ends_with(" […]"));
    }

    #[test]
    fn short_turns_and_single_passages_go_whole() {
        assert_eq!(best("a short answer", "answer"), None);
        assert_eq!(best(&"one paragraph only. ".repeat(100), "paragraph"), None);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 12] = [
        "cache", "linker", "crate", "budget", "river", "violin", "error", "server", "option",
        "table", "query", "garden",
    ];

    fn words() -> impl Strategy<Value = String> {
        prop::collection::vec(0..WORDS.len(), 3..40)
            .prop_map(|w| w.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" "))
    }

    /// Markdown blocks as assistants write them; a fence holds blank lines and list-like and
    /// heading-like lines that must not open passages.
    fn block() -> impl Strategy<Value = String> {
        prop_oneof![
            words().prop_map(|w| format!("{w}.\n\n")),
            words().prop_map(|w| format!("## {w}\n{w}.\n\n")),
            (words(), words()).prop_map(|(a, b)| format!("- {a}\n- {b}\n1. {a}\n")),
            (words(), words()).prop_map(|(a, b)| format!("```\n{a}\n\n# {b}\n- {a}\n```\n")),
            (words(), words())
                .prop_map(|(a, b)| format!("| {a} | {b} |\n| --- | --- |\n| {b} | {a} |\n")),
        ]
    }

    fn fences_before(text: &str, at: usize) -> usize {
        text[..at].lines().filter(|l| is_fence(l)).count()
    }

    proptest! {
        #[test]
        fn an_excerpt_is_whole_lines_outside_fences(
            blocks in prop::collection::vec(block(), 2..30),
            query in words(),
        ) {
            let text: String = blocks.concat();
            let parts = passages(&text);
            prop_assert_eq!(parts.first().map(|p| p.start), Some(0));
            prop_assert_eq!(parts.last().map(|p| p.end), Some(text.len()));
            for p in &parts {
                prop_assert!(fences_before(&text, p.start) % 2 == 0, "a passage starts in a fence");
            }
            if let Some(r) = best(&text, &query) {
                prop_assert!(r.start < r.end && r.end <= text.len() && r.len() < text.len());
                for edge in [r.start, r.end] {
                    prop_assert!(edge == 0 || edge == text.len() || text[..edge].ends_with('\n'),
                        "an edge inside a line (a table row cut)");
                    prop_assert!(fences_before(&text, edge) % 2 == 0, "an edge inside a code fence");
                }
                prop_assert!(render(&text, &r).contains(text[r.clone()].trim()));
            }
        }
    }
}
