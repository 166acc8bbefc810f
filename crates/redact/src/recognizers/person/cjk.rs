//! Names in Chinese, Japanese and Korean, written without spaces, so the capitalized-word scan
//! never sees them: found only after (or, in Japanese, before) a phrase that says a name is
//! there ("我叫王伟", "私の名前は田中太郎です", "田中太郎と申します", "제 이름은 김민수입니다").

use super::super::Candidate;
use crate::entity::EntityType;

/// A phrase before the name, and how many characters the name may have.
const BEFORE: &[(&str, usize)] = &[
    ("我叫", 3),
    ("我的名字是", 3),
    ("我的名字叫", 3),
    ("我姓名是", 3),
    ("姓名：", 3),
    ("姓名:", 3),
    // Whose name: "名前は" and "이름은" alone say "the name is" of anything ("このメンバーの
    // 名前は動的", "속성 이름은 형식이").
    ("私の名前は", 8),
    ("僕の名前は", 8),
    ("わたしの名前は", 8),
    ("氏名：", 8),
    ("氏名:", 8),
    ("제 이름은", 4),
    ("내 이름은", 4),
    ("저의 이름은", 4),
    ("이름:", 4),
];

/// A phrase after the name (Japanese: "X と申します", "X といいます").
const AFTER: &[&str] = &["と申します", "といいます", "と言います"];

/// What ends a Korean name when glued to it: the copula and quotative endings.
const KOREAN_ENDINGS: &[&str] = &["입니다", "이에요", "예요", "이고", "라고", "이라고"];

/// Chinese and Japanese characters a name is written in: ideographs and katakana (kana for a
/// given name written so, like "さくら", is rare next to these cues and particles are kana).
fn name_char(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x30A0..=0x30FF)
}

fn hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7AF)
}

/// The names after or before the cue phrases of `text`. Every phrase starts with a character
/// whose UTF-8 lead byte is 0xE3–0xEC (kana, ideographs, Hangul), so only those of `leads`
/// (where non-ASCII characters start) are looked at: an accent in a Latin name costs nothing.
pub(crate) fn scan(text: &str, leads: &[usize], out: &mut Vec<Candidate>) {
    // "私の名前は" holds "名前は"-like phrases: one name, found once.
    let first = out.len();
    let b = text.as_bytes();
    for &at in leads {
        if !(0xE3..=0xEC).contains(&b[at]) {
            continue;
        }
        let here = &b[at..];
        for &(cue, max) in BEFORE {
            if here.starts_with(cue.as_bytes()) {
                if let Some((start, end)) = name_after(text, at + cue.len(), max) {
                    push(text, start, end, first, out);
                }
            }
        }
        if AFTER.iter().any(|cue| here.starts_with(cue.as_bytes())) {
            let name_len: usize = text[..at]
                .chars()
                .rev()
                .take_while(|&c| name_char(c))
                .take(8)
                .map(char::len_utf8)
                .sum();
            push(text, at - name_len, at, first, out);
        }
    }
}

/// The name that starts at `start` (after white space), at most `max` characters.
fn name_after(text: &str, start: usize, max: usize) -> Option<(usize, usize)> {
    let rest = text[start..].trim_start_matches(' ');
    let start = text.len() - rest.len();
    // "我叫他过来" is "I told him to come": 叫 also means "to tell" before a pronoun.
    if rest.starts_with(['他', '她', '你', '它', '我']) {
        return None;
    }
    let korean = rest.starts_with(hangul);
    let fits = if korean { hangul } else { name_char };
    let mut end = start;
    for c in rest.chars().take_while(|&c| fits(c)).take(max + 3) {
        end += c.len_utf8();
    }
    if korean {
        if let Some(e) = KOREAN_ENDINGS.iter().find_map(|e| text[start..end].find(e)) {
            end = start + e;
        }
    }
    // Past the longest name, the run is the name and the sentence after it.
    let name: usize = text[start..end].chars().take(max).map(char::len_utf8).sum();
    Some((start, start + name))
}

/// A name of at least two characters (one is a word: "我叫他"), unless found already (in
/// `out[first..]`).
fn push(text: &str, start: usize, end: usize, first: usize, out: &mut Vec<Candidate>) {
    let seen = out[first..]
        .iter()
        .any(|c| (c.start, c.end) == (start, end));
    if !seen && text[start..end].chars().count() >= 2 {
        out.push(Candidate {
            kind: EntityType::Person,
            start,
            end,
            score: 0.85,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        let leads: Vec<usize> = text
            .char_indices()
            .filter(|(_, c)| !c.is_ascii())
            .map(|(i, _)| i)
            .collect();
        let mut out = Vec::new();
        scan(text, &leads, &mut out);
        out.iter().map(|c| &text[c.start..c.end]).collect()
    }

    #[test]
    fn names_after_and_before_their_phrase() {
        assert_eq!(names("你好，我叫王伟，今年三十岁"), ["王伟"]);
        assert_eq!(names("我叫欧阳小明"), ["欧阳小"]);
        assert_eq!(names("私の名前は田中太郎です"), ["田中太郎"]);
        assert_eq!(names("田中太郎と申します。"), ["田中太郎"]);
        assert_eq!(names("제 이름은 김민수입니다"), ["김민수"]);
        assert_eq!(names("이름: 박지성"), ["박지성"]);
        assert_eq!(names("氏名：山田花子"), ["山田花子"]);
    }

    #[test]
    fn no_name_no_finding() {
        assert!(names("我叫他过来").is_empty());
        assert!(names("名前はまだない").is_empty());
        assert!(names("このメンバーの名前は動的であるため").is_empty());
        assert!(names("계산된 속성 이름은 형식이 리터럴").is_empty());
        assert!(names("my name is Anna").is_empty());
    }
}
