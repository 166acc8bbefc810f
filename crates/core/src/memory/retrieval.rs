//! The memories a context sends for strategy "retrieval": the query's hits (facts, episodes,
//! turns lifted with their neighbours), ranked by the calibrated fusion of words and meaning,
//! dated, and ordered so each signal's surest find goes first.

use super::recall::ContextExtras;
use super::Memory;
use crate::context::{RetrievalInput, RetrievedItem, RetrievedSource, Strategy};
use crate::history::{Entry, Role};
use crate::recall::{dates, find_entry_index, neighbours, ItemKind, RecallHit, RecallQuery};

impl Memory {
    /// Ranked memories for strategy "retrieval"; `None` for other strategies.
    pub(super) fn retrieval_input(
        &self,
        query: Option<&str>,
        extras: &ContextExtras,
    ) -> Option<RetrievalInput> {
        if self.config.strategy != Strategy::Retrieval {
            return None;
        }
        let entries = self.history.entries();
        let latest = entries.iter().rposition(|e| e.role == Role::User);
        let text = query
            .or(latest.map(|i| entries[i].content.as_str()))
            .unwrap_or("");
        let cfg = &self.recall.config;
        let q = RecallQuery {
            text,
            vector: extras.query_vector.as_deref(),
            k: cfg.max_items,
            exclude: latest.map(|i| entries[i].id.as_str()),
            ..Default::default()
        };
        let now = self.recall_now();
        let hits = self.recall.search(&q, now);
        // A date in the query ("in May 2023") lifts the hits said then.
        let span = dates::named_span(text, now);
        let best = hits.iter().map(|h| h.score).fold(0.0, f32::max);
        let dated = |h: &RecallHit| span.is_some_and(|(a, b)| (a..b).contains(&h.timestamp));
        // Turn hits lift the turns around them (`neighbours`); facts and episodes stand alone.
        let mut turn_hits = Vec::new();
        let mut by_entry: std::collections::HashMap<usize, &RecallHit> = Default::default();
        let mut ranked: Vec<(Ranked, f32)> = Vec::new();
        for h in &hits {
            let score = h.score + if dated(h) { dates::SHARE * best } else { 0.0 };
            match h.kind {
                ItemKind::Turn => {
                    if let Some(i) = find_entry_index(entries, &h.id) {
                        turn_hits.push(neighbours::Hit { entry: i, score });
                        by_entry.insert(i, h);
                    }
                }
                _ => ranked.push((Ranked::Memory(h), score)),
            }
        }
        let lifted = neighbours::lift(
            &turn_hits,
            entries.len(),
            |i| entries[i].timestamp,
            |i| {
                matches!(entries[i].role, Role::User | Role::Assistant)
                    && !entries[i].content.trim().is_empty()
            },
        );
        ranked.extend(lifted.into_iter().map(|l| (Ranked::Turn(l), l.score)));
        // Nothing to say for it: no shared word, a vector at the unrelated level, no hit near.
        ranked.retain(|r| r.1 > 0.0);
        // A correction ranks just above what it corrects, whatever lifted the old one (oldest
        // first, so a chain of corrections carries over).
        let correction = |entry: usize| {
            by_entry
                .get(&entry)
                .and_then(|h| h.restated_by.as_deref())
                .and_then(|id| find_entry_index(entries, id))
        };
        let mut at: Vec<(usize, usize)> = ranked
            .iter()
            .enumerate()
            .filter_map(|(k, r)| match r.0 {
                Ranked::Turn(l) => Some((l.entry, k)),
                Ranked::Memory(_) => None,
            })
            .collect();
        at.sort_unstable();
        for &(entry, k) in &at {
            let newer = correction(entry)
                .and_then(|n| at.binary_search_by_key(&n, |p| p.0).ok())
                .map(|p| at[p].1);
            if let Some(nk) = newer {
                if ranked[nk].1 <= ranked[k].1 {
                    ranked[nk].1 = ranked[k].1 * (1.0 + 1e-4);
                }
            }
        }
        // Best first; ties: the newer first, as the search orders.
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| b.0.timestamp(entries).total_cmp(&a.0.timestamp(entries)))
        });
        let items = ranked
            .into_iter()
            .filter_map(|(r, score)| {
                let (h, neighbour_of) = match r {
                    Ranked::Memory(h) => (Some(h), None),
                    Ranked::Turn(l) => (
                        by_entry.get(&l.entry).copied(),
                        l.lender.map(|i| (i, entries[i].id.clone())),
                    ),
                };
                let (source, id, text, start_time, timestamp) = match (r, h) {
                    (Ranked::Turn(l), _) => {
                        let i = l.entry;
                        // Memories are sent too: their text goes out redacted.
                        let e = self.sent_entry(&entries[i]);
                        let e = e.as_ref().unwrap_or(&entries[i]);
                        (
                            RetrievedSource::Entry(i),
                            entries[i].id.clone(),
                            format!("{}: {}", e.role.as_str(), e.content),
                            None,
                            entries[i].timestamp,
                        )
                    }
                    (_, Some(h)) if h.kind == ItemKind::Fact => {
                        let f = self.recall.facts.get(&h.id)?;
                        let text = self.sent_text(&f.text).0.into_owned();
                        (
                            RetrievedSource::Fact(h.id.clone()),
                            h.id.clone(),
                            text,
                            None,
                            h.timestamp,
                        )
                    }
                    (_, Some(h)) => {
                        let e = self.recall.episodes.get(&h.id)?;
                        (
                            RetrievedSource::Episode(h.id.clone()),
                            h.id.clone(),
                            self.sent_text(&e.text()).0.into_owned(),
                            Some(e.start_time),
                            h.timestamp,
                        )
                    }
                    (_, None) => return None,
                };
                Some(RetrievedItem {
                    source,
                    id,
                    text,
                    timestamp,
                    start_time,
                    score,
                    bm25: h.and_then(|h| h.bm25),
                    cosine: h.and_then(|h| h.cosine),
                    relevance: h.map_or(0.0, |h| h.relevance),
                    neighbour_of,
                    date_match: h.is_some_and(dated),
                    corrected_by: match r {
                        Ranked::Turn(l) => correction(l.entry),
                        Ranked::Memory(_) => None,
                    },
                })
            })
            .collect();
        let items = best_of_each_signal_first(items);
        Some(RetrievalInput {
            items,
            recent_share: cfg.recent_share,
            max_items: cfg.max_items,
            min_relevance: cfg.min_relevance,
            query: text.to_string(),
        })
    }
}

/// A candidate memory of a context: a fact or episode as the search found it, or a turn after
/// its neighbours lifted it.
#[derive(Clone, Copy)]
enum Ranked<'a> {
    Memory(&'a RecallHit),
    Turn(neighbours::Lifted),
}

impl Ranked<'_> {
    fn timestamp(&self, entries: &[Entry]) -> f64 {
        match self {
            Ranked::Memory(h) => h.timestamp,
            Ranked::Turn(l) => entries[l.entry].timestamp,
        }
    }
}

/// Moves the best hit by words and the best by meaning to the front (in that order): each
/// signal's surest find is sent whatever the mix makes of the rest, so turning the embedder on
/// never costs the turn that BM25 alone ranks first.
fn best_of_each_signal_first(mut items: Vec<RetrievedItem>) -> Vec<RetrievedItem> {
    let best = |items: &[RetrievedItem], part: fn(&RetrievedItem) -> Option<f32>| {
        items
            .iter()
            .enumerate()
            .filter_map(|(i, it)| part(it).map(|p| (i, p)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)
    };
    // An old value goes with its corrections, which go just before it: the whole chain, or
    // the oldest would wait for a correction ranked far behind and never be sent.
    let to_front = |items: &mut Vec<RetrievedItem>, i: usize| {
        let it = items.remove(i);
        let mut newer = it.corrected_by;
        items.insert(0, it);
        let mut moved = 1;
        while moved < items.len() {
            let Some(p) = newer.and_then(|e| {
                items
                    .iter()
                    .position(|x| x.source == RetrievedSource::Entry(e))
            }) else {
                break;
            };
            let c = items.remove(p);
            newer = c.corrected_by;
            items.insert(0, c);
            moved += 1;
        }
        // Sent for its own signal (or as a correction of what is), not as a neighbour: each
        // goes whether its neighbour does or not.
        for x in items.iter_mut().take(moved) {
            x.neighbour_of = None;
        }
    };
    // For meaning, the surest find that words missed (no shared word, or under half the best
    // BM25): what words find ranks high already,
    // and a question with two sides ("where am I based, and what about gardening?") keeps the
    // side only meaning finds.
    let top_words = items.iter().filter_map(|it| it.bm25).fold(0.0, f32::max);
    let words_missed = |it: &RetrievedItem| it.bm25.is_none_or(|b| b < top_words / 2.0);
    let by_meaning = items
        .iter()
        .enumerate()
        .filter(|(_, it)| words_missed(it))
        .filter_map(|(i, it)| it.cosine.map(|c| (i, c)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
        .or_else(|| best(&items, |it| it.cosine));
    if let Some(i) = by_meaning {
        to_front(&mut items, i);
    }
    if let Some(i) = best(&items, |it| it.bm25) {
        to_front(&mut items, i);
    }
    items
}
