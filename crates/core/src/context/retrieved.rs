//! The retrieved-memory sections of strategy "retrieval": the older turns and long-term facts
//! most relevant to the query as one `[Memory]` message, past episodes as a `[Past episode]`
//! message, each item with its date, in chronological order. Items are taken best first while
//! they fit; the exact count of the rendered messages has the last word.

use super::excerpt;
use super::report::{ExcerptReport, RetrievedReport, SectionKind, SectionReport};
use crate::history::Role;
use crate::message::ChatMessage;
use crate::time::format_date;
use crate::tokens::{MessageOverhead, TokenCounter};

pub const MEMORY_MARKER: &str = "[Memory]";
pub const EPISODE_MARKER: &str = "[Past episode]";

#[derive(Debug, Clone, PartialEq)]
pub enum RetrievedSource {
    /// A history entry, by index.
    Entry(usize),
    Fact(String),
    Episode(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RetrievedItem {
    pub source: RetrievedSource,
    /// The entry, fact or episode id.
    pub id: String,
    /// The line's text: "user: ..." for a turn, the fact, the episode's description.
    pub text: String,
    pub timestamp: f64,
    /// An episode's first turn, for its date range.
    pub start_time: Option<f64>,
    /// The fused score the items are ranked by.
    pub score: f32,
    /// Its parts: the BM25 score of the query's words and the cosine of the query's vector
    /// (`None` where that ranking did not see the item).
    pub bm25: Option<f32>,
    pub cosine: Option<f32>,
    /// How well it answers the query on 0..1 (the two signals mixed, before recency and
    /// importance); 0 for a turn sent only as a neighbour.
    pub relevance: f32,
    /// The hit whose neighbour it is (history index and id), when that is why it ranks where
    /// it does: it is sent only beside that hit.
    pub neighbour_of: Option<(usize, String)>,
    /// Said within the span of a date the query names.
    pub date_match: bool,
    /// The history index of a newer turn that restates it with another value: the old value
    /// is sent only beside its correction.
    pub corrected_by: Option<usize>,
}

/// A long turn's best part (`excerpt::best` for the query), ready to send.
#[derive(Debug, Clone, PartialEq)]
struct ItemExcerpt {
    /// The line's text: "assistant (excerpt): […] ... […]".
    text: String,
    /// Where it is in the turn as sent, in UTF-16 code units, and the turn's length.
    report: ExcerptReport,
}

/// The excerpt of a turn item for `query`, when the turn is long enough to have one.
fn excerpt_of(item: &RetrievedItem, query: &str) -> Option<ItemExcerpt> {
    if !matches!(item.source, RetrievedSource::Entry(_)) {
        return None;
    }
    let (role, content) = item.text.split_once(": ")?;
    let r = excerpt::best(content, query)?;
    Some(ItemExcerpt {
        text: format!("{role} (excerpt): {}", excerpt::render(content, &r)),
        report: ExcerptReport {
            from: excerpt::utf16_offset(content, r.start),
            to: excerpt::utf16_offset(content, r.end),
            length: excerpt::utf16_offset(content, content.len()),
        },
    })
}

/// Fewer tokens than any memory line costs (its date alone takes about 8).
const MIN_LINE_TOKENS: usize = 8;

/// A whole turn may take at most this part (1/8) of the room for memories; a longer one goes
/// as its excerpt, so one long answer does not crowd out the other finds. Chosen on the tune
/// half of RealMem (user–assistant chats): from 1/4 to 1/8, questions with all their user
/// evidence sent +0.7 to +3.9 points at 2 000–8 000 tokens.
pub const WHOLE_TURN_SHARE: usize = 8;

/// What the engine found for this turn's query, best first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RetrievalInput {
    pub items: Vec<RetrievedItem>,
    /// Part of the budget left after the mandatory messages that recent turns get first.
    pub recent_share: f32,
    /// Most items sent.
    pub max_items: usize,
    /// Items below this relevance are not sent (neighbours go with their hit).
    pub min_relevance: f32,
    /// What the items were found for: long turns are cut to the part that matches it.
    pub query: String,
}

#[derive(Debug, Default)]
pub struct Picked {
    pub messages: Vec<ChatMessage>,
    pub sections: Vec<SectionReport>,
    /// History entries sent as memories, with their scores.
    pub entries: Vec<(usize, f32)>,
    pub reports: Vec<RetrievedReport>,
    /// Tokens of the messages, overhead included.
    pub tokens: usize,
}

fn line(item: &RetrievedItem, cut: Option<&ItemExcerpt>) -> String {
    if let Some(x) = cut {
        return format!("\n- ({}) {}", format_date(item.timestamp), x.text);
    }
    match (&item.source, item.start_time) {
        (RetrievedSource::Episode(_), Some(start))
            if format_date(start) != format_date(item.timestamp) =>
        {
            format!(
                "\n- ({} to {}) {}",
                format_date(start),
                format_date(item.timestamp),
                item.text
            )
        }
        _ => format!("\n- ({}) {}", format_date(item.timestamp), item.text),
    }
}

fn is_episode(item: &RetrievedItem) -> bool {
    matches!(item.source, RetrievedSource::Episode(_))
}

/// The turns that correct a relevant item, or a correction of one (a chain of corrections):
/// an old value is sent only beside its correction, so a correction goes however little it
/// shares with the query, or the relevant old value would not go either.
fn corrections_of_relevant(input: &RetrievalInput) -> std::collections::HashSet<usize> {
    let entry = |it: &RetrievedItem| match it.source {
        RetrievedSource::Entry(e) => Some(e),
        _ => None,
    };
    let mut found: std::collections::HashSet<usize> = (input.items.iter())
        .filter(|it| it.relevance >= input.min_relevance)
        .filter_map(|it| it.corrected_by)
        .collect();
    loop {
        let more: Vec<usize> = (input.items.iter())
            .filter(|it| entry(it).is_some_and(|e| found.contains(&e)))
            .filter_map(|it| it.corrected_by)
            .filter(|c| !found.contains(c))
            .collect();
        if more.is_empty() {
            return found;
        }
        found.extend(more);
    }
}

/// Chooses items best first while they fit `remaining` tokens; `skip(i)` leaves out history
/// entries that are sent anyway or must not be sent, and `recent(i)` says which of them are
/// sent as recent turns. A neighbour goes only where its hit is sent too.
pub fn pick(
    input: &RetrievalInput,
    skip: impl Fn(usize) -> bool,
    recent: impl Fn(usize) -> bool,
    counter: &dyn TokenCounter,
    overhead: MessageOverhead,
    remaining: usize,
) -> Picked {
    let header = |marker: &str| {
        overhead.per_message + counter.count(Role::System.as_str()) + counter.count(marker)
    };
    // (item index, line tokens, the excerpt sent in its place)
    let mut chosen: Vec<(usize, usize, Option<ItemExcerpt>)> = Vec::new();
    let mut used = 0;
    let (mut has_memory, mut has_episode) = (false, false);
    let corrections = corrections_of_relevant(input);
    for (n, item) in input.items.iter().enumerate() {
        // No line is shorter than its date.
        if chosen.len() >= input.max_items || remaining.saturating_sub(used) < MIN_LINE_TOKENS {
            break;
        }
        if let RetrievedSource::Entry(i) = item.source {
            if skip(i) {
                continue;
            }
        }
        let sent = |entry: usize| {
            recent(entry)
                || chosen.iter().any(|(n, _, _)| {
                    matches!(input.items[*n].source, RetrievedSource::Entry(e) if e == entry)
                })
        };
        let corrects = matches!(item.source, RetrievedSource::Entry(e) if corrections.contains(&e));
        if item.neighbour_of.is_none() && item.relevance < input.min_relevance && !corrects {
            continue;
        }
        let beside_hit = item.neighbour_of.as_ref().is_none_or(|(hit, _)| sent(*hit));
        if !beside_hit || !item.corrected_by.is_none_or(sent) {
            continue;
        }
        let whole = counter.count(&line(item, None));
        let cut = (whole > remaining / WHOLE_TURN_SHARE || used + whole > remaining)
            .then(|| excerpt_of(item, &input.query))
            .flatten();
        let t = match &cut {
            Some(x) => counter.count(&line(item, Some(x))),
            None => whole,
        };
        let opens = if is_episode(item) {
            !has_episode
        } else {
            !has_memory
        };
        let marker = if is_episode(item) {
            EPISODE_MARKER
        } else {
            MEMORY_MARKER
        };
        let cost = t + if opens { header(marker) } else { 0 };
        if used + cost <= remaining {
            used += cost;
            chosen.push((n, t, cut));
            if is_episode(item) {
                has_episode = true;
            } else {
                has_memory = true;
            }
        }
    }
    // Token counts are not always additive across line breaks: render, count exactly, and
    // drop the last-ranked item until the sections fit. By rank, not by score: the best find of
    // each signal is ranked first whatever its score (an old turn's is low), and stays.
    loop {
        let picked = render(input, &chosen, counter, overhead);
        if picked.tokens <= remaining || chosen.is_empty() {
            return picked;
        }
        let last = (0..chosen.len()).max_by_key(|&a| chosen[a].0).unwrap_or(0);
        chosen.remove(last);
    }
}

fn render(
    input: &RetrievalInput,
    chosen: &[(usize, usize, Option<ItemExcerpt>)],
    counter: &dyn TokenCounter,
    overhead: MessageOverhead,
) -> Picked {
    let mut order: Vec<&(usize, usize, Option<ItemExcerpt>)> = chosen.iter().collect();
    // Chronological, and history order between turns of the same millisecond.
    let key = |n: usize| {
        let it = &input.items[n];
        let pos = match it.source {
            RetrievedSource::Entry(i) => i,
            _ => usize::MAX,
        };
        (it.timestamp, pos)
    };
    order.sort_by(|a, b| {
        let (ka, kb) = (key(a.0), key(b.0));
        ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1))
    });
    let mut out = Picked::default();
    for (marker, kind, episodes) in [
        (MEMORY_MARKER, SectionKind::Retrieved, false),
        (EPISODE_MARKER, SectionKind::Episodes, true),
    ] {
        let items: Vec<&(usize, usize, Option<ItemExcerpt>)> = order
            .iter()
            .copied()
            .filter(|(n, _, _)| is_episode(&input.items[*n]) == episodes)
            .collect();
        if items.is_empty() {
            continue;
        }
        let mut text = String::from(marker);
        for (n, t, cut) in &items {
            let it = &input.items[*n];
            text.push_str(&line(it, cut.as_ref()));
            let kind = match &it.source {
                RetrievedSource::Entry(i) => {
                    out.entries.push((*i, it.score));
                    "turn"
                }
                RetrievedSource::Fact(_) => "fact",
                RetrievedSource::Episode(_) => "episode",
            };
            out.reports.push(RetrievedReport {
                id: it.id.clone(),
                kind,
                score: round_score(it.score),
                relevance: round_score(it.relevance),
                bm25: it.bm25.map(round_score),
                cosine: it.cosine.map(round_score),
                tokens: *t,
                date: format_date(it.timestamp),
                neighbour_of: it.neighbour_of.as_ref().map(|n| n.1.clone()),
                date_match: it.date_match.then_some(true),
                excerpt: cut.as_ref().map(|x| x.report),
            });
        }
        let msg = ChatMessage::new(Role::System, text);
        let tokens = overhead.message_tokens(counter, &msg);
        out.tokens += tokens;
        out.sections.push(SectionReport {
            name: kind,
            marker: Some(marker),
            tokens,
            messages: 1,
            items: items.len(),
            dropped: 0,
        });
        out.messages.push(msg);
    }
    out
}

/// Scores to six decimals: the report is read by people, and f32 digits past that are noise.
pub fn round_score(s: f32) -> f64 {
    (f64::from(s) * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::ApproximateCounter;

    fn item(source: RetrievedSource, text: &str, ts: f64, score: f32) -> RetrievedItem {
        let id = match &source {
            RetrievedSource::Entry(i) => format!("e{i}"),
            RetrievedSource::Fact(id) | RetrievedSource::Episode(id) => id.clone(),
        };
        RetrievedItem {
            source,
            id,
            text: text.into(),
            timestamp: ts,
            start_time: None,
            score,
            bm25: None,
            cosine: None,
            relevance: score,
            neighbour_of: None,
            date_match: false,
            corrected_by: None,
        }
    }

    #[test]
    fn best_first_within_budget_then_chronological() {
        let day = 86_400_000.0;
        let input = RetrievalInput {
            items: vec![
                item(
                    RetrievedSource::Fact("f2".into()),
                    "favorite color is green",
                    9.0 * day,
                    0.9,
                ),
                item(
                    RetrievedSource::Entry(3),
                    "user: I was born in Lyon",
                    2.0 * day,
                    0.8,
                ),
                item(
                    RetrievedSource::Entry(5),
                    "user: skipped, sent as recent",
                    3.0 * day,
                    0.7,
                ),
                item(
                    RetrievedSource::Episode("ep1".into()),
                    "Planned a trip. Outcome: booked",
                    1.0 * day,
                    0.6,
                ),
                item(RetrievedSource::Entry(1), &"long ".repeat(400), 0.0, 0.5),
            ],
            recent_share: 0.5,
            max_items: 10,
            min_relevance: 0.0,
            query: String::new(),
        };
        let c = ApproximateCounter::default();
        let p = pick(
            &input,
            |i| i == 5,
            |i| i == 5,
            &c,
            MessageOverhead::default(),
            60,
        );
        assert_eq!(p.messages.len(), 2);
        assert_eq!(
            p.messages[0].content,
            "[Memory]\n- (1970-01-03) user: I was born in Lyon\n- (1970-01-10) favorite color is green"
        );
        assert!(p.messages[1]
            .content
            .starts_with("[Past episode]\n- (1970-01-02) Planned"));
        assert_eq!(p.entries, vec![(3, 0.8)]);
        assert!(p.tokens <= 60);
        let sum: usize = p
            .messages
            .iter()
            .map(|m| MessageOverhead::default().message_tokens(&c, m))
            .sum();
        assert_eq!(p.tokens, sum);
        let none = pick(
            &input,
            |_| false,
            |_| false,
            &c,
            MessageOverhead::default(),
            5,
        );
        assert!(none.messages.is_empty() && none.tokens == 0);
    }

    #[test]
    fn a_relevant_old_value_goes_with_its_corrections_however_little_they_share() {
        let day = 86_400_000.0;
        let mut old = item(
            RetrievedSource::Entry(1),
            "user: my locker is 742",
            day,
            0.9,
        );
        old.corrected_by = Some(4);
        // The correction shares no word with the query, nor does the one correcting it.
        let mut correction = item(RetrievedSource::Entry(4), "user: now 3139", 2.0 * day, 0.0);
        correction.corrected_by = Some(6);
        let latest = item(RetrievedSource::Entry(6), "user: no, 5120", 3.0 * day, 0.0);
        let unrelated = item(
            RetrievedSource::Entry(8),
            "user: hello there",
            4.0 * day,
            0.0,
        );
        let input = RetrievalInput {
            items: vec![latest, correction, old, unrelated],
            recent_share: 0.5,
            max_items: 10,
            min_relevance: 0.1,
            query: String::new(),
        };
        let c = ApproximateCounter::default();
        let p = pick(
            &input,
            |_| false,
            |_| false,
            &c,
            MessageOverhead::default(),
            200,
        );
        let sent: Vec<usize> = p.entries.iter().map(|e| e.0).collect();
        assert_eq!(
            sent,
            [1, 4, 6],
            "the chain goes, the unrelated turn does not"
        );
    }
}
