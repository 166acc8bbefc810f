//! The one context builder behind every strategy. It pays first for what must be sent (the
//! system prompt and the latest user turn), then fills the rest of the budget by section
//! priority: pinned facts, the summary, recent turns (newest first, contiguous, tool groups
//! whole). It never exceeds the budget and explains every decision in the report. Its work
//! follows what is sent: the recent-turns walk (`walk`) starts at the newest entry and stops
//! when the budget is full, and the report accounts for the entries it never reached as ranges.

use super::fates::fates;
use super::input::BuildInput;
use super::report::*;
use super::retrieved;
use super::sections::{pinned_section, summary_section, Budget};
use super::split;
use super::strategy::Strategy;
use super::walk::{Judge, Walk};
use crate::error::{Error, ErrorCode, Result};
use crate::history::units::UnitIndex;
use crate::history::Role;
use crate::message::ChatMessage;

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BuiltContext {
    pub messages: Vec<ChatMessage>,
    pub report: ContextReport,
}

pub fn build(mut input: BuildInput<'_>) -> Result<BuiltContext> {
    let BuildInput {
        strategy,
        limits,
        overhead,
        counter,
        entries,
        entry_tokens,
        ..
    } = input;
    let mut notes = std::mem::take(&mut input.notes);
    let available = limits
        .max_tokens
        .map(|m| m.saturating_sub(limits.reserve_tokens));
    let mut budget = Budget {
        available,
        used: overhead.per_request,
    };

    let latest_user = entries.iter().rposition(|e| e.role == Role::User);
    // Which entries are already folded into a summary this strategy sends. The latest user
    // message is never among them (it can only get there when newer ones were forgotten).
    let covered = match (&input.summary, strategy) {
        (Some(s), Strategy::Summary) => s.covered.min(latest_user.unwrap_or(entries.len())),
        _ => 0,
    };
    let index = UnitIndex::new(entries, covered);
    let latest_unit = latest_user.and_then(|u| index.containing(u));
    let judge = Judge {
        entries,
        index,
        strategy,
        first_kept: entries.len().saturating_sub(limits.max_turns.unwrap_or(0)),
        latest: latest_unit.as_ref(),
        dedup: input.dedup,
    };

    // 1. What must be sent: the system prompt and the latest user turn.
    let system = input.system_prompt.filter(|(s, _)| !s.is_empty());
    let system_msg = system.map(|(s, _)| ChatMessage::new(Role::System, s));
    let system_tokens = system.map_or(0, |(_, t)| t);
    let mut walk = Walk::new(judge, entry_tokens);
    let latest_tokens = latest_unit.as_ref().map_or(0, |u| walk.tokens(u));
    let (tool_tokens, tool_count) = input.tools.unwrap_or((0, 0));
    if !budget.fits(system_tokens + latest_tokens + tool_tokens) {
        let avail = available.unwrap_or(0);
        return Err(Error::new(
            ErrorCode::ContextOverflow,
            format!(
                "the system prompt ({system_tokens} tokens) and the latest user message \
                 ({latest_tokens} tokens){} need {} tokens with the request overhead, over the \
                 {avail} available (maxTokens {} - reserveTokens {}): raise maxTokens, lower \
                 reserveTokens, or shorten the message",
                if tool_tokens > 0 {
                    format!(" with the tool schemas ({tool_tokens} tokens)")
                } else {
                    String::new()
                },
                system_tokens + latest_tokens + tool_tokens + overhead.per_request,
                limits.max_tokens.unwrap_or(0),
                limits.reserve_tokens,
            ),
        ));
    }
    budget.used += system_tokens + latest_tokens + tool_tokens;

    // 2. Sections by priority.
    let (pinned_msg, pinned_report) = pinned_section(&input, &mut budget);
    let (summary_msg, summary_report) = summary_section(&input, &mut budget, strategy, &mut notes);

    // 3. Recent turns, newest first, stopping at the first that does not fit so the model
    //    never sees a gap in the middle of the conversation.
    let retrieval = input
        .retrieval
        .as_ref()
        .filter(|_| strategy == Strategy::Retrieval);
    let picked = match retrieval {
        None => {
            walk.take(&mut budget, entries.len(), |_| false);
            None
        }
        // Retrieval: recent turns up to their share, then memories, then recent turns again
        // with what the memories left (stopping before a turn already sent as a memory).
        Some(r) => {
            // What follows the latest user turn (an agent's tool calls and their results) is
            // the work in progress: it takes from the whole budget before the recent share, or
            // a long tool result would lose its place to memories and the model would call
            // the tool again.
            let current = match &latest_unit {
                Some(l) => {
                    let l = l.range.start;
                    walk.take(&mut budget, entries.len(), |u| u.range.start < l)
                }
                None => entries.len(),
            };
            // A history that fits goes whole, as turns; memories then only add facts and
            // episodes. Otherwise the newest turns go first as far as the thread needs them
            // (`split`), memories take what they are worth, and the newest turns get whatever
            // the memories leave.
            let share = if walk.fits_whole(budget.remaining(), current) {
                budget.remaining()
            } else {
                let thread = walk.thread(current, 2);
                split::recent_first(budget.remaining(), r.recent_share, &thread)
            };
            let mut capped = Budget {
                available: Some(budget.used.saturating_add(share)),
                used: budget.used,
            };
            let stop = walk.take(&mut capped, current, |_| false);
            budget.used = capped.used;
            let skip = |i: usize| match walk.judge.index.containing(i) {
                Some(u) => walk.judge.reason(&u).is_some() || walk.is_chosen(&u),
                None => true,
            };
            let recent = |i: usize| {
                walk.judge
                    .index
                    .containing(i)
                    .is_some_and(|u| walk.is_chosen(&u))
            };
            let p = retrieved::pick(r, skip, recent, counter, overhead, budget.remaining());
            budget.used += p.tokens;
            let in_memory: Vec<usize> = p
                .entries
                .iter()
                .filter_map(|(i, _)| walk.judge.index.containing(*i))
                .map(|u| u.range.start)
                .collect();
            walk.take(&mut budget, stop, |u| in_memory.contains(&u.range.start));
            Some(p)
        }
    };
    if walk.saw_incomplete {
        notes.push(
            "an assistant tool call is missing some of its tool results; it was not sent \
             (add the results with role \"tool\" and toolCallId)"
                .to_string(),
        );
    }

    // 4. The recent turns in reading order.
    let mut sent_units: Vec<std::ops::Range<usize>> = walk
        .judged
        .values()
        .filter(|(r, _)| walk.chosen.contains(&r.start))
        .map(|(r, _)| r.clone())
        .collect();
    // The latest unit is sent apart from the walk's choices.
    sent_units.extend(latest_unit.as_ref().map(|l| l.range.clone()));
    sent_units.sort_by_key(|r| r.start);
    let mut history_msgs = Vec::new();
    let mut history_tokens = 0;
    for i in sent_units.into_iter().flatten() {
        let sent = input.sent_form.and_then(|f| f(&entries[i]));
        history_msgs.push(ChatMessage::from_entry(
            sent.as_ref().unwrap_or(&entries[i]),
        ));
        history_tokens += entry_tokens[i];
    }
    let (retrieved_entries, retrieved_msgs, retrieved_sections, retrieved_reports) = match picked {
        Some(p) => (p.entries, p.messages, p.sections, p.reports),
        None => Default::default(),
    };
    let fates = fates(
        &walk,
        covered,
        latest_user,
        &retrieved_entries,
        input.detail,
    );
    let history_report = SectionReport {
        name: SectionKind::History,
        marker: None,
        tokens: history_tokens,
        messages: history_msgs.len(),
        items: history_msgs.len(),
        dropped: fates.over_budget,
    };

    // 5. Assemble in reading order.
    let mut messages = Vec::new();
    let mut sections = Vec::new();
    if let Some(m) = system_msg {
        messages.push(m);
        sections.push(SectionReport {
            name: SectionKind::System,
            marker: None,
            tokens: system_tokens,
            messages: 1,
            items: 1,
            dropped: 0,
        });
    }
    if tool_count > 0 {
        sections.push(SectionReport {
            name: SectionKind::Tools,
            marker: None,
            tokens: tool_tokens,
            messages: 0,
            items: tool_count,
            dropped: 0,
        });
    }
    for (msg, report) in [(pinned_msg, pinned_report), (summary_msg, summary_report.1)] {
        if let Some(r) = report {
            messages.extend(msg);
            sections.push(r);
        }
    }
    messages.extend(retrieved_msgs);
    sections.extend(retrieved_sections);
    messages.extend(history_msgs);
    sections.push(history_report);

    let mut report = ContextReport {
        strategy: strategy.as_str(),
        headline: String::new(),
        budget: BudgetReport {
            max_tokens: limits.max_tokens,
            reserve_tokens: limits.reserve_tokens,
            available,
        },
        total_tokens: budget.used,
        messages_sent: messages.len(),
        sections,
        entries: fates.entries,
        ranges: fates.ranges,
        entry_count: entries.len(),
        summary: summary_report.0,
        retrieved: retrieved_reports,
        tokenizer: TokenizerReport {
            kind: counter.kind().to_string(),
            exact: counter.is_exact(),
        },
        notes,
        redactions: Default::default(),
    };
    report.make_headline();
    Ok(BuiltContext { messages, report })
}
