// The synthetic long chats of the recall benchmarks: facts planted among small talk, some
// corrected later, with a probe per fact that shares a word with it (`ask`) and one that
// shares none (`para`). This file holds the set the retrieval defaults were tuned on; the
// held-out set (other templates, words and fillers) is in recall-heldout.mjs.
import { rng } from "./recall-common.mjs";

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const word = (r) => Array.from({ length: 3 }, () => pick(r, ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "bex", "dor"])).join("");

// Each fact: how it is said, how it is corrected, how it is asked about, and its values.
export const FACTS = [
  { say: (v) => `My favorite color is ${v}.`, fix: (v) => `Actually, my favorite color is ${v} now.`, ask: "What is my favorite color?", para: "Which hue do I like best?", values: ["teal", "crimson", "ochre", "lilac", "chartreuse", "magenta", "indigo", "saffron"] },
  { say: (v) => `My dog's name is ${v}.`, fix: (v) => `Actually, my dog's name is ${v} now, we renamed him.`, ask: "What is my dog's name?", para: "What do I call my puppy?", values: ["Biscuit", "Pepper", "Rocket", "Noodle", "Waffles", "Ziggy", "Mango", "Pickles"] },
  { say: (v) => `I work at ${v} as an engineer.`, fix: (v) => `Update: I work at ${v} now.`, ask: "Where do I work these days?", para: "Which company employs me?", values: ["Zentrix", "Orbitly", "Quantafy", "Bluepine", "Nimbusco", "Vantrel", "Cobaltix", "Meridio"] },
  { say: (v) => `My sister lives in ${v}.`, fix: (v) => `Actually, my sister lives in ${v} now.`, ask: "Where does my sister live?", para: "In which city is my sibling based?", values: ["Reykjavik", "Valparaiso", "Tbilisi", "Ljubljana", "Montevideo", "Windhoek", "Tallinn", "Hobart"] },
  { say: (v) => `The wifi password is ${v}.`, fix: (v) => `Actually, the wifi password is ${v} now.`, ask: "What's the wifi password again?", para: "What's the network key for the internet here?", values: null },
  { say: (v) => `My locker number is ${v}.`, fix: (v) => `Actually, my locker number is ${v} now.`, ask: "What is my locker number?", para: "Which cubby is mine at the pool?", values: "number" },
  { say: (v) => `My doctor's name is Dr. ${v}.`, fix: (v) => `Actually, my doctor's name is Dr. ${v} now.`, ask: "What is my doctor's name?", para: "Who is my physician?", values: ["Okonkwo", "Lindqvist", "Yamamoto", "Castellanos", "Brennan", "Abernathy", "Petrov", "Haddad"] },
  { say: (v) => `My car is a ${v}.`, fix: (v) => `Actually, my car is a ${v} now, I traded in the old one.`, ask: "What car do I have?", para: "What vehicle do I drive?", values: ["Volvo XC40", "Mazda MX-5", "Kia EV6", "Subaru Outback", "Skoda Octavia", "Fiat Panda", "Tesla Model 3", "Honda Civic"] },
  { say: (v) => `My favorite food is ${v}.`, fix: (v) => `Actually, my favorite food is ${v} now.`, ask: "What is my favorite food?", para: "Which dish do I love most?", values: ["ramen", "paella", "pierogi", "falafel", "bibimbap", "moussaka", "ceviche", "goulash"] },
  { say: (v) => `My gym class is on ${v}.`, fix: (v) => `Actually, my gym class is on ${v} now.`, ask: "When is my gym class?", para: "What day do I exercise?", values: ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"] },
];

// Distractors: small talk that reuses the facts' words without their values.
export const FILLER = [
  "I repainted the hallway, the color turned out lighter than the sample.",
  "We walked past the dog park and it was packed this morning.",
  "Work has been hectic, three deadlines in one week.",
  "My neighbor says the wifi in the building drops every evening.",
  "I keep forgetting which locker I used at the pool.",
  "The doctor's office called to move a routine checkup.",
  "Traffic was terrible, the car in front of me stalled twice.",
  "Trying a new recipe tonight, hoping the food turns out fine.",
  "The gym was closed for cleaning so I went running instead.",
  "Can you suggest a good book about the history of maps?",
  "What is a quick way to learn basic Spanish phrases?",
  "I need ideas for a birthday present for a coworker.",
  "How do I keep basil alive on a windowsill?",
  "Explain the difference between a virus and a bacterium.",
  "Any tips for sleeping better when it is hot?",
  "What should I pack for a weekend hiking trip?",
  "Is it better to rent or buy a bicycle for commuting?",
  "How long should I boil an egg for a soft yolk?",
  "My sister called about the holidays, nothing decided yet.",
  "Recommend a podcast about science for the commute.",
];
export const REPLIES = [
  "Good question. Start small, keep it consistent, and adjust as you learn what works for you.",
  "That sounds frustrating. A short plan for each day usually helps more than one big push.",
  "Here is a simple approach: list the options, compare the costs, and pick the one you can keep up.",
  "Many people find that a little preparation the night before makes the morning much easier.",
  "It depends on your situation, but the common advice is to try it for two weeks and then decide.",
  "Sure. The short version: it is mostly about timing, and a bit about practice.",
];

/** A chat of `n` messages from `set` ({ FACTS, FILLER, REPLIES }; the tuning set by default). */
export function makeChat(n, seed, set = { FACTS, FILLER, REPLIES }) {
  const { FACTS, FILLER, REPLIES } = set;
  const r = rng(seed);
  const k = n < 100 ? 6 : 10;
  const facts = [...FACTS].sort(() => r() - 0.5).slice(0, k).map((f) => {
    const pool = f.values === null ? Array.from({ length: 8 }, () => word(r)) : f.values === "number" ? Array.from({ length: 8 }, () => String(100 + Math.floor(r() * 9000))) : f.values;
    const vals = [...pool].sort(() => r() - 0.5);
    return { ...f, first: vals[0], second: vals[1], corrected: r() < 0.4 };
  });
  const messages = [];
  for (let i = 0; i < n; i += 2) {
    messages.push({ role: "user", content: pick(r, FILLER) + " " + pick(r, FILLER) });
    messages.push({ role: "assistant", content: pick(r, REPLIES) });
  }
  // Facts land in the first 80 %, corrections after their fact (before the last 10 %).
  const userSlots = (from, to) => {
    const a = Math.floor((from * n) / 2) * 2, b = Math.max(a + 2, Math.floor((to * n) / 2) * 2);
    return a + 2 * Math.floor((r() * (b - a)) / 2);
  };
  const used = new Set();
  const place = (from, to, text) => {
    let at;
    do at = userSlots(from, to); while (used.has(at) && used.size < n / 2);
    used.add(at);
    messages[at] = { role: "user", content: text, planted: true };
    messages[at + 1] = { role: "assistant", content: "Got it, I'll keep that in mind." };
    return at;
  };
  for (const f of facts) {
    f.at = place(0, 0.8, f.say(f.first));
    if (f.corrected) {
      const lo = f.at / n + 0.01;
      f.fixAt = place(Math.min(lo, 0.85), 0.9, f.fix(f.second));
    }
  }
  let t = Date.UTC(2025, 0, 1);
  for (const m of messages) {
    t += (1 + Math.floor(r() * 60)) * 60_000;
    m.timestamp = t;
  }
  return { messages, facts };
}

