//! Runs the redactor over an evaluation corpus and writes what it found, one JSON line per
//! message: `{"id", "findings": [{"type", "start", "end", "score", "source"}]}`. The scorer
//! (`bench/eval/score.py`) reads these lines for every system alike, so offsets here are Unicode
//! code points into the message text, as the corpus files and Python count them; the redactor's
//! own offsets are UTF-16 and are converted below.
//!
//!   cargo run --release --example redact_eval -- CORPUS.jsonl OUT.jsonl [--model PATH]
//!
//! Default options: every built-in type, default threshold. Each message gets a fresh vault (a
//! clone of one compiled redactor), so a value seen in one message is not found again in the
//! next by the vault alone.
use llm_memory::redact::{Redactor, RedactorConfig};
use serde_json::{json, Value};
use std::io::{BufRead, BufWriter, Write};

struct Args {
    corpus: String,
    out: String,
    model: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut model = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--model" => model = Some(args.next().ok_or("--model needs a PATH")?),
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            _ => positional.push(arg),
        }
    }
    let [corpus, out] = <[String; 2]>::try_from(positional)
        .map_err(|_| "usage: redact_eval CORPUS.jsonl OUT.jsonl [--model PATH]".to_string())?;
    Ok(Args { corpus, out, model })
}

/// UTF-16 offset → code-point offset for one text.
fn utf16_to_code_points(text: &str) -> Vec<usize> {
    let mut map = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.chars().enumerate() {
        for _ in 0..c.len_utf16() {
            map.push(i);
        }
    }
    map.push(text.chars().count());
    map
}

fn run(args: Args) -> Result<(), String> {
    // MODEL: once `Redactor` takes a model (the `ner-engine` / `ner-decode` work), load
    // `args.model` here and pass it in the options; findings then carry `source: "model"`.
    if let Some(path) = &args.model {
        return Err(format!("model support not built (asked for {path})"));
    }
    let redactor =
        Redactor::new(RedactorConfig::default()).map_err(|e| format!("redactor: {e:?}"))?;
    let input = std::fs::File::open(&args.corpus).map_err(|e| format!("{}: {e}", args.corpus))?;
    let output = std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out))?;
    let mut output = BufWriter::new(output);
    for (n, line) in std::io::BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", args.corpus))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Value =
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let text = record["text"]
            .as_str()
            .ok_or(format!("line {}: no text", n + 1))?;
        let at = utf16_to_code_points(text);
        let findings: Vec<Value> = redactor
            .clone()
            .redact(text)
            .findings
            .iter()
            .map(|f| {
                json!({
                    "type": f.kind.to_string(),
                    "start": at[f.start],
                    "end": at[f.end],
                    "score": f.score,
                    "source": "rule",
                })
            })
            .collect();
        let row = json!({ "id": record["id"], "findings": findings });
        writeln!(output, "{row}").map_err(|e| e.to_string())?;
    }
    output.flush().map_err(|e| e.to_string())
}

fn main() {
    if let Err(message) = parse_args().and_then(run) {
        eprintln!("redact_eval: {message}");
        std::process::exit(1);
    }
}
