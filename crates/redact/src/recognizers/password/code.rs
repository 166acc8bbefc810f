//! Signs that a word or a value is part of source code pasted into a chat, not personal data:
//! a type name after `token:` in a struct, an array index, a generic, a path. Developers paste
//! code all the time, and code is full of `name: Ident` and `auth: match[2]`.

use super::ASSIGNED;

/// Whether the value `text[s..e]` of a `password=` / `token:` assignment is an expression of
/// code rather than a secret: a reference (`&str`), a path (`token::Paren`), an index or a
/// macro (`tokens[0]`, `Token![=]`), a generic (`Option<Token>`), a template (`${x}`), the
/// variable the keyword names (`auth = auth`, `token = newToken`), or a type name in a field,
/// a parameter or a binding (`token: Literal,` / `(token: Literal)` / `token: Literal =`).
pub(crate) fn is_code_value(text: &str, s: usize, e: usize) -> bool {
    let value = &text[s..e];
    if value.contains("${") {
        return true;
    }
    // Quoted values are string literals: whatever they hold was typed as a value.
    if text[..s].ends_with(['"', '\'', '`']) {
        return false;
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // The name assigned to: the identifier before the operator (`paren_token` in
    // `bound.paren_token = paren_token`), and the keyword that ends it (`token`).
    let head = &text[..name_end(text, s)];
    let name_start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !(is_ident(c) || c == '-'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    // A macro's fragment (`$token:literal`).
    if head[..name_start].ends_with('$') {
        return true;
    }
    let name = head[name_start..].to_ascii_lowercase();
    let keyword = name.rsplit(['_', '-']).next().unwrap_or_default();
    let ident = value.find(|c: char| !is_ident(c)).unwrap_or(value.len());
    let rest = &value[ident..];
    if value.starts_with('&')
        || value.contains("::")
        || (ident > 0 && (rest.starts_with(['[', '<']) || rest.starts_with("![")))
    {
        return true;
    }
    // A member (`group.token`): identifiers joined by dots.
    let v = value.as_bytes();
    let dotted = v
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        && !value.starts_with('.')
        && !value.ends_with('.')
        && !value.contains("..");
    // Only a keyword of a secret names one ("my wifi password is …" ends in "is"): a keyword
    // of the `password=` pattern, the last word of one (`api_key`), or a stated one's.
    let names_secret = ASSIGNED.contains(&keyword) || matches!(keyword, "key" | "pin" | "passcode");
    if !dotted || !names_secret {
        return false;
    }
    // The variable of the same name, or one that joins words around the keyword
    // (`auth = auth`, `token = newToken`, `brace_token: empty_brace_token`, `semi_token:
    // semi`); typed secrets do not join words like code does.
    let camel = v
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let joined = camel || v.iter().any(|&c| c == b'_' || c == b'.');
    let same = |a: &str| value.eq_ignore_ascii_case(a);
    // The keyword as a word of the identifier: at its start or end, or next to `_`, `.` or a
    // camelCase hump ("newToken", "privateKeyStream"), not inside a random string ("KrKis").
    let boundary = |i: usize| {
        i == 0
            || i == v.len()
            || matches!(v[i - 1], b'_' | b'.')
            || matches!(v[i], b'_' | b'.')
            || (v[i].is_ascii_uppercase() && v[i - 1].is_ascii_lowercase())
    };
    let holds = |k: &str| {
        let k = k.as_bytes();
        memchr::memchr2_iter(k[0], k[0].to_ascii_uppercase(), v).any(|i| {
            v.len() - i >= k.len()
                && v[i..i + k.len()].eq_ignore_ascii_case(k)
                && boundary(i)
                && boundary(i + k.len())
        })
    };
    let prefix_of_name = name.len() > v.len()
        && name.as_bytes()[..v.len()].eq_ignore_ascii_case(v)
        && name.as_bytes()[v.len()] == b'_';
    if same(&name) || same(keyword) || (joined && holds(keyword)) || prefix_of_name {
        return true;
    }
    // A type: capitalized, letters and digits, then what ends a field, a parameter or a
    // binding's annotation ("password: Sunshine" at the end of a line stays a secret).
    let after = text[e..].trim_start_matches(' ');
    value.starts_with(|c: char| c.is_ascii_uppercase())
        && ident == value.len()
        && text[..s].trim_end().ends_with(':')
        && (after.starts_with([',', ')', '>'])
            || (after.starts_with('=') && !after.starts_with("==")))
}

/// Whether the operator before the value `text[s..e]` assigns to a secret: not a word that
/// only ends in "token" or "auth" (`gtoken`, `js-tiktoken`, `xauth:amd64`, `oauth`), not a
/// value on a later line (`if not password:` then a block), not a version (`"^6.1.0"`), not a
/// path, not an error message ("Unexpected token: keyword"), and not a snake_case variable
/// after a spaced `=` (`password = user_pass`).
pub(crate) fn is_assigned_secret(text: &str, s: usize, e: usize) -> bool {
    let value = &text[s..e];
    let gap_start = text[..s]
        .trim_end_matches([' ', '\t', '\n', '\r', '"', '\'', '`'])
        .len();
    let gap = &text[gap_start..s];
    if gap.contains('\n') {
        return false;
    }
    // A path to the secret's file, not the secret (`CREDENTIALS=/path/to/key.json`).
    let path = value.starts_with("./") || value.starts_with("../") || value.starts_with("~/");
    if path || (value.starts_with('/') && value.matches('/').count() >= 2 && value.contains('.')) {
        return false;
    }
    let version = value.trim_start_matches(['^', '~', '>', '<', '=', 'v']);
    if version.contains('.')
        && version
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
    {
        return false;
    }
    let op = text[..gap_start].trim_end_matches([':', '=', '>']);
    let spaced_eq = text[..gap_start].ends_with('=') && op.ends_with(' ') && gap.starts_with(' ');
    let head = &text[..name_end(text, s)];
    // The last word of the name: split at `_`, `-`, `.` and camelCase humps.
    let mut last_start = 0;
    let hb = head.as_bytes();
    for i in (0..hb.len()).rev() {
        let c = hb[i];
        if !c.is_ascii_alphanumeric() {
            last_start = i + 1;
            break;
        }
        if i > 0 && c.is_ascii_uppercase() && hb[i - 1].is_ascii_lowercase() {
            last_start = i;
            break;
        }
    }
    let last = head[last_start..].to_ascii_lowercase();
    // An error message about a token, not one: "Unexpected token: keyword". (Only the bytes
    // right before are read, so a redaction stays linear in the length of the text.)
    let before = head[..last_start].trim_end().as_bytes();
    let ends_with = |w: &&str| {
        before.len() >= w.len()
            && before[before.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
    };
    if ["unexpected", "invalid", "expected"].iter().any(ends_with) {
        return false;
    }
    if ["token", "auth"]
        .iter()
        .any(|k| last.len() > k.len() && last.ends_with(k) && !last.starts_with("auth"))
    {
        return false;
    }
    let snake = value.contains('_')
        && value
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_');
    !(spaced_eq && snake)
}

/// Where the name assigned to ends, for the value at `s`: before the white space and quotes
/// after it, the operator (`:`, `=`, `:=`, `=>`) and the white space and quote before that.
fn name_end(text: &str, s: usize) -> usize {
    text[..s]
        .trim_end_matches([' ', '\t', '\n', '\r', '"', '\'', '`'])
        .trim_end_matches([':', '=', '>'])
        .trim_end_matches([' ', '\t', '"', '\''])
        .len()
}
