//! Where a text is code: fenced blocks (```` ``` ````, `~~~`), inline code spans (`` `…` ``)
//! and string literals in code syntax (`Person("Alice")`, `name: 'Jane'`, `= "Bob"`). Sample
//! data lives there: names and addresses in code are mostly fixtures, so recognizers that
//! read words ask these before they report one.

/// The byte ranges of a text's fenced code blocks and inline code spans, in order.
#[derive(Debug, Default)]
pub(crate) struct CodeSpans(Vec<(usize, usize)>);

impl CodeSpans {
    /// Finds them in one pass over the backticks and tildes of `text`. An unclosed fence runs
    /// to the end of the text (a pasted snippet often loses its closing fence); an unclosed
    /// backtick opens no span.
    pub(crate) fn of(text: &str) -> CodeSpans {
        let b = text.as_bytes();
        let mut spans = Vec::new();
        let mut i = 0;
        while let Some(p) = memchr::memchr2(b'`', b'~', &b[i..]).map(|p| i + p) {
            let c = b[p];
            let run = b[p..].iter().take_while(|&&x| x == c).count();
            // Chat opens a fence mid-line ("here is my code ```py") and writes on after the
            // closing one ("``` does it work?"): three backticks anywhere open or close one.
            // Tildes fence only at a line's start.
            if run >= 3 && (c == b'`' || at_line_start(b, p)) {
                let mut j = p + run;
                let close = loop {
                    match memchr::memchr(c, &b[j..]).map(|q| j + q) {
                        None => break b.len(),
                        Some(q) => {
                            let n = b[q..].iter().take_while(|&&x| x == c).count();
                            if n >= 3 && (c == b'`' || at_line_start(b, q)) {
                                break q + n;
                            }
                            j = q + n;
                        }
                    }
                };
                spans.push((p, close));
                i = close;
            } else if c == b'`' {
                // Inline code: the same number of backticks closes it, on the same line.
                let line_end = memchr::memchr(b'\n', &b[p..]).map_or(b.len(), |q| p + q);
                let mut j = p + run;
                let mut close = None;
                while let Some(q) = memchr::memchr(b'`', &b[j..line_end]).map(|q| j + q) {
                    let n = b[q..line_end].iter().take_while(|&&x| x == b'`').count();
                    if n == run {
                        close = Some(q + n);
                        break;
                    }
                    j = q + n;
                }
                match close {
                    Some(e) => {
                        spans.push((p, e));
                        i = e;
                    }
                    None => i = p + run,
                }
            } else {
                i = p + run;
            }
        }
        CodeSpans(spans)
    }

    /// The spans, in order.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.0.iter().map(|&(s, e)| s..e)
    }

    /// Whether `start..end` lies inside one of the spans.
    pub(crate) fn holds(&self, start: usize, end: usize) -> bool {
        self.around(start, end).is_some()
    }

    /// The span holding `start..end`, if one does.
    pub(crate) fn around(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let k = self.0.partition_point(|&(s, _)| s <= start);
        (k > 0 && self.0[k - 1].1 >= end).then(|| self.0[k - 1])
    }
}

/// Whether the byte at `p` starts its line, after blanks and a quote mark (`> ```js`).
fn at_line_start(b: &[u8], p: usize) -> bool {
    let mut i = p;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'>') {
        i -= 1;
    }
    i == 0 || b[i - 1] == b'\n'
}

/// Whether `start..end` is a whole string literal in code syntax: quoted, and the opening
/// quote comes after `(`, `[`, `{`, `,`, `:`, `=` or `=>` (`Person("Alice")`, `{"name":
/// "John Doe"}`, `name = 'Jane'`, `['Anna', 'Ben']`). Prose quotes a name after a word
/// (`she said "Anna"`), which this leaves alone.
pub(crate) fn string_literal(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let Some(&quote) = start.checked_sub(1).and_then(|i| b.get(i)) else {
        return false;
    };
    if !matches!(quote, b'"' | b'\'') || b.get(end) != Some(&quote) {
        return false;
    }
    let mut i = start - 1;
    while i > 0 && b[i - 1] == b' ' {
        i -= 1;
    }
    i > 0 && matches!(b[i - 1], b'(' | b'[' | b'{' | b',' | b':' | b'=' | b'>')
}

/// Whether `start..end` is in a code block: a `NAME=value` line of an `.env` file, inline
/// code on its line, or a fenced block opened in the 8 KiB before it. Bounded, for
/// recognizers that ask about few matches without a [`CodeSpans`] of the whole text. String
/// literals are not asked about here: a tool call's JSON arguments are literals and hold real
/// values.
pub(crate) fn in_code_near(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    if env_line(b, start) {
        return true;
    }
    let mut lo = start.saturating_sub(8192);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (end + 8192).min(b.len());
    hi = memchr::memchr(b'\n', &b[end..hi]).map_or(hi, |q| end + q);
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    CodeSpans::of(&text[lo..hi]).holds(start - lo, end - lo)
}

/// Whether the line holding `at` is an environment assignment whose value starts at `at`:
/// `ADMIN_EMAIL=admin@example.com`.
fn env_line(b: &[u8], at: usize) -> bool {
    let lo = at.saturating_sub(128);
    let line = memchr::memrchr(b'\n', &b[lo..at]).map_or(lo, |i| lo + i + 1);
    let name = &b[line..at];
    name.len() > 1
        && name.ends_with(b"=")
        && name[..name.len() - 1]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        CodeSpans::of(text)
            .0
            .iter()
            .map(|&(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn finds_fences_and_inline_code() {
        assert_eq!(
            spans("a `x = 1` b\n```py\np = P('A')\n```\nc"),
            ["`x = 1`", "```py\np = P('A')\n```"]
        );
        assert_eq!(spans("open `one and ~~~ mid-line"), Vec::<&str>::new());
        assert_eq!(
            spans("see ```py\nx = 1\n``` Hello Ana"),
            ["```py\nx = 1\n```"]
        );
        assert_eq!(spans("```\nno close"), ["```\nno close"]);
        assert_eq!(spans("``a ` b`` c"), ["``a ` b``"]);
    }

    #[test]
    fn holds_only_inside() {
        let t = "Anna `Bob` Carl";
        let c = CodeSpans::of(t);
        assert!(c.holds(6, 9));
        assert!(!c.holds(0, 4) && !c.holds(11, 15));
    }

    #[test]
    fn literals_follow_code_punctuation() {
        let at = |t: &str, w: &str| {
            let s = t.find(w).unwrap();
            string_literal(t, s, s + w.len())
        };
        assert!(at(r#"Person("Alice")"#, "Alice"));
        assert!(at(r#"{"name": "John Doe"}"#, "John Doe"));
        assert!(at("['Anna', 'Ben']", "Ben"));
        assert!(!at(r#"she said "Anna" twice"#, "Anna"));
        assert!(!at(r#"("Anna is here")"#, "Anna"));
        assert!(in_code_near("x\n```\nuser = {\n  mail: a@b.c\n", 23, 28));
        assert!(!in_code_near(r#"{"to":"a@b.c"}"#, 7, 12));
        assert!(!in_code_near("mail: a@b.c\n", 6, 11));
        assert!(in_code_near("X=1\nADMIN_EMAIL=a@b.c\n", 16, 21));
    }
}
