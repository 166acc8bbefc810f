//! Reads the interfaces of a declaration file and checks a serialized value against one: the
//! tests of every crate that declares JS shapes use it.

use serde_json::Value;
use std::collections::BTreeMap;

/// `export interface Name { field?: type; ... }` → name → (field, optional).
pub fn interfaces(ts: &str) -> BTreeMap<String, Vec<(String, bool)>> {
    let mut out = BTreeMap::new();
    let mut rest = ts;
    while let Some(at) = rest.find("export interface ") {
        rest = &rest[at + "export interface ".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
        let open = rest.find('{').unwrap();
        let (mut depth, mut member, mut fields) = (0, String::new(), Vec::new());
        let mut chars = rest[open..].chars().peekable();
        let mut prev = ' ';
        while let Some(c) = chars.next() {
            // `=>` of a function type is not a closing `>`.
            let arrow = c == '>' && prev == '=';
            prev = c;
            if c == '/' && chars.peek() == Some(&'*') {
                while let Some(c) = chars.next() {
                    if c == '*' && chars.peek() == Some(&'/') {
                        chars.next();
                        break;
                    }
                }
                continue;
            }
            match c {
                '{' | '(' | '[' | '<' => depth += 1,
                '}' | ')' | ']' | '>' if depth == 1 && c == '}' => {
                    fields.extend(field(&member));
                    break;
                }
                '>' if arrow => {}
                '}' | ')' | ']' | '>' => depth -= 1,
                ';' | '\n' if depth == 1 => {
                    fields.extend(field(&member));
                    member.clear();
                    continue;
                }
                _ => {}
            }
            if depth >= 1 && !(depth == 1 && c == '{') {
                member.push(c);
            }
        }
        out.insert(name, fields);
    }
    out
}

fn field(member: &str) -> Option<(String, bool)> {
    let (name, _) = member.trim().split_once(':')?;
    let optional = name.ends_with('?');
    Some((name.trim_end_matches('?').trim().to_string(), optional))
}

/// Checks `value` against interface `name`; `added` are fields the JS face adds itself.
pub fn check(
    declared: &BTreeMap<String, Vec<(String, bool)>>,
    name: &str,
    value: &Value,
    added: &[&str],
) {
    let fields = declared
        .get(name)
        .unwrap_or_else(|| panic!("interface {name} is declared"));
    let written = value
        .as_object()
        .unwrap_or_else(|| panic!("{name}: an object, got {value}"));
    for key in written.keys() {
        assert!(
            fields.iter().any(|(f, _)| f == key),
            "{name}.{key} is written but not declared"
        );
    }
    for (f, optional) in fields {
        let there = written.contains_key(f) || added.contains(&f.as_str());
        assert!(
            *optional || there,
            "{name}.{f} is declared as always there but not written"
        );
    }
}
