//! Groups history entries into the units the builder keeps or drops whole: a plain message, or
//! an assistant tool call together with the tool results that answer it. Chat APIs reject a
//! tool result without its call and a call without its results, so a unit is never split.

use super::{Entry, Role};
use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitKind {
    /// Safe to send.
    Complete,
    /// A tool result that does not directly follow the assistant call it answers.
    Orphan,
    /// An assistant tool call missing at least one of its results.
    Incomplete,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub range: Range<usize>,
    pub kind: UnitKind,
}

/// Splits `entries[from..]` into units, in order.
pub fn group(entries: &[Entry], from: usize) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut i = from;
    while i < entries.len() {
        let e = &entries[i];
        if e.role == Role::Assistant && !e.tool_calls.is_empty() {
            let mut pending: Vec<&str> = e.tool_calls.iter().map(|c| c.id.as_str()).collect();
            let mut j = i + 1;
            while j < entries.len() && entries[j].role == Role::Tool {
                let Some(id) = entries[j].tool_call_id.as_deref() else {
                    break;
                };
                let Some(pos) = pending.iter().position(|p| *p == id) else {
                    break;
                };
                pending.swap_remove(pos);
                j += 1;
            }
            let kind = if pending.is_empty() {
                UnitKind::Complete
            } else {
                UnitKind::Incomplete
            };
            units.push(Unit { range: i..j, kind });
            i = j;
        } else {
            let kind = if e.role == Role::Tool {
                UnitKind::Orphan
            } else {
                UnitKind::Complete
            };
            units.push(Unit {
                range: i..i + 1,
                kind,
            });
            i += 1;
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{FunctionCall, History, NewEntry, ToolCall};

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            kind: "function".into(),
            function: FunctionCall {
                name: "f".into(),
                arguments: "{}".into(),
            },
        }
    }

    fn result(id: &str) -> NewEntry {
        NewEntry {
            tool_call_id: Some(id.into()),
            ..Default::default()
        }
    }

    #[test]
    fn groups_calls_with_their_results() {
        let mut h = History::new();
        h.push(Role::User, "q", NewEntry::default(), 0.0).unwrap();
        let calls = NewEntry {
            tool_calls: vec![call("a"), call("b")],
            ..Default::default()
        };
        h.push(Role::Assistant, "", calls, 0.0).unwrap();
        h.push(Role::Tool, "1", result("b"), 0.0).unwrap();
        h.push(Role::Tool, "2", result("a"), 0.0).unwrap();
        h.push(Role::Tool, "3", result("zzz"), 0.0).unwrap();
        let units = group(h.entries(), 0);
        assert_eq!(units.len(), 3);
        assert_eq!(units[1].range, 1..4);
        assert_eq!(units[1].kind, UnitKind::Complete);
        assert_eq!(units[2].kind, UnitKind::Orphan);
    }

    #[test]
    fn a_call_missing_a_result_is_incomplete() {
        let mut h = History::new();
        let calls = NewEntry {
            tool_calls: vec![call("a"), call("b")],
            ..Default::default()
        };
        h.push(Role::Assistant, "", calls, 0.0).unwrap();
        h.push(Role::Tool, "1", result("a"), 0.0).unwrap();
        let units = group(h.entries(), 0);
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].kind, UnitKind::Incomplete);
    }
}
