// The offline demo model: a deterministic stand-in for an LLM, so the demo works with no key
// and no network. It is NOT a language model. It reads the facts the user stated in the
// context it was sent ("my name is Riley", "I live in Lisbon", "my email is [EMAIL_1]") and
// answers questions about them, so you can watch memory work: a fact that fell out of the
// context is a fact it cannot answer. It also writes summaries (keeping the facts), answers the
// memory's fact extraction with the facts the user stated, and calls a memory tool when tools
// are offered and the user says "remember ...".

const STOP = String.raw`(?=[,;!?\n]|\.(?:\s|$)|\s+and\s+|\s+but\s+|$)`;
const VALUE = String.raw`(.+?)${STOP}`;

// First-person statements (user turns, pinned facts) and the third-person form that the
// offline summaries write, so facts survive a round trip through a summary.
const PATTERNS = [
  [new RegExp(String.raw`\bmy name is ${VALUE}`, "gi"), () => "name"],
  // "Call me at 415 555 0199 tomorrow" gives a number, not a name.
  [new RegExp(String.raw`\b(?:call me|I'm called) (?!(?:at|on|in|back|later|tomorrow|tonight|today|when|if|now|anytime|please|after|before)\b|\+?\d)${VALUE}`, "gi"), () => "name"],
  [new RegExp(String.raw`\bthe user(?:'s| is) (?:called|named) ${VALUE}`, "gi"), () => "name"],
  [new RegExp(String.raw`\bI live in ${VALUE}`, "gi"), () => "home"],
  [new RegExp(String.raw`\bI(?:'ve| have)? (?:just |recently )?moved to ${VALUE}`, "gi"), () => "home"],
  [new RegExp(String.raw`\bthe user lives in ${VALUE}`, "gi"), () => "home"],
  [new RegExp(String.raw`\bI work (?:at|for) ${VALUE}`, "gi"), () => "work"],
  [new RegExp(String.raw`\bthe user works (?:at|for) ${VALUE}`, "gi"), () => "work"],
  [new RegExp(String.raw`\b(?:my|the user's) ([a-z][a-z -]{1,30}?) (?:is|are) ${VALUE}`, "gi"), (m) => m[1]],
];

const SYNONYMS = {
  "email address": "email", "e-mail": "email", "mail": "email",
  "phone number": "phone", "number": "phone", "mobile": "phone", "telephone": "phone", "cell": "phone",
  "card number": "card", "credit card": "card", "credit card number": "card",
  "favourite color": "favorite color", "favourite colour": "favorite color", "favorite colour": "favorite color",
  "full name": "name", "first name": "name",
};

function canonicalKey(key) {
  const k = key.toLowerCase().trim().replace(/\s+/g, " ");
  return SYNONYMS[k] ?? k;
}

/** Facts stated in `text`, in order of appearance: `[{ key, value }]`. */
export function extractFacts(text) {
  const found = [];
  for (const [re, keyOf] of PATTERNS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const value = m[m.length - 1].trim().replace(/^["']|["']$/g, "");
      if (!value || value.length > 80) continue;
      const key = canonicalKey(keyOf(m));
      if (key === "name" && /^(not|no|a|an|the)\b/i.test(value)) continue;
      found.push({ key, value, at: m.index });
    }
  }
  // A generic "my X is Y" match overlaps with the specific ones ("my name is"); keep one per key.
  found.sort((a, b) => a.at - b.at);
  return found.map(({ key, value }) => ({ key, value }));
}

/** Facts from the messages a user (or the memory) stated: later statements win. */
function factsOf(messages) {
  const facts = new Map();
  for (const m of messages) {
    if (m.role === "assistant" || typeof m.content !== "string") continue;
    for (const f of extractFacts(m.content)) facts.set(f.key, f.value);
  }
  return facts;
}

const secondPerson = (key, value) =>
  key === "home" ? `you live in **${value}**`
    : key === "work" ? `you work at **${value}**`
      : `your ${key} is **${value}**`;
const thirdPerson = (key, value) =>
  key === "home" ? `The user lives in ${value}.`
    : key === "work" ? `The user works at ${value}.`
      : `The user's ${key} is ${value}.`;

/** Which fact a question asks about, or "*" for "what do you know about me?". */
function questionKey(q) {
  const s = q.toLowerCase().trim();
  if (!/\?$/.test(s) && !/^(what|where|who|which|do you|can you|tell me|remind me)\b/.test(s)) return null;
  if (/what do you (know|remember)|what have i told you|tell me about me|everything about me/.test(s)) return "*";
  if (/\bwho am i\b|\bmy name\b|\bwhat am i called\b/.test(s)) return "name";
  if (/\bwhere do i live\b|\bwhere am i from\b|\bmy (home|city)\b/.test(s)) return "home";
  if (/\bwhere do i work\b|\bwho do i work for\b/.test(s)) return "work";
  const m = s.match(/\b(?:what(?:'s| is| are)|do you know|tell me|remind me of|which is)\s+my ([a-z][a-z -]{1,30}?)\s*(?:\?|$|\bagain\b)/);
  if (m) return canonicalKey(m[1]);
  const m2 = s.match(/\bmy ([a-z][a-z -]{1,30}?)\s*\?\s*$/);
  return m2 ? canonicalKey(m2[1]) : null;
}

function summaryOf(prompt) {
  // Facts from the previous summary and the user's lines; the assistant's lines are dropped.
  const kept = prompt.split("\n").filter((l) => !/^Assistant:/.test(l)).join("\n");
  const facts = factsOf([{ role: "user", content: kept }]);
  const lines = (prompt.split("New lines of conversation:")[1] ?? prompt).split("\n").filter((l) => /^\S[^:]{0,40}:/.test(l));
  const body = [...facts].map(([k, v]) => thirdPerson(k, v)).join(" ");
  return `${body || "No personal facts so far."} (Offline summary; ${lines.length} more lines folded in, small talk dropped.)`;
}

/**
 * The answer to the memory's fact extraction prompt: `{ facts: [{ op, id?, text }] }` for the
 * facts the new user turns state, added, or updating the current fact (listed as `[id] text`)
 * about the same thing.
 */
function extractionOf(prompt) {
  const [, current = "", turns = ""] = prompt.match(/\nCurrent facts:\n([\s\S]*?)\n\nNew turns:\n([\s\S]*)$/) ?? [];
  const known = new Map(); // key -> { id, value }
  for (const [, id, text] of current.matchAll(/^\[([^\]\n]+)\] (.*)$/gm)) {
    for (const f of extractFacts(text)) known.set(f.key, { id, value: f.value });
  }
  // Turns are "role: text" and a text may span lines: split where the next role begins.
  const said = turns.split(/\n(?=(?:user|assistant|tool|system): )/)
    .filter((t) => t.startsWith("user: ")).map((t) => ({ role: "user", content: t.slice(6) }));
  const facts = [];
  for (const [key, value] of factsOf(said)) {
    const text = thirdPerson(key, value).replace(/\.$/, "");
    const old = known.get(key);
    if (!old) facts.push({ op: "add", text });
    else if (old.value !== value) facts.push({ op: "update", id: old.id, text });
  }
  return { facts };
}

/** The memory tool to call for "remember ...": a tool whose name says remember/save/store. */
function rememberCall(tools, q) {
  const m = q.match(/\bremember(?: that)?[:,]?\s+(.+)$/is);
  if (!m || !Array.isArray(tools)) return null;
  const names = (t) => t?.function?.name ?? "";
  const tool = tools.find((t) => /remember|save|store/i.test(names(t))) ??
    tools.find((t) => /memor/i.test(names(t)) && !/recall|list|forget|search|delete/i.test(names(t)));
  if (!tool) return null;
  const params = tool.function.parameters ?? {};
  const props = Object.entries(params.properties ?? {});
  const required = params.required ?? [];
  const stringProp = props.find(([k, p]) => p?.type === "string" && required.includes(k)) ??
    props.find(([, p]) => p?.type === "string");
  const text = m[1].trim().replace(/[.!]+$/, "");
  const args = { [stringProp ? stringProp[0] : "text"]: text };
  return { name: tool.function.name, arguments: JSON.stringify(args) };
}

/**
 * The offline model's answer to a chat-completions request body: `{ content }` or
 * `{ toolCall: { name, arguments } }`.
 */
export function respond(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const text = (m) => (typeof m?.content === "string" ? m.content : "");
  if (!last) return { content: "I was sent no messages at all." };

  if (last.role === "tool") {
    return { content: `Saved. The memory tool answered: ${text(last).slice(0, 200)}` };
  }
  // The memory's own requests: a system message and one prompt.
  if (messages.length <= 2 && /^You keep a list of facts about the user/.test(text(last))) {
    return { content: JSON.stringify(extractionOf(text(last))) };
  }
  // The summarizer's request: one prompt holding the conversation to fold.
  if (messages.length <= 2 && /summari[sz]e/i.test(text(last)) && /conversation/i.test(text(last))) {
    return { content: summaryOf(text(last)) };
  }
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const q = text(lastUser).trim();
  if (!q) return { content: "I see no question from you in what I was sent." };

  const echo = q.match(/^echo:\s?([\s\S]*)$/i);
  if (echo) return { content: echo[1] };

  const call = body.tools ? rememberCall(body.tools, q) : null;
  if (call) return { toolCall: call };

  const before = messages.slice(0, messages.lastIndexOf(lastUser));
  const known = factsOf(before);
  const key = questionKey(q);
  if (key === "*") {
    if (known.size === 0) return { content: `I see no facts about you in the ${messages.length} messages I was sent.` };
    return { content: "From the context I was sent:\n\n" + [...known].map(([k, v]) => `- ${secondPerson(k, v)}`).join("\n") };
  }
  if (key) {
    if (known.has(key)) return { content: `You told me ${secondPerson(key, known.get(key))}.` };
    return {
      content: `I don't see ${key === "home" ? "where you live" : key === "work" ? "where you work" : `your ${key}`} ` +
        `anywhere in the ${messages.length} message${messages.length === 1 ? "" : "s"} I was sent. ` +
        "If you told me, it is no longer in my context.",
    };
  }
  const stated = extractFacts(q);
  if (stated.length) {
    const unique = new Map(stated.map((f) => [f.key, f.value]));
    return { content: `Got it: ${[...unique].map(([k, v]) => secondPerson(k, v)).join(", ")}.` };
  }
  const all = factsOf(messages);
  return {
    content: `Noted. I can see ${messages.length} messages and ${all.size} fact${all.size === 1 ? "" : "s"} about you.`,
  };
}

/** Hashing-trick embeddings: words hashed into `dims` buckets, L2-normalized. Not semantic. */
export function embed(text, dims = 256) {
  const v = new Float64Array(dims);
  const words = String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % dims] += (h & 0x80000000) ? -1 : 1;
  }
  const norm = Math.hypot(...v) || 1;
  return Array.from(v, (x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** A rough token estimate for the `usage` field (4 characters per token; labeled as such). */
export const roughTokens = (s) => Math.ceil(String(s).length / 4);
