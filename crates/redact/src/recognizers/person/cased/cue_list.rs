//! The cues that open a name in lower case or in capitals, and what each lets follow it.

/// What a cue lets follow it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Opens {
    /// "my name is", "je m'appelle": the sentence says a name follows, so any word that is no
    /// common word is one.
    Sentence,
    /// "Name:", "Nom :": a form field for a name, then a colon. Lower-case words must start
    /// with a given name there (`- name: install rust`, `Name: web` are config keys).
    Label,
    /// "Patient:", "Customer:", "FAO:": a field that holds a name or something else ("PATIENT:
    /// STABLE"): also in capitals, one word must be a given name, unless two words follow in
    /// capitals, or in lower case before the rest of a person's record ("patient: okonkwo
    /// adebayo, DOB 1985-03-02").
    Field,
    /// "Guest:", "Owner:", "Kontakt:": a [`Opens::Field`] whose label must be capitalized, as
    /// in a form; in lower case it is mostly a config key whose value is a handle (`owner:
    /// octocat`, `sender: noreply`).
    Role,
    /// "Full name:", "Patient name:", "Nom et prénom :": a name field that no config file has,
    /// so, as after "my name is", any word that is no common word is a name.
    NameField,
    /// "i'm", "i am", "dear", "ich bin": a description follows as often ("i'm fine"), so the
    /// first word must be a listed given name.
    Greeting,
    /// "Regards": a sign-off, then the name on a line below.
    SignOff,
}

/// The cues, matched ASCII case-insensitively where a word starts. Each starts with an ASCII
/// letter ("меня зовут" is a cue for capitalized names only): a cue starting otherwise would
/// send every text through a search over all of it.
pub(super) const CUES: &[(&str, Opens)] = &[
    ("my name is", Opens::Sentence),
    ("my name's", Opens::Sentence),
    ("mein name ist", Opens::Sentence),
    ("ich heiße", Opens::Sentence),
    ("ich heisse", Opens::Sentence),
    ("je m'appelle", Opens::Sentence),
    ("je m’appelle", Opens::Sentence),
    ("me llamo", Opens::Sentence),
    ("mi nombre es", Opens::Sentence),
    ("mi chiamo", Opens::Sentence),
    ("meu nome é", Opens::Sentence),
    ("ik heet", Opens::Sentence),
    ("jag heter", Opens::Sentence),
    ("jeg heter", Opens::Sentence),
    ("jeg hedder", Opens::Sentence),
    ("mijn naam is", Opens::Sentence),
    ("minun nimeni on", Opens::Sentence),
    ("nazywam się", Opens::Sentence),
    // "name" also ends "Full name", "First name", "Customer name".
    ("name", Opens::Label),
    ("patient", Opens::Field),
    ("customer", Opens::Field),
    ("contact person", Opens::Field),
    ("attn", Opens::Field),
    ("fao", Opens::Field),
    ("full name", Opens::NameField),
    ("first name", Opens::NameField),
    ("last name", Opens::NameField),
    ("given name", Opens::NameField),
    ("family name", Opens::NameField),
    ("legal name", Opens::NameField),
    ("patient name", Opens::NameField),
    ("patient's name", Opens::NameField),
    ("customer name", Opens::NameField),
    ("client name", Opens::NameField),
    ("guest name", Opens::NameField),
    ("passenger name", Opens::NameField),
    ("employee name", Opens::NameField),
    ("applicant name", Opens::NameField),
    ("contact name", Opens::NameField),
    ("cardholder name", Opens::NameField),
    // A surname field: no given name is to come.
    ("surname", Opens::NameField),
    ("nachname", Opens::NameField),
    ("apellido", Opens::NameField),
    ("apellidos", Opens::NameField),
    ("cognome", Opens::NameField),
    ("achternaam", Opens::NameField),
    ("nazwisko", Opens::NameField),
    ("nom et prénom", Opens::NameField),
    ("nom complet", Opens::NameField),
    ("nombre completo", Opens::NameField),
    ("nome completo", Opens::NameField),
    ("imię i nazwisko", Opens::NameField),
    ("client", Opens::Role),
    ("guest", Opens::Role),
    ("passenger", Opens::Role),
    ("employee", Opens::Role),
    ("applicant", Opens::Role),
    ("recipient", Opens::Role),
    ("sender", Opens::Role),
    ("owner", Opens::Role),
    ("holder", Opens::Role),
    ("cardholder", Opens::Role),
    ("beneficiary", Opens::Role),
    ("emergency contact", Opens::Role),
    ("next of kin", Opens::Role),
    ("contact", Opens::Role),
    ("kontakt", Opens::Role),
    ("kontaktperson", Opens::Role),
    ("ansprechpartner", Opens::Role),
    ("ansprechpartnerin", Opens::Role),
    ("empfänger", Opens::Role),
    ("absender", Opens::Role),
    ("kunde", Opens::Role),
    ("kundin", Opens::Role),
    ("patientin", Opens::Role),
    ("destinataire", Opens::Role),
    ("expéditeur", Opens::Role),
    ("paciente", Opens::Role),
    ("destinatario", Opens::Role),
    ("cliente", Opens::Role),
    ("klant", Opens::Role),
    ("kund", Opens::Role),
    ("karteninhaber", Opens::Role),
    ("policyholder", Opens::Role),
    ("landlord", Opens::Role),
    ("witness", Opens::Role),
    ("borrower", Opens::Role),
    ("attention", Opens::Role),
    ("prénom", Opens::Label),
    ("nom", Opens::Label),
    ("namn", Opens::Label),
    ("vorname", Opens::Label),
    ("nombre", Opens::Label),
    ("nome", Opens::Label),
    ("naam", Opens::Label),
    ("i'm", Opens::Greeting),
    ("i’m", Opens::Greeting),
    ("i am", Opens::Greeting),
    ("dear", Opens::Greeting),
    ("ich bin", Opens::Greeting),
    ("regards", Opens::SignOff),
    ("sincerely", Opens::SignOff),
    ("cheers", Opens::SignOff),
    ("grüße", Opens::SignOff),
    ("gruß", Opens::SignOff),
    ("cordialement", Opens::SignOff),
    ("saludos", Opens::SignOff),
    ("groet", Opens::SignOff),
    ("groeten", Opens::SignOff),
];
