//! The sections sent before the recent turns, in priority order: pinned facts, then the
//! summary. Each takes what fits its cap and the budget and reports why it did not when not.

use super::input::BuildInput;
use super::report::*;
use super::strategy::Strategy;
use crate::history::Role;
use crate::message::ChatMessage;
use crate::tokens::{MessageOverhead, TokenCounter};

/// The first line of the pinned-facts message, so a reader (and the report) can tell it apart.
pub const PINNED_MARKER: &str = "[Pinned facts]";
/// The first line of the summary message.
pub const SUMMARY_MARKER: &str = "[Summary of earlier conversation]";

/// Tracks spending against the budget (unbounded when no `maxTokens` is set).
pub(super) struct Budget {
    pub(super) available: Option<usize>,
    pub(super) used: usize,
}

impl Budget {
    pub(super) fn fits(&self, tokens: usize) -> bool {
        self.available.is_none_or(|a| self.used + tokens <= a)
    }
    pub(super) fn remaining(&self) -> usize {
        self.available
            .map_or(usize::MAX, |a| a.saturating_sub(self.used))
    }
}

/// Pinned facts as one system message, as many as fit (in pin order), deduplicated.
pub(super) fn pinned_section(
    input: &BuildInput<'_>,
    budget: &mut Budget,
) -> (Option<ChatMessage>, Option<SectionReport>) {
    if input.pinned.is_empty() {
        return (None, None);
    }
    let cap = input
        .limits
        .pinned_max
        .unwrap_or(usize::MAX)
        .min(budget.remaining());
    let mut kept: Vec<&str> = Vec::new();
    let mut tokens = 0;
    let mut dropped = 0;
    for fact in input.pinned {
        if kept.contains(&fact.text.as_str()) {
            continue;
        }
        let mut trial = kept.clone();
        trial.push(&fact.text);
        let t = input
            .overhead
            .message_tokens(input.counter, &pinned_message(&trial));
        if t <= cap {
            kept = trial;
            tokens = t;
        } else {
            dropped += 1;
        }
    }
    let report = SectionReport {
        name: SectionKind::Pinned,
        marker: Some(PINNED_MARKER),
        tokens,
        messages: usize::from(!kept.is_empty()),
        items: kept.len(),
        dropped,
    };
    if kept.is_empty() {
        return (None, Some(report));
    }
    budget.used += tokens;
    (Some(pinned_message(&kept)), Some(report))
}

fn pinned_message(facts: &[&str]) -> ChatMessage {
    let mut text = String::from(PINNED_MARKER);
    for f in facts {
        text.push_str("\n- ");
        text.push_str(f);
    }
    ChatMessage::new(Role::System, text)
}

type SummaryParts = (Option<SummaryReport>, Option<SectionReport>);

pub(super) fn summary_section(
    input: &BuildInput<'_>,
    budget: &mut Budget,
    strategy: Strategy,
    notes: &mut Vec<String>,
) -> (Option<ChatMessage>, SummaryParts) {
    let Some(s) = input.summary.as_ref() else {
        return (None, (None, None));
    };
    let msg = summary_message(&s.record.text);
    let tokens = input.overhead.message_tokens(input.counter, &msg);
    let over_cap = input.limits.summary_max.filter(|&cap| tokens > cap);
    let send = strategy == Strategy::Summary && over_cap.is_none() && budget.fits(tokens);
    if strategy == Strategy::Summary && !send {
        // Name the cause: a cap the app can raise, or what the budget had left.
        let cause = match over_cap {
            Some(cap) => format!("is over sectionLimits.summary ({cap})"),
            None => format!(
                "did not fit the {} tokens the budget had left",
                budget.remaining()
            ),
        };
        notes.push(format!(
            "the summary ({tokens} tokens) {cause} and was not sent; the turns it covers are \
             not in this context"
        ));
    }
    let summary_report = SummaryReport {
        id: s.record.id.clone(),
        start_id: s.record.start_id.clone(),
        end_id: s.record.end_id.clone(),
        count: s.record.count,
        tokens,
        included: send,
        stale: s.record.stale,
    };
    if !send {
        return (None, (Some(summary_report), None));
    }
    budget.used += tokens;
    let section = SectionReport {
        name: SectionKind::Summary,
        marker: Some(SUMMARY_MARKER),
        tokens,
        messages: 1,
        items: 1,
        dropped: 0,
    };
    (Some(msg), (Some(summary_report), Some(section)))
}

/// What a summary costs as sent (its marker and the per-message overhead included): the
/// measure the engine accepts a summary by, so that one accepted under its cap is sendable.
pub fn summary_message_tokens(
    overhead: MessageOverhead,
    counter: &dyn TokenCounter,
    text: &str,
) -> usize {
    overhead.message_tokens(counter, &summary_message(text))
}

fn summary_message(text: &str) -> ChatMessage {
    ChatMessage::new(Role::System, format!("{SUMMARY_MARKER}\n{text}"))
}
