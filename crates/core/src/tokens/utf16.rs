//! Many JS strings cross into wasm as one joined string (one crossing instead of one per
//! text); this cuts it back by the texts' UTF-16 lengths, which JS knows.

/// Cuts `joined` into texts of the given UTF-16 lengths; `None` when a cut falls inside a
/// character.
pub fn split<'a>(joined: &'a str, units: &[usize]) -> Option<Vec<&'a str>> {
    let mut out = Vec::with_capacity(units.len());
    let mut chars = joined.char_indices();
    let mut start = 0;
    for &want in units {
        let mut have = 0;
        let mut end = start;
        while have < want {
            let (at, c) = chars.next()?;
            have += c.len_utf16();
            end = at + c.len_utf8();
        }
        if have != want {
            return None;
        }
        out.push(&joined[start..end]);
        start = end;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn cuts_by_utf16_lengths_and_refuses_a_cut_inside_a_character() {
        let joined = "ab\u{1F600}c";
        assert_eq!(
            split(joined, &[2, 2, 1]),
            Some(vec!["ab", "\u{1F600}", "c"])
        );
        assert_eq!(
            split(joined, &[3, 2]),
            None,
            "a cut inside the surrogate pair"
        );
        assert_eq!(split(joined, &[2, 2, 2]), None, "longer than the text");
        assert_eq!(split("", &[0, 0]), Some(vec!["", ""]));
    }
}
