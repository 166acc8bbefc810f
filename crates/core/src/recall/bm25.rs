//! An incremental BM25 inverted index. Adding a document appends to the posting lists of its
//! terms; nothing is rebuilt per query. Removal marks the document dead and fixes the document
//! frequencies; dead postings are skipped and compacted away once they pile up. A search reads
//! at most `MAX_POSTINGS` postings: rare terms whole, common ones in their newest postings, so
//! its cost does not grow with the history (the common terms weigh little: low idf).

use super::tokenize::for_each_term;
use rustc_hash::FxHashMap;
use std::collections::HashMap;

/// Okapi BM25 constants (Robertson's usual values).
/// Most postings one search reads. Postings are in document order, oldest first; a term with
/// more than its share is read from its newest postings only. Documents beyond that reach keep
/// the scores of their rarer terms, which is what ranks them (a term in most documents has an
/// idf near zero).
pub const MAX_POSTINGS: usize = 16_384;

const K1: f32 = 1.2;
const B: f32 = 0.75;

#[derive(Debug, Clone, Copy)]
struct Posting {
    doc: u32,
    tf: u32,
}

#[derive(Debug, Clone, Default)]
struct Doc {
    len: u32,
    alive: bool,
    /// Distinct term ids, to fix document frequencies on removal.
    terms: Vec<u32>,
}

#[derive(Debug, Clone, Default)]
pub struct Bm25 {
    term_ids: HashMap<Box<str>, u32>,
    postings: Vec<Vec<Posting>>,
    /// Live documents per term.
    df: Vec<u32>,
    docs: Vec<Doc>,
    live: u32,
    total_len: u64,
    dead_postings: usize,
}

impl Bm25 {
    pub fn new() -> Self {
        Self::default()
    }

    /// Indexes `text` as the next document; returns its number (0, 1, 2, ...).
    pub fn add(&mut self, text: &str) -> u32 {
        let doc = self.docs.len() as u32;
        let mut counts: HashMap<u32, u32> = HashMap::new();
        let mut len = 0u32;
        for_each_term(text, |t| {
            len += 1;
            let next = self.term_ids.len() as u32;
            let id = *self.term_ids.entry(t.into()).or_insert(next);
            if id == next {
                self.postings.push(Vec::new());
                self.df.push(0);
            }
            *counts.entry(id).or_insert(0) += 1;
        });
        let mut terms: Vec<u32> = counts.keys().copied().collect();
        terms.sort_unstable();
        for &t in &terms {
            self.postings[t as usize].push(Posting {
                doc,
                tf: counts[&t],
            });
            self.df[t as usize] += 1;
        }
        self.docs.push(Doc {
            len,
            alive: true,
            terms,
        });
        self.live += 1;
        self.total_len += u64::from(len);
        doc
    }

    /// Removes a document from results. Its number is never reused.
    pub fn remove(&mut self, doc: u32) {
        let Some(d) = self.docs.get_mut(doc as usize) else {
            return;
        };
        if !d.alive {
            return;
        }
        d.alive = false;
        self.live -= 1;
        self.total_len -= u64::from(d.len);
        for &t in &d.terms {
            self.df[t as usize] -= 1;
        }
        self.dead_postings += d.terms.len();
        d.terms = Vec::new();
        if self.dead_postings > 1024 && self.dead_postings * 4 > self.posting_count() {
            self.compact();
        }
    }

    pub fn is_alive(&self, doc: u32) -> bool {
        self.docs.get(doc as usize).is_some_and(|d| d.alive)
    }

    /// Number of live documents.
    pub fn len(&self) -> usize {
        self.live as usize
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    fn posting_count(&self) -> usize {
        self.postings.iter().map(Vec::len).sum()
    }

    fn compact(&mut self) {
        let docs = &self.docs;
        for list in &mut self.postings {
            list.retain(|p| docs[p.doc as usize].alive);
        }
        self.dead_postings = 0;
    }

    /// The `k` best live documents for `query` that pass `keep`, best first, with their BM25
    /// scores. Documents sharing no term with the query are never returned.
    pub fn search(&self, query: &str, k: usize, keep: impl Fn(u32) -> bool) -> Vec<(u32, f32)> {
        if k == 0 || self.live == 0 {
            return Vec::new();
        }
        let mut qterms: Vec<u32> = Vec::new();
        for_each_term(query, |t| {
            if let Some(&id) = self.term_ids.get(t) {
                if !qterms.contains(&id) {
                    qterms.push(id);
                }
            }
        });
        if qterms.is_empty() {
            return Vec::new();
        }
        // Dense accumulators: one zeroed allocation beats hashing at every posting.
        // Rarest first, so that what a rare term leaves of its share goes to the common ones.
        qterms.sort_by_key(|&t| self.postings[t as usize].len());
        let mut scores: FxHashMap<u32, f32> = FxHashMap::default();
        let mut touched: Vec<u32> = Vec::new();
        let n = self.live as f32;
        let avg_len = (self.total_len as f32 / n).max(1.0);
        let mut budget = MAX_POSTINGS;
        for (left, &t) in qterms
            .iter()
            .enumerate()
            .map(|(i, t)| (qterms.len() - i, t))
        {
            let df = self.df[t as usize] as f32;
            if df == 0.0 {
                continue;
            }
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            let list = &self.postings[t as usize];
            let read = list.len().min(budget / left);
            budget -= read;
            for p in &list[list.len() - read..] {
                let d = &self.docs[p.doc as usize];
                if !d.alive {
                    continue;
                }
                let tf = p.tf as f32;
                let norm = K1 * (1.0 - B + B * d.len as f32 / avg_len);
                let s = scores.entry(p.doc).or_insert_with(|| {
                    touched.push(p.doc);
                    0.0
                });
                *s += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut hits: Vec<(u32, f32)> = Vec::with_capacity(touched.len());
        for &doc in &touched {
            let s = scores[&doc];
            if s > 0.0 && keep(doc) {
                hits.push((doc, s));
            }
        }
        top_k(&mut hits, k);
        hits
    }
}

/// Keeps the `k` highest scores, sorted best first (ties: the newer document first).
pub fn top_k(hits: &mut Vec<(u32, f32)>, k: usize) {
    let better = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0));
    if hits.len() > k {
        hits.select_nth_unstable_by(k - 1, better);
        hits.truncate(k);
    }
    hits.sort_unstable_by(better);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_the_document_that_shares_rare_words() {
        let mut ix = Bm25::new();
        ix.add("the weather is nice today");
        let cat = ix.add("my cat is called Whiskers");
        ix.add("I like the weather in Lisbon");
        let hits = ix.search("what is my cat's name", 5, |_| true);
        assert_eq!(hits[0].0, cat);
        assert!(ix.search("zebra", 5, |_| true).is_empty());
    }

    #[test]
    fn an_old_rare_word_is_found_past_the_postings_read() {
        let mut ix = Bm25::new();
        let old = ix.add("my locker code is zebra, weather permitting");
        for i in 0..MAX_POSTINGS + 100 {
            ix.add(&format!("the weather today {i}"));
        }
        let hits = ix.search("what is the zebra code in this weather", 3, |_| true);
        assert_eq!(hits[0].0, old);
        // The common word alone reaches only the newest documents.
        let common = ix.search("weather", 5, |_| true);
        assert!(common.iter().all(|h| h.0 > 100));
    }

    #[test]
    fn removed_documents_are_not_found_and_stats_follow() {
        let mut ix = Bm25::new();
        let a = ix.add("apple pie recipe");
        let b = ix.add("apple tart recipe");
        ix.remove(a);
        ix.remove(a);
        assert_eq!(ix.len(), 1);
        let hits = ix.search("apple", 5, |_| true);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].0, b);
        assert!(ix.search("apple", 5, |d| d != b).is_empty());
    }

    #[test]
    fn compaction_keeps_results() {
        let mut ix = Bm25::new();
        for i in 0..3000 {
            ix.add(&format!("common word number{i}"));
        }
        for d in 0..2500 {
            ix.remove(d);
        }
        let hits = ix.search("number2999 common", 3, |_| true);
        assert_eq!(hits[0].0, 2999);
        assert_eq!(hits.len(), 3);
        assert!(hits.iter().all(|h| h.0 >= 2500));
    }

    /// A straightforward BM25 over the live documents, for the property test.
    fn reference(docs: &[(String, bool)], query: &str) -> Vec<(u32, f32)> {
        let toks: Vec<Vec<String>> = docs
            .iter()
            .map(|d| super::super::tokenize::terms(&d.0))
            .collect();
        let live: Vec<usize> = (0..docs.len()).filter(|&i| docs[i].1).collect();
        let n = live.len() as f32;
        let avg = (live.iter().map(|&i| toks[i].len()).sum::<usize>() as f32 / n).max(1.0);
        let mut q = super::super::tokenize::terms(query);
        q.dedup();
        let mut seen = Vec::new();
        q.retain(|t| {
            if seen.contains(t) {
                false
            } else {
                seen.push(t.clone());
                true
            }
        });
        let mut out = Vec::new();
        for &i in &live {
            let mut s = 0.0;
            for t in &q {
                let df = live.iter().filter(|&&j| toks[j].contains(t)).count() as f32;
                let tf = toks[i].iter().filter(|x| *x == t).count() as f32;
                if tf == 0.0 {
                    continue;
                }
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                s += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * toks[i].len() as f32 / avg));
            }
            if s > 0.0 {
                out.push((i as u32, s));
            }
        }
        out
    }

    proptest! {
        #[test]
        fn scores_match_a_reference(
            docs in prop::collection::vec(("(ant|bee|cat|dog|eel|fox)( (ant|bee|cat|dog|eel|fox)){0,6}", any::<bool>()), 1..30),
            query in "(ant|bee|cat|dog|zzz)( (ant|bee|cat|dog)){0,2}",
        ) {
            let mut ix = Bm25::new();
            for (text, _) in &docs {
                ix.add(text);
            }
            for (i, (_, alive)) in docs.iter().enumerate() {
                if !alive {
                    ix.remove(i as u32);
                }
            }
            let mut got = ix.search(&query, 100, |_| true);
            let mut want = reference(&docs, &query);
            got.sort_by_key(|h| h.0);
            want.sort_by_key(|h| h.0);
            prop_assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                prop_assert_eq!(g.0, w.0);
                prop_assert!((g.1 - w.1).abs() < 1e-3, "{} vs {}", g.1, w.1);
            }
        }
    }
}
