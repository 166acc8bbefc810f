//! Ids a memory mints besides its turns': facts `f3`, pinned facts `p2`, steps `s5`,
//! summaries `sum4`, episodes `ep1`. A stored session that tabs share gives each tab its own
//! prefix (`k3x9-f3`, as turns get `k3x9-3`), so two tabs never mint the same id and one
//! tab's write never replaces another's record. A memory that is not stored has none.

/// `prefix + tag + n`.
pub fn mint(prefix: &str, tag: &str, n: u64) -> String {
    format!("{prefix}{tag}{n}")
}

/// The number in `id` when it was minted under this prefix and tag: a later id must come
/// after it. Ids of another tab (or of the session before a prefix) have other numbers.
pub fn seq_of(id: &str, prefix: &str, tag: &str) -> Option<u64> {
    id.strip_prefix(prefix)?.strip_prefix(tag)?.parse().ok()
}

/// The number an id ends with, whatever its prefix: an order for records that sort by it.
pub fn trailing_number(id: &str) -> Option<u64> {
    let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    id[id.len() - digits..].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_reads_back_only_its_own_numbers() {
        assert_eq!(mint("k3x9-", "f", 3), "k3x9-f3");
        assert_eq!(seq_of("k3x9-f3", "k3x9-", "f"), Some(3));
        assert_eq!(seq_of("f3", "", "f"), Some(3));
        assert_eq!(seq_of("f3", "k3x9-", "f"), None);
        assert_eq!(seq_of("zz11-f7", "k3x9-", "f"), None);
        assert_eq!(seq_of("k3x9-sum2", "k3x9-", "s"), None, "not a step id");
        assert_eq!(trailing_number("k3x9-p12"), Some(12));
        assert_eq!(trailing_number("p"), None);
    }
}
