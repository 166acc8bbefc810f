//! A redaction in the packed form the JS face unpacks (`src/bindings/redaction.js`) in one
//! call: one string and one array of numbers instead of an object per finding.
//!
//! `all`: the placeholders (or, when `rebuild` is 0, the whole redacted text), then for each
//! type a line feed and its name. `packed`: [length of that first part (UTF-16), number of
//! types, rebuild, then per finding: type index, start, end, placeholder start, placeholder
//! end, score × 100 plus 256 when the PII model found it].

use crate::{utf16_len, EntityType, Redaction, Source};

impl Redaction {
    /// A redaction in the form `redaction.js` unpacks: converting each finding to a JS object from
    /// here cost five boundary crossings and two strings per finding (~5 % of a redaction in Node).
    ///
    /// When nothing in the text had to be escaped, the redacted text is the input with each value
    /// replaced by its placeholder: only the placeholders cross, and JS builds the text from slices
    /// of the input it already holds (decoding the whole text from UTF-8 again cost ~5 %).
    pub fn packed(self) -> (String, Vec<u32>) {
        let Redaction {
            text,
            findings,
            escaped,
        } = self;
        let rebuild = !escaped;
        let mut all = if rebuild {
            String::with_capacity(findings.len() * 16 + 32)
        } else {
            text
        };
        let mut packed = Vec::with_capacity(3 + findings.len() * 6);
        packed.extend([0, 0, rebuild as u32]);
        let mut types: Vec<&EntityType> = Vec::new();
        for f in &findings {
            let index = match types.iter().position(|&t| *t == f.kind) {
                Some(i) => i,
                None => {
                    types.push(&f.kind);
                    types.len() - 1
                }
            };
            let placeholder_start = if rebuild {
                all.push_str(&f.placeholder);
                all.len() - f.placeholder.len()
            } else {
                f.output_start
            };
            let placeholder_end = placeholder_start + f.placeholder.len();
            let score = (f.score * 100.0).round() as u32;
            let from_model = (f.source == Source::Model) as u32;
            packed.extend(
                [index, f.start, f.end, placeholder_start, placeholder_end].map(|n| n as u32),
            );
            packed.push(score | from_model << 8);
        }
        packed[0] = utf16_len(all.as_bytes()) as u32;
        packed[1] = types.len() as u32;
        for t in types {
            all.push('\n');
            all.push_str(t.as_str());
        }
        (all, packed)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Redactor, RedactorConfig};

    /// What `redaction.js` does with the packed form: the text and (type, start, end,
    /// placeholder) per finding, over UTF-16 as in JS.
    fn unpack(input: &str, all: &str, packed: &[u32]) -> (String, Vec<(String, u32, u32, String)>) {
        let (input, all): (Vec<u16>, Vec<u16>) =
            (input.encode_utf16().collect(), all.encode_utf16().collect());
        let s = |units: &[u16]| String::from_utf16(units).unwrap();
        let head = &all[..packed[0] as usize];
        let types: Vec<String> = match packed[1] {
            0 => Vec::new(),
            _ => s(&all[packed[0] as usize + 1..])
                .split('\n')
                .map(String::from)
                .collect(),
        };
        let rebuild = packed[2] == 1;
        let (mut text, mut copied, mut findings) = (Vec::new(), 0, Vec::new());
        for f in packed[3..].chunks(6) {
            let placeholder = &head[f[3] as usize..f[4] as usize];
            if rebuild {
                text.extend_from_slice(&input[copied..f[1] as usize]);
                text.extend_from_slice(placeholder);
                copied = f[2] as usize;
            }
            findings.push((types[f[0] as usize].clone(), f[1], f[2], s(placeholder)));
        }
        match rebuild {
            true => text.extend_from_slice(&input[copied..]),
            false => text = head.to_vec(),
        }
        (s(&text), findings)
    }

    #[test]
    fn the_packed_form_unpacks_to_the_redaction() {
        let mut r = Redactor::new(RedactorConfig::default()).unwrap();
        let escaped = "a literal [EMAIL_1] and";
        for input in [
            "Mail ann@example.com or call +1 415 555 0134, ann@example.com again.",
            "Nothing to see here.",
            escaped,
        ] {
            let redaction = r.redact(&format!("{input} bob@example.org"));
            let expected: Vec<_> = redaction
                .findings
                .iter()
                .map(|f| {
                    (
                        f.kind.as_str().to_string(),
                        f.start as u32,
                        f.end as u32,
                        f.placeholder.clone(),
                    )
                })
                .collect();
            let text = redaction.text.clone();
            let (all, packed) = redaction.packed();
            let (unpacked, findings) = unpack(&format!("{input} bob@example.org"), &all, &packed);
            assert_eq!(unpacked, text, "{input}");
            assert_eq!(findings, expected, "{input}");
        }
    }
}
