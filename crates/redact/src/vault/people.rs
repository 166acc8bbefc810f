//! One person, one placeholder. A name comes back in other forms: another case ("INGRID
//! SOLBERG"), other spacing, a possessive ("Ingrid's"), the given name or the surname alone
//! ("Priya" after "Priya Natarajan"). Each form is a value of its own in the vault (so it is
//! found again in later text and restored), and they share the placeholder of the person they
//! name. The rule, in order:
//!
//! 1. The same name once case, spacing and a possessive are set aside: the same person.
//! 2. One word ("Priya"): the person whose names hold that word, when exactly one does; when
//!    two do ("Tom" after "Tom Baker" and "Tom Hill") it is ambiguous and gets a placeholder
//!    of its own rather than a guess.
//! 3. A full name ("Tom Baker" after "Tom"): the person known by one of its words alone, when
//!    exactly one is and no full name of theirs says otherwise.
//! 4. A full name that holds every word of exactly one known full name, or whose every word
//!    exactly one known full name holds ("Ana María López" after "Ana López", "Dr. Ana López"
//!    once the title is set aside): that person. A finding that ran on past a name ("Ana López
//!    Servicio" in a form) still names the same person.
//!
//! Titles ("Dr.", "Sra.", "Mr") are set aside before any of this, as a possessive is. Anything
//! else is a new person. Restoring gives the form first written for the placeholder.

use super::VaultEntry;
use crate::recognizers::person::names::is_honorific;

/// A name's words, lower-cased, titles, possessive and blanks set aside.
pub(super) fn words(name: &str) -> Vec<String> {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    // A leading title, with or without its period, or glued to the name ("Dr.Ana").
    if let Some(first) = words.first().copied() {
        let (title, rest) = first.split_once('.').unwrap_or((first, ""));
        if is_honorific(&title.to_lowercase()) {
            match rest.is_empty() {
                true => drop(words.remove(0)),
                false => words[0] = rest,
            }
        }
    }
    words
        .into_iter()
        .map(|w| {
            let w = w.to_lowercase();
            let w = w.trim_end_matches(['\'', '’']);
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("’s"))
                .unwrap_or(w)
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The placeholder of the person `name` names among the PERSON `entries`, if the rule finds
/// exactly one.
pub(super) fn same_person<'a>(entries: &'a [&'a VaultEntry], name: &str) -> Option<&'a str> {
    let want = words(name);
    if want.is_empty() {
        return None;
    }
    let forms: Vec<(&str, Vec<String>)> = entries
        .iter()
        .map(|e| (e.placeholder.as_str(), words(&e.value)))
        .collect();
    let one = |found: Vec<&'a str>| -> Option<&'a str> {
        let mut found = found;
        found.sort_unstable();
        found.dedup();
        (found.len() == 1).then(|| found[0])
    };
    // 1. The same words.
    if let Some(p) = forms.iter().find(|(_, w)| *w == want) {
        return Some(p.0);
    }
    if want.len() == 1 {
        // 2. A word of exactly one person's names.
        return one(forms
            .iter()
            .filter(|(_, w)| w.len() > 1 && w.contains(&want[0]))
            .map(|f| f.0)
            .collect());
    }
    // 3. A person known by one of these words alone, with no other full name.
    let full_elsewhere = |p: &str| forms.iter().any(|(q, w)| *q == p && w.len() > 1);
    let known_by_a_word = one(forms
        .iter()
        .filter(|(p, w)| w.len() == 1 && want.contains(&w[0]) && !full_elsewhere(p))
        .map(|f| f.0)
        .collect());
    if known_by_a_word.is_some() {
        return known_by_a_word;
    }
    // 4. A full name within this one, or this one within a full name.
    let holds = |outer: &[String], inner: &[String]| inner.iter().all(|w| outer.contains(w));
    one(forms
        .iter()
        .filter(|(_, w)| w.len() > 1 && (holds(&want, w) || holds(w, &want)))
        .map(|f| f.0)
        .collect())
}

/// The one full name among `names` (two words or more) that holds the one-word `name`, if
/// exactly one does: "Pablo" among "Dr. Pablo Justo Ávila" and "Ana López".
pub(super) fn full_name_holding<'n>(
    name: &str,
    names: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
    let want = words(name);
    let [word] = want.as_slice() else {
        return None;
    };
    // The names holding the word, as their words (one person written twice is one); a second
    // different one makes the word ambiguous.
    let mut holding: Option<(Vec<String>, &str)> = None;
    for n in names {
        let w = words(n);
        if w.len() < 2 || !w.contains(word) {
            continue;
        }
        match &holding {
            None => holding = Some((w, n)),
            Some((seen, _)) if *seen == w => {}
            Some(_) => return None,
        }
    }
    holding.map(|(_, full)| full)
}

#[cfg(test)]
mod tests {
    use crate::entity::EntityType;
    use crate::vault::Vault;

    fn person(v: &mut Vault, name: &str) -> String {
        v.placeholder_for(&EntityType::Person, name)
    }

    #[test]
    fn a_word_written_before_its_full_name_shares_its_placeholder() {
        let mut v = Vault::new();
        let names = ["Pablo", "Ana López", "Dr. Pablo Justo Ávila", "Ana"];
        let mut p = |name| v.placeholder_for_in_text(&EntityType::Person, name, &names);
        assert_eq!(p("Pablo"), "[PERSON_1]");
        assert_eq!(p("Ana López"), "[PERSON_2]");
        assert_eq!(p("Dr. Pablo Justo Ávila"), "[PERSON_1]");
        assert_eq!(p("Ana"), "[PERSON_2]");
        // Two full names hold "Tom": no guess is made ahead; rule 3 joins the first full name
        // to it as it would without the text.
        let mut v = Vault::new();
        let names = ["Tom", "Tom Baker", "Tom Hill"];
        let mut p = |name| v.placeholder_for_in_text(&EntityType::Person, name, &names);
        assert_eq!(p("Tom"), "[PERSON_1]");
        assert_eq!(v.lookup("PERSON", 1), Some("Tom"));
    }

    #[test]
    fn forms_of_one_name_share_its_placeholder() {
        let mut v = Vault::new();
        assert_eq!(person(&mut v, "Priya Natarajan"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Priya"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Tom Baker"), "[PERSON_2]");
        assert_eq!(person(&mut v, "Tom"), "[PERSON_2]");
        assert_eq!(person(&mut v, "PRIYA  NATARAJAN"), "[PERSON_1]");
        assert_eq!(person(&mut v, "natarajan"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Baker's"), "[PERSON_2]");
        // Restoring gives the form first written.
        assert_eq!(v.lookup("PERSON", 1), Some("Priya Natarajan"));
        assert_eq!(v.lookup("PERSON", 2), Some("Tom Baker"));
        // Other types are never merged.
        assert_eq!(
            v.placeholder_for(&EntityType::Email, "tom@x.io"),
            "[EMAIL_1]"
        );
    }

    #[test]
    fn titles_and_words_run_on_past_a_name_keep_the_person() {
        let mut v = Vault::new();
        assert_eq!(
            person(&mut v, "Ignacio Rubio Tortosa Servicio"),
            "[PERSON_1]"
        );
        assert_eq!(person(&mut v, "Dr.Ignacio Rubio Tortosa"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Dr. Alberto Palacios Torres"), "[PERSON_2]");
        assert_eq!(person(&mut v, "Alberto Palacios Torres"), "[PERSON_2]");
        assert_eq!(person(&mut v, "Mrs Torres"), "[PERSON_2]");
        // Two known full names within one: which is ambiguous, so it is someone new.
        assert_eq!(person(&mut v, "Ana Ruiz"), "[PERSON_3]");
        assert_eq!(
            person(&mut v, "Ana Ruiz Alberto Palacios Torres"),
            "[PERSON_4]"
        );
        // A title alone is no name to merge on.
        assert_eq!(person(&mut v, "Dr."), "[PERSON_5]");
    }

    #[test]
    fn a_short_name_two_people_share_is_its_own() {
        let mut v = Vault::new();
        assert_eq!(person(&mut v, "Tom Baker"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Tom Hill"), "[PERSON_2]");
        assert_eq!(person(&mut v, "Tom"), "[PERSON_3]");
        assert_eq!(person(&mut v, "Hill"), "[PERSON_2]");
    }

    #[test]
    fn a_full_name_joins_the_one_known_by_a_word_of_it() {
        let mut v = Vault::new();
        assert_eq!(person(&mut v, "Ingrid"), "[PERSON_1]");
        assert_eq!(person(&mut v, "Ingrid Solberg"), "[PERSON_1]");
        // A second full name with that given name is someone else.
        assert_eq!(person(&mut v, "Ingrid Berg"), "[PERSON_2]");
        assert_eq!(v.lookup("PERSON", 1), Some("Ingrid"));
    }

    #[test]
    fn forms_survive_storage_and_erasure_keeps_a_used_number() {
        let mut v = Vault::new();
        person(&mut v, "Priya Natarajan");
        person(&mut v, "PRIYA NATARAJAN");
        let back = Vault::from_json(&v.to_json()).unwrap();
        assert_eq!(back.entries().len(), 2);
        let mut back2 = back.clone();
        assert_eq!(person(&mut back2, "Priya"), "[PERSON_1]");
        // The upper-case form goes; the person is still held: the number is not retired.
        let out = back2.erase_unreferenced(Some(&["PRIYA NATARAJAN"]), ["Priya Natarajan said hi"]);
        assert_eq!(out.erased.len(), 1);
        assert!(!back2.is_erased("[PERSON_1]"));
        let again = Vault::from_json(&back2.to_json()).unwrap();
        assert_eq!(again.lookup("PERSON", 1), Some("Priya Natarajan"));
        // Everything goes: the number is retired.
        let mut all = again.clone();
        all.erase_unreferenced(None, std::iter::empty::<&str>());
        assert!(all.is_erased("[PERSON_1]"));
        assert!(Vault::from_json(&all.to_json()).is_ok());
    }
}
