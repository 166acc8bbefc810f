//! The benchmarks as one shape: conversations of dated turns, and questions asked at a point
//! of the conversation whose evidence is a set of earlier turns.
//!
//! - LoCoMo (snap-research/locomo, `locomo10` in its `data/` zip: 10 conversations between two
//!   people over up to 35 dated sessions, about 2 000 questions with `evidence` dialogue ids).
//!   Every question is asked after the whole conversation, as a new user message.
//! - RealMem (zhiyuan5986/RealMemBench, `dataset/*_dialogues_256k.json`: 10 personas talking to
//!   an assistant). A query is a user turn of the stream; its evidence is the turn of an earlier
//!   session that each memory point it used was extracted from.

use llm_memory::time::days_from_civil;
use serde_json::Value;
use std::path::Path;

pub struct Turn {
    /// Speaker A (LoCoMo) and the human (RealMem) are the user.
    pub user: bool,
    pub text: String,
    pub timestamp: f64,
}

pub struct Question {
    /// Turns of the conversation said before it.
    pub after: usize,
    pub text: String,
    pub category: &'static str,
    /// Indexes of the turns that hold its answer (all before `after`).
    pub evidence: Vec<usize>,
    /// Where in those turns, where known (UTF-8 bytes of the turn's text): an excerpt of the
    /// turn that covers it holds the evidence.
    pub spans: Vec<(usize, (usize, usize))>,
    /// LoCoMo asks after the conversation: the question is added, then forgotten. A RealMem
    /// query is the conversation's own turn `after`.
    pub asked_apart: bool,
}

impl Question {
    /// The parts of evidence turn `turn` that hold the answer (none where unknown).
    pub fn evidence_at(&self, turn: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.spans.iter().filter(move |s| s.0 == turn).map(|s| s.1)
    }
}

pub struct Conversation {
    pub benchmark: &'static str,
    pub name: String,
    pub heldout: bool,
    pub turns: Vec<Turn>,
    pub questions: Vec<Question>,
}

const DAY_MS: f64 = 86_400_000.0;

/// "1:56 pm on 8 May, 2023" in ms since the epoch.
fn locomo_time(s: &str) -> Option<f64> {
    let (clock, date) = s.split_once(" on ")?;
    let (hm, ampm) = clock.trim().split_once(' ')?;
    let (h, m) = hm.split_once(':')?;
    let mut h: i64 = h.parse().ok()?;
    let m: i64 = m.parse().ok()?;
    if ampm.eq_ignore_ascii_case("pm") && h != 12 {
        h += 12;
    }
    if ampm.eq_ignore_ascii_case("am") && h == 12 {
        h = 0;
    }
    let date = date.replace(',', "");
    let mut parts = date.split_whitespace();
    let d: i64 = parts.next()?.parse().ok()?;
    let month = parts.next()?.to_lowercase();
    let y: i64 = parts.next()?.parse().ok()?;
    let mo = llm_memory::recall::dates::month(&month)?;
    Some(days_from_civil(y, mo, d) as f64 * DAY_MS + (h * 60 + m) as f64 * 60_000.0)
}

/// LoCoMo's question categories (its paper's numbering as the data uses it).
fn locomo_category(c: i64) -> &'static str {
    match c {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        _ => "adversarial",
    }
}

/// The conversations of `dir` (the unzipped `locomo10` folder or any folder holding its JSON
/// files). `heldout(name)` says which ones tuning never looks at.
pub fn locomo(dir: &Path, heldout: &dyn Fn(&str) -> bool) -> Vec<Conversation> {
    let mut files: Vec<_> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        // The published file is a list of samples with a `conversation` object; the zip's
        // per-conversation files are that object with `qa` beside it.
        let samples: Vec<(String, &Value, &Value)> = match &v {
            Value::Array(a) => a
                .iter()
                .map(|s| {
                    let id = s["sample_id"].as_str().unwrap_or("?").to_string();
                    (id, &s["conversation"], &s["qa"])
                })
                .collect(),
            Value::Object(_) => {
                let id = path.file_stem().unwrap().to_string_lossy().into_owned();
                vec![(id, &v, &v["qa"])]
            }
            _ => continue,
        };
        for (name, conv, qa) in samples {
            if conv["speaker_a"].is_null() {
                continue;
            }
            out.push(locomo_conversation(name.clone(), conv, qa, heldout(&name)));
        }
    }
    out
}

fn locomo_conversation(name: String, conv: &Value, qa: &Value, heldout: bool) -> Conversation {
    let speaker_a = conv["speaker_a"].as_str().unwrap_or("");
    let mut turns = Vec::new();
    let mut ids = std::collections::HashMap::new();
    let mut last = 0.0;
    for n in 1.. {
        let Some(session) = conv[format!("session_{n}")].as_array() else {
            if conv[format!("session_{n}_date_time")].is_null() {
                break;
            }
            continue;
        };
        let start = conv[format!("session_{n}_date_time")]
            .as_str()
            .and_then(locomo_time)
            .unwrap_or(last);
        for (i, t) in session.iter().enumerate() {
            let speaker = t["speaker"].as_str().unwrap_or("");
            let mut text = format!("{speaker}: {}", t["text"].as_str().unwrap_or(""));
            // A shared photo is part of what was said: its caption stands for it.
            if let Some(c) = t["blip_caption"].as_str() {
                text.push_str(&format!(" [shares {c}]"));
            }
            if let Some(id) = t["dia_id"].as_str() {
                ids.insert(id.to_string(), turns.len());
            }
            last = start + i as f64 * 30_000.0;
            turns.push(Turn {
                user: speaker == speaker_a,
                text,
                timestamp: last,
            });
        }
    }
    let questions = qa
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|q| {
            // Evidence ids are sometimes written "D8:6; D9:17" in one string.
            let evidence: Vec<usize> = q["evidence"]
                .as_array()?
                .iter()
                .filter_map(|e| e.as_str())
                .flat_map(|e| e.split([';', ',']))
                .filter_map(|e| ids.get(e.trim()).copied())
                .collect();
            (!evidence.is_empty()).then(|| Question {
                after: turns.len(),
                text: q["question"].as_str().unwrap_or("").to_string(),
                category: locomo_category(q["category"].as_i64().unwrap_or(0)),
                evidence,
                spans: Vec::new(),
                asked_apart: true,
            })
        })
        .collect();
    Conversation {
        benchmark: "LoCoMo",
        name,
        heldout,
        turns,
        questions,
    }
}

/// "2025-12-28 (Sunday)" in ms since the epoch.
fn realmem_day(s: &str) -> Option<f64> {
    let mut p = s.split_whitespace().next()?.split('-');
    let y = p.next()?.parse().ok()?;
    let m = p.next()?.parse().ok()?;
    let d = p.next()?.parse().ok()?;
    Some(days_from_civil(y, m, d) as f64 * DAY_MS + 9.0 * 3_600_000.0)
}

fn realmem_category(c: &str) -> &'static str {
    match c {
        "Dynamic Incremental" => "incremental",
        "Implicit Preference" => "preference",
        "Dynamic Updating" => "updating",
        "Temporal-reasoning" => "temporal",
        _ => "other",
    }
}

/// The personas of `dir` (RealMem's `dataset/`).
pub fn realmem(dir: &Path, heldout: &dyn Fn(&str) -> bool) -> Vec<Conversation> {
    let mut files: Vec<_> = walk(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with("_dialogues_256k.json"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
            let name = p
                .file_name()?
                .to_string_lossy()
                .trim_end_matches("_dialogues_256k.json")
                .to_string();
            let h = heldout(&name);
            Some(realmem_persona(name, &v, h))
        })
        .collect()
}

fn realmem_persona(name: String, v: &Value, heldout: bool) -> Conversation {
    let sessions = v["dialogues"].as_array().cloned().unwrap_or_default();
    let mut turns: Vec<Turn> = Vec::new();
    // Per session: its first turn's index and its turn count.
    let mut where_: std::collections::HashMap<String, (usize, usize)> = Default::default();
    let mut questions = Vec::new();
    // Queries as met: (turn index, text, category, memory points used as (session, text)).
    type Pending = (usize, String, &'static str, Vec<(String, String)>);
    let mut pending: Vec<Pending> = Vec::new();
    for s in &sessions {
        let uuid = s["session_uuid"].as_str().unwrap_or("").to_string();
        let day = s["current_time"]
            .as_str()
            .and_then(realmem_day)
            .unwrap_or(0.0);
        let list = s["dialogue_turns"].as_array().cloned().unwrap_or_default();
        where_.insert(uuid.clone(), (turns.len(), list.len()));
        for (i, t) in list.iter().enumerate() {
            let index = turns.len();
            let content = t["content"].as_str().unwrap_or("").to_string();
            if t["is_query"].as_bool() == Some(true) {
                let used: Vec<(String, String)> = list
                    .get(i + 1)
                    .and_then(|a| a["memory_used"].as_array())
                    .into_iter()
                    .flatten()
                    .map(|m| {
                        (
                            m["session_uuid"].as_str().unwrap_or("").to_string(),
                            m["content"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect();
                let cat = realmem_category(t["category_name"].as_str().unwrap_or(""));
                pending.push((index, content.clone(), cat, used));
            }
            turns.push(Turn {
                user: t["speaker"].as_str() == Some("User"),
                text: content,
                timestamp: day + i as f64 * 60_000.0,
            });
        }
    }
    // A memory point names its session and its text; the point's snapshot of the turn it came
    // from finds that turn.
    let by_uuid: std::collections::HashMap<&str, &Value> = sessions
        .iter()
        .map(|s| (s["session_uuid"].as_str().unwrap_or(""), s))
        .collect();
    for (at, text, category, used) in pending {
        let mut evidence = Vec::new();
        let mut spans = Vec::new();
        let mut complete = !used.is_empty();
        for (uuid, content) in used {
            let found = by_uuid.get(uuid.as_str()).and_then(|s| {
                let point = s["extracted_memory"]
                    .as_array()?
                    .iter()
                    .find(|p| p["content"].as_str() == Some(content.as_str()))?;
                let (first, count) = *where_.get(&uuid)?;
                let snap = point["source_content_snapshot"].as_str().unwrap_or("");
                let probe: String = snap.chars().take(120).collect();
                let hit = (0..count).find(|&k| {
                    !probe.trim().is_empty() && turns[first + k].text.contains(probe.trim())
                });
                // The whole snapshot where the turn holds it, else its opening.
                let span = hit.and_then(|k| {
                    let text = &turns[first + k].text;
                    [snap.trim(), probe.trim()]
                        .into_iter()
                        .find_map(|p| text.find(p).map(|at| (at, at + p.len())))
                        // In UTF-16 code units, as the report's excerpts are.
                        .map(|(a, b)| (utf16(&text[..a]), utf16(&text[..b])))
                });
                let k = hit.or_else(|| {
                    let st = point["source_turn"].as_u64()? as usize;
                    (st >= 1 && st - 1 < count).then(|| st - 1)
                })?;
                Some((first + k, span))
            });
            match found {
                Some((t, span)) if t < at => {
                    evidence.push(t);
                    spans.push((t, span.unwrap_or((0, utf16(&turns[t].text)))));
                }
                _ => complete = false,
            }
        }
        evidence.sort();
        evidence.dedup();
        if complete {
            questions.push(Question {
                after: at,
                text,
                category,
                evidence,
                spans,
                asked_apart: false,
            });
        }
    }
    Conversation {
        benchmark: "RealMem",
        name,
        heldout,
        turns,
        questions,
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn utf16(s: &str) -> usize {
    s.encode_utf16().count()
}
