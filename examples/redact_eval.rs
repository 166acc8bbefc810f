//! Runs the redactor over an evaluation corpus and writes what it found, one JSON line per
//! message: `{"id", "findings": [{"type", "start", "end", "score", "source", "placeholder"}]}`. The scorer
//! (`bench/eval/score.py`) reads these lines for every system alike, so offsets here are Unicode
//! code points into the message text, as the corpus files and Python count them; the redactor's
//! own offsets are UTF-16 and are converted below.
//!
//!   cargo run --release --example redact_eval -- CORPUS.jsonl OUT.jsonl [--model PATH [--model-only]]
//!
//! Default options: every built-in type, default threshold. `--model` adds the PII model to the
//! rules (what `new Redactor({ model })` does); `--model-only` writes the model's own values
//! instead, every kind it labels, with no rule. Each message gets a fresh vault (a
//! clone of one compiled redactor), so a value seen in one message is not found again in the
//! next by the vault alone.
use llm_memory::ner::decode::Meaning;
use llm_memory::ner::Tagger;
use llm_memory::redact::config::ModelOption;
use llm_memory::redact::model::model_spans;
use llm_memory::redact::text_context::TextContext;
use llm_memory::redact::{Redactor, RedactorConfig};
use serde_json::{json, Value};
use std::io::{BufRead, BufWriter, Write};
use std::sync::Arc;

struct Args {
    corpus: String,
    out: String,
    model: Option<String>,
    model_only: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut model = None;
    let mut model_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--model" => model = Some(args.next().ok_or("--model needs a PATH")?),
            "--model-only" => model_only = true,
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            _ => positional.push(arg),
        }
    }
    let [corpus, out] = <[String; 2]>::try_from(positional).map_err(|_| {
        "usage: redact_eval CORPUS.jsonl OUT.jsonl [--model PATH [--model-only]]".to_string()
    })?;
    if model_only && model.is_none() {
        return Err("--model-only needs --model PATH".into());
    }
    Ok(Args {
        corpus,
        out,
        model,
        model_only,
    })
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
    let tagger = match &args.model {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Some(Arc::new(
                Tagger::from_bytes(&bytes).map_err(|e| format!("{path}: {e:?}"))?,
            ))
        }
        None => None,
    };
    let config = RedactorConfig {
        model: tagger.clone().map(ModelOption),
        ..RedactorConfig::default()
    };
    let redactor = Redactor::new(config).map_err(|e| format!("redactor: {e:?}"))?;
    let model_only = tagger.filter(|_| args.model_only);
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
        let findings: Vec<Value> = match &model_only {
            Some(tagger) => model_values(tagger, text)?,
            None => redactor
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
                        "source": format!("{:?}", f.source).to_lowercase(),
                        "placeholder": f.placeholder,
                    })
                })
                .collect(),
        };
        let row = json!({ "id": record["id"], "findings": findings });
        writeln!(output, "{row}").map_err(|e| e.to_string())?;
    }
    output.flush().map_err(|e| e.to_string())
}

/// The model's own values (byte offsets, after the redactor's checks on model spans and the
/// names its text context clears: public figures, the name spoken to, quoted samples), typed
/// as the redactor would name them.
fn model_values(tagger: &Tagger, text: &str) -> Result<Vec<Value>, String> {
    let mut spans = model_spans(
        tagger,
        text,
        llm_memory::redact::model::DEFAULT_MODEL_THRESHOLD,
    )
    .map_err(|e| format!("model: {e:?}"))?;
    let context = TextContext::of(text);
    spans.retain(|s| s.meaning != Meaning::Person || !context.clears_name(s.start, s.end));
    let code_point = |byte: usize| text[..byte].chars().count();
    Ok(spans
        .iter()
        .map(|s| {
            let kind = match s.meaning {
                Meaning::Person => "PERSON",
                Meaning::Address => "ADDRESS",
                Meaning::Email => "EMAIL",
                Meaning::Phone => "PHONE",
                Meaning::Url => "URL",
                Meaning::IdNumber => "ID_NUMBER",
                Meaning::BankNumber => "US_BANK_NUMBER",
            };
            json!({
                "type": kind,
                "start": code_point(s.start),
                "end": code_point(s.end),
                "score": s.score,
                "source": "model",
            })
        })
        .collect())
}

fn main() {
    if let Err(message) = parse_args().and_then(run) {
        eprintln!("redact_eval: {message}");
        std::process::exit(1);
    }
}
