//! Validators: the checksums and structural rules that turn a regex candidate into a finding.
//! Each one is linear in its input (or bounded by the candidate length the regex allows), so the
//! whole redaction stays linear on pathological text.

pub mod crypto;

/// Luhn (mod 10) over the ASCII digits of `s`, ignoring separators. Used by the custom `luhn`
/// validator; [`credit_card`] adds the issuer and length rules.
pub fn luhn_digits(s: &str) -> bool {
    let digits: Vec<u8> = s
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    digits.len() >= 2 && luhn(&digits)
}

/// Luhn (mod 10) over digit values (0–9), rightmost digit last.
pub(crate) fn luhn(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            let d = d as u32;
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 {
                    x - 9
                } else {
                    x
                }
            } else {
                d
            }
        })
        .sum();
    sum % 10 == 0
}

/// A payment card number: 13–19 digits, one consistent separator (space or dash) or none, a
/// known issuer prefix, and a valid Luhn checksum. The issuer rule cuts the 1-in-10 chance that
/// an arbitrary long number (an order id, a timestamp) passes Luhn.
pub fn credit_card(s: &str) -> bool {
    let seps: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_digit()).collect();
    if seps.windows(2).any(|w| w[0] != w[1]) {
        return false;
    }
    // Cards are printed in groups of four (4-4-4-4, Amex 4-6-5, Diners 4-6-4): a number grouped
    // otherwise is another number, such as a Thai or Korean national id (1-2345-67890-12-1,
    // 450930-1061566).
    if !seps.is_empty() && s.bytes().position(|b| !b.is_ascii_digit()) != Some(4) {
        return false;
    }
    let digits: Vec<u8> = s
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    if !(13..=19).contains(&digits.len()) || !luhn(&digits) {
        return false;
    }
    if digits.iter().all(|&d| d == digits[0]) {
        return false;
    }
    let prefix = |n: usize| digits[..n].iter().fold(0u32, |a, &d| a * 10 + d as u32);
    let len = digits.len();
    match digits[0] {
        4 => matches!(len, 13 | 16 | 19),                     // Visa
        5 => (51..=55).contains(&prefix(2)) && len == 16,     // Mastercard
        2 => (2221..=2720).contains(&prefix(4)) && len == 16, // Mastercard 2-series
        3 => {
            let p2 = prefix(2);
            ((p2 == 34 || p2 == 37) && len == 15) // Amex
                || ((p2 == 36 || p2 == 38 || p2 == 39 || (300..=305).contains(&prefix(3))) && (14..=19).contains(&len)) // Diners
                || ((3528..=3589).contains(&prefix(4)) && (16..=19).contains(&len))
            // JCB
        }
        6 => {
            let p2 = prefix(2);
            (prefix(4) == 6011 || p2 == 65 || (644..=649).contains(&prefix(3)) || p2 == 62)
                && (16..=19).contains(&len) // Discover, UnionPay
        }
        _ => false,
    }
}

/// IBAN lengths by country (SWIFT IBAN registry).
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MN", 20),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TL", 23),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("XK", 20),
    ("AO", 25),
    ("BF", 28),
    ("BJ", 28),
    ("CF", 27),
    ("CG", 27),
    ("CI", 28),
    ("CM", 27),
    ("CV", 25),
    ("DZ", 26),
    ("GA", 27),
    ("GQ", 27),
    ("GW", 25),
    ("HN", 28),
    ("IR", 26),
    ("KM", 27),
    ("MA", 28),
    ("MG", 27),
    ("ML", 28),
    ("MZ", 25),
    ("NE", 28),
    ("SN", 28),
    ("TD", 27),
    ("TG", 28),
    ("YE", 30),
];

/// The registered IBAN length for a country code.
pub fn iban_length(country: &str) -> Option<usize> {
    IBAN_LENGTHS
        .iter()
        .find(|(c, _)| *c == country)
        .map(|&(_, l)| l)
}

/// A compact or space-grouped IBAN with the country's length and a valid ISO 7064 mod-97-10
/// check.
pub fn iban(s: &str) -> bool {
    let compact: Vec<u8> = s
        .bytes()
        .filter(|b| *b != b' ')
        .map(|b| b.to_ascii_uppercase())
        .collect();
    if compact.len() < 15 || !compact.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let country = std::str::from_utf8(&compact[..2]).unwrap_or("");
    if iban_length(country) != Some(compact.len()) || !compact[2..4].iter().all(u8::is_ascii_digit)
    {
        return false;
    }
    // Move the first four characters to the end, letters become 10..35, and reduce mod 97
    // incrementally so no big integers are needed.
    let mut rem: u32 = 0;
    for &b in compact[4..].iter().chain(&compact[..4]) {
        let v = if b.is_ascii_digit() {
            (b - b'0') as u32
        } else {
            (b - b'A') as u32 + 10
        };
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    rem == 1
}

/// A US Social Security number (`123-45-6789`, `123 45 6789` or 9 digits) that the SSA could
/// have issued: area not 000, 666 or 9xx; group not 00; serial not 0000; and not one of the
/// numbers famous for appearing in advertising.
pub fn us_ssn(s: &str) -> bool {
    let digits: Vec<u32> = s
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| (b - b'0') as u32)
        .collect();
    if digits.len() != 9 {
        return false;
    }
    let area = digits[0] * 100 + digits[1] * 10 + digits[2];
    let group = digits[3] * 10 + digits[4];
    let serial = digits[5..].iter().fold(0, |a, d| a * 10 + d);
    let compact: String = digits.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    area != 0
        && area != 666
        && area < 900
        && group != 0
        && serial != 0
        && !digits.iter().all(|&d| d == digits[0])
        && !matches!(compact.as_str(), "078051120" | "219099999" | "123456789")
}

/// CRC-32 (IEEE 802.3, reflected, as zlib), bitwise: candidates are 30 bytes, so a table is not
/// worth its size.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A classic GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + 36 base62 characters) whose
/// last six characters are the base62 CRC-32 of the 30 random ones, as GitHub's 2021 format
/// specifies. A made-up `ghp_xxxx…` in a tutorial fails this.
pub fn github_token(s: &str) -> bool {
    let Some(body) = s.get(4..) else {
        return false;
    };
    if body.len() != 36 || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let (random, check) = body.split_at(30);
    let mut value: u64 = 0;
    for b in check.bytes() {
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'A'..=b'Z' => b - b'A' + 10,
            _ => b - b'a' + 36,
        } as u64;
        value = value * 62 + digit;
    }
    value == crc32(random.as_bytes()) as u64
}

/// Decodes unpadded base64url (or standard base64), as used by JWT segments.
pub fn base64url_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => break,
            _ => return None,
        } as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// A JSON Web Token: three base64url segments whose header decodes to a JSON object with `alg`.
pub fn jwt(s: &str) -> bool {
    let mut parts = s.split('.');
    let Some(header) = parts.next().and_then(base64url_decode) else {
        return false;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&header) else {
        return false;
    };
    value.get("alg").is_some() && parts.count() == 2
}

/// A calendar date with a plausible birth year: month 1–12, a day that exists in that month
/// (leap years included) and a year from 1900 to 2030.
pub fn plausible_birth_date(year: u32, month: u32, day: u32) -> bool {
    if !(1900..=2030).contains(&year) || !(1..=12).contains(&month) || day == 0 {
        return false;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    day <= days
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards() {
        assert!(credit_card("4111 1111 1111 1111"));
        assert!(credit_card("5500-0000-0000-0004"));
        assert!(credit_card("378282246310005"));
        assert!(credit_card("6011111111111117"));
        assert!(!credit_card("4111 1111 1111 1112")); // Luhn
        assert!(!credit_card("4111-1111 1111 1111")); // mixed separators
        assert!(!credit_card("1234567812345670")); // passes Luhn, no issuer
        assert!(credit_card("3782 822463 10005")); // Amex 4-6-5
        assert!(!credit_card("450930-1061566")); // Visa-13 by Luhn, grouped as a Korean id
        assert!(!credit_card("4-5055-04620-91-9")); // grouped as a Thai id
        assert!(luhn_digits("79927398713"));
    }

    #[test]
    fn ibans() {
        assert!(iban("DE89370400440532013000"));
        assert!(iban("GB82 WEST 1234 5698 7654 32"));
        assert!(iban("fr1420041010050500013m02606"));
        assert!(!iban("DE89370400440532013001"));
        assert!(!iban("DE8937040044053201300")); // wrong length
        assert!(!iban("XX89370400440532013000"));
    }

    #[test]
    fn ssns() {
        assert!(us_ssn("536-22-8726"));
        assert!(!us_ssn("000-12-3456"));
        assert!(!us_ssn("666-12-3456"));
        assert!(!us_ssn("912-12-3456"));
        assert!(!us_ssn("536-00-8726"));
        assert!(!us_ssn("536-22-0000"));
        assert!(!us_ssn("078-05-1120"));
    }

    #[test]
    fn crc_and_github() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        let random = "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123";
        let mut v = crc32(random.as_bytes()) as u64;
        let alphabet = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut check = Vec::new();
        for _ in 0..6 {
            check.push(alphabet[(v % 62) as usize]);
            v /= 62;
        }
        check.reverse();
        let token = format!("ghp_{random}{}", String::from_utf8(check).unwrap());
        assert!(github_token(&token));
        assert!(!github_token(&token.replace("ghp_a", "ghp_b")));
        assert!(!github_token("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
    }

    #[test]
    fn jwts() {
        let jwt_ok = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert!(jwt(jwt_ok));
        assert!(!jwt("eyJmb28iOiJiYXIifQ.eyJzdWIiOiIxIn0.abcdefgh"));
    }

    #[test]
    fn dates() {
        assert!(plausible_birth_date(1984, 2, 29));
        assert!(!plausible_birth_date(1985, 2, 29));
        assert!(!plausible_birth_date(1850, 1, 1));
        assert!(!plausible_birth_date(1990, 13, 1));
    }
}
