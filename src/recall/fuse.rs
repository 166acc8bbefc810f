//! Hybrid ranking: reciprocal-rank fusion (Cormack et al., 2009) of the lexical and the vector
//! ranking, then weighted by recency and importance. Ranks rather than raw scores are fused
//! because BM25 scores and cosines live on unrelated scales.

/// RRF's damping constant: the paper's 60 keeps one list's top hit from drowning the other.
pub const RRF_K: f32 = 60.0;
const DAY_MS: f64 = 86_400_000.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Age at which the recency factor has halved, in days.
    pub half_life_days: f64,
    /// How much recency can move a score: 0 = ignored, 1 = an old item scores near 0.
    pub recency: f32,
    /// How much importance (0..1) can move a score.
    pub importance: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            half_life_days: 30.0,
            recency: 0.3,
            importance: 0.5,
        }
    }
}

/// One item's ranks in the input lists (0 = best) and its metadata.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub item: u32,
    pub lexical_rank: Option<usize>,
    pub vector_rank: Option<usize>,
    /// Milliseconds since the epoch.
    pub timestamp: f64,
    /// 0..1; 0.5 when unknown.
    pub importance: f32,
    /// Position in the log (larger = newer); breaks recency ties between same-time items.
    pub seq: u32,
}

pub fn recency_factor(timestamp: f64, now: f64, w: &Weights) -> f32 {
    let age_days = ((now - timestamp) / DAY_MS).max(0.0);
    let decay = 0.5f64.powf(age_days / w.half_life_days.max(1e-9)) as f32;
    1.0 - w.recency + w.recency * decay
}

/// The fused score of a candidate.
pub fn score(c: &Candidate, now: f64, w: &Weights) -> f32 {
    let rrf = |r: Option<usize>| r.map_or(0.0, |r| 1.0 / (RRF_K + r as f32 + 1.0));
    let base = rrf(c.lexical_rank) + rrf(c.vector_rank);
    let importance = 1.0 - w.importance / 2.0 + w.importance * c.importance.clamp(0.0, 1.0);
    base * recency_factor(c.timestamp, now, w) * importance
}

/// Merges ranked lists of item numbers into candidates (an item may appear in both).
pub fn merge(lexical: &[u32], vector: &[u32]) -> Vec<(u32, Option<usize>, Option<usize>)> {
    let mut out: Vec<(u32, Option<usize>, Option<usize>)> = lexical
        .iter()
        .enumerate()
        .map(|(r, &i)| (i, Some(r), None))
        .collect();
    for (r, &i) in vector.iter().enumerate() {
        match out.iter_mut().find(|c| c.0 == i) {
            Some(c) => c.2 = Some(r),
            None => out.push((i, None, Some(r))),
        }
    }
    out
}

/// Scores and sorts candidates best first (ties: the newer item first).
pub fn rank(cands: &[Candidate], now: f64, w: &Weights) -> Vec<(u32, f32)> {
    let mut scored: Vec<(u32, f32, u32)> = cands
        .iter()
        .map(|c| (c.item, score(c, now, w), c.seq))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.cmp(&a.2)));
    scored.into_iter().map(|(i, s, _)| (i, s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(item: u32, lex: Option<usize>, vec: Option<usize>, ts: f64, imp: f32) -> Candidate {
        Candidate {
            item,
            lexical_rank: lex,
            vector_rank: vec,
            timestamp: ts,
            importance: imp,
            seq: item,
        }
    }

    #[test]
    fn agreement_beats_one_list_and_newer_beats_older() {
        let w = Weights::default();
        let now = 100.0 * DAY_MS;
        let both = cand(1, Some(1), Some(1), now, 0.5);
        let lex_only = cand(2, Some(0), None, now, 0.5);
        let ranked = rank(&[lex_only, both], now, &w);
        assert_eq!(ranked[0].0, 1);
        let old = cand(3, Some(0), None, 0.0, 0.5);
        let new = cand(4, Some(1), None, now, 0.5);
        assert_eq!(rank(&[old, new], now, &w)[0].0, 4);
        let important = cand(5, Some(1), None, now, 1.0);
        let trivial = cand(6, Some(0), None, now, 0.0);
        assert_eq!(rank(&[trivial, important], now, &w)[0].0, 5);
    }

    #[test]
    fn merge_joins_ranks() {
        let m = merge(&[3, 1], &[1, 9]);
        assert_eq!(
            m,
            vec![
                (3, Some(0), None),
                (1, Some(1), Some(0)),
                (9, None, Some(1))
            ]
        );
    }
}
