//! Who is asking: the bearer token of each request names a user. In development mode every
//! distinct token is its own user; in production a token file maps tokens to user names and any
//! other token is refused. Either way the store sees only a user id, never the token: a dev user
//! is named by a hash of its token, so a database dump holds no usable credential.

use crate::error::ApiError;
use axum::http::{header, HeaderMap};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Longest accepted token; longer headers are refused before hashing.
pub const MAX_TOKEN_LEN: usize = 4096;
/// Shortest token a token file may list (guessable tokens would make users guessable).
pub const MIN_FILE_TOKEN_LEN: usize = 16;

pub enum Auth {
    /// Every distinct token is a user (`--dev`, what `make serve` runs).
    Dev,
    /// SHA-256 of each token → its user.
    Tokens(HashMap<[u8; 32], String>),
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A user name from a token file: it becomes part of storage keys.
pub fn valid_user_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

impl Auth {
    /// Reads a token file: one `TOKEN USER` per line, blank lines and `#` comments skipped.
    /// Several tokens may name one user (one per device).
    pub fn from_token_file(text: &str) -> Result<Auth, String> {
        let mut users = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (Some(token), Some(user), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("line {}: expected `TOKEN USER`", n + 1));
            };
            if token.len() < MIN_FILE_TOKEN_LEN || token.len() > MAX_TOKEN_LEN {
                return Err(format!(
                    "line {}: a token has {MIN_FILE_TOKEN_LEN} to {MAX_TOKEN_LEN} characters",
                    n + 1
                ));
            }
            if !valid_user_name(user) {
                return Err(format!(
                    "line {}: a user name has 1 to 64 of [A-Za-z0-9._-]",
                    n + 1
                ));
            }
            if users.insert(digest(token), user.to_string()).is_some() {
                return Err(format!("line {}: this token is listed twice", n + 1));
            }
        }
        if users.is_empty() {
            return Err("the token file lists no token".into());
        }
        Ok(Auth::Tokens(users))
    }

    /// The user id of a request, or 401.
    pub fn user(&self, headers: &HeaderMap) -> Result<String, ApiError> {
        let value = headers
            .get(header::AUTHORIZATION)
            .ok_or_else(|| ApiError::unauthorized("send Authorization: Bearer <token>"))?;
        let value = value
            .to_str()
            .map_err(|_| ApiError::unauthorized("the Authorization header is not ASCII"))?;
        let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
        let token = token.trim();
        if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
            return Err(ApiError::unauthorized("send Authorization: Bearer <token>"));
        }
        if token.len() > MAX_TOKEN_LEN {
            return Err(ApiError::unauthorized("the token is too long"));
        }
        let d = digest(token);
        match self {
            Auth::Dev => Ok(format!("dev-{}", hex(&d[..16]))),
            Auth::Tokens(users) => users
                .get(&d)
                .cloned()
                .ok_or_else(|| ApiError::unauthorized("unknown token")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn bearer(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(v).unwrap());
        h
    }

    #[test]
    fn dev_users_differ_by_token_and_hide_it() {
        let a = Auth::Dev.user(&bearer("Bearer alpha")).unwrap();
        let b = Auth::Dev.user(&bearer("bearer beta")).unwrap();
        assert_ne!(a, b);
        assert!(!a.contains("alpha"));
        assert_eq!(a, Auth::Dev.user(&bearer("Bearer alpha")).unwrap());
        assert_eq!(
            Auth::Dev.user(&bearer("Basic x")).unwrap_err().code,
            "unauthorized"
        );
        assert_eq!(
            Auth::Dev.user(&HeaderMap::new()).unwrap_err().code,
            "unauthorized"
        );
    }

    #[test]
    fn a_token_file_maps_tokens_to_users_and_refuses_others() {
        let auth = Auth::from_token_file(
            "# devices\nphone-0123456789abcdef ann\nlaptop-0123456789abcd ann\n\nxxxxxxxxxxxxxxxxxxxx bob\n",
        )
        .unwrap();
        assert_eq!(
            auth.user(&bearer("Bearer phone-0123456789abcdef")).unwrap(),
            "ann"
        );
        assert_eq!(
            auth.user(&bearer("Bearer laptop-0123456789abcd")).unwrap(),
            "ann"
        );
        assert_eq!(
            auth.user(&bearer("Bearer xxxxxxxxxxxxxxxxxxxx")).unwrap(),
            "bob"
        );
        assert!(auth.user(&bearer("Bearer other-0123456789abcdef")).is_err());
        assert!(Auth::from_token_file("short ann\n").is_err());
        assert!(Auth::from_token_file("xxxxxxxxxxxxxxxxxxxx a:b\n").is_err());
        assert!(Auth::from_token_file("# nothing\n").is_err());
    }
}
