//! Restatements: a later turn that says the same thing as an older one with another value
//! ("Actually, my locker number is 3139 now." after "My locker number is 742.") is the
//! current statement. When the vectors show one turn restating another among a search's
//! candidates, the newer is ranked just above the older, so a context that sends the old value
//! also sends the correction. Words alone leave this to recency; with vectors, a reworded
//! question can sit nearer the old statement than the new one.

use super::{ItemKind, RecallState};

/// Two turns whose vectors are at least this close say the same thing about the same subject
/// ("My locker number is 742." and, later, "Actually, my locker number is 3139 now."); below
/// 0.999, as an exact repeat says nothing new.
const RESTATEMENT_COSINE: f32 = 0.8;
/// Best candidates compared pairwise for restatements (a few thousand dot products).
const RESTATEMENT_POOL: usize = 96;

impl RecallState {
    /// Ranks a turn that restates an older candidate (by vector) just above it: the newer
    /// statement is the current one, so a context that sends the old value also sends the
    /// correction, and sends it first. Oldest first, so a chain of corrections carries over.
    /// Returns, for each older item restated, the newest item restating it.
    pub(super) fn prefer_restatements(
        &self,
        ranked: &mut [(u32, f32)],
    ) -> std::collections::HashMap<u32, u32> {
        let mut restated = std::collections::HashMap::new();
        let m = ranked.len().min(RESTATEMENT_POOL);
        let item = |n: u32| &self.items[n as usize];
        let mut order: Vec<usize> = (0..m)
            .filter(|&i| item(ranked[i].0).kind == ItemKind::Turn)
            .collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (item(ranked[a].0), item(ranked[b].0));
            x.timestamp
                .total_cmp(&y.timestamp)
                .then(ranked[a].0.cmp(&ranked[b].0))
        });
        let mut moved = false;
        for (at, &older) in order.iter().enumerate() {
            for &newer in &order[at + 1..] {
                let (a, b) = (ranked[older], ranked[newer]);
                let restates = self
                    .vectors
                    .pair_cosine(a.0, b.0)
                    .is_some_and(|c| (RESTATEMENT_COSINE..0.999).contains(&c));
                if restates {
                    restated.insert(a.0, b.0);
                }
                if restates && b.1 <= a.1 {
                    ranked[newer].1 = a.1 * (1.0 + 1e-4);
                    moved = true;
                }
            }
        }
        if moved {
            // As `fuse::rank` orders: score, then the newer item first.
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        }
        restated
    }
}

#[cfg(test)]
mod tests {
    use super::super::RecallQuery;
    use super::*;
    use crate::history::{History, NewEntry, Role};

    #[test]
    fn a_restatement_ranks_just_above_the_turn_it_corrects() {
        let mut h = History::new();
        let mut r = RecallState::new();
        r.enable_vectors(false);
        let texts = [
            "My locker number is 742.",
            "Nice weather today.",
            "Actually, my locker number is 3139 now.",
            "The pool was busy.",
        ];
        for (i, t) in texts.iter().enumerate() {
            h.push(Role::User, t, NewEntry::default(), i as f64 * 1000.0)
                .unwrap();
            r.add_entry(h.entries().last().unwrap());
        }
        // The old statement is nearest the query; its correction is close to it (0.90), the
        // others are not.
        let vectors = [
            vec![1.0, 0.2, 0.0],
            vec![0.0, 0.0, 1.0],
            vec![0.8, 0.6, 0.0],
            vec![0.0, 1.0, 0.3],
        ];
        let pending = r.pending_embeddings(h.entries(), 10);
        let items: Vec<u32> = pending.iter().map(|p| p.0).collect();
        let stored: Vec<String> = pending.iter().map(|p| p.1.clone()).collect();
        r.set_embeddings(&items, &stored, &vectors).unwrap();
        let q = RecallQuery {
            text: "cubby",
            vector: Some(&[1.0, 0.0, 0.0]),
            k: 4,
            ..Default::default()
        };
        let ids: Vec<String> = r.search(&q, 4000.0).into_iter().map(|h| h.id).collect();
        assert_eq!(&ids[..2], ["e3", "e1"], "{ids:?}");
        // Words only: no vectors to compare, the ranking is left alone.
        let words = RecallQuery {
            text: "locker number",
            k: 4,
            ..Default::default()
        };
        assert_eq!(r.search(&words, 4000.0).len(), 2);
    }
}
