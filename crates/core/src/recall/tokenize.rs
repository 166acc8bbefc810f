//! The word tokenizer of the lexical index: lower-cased Unicode words (letters and digits of
//! any script), English stop words dropped, a light plural stemmer, and CJK text split into
//! single characters plus bigrams (no spaces to split on, and no dictionary to ship). It is
//! independent of the model's tokenizer: it only has to make a query and a turn agree.

/// Words too common to say anything about relevance.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing",
    "for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
    "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "ll", "m", "me", "more",
    "my", "myself", "no", "not", "now", "of", "on", "or", "our", "ours", "re", "s", "she",
    "should", "so", "some", "such", "t", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "to", "too", "us", "ve", "very", "was", "we", "were", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you",
    "your", "yours", "d", "don", "please", "tell", "remind", "know",
];

pub fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.contains(&w)
}

/// Scripts written without spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0x20000..=0x2FFFF)
}

/// Folds the commonest English inflections so "cats" finds "cat" and "allergies" finds
/// "allergy". Deliberately tiny: a wrong merge costs more than a missed one.
pub fn stem(w: &str) -> String {
    let n = w.len();
    if !w.is_ascii() || n <= 3 {
        return w.to_string();
    }
    if let Some(base) = w.strip_suffix("ies") {
        if n > 4 {
            return format!("{base}y");
        }
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
        return w.to_string();
    }
    if let Some(base) = w.strip_suffix('s') {
        return base.to_string();
    }
    w.to_string()
}

/// Calls `emit` with each index term of `text`, in order (repeats included, for term counts).
pub fn for_each_term(text: &str, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    let mut prev_cjk: Option<char> = None;
    let flush = |word: &mut String, emit: &mut dyn FnMut(&str)| {
        if !word.is_empty() {
            if !is_stop_word(word) {
                emit(&stem(word));
            }
            word.clear();
        }
    };
    for c in text.chars() {
        if is_cjk(c) {
            flush(&mut word, &mut emit);
            let mut buf = [0u8; 4];
            emit(c.encode_utf8(&mut buf));
            if let Some(p) = prev_cjk {
                let bigram: String = [p, c].iter().collect();
                emit(&bigram);
            }
            prev_cjk = Some(c);
        } else if c.is_alphanumeric() {
            prev_cjk = None;
            word.extend(c.to_lowercase());
        } else {
            prev_cjk = None;
            // Punctuation and spaces end a word ("e-mail" is two terms, as in the query).
            flush(&mut word, &mut emit);
        }
    }
    flush(&mut word, &mut emit);
}

/// The index terms of `text`, in order.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| out.push(t.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_stemmed_and_stopped() {
        assert_eq!(
            terms("My cats' names are Tom and JERRY!"),
            vec!["cat", "name", "tom", "jerry"]
        );
        assert_eq!(terms("allergies: peanuts"), vec!["allergy", "peanut"]);
        assert_eq!(terms("glass bus"), vec!["glass", "bus"]);
    }

    #[test]
    fn unicode_words_and_cjk() {
        assert_eq!(
            terms("Müller wohnt in Zürich"),
            vec!["müller", "wohnt", "zürich"]
        );
        assert_eq!(terms("東京都"), vec!["東", "京", "東京", "都", "京都"]);
        assert_eq!(terms("Привет, мир"), vec!["привет", "мир"]);
        assert!(terms("   ...  ").is_empty());
    }
}
