//! Passwords, tokens and secrets: assigned in code and config (`password=…`, `"api_key": "…"`,
//! `token: …`), sent as a bearer token, or stated ("my password is …"). [`said`] adds the
//! spoken forms in other languages and login lines; [`code`] tells a secret from code that only
//! names one; [`values`] finds the value inside a match without the regex.

mod code;
use code::{is_assigned_secret, is_code_value};
mod said;
mod values;

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::Gate;
use crate::scan::text::{hit, placeholder};

/// The value of a `password=…` / `token: …` assignment. Code that merely names a variable
/// (`password: string`, `token = getToken()`, `${PASSWORD}`) is not a secret.
fn assignment(text: &str, s: usize, e: usize) -> Option<Hit> {
    let value = text[s..e].trim_end_matches(['.', ',', ';', ')']);
    let e = s + value.len();
    let lower = value.to_ascii_lowercase();
    const NOT_SECRETS: &[&str] = &[
        "string",
        "str",
        "number",
        "int",
        "bool",
        "boolean",
        "null",
        "none",
        "nil",
        "true",
        "false",
        "undefined",
        "optional",
        "any",
        "bytes",
        "secret",
        "password",
        "token",
        "required",
        "env",
        "self",
        "this",
        "redacted",
        "changeme",
        "example",
        "xxx",
        "bearer",
        "basic",
        "await",
        "new",
        "function",
        "lambda",
        "async",
        "return",
        "input",
        "getpass",
        "yield",
        "static",
        "const",
        "final",
        "private",
        "public",
        "readonly",
        "type",
        "enabled",
        "disabled",
        "empty",
        "hidden",
        "masked",
        "default",
        "unknown",
        // Permissions (`id-token: write` in a CI workflow).
        "read",
        "write",
        "read-all",
        "write-all",
        // "the password is missing": a state, not the value.
        "missing",
        "invalid",
        "incorrect",
        "wrong",
        "expired",
        "correct",
        "changed",
        "updated",
        "needed",
    ];
    if value.len() < 4
        || NOT_SECRETS.contains(&lower.as_str())
        || lower.starts_with("process.env")
        || lower.starts_with("os.environ")
        || lower.starts_with("os.getenv")
        || lower.starts_with("env.")
        || lower.starts_with("self.")
        || lower.starts_with("this.")
        || lower.starts_with("req.")
        || lower.starts_with("request.")
        // Template and shell variables, placeholders, and paths in code (`Token::{init, x}`).
        || value.starts_with(['$', '<', '{', '%', '*', '[', ':'])
        || value.contains('(')
        || value
            .bytes()
            .all(|b| b == b'x' || b == b'X' || b == b'*' || b == b'.')
        || placeholder(value)
        || (text.as_bytes().get(e) == Some(&b'('))
        // a call: token = make_token(...)
        || is_code_value(text, s, e)
        || !is_assigned_secret(text, s, e)
    {
        return None;
    }
    hit(s, e, 0.85)
}

/// The keywords of the `password=…` pattern, every spelling its regex accepts.
pub(crate) const ASSIGNED: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "api_key",
    "api-key",
    "apikey",
    "access_key",
    "access-key",
    "accesskey",
    "private_key",
    "private-key",
    "privatekey",
    "client_secret",
    "client-secret",
    "clientsecret",
    "auth",
    "credential",
    "credentials",
    // `.env` names: Django's SECRET_KEY, SMTP_PASS and the like. Not every `*_KEY`:
    // `primary_key`, `sort_key` and `cache_key` name no secret.
    "secret_key",
    "secret-key",
    "secretkey",
    "encryption_key",
    "signing_key",
    "master_key",
    "_pass",
    "-pass",
];

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    let mut specs = vec![
        // `PASSWORD=…`, `"api_key": "…"`, `token: …`, `password is …`: the value (group 1).
        Spec::new(Password, r#"(?i-u:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|credentials?|secret[_-]?key|encryption_key|signing_key|master_key|[_-]pass)["']?\s*(?:[:=]|:=|=>)\s*(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|`([^`\n]{4,200})`|([^\s"'`,;]{4,200}))"#, assignment)
            .group(1)
            .finder(|text, out| values::assignments(text, ASSIGNED, out)),
        Spec::new(Password, r"\b(?i-u:bearer)\s+([A-Za-z0-9._~+/=-]{16,})", assignment)
            .group(1)
            .value(values::bearer)
            .gate(Gate::Near { words: &["bearer"], back: 0, ahead: 1, test: None }),
        Spec::new(Password, r"\b(?i-u:my|the|our|your)\s+(?i-u:password|passcode|passphrase|pin|wifi password|wi-fi password)(?:\s+(?i-u:is|was)|\s*[=:])\s+([^\s,;]{4,100})", assignment)
            .group(1)
            .value(values::stated)
            .gate(Gate::Near { words: &["pass", "pin"], back: 2, ahead: 2, test: Some(said::owns_secret) }),
    ];
    specs.extend(said::specs());
    specs
}
