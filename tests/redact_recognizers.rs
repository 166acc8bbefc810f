//! Each recognizer on positive examples and hard negatives, and linear time on pathological
//! input.

use llm_memory::redact::{Redactor, RedactorConfig, WordLists};
use std::time::Instant;

/// What the rules find with the word lists the model file carries (as a redactor with the
/// model reads them; `rules_alone_know_fewer_given_names` shows the difference).
fn found(text: &str) -> Vec<(String, String)> {
    let r = Redactor::new(RedactorConfig::default())
        .unwrap()
        .with_word_lists(WordLists::of_this_repository());
    r.detect(text)
        .into_iter()
        .map(|c| (c.kind.to_string(), text[c.start..c.end].to_string()))
        .collect()
}

fn assert_finds(kind: &str, text: &str, value: &str) {
    let f = found(text);
    assert!(
        f.contains(&(kind.to_string(), value.to_string())),
        "expected {kind} {value:?} in {text:?}, got {f:?}"
    );
}

fn assert_clean(text: &str) {
    let f = found(text);
    assert!(f.is_empty(), "expected nothing in {text:?}, got {f:?}");
}

#[test]
fn rules_alone_know_fewer_given_names() {
    let text = "Bennett Sloan from accounting says hi";
    let alone = Redactor::new(RedactorConfig::default()).unwrap();
    assert!(alone.detect(text).is_empty());
    assert_finds("PERSON", text, "Bennett Sloan");
}

#[test]
fn positives() {
    // (type, text, the value found in it)
    let cases: &[(&str, &str, &str)] = &[
        ("EMAIL", "write to jane.doe+tag@mail.example.co.uk today", "jane.doe+tag@mail.example.co.uk"),
        ("PHONE", "call +1 (415) 555-0100 ext. 42 now", "+1 (415) 555-0100 ext. 42"),
        ("PHONE", "Tel: 030 1234567", "030 1234567"),
        // A one-digit country code between dots is no version number.
        ("PHONE", "call +1.415.555.0132 now", "+1.415.555.0132"),
        ("PHONE", "call me on 06 12 34 56 78", "06 12 34 56 78"),
        // Short local numbers need a context word; nine digits and more do not.
        ("PHONE", "call me at 555 0199 tonight", "555 0199"),
        ("PHONE", "mi móvil: 612 345 678", "612 345 678"),
        ("PHONE", "reach me on 0612 345 678", "0612 345 678"),
        ("PHONE", "Phone no. 0612 345 678", "0612 345 678"),
        ("PERSON", "Can you ask Jan to review the PR?", "Jan"),
        ("PERSON", "I met Julia Roberts there", "Julia Roberts"),
        // A title word after a titled given name is a surname; before a name it is a title.
        ("PERSON", "Remitido por: Dr. Héctor Pastor Navarro. Gracias", "Héctor Pastor Navarro"),
        ("PERSON", "ask Pastor John Smith about it", "John Smith"),
        ("PERSON", "Dear Hugo, thanks", "Hugo"),
        // Names from the longer English list, with no cue but a surname.
        ("PERSON", "Bennett Sloan from accounting says hi", "Bennett Sloan"),
        ("PERSON", "ask Jocelyn Guerin about it", "Jocelyn Guerin"),
        // Short joined prefixes are names, not identifiers.
        ("PERSON", "I talked to Ronald McDonald today", "Ronald McDonald"),
        // A form's "Name:" label takes any name; a lower-case `name:` key a known given name.
        ("PERSON", "Name: Cedrik Küsters\nRole: admin", "Cedrik Küsters"),
        ("PERSON", "users:\n  - name: Anna Schmidt\n", "Anna Schmidt"),
        // A lone name next to prose punctuation is still a person.
        ("PERSON", "Optimize the builds (#407) (Uri)", "Uri"),
        ("PERSON", "thanks, Uri: that fixed it", "Uri"),
        ("PERSON", "<firstName>Larry</firstName> and _Markus_", "Larry"),
        ("PERSON", "<firstName>Larry</firstName> and _Markus_", "Markus"),
        ("PHONE", "the office: 555-0100 ext. 7", "555-0100 ext. 7"),
        ("CREDIT_CARD", "card 4111-1111-1111-1111 exp 12/27", "4111-1111-1111-1111"),
        ("CREDIT_CARD", "amex 378282246310005", "378282246310005"),
        ("IBAN", "IBAN DE89 3704 0044 0532 0130 00 THEN more", "DE89 3704 0044 0532 0130 00"),
        // Typed in lower case: the same account, the same check.
        ("IBAN", "transfer from gb82west12345698765432 to savings", "gb82west12345698765432"),
        ("US_SSN", "SSN 536-22-8726", "536-22-8726"),
        ("IP_ADDRESS", "from 192.168.1.20:8080", "192.168.1.20"),
        ("IP_ADDRESS", "v6 2001:db8:85a3::8a2e:370:7334 here", "2001:db8:85a3::8a2e:370:7334"),
        ("MAC_ADDRESS", "mac 00-1A-2B-3C-4D-5E", "00-1A-2B-3C-4D-5E"),
        ("URL", "db postgres://app:s3cr3t@db.internal:5432/main.", "postgres://app:s3cr3t@db.internal:5432/main"),
        ("URL", "see https://x.io/a?id=1&access_token=abcdef123456 ok", "https://x.io/a?id=1&access_token=abcdef123456"),
        ("CRYPTO", "btc 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
        ("CRYPTO", "to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        ("API_KEY", "aws AKIAIOSFODNN7EXAMPLE key", "AKIAIOSFODNN7EXAMPLE"),
        ("API_KEY", "AIzaSyA-1234567890abcdefghijklmnopqrstu", "AIzaSyA-1234567890abcdefghijklmnopqrstu"),
        ("API_KEY", "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
        ("JWT", "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
        ("PRIVATE_KEY", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nthanks", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"),
        ("PASSWORD", "DB_PASSWORD=hunter2!x\nPORT=1", "hunter2!x"),
        ("PASSWORD", "Your pin: 4455 and the passcode = 8812", "4455"),
        // Values that merely look like code: a capitalized word at the end of a line, a keyword
        // inside a typed secret, a code span.
        ("PASSWORD", "wifi:\n  password: Sunshine\n", "Sunshine"),
        ("PASSWORD", "DB_PASSWORD=password123", "password123"),
        // Random secrets that hold a keyword's letters are no variables.
        ("PASSWORD", "my wifi password is JQC5TvIhpfAdbPJisqlVKh3 but", "JQC5TvIhpfAdbPJisqlVKh3"),
        ("PASSWORD", "api_key=aBkeyXz12QrT99", "aBkeyXz12QrT99"),
        ("PASSWORD", "set token: `Zx81_toKen-77`", "Zx81_toKen-77"),
        ("PASSWORD", "oauth_token=abcd1234efgh\nNPM_TOKEN=npm_x", "abcd1234efgh"),
        ("PASSWORD", "const apiToken = \"s3cr3t-v4lue\";", "s3cr3t-v4lue"),
        ("PASSWORD", "the admin password = hunter22 for now", "hunter22"),
        ("EMAIL", "write to ann@example.com: thanks", "ann@example.com"),
        // Spelled out against scrapers.
        ("EMAIL", "email me at john [at] gmail [dot] com", "john [at] gmail [dot] com"),
        ("EMAIL", "jane.doe(at)mail(dot)co(dot)uk!", "jane.doe(at)mail(dot)co(dot)uk"),
        ("EMAIL", "Kontakt: info {AT} firma.de", "info {AT} firma.de"),
        // National numbers with a context word in the user's language.
        ("PHONE", "Mon numéro: 06 12 34 56 78", "06 12 34 56 78"),
        ("PHONE", "appelle-moi au 01 42 68 53 00", "01 42 68 53 00"),
        // Internationalized addresses: non-ASCII mailbox, domain, or both.
        ("EMAIL", "почта: иван@mail.ru, спасибо", "иван@mail.ru"),
        ("EMAIL", "mail user@bücher.de.", "user@bücher.de"),
        ("EMAIL", "王伟@例子.中国 是我的邮箱", "王伟@例子.中国"),
        ("PASSWORD", r#"{"password": "correct horse battery"}"#, "correct horse battery"),
        // `.env` names that end in none of the plain keywords.
        ("PASSWORD", "SECRET_KEY=abc123xyzQQ\nDEBUG=1", "abc123xyzQQ"),
        ("PASSWORD", "DB_PASS=\"s3cr3t!\"", "s3cr3t!"),
        ("PASSWORD", "export SMTP_PASS='mail-pw-91'", "mail-pw-91"),
        ("PASSWORD", "ENCRYPTION_KEY: 9f8e7d6c5b4a", "9f8e7d6c5b4a"),
        ("DATE_OF_BIRTH", "I was born on 14 March 1987.", "14 March 1987"),
        ("DATE_OF_BIRTH", "Name: Ann, age: 03/04/1987", "03/04/1987"),
        ("DATE_OF_BIRTH", "aged 37 (12.05.1987)", "12.05.1987"),
        ("PERSON", "Dear Mr. Okafor, thanks", "Okafor"),
        ("PERSON", "my name is Ingrid Johansson.", "Ingrid Johansson"),
        ("ADDRESS", "I live at 221B Baker Street, London", "221B Baker Street"),
        // USPS plural suffixes and the Spanish "Vía".
        ("ADDRESS", "ship to 38851 Stroman Burgs, KS", "38851 Stroman Burgs"),
        ("ADDRESS", "la oficina: Vía Augusta 120, Barcelona", "Vía Augusta 120"),
        // Nordic street endings.
        ("ADDRESS", "jag bor på Storgatan 12, 111 22 Stockholm", "Storgatan 12"),
        ("ADDRESS", "Sveavägen 44", "Sveavägen 44"),
        ("ADDRESS", "bor på Nørrevej 4", "Nørrevej 4"),
        ("ADDRESS", "asun Aleksanterinkatu 52", "Aleksanterinkatu 52"),
        // Post office boxes.
        ("ADDRESS", "send it to PO Box 4567, Austin TX 78701", "PO Box 4567"),
        ("ADDRESS", "P.O. Box 123, Springfield", "P.O. Box 123"),
        ("ADDRESS", "Postfach 10 12 34, 80333 München", "Postfach 10 12 34"),
        ("ADDRESS", "Apartado de Correos 45, Málaga", "Apartado de Correos 45"),
    ];
    for (kind, text, value) in cases {
        assert_finds(kind, text, value);
    }
}

#[test]
fn hard_negatives() {
    assert_clean("request 123e4567-e89b-12d3-a456-426614174000 failed");
    assert_clean("commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a reverted");
    assert_clean("upgrade 1.2.3 -> 10.0.19041.1, node v18.17.1");
    assert_clean("version 1.2.3.4 released");
    assert_clean("look at example dot com, meet me (at) 5pm, [at] [dot] com");
    assert_clean("PO 4455667 shipped; the post office opens at 9; a box of 12");
    assert_clean("order #123456, ORD-2024-88123, PO 4455667");
    assert_clean("test card 4111 1111 1111 1112 was declined");
    // A lower-case token shaped like an IBAN that fails its check, and a valid one glued into
    // a longer token, are no accounts.
    assert_clean("transfer from gb82west12345698765433 to savings");
    assert_clean("build id gb82west1234569876543210 passed");
    assert_clean("make the method public; the public key is fine");
    assert_clean("interface L { password: string; token?: string }");
    assert_clean("password = getpass.getpass()\ntoken = os.environ['T']");
    // Only `_pass`/`-pass` names are keywords, not words ending in "pass"; and a `*_key` that
    // names no secret is not one.
    assert_clean("compass: northwest, bypass: enabled");
    assert_clean("primary_key: true, sort_key: created_at");
    assert_clean("SECRET_KEY = settings.SECRET_KEY");
    assert_clean("meeting on 2024-05-01 at 12:30:45, ratio 16:9");
    // Log timestamps: a date and a clock time (the hour is not the end of a phone number).
    assert_clean("2024-01-15 10:30:00 INFO started; at 15/01/2024 09:05:12.123 it stopped");
    // Decimals and dates with month names are not phones or people.
    assert_clean("coordinates 48.858844, 2.294351; [15/Jan/2024:10:30:00 +0000] GET /");
    assert_clean("std::io::Result and fs::read");
    assert_clean("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is the format");
    assert_clean("May I ask, Will this Mark the end?");
    assert_clean("ISBN 978-3-16-148410-0");
    assert_clean("It costs $1 234 567 in total");
    // Log lines and tables: HTTP status and size, counts with units, thousands with spaces,
    // short digit groups; a street word inside a hex string.
    assert_clean("\"GET /contact HTTP/1.1\" 200 5123 \"-\"; \"POST /x HTTP/1.1\" 503 123456");
    assert_clean("Total: 539 891 823 bytes in 5247 files; rx 19251629 packets 419 4405 dropped");
    assert_clean("| 2022-09-14 | 14 343 324 | 30.1% | and 1 234 567 890 events");
    assert_clean("| 2021-02-21 | 796 080 921 | 53.5% |\n| total | 1.234.567.890 |");
    assert_clean("Build 123 4567 finished; latency 200 5123");
    assert_clean("segfault at 0x7C8fAddB9054 ip f6CD745FcBcc03Bd error 6");
    // Numbers labeled as identifiers; a month name next to a number in a date header.
    assert_clean("CEP 00802-600, Moraes do Sul");
    // A login at a host with a path after the colon (an SSH remote), not a mailbox.
    assert_clean("git clone git@github.com:acme/widgets.git");
    // Given names that alone name a language or a tool.
    assert_clean(
        "Is Julia faster than Python? We rewrote it from Pascal; the site is built with Hugo.",
    );
    // Words joined into one identifier or brand, even after a greeting; a CI service.
    assert_clean("type FooEvents = {\n    hello: CustomEvent\n}; ask DeepWiki or JavaScript");
    assert_clean(
        "The tests run on Travis when merged; Travis CI is green, see the Travis-CI badge.",
    );
    // Names used as type names in code; a Rust path after a keyword.
    assert_clean(
        "Implement `From<Uri>` for `uri::Builder`; impls for `Uri`, Uri::new() and Uri.parse",
    );
    assert_clean("- `InitToken::{init, init_get}` ([#1435]); fixing Roberta type ids, Uri_builder");
    // Package logs and manifests, Python blocks and variables, versions that look like IPs.
    assert_clean("2025-06-24 14:36:52 install xauth:amd64 <none> 1:1.1.2-1");
    assert_clean("\"js-tiktoken\": \"1.0.21\",\n        \"gtoken\": \"^6.1.0\",");
    assert_clean(
        "if user and not password:\n    username, password, save = self._prompt()\n\
         index_url_user_password = index_info  # the username or the password is missing.\n\
         def f(name: Optional[str] = None): ...",
    );
    assert_clean("<assemblyIdentity version=\"1.0.0.0\"/> Specifier(\"== 1.2.3.0\") (~= 1.4.5.0)");
    // A certificate's fingerprint is not a row of MAC addresses.
    assert_clean("SHA1 Fingerprint=EA:8D:99:DD:36:AA:2D:07:1A:3C:7B:69:00:9E:51:B9:4A:2E:E7:60");
    // A CI workflow's step names.
    assert_clean("steps:\n  - name: Install Rust\n    run: rustup update\n  - name: Test Suite\n");
    // Error messages, paths to key files, camelCase variables, zero bytes, section numbers.
    assert_clean("SyntaxError: Unexpected token: keyword (else)");
    assert_clean("GOOGLE_APPLICATION_CREDENTIALS=/path/to/keyfile.json npm test");
    assert_clean("jws.sign({ privateKey: privateKeyStream, payload })");
    assert_clean("console.log(buf); // <Buffer 00 00 00 00 00>");
    assert_clean(
        "as defined in ECMA262 sections\n[11.6.2.1](http://ecma.org), see version=\"1.0.0.0\"",
    );
    // Type names after a name cue in code.
    assert_clean(
        "struct Field {\n    name: String,\n    attr_name: Option<String>,\n}\n\
         let name: Ident = input.parse(); name: Lifetime::new(\"'a\"), /// This is None after\n\
         vec![Shape::Named, Shape::Newtype]",
    );
    // Code: types in fields, parameters and bindings; indexes, macros, generics, paths,
    // members, references, templates, and variables named after the keyword.
    assert_clean(
        "struct LitRepr {\n    token: Literal,\n    semi_token: semi,\n    paren_token: token::Paren,\n}\n\
         fn from(token: Literal) -> Self { let mut token: Literal = repr.parse(); }\n\
         let auth: Option<Token![=]> = None; bound.paren_token = paren_token;\n\
         brace_token: empty_brace_token, group_token: group.token, name: &str\n\
         const firstToken = tokens[0]; this.auth = auth; token = newToken;\n\
         token = `@{${tokens.length}}@`; ($($token:literal pub struct $name:ident)*)",
    );
    // Plurals that title-case prose uses for other things than streets.
    assert_clean("We ordered 2 Hard Drives, rotated 3 API Keys and read 5 Easy Ways to Cope");
    // "age" as part of another word is no birth-date cue.
    assert_clean("Agenda for 12.03.1999; Cache-Control: max-age=86400, modified 2021-03-04");
    assert_clean("due 2027-11-11, ref 4009-6504-42; Order #555-123-4567; ticket: 0612 345 678");
    assert_clean("Merge: a3eaccb 8e9c52c\nDate:   Wed, 28 Jan 2026 18:27:39 GMT; since Jan 5");
    // A phone context word on the line before: log lines are separate records.
    assert_clean("WARN sms gateway down\nBuild 290 8475 finished in 26m 54s");
}

/// The person values found in `text`, in order.
fn people(text: &str) -> Vec<String> {
    found(text)
        .into_iter()
        .filter(|(kind, _)| kind == "PERSON")
        .map(|(_, value)| value)
        .collect()
}

/// "I'm"/"I am"/"ich bin" before a nationality, a faith, a diet, a condition, a mood or a job
/// title: the cue says where a name would be, the word says it is none. Names after the same
/// cues are still found, and only the name is the span.
#[test]
fn self_descriptions_are_not_names() {
    for text in [
        "I'm Indian",
        "I'm British and I am Chinese",
        "I'm Catholic",
        "I'm Vegan, so no meat please",
        "I am Diabetic",
        "I'm Sorry",
        "I'm Fine, thanks",
        "I'm Back",
        "Ich bin Deutscher",
        "I'm Senior Developer at Google",
        "I’m Christian and I'm Looking for advice",
    ] {
        assert!(people(text).is_empty(), "{text:?}: {:?}", found(text));
    }
    assert_eq!(people("I'm Dana"), ["Dana"]);
    assert_eq!(people("I'm Dana Smith"), ["Dana Smith"]);
    assert_eq!(people("Hi, I'm Dana"), ["Dana"]);
    assert_eq!(people("Hi, I’m Dana, Senior Developer at Google"), ["Dana"]);
    assert_eq!(
        people("I'm Christian Müller, I'm Indian"),
        ["Christian Müller"]
    );
    assert_eq!(people("my name is Christian"), ["Christian"]);
    assert_eq!(people("Ich bin Jürgen Groß"), ["Jürgen Groß"]);
    assert_eq!(people("I am Zoltan."), ["Zoltan"]);
}

/// Greetings and sign-offs addressed to a role or a group, and things whose name has a title.
#[test]
fn roles_and_titled_things_are_not_names() {
    for text in [
        "Dear Hiring Manager,",
        "Dear Valued Customer,",
        "Dear Diary,",
        "Dear Admissions Committee,",
        "Dear Sir or Madam",
        "Kind regards,\nHead of Sales",
        "Cheers,\nMarketing",
        "Dr. Pepper",
        "Mr. Robot",
        "Dr. Strange and Mr. Bean",
        "Dr. House",
    ] {
        assert!(people(text).is_empty(), "{text:?}: {:?}", found(text));
    }
    assert_eq!(people("Dear Anna,"), ["Anna"]);
    assert_eq!(people("Dear Professor Smith,"), ["Smith"]);
    assert_eq!(
        people("Dear Ms. Nguyen, re the Hiring Manager role"),
        ["Nguyen"]
    );
    assert_eq!(
        people("Kind regards,\nTorvald Berg\nHead of Sales"),
        ["Torvald Berg"]
    );
    assert_eq!(people("Cheers,\nChristian"), ["Christian"]);
    assert_eq!(
        people("Dr. Gregory House and Mr. Young"),
        ["Gregory House", "Young"]
    );
    assert_eq!(people("I met Sean Bean"), ["Sean Bean"]);
}

/// Given names that are also places, said as places: after a preposition of place, a
/// postcode, "São"/"San", in a street's name, or alone when the name mostly means the place.
#[test]
fn places_named_like_people_are_not_names() {
    for text in [
        "We moved from Charlotte to Austin",
        "then Florence, then Victoria",
        "Is Sydney or Adelaide better",
        "it is hot in Georgia",
        "take the Victoria Line",
        "São Paulo and San Antonio",
        "69003 Lyon",
        "Apto. 703, 47579-694 Anthony do Norte",
        "we met near Julia and stayed at Emma",
        "the avenue Victor Hugo is long",
    ] {
        assert!(people(text).is_empty(), "{text:?}: {:?}", found(text));
    }
    assert_eq!(
        people("Charlotte Brown moved to Austin"),
        ["Charlotte Brown"]
    );
    assert_eq!(people("Hi Sydney, thanks"), ["Sydney"]);
    assert_eq!(people("ask Victoria about it"), ["Victoria"]);
    assert_eq!(people("a note from Emma"), ["Emma"]);
    assert_eq!(people("Paulo Coelho wrote it"), ["Paulo Coelho"]);
}

/// German prepositional phrases with a number have the shape of "Am Markt 5": years, months,
/// chapters and set phrases are prose; the streets around them are still found.
#[test]
fn german_phrases_with_numbers_are_not_addresses() {
    for text in [
        "Im Jahr 2020 haben wir angefangen",
        "Im Juni 2023 und Im Sommer 2019",
        "Im Kapitel 3 und Im Teil 2",
        "Am Ende 2 Punkte",
        "Zum Beispiel 3 Äpfel",
        "Umsatz: Im Jahr 2023 stieg der Gewinn",
    ] {
        assert_clean(text);
    }
    assert_finds("ADDRESS", "Ich wohne Am Markt 5", "Am Markt 5");
    assert_finds(
        "ADDRESS",
        "Im Jahr 2020 zogen wir nach Im Winkel 12, 10115 Berlin",
        "Im Winkel 12, 10115 Berlin",
    );
    assert_finds(
        "ADDRESS",
        "Treffpunkt: Zum Sportplatz 3",
        "Zum Sportplatz 3",
    );
    assert_finds(
        "ADDRESS",
        "Im Sommer 2019 wohnte ich in der Hauptstraße 12",
        "Hauptstraße 12",
    );
}

/// An ASCII address typed straight into Japanese, Chinese or Korean text is only the address:
/// the words glued to it stay. Internationalized addresses keep their non-ASCII parts.
#[test]
fn emails_in_unspaced_scripts_take_only_the_address() {
    let only = |text: &str, value: &str| {
        let f = found(text);
        assert_eq!(f, [("EMAIL".to_string(), value.to_string())], "{text:?}");
    };
    only(
        "メールはtaro.yamada@example.co.jpです。",
        "taro.yamada@example.co.jp",
    );
    only("我的邮箱是zhang.wei@163.com，谢谢", "zhang.wei@163.com");
    only("이메일은kim@naver.com입니다", "kim@naver.com");
    only("连系王伟@example.com谢谢", "连系王伟@example.com");
    only("王伟@例子.中国 是我的邮箱", "王伟@例子.中国");
    only("почта: иван@mail.ru, спасибо", "иван@mail.ru");
    only("mail jürgen.müller@bücher.de.", "jürgen.müller@bücher.de");
}

/// Streets named after people are one address, with no person inside; the sentence after a
/// lower-case street stays, and "avenue" before no name is English.
#[test]
fn streets_named_after_people_are_addresses() {
    let only = |text: &str, kind: &str, value: &str| {
        let f = found(text);
        assert_eq!(f, [(kind.to_string(), value.to_string())], "{text:?}");
    };
    only(
        "J'habite 15, avenue Victor Hugo",
        "ADDRESS",
        "15, avenue Victor Hugo",
    );
    only(
        "au 8 boulevard Saint-Michel",
        "ADDRESS",
        "8 boulevard Saint-Michel",
    );
    only(
        "au 12 rue de Rivoli et je travaille",
        "ADDRESS",
        "12 rue de Rivoli",
    );
    only(
        "I live at 15 Avenue Victor Hugo",
        "ADDRESS",
        "15 Avenue Victor Hugo",
    );
    // A street's namesake, named alone, is a person; the writer himself is a public figure.
    only(
        "Victor Marchand lived at 6 place des Vosges",
        "PERSON",
        "Victor Marchand",
    );
    assert_clean("Victor Hugo lived at 6 place des Vosges");
    assert_clean("Summarise chapter 3, where Elizabeth Bennet first meets Mr. Darcy");
    assert_clean("there are 15 avenue options and 3 boulevard cafés");
}

#[test]
fn pathological_inputs_finish_quickly() {
    let mut r = Redactor::new(RedactorConfig::default()).unwrap();
    let inputs = [
        "7".repeat(100_000),
        "a".repeat(1_000_000),
        "1.".repeat(50_000),
        "[EMAIL_".repeat(100_000),
        "Anna ".repeat(100_000),
        "a@".repeat(200_000),
        // Many cues inside one long word: each must not rescan the word.
        "A".repeat(300_000),
        "RueStreet1".repeat(30_000),
        "passpin".repeat(40_000),
        "token=".repeat(50_000),
        // Many short assignments: each check must read only around its own value.
        "auth: x1y2z3 ".repeat(50_000),
        "x:".repeat(150_000),
        "-----BEGIN ".repeat(20_000),
        "bearer ".repeat(40_000),
        "12 Main St ".repeat(20_000),
        // Long lines full of numbers, as rows of a Markdown table, a CSV file or a log: each
        // number looks for its label around it and must not walk the whole line to do so (a
        // 360 KB line took 272 s in a debug build before rows were bounded).
        format!("x\n{}", "12345678 ".repeat(40_000)),
        format!("x\n|{}", " 12345678 |".repeat(30_000)),
        format!("x\n{}", "12345678,".repeat(40_000)),
        format!("{}\n{}", "a".repeat(200_000), "12345678\n".repeat(20_000)),
        format!("Name,NHS Number\n{}", "Ann,9434765919\n".repeat(20_000)),
    ];
    for x in &inputs {
        let t = Instant::now();
        let red = r.redact(x);
        assert_eq!(&r.restore(&red.text), x);
        // Debug builds are slow; the bound only catches super-linear blow-ups.
        assert!(
            t.elapsed().as_secs() < 20,
            "{} bytes took {:?}",
            x.len(),
            t.elapsed()
        );
    }
}

#[path = "redact_recognizers/leaks.rs"]
mod leaks;

#[path = "redact_recognizers/labeled.rs"]
mod labeled;

#[path = "redact_recognizers/phones.rs"]
mod phones;

#[path = "redact_recognizers/secrets.rs"]
mod secrets;

/// US military and diplomatic mail: a unit and box or a ship, then APO/FPO/DPO, AA/AE/AP and a
/// ZIP code, on one line or two, in any case.
#[test]
fn military_mail_is_an_address() {
    for (text, value) in [
        (
            "Ship it to PSC 2322, Box 6025\nAPO AA 88307 please",
            "PSC 2322, Box 6025\nAPO AA 88307",
        ),
        (
            "my address: Unit 9010 Box 4328, DPO AP 96520",
            "Unit 9010 Box 4328, DPO AP 96520",
        ),
        (
            "USNS Comfort\nFPO AE 09577-0001 is the ship",
            "USNS Comfort\nFPO AE 09577-0001",
        ),
        (
            "send to uscgc carey\nfpo aa 73545",
            "uscgc carey\nfpo aa 73545",
        ),
    ] {
        let f = found(text);
        assert!(
            f.contains(&("ADDRESS".to_string(), value.to_string())),
            "{text:?}: {f:?}"
        );
    }
    // The abbreviations alone, and a box with no military post office, are no such address.
    assert_clean("APO AE is the code for Europe; what does FPO stand for?");
}
