//! Where redaction time goes, natively: the whole redactor and each entity type alone, over the
//! labeled corpus cut into 2 kB turns (the same text `bench/redact.mjs` uses).
//!
//!   cargo run --release --example redact_profile
//!   cargo run --release --example redact_profile -- --only all --once   # callgrind --toggle-collect='*measured_passes*'
//!   cargo run --release --example redact_profile -- --text FILE         # other text than the corpus
use llm_memory::redact::{EntityType, Redactor, RedactorConfig};
use std::time::Instant;

/// The labeled corpus's messages, or with `--text FILE` that file cut into paragraphs.
fn messages() -> Vec<String> {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--text") {
        let text = std::fs::read_to_string(&args[i + 1]).expect("--text FILE");
        return text.split("\n\n").map(str::to_string).collect();
    }
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/redact_corpus.jsonl"
    ))
    .expect("tests/data/redact_corpus.jsonl");
    corpus
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("corpus line");
            v["text"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

/// The messages packed into 2 kB turns.
fn turns(messages: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for m in messages {
        if !cur.is_empty() {
            cur.push_str("\n\n");
        }
        cur.push_str(m);
        if cur.encode_utf16().count() >= 2048 {
            let cut: Vec<u16> = cur.encode_utf16().take(2048).collect();
            out.push(String::from_utf16_lossy(&cut));
            cur.clear();
        }
    }
    out
}

fn passes(r: &mut Redactor, turns: &[String], n: usize) {
    for _ in 0..n {
        for turn in turns {
            std::hint::black_box(r.redact(turn));
        }
    }
}

/// Three passes over warm caches; `--toggle-collect=*measured_passes*` counts only these.
#[inline(never)]
fn measured_passes(r: &mut Redactor, turns: &[String]) {
    passes(r, turns, 3);
}

fn mbps(config: &str, turns: &[String]) -> f64 {
    let mut r =
        Redactor::new(RedactorConfig::from_json(config).expect("config")).expect("redactor");
    let bytes: usize = turns.iter().map(String::len).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        passes(&mut r, turns, 1);
        best = best.min(t.elapsed().as_secs_f64());
    }
    bytes as f64 / 1e6 / best
}

fn main() {
    // `--digest`: a fingerprint of every redaction of the corpus, to compare two builds.
    if std::env::args().any(|a| a == "--digest") {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut r = Redactor::new(RedactorConfig::default()).expect("redactor");
        let messages = messages();
        let mut n = 0;
        for m in &messages {
            let out = r.redact(m);
            n += out.findings.len();
            out.text.hash(&mut h);
            for f in &out.findings {
                (f.start, f.end, f.score.to_bits()).hash(&mut h);
            }
        }
        for t in turns(&messages) {
            r.redact(&t).text.hash(&mut h);
        }
        println!("{n} findings, digest {:x}", h.finish());
        return;
    }
    // `--only TYPE` (or `--only all`) repeats one measurement, for a profiler.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--only") {
        let kind = args.get(i + 1).map_or("all", String::as_str);
        let config = match kind {
            "all" => "{}".to_string(),
            k if k.starts_with('{') => k.to_string(),
            k => format!(r#"{{"types":["{k}"]}}"#),
        };
        let turns = turns(&messages());
        // `--once`: one warm-up pass, then three in `measured_passes`, for instruction counts
        // (`valgrind --tool=callgrind`), which unlike timings on a shared machine do not drift.
        if args.iter().any(|a| a == "--once") {
            let mut r = Redactor::new(RedactorConfig::from_json(&config).expect("config"))
                .expect("redactor");
            passes(&mut r, &turns, 1); // warms the lazy DFAs: their first pass costs the most
            measured_passes(&mut r, &turns);
            return;
        }
        for _ in 0..3 {
            println!("{kind}: {:.1} MB/s", mbps(&config, &turns));
        }
        return;
    }
    let turns = turns(&messages());
    println!("all types: {:.1} MB/s", mbps("{}", &turns));
    for kind in EntityType::BUILT_IN {
        let config = format!(r#"{{"types":["{kind}"]}}"#);
        println!("{kind:>14}: {:.1} MB/s", mbps(&config, &turns));
    }
}
