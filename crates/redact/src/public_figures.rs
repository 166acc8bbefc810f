//! A deny list of public figures, as Presidio's recognizers take deny and allow lists: people
//! (and fictional characters) so widely known that a message naming them is about history,
//! culture, sport or politics, not personal data. The model tags "Napoleon Bonaparte" as a
//! person, rightly; this list is what says such a person is not the user's private business.
//!
//! It is a list, with a list's limits: short on purpose (the most-discussed names of history,
//! science, the arts, politics and sport, plus the best-known fictional characters), written
//! from general knowledge, matched as whole words ignoring ASCII case. A private person who
//! shares a listed full name is not redacted, whichever finder saw them (the suppression
//! stage asks [`crate::text_context::TextContext`]). Mononyms are listed only where the
//! single word is the person (`Mozart`), never a common given name.
//! The placeholder names of forms and test data (`John Doe`, `Max Mustermann`, `Lorem ipsum`)
//! are listed with them: they are nobody.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::sync::OnceLock;

const NAMES: &[&str] = &[
    // History and politics.
    "Napoleon",
    "Napoleon Bonaparte",
    "Julius Caesar",
    "Cleopatra",
    "Alexander the Great",
    "Genghis Khan",
    "Charlemagne",
    "Abraham Lincoln",
    "George Washington",
    "Thomas Jefferson",
    "Winston Churchill",
    "Franklin D. Roosevelt",
    "Franklin Roosevelt",
    "Theodore Roosevelt",
    "John F. Kennedy",
    "JFK",
    "Martin Luther King",
    "Martin Luther",
    "Malcolm X",
    "Nelson Mandela",
    "Mahatma Gandhi",
    "Gandhi",
    "Mother Teresa",
    "Queen Elizabeth",
    "Queen Victoria",
    "Elizabeth II",
    "Henry VIII",
    "Louis XIV",
    "Joan of Arc",
    "Adolf Hitler",
    "Hitler",
    "Joseph Stalin",
    "Stalin",
    "Vladimir Lenin",
    "Lenin",
    "Karl Marx",
    "Mao Zedong",
    "Fidel Castro",
    "Che Guevara",
    "Simón Bolívar",
    "Angela Merkel",
    "Barack Obama",
    "Donald Trump",
    "Joe Biden",
    "Hillary Clinton",
    "Bill Clinton",
    "Margaret Thatcher",
    "Vladimir Putin",
    "Emmanuel Macron",
    "Ronald Reagan",
    "Richard Nixon",
    "Charles de Gaulle",
    "Otto von Bismarck",
    "Catherine the Great",
    "Peter the Great",
    "Marie Antoinette",
    "Rosa Parks",
    "Harriet Tubman",
    "Frederick Douglass",
    "Anne Frank",
    "Eleanor Roosevelt",
    "Benjamin Franklin",
    "Alexander Hamilton",
    "Confucius",
    "Buddha",
    "Jesus Christ",
    "Muhammad Ali",
    "Dalai Lama",
    "Pope Francis",
    "Greta Thunberg",
    "Malala Yousafzai",
    "Wangari Maathai",
    "Kofi Annan",
    // Science, thought and technology.
    "Albert Einstein",
    "Einstein",
    "Isaac Newton",
    // Not "Galileo" alone: an Italian given name ("ask Galileo to review the PR").
    "Galileo Galilei",
    "Charles Darwin",
    "Marie Curie",
    "Nikola Tesla",
    "Thomas Edison",
    "Ada Lovelace",
    "Alan Turing",
    "Stephen Hawking",
    "Sigmund Freud",
    "Freud",
    "Richard Feynman",
    "Niels Bohr",
    "Max Planck",
    "Johannes Kepler",
    "Nicolaus Copernicus",
    "Copernicus",
    "Aristotle",
    "Plato",
    "Socrates",
    "Pythagoras",
    "Archimedes",
    "Euclid",
    "Immanuel Kant",
    "Friedrich Nietzsche",
    "Nietzsche",
    "René Descartes",
    "John Locke",
    "Thomas Hobbes",
    "Jean-Paul Sartre",
    "Simone de Beauvoir",
    "Hannah Arendt",
    "John Maynard Keynes",
    "Keynes",
    "Friedrich Hayek",
    "Hayek",
    "Adam Smith",
    "Milton Friedman",
    "Noam Chomsky",
    "Carl Sagan",
    "Rosalind Franklin",
    "Gregor Mendel",
    "Louis Pasteur",
    "Florence Nightingale",
    "Steve Jobs",
    "Bill Gates",
    "Elon Musk",
    "Mark Zuckerberg",
    "Jeff Bezos",
    "Tim Berners-Lee",
    "Linus Torvalds",
    "Grace Hopper",
    "Leonardo da Vinci",
    "Machiavelli",
    "Niccolò Machiavelli",
    "Voltaire", // Arts, music and letters.
    "William Shakespeare",
    "Shakespeare",
    "Charles Dickens",
    "Jane Austen",
    "Leo Tolstoy",
    "Tolstoy",
    "Fyodor Dostoevsky",
    "Dostoevsky",
    "Mark Twain",
    "Ernest Hemingway",
    "Virginia Woolf",
    "George Orwell",
    "Franz Kafka",
    "Kafka",
    "James Joyce",
    "Dante Alighieri",
    "Miguel de Cervantes",
    "Victor Hugo",
    "Goethe",
    "Johann Wolfgang von Goethe",
    "Oscar Wilde",
    "Edgar Allan Poe",
    "Agatha Christie",
    "J.K. Rowling",
    "J. K. Rowling",
    "Stephen King",
    "Toni Morrison",
    "Maya Angelou",
    "Gabriel García Márquez",
    "Emily Dickinson",
    "Walt Whitman",
    "Homer Simpson",
    "Wolfgang Amadeus Mozart",
    "Mozart",
    "Ludwig van Beethoven",
    "Beethoven",
    "Johann Sebastian Bach",
    "Frédéric Chopin",
    "Chopin",
    "Tchaikovsky",
    "Vivaldi",
    "Pablo Picasso",
    "Picasso",
    "Vincent van Gogh",
    "Van Gogh",
    "Michelangelo",
    "Rembrandt",
    "Claude Monet",
    "Frida Kahlo",
    "Salvador Dalí",
    "Salvador Dali",
    "Andy Warhol",
    "Elvis Presley",
    "Michael Jackson",
    "Freddie Mercury",
    "John Lennon",
    "Paul McCartney",
    "Bob Dylan",
    "Bob Marley",
    "Taylor Swift",
    "Beyoncé",
    "Beyonce",
    "Rihanna",
    "Lady Gaga",
    "Frank Sinatra",
    "Marilyn Monroe",
    "Charlie Chaplin",
    "Audrey Hepburn",
    "Alfred Hitchcock",
    "Steven Spielberg",
    "Oprah Winfrey",
    // Sport.
    "Lionel Messi",
    "Messi",
    "Cristiano Ronaldo",
    "Pelé",
    "Pele",
    "Diego Maradona",
    "Maradona",
    "Michael Jordan",
    "LeBron James",
    "Kobe Bryant",
    "Serena Williams",
    "Venus Williams",
    "Steffi Graf",
    "Roger Federer",
    "Rafael Nadal",
    "Novak Djokovic",
    "Usain Bolt",
    "Tiger Woods",
    "Michael Phelps",
    "Simone Biles",
    "Lewis Hamilton",
    "Michael Schumacher",
    "Ayrton Senna",
    "Wayne Gretzky",
    "Babe Ruth",
    // Fiction.
    "Sherlock Holmes",
    "Dr. Watson",
    "Harry Potter",
    "Hermione Granger",
    "Elizabeth Bennet",
    "Mr. Darcy",
    "Fitzwilliam Darcy",
    "Jay Gatsby",
    "Atticus Finch",
    "Holden Caulfield",
    "Frodo Baggins",
    "Bilbo Baggins",
    "Gandalf",
    "Hamlet",
    "Macbeth",
    "Don Quixote",
    "Captain Ahab",
    "Jane Eyre",
    "Huckleberry Finn",
    "Tom Sawyer",
    "James Bond",
    "Indiana Jones",
    "Luke Skywalker",
    "Darth Vader",
    "Mickey Mouse",
    "Santa Claus",
    "Forrest Gump",
    "Mona Lisa",
    // Placeholder people of forms, docs and test data: nobody. Left out: placeholders that
    // are also common real names ("Mario Rossi", "Jan Kowalski", "Juan Pérez").
    "John Doe",
    "Jane Doe",
    "Richard Roe",
    "Jane Roe",
    "John Q. Public",
    "Joe Bloggs",
    "Fred Bloggs",
    "Jane Bloggs",
    "Joe Schmoe",
    "Joe Sixpack",
    "Max Mustermann",
    "Erika Mustermann",
    "Otto Normalverbraucher",
    "Jean Dupont",
    "Fulano de Tal",
    "Tommy Atkins",
    "Lorem ipsum",
    "Lorem",
];

fn matcher() -> &'static AhoCorasick {
    static MATCHER: OnceLock<AhoCorasick> = OnceLock::new();
    MATCHER.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(NAMES)
            .expect("the public-figure list builds")
    })
}

/// The byte ranges in `text` that name a listed public figure as whole words.
pub fn mentions(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let word_char = |i: usize| {
        text[i..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric())
    };
    matcher()
        .find_iter(text)
        .filter(|m| {
            let before = m.start() > 0 && {
                let c = text[..m.start()].chars().next_back().unwrap_or(' ');
                c.is_alphanumeric()
            };
            let after = m.end() < b.len() && word_char(m.end());
            !before && !after
        })
        .map(|m| (m.start(), m.end()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_names_are_found_as_whole_words_in_any_case() {
        let text = "Was napoleon bonaparte short? Ask Napoleonic scholars, not Mozartkugel fans.";
        let found: Vec<&str> = mentions(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(found, ["napoleon bonaparte"]);
        assert!(mentions("my neighbour Maria Gonzalez").is_empty());
    }

    #[test]
    fn every_listed_name_is_found_in_a_sentence() {
        for name in NAMES {
            let text = format!("Tell me about {name}'s life.");
            assert!(!mentions(&text).is_empty(), "{name}");
        }
    }
}
