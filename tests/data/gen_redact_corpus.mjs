// Generates the labeled redaction corpus: chat-shaped messages with PII spans labeled, plus
// benign messages full of hard negatives (UUIDs, SHAs, versions, order numbers, Luhn-failing
// card-like numbers, code that names passwords without containing one).
//
// Deterministic: faker and our own PRNG are seeded and faker's reference date is fixed, so
// re-running writes the same file.
//   node tests/data/gen_redact_corpus.mjs  > tests/data/redact_corpus.jsonl
//
// Each line: {"id", "locale", "benign", "text", "spans": [{"type", "start", "end", "value"}]}
// with start/end as UTF-8 byte offsets (what the Rust test indexes).
import { createHash } from 'node:crypto';
import {
  fakerEN_US, fakerEN_GB, fakerDE, fakerFR, fakerES, fakerIT, fakerPT_BR, fakerNL,
} from '@faker-js/faker';

const LOCALES = { en_US: fakerEN_US, en_GB: fakerEN_GB, de: fakerDE, fr: fakerFR, es: fakerES, it: fakerIT, pt_BR: fakerPT_BR, nl: fakerNL };
const N_PII = Number(process.env.N_PII ?? 4000);
const N_BENIGN = Number(process.env.N_BENIGN ?? 5000);
// Log excerpts and tables pasted into a chat, after the messages above: mostly benign numbers
// (timestamps, status codes, sizes, counts, coordinates), some with PII in them.
const N_LOGS = Number(process.env.N_LOGS ?? 1000);

// A small seeded PRNG for our own choices (mulberry32).
let seed = 0x5eed1234;
function rand() {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';

// ---- generators for formats faker does not produce with valid checksums ----
function luhnDigit(body) {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}
const sha256 = (b) => createHash('sha256').update(b).digest();
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(buf) {
  let n = BigInt('0x' + (buf.toString('hex') || '0'));
  let s = '';
  while (n > 0n) { s = B58[Number(n % 58n)] + s; n /= 58n; }
  for (const b of buf) { if (b === 0) s = '1' + s; else break; }
  return s;
}
function btcLegacy() {
  const payload = Buffer.concat([Buffer.from([pick([0x00, 0x05])]), Buffer.from(Array.from({ length: 20 }, () => int(0, 255)))]);
  const check = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, check]));
}
const BECH = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function polymod(values) {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ GEN[i]) >>> 0;
  }
  return chk;
}
function btcBech32() {
  const hrp = 'bc';
  const prog = Array.from({ length: 20 }, () => int(0, 255));
  const data = [0];
  let acc = 0, bits = 0;
  for (const b of prog) { acc = (acc << 8) | b; bits += 8; while (bits >= 5) { bits -= 5; data.push((acc >> bits) & 31); } }
  if (bits) data.push((acc << (5 - bits)) & 31);
  const exp = [...hrp].map((c) => c.charCodeAt(0) >> 5).concat([0], [...hrp].map((c) => c.charCodeAt(0) & 31));
  const pm = polymod(exp.concat(data, [0, 0, 0, 0, 0, 0])) ^ 1;
  const check = Array.from({ length: 6 }, (_, i) => (pm >>> (5 * (5 - i))) & 31);
  return hrp + '1' + data.concat(check).map((v) => BECH[v]).join('');
}
function crc32(str) {
  let c = 0xffffffff;
  for (let i = 0; i < str.length; i++) {
    c ^= str.charCodeAt(i);
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
function githubToken() {
  const random = chars(ALNUM, 30);
  let v = crc32(random), check = '';
  const A = DIGITS + UPPER + LOWER;
  for (let i = 0; i < 6; i++) { check = A[v % 62] + check; v = Math.floor(v / 62); }
  return pick(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']) + random + check;
}
function ssn() {
  let area; do { area = int(1, 899); } while (area === 666);
  const s = [String(area).padStart(3, '0'), String(int(1, 99)).padStart(2, '0'), String(int(1, 9999)).padStart(4, '0')];
  return s;
}
function cardNumber(f) {
  const issuer = pick(['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners_club']);
  let n = f.finance.creditCardNumber(issuer);
  const digits = n.replace(/\D/g, '');
  const r = rand();
  if (r < 0.3) return digits;
  if (r < 0.5 && digits.length === 16) return digits.match(/.{4}/g).join(' ');
  return n;
}
function pem() {
  const kind = pick(['RSA ', 'EC ', 'OPENSSH ', '', 'ENCRYPTED ']);
  const lines = Array.from({ length: int(2, 6) }, () => chars(B64, 64));
  return `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n${chars(B64, 20)}==\n-----END ${kind}PRIVATE KEY-----`;
}
function apiKey() {
  switch (int(0, 9)) {
    case 0: return 'AKIA' + chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16);
    case 1: return githubToken();
    case 2: return 'github_pat_' + chars(ALNUM, 22) + '_' + chars(ALNUM, 59);
    case 3: return 'sk-proj-' + chars(B64URL, 74) + 'T3BlbkFJ' + chars(B64URL, 74);
    case 4: return 'sk-ant-api03-' + chars(B64URL, 93) + 'AA';
    case 5: return 'AIza' + chars(B64URL, 35);
    case 6: return 'hf_' + chars(UPPER + LOWER, 34);
    case 7: return 'xoxb-' + chars(DIGITS, 12) + '-' + chars(DIGITS, 13) + '-' + chars(ALNUM, 24);
    case 8: return pick(['sk_live_', 'sk_test_', 'rk_live_']) + chars(ALNUM, 24 + int(0, 75));
    default: return 'sk-' + chars(ALNUM, 48);
  }
}
function password(f) {
  return pick([
    () => f.internet.password({ length: int(10, 20) }),
    () => f.word.noun().replace(/\s+/g, '') + int(10, 9999) + pick(['!', '#', '$', '']),
    () => chars(ALNUM, int(12, 32)),
  ])();
}
const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
function birthDate(f) {
  const d = f.date.birthdate({ mode: 'age', min: 18, max: 90 });
  const y = d.getUTCFullYear(), m = d.getUTCMonth() + 1, day = d.getUTCDate();
  const p = (x) => String(x).padStart(2, '0');
  return pick([
    `${y}-${p(m)}-${p(day)}`, `${p(m)}/${p(day)}/${y}`, `${p(day)}.${p(m)}.${y}`, `${day}/${m}/${y}`,
    `${MONTHS_EN[m - 1]} ${day}, ${y}`, `${day} ${MONTHS_EN[m - 1]} ${y}`,
  ]);
}

// ---- message assembly: parts are strings or [type, value] ----
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

// Snippets of a PII message. Each returns a list of parts.
function piiSnippet(f, locale) {
  const name = () => f.person.fullName();
  const first = () => f.person.firstName();
  const email = () => ['EMAIL', f.internet.email()];
  const phone = () => ['PHONE', f.phone.number({ style: pick(['human', 'national', 'international']) })];
  const T = [
    () => ['Hi, my name is ', ['PERSON', name()], ' and my email is ', email(), '.'],
    () => ['You can reach me at ', email(), ' or call ', phone(), ' after 5pm.'],
    () => ['Phone: ', phone(), '\nEmail: ', email()],
    () => ['My number is ', phone(), ', text me if the delivery is late.'],
    () => ['Please charge my card ', ['CREDIT_CARD', cardNumber(f)], ' for order #', String(int(10000, 99999)), '.'],
    () => ['card: ', ['CREDIT_CARD', cardNumber(f)], ' exp ', `${String(int(1, 12)).padStart(2, '0')}/${int(26, 31)}`],
    () => ['Wire it to IBAN ', ['IBAN', f.finance.iban(rand() < 0.5)], ' please.'],
    () => ['My SSN is ', ['US_SSN', ssn().join(pick(['-', '-', ' ']))], ', do you need anything else?'],
    () => ['ssn ', ['US_SSN', ssn().join('')], ' on the form'],
    () => ['the server at ', ['IP_ADDRESS', f.internet.ipv4()], ' keeps rejecting my login'],
    () => ['client ip=', ['IP_ADDRESS', f.internet.ipv4()], ' status=403 path=/api/v1/orders'],
    () => ['my IPv6 is ', ['IP_ADDRESS', f.internet.ipv6()], ', is that blocked?'],
    () => ['device MAC ', ['MAC_ADDRESS', f.internet.mac(pick([':', '-']))], ' shows offline'],
    () => ['```\nDATABASE_URL=', ['URL', `postgres://${f.internet.username().replace(/[^A-Za-z0-9_]/g, '')}:${chars(ALNUM, 16)}@${f.internet.domainName()}:5432/app`], '\n```'],
    () => ['this link works: ', ['URL', `https://${f.internet.domainName()}/download?file=report.pdf&token=${chars(ALNUM, 32)}`], ' but expires'],
    () => ['open ', ['URL', `https://${f.internet.username().replace(/[^A-Za-z0-9_]/g, '')}:${chars(ALNUM, 12)}@${f.internet.domainName()}/admin`], ' to see it'],
    () => ['send the BTC to ', ['CRYPTO', rand() < 0.5 ? btcLegacy() : btcBech32()], ' today'],
    () => ['my ETH wallet is ', ['CRYPTO', f.finance.ethereumAddress()]],
    () => ['here is my key ', ['API_KEY', apiKey()], ' does it have the right scopes?'],
    () => ['```bash\nexport API_KEY=', ['API_KEY', apiKey()], '\ncurl -H "Authorization: Bearer $API_KEY" https://api.example.com\n```'],
    () => ['Authorization: Bearer ', ['JWT', f.internet.jwt()], '\nreturns 401, why?'],
    () => ['```\n', ['PRIVATE_KEY', pem()], '\n```\nis this key format right?'],
    () => ['.env:\n```\nNODE_ENV=production\nDB_PASSWORD=', ['PASSWORD', password(f)], '\nPORT=8080\n```'],
    () => ['config.json has "password": "', ['PASSWORD', password(f)], '" in it'],
    () => ['my wifi password is ', ['PASSWORD', password(f)], ' but it fails'],
    () => ['I was born on ', ['DATE_OF_BIRTH', birthDate(f)], ', so am I eligible?'],
    () => ['DOB: ', ['DATE_OF_BIRTH', birthDate(f)]],
    () => ['Dear ', ['PERSON', name()], ',\nthanks for the update.'],
    () => ['Thanks for your help!\n\nBest regards,\n', ['PERSON', name()]],
    () => ['I talked to ', ['PERSON', name()], ' yesterday about the refund.'],
    () => ['Can you ask ', ['PERSON', first()], ' to review the PR?'],
    () => [['PERSON', name()], ' from accounting says the invoice is wrong.'],
    () => ['Hello ', ['PERSON', first()], ', can you check this?'],
    () => ['I live at ', ['ADDRESS', f.location.streetAddress(rand() < 0.5)], ', ', f.location.city(), '.'],
    () => ['Ship it to ', ['ADDRESS', f.location.streetAddress(rand() < 0.5)], ' please'],
    () => ['address: ', ['ADDRESS', f.location.streetAddress(true)], ', ', f.location.zipCode(), ' ', f.location.city()],
  ];
  return pick(T)();
}

// ---- log lines and table rows ----
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n, w = 2) => String(n).padStart(w, '0');
const hms = () => `${pad(int(0, 23))}:${pad(int(0, 59))}:${pad(int(0, 59))}`;
const ymd = () => `20${int(18, 26)}-${pad(int(1, 12))}-${pad(int(1, 28))}`;
const thousands = () => `${int(1, 999)} ${pad(int(0, 999), 3)} ${pad(int(0, 999), 3)}`;
const STATUS = [200, 200, 200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 500, 502, 503];
const VERB = ['GET', 'GET', 'POST', 'PUT', 'DELETE'];

function requestLine(f) {
  return `"${pick(VERB)} /${f.word.noun()}/${int(1, 99999)} HTTP/1.1" ${pick(STATUS)} ${int(0, 999999)}`;
}

// A benign log or table line.
function logLine(f) {
  const T = [
    () => `[${pad(int(1, 28))}/${pick(MON)}/20${int(18, 26)}:${hms()} +0000] ${requestLine(f)} "-" "curl/${int(7, 8)}.${int(0, 88)}.${int(0, 9)}"`,
    () => `[${ymd()} ${hms()}] ${requestLine(f)} ${int(1, 999)}ms`,
    () => `${pick(MON)} ${int(1, 28)} ${hms()} web-${pad(int(1, 20))} ${pick(['nginx', 'sshd', 'kernel', 'systemd', 'cron'])}[${int(100, 65000)}]: ${f.hacker.phrase()}`,
    () => `${ymd()}T${hms()}.${int(100, 999)}Z ${pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} [${f.hacker.noun()}] took ${int(1, 5000)} ms, ${int(1, 999)} rows`,
    () => `${ymd()},${hms()},${pick(STATUS)},${int(100, 99999)},${int(0, 9)}.${int(100, 999)}`,
    () => `| ${ymd()} | ${thousands()} | ${int(0, 99)}.${int(0, 9)}% |`,
    () => `| ${f.word.noun()} | ${int(1, 999)} ${int(1000, 9999)} | ${int(1, 99)} ${pad(int(0, 999), 3)} |`,
    () => `Total: ${thousands()} bytes in ${int(1, 9999)} files`,
    () => `${thousands()} ${pick(['events', 'requests', 'rows', 'records', 'tokens'])} processed, ${int(1, 99)} ${pad(int(0, 999), 3)} errors`,
    () => `location ${int(-89, 89)}.${int(100000, 999999)}, ${int(-179, 179)}.${int(100000, 999999)}`,
    () => `    at ${f.hacker.noun()}.${f.hacker.verb()} (/app/src/${f.system.commonFileName('js')}:${int(1, 999)}:${int(1, 99)})`,
    () => `  File "/app/${f.system.commonFileName('py')}", line ${int(1, 2000)}, in ${f.hacker.verb()}`,
    () => `pod/${f.hacker.noun()}-${chars(LOWER + DIGITS, 9)}-${chars(LOWER + DIGITS, 5)}   1/1   Running   ${int(0, 9)}   ${int(1, 30)}d${int(1, 23)}h`,
    () => `pid ${int(100, 65000)} rss ${int(1000, 999999)} kB vsz ${int(1000, 9999999)} kB cpu ${int(0, 99)}.${int(0, 9)}%`,
    () => `segfault at ${chars('0123456789abcdef', 12)} ip ${chars('0123456789abcdef', 16)} sp ${chars('0123456789abcdef', 16)} error ${int(4, 7)}`,
    () => `${pick(['RX', 'TX'])} packets ${int(1000, 99999999)} bytes ${int(1000, 999999999)} (${int(1, 999)}.${int(0, 9)} MB) dropped ${int(0, 999)}`,
    () => `latency p50 ${int(1, 99)} ms p95 ${int(100, 999)} ms p99 ${int(1000, 9999)} ms over ${int(1000, 99999)} requests`,
    () => `Build ${int(100, 999)} ${int(1000, 9999)} finished in ${int(1, 59)}m ${int(1, 59)}s`,
    () => `${f.system.semver()} build ${ymd().replaceAll('-', '')}.${int(1, 9)} (${f.git.commitSha({ length: 7 })})`,
    () => `ticket ${pick(['JIRA', 'OPS', 'SUP'])}-${int(100, 9999)} opened ${ymd()} ${hms()} UTC`,
    () => `{"ts":"${ymd()}T${hms()}Z","level":"info","duration_ms":${int(1, 9999)},"bytes":${int(1000, 99999999)},"trace_id":"${chars('0123456789abcdef', 32)}"}`,
    () => `Invoice total ${int(1, 99)} ${pad(int(0, 999), 3)},${pad(int(0, 99))} EUR due ${ymd()}, ref ${int(1000, 9999)}-${int(1000, 9999)}-${pad(int(0, 99))}`,
    () => `commit ${f.git.commitSha()}\nDate:   ${pick(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])}, ${int(1, 28)} ${pick(MON)} 20${int(18, 26)} ${hms()} GMT`,
  ];
  return pick(T)();
}

// A log line with personal data in it, labeled.
function piiLogLine(f) {
  const T = [
    () => [`[${ymd()} ${hms()}] login ok user=`, ['EMAIL', f.internet.email()], ` from `, ['IP_ADDRESS', f.internet.ipv4()]],
    () => [['IP_ADDRESS', f.internet.ipv4()], ` - - [${pad(int(1, 28))}/${pick(MON)}/20${int(18, 26)}:${hms()} +0000] ${requestLine(f)}`],
    () => [`${ymd()}T${hms()}Z WARN sms to `, ['PHONE', f.phone.number({ style: 'international' })], ` failed: ${pick(STATUS)}`],
    () => [`| ${ymd()} | `, ['EMAIL', f.internet.email()], ` | ${thousands()} |`],
  ];
  return pick(T)();
}

function logMessage(f, benign) {
  const parts = [pick(['Here is the log:\n```\n', 'Any idea what this means?\n\n', '```\n', ''])];
  const n = int(2, 6);
  const pii = benign ? -1 : int(0, n - 1);
  for (let i = 0; i < n; i++) {
    if (i > 0) parts.push('\n');
    if (i === pii) parts.push(...piiLogLine(f));
    else parts.push(logLine(f));
  }
  if (parts[0].includes('```')) parts.push('\n```');
  return assemble(parts);
}

// Benign snippets: realistic chat and dev content with hard negatives and no personal data.
function benignSnippet(f) {
  const T = [
    () => f.hacker.phrase(),
    () => f.lorem.sentences(int(1, 3)),
    () => `Can you explain ${f.hacker.noun()} vs ${f.hacker.noun()} in simple terms?`,
    () => `request id ${f.string.uuid()} failed after ${int(100, 9999)}ms`,
    () => `commit ${f.git.commitSha()} broke the build; revert to ${f.git.commitSha({ length: 7 })}?`,
    () => `upgrade from ${f.system.semver()} to ${f.system.semver()} (node ${int(14, 22)}.${int(0, 20)}.${int(0, 9)})`,
    () => `Windows build 10.0.${int(10000, 22631)}.${int(1, 4000)} and Chrome ${int(100, 130)}.0.${int(1000, 6999)}.${int(10, 199)}`,
    () => `order #${int(100000, 999999)} shipped, tracking ${chars(UPPER, 2)}${int(100000000, 999999999)}${chars(UPPER, 2)}`,
    () => `Order ORD-${int(2019, 2025)}-${int(10000, 99999)} total $${int(1, 9)},${int(100, 999)}.${int(10, 99)}`,
    () => { // card-like numbers that fail Luhn
      const body = '4' + chars(DIGITS, 14);
      const bad = String((Number(luhnDigit(body)) + int(1, 9)) % 10);
      return `test number ${(body + bad).match(/.{4}/g).join(' ')} got declined (expected, it is invalid)`;
    },
    () => `the public key is fine, the public API is ${pick(['up', 'down', 'slow'])}; make the field public`,
    () => '```ts\ninterface Login {\n  username: string;\n  password: string;\n  token?: string;\n}\n```',
    () => '```python\npassword = getpass.getpass()\ntoken = os.environ["API_TOKEN"]\nsecret_key = settings.SECRET_KEY\n```',
    () => '```js\nconst token = await getToken();\nconst apiKey = process.env.API_KEY;\n```',
    () => `[${f.date.recent().toISOString()}] INFO worker-${int(1, 9)} processed ${int(1, 5000)} jobs in ${int(1, 999)}ms`,
    () => `meeting moved to ${int(1, 12)}/${int(1, 28)}/2025 at ${int(1, 12)}:${pick(['00', '15', '30', '45'])}`,
    () => `ISBN ${pick(['978', '979'])}-${int(0, 9)}-${int(10, 99)}-${int(100000, 999999)}-${int(0, 9)} is the 2nd edition`,
    () => `listening on localhost:${int(1024, 65535)}, color #${chars('0123456789abcdef', 6)}`,
    () => `std::collections::HashMap and fs::read_to_string; the ratio is 16:9, time 12:30:45`,
    () => `It costs €${int(10, 999)},${int(10, 99)} or ${int(1, 99)} 000 units; ${int(1, 99)}% off`,
    () => `See section ${int(1, 9)}.${int(1, 9)}.${int(1, 9)} and RFC ${int(1000, 9999)}; error code 0x${chars('0123456789ABCDEF', 8)}`,
    () => `Invoice INV-${int(100000, 999999)}, PO ${int(1000000, 9999999)}, SKU ${chars(UPPER, 3)}-${int(1000, 9999)}`,
    () => `docker run -p ${int(3000, 9000)}:${int(3000, 9000)} ${f.hacker.noun()}:${f.system.semver()}`,
    () => `SELECT * FROM users WHERE created_at > '2024-0${int(1, 9)}-1${int(0, 9)}' LIMIT ${int(10, 500)};`,
    () => `The ${f.word.adjective()} ${f.word.noun()} in chapter ${int(1, 30)} is about ${f.word.noun()}.`,
  ];
  return pick(T)();
}

function message(f, locale, benign) {
  const parts = [];
  const n = int(1, 3);
  for (let i = 0; i < n; i++) {
    if (i > 0) parts.push(pick(['\n\n', ' ', '\nUser: ', '\nAssistant: ']));
    if (benign || rand() < 0.35) parts.push(benignSnippet(f));
    else parts.push(...piiSnippet(f, locale));
  }
  if (!benign && !parts.some((p) => Array.isArray(p))) parts.push(' ', ...piiSnippet(f, locale));
  return assemble(parts);
}

let id = 0;
const localeNames = Object.keys(LOCALES);
// Faker's dates (birth dates, recent timestamps) count back from a reference date, which is
// today unless set: pinned, so the file does not change from one day to the next.
const REF_DATE = '2026-11-29T17:00:00Z';
for (const [i, name] of localeNames.entries()) {
  LOCALES[name].seed(1000 + i);
  LOCALES[name].setDefaultRefDate(REF_DATE);
}
for (let i = 0; i < N_PII + N_BENIGN; i++) {
  const benign = i >= N_PII;
  const locale = localeNames[i % localeNames.length];
  const { text, spans } = message(LOCALES[locale], locale, benign);
  process.stdout.write(JSON.stringify({ id: id++, locale, benign, text, spans }) + '\n');
}
// Seeded afresh, so the messages above do not change when this section does.
seed = 0x10651065;
LOCALES.en_US.seed(2000);
for (let i = 0; i < N_LOGS; i++) {
  const benign = rand() < 0.7;
  const { text, spans } = logMessage(LOCALES.en_US, benign);
  process.stdout.write(JSON.stringify({ id: id++, locale: 'en_US', benign, text, spans }) + '\n');
}
