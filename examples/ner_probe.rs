//! Prints what the PII model finds in each line of a text file (or in the arguments), with
//! the score: for reading what the model adds to the rules, and what it gets wrong.
//!
//!   make model && cargo run --release --example ner_probe -- FILE | -t "text" ...
use llm_memory::ner::Tagger;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lines: Vec<String> = match args.first().map(String::as_str) {
        Some("-t") => args[1..].to_vec(),
        Some(path) => std::fs::read_to_string(path)
            .expect("readable file")
            .lines()
            .map(str::to_string)
            .collect(),
        None => {
            eprintln!("usage: ner_probe FILE | ner_probe -t TEXT...");
            std::process::exit(2);
        }
    };
    let bytes = std::fs::read("models/pii-ner.bin").expect("models/pii-ner.bin (make model)");
    let tagger = Tagger::from_bytes(&bytes).expect("a model file");
    for line in &lines {
        let spans = tagger.spans(line, 0.5).expect("tagged");
        println!("{line}");
        for s in spans {
            println!(
                "  {:?} {:?} {:.2}",
                s.meaning,
                &line[s.start..s.end],
                s.score
            );
        }
    }
}
