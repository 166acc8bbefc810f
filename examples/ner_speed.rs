//! Speed of the NER encoder natively: milliseconds per call for 30-, 128- and 512-token inputs on
//! `models/pii-ner.bin` (`make model`). Run with `cargo run --release --example ner_speed [N...]`.
//! Prints wall time and, on Linux, the CPU time of this thread (from /proc/thread-self/schedstat),
//! which stays meaningful on a machine busy with other work.

use llm_memory::ner::NerModel;
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU, where Linux tells.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/pii-ner.bin");
    let bytes =
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run make model)", path.display()));
    let start = Instant::now();
    let model = NerModel::from_bytes(&bytes).expect("model loads");
    println!(
        "load: {:.1} ms ({} bytes)",
        start.elapsed().as_secs_f64() * 1e3,
        bytes.len()
    );
    let special = model.special_tokens();
    let lengths: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let lengths = if lengths.is_empty() {
        vec![30, 128, 512]
    } else {
        lengths
    };
    for n in lengths {
        // Ordinary word ids (past the special tokens), [CLS] first and [SEP] last.
        let mut ids: Vec<u32> = (0..n as u32).map(|i| 1000 + (i * 7919) % 15000).collect();
        ids[0] = special.cls;
        ids[n - 1] = special.sep;
        model.logits(&ids).expect("warm-up");
        let runs = (2000 / n).max(3);
        let (start, cpu_start) = (Instant::now(), cpu_ns());
        for _ in 0..runs {
            std::hint::black_box(model.logits(std::hint::black_box(&ids)).expect("logits"));
        }
        let wall = start.elapsed().as_secs_f64() * 1e3 / runs as f64;
        let cpu = match (cpu_start, cpu_ns()) {
            (Some(a), Some(b)) => format!("{:8.2} ms CPU", (b - a) as f64 / 1e6 / runs as f64),
            _ => String::new(),
        };
        println!("{n:>4} tokens: {wall:8.2} ms wall {cpu} per call ({runs} runs)");
    }
}
