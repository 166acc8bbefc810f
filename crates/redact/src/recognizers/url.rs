//! URLs that carry a secret: credentials before the host or a token in the query. Other URLs
//! are left alone.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{hit, placeholder};

/// URLs are only sensitive when they carry credentials or a token; trailing punctuation of the
/// sentence is not part of them.
fn url(text: &str, s: usize, mut e: usize) -> Option<Hit> {
    while e > s
        && matches!(
            text.as_bytes()[e - 1],
            b'.' | b',' | b')' | b';' | b'!' | b'?' | b'\'' | b'"'
        )
    {
        e -= 1;
    }
    // `postgres://user:password@localhost/db`, `mongodb://<user>:<password>@…`: the sample
    // connection string of a README or an `.env.example`.
    let m = &text[s..e];
    if let Some((_, rest)) = m.split_once("://") {
        if let Some((userinfo, host)) = rest.split_once('@') {
            let (user, pass) = userinfo.split_once(':').unwrap_or((userinfo, ""));
            let host = host.split([':', '/']).next().unwrap_or("");
            let sample_pass = ["password", "pass", "secret", "pwd"]
                .iter()
                .any(|p| pass.eq_ignore_ascii_case(p));
            if sample_pass
                || placeholder(user)
                || placeholder(pass)
                || host == "localhost" && pass == user
            {
                return None;
            }
        }
    }
    hit(s, e, 0.9)
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(Url, r"\b[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s/?#@:]*:[^\s/?#@]+@[^\s<>]+", url)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::all_but(b" \t\n\r\x0b\x0c<>"), seeds: &["@"], min_seeds: 1, min_len: 8 }).containing(&["://"])),
        Spec::new(Url, r"\b(?i-u:https?)://[^\s<>]*?[?&#](?i-u:access_token|token|api_key|apikey|key|secret|password|pwd|passwd|sig|signature|auth|session|sessionid|sid|code|client_secret|x-amz-signature|x-amz-credential)=[^\s&#<>]{6,}[^\s<>]*", url)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::all_but(b" \t\n\r\x0b\x0c<>"), seeds: &["="], min_seeds: 1, min_len: 12 }).containing(&["://"])),
    ]
}
