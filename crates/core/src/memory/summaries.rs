//! The engine's side of summary memory: which turns the latest summary covers, the request
//! handed to the app's summarizer, and its answer or failure. At most one request is
//! outstanding; one that passed `summaryTimeoutMs` is kept as late, so a slow summarizer
//! neither turns summarization off nor has its answer thrown away.

use super::Memory;
use crate::context::Strategy;
use crate::error::{Error, ErrorCode, Result};
use crate::history::Entry;
use crate::summary::{self, SummaryRecord, SummaryRequest};

/// A summary the caller is computing, or one given up on whose answer may still come.
#[derive(Debug, Clone)]
pub(super) struct PendingFold {
    request_id: u64,
    end_id: String,
    start_id: String,
    count: usize,
}

/// Late requests kept at most: each one that never settles would otherwise stay for good.
const MAX_LATE: usize = 4;

impl Memory {
    /// Entries `[..n]` covered by the latest summary. A stale one (stored by an earlier
    /// version, which kept a summary covering a forgotten entry and its text) covers nothing:
    /// its turns are sent as turns again, and the next summary starts over without it.
    pub(super) fn covered(&self) -> (Option<&SummaryRecord>, usize) {
        let Some(s) = self.summaries.last().filter(|s| !s.stale) else {
            return (None, 0);
        };
        match self.history.index_of(&s.end_id) {
            Some(i) => (Some(s), i + 1),
            None => (None, 0),
        }
    }

    /// Whether a summary should be written now; if so, returns what to ask the summarizer.
    /// At most one request is outstanding; it is answered with `complete_summary` or
    /// `fail_summary`.
    pub(crate) fn begin_summary(&mut self) -> Option<SummaryRequest> {
        if self.config.strategy != Strategy::Summary || self.pending.is_some() {
            return None;
        }
        let (previous, covered) = self.covered();
        let entries = self.history.entries();
        let end = summary::plan_fold(
            &self.config.summary_trigger(),
            self.config.summary.keep_recent,
            entries,
            &self.entry_tokens,
            covered,
        )?;
        let fold = &entries[covered..end];
        // The previous summary goes back to the summarizer with the turns: as sent, redacted
        // (a summary may hold real values, see `sent_summary`).
        let previous_text = previous.map(|s| self.sent_text(&s.text).0.into_owned());
        // The summarizer is an LLM call too: it sees the turns as sent, redacted.
        let sent_fold: Vec<Entry> = fold
            .iter()
            .map(|e| self.sent_entry(e).unwrap_or_else(|| e.clone()))
            .collect();
        let prompt = summary::render_prompt(
            &self.config.summary.prompt,
            previous_text.as_deref(),
            &sent_fold,
        );
        let start_id = previous.map_or_else(|| fold[0].id.clone(), |s| s.start_id.clone());
        let count = previous.map_or(0, |s| s.count) + fold.len();
        let request = SummaryRequest {
            request_id: self.next_request,
            prompt,
            previous_summary: previous_text,
            start_id: fold[0].id.clone(),
            end_id: fold[fold.len() - 1].id.clone(),
            count: fold.len(),
        };
        self.next_request += 1;
        self.pending = Some(PendingFold {
            request_id: request.request_id,
            end_id: request.end_id.clone(),
            start_id,
            count,
        });
        Some(request)
    }

    /// Records the summarizer's answer to `request_id`: the outstanding request, or one that
    /// timed out (`summary_timed_out`) whose answer came late. A late answer is used from the next
    /// turn on, unless a newer summary already covers as much.
    pub(crate) fn complete_summary(
        &mut self,
        request_id: u64,
        text: &str,
        now: f64,
    ) -> Result<String> {
        let pending = match self.pending.take_if(|p| p.request_id == request_id) {
            Some(p) => p,
            None => {
                let at = self.late.iter().position(|p| p.request_id == request_id);
                at.map(|i| self.late.remove(i)).ok_or_else(|| {
                    Error::new(
                        ErrorCode::NotFound,
                        format!("no summary request {request_id} is outstanding"),
                    )
                })?
            }
        };
        if !self.extends_coverage(&pending) {
            return Err(Error::new(
                ErrorCode::NotFound,
                format!(
                    "summary request {request_id} was overtaken: a newer summary already covers \
                     its turns"
                ),
            ));
        }
        if text.trim().is_empty() {
            self.last_summary_error = Some("the summarizer returned empty text".to_string());
            return Err(Error::new(
                ErrorCode::InvalidDocument,
                "the summarizer returned empty text; the turns were kept unsummarized",
            ));
        }
        // A summary too big to send would hide the turns it covers without taking their place:
        // it must fit its cap (`sectionLimits.summary`), or half of what the budget leaves.
        // It is measured as the builder measures it: the message as sent (redacted, with its
        // marker and overhead), so an accepted summary is never refused by that cap.
        let limits = &self.config.limits;
        let cap = match (limits.summary_max, limits.max_tokens) {
            (Some(cap), _) => Some((cap, "sectionLimits.summary")),
            (None, Some(max)) => Some((
                max.saturating_sub(limits.reserve_tokens) / 2,
                "half of maxTokens after reserveTokens",
            )),
            (None, None) => None,
        };
        let sent = self.sent_text(text.trim()).0.into_owned();
        let tokens = crate::context::sections::summary_message_tokens(
            self.config.overhead,
            &*self.counter,
            &sent,
        );
        if let Some((cap, what)) = cap.filter(|&(cap, _)| tokens > cap) {
            let reason = format!(
                "the summary ({tokens} tokens as sent) was longer than the {cap} it may take \
                 ({what}); the turns were kept unsummarized"
            );
            self.last_summary_error = Some(reason.clone());
            return Err(Error::new(ErrorCode::InvalidDocument, reason));
        }
        let id = crate::history::ids::mint(&self.id_prefix, "sum", request_id);
        self.summaries.push(SummaryRecord {
            id: id.clone(),
            text: text.trim().to_string(),
            start_id: pending.start_id,
            end_id: pending.end_id,
            count: pending.count,
            created_at: now,
            stale: false,
        });
        self.emit_summary(self.summaries.len() - 1);
        self.last_summary_error = None;
        self.summary_forgotten = false;
        Ok(id)
    }

    /// Records that the outstanding request failed (the summarizer threw or answered
    /// nothing usable): the turns stay and trimming takes over. A failure of a request given
    /// up on (`summary_timed_out`), or unknown, only forgets it: it was reported when it was
    /// given up on, and a newer summary may have landed since.
    pub(crate) fn fail_summary(&mut self, request_id: u64, reason: &str) {
        if self
            .pending
            .take_if(|p| p.request_id == request_id)
            .is_some()
        {
            self.last_summary_error = Some(reason.to_string());
        } else {
            self.late.retain(|p| p.request_id != request_id);
        }
    }

    /// Records that the outstanding request passed `summaryTimeoutMs` without an answer. It no
    /// longer blocks the next request (a summarizer that never settles would otherwise turn
    /// summarization off for good), but its answer may still come and is then used from the
    /// next turn on, so it is kept as late.
    pub(crate) fn summary_timed_out(&mut self, request_id: u64) {
        if let Some(p) = self.pending.take_if(|p| p.request_id == request_id) {
            if self.late.len() == MAX_LATE {
                self.late.remove(0);
            }
            self.late.push(p);
        }
    }

    /// A summary is being written: a request is outstanding, or one that timed out could
    /// still bring turns into the summary.
    pub(super) fn summary_in_progress(&self) -> bool {
        self.pending.is_some() || self.late.iter().any(|p| self.extends_coverage(p))
    }

    #[cfg(test)]
    pub(crate) fn summary_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether a request's answer would cover turns the latest summary does not: an older
    /// request answered after a newer one is worth nothing (and its fold may even be gone).
    fn extends_coverage(&self, fold: &PendingFold) -> bool {
        let (_, covered) = self.covered();
        self.history
            .index_of(&fold.end_id)
            .is_some_and(|end| end + 1 > covered)
    }

    /// Forgets every request whose fold reached the entry that was at `index` (`id`): its
    /// answer is written from the forgotten text, so it then matches no request.
    pub(super) fn drop_requests_covering(&mut self, id: &str, index: usize) {
        let entries = self.history.entries();
        let covers = |p: &PendingFold| {
            p.end_id == id || entries.iter().position(|e| e.id == p.end_id) >= Some(index)
        };
        if self.pending.as_ref().is_some_and(covers) {
            self.pending = None;
        }
        self.late.retain(|p| !covers(p));
    }
}

#[cfg(test)]
#[path = "summary_requests_tests.rs"]
mod requests_tests;
#[cfg(test)]
#[path = "summary_safety_tests.rs"]
mod safety_tests;
