//! Every built-in recognizer, in one list. Adding one: write its file (or folder), add its
//! line here and its entity type's row in [`crate::entity`] (see `README.md` here).
//!
//! The order is the order candidates are listed in before overlaps are resolved; regex specs
//! all run in one table ([`super::regexes`]) before the recognizers of their own.

use super::regexes::{run_literals, Compiled, Spec};
use super::{
    address, api_key, birth_date, card, crypto, email, iban, ip, jwt, labeled, mac, national,
    password, person, phone, private_key, ssn, url, Recognizer,
};
use crate::entity::EntityType;
use crate::scan::literals::Literals;

/// Makes a recognizer for the types a redactor enables (`None` when it has none of them).
pub(crate) type Make = fn(&dyn Fn(&EntityType) -> bool) -> Option<Box<dyn Recognizer>>;

/// One line of the registry.
pub(crate) enum Entry {
    /// Regex formats, run by the regex table.
    Specs(fn() -> Vec<Spec>),
    /// A recognizer that reads the text its own way (words, shapes, checksums).
    Family(Make),
}

pub(crate) const REGISTRY: &[Entry] = &[
    Entry::Specs(email::specs),
    Entry::Specs(phone::specs),
    Entry::Specs(card::specs),
    Entry::Specs(iban::specs),
    Entry::Specs(ssn::specs),
    Entry::Specs(ip::specs),
    Entry::Specs(mac::specs),
    Entry::Specs(url::specs),
    Entry::Specs(crypto::specs),
    Entry::Specs(api_key::specs),
    Entry::Specs(jwt::specs),
    Entry::Specs(private_key::specs),
    Entry::Specs(password::specs),
    Entry::Specs(birth_date::specs),
    Entry::Specs(address::po_box::specs),
    Entry::Specs(address::military::specs),
    Entry::Family(national::recognizer),
    Entry::Family(labeled::recognizer),
    Entry::Family(person::recognizer),
    Entry::Family(address::recognizer),
];

/// The registry's regex specs, compiled once per process and shared by every redactor: a new
/// session then starts with warm lazy-DFA caches instead of rebuilding them turn by turn.
pub(crate) fn built_in() -> &'static [Compiled] {
    static BUILT_IN: std::sync::OnceLock<Vec<Compiled>> = std::sync::OnceLock::new();
    BUILT_IN.get_or_init(|| {
        REGISTRY
            .iter()
            .filter_map(|entry| match entry {
                Entry::Specs(specs) => Some(specs()),
                Entry::Family(_) => None,
            })
            .flatten()
            .map(Compiled::built_in)
            .collect()
    })
}

/// Every literal a built-in gate over long runs needs (see [`run_literals`]).
pub(crate) fn key_literals() -> &'static Literals {
    static SET: std::sync::OnceLock<Literals> = std::sync::OnceLock::new();
    SET.get_or_init(|| run_literals(built_in()))
}

#[cfg(test)]
mod tests {
    use super::super::Recognizers;
    use crate::config::RedactorConfig;
    use crate::entity::EntityType;

    /// Every built-in entity type has a recognizer, and a
    /// redactor limited to one type runs only recognizers that report it.
    #[test]
    fn every_built_in_type_has_a_recognizer() {
        for t in EntityType::BUILT_IN {
            let config = RedactorConfig::from_json(&format!(r#"{{"types": ["{t}"]}}"#)).unwrap();
            let r = Recognizers::new(&config).unwrap();
            let kinds = r.kinds();
            assert_eq!(kinds, vec![t.clone()], "{t}");
        }
    }
}
