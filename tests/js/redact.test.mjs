// The Redactor as a Node user gets it from the built pkg/: UTF-16 offsets, restore (whole and
// streamed), the vault round trip, and coded errors for bad options.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib, throwsCode } from "./helpers.mjs";

const { Redactor } = lib;

test("redact replaces values and reports UTF-16 offsets", () => {
  const r = new Redactor();
  const input = "😀 Mail ann@example.com or call +44 20 7946 0958, card 4111 1111 1111 1111.";
  const { text, findings } = r.redact(input);
  assert.equal(text, "😀 Mail [EMAIL_1] or call [PHONE_1], card [CREDIT_CARD_1].");
  assert.deepEqual(findings.map((f) => f.type), ["EMAIL", "PHONE", "CREDIT_CARD"]);
  for (const f of findings) {
    assert.equal(typeof f.score, "number");
    assert.ok(!text.includes(input.slice(f.start, f.end)));
  }
  assert.equal(input.slice(findings[0].start, findings[0].end), "ann@example.com");
  assert.equal(r.redact("again ann@example.com").text, "again [EMAIL_1]");
});

test("findings read as written: two-decimal scores, placeholders in order in the text", () => {
  const r = new Redactor({ patterns: [{ name: "TICKET", regex: "TCK-\\d{4}", score: 0.9 }] });
  const input = "Ünïcödé 😀 my name is Zoltan Kovacs, TCK-1234, [EMAIL_1] ann@example.com, 555-123-4567";
  const { text, findings } = r.redact(input);
  assert.deepEqual(findings.map((f) => f.type), ["PERSON", "TICKET", "EMAIL", "PHONE"]);
  let from = 0;
  for (const f of findings) {
    assert.equal(f.score, Math.round(f.score * 100) / 100, `${f.type} score ${f.score}`);
    assert.ok(f.score > 0 && f.score <= 1);
    from = text.indexOf(f.placeholder, from);
    assert.ok(from >= 0, `${f.placeholder} in ${text}`);
    assert.equal(r.restore(f.placeholder), input.slice(f.start, f.end));
  }
  assert.deepEqual(Object.keys(findings[0]), ["type", "start", "end", "placeholder", "score", "source"]);
  assert.ok(findings.every((f) => f.source === "rule"), "no model given: every finding is the rules'");
  assert.equal(findings[1].score, 0.9);
});

test("the redacted text is the input with each finding replaced, look-alikes escaped", () => {
  const r = new Redactor();
  const inputs = [
    "no personal data here",
    "ann@example.com",
    "😀 x ann@example.com y bob@example.org, ünïcödé",
    "a lone \uD800 surrogate and ann@example.com",
  ];
  for (const input of inputs) {
    const { text, findings } = r.redact(input);
    let expected = "";
    let at = 0;
    for (const f of findings) {
      expected += input.slice(at, f.start) + f.placeholder;
      at = f.end;
    }
    assert.equal(text, expected + input.slice(at), input);
  }
  // Text that looks like a placeholder is escaped (a word joiner), so it comes back as typed.
  const typed = "typed [EMAIL_1] and ann@example.com";
  const { text } = r.redact(typed);
  assert.equal(text, "typed [EMAIL\u2060_1] and [EMAIL_1]");
  assert.equal(r.restore(text), typed);
});

test("national ids in Korean, Thai and Hindi text: UTF-16 offsets, placeholders, restore", () => {
  const r = new Redactor();
  const input = "주민등록번호 900101-1234568 입니다 😀 เลขประจำตัวประชาชน 1-2345-67890-12-1 · आधार नंबर Aadhaar 2345 6789 0124";
  const { text, findings } = r.redact(input);
  assert.deepEqual(findings.map((f) => f.type), ["KR_RRN", "TH_TNIN", "IN_AADHAAR"]);
  assert.deepEqual(findings.map((f) => input.slice(f.start, f.end)), ["900101-1234568", "1-2345-67890-12-1", "2345 6789 0124"]);
  assert.equal(text, "주민등록번호 [KR_RRN_1] 입니다 😀 เลขประจำตัวประชาชน [TH_TNIN_1] · आधार नंबर Aadhaar [IN_AADHAAR_1]");
  assert.equal(r.restore(text), input);
  // Limited to one type, the others stay.
  const uk = new Redactor({ types: ["UK_NHS"] });
  assert.equal(uk.redact("NHS number 943 476 5919, PESEL 44051401359").text, "NHS number [UK_NHS_1], PESEL 44051401359");
});

test("redact of something other than a string is an INVALID_OPTION error", () => {
  const r = new Redactor();
  for (const bad of [42, null, undefined, { text: "x" }, ["a"]]) {
    throwsCode(assert, () => r.redact(bad), "INVALID_OPTION");
  }
  assert.equal(r.redact("still works: ann@example.com").text, "still works: [EMAIL_1]");
});

test("restore is the inverse, tolerant of light changes and of look-alikes", () => {
  const r = new Redactor();
  const input = "I wrote [EMAIL_1] literally; my address is ann@example.com";
  const { text } = r.redact(input);
  assert.equal(r.restore(text), input);
  assert.equal(r.restore("Sure, I'll write to email_1 and [Email_1]."), "Sure, I'll write to ann@example.com and ann@example.com.");
});

test("streamRestorer handles placeholders split across chunks", () => {
  const r = new Redactor();
  r.redact("reach me at ann@example.com or 10.0.0.1");
  const reply = "Writing to [EMAIL_1] from IP_ADDRESS_1 now.";
  for (let cut = 0; cut <= reply.length; cut++) {
    const s = r.streamRestorer();
    const out = s.push(reply.slice(0, cut)) + s.push(reply.slice(cut)) + s.finish();
    assert.equal(out, "Writing to ann@example.com from 10.0.0.1 now.");
  }
});

test("streamRestorer keeps a character whose surrogate pair is split across chunks", async () => {
  const r = new Redactor();
  r.redact("ann@example.com");
  const mem = new lib.Memory({ redact: true });
  mem.add("user", "ann@example.com");
  await mem.context();
  const reply = "ok \u{1F600} [EMAIL_1] \u{1F680}";
  for (let cut = 0; cut <= reply.length; cut++) {
    for (const s of [r.streamRestorer(), mem.streamRestorer()]) {
      const out = s.push(reply.slice(0, cut)) + s.push(reply.slice(cut)) + s.finish();
      assert.equal(out, "ok \u{1F600} ann@example.com \u{1F680}", `cut at ${cut}`);
    }
  }
  const lone = r.streamRestorer();
  assert.equal(lone.push("end \uD83D") + lone.finish(), "end \uFFFD", "a lone high surrogate at the end is U+FFFD, as TextEncoder writes it");
});

test("Markdown in replies: links keep their brackets, escaped brackets go", () => {
  const r = new Redactor();
  // A value the user wrote right before "(" still comes back as written.
  const input = "mail ann@example.com(work) or call +44 20 7946 0958";
  const { text, findings } = r.redact(input);
  assert.deepEqual(findings.map((f) => f.placeholder), ["[EMAIL_1]", "[PHONE_1]"]);
  assert.ok(!text.includes("ann@example.com") && text.includes("[EMAIL_1]"));
  assert.equal(r.restore(text), input);
  const reply = "Write to [EMAIL_1](mailto:EMAIL_1) or \\[PHONE_1\\].";
  const want = "Write to [ann@example.com](mailto:ann@example.com) or +44 20 7946 0958.";
  assert.equal(r.restore(reply), want);
  for (let cut = 0; cut <= reply.length; cut++) {
    const s = r.streamRestorer();
    assert.equal(s.push(reply.slice(0, cut)) + s.push(reply.slice(cut)) + s.finish(), want, `cut at ${cut}`);
  }
});

test("vault exports and imports as JSON", () => {
  const a = new Redactor();
  const { text } = a.redact("ann@example.com");
  const vault = a.vault();
  assert.equal(vault.version, 1);
  assert.deepEqual(vault.entries, [{ placeholder: "[EMAIL_1]", type: "EMAIL", value: "ann@example.com" }]);
  const b = new Redactor();
  b.importVault(JSON.stringify(vault));
  assert.equal(b.restore(text), "ann@example.com");
  assert.equal(a.exportVault, undefined, "JSON.stringify(vault()) is the one way to get text");
  const c = new Redactor();
  c.importVault(vault);
  assert.equal(c.restore(text), "ann@example.com");
  throwsCode(assert, () => c.importVault("{not json"), "INVALID_DOCUMENT");
  throwsCode(assert, () => c.importVault({ version: 9, entries: [] }), "INVALID_DOCUMENT");
});

test("options: types, allowList, custom patterns, mask", () => {
  const r = new Redactor({
    types: ["EMAIL", "TICKET"],
    allowList: ["help@acme.com"],
    patterns: [{ name: "TICKET", regex: "TCK-\\d{6}" }],
  });
  assert.equal(r.redact("TCK-123456 help@acme.com bob@acme.com +1 415 555 0100").text, "[TICKET_1] help@acme.com [EMAIL_1] +1 415 555 0100");
  assert.equal(new Redactor({ mode: "mask" }).redact("bob@acme.com").text, "[EMAIL]");
});

test("bad options throw coded errors and the instance keeps working", () => {
  throwsCode(assert, () => new Redactor({ types: ["EMAIL", "NOPE"] }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ colour: "red" }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ mode: "shred" }), "INVALID_OPTION");
  throwsCode(assert, () => new Redactor({ patterns: [{ name: "X", regex: "(unclosed" }] }), "INVALID_PATTERN");
  // Shapes JSON would have blurred: NaN becomes null (the default), an array an empty list.
  for (const minScore of [NaN, Infinity, "0.5"]) {
    assert.match(throwsCode(assert, () => new Redactor({ minScore }), "INVALID_OPTION").message, /minScore must be a finite number/);
  }
  throwsCode(assert, () => new Redactor(["EMAIL"]), "INVALID_OPTION");
  const shared = throwsCode(assert, () => new lib.Memory({ redact: new Redactor() }), "INVALID_OPTION");
  assert.match(shared.message, /not a Redactor/);
  assert.equal(new Redactor().redact("x@y.io").text, "[EMAIL_1]");
});

test("a vault entry with an empty value is refused: restoring it would delete text", () => {
  const r = new Redactor();
  const bad = { version: 1, entries: [{ placeholder: "[EMAIL_1]", type: "EMAIL", value: "" }] };
  throwsCode(assert, () => r.importVault(bad), "INVALID_DOCUMENT");
  assert.equal(r.restore("[EMAIL_1]"), "[EMAIL_1]");
});

test("an imported vault restores types this redactor does not detect", () => {
  const ticket = new Redactor({ patterns: [{ name: "TICKET", regex: "TCK-\\d{6}" }] });
  ticket.redact("about TCK-123456");
  const plain = new Redactor();
  plain.importVault(ticket.vault());
  assert.equal(plain.restore("see [TICKET_1]"), "see TCK-123456");
});

test("large and odd inputs do not break the instance", () => {
  const r = new Redactor();
  for (const x of ["7".repeat(100_000), "a".repeat(1_000_000), "\u{2060}[EMAIL_1\u{2060}_2]", ""]) {
    assert.equal(r.restore(r.redact(x).text), x);
  }
});

test("one person, one placeholder through a Memory; a contraction stays outside the name", async () => {
  const mem = new lib.Memory({ redact: true });
  mem.add("user", "My manager Priya Natarajan wants the report by Friday.");
  mem.add("assistant", "Understood.");
  mem.add("user", "Tell Priya that Tom Baker will send the slides.");
  mem.add("assistant", "Sure.");
  mem.add("user", "What should I tell Tom? I'm Amanda's son, by the way.");
  const { messages } = await mem.context();
  const users = messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(users, [
    "My manager [PERSON_1] wants the report by Friday.",
    "Tell [PERSON_1] that [PERSON_2] will send the slides.",
    "What should I tell [PERSON_2]? I'm [PERSON_3]'s son, by the way.",
  ]);
  assert.equal(mem.restore("Ask [PERSON_1] and [PERSON_2]."), "Ask Priya Natarajan and Tom Baker.");
});

test("Redactor options read as Memory's do: did you mean, paths in JS terms, JSON text too", () => {
  const { Redactor, Memory } = lib;
  const message = (f) => {
    try { f(); } catch (e) { assert.equal(e.code, "INVALID_OPTION", e.message); return e.message; }
    assert.fail("no error");
  };
  assert.match(message(() => new Redactor({ typs: ["EMAIL"] })), /unknown option "typs" in Redactor options \(did you mean types\?\)/);
  assert.match(message(() => new Redactor({ types: ["EMIAL"] })), /unknown entity type "EMIAL": not built-in and not declared in patterns \(did you mean EMAIL\?\)/);
  assert.match(message(() => new Redactor({ patterns: [{ name: "TICKET", regx: "TCK-\\d+" }] })), /unknown option "regx" in patterns\[0\] \(did you mean regex\?\)/);
  assert.match(message(() => new Redactor({ patterns: [{ name: "TICKET", regex: 5 }] })), /^patterns\[0\]\.regex must be a string, got 5/);
  assert.match(message(() => new Redactor({ patterns: [{ name: "TICKET" }] })), /patterns\[0\]\.regex is required/);
  assert.match(message(() => new Redactor({ minScore: NaN })), /minScore must be a finite number, got NaN/);
  assert.match(message(() => new Redactor({ minScore: 2 })), /minScore must be between 0 and 1, got 2/);
  assert.match(message(() => new Redactor({ mode: "masked" })), /mode must be "placeholder" or "mask", got "masked"/);
  assert.match(message(() => new Redactor({ allowList: ["ok", 3] })), /allowList\[1\] must be a string, got 3/);
  assert.match(message(() => new Memory({ redact: { mdoe: "mask" } })), /unknown option "mdoe" in redact \(did you mean mode\?\)/);
  // JSON text reads the same way.
  assert.match(message(() => new Redactor(JSON.stringify({ typs: [] }))), /did you mean types\?/);
  const r = new Redactor({ types: ["email"], mode: "mask", allowList: ["help@example.com"] });
  assert.equal(r.redact("Mail ann@example.com or help@example.com").text, "Mail [EMAIL] or help@example.com");
});
