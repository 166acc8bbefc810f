// Encryption at rest in Node (WebCrypto is global there too), on the "memory" backend, which
// keeps records the way the browser backends do: a session written with a key reopens with it,
// and with another key, a passphrase that is not it, or none, the open rejects with WRONG_KEY
// and the session stays readable. Bad key options are INVALID_OPTION.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./helpers.mjs";

const keyOf = (seed) => crypto.subtle.importKey("raw", new Uint8Array(32).map((_, i) => (i * seed + 7) & 255),
  "AES-GCM", false, ["encrypt", "decrypt"]);

test("a session written with a key opens with it only, and nothing is lost", async () => {
  const key = await keyOf(31);
  const mem = await Memory.open({ session: "enc-1", storage: "memory", encrypt: { key } });
  mem.add("user", "my card is 4111 1111 1111 1111");
  mem.remember("The user lives in Porto");
  await mem.flush();
  const codes = [];
  for (const encrypt of [{ key: await keyOf(53) }, { key: { passphrase: "guess" } }, undefined]) {
    try { await Memory.open({ session: "enc-1", storage: "memory", encrypt }); codes.push("opened"); } catch (e) { codes.push(e.code); }
  }
  assert.deepEqual(codes, ["WRONG_KEY", "WRONG_KEY", "WRONG_KEY"]);
  const again = await Memory.open({ session: "enc-1", storage: "memory", encrypt: { key } });
  assert.deepEqual(again.entries().map((e) => e.content), ["my card is 4111 1111 1111 1111"]);
  assert.deepEqual(again.facts().map((f) => f.text), ["The user lives in Porto"]);
  // The export is the plain document (the app asked for it), not ciphertext.
  assert.ok(JSON.stringify(again.export()).includes("4111 1111 1111 1111"));
});

test("a passphrase derives the same key on every open", async () => {
  const encrypt = { key: { passphrase: "correct horse battery staple" } };
  const mem = await Memory.open({ session: "enc-pass", storage: "memory", encrypt });
  mem.add("user", "hello");
  await mem.flush();
  const again = await Memory.open({ session: "enc-pass", storage: "memory", encrypt });
  assert.equal(again.length, 1);
});

test("a session stored in clear is encrypted once a key is given", async () => {
  const plain = await Memory.open({ session: "enc-later", storage: "memory" });
  plain.add("user", "written before encryption");
  await plain.flush();
  const key = await keyOf(97);
  const sealed = await Memory.open({ session: "enc-later", storage: "memory", encrypt: { key } });
  assert.equal(sealed.length, 1);
  await sealed.flush();
  await assert.rejects(Memory.open({ session: "enc-later", storage: "memory" }), (e) => e.code === "WRONG_KEY");
});

test("bad encrypt options are INVALID_OPTION", async () => {
  const extractable = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  for (const encrypt of [{}, { key: "secret" }, { key: extractable }, { key: hmac }, { key: { passphrase: 5 } }, { key: await keyOf(3), other: 1 }, "key"]) {
    await assert.rejects(Memory.open({ session: "enc-bad", storage: "memory", encrypt }), (e) => e.code === "INVALID_OPTION", JSON.stringify(encrypt));
  }
});
