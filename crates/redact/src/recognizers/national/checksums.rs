//! Checksums and structural rules of national identifiers, tax numbers and licences. Each takes
//! the identifier's characters without separators, ASCII letters in upper case, exactly as long
//! as its format (the scanner beside it, [`super`], reads the shape first), and says
//! whether the number could have been issued. A random number of the right length passes most
//! of these one time in 10 (mod 10), 11 or 23 (mod 11, mod 23), or 89 (ABN).

/// The digits of `s` as values; `None` when one is not a digit.
fn digits<const N: usize>(s: &[u8]) -> Option<[u32; N]> {
    let mut out = [0u32; N];
    if s.len() != N {
        return None;
    }
    for (o, &c) in out.iter_mut().zip(s) {
        if !c.is_ascii_digit() {
            return None;
        }
        *o = (c - b'0') as u32;
    }
    Some(out)
}

fn weighted(d: &[u32], weights: &[u32]) -> u32 {
    d.iter().zip(weights).map(|(a, b)| a * b).sum()
}

/// A calendar date (years 1800–2299), for identifiers that encode a date of birth.
fn real_date(year: u32, month: u32, day: u32) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1800..2300).contains(&year) && (1..=days).contains(&day)
}

/// US Individual Taxpayer Identification Number: `9XX-YY-ZZZZ`, the group in 50–65, 70–88,
/// 90–92 or 94–99 (the IRS ranges; SSNs never start with 9).
pub fn us_itin(s: &[u8]) -> bool {
    let Some(d) = digits::<9>(s) else {
        return false;
    };
    let group = d[3] * 10 + d[4];
    d[0] == 9 && matches!(group, 50..=65 | 70..=88 | 90..=92 | 94..=99)
}

/// UK NHS number: ten digits, weights 10 down to 2, check = 11 − sum mod 11 (11 → 0; a
/// remainder that gives 10 is never issued).
pub fn uk_nhs(s: &[u8]) -> bool {
    let Some(d) = digits::<10>(s) else {
        return false;
    };
    let check = match 11 - weighted(&d[..9], &[10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11 {
        11 => 0,
        10 => return false,
        c => c,
    };
    // "0000000000" and other one-digit runs pass the sum but are test numbers.
    check == d[9] && d.iter().any(|&x| x != d[0])
}

/// UK National Insurance number: two prefix letters, six digits, a suffix A–D. HMRC never
/// issues D, F, I, Q, U, V first, nor D, F, I, O, Q, U, V second, nor the prefixes below.
pub fn uk_nino(s: &[u8]) -> bool {
    if s.len() != 9 || digits::<6>(&s[2..8]).is_none() {
        return false;
    }
    let (a, b) = (s[0], s[1]);
    a.is_ascii_uppercase()
        && b.is_ascii_uppercase()
        && !b"DFIQUV".contains(&a)
        && !b"DFIOQUV".contains(&b)
        && ![b"BG", b"GB", b"KN", b"NK", b"NT", b"TN", b"ZZ"].contains(&&[a, b])
        && (b'A'..=b'D').contains(&s[8])
}

/// The control letter of Spanish DNI/NIF and NIE numbers: the number mod 23.
fn spanish_letter(n: u32) -> u8 {
    b"TRWAGMYFPDXBNJZSQVHLCKE"[(n % 23) as usize]
}

fn number(d: &[u32]) -> u32 {
    d.iter().fold(0, |a, &x| a * 10 + x)
}

/// Spanish DNI (NIF of a person): eight digits and their control letter.
pub fn es_nif(s: &[u8]) -> bool {
    s.len() == 9 && digits::<8>(&s[..8]).is_some_and(|d| spanish_letter(number(&d)) == s[8])
}

/// Spanish NIE (foreigners): X, Y or Z (standing for 0, 1, 2), seven digits, control letter.
pub fn es_nie(s: &[u8]) -> bool {
    if s.len() != 9 {
        return false;
    }
    let Some(lead) = b"XYZ".iter().position(|&c| c == s[0]) else {
        return false;
    };
    digits::<7>(&s[1..8])
        .is_some_and(|d| spanish_letter(lead as u32 * 10_000_000 + number(&d)) == s[8])
}

/// Italian codice fiscale: six letters, year, month letter, day (+40 for women), a place code
/// (letter and three digits) and a check letter. Digits of the date and place may be written as
/// letters (L–V for 0–9, "omocodia", when two people would get the same code).
pub fn it_fiscal_code(s: &[u8]) -> bool {
    if s.len() != 16 || !s[..6].iter().all(u8::is_ascii_uppercase) {
        return false;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some((c - b'0') as u32),
        _ => b"LMNPQRSTUV".iter().position(|&o| o == c).map(|p| p as u32),
    };
    let mut num = [0u32; 7];
    for (n, i) in num.iter_mut().zip([6, 7, 9, 10, 12, 13, 14]) {
        match digit(s[i]) {
            Some(d) => *n = d,
            None => return false,
        }
    }
    let day = num[2] * 10 + num[3];
    if !b"ABCDEHLMPRST".contains(&s[8])
        || !s[11].is_ascii_uppercase()
        || !(matches!(day, 1..=31) || matches!(day, 41..=71))
    {
        return false;
    }
    // The odd positions (1st, 3rd, …) by the official table; digits count as A–J there.
    const ODD: [u32; 26] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23,
    ];
    let value = |c: u8| match c {
        b'0'..=b'9' => (c - b'0') as usize,
        _ => (c - b'A') as usize,
    };
    let sum: u32 = s[..15]
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if i % 2 == 0 {
                ODD[value(c)]
            } else {
                value(c) as u32
            }
        })
        .sum();
    s[15] == b'A' + (sum % 26) as u8
}

/// Polish PESEL: YYMMDD (the month carries the century: +80 for the 1800s, +20, +40, +60 for
/// the 2000s, 2100s, 2200s), four serial digits, a check digit (weights 1 3 7 9).
pub fn pl_pesel(s: &[u8]) -> bool {
    let Some(d) = digits::<11>(s) else {
        return false;
    };
    let (yy, mm, dd) = (d[0] * 10 + d[1], d[2] * 10 + d[3], d[4] * 10 + d[5]);
    let (century, month) = match mm {
        1..=12 => (1900, mm),
        21..=32 => (2000, mm - 20),
        41..=52 => (2100, mm - 40),
        61..=72 => (2200, mm - 60),
        81..=92 => (1800, mm - 80),
        _ => return false,
    };
    let sum = weighted(&d[..10], &[1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
    real_date(century + yy, month, dd) && (10 - sum % 10) % 10 == d[10]
}

/// Singapore NRIC/FIN: S, T (citizens and residents), F, G (foreigners) or M (from 2022), seven
/// digits, a check letter (weights 2 7 6 5 4 3 2 plus a prefix offset, mod 11).
pub fn sg_nric_fin(s: &[u8]) -> bool {
    if s.len() != 9 {
        return false;
    }
    let Some(d) = digits::<7>(&s[1..8]) else {
        return false;
    };
    let sum = weighted(&d, &[2, 7, 6, 5, 4, 3, 2]);
    let (offset, table): (u32, &[u8; 11]) = match s[0] {
        b'S' => (0, b"JZIHGFEDCBA"),
        b'T' => (4, b"JZIHGFEDCBA"),
        b'F' => (0, b"XWUTRQPNMLK"),
        b'G' => (4, b"XWUTRQPNMLK"),
        b'M' => (3, b"XWUTRQPNJLK"),
        _ => return false,
    };
    table[((sum + offset) % 11) as usize] == s[8]
}

/// Australian Tax File Number: nine digits, weights 1 4 3 7 5 8 6 9 10, sum divisible by 11.
pub fn au_tfn(s: &[u8]) -> bool {
    digits::<9>(s).is_some_and(|d| {
        d.iter().any(|&x| x != 0) && weighted(&d, &[1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 == 0
    })
}

/// Australian Business Number: eleven digits; one off the first, weights 10 1 3 5 … 19,
/// sum divisible by 89.
pub fn au_abn(s: &[u8]) -> bool {
    let Some(mut d) = digits::<11>(s) else {
        return false;
    };
    if d[0] == 0 {
        return false;
    }
    d[0] -= 1;
    weighted(&d, &[10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 == 0
}

/// Australian Company Number: nine digits, weights 8 down to 1 on the first eight, check =
/// (10 − sum mod 10) mod 10.
pub fn au_acn(s: &[u8]) -> bool {
    digits::<9>(s).is_some_and(|d| {
        d.iter().any(|&x| x != 0)
            && (10 - weighted(&d[..8], &[8, 7, 6, 5, 4, 3, 2, 1]) % 10) % 10 == d[8]
    })
}

/// Australian Medicare card number: ten digits, the first 2–6, the ninth the sum of the first
/// eight by weights 1 3 7 9 mod 10, the tenth the card's issue number (1–9).
pub fn au_medicare(s: &[u8]) -> bool {
    digits::<10>(s).is_some_and(|d| {
        (2..=6).contains(&d[0])
            && weighted(&d[..8], &[1, 3, 7, 9, 1, 3, 7, 9]) % 10 == d[8]
            && d[9] != 0
    })
}

/// Indian Permanent Account Number: five letters (the fourth names the holder's kind: P for a
/// person, C a company, …), four digits, a letter. No public checksum.
pub fn in_pan(s: &[u8]) -> bool {
    s.len() == 10
        && s[..5].iter().all(u8::is_ascii_uppercase)
        && b"ABCFGHLJPT".contains(&s[3])
        && digits::<4>(&s[5..9]).is_some_and(|d| d.iter().any(|&x| x != 0))
        && s[9].is_ascii_uppercase()
}

/// Verhoeff's dihedral check (Aadhaar): the whole number, check digit included, reduces to 0.
fn verhoeff(d: &[u32]) -> bool {
    const MUL: [[u8; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ];
    const PERM: [[u8; 10]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ];
    let c = d.iter().rev().enumerate().fold(0u8, |c, (i, &x)| {
        MUL[c as usize][PERM[i % 8][x as usize] as usize]
    });
    c == 0
}

/// Indian Aadhaar number: twelve digits, not starting with 0 or 1, Verhoeff check digit.
pub fn in_aadhaar(s: &[u8]) -> bool {
    digits::<12>(s).is_some_and(|d| d[0] >= 2 && verhoeff(&d))
}

/// Finnish personal identity code (henkilötunnus): DDMMYY, a century sign, a three-digit
/// individual number (002–899), a check character (the nine digits mod 31).
pub fn fi_personal_identity_code(s: &[u8]) -> bool {
    if s.len() != 11 {
        return false;
    }
    let (Some(date), Some(serial)) = (digits::<6>(&s[..6]), digits::<3>(&s[7..10])) else {
        return false;
    };
    let century = match s[6] {
        b'+' => 1800,
        b'-' | b'Y' | b'X' | b'W' | b'V' | b'U' => 1900,
        b'A'..=b'F' => 2000,
        _ => return false,
    };
    let (dd, mm, yy) = (number(&date[..2]), number(&date[2..4]), number(&date[4..]));
    let n = number(&date) * 1000 + number(&serial);
    real_date(century + yy, mm, dd)
        && (2..=899).contains(&number(&serial))
        && b"0123456789ABCDEFHJKLMNPRSTUVWXY"[(n % 31) as usize] == s[10]
}

/// South Korean resident registration number: YYMMDD, a digit for sex and century (1–8, 9 and
/// 0 for the 1800s), five digits, a check digit. Numbers issued since October 2020 carry random
/// digits in place of the check; those are not recognized (the date and the dash alone would
/// take order numbers like "주문번호 880709-2628925").
pub fn kr_rrn(s: &[u8]) -> bool {
    let Some(d) = digits::<13>(s) else {
        return false;
    };
    let century = match d[6] {
        1 | 2 | 5 | 6 => 1900,
        3 | 4 | 7 | 8 => 2000,
        _ => 1800,
    };
    let sum = weighted(&d[..12], &[2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
    real_date(
        century + d[0] * 10 + d[1],
        d[2] * 10 + d[3],
        d[4] * 10 + d[5],
    ) && (11 - sum % 11) % 10 == d[12]
}

/// Thai national identification number: thirteen digits, the first 1–8, check =
/// (11 − Σ dᵢ·(13 − i) mod 11) mod 10.
pub fn th_tnin(s: &[u8]) -> bool {
    digits::<13>(s).is_some_and(|d| {
        (1..=8).contains(&d[0])
            && (11 - weighted(&d[..12], &[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11) % 10
                == d[12]
    })
}

/// US DEA registration number (MEDICAL_LICENSE): a registrant letter, the first letter of the
/// registrant's name (or 9), seven digits whose last is (d1 + d3 + d5 + 2·(d2 + d4 + d6)) mod 10.
pub fn dea_number(s: &[u8]) -> bool {
    if s.len() != 9 || !b"ABCDEFGHJKLMPRSTUX".contains(&s[0]) {
        return false;
    }
    if !(s[1].is_ascii_uppercase() || s[1] == b'9') {
        return false;
    }
    digits::<7>(&s[2..])
        .is_some_and(|d| (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 == d[6])
}

/// US ABA routing number: nine digits, weights 3 7 1, sum divisible by 10. No recognizer calls
/// it yet (a routing number is found after its label as US_BANK_NUMBER); kept with its test for
/// the routing-number rule.
#[allow(dead_code)]
pub fn aba_routing(s: &[u8]) -> bool {
    digits::<9>(s).is_some_and(|d| {
        d.iter().any(|&x| x != 0) && weighted(&d, &[3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 == 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published examples (from the issuers' documentation and well-known test values) pass;
    /// the same with their first digit changed fail.
    #[test]
    fn published_examples_pass_and_altered_ones_fail() {
        type Check = fn(&[u8]) -> bool;
        let cases: [(Check, &str); 16] = [
            (uk_nhs, "9434765919"),
            (es_nif, "12345678Z"),
            (es_nie, "X1234567L"),
            (it_fiscal_code, "RSSMRA85T10A562S"),
            (pl_pesel, "44051401359"),
            (sg_nric_fin, "S1234567D"),
            (sg_nric_fin, "T1234567J"),
            (sg_nric_fin, "F1234567N"),
            (au_tfn, "123456782"),
            (au_abn, "51824753556"),
            (au_acn, "004085616"),
            (au_medicare, "2123456701"),
            (in_aadhaar, "234567890124"),
            (fi_personal_identity_code, "131052-308T"),
            (th_tnin, "1234567890121"),
            (dea_number, "AB1234563"),
        ];
        for (check, value) in cases {
            assert!(check(value.as_bytes()), "{value}");
            let mut altered = value.as_bytes().to_vec();
            let i = altered.iter().position(u8::is_ascii_digit).unwrap();
            altered[i] = if altered[i] == b'9' {
                b'0'
            } else {
                altered[i] + 1
            };
            assert!(!check(&altered), "{value} altered");
        }
        assert!(aba_routing(b"011000015"));
        assert!(!aba_routing(b"011000016"));
    }

    #[test]
    fn structural_rules_reject_impossible_numbers() {
        assert!(!us_itin(b"123701234"), "an ITIN starts with 9");
        assert!(!us_itin(b"912931234"), "group 93 is not issued");
        assert!(!uk_nino(b"QQ123456C"), "Q is never first");
        assert!(!uk_nino(b"GB123456A"), "GB is not issued");
        assert!(!uk_nino(b"AB123456E"), "suffix A-D");
        assert!(us_itin(b"912701234"));
        assert!(uk_nino(b"AB123456C"));
        assert!(!pl_pesel(b"44023001359"), "30 February");
        assert!(
            !in_pan(b"ABCDE1234F"),
            "fourth letter D names no holder kind"
        );
        assert!(in_pan(b"ABCPE1234F"));
        assert!(!in_aadhaar(b"134567890121"), "Aadhaar never starts with 1");
        assert!(!fi_personal_identity_code(b"310252-308T"), "31 February");
        assert!(kr_rrn(b"9001011234568"));
        assert!(!kr_rrn(b"9001011234567"));
        assert!(!kr_rrn(b"9013011234568"), "month 13");
        assert!(!th_tnin(b"9234567890121"), "first digit 1-8");
        assert!(!uk_nhs(b"0000000000"));
    }
}
