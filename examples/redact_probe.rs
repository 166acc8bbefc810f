//! Prints what the redactor finds in a text file, one finding per line with its context: for
//! reading its false positives on real text (documentation, logs, chat exports).
//!
//!   cargo run --release --example redact_probe -- FILE [TYPE ...]
use llm_memory::redact::{Redactor, RedactorConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: redact_probe FILE [TYPE ...]");
        std::process::exit(2);
    };
    let text = std::fs::read(path).expect("readable file");
    let text = String::from_utf8_lossy(&text);
    let types: Vec<String> = args[1..].iter().map(|t| format!("{t:?}")).collect();
    let options = if types.is_empty() {
        "{}".to_string()
    } else {
        format!("{{\"types\": [{}]}}", types.join(","))
    };
    let config = RedactorConfig::from_json(&options).expect("known types");
    let redactor = Redactor::new(config).expect("redactor");
    for c in redactor.detect(&text) {
        let mut lo = c.start.saturating_sub(30);
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        let mut hi = (c.end + 30).min(text.len());
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        let around = text[lo..hi].replace('\n', "⏎");
        println!("{}\t{:?}\t{around}", c.kind, &text[c.start..c.end]);
    }
}
