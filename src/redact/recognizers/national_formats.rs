//! The national identifier formats and their cue words (see [`super::national`]), and which of
//! them a start can begin ([`Admitting`]).

use super::super::entity::EntityType::{self, *};
use super::super::validate::national as v;
use super::national::{Format, LABEL_ONLY};
use super::national_shape::{class, groups, Group, DIGIT, LETTER, MAX};
use std::sync::OnceLock;

const NHS: &[&str] = &[
    "nhs",
    "national health",
    "health service",
    "health and care number",
];
const NINO: &[&str] = &[
    "national insurance",
    "national_insurance",
    "ni number",
    "ni no",
    "nino",
    "insurance number",
];
const DNI: &[&str] = &[
    "dni",
    "nif",
    "d.n.i",
    "n.i.f",
    "documento nacional",
    "identidad",
    "id",
];
const NIE: &[&str] = &["nie", "extranjero", "tie", "identidad", "id"];
const FISCAL: &[&str] = &[
    "codice fiscale",
    "codice_fiscale",
    "cod. fiscale",
    "cf",
    "c.f.",
    "fiscal code",
    "tax code",
];
const PESEL: &[&str] = &["pesel"];
const NRIC: &[&str] = &["nric", "fin", "ic number", "ic no", "identity card"];
const TFN: &[&str] = &["tfn", "tax file"];
const ABN: &[&str] = &["abn", "australian business number", "business number"];
const ACN: &[&str] = &["acn", "australian company number", "company number"];
const MEDICARE: &[&str] = &["medicare"];
const PAN: &[&str] = &["pan", "permanent account", "income tax"];
const AADHAAR: &[&str] = &["aadhaar", "aadhar", "uidai", "uid", "आधार"];
const HETU: &[&str] = &[
    "henkilötunnus",
    "hetu",
    "personal identity",
    "identity code",
    "sotu",
];
const RRN: &[&str] = &[
    "rrn",
    "resident registration",
    "주민등록번호",
    "주민번호",
    "외국인등록번호",
];
const TNIN: &[&str] = &[
    "เลขประจำตัวประชาชน",
    "บัตรประชาชน",
    "เลขบัตรประชาชน",
    "thai id",
    "national id",
    "national_id",
    "id card",
    "citizen id",
    "tnin",
];
const ITIN: &[&str] = &["itin", "taxpayer", "tin"];
const PASSPORT: &[&str] = &["passport"];
// Labels as written in prose, forms and JSON keys (`"drivers_license": "…"`).
const LICENSE: &[&str] = &[
    "driver's license",
    "driver’s license",
    "drivers license",
    "driver license",
    // Abbreviated ("Driver's Lic. D1234567").
    "driver's lic",
    "driver’s lic",
    "drivers lic",
    "driver lic",
    "driver's licence",
    "driving licence",
    "driving license",
    "drivers_license",
    "driver_license",
    "driving_licence",
    "dl#",
    "dl #",
    "dl:",
    // "CA DL D1234567"; the space keeps "dll" and "dlopen" out.
    "dl ",
    "dl no",
    "dl number",
    "dln",
    "license number",
    "licence number",
    "license no",
    "licence no",
    "license #",
    "license_number",
    "licence_number",
    // Keys in camelCase or PascalCase (`driverLicense`, `<DriversLicense>`).
    "driverlicense",
    "driverslicense",
    "driverlicence",
    "driverslicence",
    "drivinglicence",
    "drivinglicense",
    "licensenumber",
];
const BANK: &[&str] = &[
    "account number",
    "account no",
    "account #",
    "acct",
    "bank account",
    "checking account",
    "savings account",
    "account_number",
    "account_no",
    "bank_account",
    // Keys in camelCase or PascalCase (`accountNumber`, `<BankAccount>`).
    "accountnumber",
    "accountno",
    "bankaccount",
    "routing",
    "aba",
    "a/c",
    "kontonummer",
];
const DEA: &[&str] = &[
    "dea",
    "medical license",
    "prescriber",
    "prescription",
    "pharmacy",
    "pharmacist",
];

#[allow(clippy::too_many_arguments)]
const fn format(
    kind: EntityType,
    shape: &'static str,
    seps: &'static [u8],
    valid: fn(&[u8]) -> bool,
    alone: f32,
    separated: f32,
    cued: f32,
    cues: &'static [&'static str],
) -> Format {
    Format {
        kind,
        shape,
        seps,
        valid,
        alone,
        separated,
        cued,
        cues,
        pairs: OnceLock::new(),
    }
}

/// A number that is only a label's value: any digits but one repeated.
fn labeled(s: &[u8]) -> bool {
    s.iter().any(|&c| c != s[s.len() - 1])
}

/// Every format, in the order they are tried. Scores: 0.4 for digits a checksum confirms (one
/// number in ten passes by chance: a cue word must confirm), 0.55–0.95 for shapes with letters
/// or national groupings, which are rare in other text.
#[rustfmt::skip]
static FORMATS: [Format; 27] = [
    // 3-2-4 is no phone grouping: a dashed ITIN outscores a phone cued by "number".
    format(UsItin, "999 99 9999", b"- ", v::us_itin, 0.3, 0.96, 1.0, ITIN),
    format(UkNhs, "999 999 9999", b" -", v::uk_nhs, 0.4, 0.4, 1.0, NHS),
    format(UkNino, "AA 99 99 99 A", b" ", v::uk_nino, 0.6, 0.6, 1.0, NINO),
    format(EsNif, "99999999 A", b"-", v::es_nif, 0.6, 0.6, 1.0, DNI),
    // In thousands, as printed on forms ("D.N.I. 12.345.678-Z"): a count followed by a
    // one-letter word ("12.345.678 a …") passes one time in 23, so only a cue counts.
    format(EsNif, "99.999.999 A", b"- ", v::es_nif, 0.4, 0.4, 1.0, DNI),
    // A space before the letter ("DNI 12345678 Z", "NIE X 1234567 L"), or between the halves of
    // a Korean number: with a cue only ("de 10000000 a 20000000", two counts in a row).
    format(EsNif, "99999999 A", b" ", v::es_nif, 0.0, 0.4, 1.0, DNI),
    format(EsNie, "A 9999999 A", b"-", v::es_nie, 0.8, 0.8, 1.0, NIE),
    format(EsNie, "A 9999999 A", b" ", v::es_nie, 0.0, 0.4, 1.0, NIE),
    format(ItFiscalCode, "AAAAAA@@A@@A@@@A", b"", v::it_fiscal_code, 0.95, 0.95, 1.0, FISCAL),
    format(PlPesel, "99999999999", b"", v::pl_pesel, 0.4, 0.4, 1.0, PESEL),
    format(SgNricFin, "A9999999A", b"", v::sg_nric_fin, 0.85, 0.85, 1.0, NRIC),
    format(AuTfn, "999 999 999", b" -", v::au_tfn, 0.4, 0.4, 1.0, TFN),
    format(AuAbn, "99 999 999 999", b" ", v::au_abn, 0.4, 0.4, 1.0, ABN),
    format(AuAcn, "999 999 999", b" ", v::au_acn, 0.4, 0.4, 1.0, ACN),
    format(AuMedicare, "9999 99999 9", b" ", v::au_medicare, 0.4, 0.4, 1.0, MEDICARE),
    format(InPan, "AAAAA9999A", b"", v::in_pan, 0.6, 0.6, 1.0, PAN),
    format(InAadhaar, "9999 9999 9999", b" -", v::in_aadhaar, 0.4, 0.4, 1.0, AADHAAR),
    format(FiPersonalIdentityCode, "999999C999@", b"", v::fi_personal_identity_code, 0.85, 0.85, 1.0, HETU),
    format(KrRrn, "999999 9999999", b"-", v::kr_rrn, 0.4, 0.96, 1.0, RRN),
    format(KrRrn, "999999 9999999", b" ", v::kr_rrn, 0.0, 0.4, 1.0, RRN),
    format(ThTnin, "9 9999 99999 99 9", b"- ", v::th_tnin, 0.4, 0.85, 1.0, TNIN),
    format(UsPassport, "999999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsPassport, "A99999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsDriverLicense, "A9+", b"", |s| (6..=15).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsDriverLicense, "9+", b"", |s| (7..=12).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsBankNumber, "9+", b"", |s| (8..=17).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, BANK),
    // A registrant letter, an initial and a check digit: found alone, as Presidio does.
    format(MedicalLicense, "A@9999999", b"", v::dea_number, 0.55, 0.55, 1.0, DEA),
];

pub(crate) fn formats() -> &'static [Format] {
    &FORMATS
}

/// Which of up to 32 formats starting with the same class (digits, or letters) a start can
/// begin, bit `k` for the `k`th format: by the length of the start's run of that class and the
/// byte after it, then by the run after that ([`Admitting::get`]). Most starts are a short
/// number before `:`, `.` or `/`, or a number and a word ("2023 the"): two looks here rule them
/// out for every format at once, where reading each shape cost more than all the rest of the
/// scan. A format is ruled out only where it could not read its shape.
#[derive(Default)]
pub(super) struct Admitting {
    /// By the first run's length and [`next_kind`].
    first: Vec<[u32; NEXT_KINDS]>,
    /// By the first run's length, the second's class and its length.
    second: Vec<[[u32; SECOND_MAX + 1]; 3]>,
}

impl Admitting {
    pub(super) fn add(&mut self, k: usize, format: &Format) {
        assert!(k < 32, "at most 32 formats start with one class");
        if self.first.is_empty() {
            self.first = vec![[0; NEXT_KINDS]; 32];
            self.second = vec![[[0; SECOND_MAX + 1]; 3]; 32];
        }
        let (first, second) = match groups(format.shape) {
            Some(groups) => grouped_runs(&groups, format.seps),
            None => read_runs(format.shape.as_bytes(), format.seps),
        };
        for (run, admitting) in self.first.iter_mut().enumerate() {
            for (kind, lengths) in first.iter().enumerate() {
                if lengths >> run & 1 != 0 {
                    admitting[kind] |= 1 << k;
                }
            }
        }
        for (run, admitting) in self.second.iter_mut().enumerate() {
            for (class, lengths) in second[run].iter().enumerate() {
                for (len, admitting) in admitting[class].iter_mut().enumerate() {
                    if lengths >> len & 1 != 0 {
                        *admitting |= 1 << k;
                    }
                }
            }
        }
    }

    /// The formats (as bits) that can start at `at`, where a run of `run` bytes of their
    /// class begins. The second run is the one after the byte that ends the first when that is
    /// a separator or a dot, else from that byte on.
    #[inline]
    pub(super) fn get(&self, b: &[u8], at: usize, run: usize) -> u32 {
        let next = next_kind(b.get(at + run));
        let admitting = self.first.get(run).map_or(0, |kinds| kinds[next]);
        if admitting == 0 {
            return 0;
        }
        let (class, len) = run_at(b, at + run + matches!(next, 1..=3) as usize);
        admitting & self.second[run][class as usize][len]
    }
}

/// How many kinds of byte after a start's first run [`Admitting`] tells apart.
const NEXT_KINDS: usize = 5;

/// The byte after a start's first run, as the shapes read it: the end of the text, a space or
/// a dash (the separators), a dot (a DNI in thousands), or any other byte.
fn next_kind(next: Option<&u8>) -> usize {
    match next {
        None => 0,
        Some(b' ') => 1,
        Some(b'-') => 2,
        Some(b'.') => 3,
        Some(_) => 4,
    }
}

/// The second runs [`Admitting`] tells apart are at most this long (longer ones count as this
/// long; no group sum is).
const SECOND_MAX: usize = MAX + 1;

/// The run of digits or letters at `from`: its class (0 for none) and length (at most
/// [`SECOND_MAX`]).
fn run_at(b: &[u8], from: usize) -> (u8, usize) {
    match b.get(from).map(|&c| class(c)) {
        Some(kind @ (DIGIT | LETTER)) => {
            let len = b[from..]
                .iter()
                .take(SECOND_MAX)
                .take_while(|&&c| class(c) == kind)
                .count();
            (kind, len)
        }
        _ => (0, 0),
    }
}

/// Bits `n` for a run `n` bytes long: what a start's first run can be, by [`next_kind`], and
/// for each first run, what the second can be, by its class (0 none, [`DIGIT`], [`LETTER`]).
type StartRuns = ([u32; NEXT_KINDS], [[u32; 3]; 32]);

/// The runs a simple shape can start with ([`super::national_shape::match_runs`]). A run ends
/// where a group of its class does: the last one (anything may follow), one before a separator
/// of `seps`, or one before a group of the other class written without a separator
/// (`12345678Z`). The second run then holds the next groups of its class, up to the last or
/// another such end.
fn grouped_runs(groups: &[Group], seps: &[u8]) -> StartRuns {
    let (mut first, mut second) = ([0u32; NEXT_KINDS], [[u32::MAX; 3]; 32]);
    let ends = |k: usize| {
        groups
            .get(k + 1)
            .is_none_or(|n| groups[k].sep_after || n.digits != groups[k].digits)
    };
    let mut len = 0;
    for (j, g) in groups.iter().enumerate() {
        if g.digits != groups[0].digits {
            break;
        }
        len += g.len as usize;
        let bit = 1u32 << len.min(31);
        let Some(next) = groups.get(j + 1) else {
            first.iter_mut().for_each(|m| *m |= bit);
            break;
        };
        if g.sep_after {
            for sep in seps {
                first[next_kind(Some(sep))] |= bit;
            }
        }
        if next.digits != g.digits {
            first[next_kind(Some(&b'a'))] |= bit;
        }
        let mut lengths = 0u32;
        let mut then = 0;
        for (k, h) in groups.iter().enumerate().skip(j + 1) {
            if h.digits != next.digits {
                break;
            }
            then += h.len as usize;
            if ends(k) {
                lengths |= 1 << then.min(31);
            }
        }
        let class = if next.digits { DIGIT } else { LETTER };
        second[len.min(31)] = [0; 3];
        second[len.min(31)][class as usize] = lengths;
    }
    (first, second)
}

/// The runs a shape read byte by byte ([`super::national_shape::read`]) can start with.
fn read_runs(shape: &[u8], seps: &[u8]) -> StartRuns {
    let mut second = [[u32::MAX; 3]; 32];
    if shape.get(1) == Some(&b'+') {
        // A repeated class stands for the numbers known only by their label, 7 to 17 long.
        return ([(7..=17).fold(0, |m, n| m | 1 << n); NEXT_KINDS], second);
    }
    let digit = shape[0] == b'9';
    // Letters may stand where the shape takes a letter or a digit (an omocode codice
    // fiscale).
    let same = |c: u8| {
        if digit {
            c == b'9'
        } else {
            matches!(c, b'A' | b'@')
        }
    };
    let first = shape.iter().take_while(|&&c| same(c) && c != b'@').count();
    let (mut longest, mut stop) = (0, shape.len());
    for (i, &c) in shape.iter().enumerate() {
        match c {
            c if same(c) => longest += 1,
            b' ' if digit => {}
            _ => {
                stop = i;
                break;
            }
        }
    }
    let mut out = [(first..=longest.min(31)).fold(0, |m, n| m | 1 << n); NEXT_KINDS];
    // A first group shorter than the run written without separators must end at one.
    if shape.get(first) == Some(&b' ') && first < longest {
        for (kind, next) in [None, Some(&b' '), Some(&b'-'), Some(&b'.'), Some(&b'a')]
            .into_iter()
            .enumerate()
        {
            if !next.is_none_or(|c| seps.contains(c)) {
                out[kind] &= !(1 << first);
            }
        }
    }
    // The longest run is followed by what the shape reads next (nothing: anything may follow).
    let follows: &[usize] = match shape.get(stop) {
        Some(b'.') => &[3],
        Some(b'C') => &[2, 4],
        Some(b'9' | b'A' | b'@') => &[4],
        _ => &[0, 1, 2, 3, 4],
    };
    for (kind, lengths) in out.iter_mut().enumerate() {
        if !follows.contains(&kind) {
            *lengths &= !(1 << longest.min(31));
        }
    }
    // After a dot that must be there, the digits up to the next one (`12.345.678-Z`).
    if shape.get(stop) == Some(&b'.') && digit {
        let digits = shape[stop + 1..].iter().take_while(|&&c| c == b'9').count();
        if shape.get(stop + 1 + digits) == Some(&b'.') {
            second[longest.min(31)] = [0, 1 << digits, 0];
        }
    }
    (out, second)
}

#[cfg(test)]
mod tests {
    use super::super::national_shape::{match_runs, read, Runs};
    use super::*;

    /// Whether `format` reads its shape at the start of `b` and no letter or digit follows it,
    /// as the scan needs.
    fn reads(format: &Format, b: &[u8]) -> bool {
        let end = match groups(format.shape) {
            Some(groups) => match_runs(&groups, &mut Runs::at(b, 0), format.seps).map(|m| m.0),
            None => read(b, 0, format, &mut [0; MAX]).map(|m| m.0),
        };
        end.is_some_and(|end| b.get(end).is_none_or(|&c| class(c) == 0))
    }

    /// A pseudo-random pick below `n`.
    fn pick(seed: &mut u64, n: usize) -> usize {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as usize % n
    }

    /// The shape written out with random characters and separators, then garbled a little.
    fn instance(format: &Format, seed: &mut u64) -> Vec<u8> {
        const ANY: &[u8] = b"0123456789abcXYZ -.+:/,";
        let from = |s: &[u8], seed: &mut u64| s[pick(seed, s.len())];
        let mut out = Vec::new();
        let shape = format.shape.as_bytes();
        for (i, &c) in shape.iter().enumerate() {
            let repeat = shape.get(i + 1) == Some(&b'+');
            for _ in 0..if repeat { 1 + pick(seed, 18) } else { 1 } {
                match c {
                    b'9' => out.push(from(b"0123456789", seed)),
                    b'A' => out.push(from(b"ABCDXYZabz", seed)),
                    b'@' => out.push(from(b"07LMVAZ", seed)),
                    b'C' => out.push(from(b"+-AFUYx", seed)),
                    b'.' => out.push(from(b"...-", seed)),
                    b' ' => match pick(seed, 4) {
                        0 => {}
                        1 => out.push(from(b" -.", seed)),
                        _ => out.push(from(format.seps.get(..1).unwrap_or(b" "), seed)),
                    },
                    _ => {}
                }
            }
        }
        for _ in 0..pick(seed, 3) {
            let i = pick(seed, out.len() + 1);
            match pick(seed, 3) {
                0 if i < out.len() => {
                    out.remove(i);
                }
                _ => out.insert(i, from(ANY, seed)),
            }
        }
        for _ in 0..pick(seed, 4) {
            out.push(from(ANY, seed));
        }
        out
    }

    /// The table only saves work: every shape a format reads at a start, it admits.
    #[test]
    fn admitting_keeps_every_start_a_format_reads() {
        let mut seed = 7;
        // Digits alone ("9+") are read as the run itself, which their validity bounds.
        for format in formats().iter().filter(|f| f.shape != "9+") {
            let mut admitting = Admitting::default();
            admitting.add(0, format);
            let first = if format.shape.starts_with('9') {
                DIGIT
            } else {
                LETTER
            };
            let mut read = 0;
            for _ in 0..20_000 {
                let b = instance(format, &mut seed);
                if b.first().is_none_or(|&c| class(c) != first) || !reads(format, &b) {
                    continue;
                }
                read += 1;
                let run = b
                    .iter()
                    .take(31)
                    .take_while(|&&c| class(c) == first)
                    .count();
                assert_eq!(
                    admitting.get(&b, 0, run),
                    1,
                    "{} rules out {:?}",
                    format.shape,
                    String::from_utf8_lossy(&b)
                );
            }
            assert!(read > 1000, "{}: {read} instances read", format.shape);
        }
    }
}
