//! Hybrid ranking by calibrated scores, then weighted by recency and importance.
//!
//! Each signal is put on a 0..1 scale against the query's own candidates before mixing: BM25
//! divided by the best BM25 of the query, and the cosine measured from the floor of the vector
//! candidates (the cosine of the last one pulled, what an unrelated text scores for this query)
//! up to the best cosine. Ranks alone (reciprocal-rank fusion) throw away how far ahead a hit
//! is: a short generic turn ("Go Jon!") that is tenth by both lists would outrank the turn that
//! is first by words and fortieth by meaning. Scores keep that distance, and an item one signal
//! has not seen (no shared word, no vector yet) is judged by the other alone.

const DAY_MS: f64 = 86_400_000.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Age at which the recency factor has halved, in days.
    pub half_life_days: f64,
    /// How much recency can move a score: 0 = ignored, 1 = an old item scores near 0.
    pub recency: f32,
    /// How much importance (0..1) can move a score.
    pub importance: f32,
    /// The words' share of the mix when both signals see an item; meaning gets the rest.
    pub lexical: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            half_life_days: 30.0,
            // Old turns hold most of what long chats are asked about: recency breaks near-ties
            // (a correction beats the value it corrects) rather than burying the past.
            recency: 0.05,
            importance: 0.5,
            // Chosen on the tuning half of LoCoMo: from 0.5 to 0.8 every category stays at
            // or above words alone, and 0.7 sends the most evidence at 1 000–4 000 tokens.
            // RealMem's tune half (user and assistant) prefers 0.6 (+0.3 to +1.4 points of
            // user evidence), but on held-out LoCoMo 0.6 lost a point or more in some
            // categories at 1 000–2 000 tokens: human chats keep 0.7.
            lexical: 0.7,
        }
    }
}

/// One item's raw signals and its metadata.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub item: u32,
    /// Its BM25 score for the query (`None`: it shares no word, or was not pulled).
    pub bm25: Option<f32>,
    /// The cosine of its vector with the query's (`None`: no query vector, or not embedded).
    pub cosine: Option<f32>,
    /// Milliseconds since the epoch.
    pub timestamp: f64,
    /// 0..1; 0.5 when unknown.
    pub importance: f32,
    /// Position in the log (larger = newer); breaks recency ties between same-time items.
    pub seq: u32,
}

/// The query's own yardsticks for both signals.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scale {
    /// The best BM25 score among the candidates.
    pub bm25_max: f32,
    /// The best cosine, and the cosine of the last vector candidate pulled: the level an
    /// unrelated item reaches for this query.
    pub cosine_max: f32,
    pub cosine_floor: f32,
    /// Whether the query has a vector (else the mix is words alone).
    pub vectors: bool,
}

impl Scale {
    /// From the BM25 scores and the cosines of the pulled candidates, each best first.
    pub fn of(bm25: &[f32], cosines: Option<&[f32]>) -> Scale {
        let bm25_max = bm25.iter().copied().fold(0.0, f32::max);
        match cosines {
            Some(c) if !c.is_empty() => Scale {
                bm25_max,
                cosine_max: c.iter().copied().fold(f32::MIN, f32::max),
                cosine_floor: c.iter().copied().fold(f32::MAX, f32::min),
                vectors: true,
            },
            _ => Scale {
                bm25_max,
                vectors: cosines.is_some(),
                ..Scale::default()
            },
        }
    }

    /// The words' signal on 0..1.
    pub fn lexical(&self, bm25: Option<f32>) -> f32 {
        match bm25 {
            Some(s) if self.bm25_max > 0.0 => (s / self.bm25_max).clamp(0.0, 1.0),
            _ => 0.0,
        }
    }

    /// The meaning's signal on 0..1: 0 at the floor, 1 for the best.
    pub fn semantic(&self, cosine: Option<f32>) -> f32 {
        let span = self.cosine_max - self.cosine_floor;
        match cosine {
            Some(c) if span > 1e-6 => ((c - self.cosine_floor) / span).clamp(0.0, 1.0),
            // One candidate, or all alike: each is as close as the best.
            Some(_) => 1.0,
            None => 0.0,
        }
    }
}

pub fn recency_factor(timestamp: f64, now: f64, w: &Weights) -> f32 {
    let age_days = ((now - timestamp) / DAY_MS).max(0.0);
    let decay = 0.5f64.powf(age_days / w.half_life_days.max(1e-9)) as f32;
    1.0 - w.recency + w.recency * decay
}

/// How well a candidate answers the query, 0..1, before recency and importance. An item the
/// vectors cannot judge (no query vector, or not embedded yet) is judged by its words alone.
pub fn relevance(c: &Candidate, s: &Scale, w: &Weights) -> f32 {
    let lexical = s.lexical(c.bm25);
    if !s.vectors || c.cosine.is_none() {
        return lexical;
    }
    let share = w.lexical.clamp(0.0, 1.0);
    share * lexical + (1.0 - share) * s.semantic(c.cosine)
}

/// The fused score of a candidate.
pub fn score(c: &Candidate, s: &Scale, now: f64, w: &Weights) -> f32 {
    let importance = 1.0 - w.importance / 2.0 + w.importance * c.importance.clamp(0.0, 1.0);
    relevance(c, s, w) * recency_factor(c.timestamp, now, w) * importance
}

/// Scores and sorts candidates best first (ties: the newer item first).
pub fn rank(cands: &[Candidate], s: &Scale, now: f64, w: &Weights) -> Vec<(u32, f32)> {
    let mut scored: Vec<(u32, f32, u32)> = cands
        .iter()
        .map(|c| (c.item, score(c, s, now, w), c.seq))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.cmp(&a.2)));
    scored.into_iter().map(|(i, s, _)| (i, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(item: u32, bm25: Option<f32>, cosine: Option<f32>, ts: f64, imp: f32) -> Candidate {
        Candidate {
            item,
            bm25,
            cosine,
            timestamp: ts,
            importance: imp,
            seq: item,
        }
    }

    #[test]
    fn agreement_beats_one_signal_and_newer_beats_older() {
        let w = Weights::default();
        let now = 100.0 * DAY_MS;
        let s = Scale::of(&[10.0, 8.0], Some(&[0.6, 0.5, 0.2]));
        let both = cand(1, Some(8.0), Some(0.6), now, 0.5);
        let words_only = cand(2, Some(10.0), Some(0.2), now, 0.5);
        assert_eq!(rank(&[words_only, both], &s, now, &w)[0].0, 1);
        let old = cand(3, Some(10.0), None, 0.0, 0.5);
        let new = cand(4, Some(10.0), None, now, 0.5);
        assert_eq!(rank(&[old, new], &s, now, &w)[0].0, 4);
        let important = cand(5, Some(9.0), None, now, 1.0);
        let trivial = cand(6, Some(10.0), None, now, 0.0);
        assert_eq!(rank(&[trivial, important], &s, now, &w)[0].0, 5);
    }

    #[test]
    fn a_distant_second_stays_behind_a_clear_first() {
        // Reciprocal ranks would tie these two (first + absent against second + second);
        // scores see that the first is far ahead by words and the other barely related.
        let w = Weights::default();
        let s = Scale::of(&[12.0, 2.0], Some(&[0.55, 0.50, 0.10]));
        let clear = cand(1, Some(12.0), Some(0.30), 0.0, 0.5);
        let generic = cand(2, Some(2.0), Some(0.50), 0.0, 0.5);
        assert_eq!(rank(&[generic, clear], &s, 0.0, &w)[0].0, 1);
    }

    #[test]
    fn an_item_without_a_vector_is_judged_by_its_words() {
        let w = Weights::default();
        let s = Scale::of(&[5.0], Some(&[0.9, 0.1]));
        let unembedded = cand(1, Some(5.0), None, 0.0, 0.5);
        assert_eq!(relevance(&unembedded, &s, &w), 1.0);
        let words_only = Scale::of(&[5.0], None);
        assert_eq!(
            relevance(&cand(2, Some(2.5), Some(0.9), 0.0, 0.5), &words_only, &w),
            0.5
        );
    }
}
