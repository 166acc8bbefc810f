//! Reads the JSON a language model meant to write. Small models wrap it in code fences or
//! prose, end lists with a trailing comma, quote with `'` or typographic quotes, and write
//! Python's `True`/`None`; this finds the first JSON value in the answer and repairs those
//! slips before parsing. What it cannot read comes back as an error message written for the
//! model: it goes back to it in the one retry (`LlmExchange`).

use serde_json::Value;

/// The first JSON object or array in `answer`, repaired if need be.
pub fn parse_json(answer: &str) -> Result<Value, String> {
    let text = strip_think(answer);
    let text = strip_fences(&text);
    let Some(start) = text.find(['{', '[']) else {
        return Err(if text.trim().is_empty() {
            "the answer was empty".to_string()
        } else {
            "the answer had no JSON object in it".to_string()
        });
    };
    let (candidate, closed) = balanced(&text[start..]);
    if let Ok(v) = serde_json::from_str::<Value>(candidate) {
        return Ok(v);
    }
    let repaired = repair(candidate);
    serde_json::from_str::<Value>(&repaired).map_err(|e| {
        if !closed {
            "the JSON was cut off before it ended".to_string()
        } else {
            format!("the JSON could not be read ({e})")
        }
    })
}

/// Drops a `<think>...</think>` block (reasoning models put it before the answer).
fn strip_think(answer: &str) -> String {
    match (answer.find("<think>"), answer.find("</think>")) {
        (Some(a), Some(b)) if b > a => format!("{}{}", &answer[..a], &answer[b + 8..]),
        (None, Some(b)) => answer[b + 8..].to_string(),
        _ => answer.to_string(),
    }
}

/// The inside of the first ``` fence that holds a `{` or `[`, else the text as it is.
fn strip_fences(text: &str) -> String {
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        // Skip the info string ("json") up to the end of the line.
        let body_start = after.find('\n').map_or(0, |i| i + 1);
        let body = &after[body_start..];
        let (inside, tail) = match body.find("```") {
            Some(close) => (&body[..close], &body[close + 3..]),
            None => (body, ""),
        };
        if inside.contains(['{', '[']) {
            return inside.to_string();
        }
        rest = tail;
    }
    text.to_string()
}

/// `text` from its opening bracket to the bracket that closes it (strings taken into account,
/// with either quote), or all of it and `false` when it never closes.
fn balanced(text: &str) -> (&str, bool) {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q || (q == '“' && c == '”') {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '“' => quote = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (&text[..i + c.len_utf8()], true);
                }
            }
            _ => {}
        }
    }
    (text, false)
}

/// Rewrites the usual slips into JSON: typographic and single quotes become double quotes
/// (a `"` inside a single-quoted string is escaped), trailing commas go, bare Python
/// literals become JSON ones, and unquoted keys are quoted.
fn repair(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' | '\'' | '“' | '”' | '‘' | '’' => {
                let close: &[char] = match c {
                    '"' => &['"'],
                    '“' | '”' => &['”', '“', '"'],
                    '‘' | '’' => &['’', '‘'],
                    _ => &['\''],
                };
                i = copy_string(&chars, i + 1, close, &mut out);
                continue;
            }
            ',' => {
                let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
                if !matches!(next, Some('}' | ']') | None) {
                    out.push(',');
                }
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let end = chars[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
                    .map_or(chars.len(), |n| i + n);
                let word: String = chars[i..end].iter().collect();
                let is_key = chars[end..].iter().find(|c| !c.is_whitespace()) == Some(&':');
                match word.as_str() {
                    _ if is_key => out.push_str(&format!("\"{word}\"")),
                    "True" | "true" => out.push_str("true"),
                    "False" | "false" => out.push_str("false"),
                    "None" | "null" | "undefined" => out.push_str("null"),
                    _ => out.push_str(&word),
                }
                i = end;
                continue;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// Copies a string body that started before `from` as a double-quoted JSON string, up to one
/// of `close`; returns the index after the closing quote. An apostrophe inside a word
/// ("user's") does not close a single-quoted string.
fn copy_string(chars: &[char], from: usize, close: &[char], out: &mut String) -> usize {
    out.push('"');
    let mut i = from;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            // `\'` is not a JSON escape: keep the quote alone.
            if chars[i + 1] == '\'' {
                out.push('\'');
            } else {
                out.push(c);
                out.push(chars[i + 1]);
            }
            i += 2;
            continue;
        }
        if close.contains(&c) {
            let inside_word = c != '"'
                && i + 1 < chars.len()
                && chars[i + 1].is_alphanumeric()
                && i > from
                && chars[i - 1].is_alphanumeric();
            if !inside_word {
                out.push('"');
                return i + 1;
            }
        }
        match c {
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => {}
            _ => out.push(c),
        }
        i += 1;
    }
    out.push('"');
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(answer: &str) -> Value {
        parse_json(answer).unwrap_or_else(|e| panic!("{answer:?}: {e}"))
    }

    #[test]
    fn plain_json_passes_through() {
        assert_eq!(ok(r#"{"facts": []}"#), json!({"facts": []}));
        assert_eq!(ok("[1, 2]"), json!([1, 2]));
    }

    #[test]
    fn a_code_fence_with_prose_around_it() {
        let answer = "Sure! Here are the facts I found:\n\n```json\n{\"facts\": [{\"op\": \"add\", \"text\": \"The user lives in Porto\"}]}\n```\n\nLet me know if you need anything else.";
        assert_eq!(ok(answer)["facts"][0]["text"], "The user lives in Porto");
    }

    #[test]
    fn prose_before_and_after_without_a_fence() {
        let answer = "The episode is {\"summary\": \"Booked a table\", \"importance\": 0.4} as requested {sic}.";
        assert_eq!(
            ok(answer),
            json!({"summary": "Booked a table", "importance": 0.4})
        );
    }

    #[test]
    fn trailing_commas_go() {
        let answer = "{\"facts\": [\n  {\"op\": \"add\", \"text\": \"Likes tea\",},\n],\n}";
        assert_eq!(
            ok(answer),
            json!({"facts": [{"op": "add", "text": "Likes tea"}]})
        );
    }

    #[test]
    fn single_quotes_and_apostrophes_inside_words() {
        let answer = "{'facts': [{'op': 'add', 'text': 'The user's sister is called Ana'}]}";
        assert_eq!(
            ok(answer)["facts"][0]["text"],
            "The user's sister is called Ana"
        );
        let with_double = "{'text': 'She said \"hi\"'}";
        assert_eq!(ok(with_double)["text"], "She said \"hi\"");
    }

    #[test]
    fn typographic_quotes() {
        let answer = "{“facts”: [{“op”: “add”, “text”: “Works at Acme”}]}";
        assert_eq!(ok(answer)["facts"][0]["op"], "add");
        let curly_single = "{‘summary’: ‘Planned a trip’}";
        assert_eq!(ok(curly_single)["summary"], "Planned a trip");
    }

    #[test]
    fn python_literals_and_bare_keys() {
        let answer = "{summary: 'Fixed the bug', done: True, outcome: None}";
        assert_eq!(
            ok(answer),
            json!({"summary": "Fixed the bug", "done": true, "outcome": null})
        );
    }

    #[test]
    fn a_think_block_is_skipped() {
        let answer = "<think>The user said {maybe} things</think>\n{\"facts\": []}";
        assert_eq!(ok(answer), json!({"facts": []}));
    }

    #[test]
    fn brackets_inside_strings_do_not_end_the_value() {
        let answer = "{\"text\": \"uses {curly} and [square] brackets\"} trailing }";
        assert_eq!(ok(answer)["text"], "uses {curly} and [square] brackets");
    }

    #[test]
    fn newlines_inside_a_single_quoted_string_are_escaped() {
        let answer = "{'summary': 'line one\nline two'}";
        assert_eq!(ok(answer)["summary"], "line one\nline two");
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        assert_eq!(parse_json("   ").unwrap_err(), "the answer was empty");
        assert_eq!(
            parse_json("I could not find any facts.").unwrap_err(),
            "the answer had no JSON object in it"
        );
        let cut = parse_json("{\"facts\": [{\"op\": \"add\", \"text\": \"The user").unwrap_err();
        assert!(cut.contains("cut off"), "{cut}");
        let broken = parse_json("{\"a\": 1 \"b\": 2}").unwrap_err();
        assert!(broken.contains("could not be read"), "{broken}");
    }

    #[test]
    fn the_first_of_several_fences_with_json_is_read() {
        let answer = "```\nno json here\n```\nthen\n```json\n[{\"op\": \"none\"}]\n```";
        assert_eq!(ok(answer), json!([{"op": "none"}]));
    }
}
