//! The engine's side of embedding, as requests and answers (the way summaries work), whoever
//! embeds: the app's `embed` hook or the in-page model. Before a search, items still waiting
//! for a vector are embedded in batches (all of them, or at most the round's `item_limit`),
//! then the query; items left waiting are ranked by words only until a later round (or
//! `embed_backlog`, the app's idle-time work) embeds them. The texts go out as they may leave
//! the device (redacted with a redactor). The first failure ends the round: the search falls
//! back to words only, a note says why, and the items left waiting are embedded later.

use super::Memory;
use crate::context::Strategy;

/// Texts sent to `embed` per call.
pub const EMBED_BATCH: usize = 128;

/// Waiting items a search embeds first when the model runs in this thread (`embedder`): a
/// few tens of milliseconds of work, so a `context()` after importing a long history does not
/// embed all of it (seconds) before answering. The rest is `embed_backlog`'s, in idle time.
/// An `embed` callback is awaited, not run here: its searches embed everything waiting.
pub const IN_PAGE_ITEMS_PER_SEARCH: usize = 8;

/// One call to make: `embed(texts)`.
#[derive(Debug, Clone)]
pub struct EmbedRequest {
    /// The texts to embed, as they may leave the device.
    pub texts: Vec<String>,
    target: Target,
}

#[derive(Debug, Clone)]
enum Target {
    /// Indexed items, with their texts as stored (a vector record keeps the stored text's hash).
    Items {
        items: Vec<u32>,
        stored: Vec<String>,
    },
    Query,
}

/// The embedding work one search needs: the items waiting for a vector, then its query.
#[derive(Debug, Clone, Default)]
pub struct EmbedRound {
    /// The query, until it is asked for.
    query: Option<String>,
    vector: Option<Vec<f32>>,
    notes: Vec<String>,
    stopped: bool,
    /// Most waiting items this round embeds (`None`: all of them).
    item_limit: Option<usize>,
}

impl EmbedRound {
    /// Embeds at most `limit` waiting items (`None`: all); the query is embedded either way.
    pub fn limit_items(mut self, limit: Option<usize>) -> EmbedRound {
        self.item_limit = limit;
        self
    }

    /// The query's vector (if it was embedded) and notes on failures, for the report.
    pub fn finish(self) -> (Option<Vec<f32>>, Vec<String>) {
        (self.vector, self.notes)
    }
}

impl Memory {
    /// The embedding round of a search for `query` (`recall`, `recallEpisodes`). Brings the
    /// index up to date first. A blank query embeds only the waiting items.
    pub(crate) fn begin_embedding(&mut self, query: &str) -> EmbedRound {
        self.sync_recall();
        EmbedRound {
            query: (!query.trim().is_empty()).then(|| query.to_string()),
            ..EmbedRound::default()
        }
    }

    /// The embedding round of a context: only strategy "retrieval" searches, for `query` or
    /// else the newest user message.
    pub(crate) fn context_embedding(&mut self, query: Option<&str>) -> Option<EmbedRound> {
        if self.config.strategy != Strategy::Retrieval {
            return None;
        }
        let text = match query {
            Some(q) => q.to_string(),
            None => self.latest_user_text().unwrap_or_default(),
        };
        Some(self.begin_embedding(&text))
    }

    /// A round with no query that embeds up to `limit` waiting items: the work an app does in
    /// idle time (a Worker, `requestIdleCallback`) so that searches find every item by meaning
    /// without embedding the history themselves.
    pub(crate) fn embed_backlog(&mut self, limit: usize) -> EmbedRound {
        self.begin_embedding("").limit_items(Some(limit))
    }

    /// The next call the round needs, or `None` when it is done.
    pub(crate) fn next_embedding(&self, round: &mut EmbedRound) -> Option<EmbedRequest> {
        if round.stopped {
            return None;
        }
        let room = round.item_limit.unwrap_or(usize::MAX).min(EMBED_BATCH);
        let batch = self.recall.pending_embeddings(self.history.entries(), room);
        if !batch.is_empty() {
            let (items, stored): (Vec<u32>, Vec<String>) = batch.into_iter().unzip();
            return Some(EmbedRequest {
                texts: stored.iter().map(|t| self.outgoing_text(t)).collect(),
                target: Target::Items { items, stored },
            });
        }
        let query = round.query.take()?;
        Some(EmbedRequest {
            texts: vec![self.outgoing_text(&query)],
            target: Target::Query,
        })
    }

    /// Records the answer to `request` (one vector per text, or why the call failed).
    pub(crate) fn answer_embedding(
        &mut self,
        round: &mut EmbedRound,
        request: EmbedRequest,
        answer: Result<Vec<Vec<f32>>, String>,
    ) {
        let stored = answer.and_then(|vectors| match request.target {
            Target::Items { items, stored } => {
                if let Some(left) = &mut round.item_limit {
                    *left = left.saturating_sub(items.len());
                }
                self.set_embeddings(&items, &stored, &vectors)
            }
            Target::Query => match <[_; 1]>::try_from(vectors) {
                Ok([v]) => {
                    round.vector = Some(v);
                    Ok(())
                }
                Err(v) => Err(format!("embed returned {} vectors for 1 text", v.len())),
            },
        });
        if let Err(e) = stored {
            round.notes.push(format!(
                "embed failed ({e}); memories were ranked by words only"
            ));
            round.stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{NewEntry, Role};
    use crate::memory::MemoryConfig;
    use crate::tokens::ApproximateCounter;
    use std::sync::Arc;

    fn memory(strategy: Strategy) -> Memory {
        let mut config = MemoryConfig {
            strategy,
            ..Default::default()
        };
        config.limits.max_tokens = Some(4000);
        let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
        m.enable_vectors(false);
        m
    }

    fn say(m: &mut Memory, n: usize) {
        for i in 0..n {
            m.add(
                Role::User,
                &format!("message {i}"),
                NewEntry::default(),
                i as f64,
            )
            .unwrap();
        }
    }

    /// A vector per text that differs by text, as a real embedder's would.
    fn vectors(texts: &[String]) -> Vec<Vec<f32>> {
        texts
            .iter()
            .map(|t| vec![t.len() as f32, 1.0, t.bytes().map(f32::from).sum()])
            .collect()
    }

    /// Runs a round to the end with `embed`, returning the batch sizes asked for.
    fn run(
        m: &mut Memory,
        mut round: EmbedRound,
        mut embed: impl FnMut(&[String]) -> Result<Vec<Vec<f32>>, String>,
    ) -> (Vec<usize>, Option<Vec<f32>>, Vec<String>) {
        let mut sizes = Vec::new();
        while let Some(request) = m.next_embedding(&mut round) {
            sizes.push(request.texts.len());
            let answer = embed(&request.texts);
            m.answer_embedding(&mut round, request, answer);
        }
        let (vector, notes) = round.finish();
        (sizes, vector, notes)
    }

    #[test]
    fn waiting_items_go_first_in_batches_then_the_query() {
        let mut m = memory(Strategy::Retrieval);
        say(&mut m, EMBED_BATCH + 5);
        let round = m.begin_embedding("what did I say?");
        let (sizes, vector, notes) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!(sizes, [EMBED_BATCH, 5, 1]);
        assert_eq!(vector, Some(vectors(&["what did I say?".into()]).remove(0)));
        assert!(notes.is_empty(), "{notes:?}");
        let round = m.begin_embedding("again");
        let (sizes, _, _) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!(sizes, [1], "embedded items are not sent again");
    }

    #[test]
    fn a_limited_round_embeds_that_many_items_then_the_query_and_the_rest_wait() {
        let mut m = memory(Strategy::Retrieval);
        say(&mut m, 30);
        let round = m.begin_embedding("what did I say?").limit_items(Some(8));
        let (sizes, vector, _) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!(sizes, [8, 1]);
        assert!(vector.is_some());
        assert_eq!(m.pending_embeddings(), 22);
        let backlog = m.embed_backlog(10);
        let (sizes, vector, _) = run(&mut m, backlog, |t| Ok(vectors(t)));
        assert_eq!((sizes, vector), (vec![10], None));
        let backlog = m.embed_backlog(100);
        let (sizes, _, _) = run(&mut m, backlog, |t| Ok(vectors(t)));
        assert_eq!(sizes, [12], "only what still waits");
        assert_eq!(m.pending_embeddings(), 0);
    }

    #[test]
    fn a_blank_query_embeds_only_the_waiting_items() {
        let mut m = memory(Strategy::Retrieval);
        say(&mut m, 3);
        let round = m.begin_embedding("  ");
        let (sizes, vector, _) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!((sizes, vector), (vec![3], None));
    }

    #[test]
    fn a_failure_ends_the_round_with_a_note_and_the_items_wait() {
        let mut m = memory(Strategy::Retrieval);
        say(&mut m, 3);
        let round = m.begin_embedding("query");
        let (sizes, vector, notes) = run(&mut m, round, |_| Err("rate limited".into()));
        assert_eq!((sizes, vector), (vec![3], None));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("rate limited") && notes[0].contains("words only"));
        let round = m.begin_embedding("query");
        let (sizes, vector, notes) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!(sizes, [3, 1], "the next search embeds them");
        assert!(vector.is_some() && notes.is_empty());
    }

    #[test]
    fn a_wrong_number_of_vectors_is_a_failure() {
        let mut m = memory(Strategy::Retrieval);
        say(&mut m, 2);
        let round = m.begin_embedding("query");
        let (sizes, vector, notes) = run(&mut m, round, |t| Ok(vectors(&t[1..])));
        assert_eq!((sizes, vector), (vec![2], None));
        assert!(notes[0].contains("1 vectors for 2 texts"), "{notes:?}");

        let round = m.begin_embedding("query");
        let (sizes, vector, notes) = run(&mut m, round, |t| {
            Ok(if t.len() == 1 && t[0] == "query" {
                Vec::new()
            } else {
                vectors(t)
            })
        });
        assert_eq!((sizes, vector), (vec![2, 1], None));
        assert!(notes[0].contains("0 vectors for 1 text"), "{notes:?}");
    }

    #[test]
    fn a_context_searches_only_with_strategy_retrieval_for_the_latest_user_text() {
        let mut m = memory(Strategy::Tokens);
        say(&mut m, 2);
        assert!(m.context_embedding(None).is_none());
        let mut m = memory(Strategy::Retrieval);
        m.add(Role::User, "first", NewEntry::default(), 1.0)
            .unwrap();
        m.add(Role::Assistant, "reply", NewEntry::default(), 2.0)
            .unwrap();
        m.add(Role::User, "latest", NewEntry::default(), 3.0)
            .unwrap();
        let mut asked = Vec::new();
        let round = m.context_embedding(None).unwrap();
        run(&mut m, round, |t| {
            asked.push(t.to_vec());
            Ok(vectors(t))
        });
        assert_eq!(asked.last().unwrap(), &["latest".to_string()]);
        let round = m.context_embedding(Some("given")).unwrap();
        let (sizes, vector, _) = run(&mut m, round, |t| Ok(vectors(t)));
        assert_eq!(sizes, [1]);
        assert_eq!(vector, Some(vectors(&["given".into()]).remove(0)));
    }
}
