//! Speed of the sentence embedder natively: milliseconds per `embed` call for texts of about 10,
//! 30, 128 and 254 tokens on `models/embed.bin` (`make embed-model`). Run with
//! `cargo run --release --example embed_speed`. Prints wall time and, on Linux, the CPU time of
//! this thread (from /proc/thread-self/schedstat), which stays meaningful on a busy machine.

use llm_memory::ner::EmbedModel;
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU, where Linux tells.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/embed.bin");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run make embed-model)", path.display()));
    let start = Instant::now();
    let model = EmbedModel::from_bytes(&bytes).expect("model loads");
    println!(
        "load: {:.1} ms ({} bytes)",
        start.elapsed().as_secs_f64() * 1e3,
        bytes.len()
    );
    let sentence = "I keep forgetting which locker I used at the pool, so I wrote it down. ";
    for words in [8, 24, 100, 200] {
        let text: String = sentence
            .split(' ')
            .cycle()
            .take(words)
            .collect::<Vec<_>>()
            .join(" ");
        let tokens = model.count_tokens(&text);
        model.embed(&[&text]);
        let runs = (1500 / tokens).max(3);
        let (start, cpu_start) = (Instant::now(), cpu_ns());
        for _ in 0..runs {
            std::hint::black_box(model.embed(&[std::hint::black_box(&text)]));
        }
        let wall = start.elapsed().as_secs_f64() * 1e3 / runs as f64;
        let cpu = match (cpu_start, cpu_ns()) {
            (Some(a), Some(b)) => format!("{:8.2} ms CPU", (b - a) as f64 / 1e6 / runs as f64),
            _ => String::new(),
        };
        println!("{tokens:>4} tokens: {wall:8.2} ms wall {cpu} per text ({runs} runs)");
    }
}
