//! The placeholder grammar and the two things built on it: escaping user text that merely looks
//! like a placeholder, and restoring real values into model output (whole or streamed).
//!
//! A placeholder core is `STEM ⁠* _ DIGITS` where STEM is an entity type name (matched
//! case-insensitively, so a model writing `[email_1]` still restores), `⁠` is U+2060 WORD
//! JOINER, the core starts after a non-word character and ends before one. Square brackets
//! around it are optional on restore, so `EMAIL_1`, `[EMAIL_1]` and `[Email_1` all work.
//!
//! Why the word joiners: `restore(redact(x).text) == x` must hold for every `x`, including text
//! that already contains `[EMAIL_1]`. Redaction adds one joiner to every core found in the
//! user's own text and restore removes one from every core that has any, while cores with none
//! are looked up in the vault. Joiners are invisible and a model that copies the text copies
//! them, so the user gets back their literal `[EMAIL_1]`.
//!
//! Markdown: a model that links a placeholder (`[EMAIL_1](mailto:EMAIL_1)`) gets its link back
//! (`[ann@example.com](mailto:ann@example.com)`): brackets followed by `(` stay. So that a
//! value the user wrote right before a `(` or a joiner still comes back as written, the
//! redactor puts a joiner after its placeholder there ([`Grammar::mark_after`]), and restore
//! drops the brackets and one joiner after a closing bracket.

use super::Vault;

const WJ: char = '\u{2060}';
const WJ_LEN: usize = 3;

pub(crate) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The stems a redactor can emit; restore and escape must use the same list.
#[derive(Debug, Clone)]
pub(crate) struct Grammar {
    /// Upper-case stems, longest first.
    stems: Vec<String>,
    /// Which bytes start a stem, in either case: most words need no parse at all.
    first: Vec<bool>,
}

/// A parsed placeholder core in some text (byte offsets).
#[derive(Debug, Clone, Copy)]
struct Core {
    stem: usize,
    stem_end: usize,
    joiners: usize,
    digits_start: usize,
    end: usize,
}

enum Parse {
    Match(Core),
    /// The text ends while it could still become a core: wait for more input.
    Incomplete,
    None,
}

impl Grammar {
    pub fn new(stems: Vec<String>) -> Grammar {
        let mut first = vec![false; 256];
        for b in stems.iter().filter_map(|s| s.bytes().next()) {
            first[b.to_ascii_uppercase() as usize] = true;
            first[b.to_ascii_lowercase() as usize] = true;
        }
        Grammar { stems, first }
    }

    /// Parses a core starting at byte `i`, which the caller guarantees follows a non-word
    /// character. With `eof == false` the end of `text` is not a boundary.
    fn parse(&self, text: &str, i: usize, eof: bool) -> Parse {
        let bytes = text.as_bytes();
        let mut incomplete = false;
        for (s, stem) in self.stems.iter().enumerate() {
            let stem_end = match match_stem(bytes, i, stem.as_bytes()) {
                Ok(end) => end,
                Err(cut) => {
                    incomplete |= cut && !eof;
                    continue;
                }
            };
            match self.parse_tail(text, stem_end, eof) {
                Parse::Match(mut core) => {
                    core.stem = s;
                    return Parse::Match(core);
                }
                Parse::Incomplete => incomplete = true,
                Parse::None => {}
            }
        }
        if incomplete {
            Parse::Incomplete
        } else {
            Parse::None
        }
    }

    /// Parses `⁠* _ DIGITS` (or `\_`) followed by a boundary.
    fn parse_tail(&self, text: &str, stem_end: usize, eof: bool) -> Parse {
        let rest = &text[stem_end..];
        let joiners = rest.chars().take_while(|&c| c == WJ).count();
        let after_wj = stem_end + joiners * WJ_LEN;
        let rest = &text[after_wj..];
        if rest.is_empty() {
            return if eof { Parse::None } else { Parse::Incomplete };
        }
        // Markdown writers escape the underscore: `EMAIL\_1`.
        let underscore = if rest.starts_with('_') {
            1
        } else if rest.starts_with("\\_") {
            2
        } else if rest == "\\" && !eof {
            return Parse::Incomplete;
        } else {
            return Parse::None;
        };
        let digits_start = after_wj + underscore;
        let digits = text[digits_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = digits_start + digits;
        match text[end..].chars().next() {
            None if !eof => Parse::Incomplete,
            None if digits > 0 => Parse::Match(Core {
                stem: 0,
                stem_end,
                joiners,
                digits_start,
                end,
            }),
            Some(c) if digits > 0 && !is_word(c) => Parse::Match(Core {
                stem: 0,
                stem_end,
                joiners,
                digits_start,
                end,
            }),
            _ => Parse::None,
        }
    }

    /// Appends `text` to `out` with one word joiner added to every placeholder core, and tells
    /// whether it added any. `text` is treated as standing alone (start and end are
    /// boundaries): in the redacted output it sits between `]` and `[`, which are boundaries
    /// too, so restore sees the same cores.
    pub fn escape_into(&self, text: &str, out: &mut String) -> bool {
        // Every core holds `_` and a digit: most text has none and is copied as is.
        let b = text.as_bytes();
        if !memchr::memchr_iter(b'_', b).any(|i| b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            out.push_str(text);
            return false;
        }
        let mut escaped = false;
        let mut prev_word = false;
        let mut copied = 0;
        let mut i = 0;
        while i < text.len() {
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            if !prev_word && c.is_ascii_alphabetic() && self.first[c as usize] {
                if let Parse::Match(core) = self.parse(text, i, true) {
                    out.push_str(&text[copied..core.stem_end]);
                    out.push(WJ);
                    escaped = true;
                    copied = core.stem_end;
                    i = core.end;
                    prev_word = true;
                    continue;
                }
            }
            prev_word = is_word(c);
            i += c.len_utf8();
        }
        out.push_str(&text[copied..]);
        escaped
    }

    /// Called after a placeholder is written to `out`, with the input that follows its value:
    /// adds a joiner where restore would otherwise read the placeholder as a Markdown link
    /// text (before `(`) or take the user's own joiner for one. Tells whether it added one.
    pub fn mark_after(rest: &str, out: &mut String) -> bool {
        let mark = rest.starts_with('(') || rest.starts_with(WJ);
        if mark {
            out.push(WJ);
        }
        mark
    }

    /// Restores `text` into `out` and returns how many bytes were consumed: everything unless
    /// `eof` is false and the text ends inside something that may still become a placeholder.
    /// `prev_word` says whether the character before `text` was a word character.
    pub fn restore_into(
        &self,
        text: &str,
        eof: bool,
        mut prev_word: bool,
        vault: &Vault,
        out: &mut String,
    ) -> usize {
        let mut copied = 0;
        let mut i = 0;
        while i < text.len() {
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            // Markdown escapes the brackets: `\[EMAIL_1\]` restores whole, backslashes too.
            let escaped_open = c == '\\' && text[i + 1..].starts_with('[');
            if c == '\\' && i + 1 == text.len() && !eof {
                out.push_str(&text[copied..i]);
                return i;
            }
            let core_at = if c == '[' {
                Some(i + 1)
            } else if escaped_open {
                Some(i + 2)
            } else if !prev_word && c.is_ascii_alphabetic() {
                Some(i)
            } else {
                None
            };
            if let Some(at) = core_at {
                if at == text.len() && !eof {
                    out.push_str(&text[copied..i]);
                    return i;
                }
                match self.parse(text, at, eof) {
                    Parse::Incomplete => {
                        out.push_str(&text[copied..i]);
                        return i;
                    }
                    Parse::Match(core) if core.joiners > 0 => {
                        // Escaped user text: drop one joiner.
                        out.push_str(&text[copied..core.stem_end]);
                        copied = core.stem_end + WJ_LEN;
                        i = core.end;
                        prev_word = true;
                        continue;
                    }
                    Parse::Match(core) => {
                        let number = &text[core.digits_start..core.end];
                        let value = if number.starts_with('0') || number.len() > 9 {
                            None
                        } else {
                            number
                                .parse::<u32>()
                                .ok()
                                .and_then(|n| vault.lookup(&self.stems[core.stem], n))
                        };
                        if let Some(value) = value {
                            let rest = &text[core.end..];
                            // A lone backslash may be the start of `\]`; what follows `]`
                            // decides between a link and a mark.
                            if !eof
                                && (rest.is_empty()
                                    || rest == "]"
                                    || (escaped_open && rest == "\\"))
                            {
                                out.push_str(&text[copied..i]);
                                return i;
                            }
                            let close = if escaped_open && rest.starts_with("\\]") {
                                core.end + 2
                            } else if rest.starts_with(']') {
                                core.end + 1
                            } else {
                                core.end
                            };
                            // Only an escaped pair drops the backslash: the redactor writes
                            // `[EMAIL_1]`, so `\[EMAIL_1]` is a backslash in the user's text.
                            let start = if escaped_open && close != core.end + 2 {
                                i + 1
                            } else {
                                i
                            };
                            out.push_str(&text[copied..start]);
                            let after = &text[close..];
                            let link = c == '[' && close == core.end + 1 && after.starts_with('(');
                            if link {
                                out.push('[');
                                out.push_str(value);
                                out.push(']');
                            } else {
                                out.push_str(value);
                            }
                            copied = close;
                            if close > core.end && after.starts_with(WJ) {
                                copied += WJ_LEN;
                            }
                            prev_word = close == core.end;
                            i = copied;
                            continue;
                        }
                        i = core.end;
                        prev_word = true;
                        continue;
                    }
                    Parse::None => {}
                }
            }
            prev_word = is_word(c);
            i += c.len_utf8();
        }
        out.push_str(&text[copied..]);
        text.len()
    }
}

/// Restores a model reply that arrives in chunks. `push` returns the text that is final so far;
/// a possible placeholder at the end of a chunk (`[EMA`, `EMAIL_1` before a `]` or more digits)
/// is held back until the next chunk or `finish` settles it.
#[derive(Debug, Clone)]
pub struct StreamRestorer {
    grammar: Grammar,
    /// A snapshot: replies restore against the vault as it was when the request was redacted.
    vault: Vault,
    pending: String,
    prev_word: bool,
}

impl StreamRestorer {
    pub(crate) fn new(grammar: Grammar, vault: Vault) -> StreamRestorer {
        StreamRestorer {
            grammar,
            vault,
            pending: String::new(),
            prev_word: false,
        }
    }

    pub fn push(&mut self, chunk: &str) -> String {
        self.pending.push_str(chunk);
        let mut out = String::new();
        let used =
            self.grammar
                .restore_into(&self.pending, false, self.prev_word, &self.vault, &mut out);
        if let Some(c) = self.pending[..used].chars().next_back() {
            self.prev_word = is_word(c);
        }
        self.pending.drain(..used);
        out
    }

    /// Flushes whatever was held back. The restorer can be reused afterwards.
    pub fn finish(&mut self) -> String {
        let mut out = String::new();
        self.grammar
            .restore_into(&self.pending, true, self.prev_word, &self.vault, &mut out);
        self.pending.clear();
        self.prev_word = false;
        out
    }
}

/// Matches `stem` (upper case) at `i`, in any case, each `_` also as Markdown's `\_`: the end
/// of the match, or whether the text ended inside it (`Err(true)`) or differs (`Err(false)`).
fn match_stem(bytes: &[u8], i: usize, stem: &[u8]) -> Result<usize, bool> {
    let mut t = i;
    for &c in stem {
        if c == b'_' && bytes.get(t) == Some(&b'\\') {
            t += 1;
        }
        match bytes.get(t) {
            None => return Err(true),
            Some(b) if b.eq_ignore_ascii_case(&c) => t += 1,
            Some(_) => return Err(false),
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityType;

    fn setup() -> (Grammar, Vault) {
        let g = Grammar::new(crate::RedactorConfig::default().placeholder_stems());
        let mut v = Vault::new();
        v.placeholder_for(&EntityType::Email, "ann@example.com");
        v.placeholder_for(&EntityType::IpAddress, "10.0.0.1");
        (g, v)
    }

    fn restore(g: &Grammar, v: &Vault, s: &str) -> String {
        let mut out = String::new();
        g.restore_into(s, true, false, v, &mut out);
        out
    }

    #[test]
    fn tolerates_light_alterations() {
        let (g, v) = setup();
        for s in ["[EMAIL_1]", "EMAIL_1", "[email_1]", "[Email_1", "email_1]"] {
            assert_eq!(
                restore(&g, &v, &format!("to {s}, ok")),
                "to ann@example.com, ok"
            );
        }
        assert_eq!(restore(&g, &v, "x[IP_ADDRESS_1]y"), "x10.0.0.1y");
        assert_eq!(
            restore(&g, &v, "MY_EMAIL_1 EMAIL_12 EMAIL_1x"),
            "MY_EMAIL_1 EMAIL_12 EMAIL_1x"
        );
        assert_eq!(restore(&g, &v, "[EMAIL_2]"), "[EMAIL_2]");
        // A Markdown link keeps its brackets; a redactor's mark after `]` goes.
        assert_eq!(
            restore(
                &g,
                &v,
                "[EMAIL_1](mailto:EMAIL_1) [EMAIL_1]\u{2060}(x) [EMAIL_1]\u{2060}\u{2060}"
            ),
            "[ann@example.com](mailto:ann@example.com) ann@example.com(x) ann@example.com\u{2060}"
        );
        // Markdown-escaped brackets go with the placeholder; a backslash alone stays.
        assert_eq!(restore(&g, &v, r"to \[EMAIL_1\]."), "to ann@example.com.");
        assert_eq!(restore(&g, &v, r"to \[EMAIL_1]."), r"to \ann@example.com.");
        assert_eq!(restore(&g, &v, r"\[EMAIL_2\]"), r"\[EMAIL_2\]");
        // Markdown writers escape underscores too, in the number and in the type's name.
        assert_eq!(restore(&g, &v, r"to [EMAIL\_1]."), "to ann@example.com.");
        assert_eq!(restore(&g, &v, r"to \[EMAIL\_1\]."), "to ann@example.com.");
        assert_eq!(restore(&g, &v, r"at IP\_ADDRESS\_1 ok"), "at 10.0.0.1 ok");
        assert_eq!(
            restore(&g, &v, r"EMAIL\_2 EMAIL\_ EMAIL\1"),
            r"EMAIL\_2 EMAIL\_ EMAIL\1"
        );
    }

    #[test]
    fn escape_then_restore_is_identity() {
        let (g, v) = setup();
        for s in [
            "[EMAIL_1]",
            "email_1",
            "EMAIL\u{2060}_1",
            "IP_ADDRESS_1 EMAIL_",
        ] {
            let mut esc = String::new();
            g.escape_into(s, &mut esc);
            assert_ne!(restore(&g, &v, &esc), "ann@example.com");
            assert_eq!(restore(&g, &v, &esc), s);
        }
    }

    #[test]
    fn streaming_holds_split_placeholders() {
        let (g, v) = setup();
        let text = r"Write to [EMAIL_1] or EMAIL_1, from IP_ADDRESS_1 (\[EMAIL_1\], \[EMAIL_1], [EMAIL_1](mailto:EMAIL_1)) or \[EMAIL\_1\], IP\_ADDRESS\_1.";
        for split in 0..=text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut s = StreamRestorer::new(g.clone(), v.clone());
            let mut out = s.push(&text[..split]);
            out += &s.push(&text[split..]);
            out += &s.finish();
            assert_eq!(out, restore(&g, &v, text), "split at {split}");
        }
        let mut s = StreamRestorer::new(g, v);
        let mut out = String::new();
        for ch in text.chars() {
            out += &s.push(&ch.to_string());
        }
        out += &s.finish();
        assert_eq!(
            out,
            r"Write to ann@example.com or ann@example.com, from 10.0.0.1 (ann@example.com, \ann@example.com, [ann@example.com](mailto:ann@example.com)) or ann@example.com, 10.0.0.1."
        );
    }
}
