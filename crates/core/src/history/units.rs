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
        let unit = unit_at(entries, i);
        i = unit.range.end;
        units.push(unit);
    }
    units
}

/// The unit that starts at `i`, given that one does (a forward scan from the start reaches it).
fn unit_at(entries: &[Entry], i: usize) -> Unit {
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
        Unit { range: i..j, kind }
    } else {
        let kind = if e.role == Role::Tool {
            UnitKind::Orphan
        } else {
            UnitKind::Complete
        };
        Unit {
            range: i..i + 1,
            kind,
        }
    }
}

/// The units of `entries[from..]` found on demand around any position, without grouping the
/// whole history: every non-tool entry starts a unit (a group only ever takes tool results),
/// so the unit holding an entry is found from the nearest non-tool entry at or before it.
/// This is what lets the builder walk from the newest entry and stop when the budget is full.
#[derive(Clone, Copy)]
pub struct UnitIndex<'a> {
    entries: &'a [Entry],
    from: usize,
}

impl<'a> UnitIndex<'a> {
    pub fn new(entries: &'a [Entry], from: usize) -> Self {
        UnitIndex {
            entries,
            from: from.min(entries.len()),
        }
    }

    /// The unit that holds entry `i`; `None` before `from` or past the end.
    pub fn containing(&self, i: usize) -> Option<Unit> {
        if i < self.from || i >= self.entries.len() {
            return None;
        }
        let owner = (self.from..=i)
            .rev()
            .find(|&j| self.entries[j].role != Role::Tool);
        match owner {
            Some(s) => {
                let unit = unit_at(self.entries, s);
                // Tool results past the owner's group are orphans, one unit each.
                Some(if unit.range.contains(&i) {
                    unit
                } else {
                    unit_at(self.entries, i)
                })
            }
            None => Some(unit_at(self.entries, i)),
        }
    }

    /// The unit that ends where `end` begins (the next older one).
    pub fn before(&self, end: usize) -> Option<Unit> {
        end.checked_sub(1).and_then(|i| self.containing(i))
    }

    /// The unit that starts at `start` (the next newer one after a unit ending there).
    pub fn after(&self, start: usize) -> Option<Unit> {
        self.containing(start)
    }

    pub fn from(&self) -> usize {
        self.from
    }
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

    proptest::proptest! {
        /// Found on demand, backwards or forwards, the units are those of one forward scan.
        #[test]
        fn the_index_finds_the_units_of_a_forward_scan(
            roles in proptest::collection::vec(0u8..4, 0..40),
            from in 0usize..10,
        ) {
            let mut h = History::new();
            let mut open: Vec<String> = Vec::new();
            for (n, r) in roles.iter().enumerate() {
                match r {
                    0 => drop(h.push(Role::User, "u", NewEntry::default(), 0.0).unwrap()),
                    1 => {
                        let ids = vec![format!("c{n}a"), format!("c{n}b")];
                        let extra = NewEntry {
                            tool_calls: ids.iter().map(|i| call(i)).collect(),
                            ..Default::default()
                        };
                        h.push(Role::Assistant, "", extra, 0.0).unwrap();
                        open = ids;
                    }
                    2 => {
                        let id = open.pop().unwrap_or_else(|| "nowhere".into());
                        h.push(Role::Tool, "r", result(&id), 0.0).unwrap();
                    }
                    _ => drop(h.push(Role::Assistant, "a", NewEntry::default(), 0.0).unwrap()),
                }
            }
            let entries = h.entries();
            let from = from.min(entries.len());
            let scan = group(entries, from);
            let index = UnitIndex::new(entries, from);
            let mut back = Vec::new();
            let mut end = entries.len();
            while let Some(u) = index.before(end) {
                end = u.range.start;
                back.push(u);
            }
            back.reverse();
            proptest::prop_assert_eq!(&back, &scan);
            for u in &scan {
                for i in u.range.clone() {
                    proptest::prop_assert_eq!(index.containing(i), Some(u.clone()));
                }
            }
        }
    }
}
