//! The recent-turns walk: from the newest unit back, contiguous, tool groups whole, stopping
//! at the first unit that does not fit. Units are found on demand (`UnitIndex`) and judged one
//! at a time (`Judge`), so a turn costs what it sends, not what the history holds: entries the
//! walk never reached are accounted for as blocks by the report (`fates`).

use super::report::Reason;
use super::sections::Budget;
use super::strategy::Strategy;
use crate::history::units::{Unit, UnitIndex, UnitKind};
use crate::history::{Entry, Role};
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

/// Decides whether a unit may be sent at all, from the unit and its newer neighbours only.
#[derive(Clone, Copy)]
pub(super) struct Judge<'a> {
    pub entries: &'a [Entry],
    pub index: UnitIndex<'a>,
    pub strategy: Strategy,
    /// Strategy "window": units starting before this are outside it.
    pub first_kept: usize,
    pub latest: Option<&'a Unit>,
    pub dedup: bool,
}

impl Judge<'_> {
    fn is_latest(&self, u: &Unit) -> bool {
        self.latest.is_some_and(|l| l.range == u.range)
    }

    /// Why a unit cannot be sent regardless of the budget, before duplicates are looked at.
    fn excluded(&self, u: &Unit) -> Option<Reason> {
        match u.kind {
            UnitKind::Orphan => return Some(Reason::OrphanToolResult),
            UnitKind::Incomplete => return Some(Reason::ToolPairIncomplete),
            UnitKind::Complete => {}
        }
        if self.is_latest(u) {
            return None;
        }
        match self.strategy {
            Strategy::None => Some(Reason::StrategyNone),
            Strategy::Window if u.range.start < self.first_kept => Some(Reason::OutsideWindow),
            _ => None,
        }
    }

    fn plain(&self, u: &Unit) -> bool {
        u.range.len() == 1 && self.entries[u.range.start].tool_calls.is_empty()
    }

    /// Why a unit cannot be sent regardless of the budget; `None` when it can. A plain message
    /// identical to the next message that may be sent is a duplicate (the newer copy stays).
    /// Comparing with the nearest newer unit not excluded is the same as comparing with the
    /// nearest one kept: one dropped as a duplicate is identical to the one it was dropped for.
    pub fn reason(&self, u: &Unit) -> Option<Reason> {
        if let Some(r) = self.excluded(u) {
            return Some(r);
        }
        if !self.dedup || self.is_latest(u) || !self.plain(u) {
            return None;
        }
        let mut next = self.index.after(u.range.end);
        while let Some(n) = next {
            if self.excluded(&n).is_none() {
                let (a, b) = (&self.entries[u.range.start], &self.entries[n.range.start]);
                let same = self.plain(&n)
                    && a.role == b.role
                    && a.name == b.name
                    && a.content == b.content;
                return same.then_some(Reason::Duplicate);
            }
            next = self.index.after(n.range.end);
        }
        None
    }

    /// Whether nothing at or before `u` can be taken by the walk (so it may stop).
    fn nothing_older(&self, u: &Unit) -> bool {
        match self.strategy {
            Strategy::None => true,
            Strategy::Window => u.range.start < self.first_kept,
            _ => false,
        }
    }
}

/// Token costs of the newest turns, each counting everything newer (`Walk::thread`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Thread {
    /// The previous turn (a tool group counts whole).
    pub last_turn: Option<usize>,
    /// Through the previous exchange, then through the one before, ...
    pub exchanges: Vec<usize>,
}

/// The walk's state: what it chose and what it judged on the way.
pub(super) struct Walk<'a> {
    pub judge: Judge<'a>,
    pub entry_tokens: &'a [usize],
    /// Starts of the chosen units (the latest unit is chosen apart).
    pub chosen: HashSet<usize>,
    /// Units passed on the way, by start: their range and, when not sendable, why.
    pub judged: BTreeMap<usize, (Range<usize>, Option<Reason>)>,
    /// Every unit at or after this position has been judged (or chosen).
    pub low: usize,
    /// An incomplete tool group was met.
    pub saw_incomplete: bool,
}

impl<'a> Walk<'a> {
    pub fn new(judge: Judge<'a>, entry_tokens: &'a [usize]) -> Self {
        Walk {
            low: judge.entries.len(),
            judge,
            entry_tokens,
            chosen: HashSet::new(),
            judged: BTreeMap::new(),
            saw_incomplete: false,
        }
    }

    pub fn tokens(&self, u: &Unit) -> usize {
        self.entry_tokens[u.range.clone()].iter().sum()
    }

    pub fn is_chosen(&self, u: &Unit) -> bool {
        self.chosen.contains(&u.range.start) || self.judge.is_latest(u)
    }

    /// Takes units ending at or before `from`, newest first, while they fit and are not
    /// `blocked`; returns where it stopped (nothing older is taken, so the model never sees a
    /// gap): the end of the unit that did not fit, or the start of the history.
    pub fn take(
        &mut self,
        budget: &mut Budget,
        from: usize,
        blocked: impl Fn(&Unit) -> bool,
    ) -> usize {
        let mut end = from;
        while let Some(u) = self.judge.index.before(end) {
            if self.judge.nothing_older(&u) && !self.judge.is_latest(&u) {
                break;
            }
            let reason = self.judge.reason(&u);
            if reason.is_some() || self.judge.is_latest(&u) {
                self.pass(&u, reason);
                end = u.range.start;
                continue;
            }
            let t = self.tokens(&u);
            if blocked(&u) || !budget.fits(t) {
                return u.range.end;
            }
            budget.used += t;
            self.chosen.insert(u.range.start);
            self.pass(&u, None);
            end = u.range.start;
        }
        self.judge.index.from()
    }

    /// Whether every sendable unit ending at or before `from` fits in `room` tokens together:
    /// then the whole history goes as it is. Reads at most what `room` can hold, not the history.
    pub fn fits_whole(&self, room: usize, from: usize) -> bool {
        let mut used = 0usize;
        let mut end = from;
        while let Some(u) = self.judge.index.before(end) {
            if self.judge.nothing_older(&u) && !self.judge.is_latest(&u) {
                return true;
            }
            if self.judge.reason(&u).is_none() && !self.judge.is_latest(&u) {
                used += self.tokens(&u);
                if used > room {
                    return false;
                }
            }
            end = u.range.start;
        }
        true
    }

    /// What the thread the next message follows costs: the sendable units ending at or before
    /// `from`, newest first, summed through the newest unit (the previous turn) and back to
    /// the start of each of the last `exchanges` exchanges (an exchange starts at a user
    /// message). Reads only those units.
    pub fn thread(&self, from: usize, exchanges: usize) -> Thread {
        let mut t = Thread::default();
        let mut used = 0usize;
        let mut end = from;
        while let Some(u) = self.judge.index.before(end) {
            if t.exchanges.len() == exchanges
                || (self.judge.nothing_older(&u) && !self.judge.is_latest(&u))
            {
                break;
            }
            if self.judge.reason(&u).is_none() && !self.judge.is_latest(&u) {
                used += self.tokens(&u);
                t.last_turn.get_or_insert(used);
                if self.judge.entries[u.range.start].role == Role::User {
                    t.exchanges.push(used);
                }
            }
            end = u.range.start;
        }
        t
    }

    fn pass(&mut self, u: &Unit, reason: Option<Reason>) {
        if u.kind == UnitKind::Incomplete {
            self.saw_incomplete = true;
        }
        self.judged.insert(u.range.start, (u.range.clone(), reason));
        self.low = self.low.min(u.range.start);
    }
}
