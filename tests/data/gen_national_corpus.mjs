// Generates the labeled corpus of national identifiers: chat-shaped messages holding national
// IDs (US ITIN, UK NHS number and NINO, Spanish DNI/NIE, Italian codice fiscale, PESEL,
// Singapore NRIC/FIN, Australian TFN/ABN/ACN/Medicare, Indian PAN/Aadhaar, Finnish henkilötunnus,
// Korean RRN, Thai national ID, US passport / driver's license / bank and routing numbers, DEA
// numbers), in the language that fits each identifier, with the identifiers labeled; plus benign
// messages full of hard negatives (same-shape numbers that fail each checksum, phone numbers in
// national formats, order and invoice numbers, timestamps, UUIDs, SHAs, versions, bare 9-13
// digit numbers in logs and tables, product codes, the cue words without a number).
//
// Run from the repository root:
//   node tests/data/gen_national_corpus.mjs > tests/data/redact_national.jsonl
//
// Deterministic: our own PRNG (mulberry32) is seeded, faker is seeded per locale and its
// reference date is pinned, so re-running writes a byte-identical file. N_PII and N_BENIGN
// (environment) change the number of messages.
//
// Each line: {"id", "locale", "benign", "text", "spans": [{"type", "start", "end", "value"}]}
// with start/end as UTF-8 byte offsets (what the Rust test indexes). A span covers only the
// identifier. Every checksum is implemented here from its public definition; every planted
// value passes its validator, and no unlabeled text (benign or around the spans) holds a value
// that passes any of them (see `validIdsIn`).
//
// Cue rules: digit-only identifiers always have their cue word earlier in the same sentence
// (or as the form / JSON key); the strongly shaped ones (NINO, DNI, NIE, codice fiscale, NRIC,
// henkilötunnus, RRN, PAN, DEA, dashed Thai ID, dashed ITIN) appear without any cue about 30 %
// of the time. The module also exports its validators (for checking the output); importing it
// does not write anything.
import { pathToFileURL } from 'node:url';
import {
  fakerEN, fakerEN_US, fakerEN_GB, fakerEN_AU, fakerEN_IN, fakerES, fakerIT, fakerPL, fakerFI, fakerKO, fakerTH,
} from '@faker-js/faker';

const N_PII = Number(process.env.N_PII ?? 2000);
const N_BENIGN = Number(process.env.N_BENIGN ?? 1000);
const REF_DATE = '2026-11-29T17:00:00Z';

// ---- seeded PRNG (mulberry32) and small helpers ----
let seed = 0x4e41544c;
function rand() {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const chance = (p) => rand() < p;
const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const digits = (n) => chars(DIGITS, n);
const pad = (n, w = 2) => String(n).padStart(w, '0');
const digitsOf = (s) => [...s].map(Number);
const weighted = (ds, ws) => ds.reduce((acc, d, i) => acc + d * ws[i], 0);
/** Another character of `alphabet` than `c` (to break a check character). */
const otherThan = (alphabet, c) => { let x; do x = pick(alphabet); while (x === c); return x; };

// ---- dates ----
const daysInMonth = (y, m) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const isDate = (y, m, d) => m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
function randomDate(y0, y1) {
  const y = int(y0, y1), m = int(1, 12);
  return { y, m, d: int(1, daysInMonth(y, m)) };
}

// =====================================================================================
// Identifiers: one validator (from the public definition) and one generator each.
// Validators take the value as written (with its spaces / dashes) and return a boolean.
// =====================================================================================

// 1. US ITIN: 9XX-YY-ZZZZ, YY in 50-65, 70-88, 90-92, 94-99 (no check digit).
const itinGroupOk = (g) => (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
function validItin(v) {
  const s = v.replace(/[ -]/g, '');
  return /^9\d{8}$/.test(s) && itinGroupOk(Number(s.slice(3, 5)));
}
function itinParts() {
  let g; do g = int(50, 99); while (!itinGroupOk(g));
  return ['9' + digits(2), pad(g), digits(4)];
}

// 2. UK NHS number: mod 11 with weights 10..2; check 11 -> 0, 10 -> no such number.
function nhsCheck(body9) {
  const c = 11 - (weighted(digitsOf(body9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return c === 11 ? 0 : c; // 10 means invalid
}
function validNhs(v) {
  const s = v.replace(/[ -]/g, '');
  if (!/^\d{10}$/.test(s)) return false;
  const c = nhsCheck(s.slice(0, 9));
  return c !== 10 && c === Number(s[9]);
}
function nhsDigits() {
  for (;;) {
    const body = String(int(4, 7)) + digits(8);
    const c = nhsCheck(body);
    if (c !== 10) return body + c;
  }
}

// 3. UK National Insurance number.
const NINO_FIRST = 'ABCEGHJKLMNOPRSTWXYZ'; // not D F I Q U V
const NINO_SECOND = 'ABCEGHJKLMNPRSTWXYZ'; // not D F I O Q U V
const NINO_BAD_PREFIX = ['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'];
function validNino(v) {
  const m = /^([A-Z])([A-Z])(\d{6})([A-D])$/.exec(v.replace(/ /g, ''));
  return !!m && NINO_FIRST.includes(m[1]) && NINO_SECOND.includes(m[2]) && !NINO_BAD_PREFIX.includes(m[1] + m[2]);
}
function ninoParts() {
  let p; do p = pick(NINO_FIRST) + pick(NINO_SECOND); while (NINO_BAD_PREFIX.includes(p));
  return [p, digits(6), pick('ABCD')];
}

// 4./5. Spanish DNI (NIF) and NIE: number mod 23 indexes the letter table.
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const dniLetter = (n) => DNI_LETTERS[Number(n) % 23];
function validNif(v) {
  const m = /^(\d{8})([A-Z])$/.exec(v.replace(/-/g, ''));
  return !!m && dniLetter(m[1]) === m[2];
}
function validNie(v) {
  const m = /^([XYZ])(\d{7})([A-Z])$/.exec(v.replace(/-/g, ''));
  return !!m && dniLetter('XYZ'.indexOf(m[1]) + m[2]) === m[3];
}
function nifParts() { const n = digits(8); return [n, dniLetter(n)]; }
function nieParts() { const p = pick('XXXYYZ'), n = digits(7); return [p, n, dniLetter('XYZ'.indexOf(p) + n)]; }

// 6. Italian codice fiscale: check letter from the odd/even position tables (DM 12/03/1974).
const CF_MONTHS = 'ABCDEHLMPRST';
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]; // A..Z; digit k as the k-th letter
const cfValue = (c, odd) => {
  const k = /\d/.test(c) ? Number(c) : UPPER.indexOf(c);
  return odd ? CF_ODD[k] : k;
};
function cfCheck(s15) {
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += cfValue(s15[i], i % 2 === 0); // positions 1, 3, 5... are odd
  return UPPER[sum % 26];
}
function validCf(v) {
  const s = v.toUpperCase();
  const m = /^[A-Z]{6}\d{2}[ABCDEHLMPRST](\d{2})[A-Z]\d{3}[A-Z]$/.exec(s);
  if (!m) return false;
  const day = Number(m[1]);
  return ((day >= 1 && day <= 31) || (day >= 41 && day <= 71)) && cfCheck(s.slice(0, 15)) === s[15];
}
const asciiUpper = (s) => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toUpperCase();
const isVowel = (c) => 'AEIOU'.includes(c);
function cfNamePart(name, firstName) {
  const s = [...asciiUpper(name)];
  const cons = s.filter((c) => !isVowel(c)), vow = s.filter(isVowel);
  if (firstName && cons.length >= 4) return cons[0] + cons[2] + cons[3];
  return (cons.join('') + vow.join('') + 'XXX').slice(0, 3);
}
const CF_PLACES = ['H501', 'F205', 'A562', 'L219', 'F839', 'G273', 'A944', 'D612', 'L736', 'D969', 'L781', 'C351', 'A662', 'B354', 'G224', 'E625'];
function codiceFiscale(f) {
  const female = chance(0.5);
  const { y, m, d } = randomDate(1940, 2008);
  const body = cfNamePart(f.person.lastName(), false) + cfNamePart(f.person.firstName(female ? 'female' : 'male'), true)
    + pad(y % 100) + CF_MONTHS[m - 1] + pad(d + (female ? 40 : 0)) + pick(CF_PLACES);
  return body + cfCheck(body);
}

// 7. Polish PESEL: YYMMDD with the century in the month, weights 1 3 7 9..., valid date.
const PESEL_W = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
const PESEL_CENTURY = { 80: 1800, 0: 1900, 20: 2000, 40: 2100, 60: 2200 };
const peselCheck = (s10) => (10 - (weighted(digitsOf(s10), PESEL_W) % 10)) % 10;
function validPesel(v) {
  if (!/^\d{11}$/.test(v)) return false;
  const mm = Number(v.slice(2, 4)), off = Math.floor((mm - 1) / 20) * 20; // 0, 20, 40, 60 or 80
  const base = PESEL_CENTURY[off];
  if (base === undefined) return false;
  const y = base + Number(v.slice(0, 2)), m = mm - off, d = Number(v.slice(4, 6));
  return isDate(y, m, d) && peselCheck(v.slice(0, 10)) === Number(v[10]);
}
function peselBody(y, m, d) {
  const off = y < 1900 ? 80 : y < 2000 ? 0 : 20;
  return pad(y % 100) + pad(m + off) + pad(d) + digits(4);
}
function pesel() {
  const { y, m, d } = chance(0.02) ? randomDate(1890, 1899) : randomDate(1935, 2022);
  const body = peselBody(y, m, d);
  return body + peselCheck(body);
}

// 8. Singapore NRIC / FIN.
const SG_W = [2, 7, 6, 5, 4, 3, 2];
const SG_OFFSET = { S: 0, T: 4, F: 0, G: 4, M: 3 };
const SG_TABLE = { S: 'JZIHGFEDCBA', T: 'JZIHGFEDCBA', F: 'XWUTRQPNMLK', G: 'XWUTRQPNMLK', M: 'XWUTRQPNJLK' };
const sgCheck = (p, d7) => SG_TABLE[p][(weighted(digitsOf(d7), SG_W) + SG_OFFSET[p]) % 11];
function validNric(v) {
  const m = /^([STFGM])(\d{7})([A-Z])$/.exec(v);
  return !!m && sgCheck(m[1], m[2]) === m[3];
}
function nric() {
  const p = pick('SSSTTFFGM'), d = digits(7);
  return p + d + sgCheck(p, d);
}

// 9. Australian TFN: weights 1 4 3 7 5 8 6 9 10, sum mod 11 == 0.
const TFN_W = [1, 4, 3, 7, 5, 8, 6, 9, 10];
const validTfn = (v) => { const s = v.replace(/ /g, ''); return /^\d{9}$/.test(s) && weighted(digitsOf(s), TFN_W) % 11 === 0; };
function tfnDigits() {
  for (;;) {
    const body = String(int(1, 9)) + digits(7);
    for (let c = 0; c <= 9; c++) if (validTfn(body + c)) return body + c;
  }
}

// 10. Australian ABN: first digit minus 1, weights 10 1 3 5 ... 19, sum mod 89 == 0.
const ABN_W = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
function validAbn(v) {
  const s = v.replace(/ /g, '');
  if (!/^[1-9]\d{10}$/.test(s)) return false;
  const ds = digitsOf(s); ds[0] -= 1;
  return weighted(ds, ABN_W) % 89 === 0;
}
function abnDigits() {
  for (;;) {
    const tail = digits(9);
    const ok = [];
    for (let p = 10; p <= 99; p++) if (validAbn(p + tail)) ok.push(p + tail);
    if (ok.length) return pick(ok);
  }
}

// 11. Australian ACN: weights 8..1 on the first eight, check (10 - sum mod 10) mod 10.
const acnCheck = (s8) => (10 - (weighted(digitsOf(s8), [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10;
const validAcn = (v) => { const s = v.replace(/ /g, ''); return /^\d{9}$/.test(s) && acnCheck(s.slice(0, 8)) === Number(s[8]); };
function acnDigits() { const b = (chance(0.3) ? '00' + digits(6) : digits(8)); return b + acnCheck(b); }

// 12. Australian Medicare card number: first digit 2-6, ninth = weighted sum mod 10, tenth = issue 1-9.
const medicareCheck = (s8) => weighted(digitsOf(s8), [1, 3, 7, 9, 1, 3, 7, 9]) % 10;
function validMedicare(v) {
  const s = v.replace(/ /g, '');
  return /^[2-6]\d{8}[1-9]$/.test(s) && medicareCheck(s.slice(0, 8)) === Number(s[8]);
}
function medicareDigits() { const b = String(int(2, 6)) + digits(7); return b + medicareCheck(b) + int(1, 9); }

// 13. Indian PAN: 5 letters (4th the holder type), 4 digits, a letter (no public check).
const PAN_TYPES = 'ABCFGHLJPT';
const validPan = (v) => /^[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]$/.test(v);
const pan = () => chars(UPPER, 3) + (chance(0.8) ? 'P' : pick(PAN_TYPES)) + pick(UPPER) + digits(4) + pick(UPPER);

// 14. Indian Aadhaar: 12 digits, first 2-9, Verhoeff check digit.
const VH_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VH_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const VH_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];
function verhoeffOk(s) {
  let c = 0;
  [...s].reverse().forEach((ch, i) => { c = VH_D[c][VH_P[i % 8][Number(ch)]]; });
  return c === 0;
}
function verhoeffDigit(body) {
  let c = 0;
  [...body].reverse().forEach((ch, i) => { c = VH_D[c][VH_P[(i + 1) % 8][Number(ch)]]; });
  return VH_INV[c];
}
const validAadhaar = (v) => { const s = v.replace(/ /g, ''); return /^[2-9]\d{11}$/.test(s) && verhoeffOk(s); };
function aadhaarDigits() { const b = String(int(2, 9)) + digits(10); return b + verhoeffDigit(b); }

// 15. Finnish henkilötunnus: DDMMYY, century sign, 002-899, check char of DDMMYYZZZ mod 31.
const FI_CHECK = '0123456789ABCDEFHJKLMNPRSTUVWXY';
const FI_SIGNS = { 1800: '+', 1900: '-YXWVU', 2000: 'ABCDEF' };
const fiCentury = (sign) => Number(Object.keys(FI_SIGNS).find((c) => FI_SIGNS[c].includes(sign)));
const fiCheck = (dmy, n3) => FI_CHECK[Number(dmy + n3) % 31];
function validFi(v) {
  const m = /^(\d{2})(\d{2})(\d{2})([-+A-FU-Y])(\d{3})([0-9A-Y])$/.exec(v);
  if (!m) return false;
  const y = fiCentury(m[4]) + Number(m[3]), n = Number(m[5]);
  return isDate(y, Number(m[2]), Number(m[1])) && n >= 2 && n <= 899 && fiCheck(m[1] + m[2] + m[3], m[5]) === m[6];
}
function finnishId() {
  const { y, m, d } = randomDate(1935, 2022);
  const signs = FI_SIGNS[y < 2000 ? 1900 : 2000];
  const sign = chance(0.85) ? signs[0] : pick(signs.slice(1));
  const dmy = pad(d) + pad(m) + pad(y % 100), n3 = pad(int(2, 899), 3);
  return dmy + sign + n3 + fiCheck(dmy, n3);
}

// 16. Korean resident registration number: YYMMDD-GNNNNNC, G 1-4 (1/2: 1900s, 3/4: 2000s).
const RRN_W = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
const rrnCheck = (s12) => (11 - (weighted(digitsOf(s12), RRN_W) % 11)) % 10;
function validRrn(v) {
  const m = /^(\d{2})(\d{2})(\d{2})-?([1-4])(\d{5})(\d)$/.exec(v);
  if (!m) return false;
  const y = (m[4] <= '2' ? 1900 : 2000) + Number(m[1]);
  return isDate(y, Number(m[2]), Number(m[3])) && rrnCheck(m[1] + m[2] + m[3] + m[4] + m[5]) === Number(m[6]);
}
function rrn() {
  const { y, m, d } = randomDate(1940, 2015);
  const g = (y < 2000 ? 1 : 3) + int(0, 1);
  const body = pad(y % 100) + pad(m) + pad(d) + g + digits(5);
  return body.slice(0, 6) + '-' + body.slice(6) + rrnCheck(body);
}

// 17. Thai national ID: 13 digits, first 1-8, check (11 - sum(d_i * (13 - i)) mod 11) mod 10.
const thCheck = (s12) => (11 - (digitsOf(s12).reduce((a, d, i) => a + d * (13 - i), 0) % 11)) % 10;
const validThId = (v) => { const s = v.replace(/-/g, ''); return /^[1-8]\d{12}$/.test(s) && thCheck(s.slice(0, 12)) === Number(s[12]); };
function thDigits() { const b = String(int(1, 8)) + digits(11); return b + thCheck(b); }
const thDashed = (s) => `${s[0]}-${s.slice(1, 5)}-${s.slice(5, 10)}-${s.slice(10, 12)}-${s[12]}`;

// 18.-20. US passport, driver's license, bank account (no check digit), ABA routing number.
const validPassport = (v) => /^(\d{9}|[A-Z]\d{8})$/.test(v);
const passport = () => (chance(0.5) ? String(int(1, 9)) + digits(8) : pick('AACEFHKLMN') + digits(8));
const validDriverLicense = (v) => /^([A-Z]\d{7}|\d{8,9})$/.test(v);
const driverLicense = () => (chance(0.55) ? pick(UPPER) + digits(7) : String(int(1, 9)) + digits(pick([7, 8])));
const validAccount = (v) => /^\d{8,17}$/.test(v);
const account = () => String(int(1, 9)) + digits(int(7, 16));
const abaSum = (s) => { const d = digitsOf(s); return 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]); };
const validAba = (v) => /^\d{9}$/.test(v) && abaSum(v) % 10 === 0;
const ABA_PREFIXES = [...Array.from({ length: 12 }, (_, i) => i + 1), ...Array.from({ length: 12 }, (_, i) => i + 21), ...Array.from({ length: 12 }, (_, i) => i + 61), 80];
function routingNumber() {
  const b = pad(pick(ABA_PREFIXES)) + digits(6);
  return b + ((10 - (abaSum(b + '0') % 10)) % 10);
}

// 21. US DEA registration number: (d1+d3+d5) + 2(d2+d4+d6) ends in d7.
const DEA_FIRST = 'ABCDEFGHJKLMPRSTUX';
const deaCheck = (d6) => { const d = digitsOf(d6); return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10; };
function validDea(v) {
  const m = /^([ABCDEFGHJKLMPRSTUX])([A-Z9])(\d{6})(\d)$/.exec(v);
  return !!m && deaCheck(m[3]) === Number(m[4]);
}
function dea(f) {
  const second = chance(0.1) ? '9' : asciiUpper(f.person.lastName())[0] || pick(UPPER);
  const d = digits(6);
  return pick(DEA_FIRST) + second + d + deaCheck(d);
}

/** The validator of each type, as written in the corpus. US_BANK_NUMBER holds accounts and routing numbers. */
export const VALIDATORS = {
  US_ITIN: validItin, UK_NHS: validNhs, UK_NINO: validNino, ES_NIF: validNif, ES_NIE: validNie,
  IT_FISCAL_CODE: validCf, PL_PESEL: validPesel, SG_NRIC_FIN: validNric, AU_TFN: validTfn, AU_ABN: validAbn,
  AU_ACN: validAcn, AU_MEDICARE: validMedicare, IN_PAN: validPan, IN_AADHAAR: validAadhaar,
  FI_PERSONAL_IDENTITY_CODE: validFi, KR_RRN: validRrn, TH_TNIN: validThId, US_PASSPORT: validPassport,
  US_DRIVER_LICENSE: validDriverLicense, US_BANK_NUMBER: (v) => validAccount(v) || validAba(v),
  MEDICAL_LICENSE: validDea,
};
export { validAba };

// Values the checksums are usually illustrated with; checked at start-up.
const REFERENCE_VALID = [
  [validNhs, '943 476 5919'], [validNif, '12345678Z'], [validNie, 'X1234567L'], [validCf, 'RSSMRA85T10A562S'],
  [validPesel, '44051401359'], [validTfn, '123 456 782'], [validAbn, '51 824 753 556'], [validAcn, '004 085 616'],
  [validMedicare, '2123 45670 1'], [validFi, '131052-308T'], [validDea, 'AB1234563'], [validNric, 'S1234567D'],
  [validAba, '011000015'], [verhoeffOk, '2363'],
];
for (const [fn, v] of REFERENCE_VALID) if (!fn(v)) throw new Error(`self-test: ${v} should be valid`);

/**
 * Every substring of `text` that passes one of the checksum validators: digit groups joined by
 * single spaces or dashes (each contiguous run of groups), and alphanumeric tokens. Used to keep
 * unlabeled text free of values that are, by our own definition, valid identifiers.
 */
export function validIdsIn(text) {
  const found = [];
  const BY_LEN = {
    9: [validTfn, validAcn, validAba], 10: [validNhs, validMedicare], 11: [validAbn, validPesel],
    12: [validAadhaar], 13: [validThId],
  };
  for (const m of text.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = m[0].split(/[ -]/);
    for (let i = 0; i < groups.length; i++) {
      let s = '';
      for (let j = i; j < groups.length; j++) {
        s += groups[j];
        if ((BY_LEN[s.length] ?? []).some((fn) => fn(s))) found.push(s);
      }
    }
    if (/^9\d\d[ -]\d\d[ -]\d{4}$/.test(m[0]) && validItin(m[0])) found.push(m[0]);
  }
  for (const m of text.matchAll(/[A-Za-z0-9]+(?:[-+][A-Za-z0-9]+)*/g)) {
    const tok = m[0].toUpperCase(), compact = tok.replace(/-/g, '');
    if ([validNif, validNie, validNino, validNric, validDea, validPan, validCf].some((fn) => fn(compact))) found.push(m[0]);
    if (validFi(tok) || validRrn(tok)) found.push(m[0]);
  }
  for (const m of text.matchAll(/\b[A-Z]{2} \d\d \d\d \d\d [A-D]\b/g)) if (validNino(m[0])) found.push(m[0]);
  for (const m of text.matchAll(/\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]/g)) if (validFi(m[0])) found.push(m[0]);
  return found;
}

// =====================================================================================
// Message text. Parts are strings or [type, value] (as in gen_redact_corpus.mjs).
// =====================================================================================

function assemble(parts) {
  let text = '';
  const spans = [];
  for (const p of parts) {
    if (typeof p === 'string') { text += p; continue; }
    const [type, value] = p;
    const start = Buffer.byteLength(text);
    text += value;
    spans.push({ type, start, end: start + Buffer.byteLength(value), value });
  }
  return { text, spans };
}
/** The text with every labeled value replaced by a bullet, for `validIdsIn`. */
const unlabeledText = (parts) => parts.map((p) => (typeof p === 'string' ? p : ' • ')).join('');

// How a value is introduced: 'tight' (cue right before, or form / JSON key), 'cued' (cue a
// few words before, same sentence), 'nocue' (none: strongly shaped types only; tables count here).
const spaced = (s, sizes) => { const out = []; let i = 0; for (const n of sizes) { out.push(s.slice(i, i + n)); i += n; } return out.join(' '); };

const FILLER = {
  en: ['Thanks in advance!', 'Is that the right format?', 'Sorry for the long message.', 'Let me know if you need anything else.',
    'I am filling in the form right now.', 'The website keeps timing out.', 'Can you double-check it for me?', 'No rush, whenever you get a chance.'],
  es: ['¡Gracias por la ayuda!', '¿Puedes revisarlo, por favor?', 'Tengo que entregar el formulario antes del viernes.', 'La web no deja de dar error.', 'Perdona el mensaje tan largo.'],
  it: ['Grazie mille!', 'Puoi controllare per favore?', 'Il modulo va consegnato entro venerdì.', 'Il sito continua a dare errore.', 'Scusa il disturbo.'],
  pl: ['Dzięki za pomoc!', 'Czy możesz to sprawdzić?', 'Formularz trzeba oddać do piątku.', 'Strona ciągle wyrzuca błąd.', 'Przepraszam za kłopot.'],
  fi: ['Kiitos avusta!', 'Voisitko tarkistaa tämän?', 'Lomake pitää palauttaa perjantaihin mennessä.', 'Sivusto antaa koko ajan virheen.'],
  ko: ['확인 부탁드립니다.', '감사합니다!', '서류를 다시 보내야 하나요?', '홈페이지에서 계속 오류가 나요.'],
  th: ['ช่วยตรวจสอบให้หน่อยครับ', 'ขอบคุณค่ะ', 'ต้องส่งเอกสารเพิ่มไหมคะ', 'เว็บไซต์ขึ้นข้อผิดพลาดตลอดเลย'],
};
const FORM_LABELS = {
  en: ['Name', 'City'], es: ['Nombre', 'Ciudad'], it: ['Nome', 'Città'], pl: ['Imię i nazwisko', 'Miasto'],
  fi: ['Nimi', 'Kotikunta'], ko: ['이름', '도시'], th: ['ชื่อ', 'จังหวัด'],
};

// One entry per identifier: locale, language, whether it is strongly shaped, how its value
// is written in each context, its form / JSON keys, and sentence templates (V is the labeled part).
const TYPES = {
  US_ITIN: {
    locale: 'en_US', strong: true, group: 'US',
    // Bare digits only right after the word ITIN: see bareItins.
    value: (ctx) => { const p = itinParts(); return ctx !== 'nocue' && chance(0.2) ? p.join(' ') : p.join('-'); },
    keys: ['ITIN', 'itin'],
    tight: [
      (V) => ['My ITIN is ', V, ', I do not have an SSN yet.'],
      (V) => ['ITIN: ', V],
      (V) => ['Use ITIN ', V, ' for the dependent on line 4.'],
      (V) => ['can you update my file with ITIN ', V, '? thanks'],
    ],
    cued: [
      (V) => ['The ITIN the IRS sent me last month is ', V, '.'],
      (V) => ['I got the ITIN letter (CP565) and the number on it is ', V, ', do I still need the W-7?'],
      (V) => ['For the ITIN renewal, my current one is ', V, '.'],
    ],
    nocue: [
      (V) => ['Put ', V, ' in box 2 of the W-9, please.'],
      (V) => ['The 1040 was rejected with ', V, ' on page one, any idea why?'],
      (V) => ['is ', V, ' the right number for my wife or is that mine?'],
    ],
  },
  UK_NHS: {
    locale: 'en_GB', strong: false, group: 'UK',
    value: () => { const s = nhsDigits(); const r = rand(); return r < 0.6 ? spaced(s, [3, 3, 4]) : r < 0.75 ? `${s.slice(0, 3)}-${s.slice(3, 6)}-${s.slice(6)}` : s; },
    keys: ['NHS number', 'nhs_number'],
    tight: [
      (V) => ['My NHS number is ', V, '.'],
      (V) => ['NHS number: ', V],
      (V) => ['NHS no. ', V, ', can you book the blood test?'],
      (V) => ['Patient NHS No: ', V, ', referral attached.'],
    ],
    cued: [
      (V) => ['The NHS number on my GP letter is ', V, ', is that the one the pharmacy needs?'],
      (V) => ['My mum\'s NHS number (from her repeat prescription) is ', V, '.'],
      (V) => ['The NHS app asked for my number and I typed ', V, ' but it says not found.'],
    ],
  },
  UK_NINO: {
    locale: 'en_GB', strong: true, group: 'UK',
    value: () => { const [p, d, s] = ninoParts(); return chance(0.6) ? p + d + s : `${p} ${spaced(d, [2, 2, 2])} ${s}`; },
    keys: ['National Insurance number', 'ni_number'],
    tight: [
      (V) => ['My National Insurance number is ', V, '.'],
      (V) => ['NI number: ', V],
      (V) => ['NINO ', V, ' is on my P60.'],
      (V) => ['national insurance no. ', V, ', tax code 1257L'],
    ],
    cued: [
      (V) => ['The National Insurance number on my payslip is ', V, ' but HMRC has another one.'],
      (V) => ['HMRC wrote to me about my NI contributions, the number they quoted is ', V, '.'],
    ],
    nocue: [
      (V) => ['Payroll has ', V, ' on file for me, is that right?'],
      (V) => ['I typed ', V, ' into the Government Gateway form and it was accepted.'],
      (V) => ['The P45 shows ', V, ', same as last year.'],
    ],
  },
  ES_NIF: {
    locale: 'es', strong: true, group: 'ES',
    value: () => { const [n, l] = nifParts(); return chance(0.7) ? n + l : `${n}-${l}`; },
    keys: ['DNI', 'dni'],
    tight: [
      (V) => ['Mi DNI es ', V, '.'],
      (V) => ['DNI: ', V],
      (V) => ['NIF ', V, ' para la factura, por favor.'],
      (V) => ['Te paso mi número de DNI ', V, ' para la reserva.'],
    ],
    cued: [
      (V) => ['El DNI que puse en la solicitud es ', V, ', ¿está bien?'],
      (V) => ['Para el contrato de alquiler me piden el NIF; el mío es ', V, '.'],
    ],
    nocue: [
      (V) => ['Te paso el ', V, ' para la reserva del hotel.'],
      (V) => ['¿Puedes rellenar el formulario con ', V, '? Gracias.'],
      (V) => ['La factura salió con ', V, ' y no sé por qué.'],
    ],
  },
  ES_NIE: {
    locale: 'es', strong: true, group: 'ES',
    value: () => { const [p, n, l] = nieParts(); return chance(0.7) ? p + n + l : `${p}-${n}-${l}`; },
    keys: ['NIE', 'nie'],
    tight: [
      (V) => ['Mi NIE es ', V, '.'],
      (V) => ['NIE: ', V],
      (V) => ['número de NIE ', V, ', caduca el año que viene.'],
    ],
    cued: [
      (V) => ['El NIE que aparece en mi tarjeta de residencia es ', V, '.'],
      (V) => ['En extranjería me dieron el NIE hoy: ', V, '.'],
    ],
    nocue: [
      (V) => ['Tengo cita el lunes con ', V, ', ¿qué documentos llevo?'],
      (V) => ['Me pidieron ', V, ' en el banco para abrir la cuenta.'],
    ],
  },
  IT_FISCAL_CODE: {
    locale: 'it', strong: true, group: 'IT',
    value: (ctx, f) => { const v = codiceFiscale(f); return chance(0.15) ? v.toLowerCase() : v; },
    keys: ['Codice fiscale', 'codice_fiscale'],
    tight: [
      (V) => ['codice fiscale: ', V],
      (V) => ['Il mio codice fiscale è ', V, '.'],
      (V) => ['C.F. ', V, ', serve anche per la fattura?'],
      (V) => ['CF: ', V],
    ],
    cued: [
      (V) => ['Ti mando il codice fiscale di mia madre, è ', V, '.'],
      (V) => ['Per la tessera sanitaria serve il codice fiscale, il mio è ', V, '.'],
    ],
    nocue: [
      (V) => ['Ecco il modulo per ', V, ', manca solo la firma.'],
      (V) => ['Ho compilato con ', V, ' ma il sito dà errore.'],
      (V) => ['Nella ricetta c\'è scritto ', V, ', è giusto?'],
    ],
  },
  PL_PESEL: {
    locale: 'pl', strong: false, group: 'PL',
    value: () => pesel(),
    keys: ['PESEL', 'pesel'],
    tight: [
      (V) => ['PESEL: ', V],
      (V) => ['Mój PESEL to ', V, '.'],
      (V) => ['numer PESEL ', V, ', proszę o potwierdzenie.'],
      (V) => ['Podaję PESEL ', V, ' do rejestracji.'],
    ],
    cued: [
      (V) => ['PESEL syna, potrzebny do zapisu do przedszkola, to ', V, '.'],
      (V) => ['W przychodni poprosili o PESEL, mój to ', V, '.'],
    ],
  },
  SG_NRIC_FIN: {
    locale: 'en_SG', strong: true, group: 'SG',
    value: () => nric(),
    keys: ['NRIC', 'nric'],
    tight: [
      (V) => ['NRIC: ', V],
      (V) => ['My NRIC is ', V, '.'],
      (V) => ['FIN ', V, ', my work pass was renewed.'],
      (V) => ['IC no. ', V, ' for the clinic registration'],
    ],
    cued: [
      (V) => ['The NRIC number on my pink IC is ', V, '.'],
      (V) => ['For the HDB application my FIN is ', V, ', is that ok?'],
    ],
    nocue: [
      (V) => ['Booking is under ', V, ', can you check?'],
      (V) => ['The portal shows ', V, ' but the form rejects it.'],
      (V) => ['Please register ', V, ' for the vaccination slot.'],
    ],
  },
  AU_TFN: {
    locale: 'en_AU', strong: false, group: 'AU',
    value: () => { const s = tfnDigits(); return chance(0.6) ? spaced(s, [3, 3, 3]) : s; },
    keys: ['Tax file number', 'tfn'],
    tight: [
      (V) => ['TFN ', V],
      (V) => ['My tax file number is ', V, '.'],
      (V) => ['TFN: ', V, ' (for the super fund form)'],
      (V) => ['tax file no. ', V, ', do I need to give it to my new employer?'],
    ],
    cued: [
      (V) => ['The TFN on my ATO letter is ', V, '.'],
      (V) => ['My employer wants my TFN declaration, the number is ', V, '.'],
    ],
  },
  AU_ABN: {
    locale: 'en_AU', strong: false, group: 'AU',
    value: () => { const s = abnDigits(); return chance(0.6) ? spaced(s, [2, 3, 3, 3]) : s; },
    keys: ['ABN', 'abn'],
    tight: [
      (V) => ['ABN ', V],
      (V) => ['ABN: ', V],
      (V) => ['Our ABN is ', V, ', please add it to the invoice.'],
      (V) => ['Invoice from ABN ', V, ' for $', `${int(1, 9)},${pad(int(0, 999), 3)}.${pad(int(0, 99))}`],
    ],
    cued: [
      (V) => ['The ABN on the supplier\'s quote is ', V, ', can you look it up?'],
      (V) => ['Please put the ABN on the invoice, ours is ', V, '.'],
    ],
  },
  AU_ACN: {
    locale: 'en_AU', strong: false, group: 'AU',
    value: () => { const s = acnDigits(); return chance(0.7) ? spaced(s, [3, 3, 3]) : s; },
    keys: ['ACN', 'acn'],
    tight: [
      (V) => ['ACN ', V],
      (V) => ['ACN: ', V],
      (V) => ['Company ACN ', V, ', registered in NSW.'],
      (V) => ['the company\'s ACN is ', V],
    ],
    cued: [
      (V) => ['The ACN printed on the ASIC extract is ', V, '.'],
      (V) => ['ASIC says the ACN for our Pty Ltd is ', V, '.'],
    ],
  },
  AU_MEDICARE: {
    locale: 'en_AU', strong: false, group: 'AU',
    value: () => { const s = medicareDigits(); return chance(0.6) ? spaced(s, [4, 5, 1]) : s; },
    keys: ['Medicare number', 'medicare_number'],
    tight: [
      (V) => ['Medicare number ', V],
      (V) => ['Medicare card: ', V],
      (V) => ['My Medicare no. is ', V, '.'],
      (V) => ['Medicare ', V, ', can you bulk bill?'],
    ],
    cued: [
      (V) => ['The Medicare number on my new card is ', V, ', the old one expired.'],
      (V) => ['For the GP booking they need my Medicare number, it\'s ', V, '.'],
    ],
  },
  IN_PAN: {
    locale: 'en_IN', strong: true, group: 'IN',
    value: () => pan(),
    keys: ['PAN', 'pan'],
    tight: [
      (V) => ['PAN: ', V],
      (V) => ['My PAN is ', V, '.'],
      (V) => ['PAN card number ', V, ', please update the KYC.'],
      (V) => ['PAN ', V, ' for the TDS deduction'],
    ],
    cued: [
      (V) => ['The PAN on my Form 16 is ', V, ' but the bank has a different one.'],
      (V) => ['For the demat account KYC my PAN is ', V, '.'],
    ],
    nocue: [
      (V) => ['Filed the ITR with ', V, ' last week, still no refund.'],
      (V) => ['The portal shows ', V, ' twice in the TDS statement.'],
      (V) => ['Can you check whether ', V, ' is linked?'],
    ],
  },
  IN_AADHAAR: {
    locale: 'en_IN', strong: false, group: 'IN',
    value: () => { const s = aadhaarDigits(); return chance(0.65) ? spaced(s, [4, 4, 4]) : s; },
    keys: ['Aadhaar', 'aadhaar'],
    tight: [
      (V) => ['Aadhaar no. ', V],
      (V) => ['Aadhaar: ', V],
      (V) => ['My Aadhaar number is ', V, '.'],
      (V) => ['aadhaar ', V, ', the OTP is not coming'],
    ],
    cued: [
      (V) => ['The Aadhaar on my e-KYC form is ', V, ', is that fine?'],
      (V) => ['I updated my address in Aadhaar, the number is ', V, '.'],
    ],
  },
  FI_PERSONAL_IDENTITY_CODE: {
    locale: 'fi', strong: true, group: 'FI',
    value: () => finnishId(),
    keys: ['Henkilötunnus', 'hetu'],
    tight: [
      (V) => ['Henkilötunnukseni on ', V, '.'],
      (V) => ['henkilötunnus: ', V],
      (V) => ['hetu ', V, ', tarvitaanko muuta?'],
      (V) => ['HETU: ', V],
      (V) => ['My Finnish personal identity code is ', V, '.'],
      (V) => ['personal identity code: ', V],
    ],
    cued: [
      (V) => ['Kela pyysi henkilötunnusta, se on ', V, '.'],
      (V) => ['The hetu on my Kela card is ', V, ', is that enough?'],
    ],
    nocue: [
      (V) => ['Kirjoitin lomakkeeseen ', V, ', onko oikein?'],
      (V) => ['I entered ', V, ' on the form and it was accepted.'],
    ],
  },
  KR_RRN: {
    locale: 'ko', strong: true, group: 'KR',
    value: () => rrn(),
    keys: ['주민등록번호', 'rrn'],
    tight: [
      (V) => ['주민등록번호 ', V],
      (V) => ['주민번호: ', V],
      (V) => ['제 주민등록번호는 ', V, '입니다.'],
      (V) => ['My Korean resident registration number is ', V, '.'],
      (V) => ['RRN: ', V],
    ],
    cued: [
      (V) => ['은행에서 주민등록번호를 물어봐서 ', V, ' 알려줬어요.'],
      (V) => ['The hospital asked for my resident registration number, it is ', V, '.'],
    ],
    nocue: [
      (V) => ['가입할 때 ', V, ' 입력했는데 오류가 나요.'],
      (V) => ['I typed ', V, ' on the hospital form.'],
    ],
  },
  TH_TNIN: {
    locale: 'th', strong: true, group: 'TH',
    value: (ctx) => { const s = thDigits(); return ctx === 'nocue' || chance(0.7) ? thDashed(s) : s; },
    keys: ['เลขประจำตัวประชาชน', 'thai_id'],
    tight: [
      (V) => ['เลขประจำตัวประชาชน ', V],
      (V) => ['เลขบัตรประชาชน: ', V],
      (V) => ['Thai ID number ', V],
      (V) => ['national ID no. ', V, ' for the visa form'],
    ],
    cued: [
      (V) => ['เลขประจำตัวประชาชนของแม่คือ ', V, ' ค่ะ'],
      (V) => ['The ID number on my Thai ID card is ', V, '.'],
    ],
    nocue: [
      (V) => ['กรอก ', V, ' ในแบบฟอร์มแล้วแต่ระบบไม่รับ'],
      (V) => ['I used ', V, ' to register the SIM.'],
    ],
  },
  US_PASSPORT: {
    locale: 'en_US', strong: false, group: 'US',
    value: () => passport(),
    keys: ['Passport No.', 'passport_number'],
    tight: [
      (V) => ['passport number ', V],
      (V) => ['Passport No. ', V, ', expires 2031.'],
      (V) => ['my passport no. is ', V, '.'],
      (V) => ['passport: ', V],
    ],
    cued: [
      (V) => ['The passport I renewed last year has the number ', V, '.'],
      (V) => ['For the ESTA form my passport number is ', V, ', right?'],
    ],
  },
  US_DRIVER_LICENSE: {
    locale: 'en_US', strong: false, group: 'US',
    value: () => driverLicense(),
    keys: ['Driver\'s license', 'drivers_license'],
    tight: [
      (V) => ['driver\'s license ', V],
      (V) => ['DL# ', V],
      (V) => ['driving licence number ', V],
      (V) => ['my driver\'s license number is ', V, '.'],
      (V) => ['DL: ', V],
    ],
    cued: [
      (V) => ['The driver\'s license the DMV mailed me is ', V, '.'],
      (V) => ['For the rental car they need my driver\'s license, it is ', V, '.'],
    ],
  },
  US_BANK_NUMBER: {
    locale: 'en_US', strong: false, group: 'US',
    value: () => account(),
    routing: () => routingNumber(),
    keys: ['Account number', 'account_number'],
    tight: [
      (V) => ['account number ', V],
      (V) => ['acct # ', V],
      (V) => ['bank account ', V, ' at the credit union'],
      (V) => ['checking account ', V, ', please'],
      (V, R) => ['routing number ', R, ' and account number ', V],
      (V, R) => ['Routing number: ', R, '\nAccount number: ', V],
    ],
    cued: [
      (V) => ['The account number for the direct deposit is ', V, '.'],
      (V) => ['Please send it to my checking account, the number is ', V, '.'],
      (V, R) => ['The routing number on my checks is ', R, '.'],
    ],
  },
  MEDICAL_LICENSE: {
    locale: 'en_US', strong: true, group: 'US_RX',
    value: (ctx, f) => dea(f),
    keys: ['DEA number', 'dea_number'],
    tight: [
      (V) => ['DEA ', V],
      (V) => ['DEA number: ', V],
      (V) => ['DEA# ', V, ' for the controlled substance order'],
      (V) => ['The prescriber\'s DEA is ', V, '.'],
    ],
    cued: [
      (V) => ['The DEA registration on the new prescription is ', V, '.'],
      (V) => ['Pharmacy asked for the DEA on the script, it is ', V, '.'],
    ],
    nocue: [
      (V) => ['Script signed under ', V, ', refill denied.'],
      (V) => ['Put ', V, ' on the order form, top right.'],
      (V) => ['is ', V, ' still active? the pharmacy keeps calling'],
    ],
  },
};
const TYPE_NAMES = Object.keys(TYPES);

const FAKERS = {
  en_US: fakerEN_US, en_GB: fakerEN_GB, en_AU: fakerEN_AU, en_IN: fakerEN_IN, en_SG: fakerEN,
  es: fakerES, it: fakerIT, pl: fakerPL, fi: fakerFI, ko: fakerKO, th: fakerTH,
};
const LOCALE_LANG = { en_US: 'en', en_GB: 'en', en_AU: 'en', en_IN: 'en', en_SG: 'en', es: 'es', it: 'it', pl: 'pl', fi: 'fi', ko: 'ko', th: 'th' };

/** The labeled part [type, value] for a type in a context (routing numbers are US_BANK_NUMBER too). */
const labeled = (type, ctx, f) => [type, TYPES[type].value(ctx, f)];

/** A sentence holding an identifier of `type` (a routing number too for some bank templates), introduced as `ctx` says. */
function sentence(type, ctx, f, maxIds) {
  const t = TYPES[type];
  const tpl = pick(t[ctx].filter((fn) => maxIds > 1 || fn.length < 2)); // (V, R) templates hold two
  const R = ['US_BANK_NUMBER', routingNumber()]; // used by the bank templates that take (V, R)
  return tpl(labeled(type, ctx, f), R);
}

/** A key: value form, sometimes with a second identifier of the same country. */
function form(type, f, lang, partner) {
  const [nameL, cityL] = FORM_LABELS[lang];
  const parts = [`${nameL}: ${f.person.fullName()}\n${TYPES[type].keys[0]}: `, labeled(type, 'tight', f)];
  if (partner) parts.push(`\n${TYPES[partner].keys[0]}: `, labeled(partner, 'tight', f));
  parts.push(`\n${cityL}: ${f.location.city()}`);
  return parts;
}

/** A JSON snippet with the identifier under its key. */
function json(type, f, partner) {
  const parts = ['```json\n{"name": ', JSON.stringify(f.person.fullName()), `, "${TYPES[type].keys[1]}": "`, labeled(type, 'tight', f), '"'];
  if (partner) parts.push(`, "${TYPES[partner].keys[1]}": "`, labeled(partner, 'tight', f), '"');
  parts.push(`, "city": ${JSON.stringify(f.location.city())}}\n\`\`\``);
  return parts;
}

/** A Markdown table of one or two rows (strongly shaped types only: the cue is in the header). */
function table(type, f, lang, maxIds) {
  const parts = [`| ${FORM_LABELS[lang][0]} | ${TYPES[type].keys[0]} |\n| --- | --- |`];
  for (let i = 0, n = int(1, maxIds); i < n; i++) parts.push(`\n| ${f.person.fullName()} | `, labeled(type, 'nocue', f), ' |');
  return parts;
}

/** What joins two snippets: a blank line around forms, tables and code, else a space or a blank line. */
function joiner(before, after) {
  const block = (ps) => ps.some((p) => typeof p === 'string' && (p.includes('\n') || p.startsWith('|')));
  return block(before) || block(after) ? '\n\n' : pick([' ', ' ', '\n\n']);
}

/** A snippet for one identifier type (a sentence, a form, JSON or a table) holding at most maxIds identifiers. */
function piiSnippet(type, f, maxIds) {
  const t = TYPES[type];
  const lang = LOCALE_LANG[t.locale];
  const partners = TYPE_NAMES.filter((x) => x !== type && TYPES[x].group === t.group && x !== 'ES_NIE' && x !== 'ES_NIF');
  const partner = maxIds > 1 && partners.length && chance(0.35) ? pick(partners) : null;
  const r = rand();
  if (t.strong) {
    if (r < 0.22) return sentence(type, 'nocue', f, maxIds);
    if (r < 0.28) return table(type, f, lang, maxIds);
    if (r < 0.64) return sentence(type, 'tight', f, maxIds);
    if (r < 0.85) return sentence(type, 'cued', f, maxIds);
  } else {
    if (r < 0.5) return sentence(type, 'tight', f, maxIds);
    if (r < 0.8) return sentence(type, 'cued', f, maxIds);
  }
  return chance(0.6) ? form(type, f, lang, partner) : json(type, f, partner);
}

/** Some ITINs right after the word "ITIN" are written as bare digits. */
function bareItins(parts) {
  return parts.map((p, i) => {
    const prev = parts[i - 1];
    if (!Array.isArray(p) || p[0] !== 'US_ITIN' || typeof prev !== 'string' || !/ITIN:? $/.test(prev) || !chance(0.35)) return p;
    return ['US_ITIN', p[1].replace(/[ -]/g, '')];
  });
}

function piiMessage(type) {
  const t = TYPES[type];
  const f = FAKERS[t.locale];
  const lang = LOCALE_LANG[t.locale];
  const parts = [...piiSnippet(type, f, 2)];
  const r = rand();
  const single = parts.filter(Array.isArray).length === 1;
  if (r < 0.22 && single) { // a second identifier of the same country
    const others = TYPE_NAMES.filter((x) => TYPES[x].group === t.group);
    const second = piiSnippet(pick(others), f, 1);
    parts.push(joiner(parts, second), ...second);
  } else if (r < 0.45) {
    const filler = [pick(FILLER[lang])];
    parts.push(joiner(parts, filler), ...filler);
  } else if (r < 0.6) {
    const filler = [pick(FILLER[lang])];
    parts.unshift(...filler, joiner(filler, parts));
  }
  return { locale: t.locale, parts: bareItins(parts) };
}

// =====================================================================================
// Benign messages: hard negatives, no personal identifiers.
// =====================================================================================

/** A value shaped like `type` that fails its validator. */
function failing(type, f) {
  const breakLast = (v, alphabet) => v.slice(0, -1) + otherThan(alphabet, v.slice(-1));
  const T = {
    US_ITIN: () => { let g; do g = int(0, 99); while (itinGroupOk(g)); return `9${digits(2)}-${pad(g)}-${digits(4)}`; },
    UK_NHS: () => {
      if (chance(0.3)) { let b; do b = String(int(4, 7)) + digits(8); while (nhsCheck(b) !== 10); return spaced(b + digits(1), [3, 3, 4]); }
      return spaced(breakLast(nhsDigits(), DIGITS), [3, 3, 4]);
    },
    UK_NINO: () => (chance(0.5) ? pick(['QQ', 'GB', 'DA', 'FY', 'ZZ', 'BG', 'NK', 'TN', 'AO', 'IQ']) + digits(6) + pick('ABCD') : ninoParts().slice(0, 2).join('') + pick('EFGHJKMXZ')),
    ES_NIF: () => breakLast(nifParts().join(''), UPPER),
    ES_NIE: () => breakLast(nieParts().join(''), UPPER),
    IT_FISCAL_CODE: () => breakLast(codiceFiscale(f), UPPER),
    PL_PESEL: () => {
      if (chance(0.3)) { const b = digits(2) + pick(['13', '14', '19', '39', '00']) + pad(int(1, 28)) + digits(4); return b + peselCheck(b); }
      return breakLast(pesel(), DIGITS);
    },
    SG_NRIC_FIN: () => breakLast(nric(), UPPER),
    AU_TFN: () => spaced(breakLast(tfnDigits(), DIGITS), [3, 3, 3]),
    AU_ABN: () => spaced(breakLast(abnDigits(), DIGITS), [2, 3, 3, 3]),
    AU_ACN: () => spaced(breakLast(acnDigits(), DIGITS), [3, 3, 3]),
    AU_MEDICARE: () => { const s = medicareDigits(); return spaced(s.slice(0, 8) + otherThan(DIGITS, s[8]) + s[9], [4, 5, 1]); },
    IN_PAN: () => chars(UPPER, 3) + pick('DEIKMNOQRSUVWXYZ') + pick(UPPER) + digits(4) + pick(UPPER),
    IN_AADHAAR: () => spaced(breakLast(aadhaarDigits(), DIGITS), [4, 4, 4]),
    FI_PERSONAL_IDENTITY_CODE: () => breakLast(finnishId(), FI_CHECK),
    KR_RRN: () => breakLast(rrn(), DIGITS),
    TH_TNIN: () => thDashed(breakLast(thDigits(), DIGITS)),
    MEDICAL_LICENSE: () => breakLast(dea(f), DIGITS),
    US_BANK_NUMBER: () => breakLast(routingNumber(), DIGITS), // an ABA-shaped number failing the check
  };
  const fn = T[type];
  for (;;) {
    const v = fn();
    if (!(type === 'US_BANK_NUMBER' ? validAba : VALIDATORS[type])(v)) return v;
  }
}
const FAILING_TYPES = TYPE_NAMES.filter((t) => !['US_PASSPORT', 'US_DRIVER_LICENSE'].includes(t));

// Neutral contexts for a failing value (no cue word of the identifier), per language.
const NEUTRAL = {
  en: [
    (v) => `ref ${v} in the ticket queue`,
    (v) => `The batch id ${v} failed the import.`,
    (v) => `serial ${v} on the box, warranty until next year`,
    (v) => `tracking code ${v} still shows "in transit"`,
    (v) => `| ${v} | pending | retry |`,
    (v) => `row ${int(2, 999)}: "${v}" rejected by the validator (bad check digit)`,
    (v) => `test fixture: const SAMPLE = "${v}"; // deliberately invalid`,
  ],
  es: [(v) => `referencia ${v} del pedido`, (v) => `El lote ${v} no pasó la validación.`, (v) => `código de seguimiento ${v}, sigue en tránsito`],
  it: [(v) => `riferimento ${v} della pratica`, (v) => `Il lotto ${v} non ha superato la verifica.`, (v) => `codice spedizione ${v}, ancora in transito`],
  pl: [(v) => `numer zamówienia ${v}`, (v) => `Partia ${v} nie przeszła walidacji.`, (v) => `kod przesyłki ${v}, nadal w drodze`],
  fi: [(v) => `viite ${v} laskussa`, (v) => `Erä ${v} ei läpäissyt tarkistusta.`, (v) => `seurantakoodi ${v}, yhä matkalla`],
  ko: [(v) => `주문번호 ${v} 배송 조회가 안 돼요`, (v) => `송장 ${v} 확인 부탁드려요`, (v) => `시리얼 ${v} 제품 보증 기간이 궁금해요`],
  th: [(v) => `หมายเลขพัสดุ ${v} ยังไม่ถึง`, (v) => `รหัสสินค้า ${v} หมดสต็อก`, (v) => `เลขที่ใบเสร็จ ${v} ค่ะ`],
};

// Cue words with no number (or with a number that is clearly something else).
const CUE_ONLY = {
  en_US: ['How long does an ITIN application take?', 'Do I need a passport to fly domestically?', 'What is the difference between a routing number and an account number?',
    'My driver\'s license expires next month, can I renew online?', 'Does a nurse practitioner need a DEA registration?', 'I changed banks, so my checking account is new.',
    'Is an ITIN the same as a social security number?', 'The passport office opens at 9:00 on weekdays.'],
  en_GB: ['I lost my NHS card, how do I get a new one?', 'What is a National Insurance number used for?', 'My NI contributions look wrong this year.',
    'Do I need my NHS number to register with a GP?', 'My NHS appointment is at 14:30 on Friday, ward 12.', 'Where do I find my NINO?'],
  en_AU: ['Do I need a TFN for a part-time job?', 'What is the difference between an ABN and an ACN?', 'Is my Medicare card still valid after moving to Queensland?',
    'I have not got my tax file number yet.', 'Medicare rebate went up by 5% this year.'],
  en_IN: ['What is the last date for PAN Aadhaar linking?', 'My Aadhaar address is outdated.', 'Do I need a PAN card for a deposit above 50,000 rupees?', 'Is the Aadhaar OTP valid for 10 minutes?'],
  en_SG: ['How do I replace a lost NRIC?', 'Is my FIN still valid after changing jobs?', 'Singpass login is down again.', 'Do PRs get a new NRIC after 15 years?'],
  es: ['¿Cuánto tarda en renovarse el DNI?', 'He perdido el NIE, ¿qué hago?', '¿El NIF y el DNI son lo mismo?', 'Tengo cita para el DNI el día 12 a las 10:30.'],
  it: ['Il codice fiscale serve per aprire un conto?', 'Ho perso la tessera sanitaria con il codice fiscale.', 'Nel file CSV c\'è una colonna CODICEFISCALE vuota.',
    'Come si calcola il carattere di controllo del codice fiscale?', 'La colonna codice_fiscale è VARCHAR(16).'],
  pl: ['Czym jest PESEL?', 'Jak sprawdzić numer PESEL dziecka?', 'Zastrzegłem PESEL w aplikacji mObywatel.', 'Mam PESEL od 2019 roku.', 'what is a PESEL?'],
  fi: ['Mistä saan henkilötunnuksen?', 'Mikä on hetu?', 'Unohdin henkilötunnuksen lomakkeesta.', 'Uusi henkilötunnus otetaan käyttöön vuonna 2027.'],
  ko: ['주민등록번호 뒷자리는 왜 필요한가요?', '주민등록증을 잃어버렸어요.', '외국인은 주민등록번호 대신 뭘 쓰나요?', 'What is a Korean RRN used for?'],
  th: ['บัตรประชาชนหมดอายุต้องทำอย่างไร', 'ลืมเลขประจำตัวประชาชนของลูก', 'What is a Thai national ID number used for?', 'ทำบัตรประชาชนใหม่ใช้เวลา 30 นาที'],
};

// Phone numbers in national formats (Ofcom drama ranges, ACMA fictional ranges, Indian mobiles).
const PHONES = {
  en_GB: () => pick([`020 7946 0${digits(3)}`, `07700 900${digits(3)}`, `+44 20 7946 0${digits(3)}`, `0161 496 0${digits(3)}`]),
  en_AU: () => pick([`0491 570 ${digits(3)}`, `04${digits(2)} ${digits(3)} ${digits(3)}`, `(02) 5550 ${digits(4)}`, `+61 491 570 ${digits(3)}`]),
  en_IN: () => pick([`+91 9${digits(4)} ${digits(5)}`, `+91 ${int(7, 9)}${digits(4)} ${digits(5)}`, `0${int(7, 9)}${digits(4)} ${digits(5)}`]),
};
const phoneLine = (p) => pick([
  `The clinic's reception number is ${p}, open until six.`,
  `Our office line is ${p} if the chat drops.`,
  `| support | ${p} | weekdays |`,
  `The helpline (${p}) had a 40 minute queue.`,
]);

/** Dev and log content with long numbers and codes, none of them identifiers. */
function noisyNumber(f) {
  const ymd = () => `20${int(18, 26)}-${pad(int(1, 12))}-${pad(int(1, 28))}`;
  const hms = () => `${pad(int(0, 23))}:${pad(int(0, 59))}:${pad(int(0, 59))}`;
  const T = [
    () => `order #${digits(int(6, 10))} shipped yesterday`,
    () => `Order ORD-${int(2019, 2026)}-${digits(5)} total $${int(1, 9)},${digits(3)}.${digits(2)}`,
    () => `Invoice INV-${digits(6)} and PO ${digits(7)} are both unpaid.`,
    () => `invoice no. ${int(2020, 2026)}/${pad(int(1, 9999), 4)} is attached`,
    () => `${ymd()}T${hms()}.${digits(3)}Z INFO job ${String(int(1, 9)) + digits(int(8, 12))} finished in ${int(1, 9999)} ms`,
    () => `ts=${int(1600000000, 1800000000)} level=warn msg="retrying" attempt=${int(1, 5)}`,
    () => `{"created_at": ${int(1600000000, 1800000000)}${digits(3)}, "status": "ok", "bytes": ${String(int(1, 9)) + digits(int(8, 11))}}`,
    () => `request id ${f.string.uuid()} failed after ${int(100, 9999)}ms`,
    () => `commit ${f.git.commitSha()} broke the build; revert to ${f.git.commitSha({ length: 7 })}?`,
    () => `upgrade from ${f.system.semver()} to ${f.system.semver()} (node ${int(14, 22)}.${int(0, 20)}.${int(0, 9)})`,
    () => `Windows build 10.0.${int(10000, 22631)}.${int(1, 4000)} and Chrome ${int(100, 130)}.0.${int(1000, 6999)}.${int(10, 199)}`,
    () => `| ${ymd()} | ${String(int(1, 9)) + digits(int(8, 12))} | ok |\n| ${ymd()} | ${String(int(1, 9)) + digits(int(8, 12))} | failed |`,
    () => `${pick(['RX', 'TX'])} bytes ${String(int(1, 9)) + digits(int(8, 12))}, dropped ${int(0, 999)}`,
    () => `SKU ${chars(UPPER, 5)}${digits(4)} is out of stock, use ${chars(UPPER, 5)}${digits(4)} instead`,
    () => `product code ${chars(UPPER, 5)}${digits(4)} / EAN ${digits(13)}`,
    () => `pid ${int(100, 65000)} rss ${digits(9)} kB, inode ${String(int(1, 9)) + digits(int(8, 10))}`,
    () => `backup-${ymd().replaceAll('-', '')}-${hms().replaceAll(':', '')}.tar.gz is ${int(1, 999)} GB`,
    () => `tracking ${chars(UPPER, 2)}${digits(9)}${chars(UPPER, 2)} arrives ${ymd()}`,
  ];
  return pick(T)();
}

function benignSnippet(locale, f) {
  const lang = LOCALE_LANG[locale];
  const myTypes = FAILING_TYPES.filter((t) => TYPES[t].locale === locale);
  const r = rand();
  if (r < 0.35 && myTypes.length) return pick(NEUTRAL[lang])(failing(pick(myTypes), f));
  if (r < 0.55 && PHONES[locale]) return phoneLine(PHONES[locale]());
  if (r < 0.75) return noisyNumber(f);
  if (r < 0.9) return pick(CUE_ONLY[locale]);
  return pick(FILLER[lang]);
}

function benignMessage(locale) {
  const f = FAKERS[locale];
  const parts = [];
  for (let i = 0, n = int(1, 3); i < n; i++) {
    let s; do s = benignSnippet(locale, f); while (parts.includes(s));
    if (i > 0) parts.push(joiner(parts, [s]));
    parts.push(s);
  }
  return { locale, parts };
}

// =====================================================================================

function emit(id, locale, benign, parts) {
  const { text, spans } = assemble(parts);
  process.stdout.write(JSON.stringify({ id, locale, benign, text, spans }) + '\n');
}

/** Retries `make` until its unlabeled text holds no value that passes a validator. */
function clean(make) {
  for (;;) {
    const m = make();
    if (validIdsIn(unlabeledText(m.parts)).length === 0) return m;
  }
}

function main() {
  for (const [i, f] of Object.values(FAKERS).entries()) {
    f.seed(3000 + i);
    f.setDefaultRefDate(REF_DATE);
  }
  let id = 0;
  for (let i = 0; i < N_PII; i++) {
    const { locale, parts } = clean(() => piiMessage(TYPE_NAMES[i % TYPE_NAMES.length]));
    emit(id++, locale, false, parts);
  }
  // Seeded afresh, so the benign messages do not change when the section above does.
  seed = 0x62656e69;
  const locales = Object.keys(FAKERS);
  for (let i = 0; i < N_BENIGN; i++) {
    const { locale, parts } = clean(() => benignMessage(locales[i % locales.length]));
    emit(id++, locale, true, parts);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
