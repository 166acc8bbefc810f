//! Word lists for the person recognizer: common given names across the languages our users
//! write in, honorifics, and capitalized words that are never a surname.
//!
//! The given-name list is hand-picked, not copied from any generator's data, so the accuracy
//! corpus (made with Faker) measures how it generalizes; `word-lists/given-names-en.txt`, which
//! ships in the model file ([`word_lists`]), adds 2 200 English names from the public-domain
//! Moby lists (see `scripts/given-names.mjs`). Names that are also everyday
//! words or places (Will, May, June, Mark, Grace, Paris, Jordan…) are left out on purpose: a
//! false hit on "May I ask" costs more than a missed "May" without context.

use crate::lexicon::MONTHS_EN;
use crate::word_lists;
use descriptions::{COMMON_WORDS, DESCRIPTIONS, PLACES, ROLES_AND_PLACES};
use llm_memory_encoder::lexicon::{self, entries};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

mod descriptions;

const GIVEN_NAMES: &str = "
aaron abdul abigail adam adele adrian adriana agnes ahmed aidan aiko aisha akira alan alba albert
alberto alejandra alejandro aleksandr alessandra alessandro alex alexander alexandra alexandre
alexis alfonso alfred alfredo ali alice alicia alina alison amanda amara amelia amelie amir amit
amy ana anastasia andrea andreas andrei andres andrew andrzej andy angela angelica angelo anita
ann anna annabelle anne annette anthony antoine antonia antonio anya arjun arnaud arthur ashley
astrid aurelie aurora ayumi barbara bastian beatriz beatrice ben benedikt benjamin benoit bernard
bernd bernhard beth bianca birgit bjorn bob bobby brandon brenda brian bridget britta bruno
camila camille carla carlo carlos carmen carol caroline carolina carsten catalina catherine
cecile cecilia celine charles charlotte chen chiara chloe chris christian christina christine
christoph christopher claire clara claudia claudio colin connor constance cristina daniel
daniela danielle dario david deborah denis denise derek diana diane diego dieter dimitri dirk
dmitri dominik dominique donald dorothy doug douglas duncan edgar eduardo edward elena eleanor
elias elif elisa elisabeth eliza elizabeth ella ellen elsa emil emilia emily emma enrico enrique
eric erik erika ernesto esther ethan eva evelyn fabian fabio fatima federica federico felix
fernanda fernando filip fiona florian francesca francesco francisco franck frank franz frederic
frederick gabriel gabriela gabriele gabrielle gareth gary georg george georgina gerald gerhard
giacomo gianluca gina giorgio giovanna giovanni giulia giuseppe gonzalo gregor gregory greta
guillaume gunter gustavo hana hannah hans harald harry heather heike heinz helen helena helga
henrik henry herbert hiroshi hugo ian ibrahim ignacio igor ines ingrid irene iris isaac isabel
isabella isabelle ivan jack jacob jacqueline jakob james jan jana jane janet janina jasmin jason
javier jean jeff jeffrey jennifer jens jeremy jerome jessica joan joanna joao joaquin joe johann
johanna johannes john jonas jonathan jorge jose josef joseph joshua juan julia julian juliana
julie julien julio jurgen justin kai karen karin karl karla kasia katarzyna kate katharina
katherine kathleen katie kazuki keith kelly ken kenji kevin kim klaus konrad kristina kurt laila
lara larissa laura lauren laurent lea leah leandro lena leo leon leonardo leonie liam lily linda
lisa lorenzo louis louise luca lucas lucia luciana lucy luis luisa lukas luke lydia magdalena
maja manuel manuela marc marcel marcelo marco marcos marcus margaret margarita maria mariana
marie marina mario marion marisa marius marta martha martin martina mary mateo mathias mathieu
matteo matthew matthias maurice max maxime maximilian megan mehmet melanie melissa mia michael
michaela michel michelle miguel mikhail milan mohamed mohammed monica monika nadia nadine naomi
natalia natalie natasha nathalie nathan nicholas nick nicola nicolas nicole niklas nikolai nina
noah noemi nora norbert oliver olivia omar oscar pablo paola pascal patricia patrick paul paula
pauline pedro peter petra philip philipp philippe pierre pietro piotr priya rachel rafael raffaele
rahul rainer ralf ramon raquel raul rebecca regina renata renate rene ricardo riccardo richard
rita robert roberta roberto rodrigo roger roland rolf roman ronald rosa ruben rudolf ruth ryan
sabine sabrina sadie samantha samuel sandra sara sarah sascha sebastian sergei sergio silvia
simon simone sofia sonia sophia sophie stefan stefania stefano stephan stephanie stephen steve
steven susan susanne svetlana sven sylvie tamara tanja tatiana teresa thomas tim timothy tobias
tom tomas tomasz toni tyler ulrich ursula valentina valentin valeria vanessa vera veronica
veronique victor victoria vincent viola virginie vivian walter werner william wolfgang xavier
yasmin yuki yusuf yves zoe zofia
";

/// Titles only the person recognizer reads, on top of the shared ones
/// ([`llm_memory_encoder::lexicon::HONORIFICS`]); the file says why the decoder does not.
const MORE_HONORIFICS: &str = include_str!("data/honorifics-recognizer.txt");

/// Capitalized words that start sentences or name things, never people.
const NOT_NAMES: &str = "
a about after all also an and i'm i’m i've i’ve i'd i’d i'll i’ll any are as at be because been before being best but by can
could dear did do does during each else even every everyone few first for from further get
good had has have he hello her here hey hi his how however i if in into is it its just last
let like many may me more most much must my new next no not now of off ok okay on once one only
or other our out over please regards same see she should since so some still such team than
thank thanks that the their them then there these they this those though through to today
tomorrow too under until up us very was we well were what when where which while who why will
with would yes yesterday yet you your
monday tuesday wednesday thursday friday saturday sunday
street avenue road lane drive court way place suite apt apartment
world there folks guys support customer service sales admin user users client server api
error warning info debug note todo fixme readme python java javascript typescript rust linux
windows google amazon apple microsoft github docker kubernetes order invoice ticket version
phone email e-mail address name subject re fwd date time city country update mobile tel fax
assistant system tool message
stable unknown outpatient inpatient premium required optional mandatory primary secondary
pending inactive anonymous withheld build ci producto obligatorio obbligatorio
string none some option ok err result vec box ident literal object array boolean symbol promise
null void undefined int float double char byte bool str dict tuple lifetime token shape
";

/// Vietnamese names, written family name first: the commonest family names and the middle
/// names "Văn" and "Thị", which name no thing in any language our users write in, so they
/// open a name as a given name does ("Nguyễn Văn An", "Trần Thị Lan"). The family names
/// without their accents are too often other words ("Le", "Do", "Ho"), except "Nguyen".
const SURNAMES_FIRST: &str = "
nguyễn nguyen trần phạm hoàng huỳnh võ vũ đặng bùi đỗ ngô dương văn thị
";

/// Whether `word` (as written) is a Vietnamese middle name, after which the given name comes
/// whatever word it is ("Nguyễn Văn An": "An" is no article there).
pub fn precedes_a_given_name(word: &str) -> bool {
    matches!(word, "Văn" | "Thị")
}

/// Given names that, standing alone in a developer's chat, name a language, a tool, a model or
/// a brand more often than a person ("Is Julia faster?", "built with Hugo", "Ada's type
/// system", "fine-tune Roberta", "green on Travis"). With a surname or a cue they still count.
const ALSO_THINGS: &str = "ada devin haskell hugo julia lincoln mercedes pascal roberta travis";

/// What a lower-cased word is to the person scan: one look-up answers all the lists.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Listed {
    pub given_name: bool,
    pub not_name: bool,
    pub honorific: bool,
    /// On [`ALSO_THINGS`]: not a person when alone.
    pub thing: bool,
    /// First after a cue, says what someone is, not who ("Indian", "Vegan", "Senior").
    pub describes: bool,
    /// Makes a run of capitalized words a role, a group or a place ("Manager", "Line").
    pub ends_no_name: bool,
    /// A given name that alone mostly means a place ("Sydney", "Charlotte").
    pub place: bool,
    /// A common word in some language ("und", "pas", "need"): ends a name in lower case or
    /// capitals ([`descriptions::COMMON_WORDS`]).
    pub common: bool,
}

impl Listed {
    /// Whether the word cannot be part of a name whose case does not mark it.
    pub fn ends_an_uncased_name(&self) -> bool {
        self.common || self.not_name || self.describes || self.honorific
    }
}

/// The lists `lower` (a lower-cased word) is on.
pub fn listed(lower: &str) -> Listed {
    static MAP: OnceLock<FxHashMap<&'static str, Listed>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map: FxHashMap<&'static str, Listed> = FxHashMap::default();
        let given = GIVEN_NAMES.split_whitespace();
        for w in given.chain(SURNAMES_FIRST.split_whitespace()) {
            map.entry(w).or_default().given_name = true;
        }
        // The month names ([`MONTHS_EN`]), not their abbreviations: "Jan" is a given name.
        let months = MONTHS_EN.iter().map(|forms| forms[0]);
        for w in NOT_NAMES.split_whitespace().chain(months) {
            map.entry(w).or_default().not_name = true;
        }
        for w in lexicon::HONORIFICS
            .iter()
            .copied()
            .chain(entries(MORE_HONORIFICS))
        {
            map.entry(w).or_default().honorific = true;
        }
        for w in ALSO_THINGS.split_whitespace() {
            map.entry(w).or_default().thing = true;
        }
        for w in DESCRIPTIONS.split_whitespace() {
            map.entry(w).or_default().describes = true;
        }
        for w in ROLES_AND_PLACES.split_whitespace() {
            let listed = map.entry(w).or_default();
            listed.describes = true;
            listed.ends_no_name = true;
        }
        for w in PLACES.split_whitespace() {
            map.entry(w).or_default().place = true;
        }
        for w in COMMON_WORDS.split_whitespace() {
            // A given name on the list stays one ("ben" is Dutch "am", "jan" a name).
            let listed = map.entry(w).or_default();
            listed.common = !listed.given_name;
        }
        map
    });
    let mut found = map.get(lower).copied().unwrap_or_default();
    // The longer list of given names ships with the model ([`word_lists`]); a given name on
    // it stays one as on the list above.
    if !found.given_name && word_lists::with(|l| l.is_given_name(lower)) {
        found.given_name = true;
        found.common = false;
    }
    found
}

/// Whether `lower` is a listed given name written with accents the list leaves off ("josé",
/// "jürgen", "lucía"). Only read after a cue: without one, accented given names name streets
/// and towns in Spanish and Portuguese addresses ("Terrenos Inés", "João do Descoberto") as
/// often as people.
pub fn is_accented_given_name(lower: &str) -> bool {
    !lower.is_ascii() && without_accents(lower).is_some_and(|plain| is_given_name(&plain))
}

/// `lower` with the accents of Latin letters taken off ("josé" → "jose", "jürgen" →
/// "jurgen", "søren" → "soren"): the given-name lists write names without them. `None` if a
/// letter has no plain form here (another script).
fn without_accents(lower: &str) -> Option<String> {
    let mut plain = String::with_capacity(lower.len());
    for c in lower.chars() {
        let base = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ą' | 'ă' => "a",
            'ç' | 'ć' | 'č' => "c",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => "e",
            'ì' | 'í' | 'î' | 'ï' | 'ī' | 'ı' => "i",
            'ñ' | 'ń' | 'ň' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
            'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => "u",
            'ý' | 'ÿ' => "y",
            'ś' | 'š' | 'ş' => "s",
            'ź' | 'ż' | 'ž' => "z",
            'ł' => "l",
            'ř' => "r",
            'ğ' => "g",
            'đ' | 'ð' => "d",
            'ß' => "ss",
            'æ' => "ae",
            'œ' => "oe",
            'þ' => "th",
            c if c.is_ascii() => {
                plain.push(c);
                continue;
            }
            _ => return None,
        };
        plain.push_str(base);
    }
    Some(plain)
}

pub fn is_given_name(lower: &str) -> bool {
    listed(lower).given_name
}

pub fn is_honorific(lower: &str) -> bool {
    listed(lower).honorific
}

pub fn names_a_thing(lower: &str) -> bool {
    listed(lower).thing
}

pub fn is_not_name(lower: &str) -> bool {
    listed(lower).not_name
}

/// Lower-case particles inside family names: "van der Berg", "da Silva", "de la Cruz"
/// ([`llm_memory_encoder::lexicon::PARTICLES`]).
pub fn is_particle(word: &str) -> bool {
    lexicon::PARTICLES.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_lower_case_and_disjoint() {
        let lists = crate::WordLists::of_this_repository();
        word_lists::using(&lists, || {
            assert!(is_given_name("sarah"));
            assert!(!is_given_name("may"));
            assert!(is_not_name("the"));
            assert!(["josé", "jürgen", "lucía"].map(is_accented_given_name) == [true; 3]);
            assert!(!is_accented_given_name("été") && !is_accented_given_name("straße"));
            for w in GIVEN_NAMES.split_whitespace().chain(lists.given_names()) {
                assert_eq!(w, w.to_lowercase());
                assert!(!is_not_name(w), "{w} is in both lists");
            }
            for w in ALSO_THINGS
                .split_whitespace()
                .chain(PLACES.split_whitespace())
            {
                assert!(is_given_name(w), "{w} is a given name first");
            }
            // A description that is also a given name is one on purpose ("I'm Christian").
            let described: Vec<&str> = DESCRIPTIONS
                .split_whitespace()
                .chain(ROLES_AND_PLACES.split_whitespace())
                .filter(|w| is_given_name(w) || is_not_name(w) || is_honorific(w))
                .collect();
            assert_eq!(described, ["christian"]);
        });
    }
}
