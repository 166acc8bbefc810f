//! The reference retrievers users would write themselves, each filled to the same budget as
//! ours and counted with the same tokenizer: the newest turns, a plain BM25 top-k (Okapi BM25,
//! k1 = 1.2, b = 0.75, lower-cased alphanumeric words, no stemming or stop words: what the
//! usual 50 lines of JS do) and a cosine top-k over the same vectors.

use std::collections::HashMap;

pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// An Okapi BM25 index over turns, built once per conversation.
pub struct Bm25 {
    docs: Vec<HashMap<String, f32>>,
    lens: Vec<f32>,
    df: HashMap<String, f32>,
}

impl Bm25 {
    pub fn new(texts: &[&str]) -> Bm25 {
        let mut docs = Vec::new();
        let mut lens = Vec::new();
        let mut df: HashMap<String, f32> = HashMap::new();
        for t in texts {
            let w = words(t);
            lens.push(w.len() as f32);
            let mut tf: HashMap<String, f32> = HashMap::new();
            for x in w {
                *tf.entry(x).or_default() += 1.0;
            }
            for k in tf.keys() {
                *df.entry(k.clone()).or_default() += 1.0;
            }
            docs.push(tf);
        }
        Bm25 { docs, lens, df }
    }

    /// Scores of the first `upto` turns for `query`.
    pub fn scores(&self, query: &str, upto: usize) -> Vec<f32> {
        let (k1, b) = (1.2f32, 0.75f32);
        let n = upto.max(1) as f32;
        let avg = self.lens[..upto].iter().sum::<f32>() / n;
        let q = words(query);
        (0..upto)
            .map(|i| {
                q.iter()
                    .map(|w| {
                        let Some(tf) = self.docs[i].get(w) else {
                            return 0.0;
                        };
                        let df = self.df.get(w).copied().unwrap_or(0.0);
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        idf * tf * (k1 + 1.0)
                            / (tf + k1 * (1.0 - b + b * self.lens[i] / avg.max(1e-6)))
                    })
                    .sum()
            })
            .collect()
    }
}

pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Takes turns best first (highest score; ties: newer) while their lines fit `budget` tokens.
pub fn fill(scores: &[f32], line_tokens: &[usize], budget: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(b.cmp(&a)));
    let mut used = 0;
    let mut out = Vec::new();
    for i in order {
        if used + line_tokens[i] <= budget {
            used += line_tokens[i];
            out.push(i);
        }
    }
    out
}
