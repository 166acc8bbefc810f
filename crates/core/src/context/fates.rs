//! Every entry's fate for the report, built from what the walk chose and judged. Entries the
//! walk never reached are accounted for as blocks (summarized, outside the window, over the
//! budget); with `Detail::All` each of them is judged as well, for a per-entry list.

use super::input::Detail;
use super::report::{EntryRange, EntryReport, EntryStatus, Reason};
use super::strategy::Strategy;
use super::walk::Walk;
use std::collections::HashMap;
use std::ops::Range;

#[derive(Debug, Clone, PartialEq)]
struct Piece {
    range: Range<usize>,
    status: EntryStatus,
    reason: Reason,
}

fn piece(range: Range<usize>, status: EntryStatus, reason: Reason) -> Piece {
    Piece {
        range,
        status,
        reason,
    }
}

fn dropped(range: Range<usize>, reason: Reason) -> Piece {
    piece(range, EntryStatus::Dropped, reason)
}

/// What the report says about the history.
pub(super) struct Fates {
    pub entries: Vec<EntryReport>,
    pub ranges: Vec<EntryRange>,
    /// Entries left out for lack of budget.
    pub over_budget: usize,
}

/// Sets one entry's fate, splitting the piece that holds it.
fn set(pieces: &mut Vec<Piece>, i: usize, status: EntryStatus, reason: Reason) {
    let at = pieces.partition_point(|p| p.range.end <= i);
    let Some(p) = pieces.get(at).cloned() else {
        return;
    };
    if !p.range.contains(&i) {
        return;
    }
    let mut parts = Vec::with_capacity(3);
    if p.range.start < i {
        parts.push(piece(p.range.start..i, p.status, p.reason));
    }
    parts.push(piece(i..i + 1, status, reason));
    if i + 1 < p.range.end {
        parts.push(piece(i + 1..p.range.end, p.status, p.reason));
    }
    pieces.splice(at..at + 1, parts);
}

/// The block reasons of entries the walk did not reach, `[from, to)`.
fn unreached(walk: &Walk<'_>, from: usize, to: usize, pieces: &mut Vec<Piece>) {
    if from >= to {
        return;
    }
    let judge = &walk.judge;
    match judge.strategy {
        Strategy::None => pieces.push(dropped(from..to, Reason::StrategyNone)),
        Strategy::Window => {
            let cut = judge.first_kept.clamp(from, to);
            if from < cut {
                pieces.push(dropped(from..cut, Reason::OutsideWindow));
            }
            if cut < to {
                pieces.push(dropped(cut..to, Reason::OverBudget));
            }
        }
        _ => pieces.push(dropped(from..to, Reason::OverBudget)),
    }
}

pub(super) fn fates(
    walk: &Walk<'_>,
    covered: usize,
    latest_user: Option<usize>,
    retrieved: &[(usize, f32)],
    detail: Detail,
) -> Fates {
    let judge = &walk.judge;
    let entries = judge.entries;
    let mut pieces = Vec::new();
    if covered > 0 {
        pieces.push(piece(
            0..covered,
            EntryStatus::Summarized,
            Reason::Summarized,
        ));
    }
    let included = |r: Range<usize>| piece(r, EntryStatus::Included, Reason::WithinBudget);
    let low = walk.low.max(covered);
    match detail {
        Detail::All => {
            let mut at = covered;
            while let Some(u) = judge.index.containing(at).filter(|_| at < low) {
                at = u.range.end;
                pieces.push(if walk.is_chosen(&u) {
                    included(u.range)
                } else {
                    dropped(
                        u.range.clone(),
                        judge.reason(&u).unwrap_or(Reason::OverBudget),
                    )
                });
            }
        }
        Detail::Sent => match judge.latest.filter(|l| l.range.start < low) {
            Some(l) => {
                unreached(walk, covered, l.range.start, &mut pieces);
                pieces.push(included(l.range.clone()));
                unreached(walk, l.range.end.min(low), low, &mut pieces);
            }
            None => unreached(walk, covered, low, &mut pieces),
        },
    }
    for (range, reason) in walk.judged.values() {
        let u_chosen =
            walk.chosen.contains(&range.start) || judge.latest.is_some_and(|l| l.range == *range);
        pieces.push(match reason {
            _ if u_chosen => included(range.clone()),
            Some(r) => dropped(range.clone(), *r),
            None => dropped(range.clone(), Reason::OverBudget),
        });
    }
    pieces.sort_by_key(|p| p.range.start);
    if let Some(u) = latest_user.filter(|&u| u >= covered) {
        set(&mut pieces, u, EntryStatus::Included, Reason::LatestUser);
    }
    let mut scores = HashMap::new();
    for &(i, score) in retrieved {
        set(&mut pieces, i, EntryStatus::Retrieved, Reason::Relevant);
        scores.insert(i, super::retrieved::round_score(score));
    }

    let mut out = Fates {
        entries: Vec::new(),
        ranges: Vec::new(),
        over_budget: 0,
    };
    for p in pieces {
        if p.reason == Reason::OverBudget {
            out.over_budget += p.range.len();
        }
        let sent = matches!(p.status, EntryStatus::Included | EntryStatus::Retrieved);
        if sent || detail == Detail::All {
            for i in p.range {
                let e = &entries[i];
                out.entries.push(EntryReport {
                    id: e.id.clone(),
                    role: e.role,
                    tokens: walk.entry_tokens[i],
                    status: p.status,
                    reason: p.reason,
                    score: scores.get(&i).copied(),
                    redacted: None,
                });
            }
            continue;
        }
        match out.ranges.last_mut() {
            Some(r) if r.end == p.range.start && r.status == p.status && r.reason == p.reason => {
                r.end = p.range.end;
                r.count += p.range.len();
                r.to = entries[p.range.end - 1].id.clone();
            }
            _ => out.ranges.push(EntryRange {
                from: entries[p.range.start].id.clone(),
                to: entries[p.range.end - 1].id.clone(),
                count: p.range.len(),
                status: p.status,
                reason: p.reason,
                start: p.range.start,
                end: p.range.end,
            }),
        }
    }
    out
}
