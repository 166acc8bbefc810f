//! The one context builder behind every strategy. It pays first for what must be sent (the
//! system prompt and the latest user turn), then fills the rest of the budget by section
//! priority: pinned facts, the summary, recent turns (newest first, contiguous, tool groups
//! whole). It never exceeds the budget and explains every decision in the report.

use super::input::BuildInput;
use super::report::*;
use super::retrieved;
use super::sections::{pinned_section, summary_section, Budget};
use super::strategy::Strategy;
use crate::error::{Error, ErrorCode, Result};
use crate::history::units::{group, Unit, UnitKind};
use crate::history::{Entry, Role};
use crate::message::ChatMessage;

#[derive(Debug, Clone, PartialEq)]
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
    let mut fate: Vec<(EntryStatus, Reason)> = (0..entries.len())
        .map(|i| {
            if i < covered {
                (EntryStatus::Summarized, Reason::Summarized)
            } else {
                (EntryStatus::Dropped, Reason::OverBudget)
            }
        })
        .collect();

    let units = group(entries, covered);
    let latest_unit = latest_user.and_then(|u| units.iter().position(|x| x.range.contains(&u)));
    let unit_tokens = |u: &Unit| -> usize { u.range.clone().map(|i| entry_tokens[i]).sum() };

    // 1. Candidates by strategy; everything else gets its reason now.
    let mut candidate = vec![true; units.len()];
    for (k, unit) in units.iter().enumerate() {
        let reason = match unit.kind {
            UnitKind::Orphan => Some(Reason::OrphanToolResult),
            UnitKind::Incomplete => Some(Reason::ToolPairIncomplete),
            UnitKind::Complete => None,
        };
        let reason = reason.or(match strategy {
            Strategy::None if Some(k) != latest_unit => Some(Reason::StrategyNone),
            Strategy::Window => {
                let first_kept = entries.len().saturating_sub(limits.max_turns.unwrap_or(0));
                (unit.range.start < first_kept && Some(k) != latest_unit)
                    .then_some(Reason::OutsideWindow)
            }
            _ => None,
        });
        if let Some(r) = reason {
            candidate[k] = false;
            for i in unit.range.clone() {
                fate[i] = (EntryStatus::Dropped, r);
            }
        }
    }
    if units.iter().any(|u| u.kind == UnitKind::Incomplete) {
        notes.push(
            "an assistant tool call is missing some of its tool results; it was not sent \
             (add the results with role \"tool\" and toolCallId)"
                .to_string(),
        );
    }
    if input.dedup {
        drop_duplicates(entries, &units, &mut candidate, &mut fate, latest_unit);
    }

    // 2. What must be sent: the system prompt and the latest user turn.
    let system = input.system_prompt.filter(|(s, _)| !s.is_empty());
    let system_msg = system.map(|(s, _)| ChatMessage::new(Role::System, s));
    let system_tokens = system.map_or(0, |(_, t)| t);
    let latest_tokens = latest_unit.map_or(0, |k| unit_tokens(&units[k]));
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

    // 3. Sections by priority.
    let (pinned_msg, pinned_report) = pinned_section(&input, &mut budget);
    let (summary_msg, summary_report) = summary_section(&input, &mut budget, strategy, &mut notes);

    // 4. Recent turns, newest first, stopping at the first that does not fit so the model
    //    never sees a gap in the middle of the conversation.
    let mut chosen = vec![false; units.len()];
    if let Some(k) = latest_unit {
        chosen[k] = true;
    }
    let mut recent = Recent {
        units: &units,
        candidate: &candidate,
        chosen: &mut chosen,
        latest_unit,
        entry_tokens,
    };
    let retrieval = input
        .retrieval
        .as_ref()
        .filter(|_| strategy == Strategy::Retrieval);
    let picked = match retrieval {
        None => {
            recent.take(&mut budget, units.len(), |_| false);
            None
        }
        // Retrieval: recent turns up to their share, then memories, then recent turns again
        // with what the memories left (stopping before a turn already sent as a memory).
        Some(r) => {
            // What follows the latest user turn (an agent's tool calls and their results) is
            // the work in progress: it takes from the whole budget before the recent share, or
            // a long tool result would lose its place to memories and the model would call
            // the tool again.
            let current = match latest_unit {
                Some(l) => recent.take(&mut budget, units.len(), |k| k < l),
                None => units.len(),
            };
            let share =
                (budget.remaining() as f64 * f64::from(r.recent_share.clamp(0.0, 1.0))) as usize;
            let mut capped = Budget {
                available: Some(budget.used.saturating_add(share)),
                used: budget.used,
            };
            let stop = recent.take(&mut capped, current, |_| false);
            budget.used = capped.used;
            let mut unit_of = vec![usize::MAX; entries.len()];
            for (k, u) in units.iter().enumerate() {
                for i in u.range.clone() {
                    unit_of[i] = k;
                }
            }
            let skip = |i: usize| {
                let k = unit_of[i];
                k == usize::MAX || !recent.candidate[k] || recent.chosen[k]
            };
            let p = retrieved::pick(r, skip, counter, overhead, budget.remaining());
            budget.used += p.tokens;
            let in_memory: Vec<usize> = p.entries.iter().map(|(i, _)| unit_of[*i]).collect();
            recent.take(&mut budget, stop, |k| in_memory.contains(&k));
            Some(p)
        }
    };
    let mut history_msgs = Vec::new();
    let mut history_report = SectionReport {
        name: SectionKind::History,
        marker: None,
        tokens: 0,
        messages: 0,
        items: 0,
        dropped: 0,
    };
    for (k, unit) in units.iter().enumerate() {
        if !candidate[k] {
            continue;
        }
        for i in unit.range.clone() {
            if chosen[k] {
                let reason = if Some(i) == latest_user {
                    Reason::LatestUser
                } else {
                    Reason::WithinBudget
                };
                fate[i] = (EntryStatus::Included, reason);
                history_msgs.push(ChatMessage::from_entry(&entries[i]));
                history_report.tokens += entry_tokens[i];
                history_report.items += 1;
            } else {
                fate[i] = (EntryStatus::Dropped, Reason::OverBudget);
                history_report.dropped += 1;
            }
        }
    }
    history_report.messages = history_report.items;
    let mut scores: Vec<Option<f64>> = vec![None; entries.len()];
    let (retrieved_msgs, retrieved_sections, retrieved_reports) = match picked {
        Some(p) => {
            for &(i, score) in &p.entries {
                fate[i] = (EntryStatus::Retrieved, Reason::Relevant);
                scores[i] = Some(retrieved::round_score(score));
                history_report.dropped = history_report.dropped.saturating_sub(1);
            }
            (p.messages, p.sections, p.reports)
        }
        None => Default::default(),
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
        entries: entries
            .iter()
            .zip(&fate)
            .enumerate()
            .map(|(i, (e, (status, reason)))| EntryReport {
                id: e.id.clone(),
                role: e.role,
                tokens: entry_tokens[i],
                status: *status,
                reason: *reason,
                score: scores[i],
                redacted: None,
            })
            .collect(),
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

/// The recent-turns walk: newest first, contiguous, tool groups whole.
struct Recent<'a> {
    units: &'a [Unit],
    candidate: &'a [bool],
    chosen: &'a mut [bool],
    latest_unit: Option<usize>,
    entry_tokens: &'a [usize],
}

impl Recent<'_> {
    /// Takes units below `from`, newest first, while they fit and are not `blocked`; returns
    /// the unit it stopped at (nothing older is taken, so the model never sees a gap).
    fn take(&mut self, budget: &mut Budget, from: usize, blocked: impl Fn(usize) -> bool) -> usize {
        for k in (0..from).rev() {
            if !self.candidate[k] || Some(k) == self.latest_unit {
                continue;
            }
            let t: usize = self.units[k]
                .range
                .clone()
                .map(|i| self.entry_tokens[i])
                .sum();
            if blocked(k) || !budget.fits(t) {
                return k + 1;
            }
            budget.used += t;
            self.chosen[k] = true;
        }
        0
    }
}

/// Drops a plain message identical (role, name, content) to the next candidate message: the
/// double-submit and the repeated paste. The newer copy stays.
fn drop_duplicates(
    entries: &[Entry],
    units: &[Unit],
    candidate: &mut [bool],
    fate: &mut [(EntryStatus, Reason)],
    latest_unit: Option<usize>,
) {
    let plain = |u: &Unit| u.range.len() == 1 && entries[u.range.start].tool_calls.is_empty();
    let mut next: Option<usize> = None;
    for k in (0..units.len()).rev() {
        if !candidate[k] {
            continue;
        }
        if let Some(n) = next {
            let (a, b) = (
                &entries[units[k].range.start],
                &entries[units[n].range.start],
            );
            if plain(&units[k])
                && plain(&units[n])
                && Some(k) != latest_unit
                && a.role == b.role
                && a.name == b.name
                && a.content == b.content
            {
                candidate[k] = false;
                fate[units[k].range.start] = (EntryStatus::Dropped, Reason::Duplicate);
                continue;
            }
        }
        next = Some(k);
    }
}
