//! Erasing values: after a turn or a fact is forgotten, a value that no kept text holds any more
//! (neither the value itself nor its placeholder) leaves the vault. Its number is retired, not
//! reused: a copy made before the erasure (an export, another tab, a model's earlier reply) may
//! still hold the placeholder, and it must never come to stand for another value.

use super::{number_of, Vault, VaultDocument, VaultEntry};
use memchr::memmem;

/// What [`Vault::erase_unreferenced`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Erased {
    /// The entries removed.
    pub erased: Vec<VaultEntry>,
    /// Placeholders of the values kept because a kept text holds them.
    pub kept: Vec<String>,
}

impl Vault {
    pub(super) fn document(&self) -> VaultDocument {
        VaultDocument {
            version: 1,
            entries: self.entries.clone(),
            erased: self.erased.clone(),
        }
    }

    pub(super) fn is_erased(&self, placeholder: &str) -> bool {
        self.erased.iter().any(|p| p == placeholder)
    }

    /// Removes the values that `removed_texts` held (all values with `None`) and none of
    /// `kept_texts` holds, as written or as their placeholder. Only those candidates are looked
    /// for in the kept texts, so forgetting one turn of a long conversation reads the kept
    /// texts once for a handful of values.
    pub fn erase_unreferenced<'a>(
        &mut self,
        removed_texts: Option<&[&str]>,
        kept_texts: impl IntoIterator<Item = &'a str>,
    ) -> Erased {
        if self.entries.is_empty() {
            return Erased::default();
        }
        let candidates = match removed_texts {
            Some(texts) => self.held_in(texts.iter().copied(), &vec![true; self.entries.len()]),
            None => vec![true; self.entries.len()],
        };
        let held = self.held_in(kept_texts, &candidates);
        let (erased, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.entries)
            .into_iter()
            .zip(candidates.iter().zip(&held))
            .partition(|(_, (&candidate, &held))| candidate && !held);
        let erased: Vec<VaultEntry> = erased.into_iter().map(|(e, _)| e).collect();
        let kept_placeholders = kept
            .iter()
            .filter(|(_, (&candidate, _))| candidate)
            .map(|(e, _)| e.placeholder.clone())
            .collect();
        let kept: Vec<VaultEntry> = kept.into_iter().map(|(e, _)| e).collect();
        if !erased.is_empty() {
            self.rebuild(kept, &erased);
        } else {
            self.entries = kept;
        }
        Erased {
            erased,
            kept: kept_placeholders,
        }
    }

    /// Takes over the erasures another tab's copy records: entries here whose placeholder it
    /// retired are removed (that tab forgot what held them). Returns them.
    pub fn adopt_erasures(&mut self, other: &Vault) -> Vec<VaultEntry> {
        let news: Vec<&String> = other.erased.iter().filter(|p| !self.is_erased(p)).collect();
        if news.is_empty() {
            return Vec::new();
        }
        let (erased, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| news.contains(&&e.placeholder));
        for p in news {
            self.erased.push(p.clone());
        }
        self.rebuild(kept, &erased);
        erased
    }

    /// Which of the entries marked in `among` the texts hold (value or placeholder), in entry
    /// order; the others read false.
    fn held_in<'a>(&self, texts: impl IntoIterator<Item = &'a str>, among: &[bool]) -> Vec<bool> {
        let finders: Vec<(usize, memmem::Finder<'_>, memmem::Finder<'_>)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(i, _)| among[*i])
            .map(|(i, e)| {
                (
                    i,
                    memmem::Finder::new(&e.value),
                    memmem::Finder::new(&e.placeholder),
                )
            })
            .collect();
        let mut seen = vec![false; self.entries.len()];
        let mut left = finders.len();
        for text in texts {
            if left == 0 {
                break;
            }
            let bytes = text.as_bytes();
            let bracket = memchr::memchr(b'[', bytes).is_some();
            for (i, value, placeholder) in &finders {
                if !seen[*i]
                    && (value.find(bytes).is_some()
                        || (bracket && placeholder.find(bytes).is_some()))
                {
                    seen[*i] = true;
                    left -= 1;
                }
            }
        }
        seen
    }

    /// Re-indexes `kept` and retires the placeholders of `erased` that no kept entry still
    /// uses (another form of the same person keeps its placeholder alive).
    fn rebuild(&mut self, kept: Vec<VaultEntry>, erased: &[VaultEntry]) {
        for e in erased {
            let still_used = kept.iter().any(|k| k.placeholder == e.placeholder);
            if !still_used && !self.is_erased(&e.placeholder) {
                self.erased.push(e.placeholder.clone());
            }
        }
        let last = std::mem::take(&mut self.last);
        let retired = std::mem::take(&mut self.erased);
        let revision = self.revision;
        *self = Vault::new();
        self.erased = retired;
        for e in kept {
            if let Some(n) = number_of(&e) {
                self.insert(e.kind, n, e.placeholder, e.value);
            }
        }
        // Numbers only grow: the erased ones stay taken.
        for (kind, n) in last {
            let l = self.last.entry(kind).or_insert(0);
            *l = (*l).max(n);
        }
        self.revision = revision + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityType;

    fn vault() -> Vault {
        let mut v = Vault::new();
        v.placeholder_for(&EntityType::Person, "Marisol Quintanilla");
        v.placeholder_for(&EntityType::Email, "marisol.qo@example.net");
        v.placeholder_for(&EntityType::Person, "Ann Lee");
        v
    }

    #[test]
    fn a_value_no_kept_text_holds_is_erased_and_its_number_retired() {
        let mut v = vault();
        let out = v.erase_unreferenced(None, ["Ann Lee says hi", "write to [EMAIL_1]"]);
        let erased: Vec<&str> = out.erased.iter().map(|e| e.value.as_str()).collect();
        assert_eq!(erased, ["Marisol Quintanilla"]);
        assert_eq!(out.kept, ["[EMAIL_1]", "[PERSON_2]"]);
        assert!(!v.to_json().contains("Marisol"));
        // The number is not handed out again, here or after a reload.
        assert_eq!(
            v.placeholder_for(&EntityType::Person, "Bo Chen"),
            "[PERSON_3]"
        );
        let mut back = Vault::from_json(&v.to_json()).unwrap();
        assert_eq!(
            back.placeholder_for(&EntityType::Person, "Cy Dee"),
            "[PERSON_4]"
        );
        assert_eq!(back.lookup("PERSON", 1), None);
        assert_eq!(back.lookup("PERSON", 2), Some("Ann Lee"));
    }

    #[test]
    fn only_values_the_removed_texts_held_are_candidates() {
        let mut v = vault();
        let out = v.erase_unreferenced(Some(&["mail marisol.qo@example.net"]), ["Ann Lee"]);
        let erased: Vec<&str> = out.erased.iter().map(|e| e.value.as_str()).collect();
        assert_eq!(erased, ["marisol.qo@example.net"]);
        assert!(out.kept.is_empty(), "no candidate was kept");
        assert_eq!(v.lookup("PERSON", 1), Some("Marisol Quintanilla"));
    }

    #[test]
    fn nothing_kept_erases_everything_and_the_revision_moves() {
        let mut v = vault();
        let before = v.revision();
        let out = v.erase_unreferenced(None, std::iter::empty());
        assert_eq!(out.erased.len(), 3);
        assert!(v.is_empty());
        assert!(v.revision() > before);
        for value in ["Marisol", "marisol.qo", "Ann Lee"] {
            assert!(!v.to_json().contains(value), "{value}");
        }
    }

    #[test]
    fn another_tab_neither_brings_an_erased_value_back_nor_keeps_it() {
        let mut a = vault();
        let b = a.clone();
        a.erase_unreferenced(None, ["Ann Lee", "marisol.qo@example.net"]);
        // A tab still holding the value merges: it is not taken back in.
        assert_eq!(a.merge(&b), 0);
        assert_eq!(a.lookup("PERSON", 1), None);
        // That tab takes the erasure over from the stored copy.
        let mut b = b;
        let gone = b.adopt_erasures(&Vault::from_json(&a.to_json()).unwrap());
        assert_eq!(gone.len(), 1);
        assert_eq!(b.lookup("PERSON", 1), None);
        assert_eq!(
            b.placeholder_for(&EntityType::Person, "Bo Chen"),
            "[PERSON_3]"
        );
        assert!(
            b.adopt_erasures(&a).is_empty(),
            "adopting twice changes nothing"
        );
    }
}
