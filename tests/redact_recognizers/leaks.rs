//! Leaks an audit found in realistic chat text (support tickets, e-mails, CVs, forms in several
//! languages): each test holds the values that went to the model unredacted, and the nearby
//! text that must stay as it is.

use super::{found, people};

/// Asserts that `text` yields exactly the `expected` people.
fn assert_people(text: &str, expected: &[&str]) {
    assert_eq!(people(text), expected, "{text:?}: {:?}", found(text));
}

fn assert_no_people(text: &str) {
    assert!(people(text).is_empty(), "{text:?}: {:?}", found(text));
}

/// Values of `kind` found in `text`.
fn values(kind: &str, text: &str) -> Vec<String> {
    found(text)
        .into_iter()
        .filter(|(k, _)| k == kind)
        .map(|(_, v)| v)
        .collect()
}

fn assert_value(kind: &str, text: &str, value: &str) {
    let v = values(kind, text);
    assert!(
        v.iter().any(|x| x == value),
        "expected {kind} {value:?} in {text:?}, got {:?}",
        found(text)
    );
}

fn assert_no_value(kind: &str, text: &str) {
    assert!(values(kind, text).is_empty(), "{text:?}: {:?}", found(text));
}

/// Names in lower case or in capitals after a strong cue: the cue is what says they are names,
/// so their case does not have to.
#[test]
fn names_in_lower_case_or_capitals_after_strong_cues() {
    assert_people("my name is john smith", &["john smith"]);
    // "My name is" in Dutch, Danish, Norwegian, Finnish and Russian.
    assert_people("Mijn naam is Daan de Vries", &["Daan de Vries"]);
    assert_people("mijn naam is daan de vries", &["daan de vries"]);
    assert_people("Jeg hedder Mads Jensen", &["Mads Jensen"]);
    assert_people("jeg heter ola nordmann", &["ola nordmann"]);
    assert_people("Minun nimeni on Mikko Virtanen", &["Mikko Virtanen"]);
    assert_people("Меня зовут Иван Петров.", &["Иван Петров"]);
    // Chinese, Japanese and Korean, written without spaces.
    assert_people("你好，我叫王伟，今年三十岁", &["王伟"]);
    assert_people("私の名前は田中太郎です", &["田中太郎"]);
    assert_people("はじめまして、佐藤花子と申します。", &["佐藤花子"]);
    assert_people("제 이름은 김민수입니다", &["김민수"]);
    assert_people("hi, i'm sarah miller", &["sarah miller"]);
    assert_people("dear john,", &["john"]);
    assert_people("ich bin lukas schneider", &["lukas schneider"]);
    assert_people(
        "rewrite my resume summary. i'm kevin o'brien",
        &["kevin o'brien"],
    );
    assert_people(
        "MY NAME IS ROBERT JOHNSON AND I NEED HELP",
        &["ROBERT JOHNSON"],
    );
    assert_people(
        "PATIENT: MARTA LINDQVIST    DOB: 1980",
        &["MARTA LINDQVIST"],
    );
    // The placeholder of an unidentified patient names nobody, on a form too: the public
    // figures' list holds it, and no cue overrules that list.
    assert_people("PATIENT: JOHN DOE    DOB: 1980", &[]);
    assert_people("Dear JOHN SMITH,", &["JOHN SMITH"]);
    assert_people("FAO: MR. JOHN SMITH", &["JOHN SMITH"]);
    assert_people("Regards,\nJOHN SMITH", &["JOHN SMITH"]);
    assert_people("my name is zoltan kovacs.", &["zoltan kovacs"]);
    assert_people("Name: MASON COLE", &["MASON COLE"]);
    assert_people("i'm john smith btw", &["john smith"]);
    for text in [
        "i'm fine",
        "i'm sorry",
        "my name is on the list",
        "dear all",
        "i am not sure",
        "MY ORDER IS LATE",
        "ERROR: CONNECTION REFUSED\nWARN: RETRYING IN 5 SECONDS",
        "## INSTALLATION NOTES\nRUN THE SCRIPT",
        "i'm going to john's place",
        "my name is spelled wrong on the invoice",
        "- name: install rust\n  run: cargo build",
        "dear sir or madam",
        "I AM NOT SURE WHY",
        "my name is correct in the app but different on the invoice",
        "PATIENT: STABLE\nCUSTOMER: PREMIUM",
        "Name: web\nImage: nginx",
        "Regards,\nACME CORP LEGAL",
        "Thanks\nBest\nKind regards\nThe Support Team",
    ] {
        assert_no_people(text);
    }
}

/// Form labels, mail headers, sign-offs without a comma or in other languages, titles and
/// "my name is" in the languages our users write in.
#[test]
fn names_after_labels_headers_sign_offs_and_titles() {
    assert_people("Customer: Mason Cole", &["Mason Cole"]);
    assert_people("Patient: Anna Kowalczyk\nDOB: unknown", &["Anna Kowalczyk"]);
    assert_people("Full name: Wei Zhang", &["Wei Zhang"]);
    assert_people("Contact person: Jorunn Hagen", &["Jorunn Hagen"]);
    assert_people("Prénom : Julien", &["Julien"]);
    assert_people("Nom : BERNARD", &["BERNARD"]);
    assert_people("Namn: Kent Danielsson", &["Kent Danielsson"]);
    assert_people("From: Mason Cole <m@x.io>", &["Mason Cole"]);
    assert_people(
        "> On Fri, 7 Jun 2024 at 10:31, Lars Eriksson <lars.eriksson@telia.se> wrote:",
        &["Lars Eriksson"],
    );
    assert_people("Best regards\nJosy Strausa", &["Josy Strausa"]);
    assert_people("Kind regards\n\nMason Cole", &["Mason Cole"]);
    assert_people("Viele Grüße\n\nJosy Strausa", &["Josy Strausa"]);
    assert_people("Mit freundlichen Grüßen,\nJosy Strausa", &["Josy Strausa"]);
    assert_people("Liebe Grüße\nAnja", &["Anja"]);
    assert_people("Cordialement,\nPierre Lambert", &["Pierre Lambert"]);
    assert_people("Saludos,\nLucía Fernández", &["Lucía Fernández"]);
    assert_people("Met vriendelijke groet,\nDaan Visser", &["Daan Visser"]);
    assert_people("Ik heb dhr. Jansen gebeld", &["Jansen"]);
    assert_people("graag met mevrouw Bakker", &["Bakker"]);
    assert_people("Bonjour M. Lefèvre, merci", &["Lefèvre"]);
    assert_people("la Dott.ssa Bianchi ha detto", &["Bianchi"]);
    assert_people("Pan Kowalski i Pani Nowak", &["Kowalski", "Nowak"]);
    assert_people("Ik heet Daan Visser", &["Daan Visser"]);
    assert_people(
        "Nazywam się Krzysztof Wiśniewski",
        &["Krzysztof Wiśniewski"],
    );
    assert_people("Jag heter Kent Danielsson", &["Kent Danielsson"]);
    assert_people("Je m'appelle Pierre Lambert", &["Pierre Lambert"]);
    assert_people("Me llamo Lucía Fernández", &["Lucía Fernández"]);
    assert_people("Mi chiamo Giulia Bianchi", &["Giulia Bianchi"]);
    assert_people("Ich heiße Josy Strausa", &["Josy Strausa"]);
    for text in [
        "Customer: Premium plan\nStatus: Active",
        "From: Google Cloud <noreply@google.com>",
        "To: all staff",
        "Best practices\nUse small functions",
        "Kind regards to the team, see you\nMonday",
        "the pan is hot",
        "Results from Pan Am",
        "name: Install Rust",
    ] {
        assert_no_people(text);
    }
}

/// "Surname, Given" after a label or a header: both names, not only the surname.
#[test]
fn surname_first_names_after_labels_and_headers() {
    assert_people(
        "From: Müller, Hans <hans.mueller@example.de>",
        &["Müller, Hans"],
    );
    assert_people("Attendees: Janssen, Jens", &["Janssen, Jens"]);
    assert_people("Customer: WILLIAMS, SARAH", &["WILLIAMS, SARAH"]);
    assert_people("Name: Kowalski, Anna", &["Kowalski, Anna"]);
    assert_no_people("Attendees: Berlin, Paris");
}

/// Names after labels of fields that hold a person or something else ("Guest:", "Owner:",
/// "Kontakt:"), in English and other languages, in any case: a name needs a listed given name
/// or a second word there, and in lower case, unless its label is a name field's, the rest of
/// a person's record after it. The same labels before a thing, a placeholder, a status or a
/// handle leave it alone.
#[test]
fn names_after_role_labels_in_forms() {
    for (text, name) in [
        (
            "Patient: okonkwo adebayo, DOB 1985-03-02",
            "okonkwo adebayo",
        ),
        (
            "Kontakt: Jürgen Weiß, Hauptstraße 5, 10115 Berlin",
            "Jürgen Weiß",
        ),
        ("Guest: Aroha Ngata", "Aroha Ngata"),
        ("Passenger: WANJIRU KAMAU", "WANJIRU KAMAU"),
        ("Owner: Thandiwe Dlamini", "Thandiwe Dlamini"),
        ("Recipient: Kwame Mensah", "Kwame Mensah"),
        ("Card holder: Mei-Ling Chow", "Mei-Ling Chow"),
        ("Next of kin: Seán O'Connell", "Seán O'Connell"),
        ("Emergency contact: ngozi okafor (sister)", "ngozi okafor"),
        ("Passenger: wanjiru kamau; DOB 02/03/1985", "wanjiru kamau"),
        (
            "Applicant: ngozi eze\nDate of birth: 1990-01-01",
            "ngozi eze",
        ),
        (
            "Ansprechpartnerin: Annegret Schäfer-Lüdtke",
            "Annegret Schäfer-Lüdtke",
        ),
        ("Empfänger: Jürgen Weiß", "Jürgen Weiß"),
        ("Destinataire : Étienne Lefèvre", "Étienne Lefèvre"),
        ("Paciente: Ximena Quispe Mamani", "Ximena Quispe Mamani"),
        ("Cliente: lucía fernández", "lucía fernández"),
        ("Contact: jürgen weiß", "jürgen weiß"),
        ("Patient name: okonkwo adebayo", "okonkwo adebayo"),
        (
            "Employee name: siddharth venkataraman",
            "siddharth venkataraman",
        ),
        (
            "Imię i nazwisko: krzysztof wiśniewski",
            "krzysztof wiśniewski",
        ),
        ("Apellidos: garcía márquez", "garcía márquez"),
        ("Cognome: bianchi", "bianchi"),
        ("Name: smith, john", "smith, john"),
        ("Patient: nguyễn thị minh khai", "nguyễn thị minh khai"),
    ] {
        assert_people(text, &[name]);
    }
    for text in [
        "Status: pending review",
        "Contact: support team",
        "Patient: stable, discharged",
        "Patient: good recovery, age 45",
        "Kunde: Neukunde",
        "Kontakt: Vertrieb",
        "Empfänger: Finanzamt Berlin",
        "Absender: Deutsche Bahn",
        "Owner: root",
        "owner: octocat\nrepo: hello-world",
        "owner: john",
        "Owner: Security",
        "Owner: Platform Team",
        "Recipient: all users",
        "Recipient: Accounts Payable",
        "Client: Chrome",
        "Client: Acme Inc",
        "Client: mobile app (beta)",
        "Guest: WiFi",
        "Guest: free wifi\nDOB: n/a",
        "Passenger: Adult",
        "Employee: Full-time",
        "Applicant: Pending",
        "Next of kin: wife",
        "Name: string",
        "name: my-package",
        "- name: build\n  owner: platform",
        "Full name: text field",
        "Surname: obligatorio",
        "Cognome: obbligatorio",
        "Project name: apollo",
        "| Name | Email | Role |",
        "Customer | Order | Status",
        // A record's status or a form's placeholder after a name label.
        "Patient: Stable",
        "Patient: Unknown",
        "Patient: Outpatient",
        "Customer: Premium",
        "Name: Required",
        "Name: Build",
        "Contact: Primary",
        "Nombre: Producto",
    ] {
        assert_no_people(text);
    }
}

/// Given names written with accents that the lists write without ("José", "Jürgen"), and
/// Vietnamese names, whose family name comes first and whose given name may be any word.
#[test]
fn accented_given_names_and_vietnamese_names() {
    assert_people("Send it to Nguyễn Văn An", &["Nguyễn Văn An"]);
    assert_people("Trần Thị Lan sent the form", &["Trần Thị Lan"]);
    assert_people("Contact: José", &["José"]);
    assert_people("Nombre: maría josé núñez", &["maría josé núñez"]);
    for text in [
        "Send it to Google Drive",
        "Send it to Marketing Team",
        "The Van Der Graaf generator",
        "an été chaud, la Straße",
    ] {
        assert_no_people(text);
    }
}

/// Dates of birth with month names in other languages and after labels in other languages.
#[test]
fn birth_dates_in_other_languages() {
    for (text, date) in [
        ("geboren am 3. Mai 1990 in Köln", "3. Mai 1990"),
        ("née le 12 mars 1985 à Lyon", "12 mars 1985"),
        ("nacido el 5 de junio de 1978", "5 de junio de 1978"),
        ("Nato il 7 luglio 1982 a Roma", "7 luglio 1982"),
        ("född 24 maj 1957", "24 maj 1957"),
        ("Geburtsdatum: 14.02.1993", "14.02.1993"),
        ("geb. 14.02.1993", "14.02.1993"),
        ("Date de naissance : 22/11/1987", "22/11/1987"),
        ("Fecha de nacimiento: 05/06/1978", "05/06/1978"),
        ("Data di nascita: 07/07/1982", "07/07/1982"),
        ("Geboortedatum: 22-11-1987", "22-11-1987"),
        ("Data de nascimento: 22/11/1987", "22/11/1987"),
        ("DOB: 03-May-1995", "03-May-1995"),
        ("DOB 1995/05/03", "1995/05/03"),
    ] {
        assert_value("DATE_OF_BIRTH", text, date);
    }
    for text in [
        "the meeting on 3. Mai 2024",
        "Rechnung vom 14.02.2023",
        "rendez-vous le 12 mars 2025",
        "release 2024/05/03 is out",
        "Lieferung am 5 de junio de 2024",
    ] {
        assert_no_value("DATE_OF_BIRTH", text);
    }
}

/// Passwords and credentials stated in other languages, in short forms, in a login line, in a
/// command, a Basic authorization header or a URL without a user.
#[test]
fn passwords_in_other_languages_and_credentials_in_commands() {
    for (text, secret) in [
        ("Passwort: Hamburg#1987", "Hamburg#1987"),
        ("mein Passwort ist Hamburg#1987", "Hamburg#1987"),
        ("Kennwort: Sommer2023!", "Sommer2023!"),
        ("mot de passe : Soleil2024!", "Soleil2024!"),
        ("contraseña: Verano2024!", "Verano2024!"),
        ("senha: Praia2024!", "Praia2024!"),
        ("wachtwoord: Fiets2024!", "Fiets2024!"),
        ("pass: Tr0ub4dor", "Tr0ub4dor"),
        ("my pw is Sunflower2024!", "Sunflower2024!"),
        ("log in with password toor1234", "toor1234"),
        ("login: jsmith / Winter2024!", "Winter2024!"),
        (
            "the password for the wifi is Blue-Falcon-42",
            "Blue-Falcon-42",
        ),
        ("password for my account: Hunter2!x", "Hunter2!x"),
        ("The passcode to the safe was 7731", "7731"),
        ("PIN: 4921", "4921"),
        ("card pin is 052817", "052817"),
        (
            "curl -u admin:S3cretPass! https://api.example.com",
            "S3cretPass!",
        ),
        (
            "Authorization: Basic YWRtaW46U3VwZXJTZWNyZXQxMjM=",
            "YWRtaW46U3VwZXJTZWNyZXQxMjM=",
        ),
    ] {
        assert_value("PASSWORD", text, secret);
    }
    assert!(
        found("redis://:r3d1sP4ss@cache.internal:6379/0")
            .iter()
            .any(|(_, v)| v.contains("r3d1sP4ss")),
        "{:?}",
        found("redis://:r3d1sP4ss@cache.internal:6379/0")
    );
    for text in [
        "click the password reset link",
        "the password field is required",
        "pass the salt",
        "with password protection enabled",
        "password is required",
        "Passwort vergessen? Klicken Sie hier",
        "curl -u $USER:$TOKEN https://x.io",
        "the password for the wifi is written on the fridge",
        "password for this site is required",
        "PIN code: 560001",
        "pin: 13",
        ".pin = GPIO_NUM_4,",
        "spin: 2048",
        "Enter passphrase for key '/home/u/.ssh/id_rsa':\ndist@direct.example.org's password:",
    ] {
        assert_no_value("PASSWORD", text);
    }
}

/// French and other European numbers after their labels, and a bare French number on a
/// signature line under a name.
#[test]
fn european_phone_numbers_after_labels_and_names() {
    for (text, number) in [
        ("Tél.: 03 32 56 08 11", "03 32 56 08 11"),
        ("Tél. : 01 42 68 53 00", "01 42 68 53 00"),
        (
            "Vous pouvez me joindre au 07 06 99 38 63.",
            "07 06 99 38 63",
        ),
        ("joignable au 06.12.34.56.78", "06.12.34.56.78"),
        ("Pierre Lambert\n01 42 68 53 00", "01 42 68 53 00"),
        ("mob 9876543210", "9876543210"),
        ("ph: 4155550132", "4155550132"),
        ("Tlf: 912 34 567", "912 34 567"),
        ("Tel. 030 / 123 456 78", "030 / 123 456 78"),
    ] {
        assert_value("PHONE", text, number);
    }
    for text in [
        "order 0142685300 shipped",
        "2024-06-07 10:31:22.123456",
        "version 10.12.34.56.78",
        "total 1 234 567,89 EUR",
        "tracking 1Z999AA10123456784",
        "build 9876543210 passed",
        "Commande n° 01 42 68 53 00 expédiée",
        "| 01 02 03 04 05 |",
    ] {
        assert_no_value("PHONE", text);
    }
}
