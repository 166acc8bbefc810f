//! The built-in regex recognizers: one [`PatternSpec`] per format, with the check that confirms
//! a candidate and the context words that lift a weak one (as Presidio's context enhancer does).
//!
//! Patterns use ASCII classes and ASCII word boundaries on purpose: Unicode `\b` forces the
//! `regex` crate off its DFA onto a slower engine, and none of these formats contain non-ASCII
//! characters. Checks only look at the candidate and a few neighbouring bytes, so they stay
//! linear overall.

use super::super::entity::EntityType;
use super::super::validate as v;
use super::code::{is_assigned_secret, is_code_value};
use super::email::{email, spelled_at, unicode_email};
use super::gate::{ByteSet, Gate};
use super::phone::{phone, PHONE_CONTEXT};
use super::{credentials, runs, values, Hit, Spec};

/// A candidate's surroundings, for checks that must see what is next to the match.
pub(super) fn before(text: &str, start: usize) -> &[u8] {
    &text.as_bytes()[start.saturating_sub(24)..start]
}

/// True when the match is glued to a longer token (`ORD-2024-88123`, a UUID group, `v1.2.3`):
/// then the digits belong to an identifier, not to a phone number or an address.
pub(super) fn embedded_in_token(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let left = |i: usize| (i > 0).then(|| b[i - 1]);
    match left(start) {
        Some(c) if c.is_ascii_alphanumeric() => return true,
        Some(c) if glue(c) && left(start - 1).is_some_and(|d| d.is_ascii_alphanumeric()) => {
            return true
        }
        _ => {}
    }
    glued_after(b, end)
}

/// Bytes that join a value to a longer token. `=` and `:` are left out: `ip=10.0.0.1` and
/// `tel:+1…` hold whole values.
fn glue(c: u8) -> bool {
    matches!(c, b'-' | b'.' | b'_' | b'/' | b'#')
}

/// Whether a match ending at `end` goes on into a token (the right half of
/// [`embedded_in_token`]).
pub(super) fn glued_after(b: &[u8], end: usize) -> bool {
    match b.get(end) {
        Some(c) if c.is_ascii_alphanumeric() => true,
        Some(&c) if glue(c) => b.get(end + 1).is_some_and(u8::is_ascii_alphanumeric),
        _ => false,
    }
}

pub(super) fn hit(start: usize, end: usize, score: f32) -> Option<Hit> {
    Some(Hit { start, end, score })
}

fn credit_card(text: &str, s: usize, e: usize) -> Option<Hit> {
    if !v::credit_card(&text[s..e]) || embedded_in_token(text, s, e) {
        return None;
    }
    // Thirteen digits is an old Visa length: a number labeled as something else ("Account
    // number: 4427604555210") outweighs its one-in-ten Luhn pass.
    let digits = text[s..e].bytes().filter(u8::is_ascii_digit).count();
    hit(s, e, if digits == 13 { 0.9 } else { 1.0 })
}

/// IBANs may be followed by more upper-case groups (`… 00 THEN`): keep exactly the country's
/// length and check that.
fn iban(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let len = v::iban_length(m.get(..2)?)?;
    let mut seen = 0;
    let mut end = s;
    for (i, c) in m.char_indices() {
        if c != ' ' {
            seen += 1;
        }
        if seen == len {
            end = s + i + c.len_utf8();
            break;
        }
    }
    if seen < len
        || text
            .as_bytes()
            .get(end)
            .is_some_and(u8::is_ascii_alphanumeric)
    {
        return None;
    }
    v::iban(&text[s..end]).then_some(Hit {
        start: s,
        end,
        score: 1.0,
    })
}

fn us_ssn(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    if !v::us_ssn(m) || embedded_in_token(text, s, e) {
        return None;
    }
    // Dashed 3-2-4 is the SSN shape; bare nine digits need the word "SSN" nearby.
    hit(s, e, if m.contains('-') { 0.85 } else { 0.3 })
}

fn ipv4(text: &str, s: usize, e: usize) -> Option<Hit> {
    text[s..e].parse::<std::net::Ipv4Addr>().ok()?;
    if embedded_in_token(text, s, e) {
        return None;
    }
    let prev = String::from_utf8_lossy(before(text, s)).to_ascii_lowercase();
    let prev = prev.trim_end();
    // A version requirement: "== 1.2.3.0", "~=1.4.5.0", ">= 2.0.0.1".
    if ["==", "~=", ">=", "<=", "!="]
        .iter()
        .any(|op| prev.ends_with(op))
    {
        return None;
    }
    // "version 1.2.3.4", "ver 1.2.3.4", "v 1.2.3.4", `version="1.0.0.0"`: a version; but
    // "Server 10.0.0.1" is an IP.
    let prev = prev.trim_end_matches(|c: char| c.is_whitespace() || "\"'=:[(".contains(c));
    let last_word = prev
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    // Section numbers read like addresses too: "ECMA262 sections [11.6.2.1]".
    if matches!(
        last_word,
        "version" | "ver" | "v" | "section" | "sections" | "sec" | "clause" | "chapter"
    ) {
        return None;
    }
    hit(s, e, 0.9)
}

fn ipv6(text: &str, s: usize, mut e: usize) -> Option<Hit> {
    while e > s && text.as_bytes()[e - 1] == b':' && !text[s..e].ends_with("::") {
        e -= 1;
    }
    let m = &text[s..e];
    m.parse::<std::net::Ipv6Addr>().ok()?;
    let colons = m.bytes().filter(|&b| b == b':').count();
    let hexdigits = m.bytes().filter(u8::is_ascii_hexdigit).count();
    // `a::b` and `std::io` style paths are not addresses.
    if colons < 2 || hexdigits < 4 || !m.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if text
        .as_bytes()
        .get(e)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b':')
    {
        return None;
    }
    hit(s, e, 0.9)
}

fn mac(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let seps: Vec<u8> = m.bytes().filter(|b| !b.is_ascii_hexdigit()).collect();
    if seps.windows(2).any(|w| w[0] != w[1]) || embedded_in_token(text, s, e) {
        return None;
    }
    // Six pairs cut out of a longer run of them: a certificate fingerprint or a hash
    // (`EA:8D:99:DD:36:AA:2D:07:…`), not a MAC address.
    let b = text.as_bytes();
    let sep = seps.first().copied();
    let pair_after = sep.is_some_and(|c| b.get(e) == Some(&c))
        && b.get(e + 1).is_some_and(u8::is_ascii_hexdigit);
    let pair_before = sep.is_some_and(|c| s >= 2 && b[s - 1] == c && b[s - 2].is_ascii_hexdigit());
    if pair_after || pair_before {
        return None;
    }
    hit(s, e, 0.85)
}

/// URLs are only sensitive when they carry credentials or a token; trailing punctuation of the
/// sentence is not part of them.
fn url(text: &str, s: usize, mut e: usize) -> Option<Hit> {
    while e > s
        && matches!(
            text.as_bytes()[e - 1],
            b'.' | b',' | b')' | b';' | b'!' | b'?' | b'\'' | b'"'
        )
    {
        e -= 1;
    }
    hit(s, e, 0.9)
}

fn bitcoin_base58(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::crypto::base58check(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 1.0,
    })
}

fn bitcoin_bech32(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::crypto::bech32(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 1.0,
    })
}

fn github(text: &str, s: usize, e: usize) -> Option<Hit> {
    // A token with a wrong checksum is a made-up example unless the context says otherwise.
    hit(
        s,
        e,
        if v::github_token(&text[s..e]) {
            1.0
        } else {
            0.3
        },
    )
}

fn jwt(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::jwt(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 0.95,
    })
}

fn strong(_: &str, s: usize, e: usize) -> Option<Hit> {
    hit(s, e, 0.95)
}

/// The value of a `password=…` / `token: …` assignment. Code that merely names a variable
/// (`password: string`, `token = getToken()`, `${PASSWORD}`) is not a secret.
fn assignment(text: &str, s: usize, e: usize) -> Option<Hit> {
    let value = text[s..e].trim_end_matches(['.', ',', ';', ')']);
    let e = s + value.len();
    let lower = value.to_ascii_lowercase();
    const NOT_SECRETS: &[&str] = &[
        "string",
        "str",
        "number",
        "int",
        "bool",
        "boolean",
        "null",
        "none",
        "nil",
        "true",
        "false",
        "undefined",
        "optional",
        "any",
        "bytes",
        "secret",
        "password",
        "token",
        "required",
        "env",
        "self",
        "this",
        "redacted",
        "changeme",
        "example",
        "xxx",
        "bearer",
        "basic",
        "await",
        "new",
        "function",
        "lambda",
        "async",
        "return",
        "input",
        "getpass",
        "yield",
        "static",
        "const",
        "final",
        "private",
        "public",
        "readonly",
        "type",
        "enabled",
        "disabled",
        "empty",
        "hidden",
        "masked",
        "default",
        "unknown",
        // Permissions (`id-token: write` in a CI workflow).
        "read",
        "write",
        "read-all",
        "write-all",
        // "the password is missing": a state, not the value.
        "missing",
        "invalid",
        "incorrect",
        "wrong",
        "expired",
        "correct",
        "changed",
        "updated",
        "needed",
    ];
    if value.len() < 4
        || NOT_SECRETS.contains(&lower.as_str())
        || lower.starts_with("process.env")
        || lower.starts_with("os.environ")
        || lower.starts_with("os.getenv")
        || lower.starts_with("env.")
        || lower.starts_with("self.")
        || lower.starts_with("this.")
        || lower.starts_with("req.")
        || lower.starts_with("request.")
        // Template and shell variables, placeholders, and paths in code (`Token::{init, x}`).
        || value.starts_with(['$', '<', '{', '%', '*', '[', ':'])
        || value.contains('(')
        || value
            .bytes()
            .all(|b| b == b'x' || b == b'X' || b == b'*' || b == b'.')
        || (text.as_bytes().get(e) == Some(&b'('))
        // a call: token = make_token(...)
        || is_code_value(text, s, e)
        || !is_assigned_secret(text, s, e)
    {
        return None;
    }
    hit(s, e, 0.85)
}

/// Dates are common; only one near "born", "DOB", "birthday" is a date of birth.
fn birth_date(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let nums: Vec<u32> = m
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .filter_map(|g| g.parse().ok())
        .collect();
    let lower = m.to_ascii_lowercase();
    let month_word = (lower.bytes().any(|c| c.is_ascii_alphabetic()))
        .then(|| {
            MONTHS
                .iter()
                .position(|stems| stems.split(' ').any(|stem| lower.contains(stem)))
        })
        .flatten()
        .map(|i| i as u32 + 1);
    let ok = match (nums.as_slice(), month_word) {
        ([y, mo, d], None) if *y > 31 => v::plausible_birth_date(*y, *mo, *d),
        // "3.4.14" is a version, not 3 April 1914.
        ([_, _, y], None) if *y < 100 && m.contains('.') => false,
        ([a, b, y], None) => {
            let y = if *y < 100 { 1900 + *y } else { *y };
            v::plausible_birth_date(y, *a, *b) || v::plausible_birth_date(y, *b, *a)
        }
        ([d, y], Some(mo)) | ([y, d], Some(mo)) if *y > 31 => v::plausible_birth_date(*y, mo, *d),
        _ => false,
    };
    (ok && !embedded_in_token(text, s, e)).then_some(Hit {
        start: s,
        end: e,
        score: 0.2,
    })
}

/// The stems of each month's names in the languages our users write in, January first: a
/// date's lower-cased text contains one ("mai", "juin", "luglio", "maj", "março").
const MONTHS: [&str; 12] = [
    "jan ene gen",
    "feb fév fev",
    "mar mär maer maa",
    "apr avr abr",
    "may mai maj mei mag",
    "jun juin giu",
    "jul juil lug",
    "aug ago aoû aou",
    "sep set",
    "oct okt ott out",
    "nov",
    "dec déc dez dic",
];

/// The keywords of the `password=…` pattern, every spelling its regex accepts.
pub(super) const ASSIGNED: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "api_key",
    "api-key",
    "apikey",
    "access_key",
    "access-key",
    "accesskey",
    "private_key",
    "private-key",
    "privatekey",
    "client_secret",
    "client-secret",
    "clientsecret",
    "auth",
    "credential",
    "credentials",
    // `.env` names: Django's SECRET_KEY, SMTP_PASS and the like. Not every `*_KEY`:
    // `primary_key`, `sort_key` and `cache_key` name no secret.
    "secret_key",
    "secret-key",
    "secretkey",
    "encryption_key",
    "signing_key",
    "master_key",
    "_pass",
    "-pass",
];

const MONTH_NAMES: &str = r"(?:(?i-u:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|(?i:januar|jänner|februar|märz|maerz|mai|juni|juli|oktober|dezember|janvier|février|fevrier|mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|januari|februari|maart|mei|augustus|augusti|maj|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro))";

/// The built-in specs. Regexes are compiled once per [`super::Recognizers`].
pub(super) fn built_in() -> Vec<Spec> {
    use EntityType::*;
    let dob_date = format!(
        r"\b(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|\d{{1,2}}(?:st|nd|rd|th|\.)?(?: of| de)? {MONTH_NAMES}\.?,?(?: de)? \d{{4}}|\d{{1,2}}-{MONTH_NAMES}-\d{{4}}|{MONTH_NAMES}\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}})\b"
    );
    vec![
        Spec::new(Email, r"\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b", email)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "._%+-@"], &["@"], 1, 3)),
        // Internationalized addresses (`иван@пример.рф`, `user@bücher.de`): only runs holding a
        // non-ASCII byte are searched, so ASCII text pays nothing for the Unicode classes.
        Spec::new(Email, r"[\p{L}\p{N}][\p{L}\p{N}._%+-]{0,63}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,24}", unicode_email)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "._%+-@", "non-ascii"], &["@"], 1, 3).accepting(runs::non_ascii)),
        // Spelled out against scrapers: "john [at] example [dot] com". A bracketed `at`
        // between a mailbox and a domain is written for no other reason.
        Spec::new(Email, r"\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}[^\S\n]?(?i:\[at\]|\(at\)|\{at\}|<at>)[^\S\n]?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?[^\S\n]?(?i:\[dot\]|\(dot\)|\{dot\}|<dot>|\.)[^\S\n]?)+[A-Za-z]{2,24}\b", |_, s, e| hit(s, e, 0.9))
            .gate(Gate::Near { words: &["at"], back: 1, ahead: 10, test: Some(spelled_at) }),
        Spec::new(Phone, r"(?:\+|\b00)[0-9][0-9]{0,3}(?:[ .\-/]?(?:\([0-9]{1,4}\)|[0-9]{1,6})){1,7}(?:(?:,\s*(?i-u:ext\.?|extension)|\s*(?:(?i-u:x|ext\.?|extension)|#))\s*[0-9]{1,6}\b)?", phone)
            .gate(Gate::runs(&["0-9", "+ .-/()"], &["0-9"], 7, 7).containing(&["+", "00"]).with_tail(&["0-9", "xetnsioXETNSIO.#,"]))
            .context(PHONE_CONTEXT)
            .context_before_only(40)
            .context_on_its_line(),
        Spec::new(Phone, r"(?:\(\d{2,5}\)[ .\-]?|\b\d{1,5}(?: / |[ .\-/])?)(?:\d{1,5}[ .\-/]?){1,4}\d{2,5}(?:(?:,\s*(?i-u:ext\.?|extension)|\s*(?i-u:x|ext\.?|extension))\s*\d{1,6}\b|\b)", phone)
            // The number itself is digits and separators only (the check wants 7 digits there);
            // an extension (" ext. 12", ", Ext 3", "x459") may follow.
            .gate(Gate::runs(&["0-9", " .-/()"], &["0-9"], 7, 7).with_tail(&["0-9", "xetnsioXETNSIO.,"]))
            .context(PHONE_CONTEXT)
            .context_before_only(40)
            .context_on_its_line(),
        Spec::new(CreditCard, r"\b(?:\d[ -]?){12,18}\d\b", credit_card)
            .gate(Gate::runs(&["0-9", " -"], &["0-9"], 13, 13)),
        Spec::new(Iban, r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{1,4}){3,9}\b", iban)
            // The shortest IBAN (Norway) has 15 characters; the check wants the full length.
            .gate(Gate::runs(&["A-Z", "0-9", " "], &["0-9"], 2, 15).accepting(runs::iban).seeded_where(runs::iban_seed)),
        Spec::new(UsSsn, r"\b(?:\d{3}-\d{2}-\d{4}|\d{3} \d{2} \d{4}|\d{9})\b", us_ssn)
            .gate(Gate::runs(&["0-9", " -"], &["0-9"], 9, 9).accepting(runs::ssn))
            .context(&["ssn", "social security", "social-security", "ss#", "ss #", "taxpayer", "tin"])
            .boost(0.5),
        Spec::new(IpAddress, r"\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b", ipv4)
            .gate(Gate::runs(&["0-9", "."], &["0-9"], 4, 7).accepting(runs::ipv4).seeded_where(runs::ipv4_seed)),
        Spec::new(IpAddress, r"(?:\b[0-9A-Fa-f]{1,4}|::)(?::{1,2}[0-9A-Fa-f]{1,4}){1,7}(?:::)?(?:(?:\.[0-9]{1,3}){3})?", ipv6)
            .gate(Gate::runs(&["0-9", "a-f", "A-F", ":."], &[":"], 2, 5).accepting(runs::ipv6)),
        Spec::new(MacAddress, r"\b(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\b|\b[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\b", mac)
            .gate(Gate::runs(&["0-9", "a-f", "A-F", ":.-"], &[":.-"], 2, 14).accepting(runs::mac).seeded_where(runs::mac_seed)),
        Spec::new(Url, r"\b[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s/?#@:]*:[^\s/?#@]+@[^\s<>]+", url)
            .gate(Gate::runs_in(ByteSet::all_but(b" \t\n\r\x0b\x0c<>"), &["@"], 1, 8).containing(&["://"])),
        Spec::new(Url, r"\b(?i-u:https?)://[^\s<>]*?[?&#](?i-u:access_token|token|api_key|apikey|key|secret|password|pwd|passwd|sig|signature|auth|session|sessionid|sid|code|client_secret|x-amz-signature|x-amz-credential)=[^\s&#<>]{6,}[^\s<>]*", url)
            .gate(Gate::runs_in(ByteSet::all_but(b" \t\n\r\x0b\x0c<>"), &["="], 1, 12).containing(&["://"])),
        Spec::new(Crypto, r"\b[13][1-9A-HJ-NP-Za-km-z]{25,34}\b", bitcoin_base58)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9"], &["0-9"], 1, 26).whole(35).starting(&["1", "3"]).seeded_where(runs::base58_seed)),
        Spec::new(Crypto, r"\b(?:bc|tb)1[02-9ac-hj-np-z]{11,71}\b", bitcoin_bech32)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9"], &["0-9"], 1, 14).whole(74).starting(&["bc1", "tb1"]).seeded_where(runs::bech32_seed)),
        Spec::new(Crypto, r"\b0x[0-9a-fA-F]{40}\b", |_, s, e| hit(s, e, 0.4))
            .gate(Gate::runs(&["A-Z", "a-z", "0-9"], &["0-9"], 1, 42).whole(42).starting(&["0x"]).seeded_where(runs::hex_wallet_seed))
            .context(&["wallet", "eth", "ether", "ethereum", "send", "address", "usdt", "metamask", "crypto"]),
        Spec::new(ApiKey, r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[A-Z2-7]{16}\b", strong)
            .gate(Gate::runs(&["A-Z", "0-9"], &["A"], 1, 20).whole(20).starting(&["AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "ANPA"])),
        Spec::new(ApiKey, r"\bgh[pousr]_[A-Za-z0-9]{36}\b", github)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_"], &["_"], 1, 40).whole(40).starting(&["gh"]))
            .context(&["token", "github", "pat", "auth"]),
        Spec::new(ApiKey, r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_"], &["_"], 3, 93).whole(93).starting(&["github_pat_"])),
        Spec::new(ApiKey, r"\bsk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{80,120}", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_-"], &["-"], 3, 90).containing(&["sk-ant-"])),
        Spec::new(ApiKey, r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}|\bsk-[A-Za-z0-9]{48}\b", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_-"], &["-"], 1, 45).containing(&["sk-"])),
        Spec::new(ApiKey, r"\bAIza[0-9A-Za-z_-]{35}", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_-"], &["A"], 1, 39).containing(&["AIza"])),
        Spec::new(ApiKey, r"\bhf_[A-Za-z0-9]{30,40}\b", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_"], &["_"], 1, 33).whole(43).starting(&["hf_"])),
        Spec::new(ApiKey, r"\bxox[abposr]-[0-9A-Za-z-]{10,100}|\bxapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]{20,}|https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "-:/."], &["-/"], 1, 15).containing(&["xox", "xapp-", "hooks.slack.com"])),
        Spec::new(ApiKey, r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,99}\b|\bwhsec_[0-9A-Za-z+/=]{24,}", strong)
            .gate(Gate::runs(&["A-Z", "a-z", "0-9", "_+/="], &["_"], 1, 28).containing(&["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"])),
        Spec::new(Jwt, r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", jwt)
            .gate(Gate::runs_in(ByteSet::of(&["A-Z", "a-z", "0-9", "_.-"]), &["."], 2, 30).containing(&["eyJ"])),
        Spec::new(PrivateKey, r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:\s*[A-Za-z0-9+/=:-]+)*", |_, s, e| hit(s, e, 1.0))
            .gate(Gate::Starts(&["-----begin "])),
        // `PASSWORD=…`, `"api_key": "…"`, `token: …`, `password is …`: the value (group 1).
        Spec::new(Password, r#"(?i-u:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|credentials?|secret[_-]?key|encryption_key|signing_key|master_key|[_-]pass)["']?\s*(?:[:=]|:=|=>)\s*(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|`([^`\n]{4,200})`|([^\s"'`,;]{4,200}))"#, assignment)
            .group(1)
            .finder(|text, out| values::assignments(text, ASSIGNED, out)),
        Spec::new(Password, r"\b(?i-u:bearer)\s+([A-Za-z0-9._~+/=-]{16,})", assignment)
            .group(1)
            .value(values::bearer)
            .gate(Gate::Near { words: &["bearer"], back: 0, ahead: 1, test: None }),
        Spec::new(Password, r"\b(?i-u:my|the|our|your)\s+(?i-u:password|passcode|passphrase|pin|wifi password|wi-fi password)(?:\s+(?i-u:is|was)|\s*[=:])\s+([^\s,;]{4,100})", assignment)
            .group(1)
            .value(values::stated)
            .gate(Gate::Near { words: &["pass", "pin"], back: 2, ahead: 2, test: Some(credentials::owns_secret) }),
        Spec::new(DateOfBirth, &dob_date, birth_date)
            // Context words are matched as word beginnings ("birth" in "birthdate"); "age" only
            // as a word of its own ("Age: 34", not "Agenda", "agent" or "max-age=86400").
            .context(&["born", "birth", "birthday", "dob", "d.o.b", "geboren", "geburt", "geb.", "né le", "née le", "naissance", "nacido", "nacida", "nacimiento", "nato il", "nata il", "nascita", "geboorte", "nascimento", "född", "age ", "age:", "aged "])
            .boost(0.65)
            .context_before_only(28)
            .weak(0.2)
            // "12th of September, 1987": a day and a month name take at most 24 bytes.
            .gate(Gate::Dates { numeric: Gate::runs(&["0-9", "/.-"], &["0-9"], 4, 6).accepting(runs::date), before: 24 }),
    ]
}
