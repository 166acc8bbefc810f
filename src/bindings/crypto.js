// Encryption of sync records and of records at rest, with WebCrypto: AES-GCM 256, a random
// 12-byte IV per record, the associated data binding a ciphertext to its session and record
// (so a record cannot be moved to another session or id), and the stored form
// base64(0x01 ‖ IV ‖ ciphertext+tag). Key material never reaches the wasm: it holds the
// CryptoKey object only.

import { LlmMemoryError } from "./errors.js";

const VERSION = 1;
const PBKDF2_ITERATIONS = 600000;

function coded(code, message) {
  return new LlmMemoryError(code, message);
}

function subtle() {
  const s = globalThis.crypto?.subtle;
  if (!s) {
    throw coded("INVALID_OPTION", "encryption needs WebCrypto (crypto.subtle), which browsers give only to secure " +
      "contexts: serve the page over https:// or from localhost");
  }
  return s;
}

const text = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/// The `key` option as a CryptoKey: one given by the app (AES-GCM, non-extractable, allowed
/// to encrypt and decrypt), or derived from `{ passphrase }` with PBKDF2-SHA256 (600 000
/// iterations) and the salt SHA-256(saltLabel).
export async function resolveKey(spec, saltLabel, what) {
  const isKey = typeof CryptoKey !== "undefined" && spec instanceof CryptoKey;
  if (isKey) {
    if (spec.algorithm?.name !== "AES-GCM" || spec.algorithm?.length !== 256) {
      throw coded("INVALID_OPTION", `${what} must be an AES-GCM 256-bit CryptoKey, got ${spec.algorithm?.name} ${spec.algorithm?.length ?? ""}`.trim());
    }
    if (spec.extractable) {
      throw coded("INVALID_OPTION", `${what} must be non-extractable (generateKey/importKey with extractable false), so that page scripts cannot read it out`);
    }
    if (!spec.usages.includes("encrypt") || !spec.usages.includes("decrypt")) {
      throw coded("INVALID_OPTION", `${what} must allow ["encrypt", "decrypt"]`);
    }
    return spec;
  }
  if (spec && typeof spec === "object" && !Array.isArray(spec) && "passphrase" in spec) {
    if (typeof spec.passphrase !== "string" || spec.passphrase.length === 0) {
      throw coded("INVALID_OPTION", `${what}.passphrase must be a non-empty string`);
    }
    const s = subtle();
    const salt = new Uint8Array(await s.digest("SHA-256", text.encode(saltLabel)));
    const base = await s.importKey("raw", text.encode(spec.passphrase), "PBKDF2", false, ["deriveKey"]);
    return s.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS }, base,
      { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  }
  const got = spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec === "object" ? "an object without passphrase" : typeof spec;
  throw coded("INVALID_OPTION", `${what} must be a CryptoKey (AES-GCM, non-extractable) or { passphrase: string }, got ${got}`);
}

/// Encrypts each plaintext with its associated data; resolves with the stored forms.
export async function sealAll(key, aads, plains) {
  const s = subtle();
  return Promise.all(plains.map(async (plain, i) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await s.encrypt({ name: "AES-GCM", iv, additionalData: text.encode(aads[i]) }, key, text.encode(plain)));
    const out = new Uint8Array(1 + iv.length + ct.length);
    out[0] = VERSION;
    out.set(iv, 1);
    out.set(ct, 13);
    return toBase64(out);
  }));
}

/// Decrypts each stored form; rejects with WRONG_KEY when the key does not open one (another
/// key, or the record was moved to another session or id), CORRUPT_STORAGE when it is not a
/// stored form at all. `where` names what is read, for the message.
export async function openAll(key, aads, datas, where) {
  const s = subtle();
  return Promise.all(datas.map(async (data, i) => {
    let bytes;
    try {
      bytes = fromBase64(data);
    } catch {
      bytes = new Uint8Array(0);
    }
    if (bytes.length < 1 + 12 + 16 || bytes[0] !== VERSION) {
      throw coded("CORRUPT_STORAGE", `${where}: record ${JSON.stringify(aads[i].split("\n").pop())} is not an encrypted record of this version; nothing was changed`);
    }
    let plain;
    try {
      plain = await s.decrypt({ name: "AES-GCM", iv: bytes.subarray(1, 13), additionalData: text.encode(aads[i]) }, key, bytes.subarray(13));
    } catch {
      throw coded("WRONG_KEY", `${where}: the key does not decrypt the records (a different key or passphrase than ` +
        `the one they were written with); nothing was changed or deleted`);
    }
    return utf8.decode(plain);
  }));
}
