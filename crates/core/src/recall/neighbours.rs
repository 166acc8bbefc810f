//! Neighbours of a hit: the turns said just before and after a matching turn, in the same
//! sitting, are often the rest of its answer (a question and its reply, a statement and its
//! follow-up). Each turn's score gains a share of the best hit score within a few turns of it,
//! so a turn next to a strong hit can outrank a weak hit elsewhere, and a turn that matched
//! nothing itself can come in as a neighbour. The window stops at a pause in the chat (a new
//! sitting), where neighbours stop being related.

/// Turns on each side of a hit that count as its neighbours.
pub const WINDOW: usize = 3;
/// A neighbour's share of the hit's score.
pub const SHARE: f32 = 0.5;
/// A pause longer than this between two turns starts a new sitting (ms).
pub const SITTING_GAP_MS: f64 = 30.0 * 60_000.0;

/// A turn hit: its history index and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub entry: usize,
    pub score: f32,
}

/// A turn's score after its neighbours: its own, plus `SHARE` of the best hit within `WINDOW`
/// turns of the same sitting; `lender` is that hit's history index when it raised the score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lifted {
    pub entry: usize,
    pub own: f32,
    pub score: f32,
    pub lender: Option<usize>,
}

/// Lifts every hit and every neighbour of a hit among `len` entries. `time(i)` is entry `i`'s
/// time and `turn(i)` says whether it is a turn that may be sent as a memory. Reads only the
/// entries around the hits. Unordered.
pub fn lift(
    hits: &[Hit],
    len: usize,
    time: impl Fn(usize) -> f64,
    turn: impl Fn(usize) -> bool,
) -> Vec<Lifted> {
    let mut own: std::collections::HashMap<usize, f32> = Default::default();
    for h in hits {
        let e = own.entry(h.entry).or_insert(h.score);
        *e = e.max(h.score);
    }
    // The best hit lending to each entry within the window.
    let mut lent: std::collections::HashMap<usize, (f32, usize)> = Default::default();
    for (&at, &score) in &own {
        for step in [-1isize, 1] {
            let mut j = at;
            for _ in 0..WINDOW {
                let next = j as isize + step;
                if next < 0 || next as usize >= len {
                    break;
                }
                let next = next as usize;
                if (time(next) - time(j)).abs() > SITTING_GAP_MS {
                    break;
                }
                j = next;
                if !turn(j) {
                    continue;
                }
                let e = lent.entry(j).or_insert((score, at));
                if score > e.0 || (score == e.0 && at < e.1) {
                    *e = (score, at);
                }
            }
        }
    }
    let mut out: Vec<Lifted> = own
        .iter()
        .map(|(&entry, &s)| {
            let from = lent.get(&entry).copied();
            Lifted {
                entry,
                own: s,
                score: s + from.map_or(0.0, |(l, _)| SHARE * l),
                lender: from.filter(|(l, _)| SHARE * l > s).map(|(_, at)| at),
            }
        })
        .collect();
    for (&entry, &(l, at)) in &lent {
        if !own.contains_key(&entry) {
            out.push(Lifted {
                entry,
                own: 0.0,
                score: SHARE * l,
                lender: Some(at),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: f64 = 60_000.0;

    #[test]
    fn a_hit_lifts_the_turns_around_it_within_its_sitting() {
        // Entries 0..6 one minute apart, then a new sitting a day later at 6..9.
        let ts: Vec<f64> = (0..6)
            .map(|i| i as f64 * MIN)
            .chain((0..3).map(|i| 1440.0 * MIN + i as f64 * MIN))
            .collect();
        let hits = [
            Hit {
                entry: 4,
                score: 1.0,
            },
            Hit {
                entry: 0,
                score: 0.2,
            },
        ];
        let lifted = lift(&hits, ts.len(), |i| ts[i], |_| true);
        let get = |e: usize| lifted.iter().find(|l| l.entry == e).copied();
        assert_eq!(get(4).unwrap().score, 1.0);
        let n5 = get(5).unwrap();
        assert_eq!((n5.score, n5.lender), (SHARE, Some(4)));
        // Entry 1 is three turns from the strong hit and one from the weak one: the strong
        // one lends. Entry 0 is four turns away: it keeps its own score.
        assert_eq!(get(1).unwrap().score, SHARE);
        assert_eq!(get(1).unwrap().lender, Some(4));
        assert_eq!(get(0).unwrap().score, 0.2);
        // A new sitting starts at 6: nothing there is a neighbour of 4 or 5.
        assert!(get(6).is_none());
    }

    #[test]
    fn only_turns_are_lifted() {
        let ts = [0.0, MIN, 2.0 * MIN];
        let lifted = lift(
            &[Hit {
                entry: 0,
                score: 1.0,
            }],
            ts.len(),
            |i| ts[i],
            |i| i != 1,
        );
        assert!(lifted.iter().all(|l| l.entry != 1));
        assert!(lifted.iter().any(|l| l.entry == 2));
    }
}
