//! Names as test data. A developer quotes the names their regex should match or their faker
//! produced ("does it match "Mary Ann"?", "the faker seed gave me "Mr. Reginald
//! Testington""); the model and the name rules read a person there. A name that is the whole
//! of a quoted string, in a message that speaks of test data, is a sample.

/// Words that make a message about test data or patterns. Compared lower-case, as word starts.
const SAMPLE_WORDS: &[&str] = &[
    "regex",
    "regexp",
    "pattern",
    "faker",
    "seed",
    "mock",
    "dummy",
    "fixture",
    "sample",
    "placeholder",
    "test data",
    "fake",
    "lorem",
    "generated",
    "generator",
    "example value",
];

/// Whether `start..end` is exactly the content of a quoted string in a paragraph that speaks
/// of test data.
pub(super) fn quoted_sample(text: &str, start: usize, end: usize) -> bool {
    let open = text[..start].chars().next_back();
    let close = text[end..].chars().next();
    let quoted = matches!(
        (open, close),
        (Some('"'), Some('"'))
            | (Some('\''), Some('\''))
            | (Some('“'), Some('”'))
            | (Some('`'), Some('`'))
    );
    quoted && {
        // The paragraph around the quote, not the whole text: each quoted name reads a
        // bounded window, so a text of many stays linear.
        let mut lo = start.saturating_sub(300);
        while !text.is_char_boundary(lo) {
            lo += 1;
        }
        let mut hi = (end + 300).min(text.len());
        while !text.is_char_boundary(hi) {
            hi -= 1;
        }
        let lower = text[lo..hi].to_lowercase();
        SAMPLE_WORDS.iter().any(|w| {
            lower.match_indices(w).any(|(i, _)| {
                !lower[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str, name: &str) -> bool {
        let start = text.find(name).unwrap();
        quoted_sample(text, start, start + name.len())
    }

    #[test]
    fn quoted_names_in_talk_of_test_data_are_samples() {
        assert!(sample(
            r#"Explain this regex: ^[A-Z][a-z]+$ — does it match "Mary Ann"?"#,
            "Mary Ann"
        ));
        assert!(sample(
            r#"The faker seed gave me "Mr. Reginald Testington" — shorter?"#,
            "Mr. Reginald Testington"
        ));
    }

    #[test]
    fn quoted_names_elsewhere_are_people() {
        assert!(!sample(
            r#"The sender shows as "Anna Kowalski", is that spam?"#,
            "Anna Kowalski"
        ));
        assert!(!sample(
            r#"My regex fails on names like Mary Ann Smith"#,
            "Mary Ann"
        ));
    }
}
