//! Parts of a message that are code, where a name is sample data (`Person("Alice")`,
//! `- name: bob` in a YAML block, `{"name": "Jane Smith"}`) far more often than a person the
//! user is talking about: the fenced blocks and inline code [`CodeSpans`] reads (the one reader
//! of backticks and fences the rules use too), and **code lines**: a line with at least two
//! independent signs of code (a statement end `;`, braces, an assignment or comparison, a call
//! `name(`, a member `a.b(`, a JSON key `"name":`, a leading keyword such as `const`, `def`,
//! `import`, `assert`, a `//` comment). One sign alone is prose often enough (`Hi (again)`,
//! `A = B?`).
//!
//! Byte ranges into the text, in order, not overlapping. Used by the model's pass
//! ([`crate::model`]), which has no tokens to ask about one by one.

use super::code::CodeSpans;
use std::ops::Range;

/// Signs of code in one line needed to call the line code.
const CODE_LINE_SIGNS: usize = 2;

/// Keywords that start a statement in common languages (and shell and SQL).
const LEADING_KEYWORDS: &[&str] = &[
    "const ",
    "let ",
    "var ",
    "def ",
    "fn ",
    "pub ",
    "function ",
    "func ",
    "import ",
    "from ",
    "class ",
    "struct ",
    "type ",
    "return ",
    "assert ",
    "expect(",
    "print(",
    "println!",
    "echo ",
    "select ",
    "insert ",
    "update ",
    "if (",
    "for (",
    "while (",
    "public ",
    "private ",
    "new ",
    "#include",
    "package ",
    "using ",
    "$ ",
];

/// The code zones of `text`, as byte ranges in order.
pub(crate) fn code_zones(text: &str) -> Vec<Range<usize>> {
    let mut zones: Vec<Range<usize>> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if code_signs(line) >= CODE_LINE_SIGNS {
            zones.push(start..at);
        }
    }
    if text.contains(['`', '~']) {
        zones.extend(CodeSpans::of(text).ranges());
        zones.sort_by_key(|z| z.start);
    }
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(zones.len());
    for zone in zones {
        match merged.last_mut() {
            Some(last) if last.end >= zone.start => last.end = last.end.max(zone.end),
            _ => merged.push(zone),
        }
    }
    merged
}

/// Whether `start..end` lies inside one of `zones` (as [`code_zones`] returns them).
pub(crate) fn inside(zones: &[Range<usize>], start: usize, end: usize) -> bool {
    let i = zones.partition_point(|z| z.end <= start);
    zones
        .get(i)
        .is_some_and(|z| z.start <= start && end <= z.end)
}

/// How many independent signs of code a line shows.
fn code_signs(line: &str) -> usize {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    let b = t.as_bytes();
    let mut signs = 0;
    signs += usize::from(t.ends_with(';') || t.contains("; //") || t.contains(");"));
    signs += usize::from(t.contains('{') && t.contains('}'));
    signs +=
        usize::from(t.contains(" = ") || t.contains(":=") || t.contains("==") || t.contains("=>"));
    signs += usize::from(LEADING_KEYWORDS.iter().any(|k| lower.starts_with(k)));
    signs += usize::from(t.contains("//") && !t.contains("://"));
    // `"name":` — a quoted key.
    signs += usize::from(t.contains("\":") || t.contains("':"));
    // A call right after an identifier (`greet(`, `String::from(`), or a member call.
    let call = b.windows(2).enumerate().any(|(i, w)| {
        w[1] == b'(' && (w[0].is_ascii_alphanumeric() || w[0] == b'_') && {
            // Not a word before a parenthesis in prose: prose puts a space there.
            let word_start = b[..=i]
                .iter()
                .rposition(|c| {
                    !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.' || *c == b':')
                })
                .map_or(0, |p| p + 1);
            let word = &t[word_start..=i];
            word.contains('.')
                || word.contains("::")
                || word.chars().any(|c| c == '_')
                || word.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        }
    });
    signs += usize::from(call);
    signs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zoned(text: &str) -> Vec<&str> {
        code_zones(text).into_iter().map(|z| &text[z]).collect()
    }

    #[test]
    fn fenced_blocks_are_code_to_their_closing_fence_or_the_end() {
        let text = "is this valid?\n```yaml\n- name: bob\n```\nthanks\n~~~\nlet a = 1\n";
        assert_eq!(
            zoned(text),
            ["```yaml\n- name: bob\n```", "~~~\nlet a = 1\n"]
        );
    }

    #[test]
    fn inline_code_is_code_and_a_lone_backtick_is_not() {
        let text = "In my test `assert greet(\"Bob\")` fails, it`s odd";
        assert_eq!(zoned(text), ["`assert greet(\"Bob\")`"]);
    }

    #[test]
    fn a_line_needs_two_signs_of_code() {
        let code = "const user = { name: \"John Doe\" }; // why";
        assert_eq!(zoned(code), [code]);
        let json = "the example: {\"name\": \"Jane Smith\", \"email\": \"jane@example.org\"}";
        assert_eq!(zoned(json), [json]);
        // One sign only: prose.
        for prose in [
            "Hi (again), this is Maria",
            "Is A = B in this case?",
            "Call Maria Gonzalez at 10; she expects it",
            "see https://example.com/a for Maria's page",
        ] {
            assert!(zoned(prose).is_empty(), "{prose}");
        }
    }

    #[test]
    fn inside_checks_whole_containment() {
        let zones = vec![2..5, 10..20];
        assert!(inside(&zones, 10, 20));
        assert!(inside(&zones, 3, 4));
        assert!(!inside(&zones, 4, 6));
        assert!(!inside(&zones, 6, 9));
        assert!(!inside(&[], 0, 1));
    }
}
