//! Word classes more than one part of this crate reads, each written once as a `.txt` file in
//! `lexicon/`, in the format of [`llm_memory_encoder::lexicon::entries`] (one entry per line,
//! `# ` comment lines saying where the words come from). The classes the decoder reads too are
//! in the encoder crate's `lexicon`, which this crate depends on.

use llm_memory_encoder::lexicon::entries;
use std::sync::LazyLock;

/// The English months, January first: each its name, then the abbreviations dates write.
pub(crate) static MONTHS_EN: LazyLock<Vec<Vec<&str>>> = LazyLock::new(|| {
    entries(include_str!("lexicon/months-en.txt"))
        .map(|month| month.split_whitespace().collect())
        .collect()
});

/// Whether a lower-case word is an English month's name or abbreviation.
pub(crate) fn is_month_en(lower: &str) -> bool {
    MONTHS_EN.iter().flatten().any(|&m| m == lower)
}

/// The people a writer names by their relation to them ("my sister", "ngozi okafor
/// (mother)"). Lower case.
pub(crate) static RELATIONS: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/relations.txt")).collect());

/// Greetings and wake words that open a message spoken to a name ("hey olly …"). Lower case.
pub(crate) static ADDRESS_OPENERS: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/address-openers-en.txt")).collect());

/// Words that open a request right after the name it speaks to ("olly what's …"). Lower case.
pub(crate) static REQUEST_OPENERS: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/request-openers-en.txt")).collect());

/// English auxiliary and modal verbs ("can", "do", "is"). Lower case.
pub(crate) static AUXILIARIES: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/auxiliaries-en.txt")).collect());

/// English command verbs in their base form ("turn", "play", "remind"). Lower case.
pub(crate) static IMPERATIVES: LazyLock<Vec<&str>> =
    LazyLock::new(|| entries(include_str!("lexicon/imperatives-en.txt")).collect());
