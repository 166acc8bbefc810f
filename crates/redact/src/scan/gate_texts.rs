//! The texts the gate tests read (see `gates_find_what_the_whole_text_finds`).

/// Texts that stress the gates: the start of the labeled corpus, and hand-made edge cases
/// (values glued to punctuation, Unicode spaces and case folds, runs at the text's ends).
pub(crate) fn gate_texts() -> Vec<String> {
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/redact_corpus.jsonl"
    ))
    .unwrap_or_default();
    let mut texts: Vec<String> = corpus
        .lines()
        .take(1500)
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["text"].as_str().unwrap_or_default().to_string())
        .collect();
    texts.extend(
        [
            "_4111 1111 1111 1111_ x4111-1111-1111-1111 +44\u{a0}20 7946 0958\u{a0}ext\u{a0}12",
            "ſecret=hunter22 toKen: abcdef12 Kneippſtraße 5 Hauptstraẞe 7 PASSWORD : 'x y z w'",
            "a@b.co,c@d.io;_e@f.org 1.2.3.4.5 10.0.0.1: fe80::1:2:3 ab:cd:ef:01:23:45",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334 1:2:3:4:5:6:1.2.3.4 ::ffff:10.0.0.1 10:30:00",
            "https://u:p@h.io/x?token=abcdefgh1 http://x.io/?sig=123456&a=b <https://a:b@c.d>",
            "12 Rue de la Paix, 5 rue de Rivoli 12, Calle Mayor s/n, Piso 3 Am Markt 5 An der Alster 12b",
            "Allée des Roses 5, Calleja Mayor 3, Callers 5, Rue_5, Rue.\u{a0}de la Paix 7, Praça\u{2003}da Sé 2, RueDu Bac 4",
            "SVEAVÄGEN 44 Sveavägen 44, Gamla gränd 3 Storgatan\u{a0}12 Nørrevej 4 KARL JOHANS GATA 1",
            "221B Baker Street\u{a0}Suite 4, 19522 E 5th St. Apt 9 Via\u{2003}Roma 3, Hauptstr. 82c Zimmer 6",
            "42 rue de Rivoli, 75001 Paris; 5, calle Mayor 3b,\u{a0}allée des Roses 12 praça\u{2003}da Sé; 7\nrue X",
            // Assignments: quoted keywords, `:=`/`=>`, Unicode spaces, longest keyword.
            "\"client_secret\" => \"s3cr3t-value\" DB_PASSWORD\u{a0}:= hunter2x TOKEN='a b c d'",
            "x.apikey=abcd1234; AUTH :\u{2003}`tick tock` Credentials=abcdefgh mypassword=qwerty12",
            // Near words: bearer across lines and spaces, "my wifi password is".
            "Authorization:Bearer\u{a0}abcdefghijklmnop1234 and bearer\n\n  zyxwvutsrqponmlk9876",
            "our wi-fi password is Tr0ub4dor&3, the  PIN  :  4455",
            // Near words with a test: labels before a colon, keywords before is/was/=.
            "login: jsmith / Tr0ub4dor&3 USERNAME\u{a0}:\u{2003}admin/S3cret!! user : bob / hunter2x",
            "users: a / Bb12345, username is bob / x1234567; creds:x/y1234567 the pin\u{a0}WAS 44a55",
            "your passcode=Ab12cd34 my password\u{2003}is Xy12345! the passphrase:\tcorrect-Horse9",
            "Passwort\u{a0}ist Geheim99 MOT DE PASSE : Soleil#7 contraseña es Clave123 senha é Abc12345",
            "pw=Xk29dd1q wachtwoord: Tulp!9x PASSWD  WAS Zz998877 pass est Pa55word kennwort:x1y2z3w4",
            "log in WITH\u{a0}PASSWORD Hunter22x, using pw  Qq11ww22 or with\npasswort Ab-12cd-3",
            // Near words inside words, after `-` and `_`, in either case; a key header
            // after a run of dashes.
            "MY WIFI\u{a0}password is Qwerty123, the\nwi-fi password: Zz1234567, our wifi  password was Ab12cd34ef",
            "user: anna/ Pw123456 login:bob\u{2003}/x1y2z3w4 User: how do I / why User: no slash here",
            "the password for the\u{a0}wifi is Blue-Falcon-42, PASSWORD TO admin panel: Hunter2!x, pin on card was 4921",
            "PIN: 4921 pin\u{2003}is 77310 Pin=123456789 pin: GPIO_NUM_4 pins: 1234 spin: 5678 pin was\n9999",
            "john [at] example [dot] com, JANE.DOE(AT)MAIL(DOT)CO(DOT)UK x {at} y.io me\u{a0}<at>\u{a0}host [dot] org",
            "look at example dot com, see (at) docs [dot] rs, a[at]b [dot]\ncom, [at] [dot], q(at)w.e",
            "PO Box 4567, P.O. Box 12 p.\u{a0}o.\tbox #9 POBOX 77 post  office box 5 Postfach 10 12 34 apartado de correos 45",
            "p.o.\nbox 1, Post office: 3, pobox, P.O.Box no. 456, port 8080, Apartado 12",
            "my PIN-pass is 1234abcd, your xpin is 5678efgh, the _Pass was s3cr3t!! pinpass",
            "---------Begin RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
            // Phones with extensions and international prefixes; dates with years.
            "+1 (415) 555-0100 ext. 12, 0044 20 7946 0958 x99, call 555-0100 extension 7",
            // A rejected match (too few digits) runs into a number through its extension.
            "2024 ext. 4111.4111, 12\n x 4111 2222 33 and 7 #\u{a0}555 1234 567 +4 extension 12345678",
            "born on 12th of September, 1987; DOB Sept. 3, 1979; geboren 03.04.1987; age 3/4/88",
        ]
        .map(String::from),
    );
    texts
}
