//! Dates named in a query ("in May 2023", "on 8 May", "2023-05-08"): the span of time they
//! point at, so that turns said then rank higher. People talk about an event in the days after
//! it ("last Saturday I ran a race"), so each span runs a week past its end. Only dates with a
//! number beside the month are read: a month name alone is too often a word ("May I ask").

use crate::time::{civil_from_days, days_from_civil};

const DAY_MS: f64 = 86_400_000.0;
/// What a turn said in the named span gains, as a share of the query's best score.
pub const SHARE: f32 = 0.5;
/// How long after a named date people still tell of it.
const TOLD_AFTER_DAYS: i64 = 7;

/// English month names and their usual abbreviations, January first (the calendar's).
const MONTHS: [&[&str]; 12] = [
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sep", "sept"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

/// The month (1–12) an English month name or abbreviation names.
pub fn month(word: &str) -> Option<i64> {
    let w = word.trim_end_matches('.').to_lowercase();
    MONTHS
        .iter()
        .position(|names| names.contains(&w.as_str()))
        .map(|i| i as i64 + 1)
}

fn day(word: &str) -> Option<i64> {
    let w = word.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h']);
    let d: i64 = w.parse().ok()?;
    (1..=31).contains(&d).then_some(d)
}

fn year(word: &str) -> Option<i64> {
    let y: i64 = word.parse().ok()?;
    (word.len() == 4 && (1900..=2200).contains(&y)).then_some(y)
}

/// The span `[start, end)` in ms that the first date in `text` names, widened by the days
/// people tell of it after; `now` gives the year of a date written without one (the latest
/// such date not after `now`).
pub fn named_span(text: &str, now: f64) -> Option<(f64, f64)> {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let (this_year, _, _) = civil_from_days((now / DAY_MS).floor() as i64);
    let days = |y: i64, m: i64, d: i64| days_from_civil(y, m, d);
    let span =
        |from: i64, to: i64| Some((from as f64 * DAY_MS, (to + TOLD_AFTER_DAYS) as f64 * DAY_MS));
    let next_month = |y: i64, m: i64| if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    let at = |i: usize| words.get(i).copied().unwrap_or("");
    for (i, &w) in words.iter().enumerate() {
        // 2023-05-08 or 2023-05
        let parts: Vec<&str> = w.split('-').collect();
        if let [y, m, rest @ ..] = parts.as_slice() {
            if let (Some(y), Ok(m)) = (year(y), m.parse::<i64>()) {
                if (1..=12).contains(&m) {
                    return match rest.first().and_then(|d| d.parse::<i64>().ok()) {
                        Some(d) if (1..=31).contains(&d) => span(days(y, m, d), days(y, m, d) + 1),
                        _ => {
                            let (ny, nm) = next_month(y, m);
                            span(days(y, m, 1), days(ny, nm, 1))
                        }
                    };
                }
            }
        }
        let Some(m) = month(w) else { continue };
        // "8 May 2023", "8th of May", "May 8, 2023", "May 8th", "May 2023"
        let before = day(at(i.wrapping_sub(1))).or_else(|| {
            (at(i.wrapping_sub(1)) == "of")
                .then(|| day(at(i.wrapping_sub(2))))
                .flatten()
        });
        let after = day(at(i + 1)).filter(|_| year(at(i + 1)).is_none());
        let y_after = |k: usize| year(at(i + k));
        let (d, y) = match (before, after) {
            (Some(d), _) => (Some(d), y_after(1)),
            (None, Some(d)) => (Some(d), y_after(2)),
            (None, None) => (None, y_after(1)),
        };
        if d.is_none() && y.is_none() {
            continue;
        }
        let y = y.unwrap_or_else(|| {
            let this = days(this_year, m, d.unwrap_or(1)) as f64 * DAY_MS;
            if this > now {
                this_year - 1
            } else {
                this_year
            }
        });
        return match d {
            Some(d) => span(days(y, m, d), days(y, m, d) + 1),
            None => {
                let (ny, nm) = next_month(y, m);
                span(days(y, m, 1), days(ny, nm, 1))
            }
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i64, m: i64, d: i64) -> f64 {
        days_from_civil(y, m, d) as f64 * DAY_MS
    }

    #[test]
    fn dates_in_questions() {
        let now = date(2023, 12, 1);
        let week = 7.0 * DAY_MS;
        assert_eq!(
            named_span("Which hobby did Sam take up in May 2023?", now),
            Some((date(2023, 5, 1), date(2023, 6, 1) + week))
        );
        assert_eq!(
            named_span("What did we do on 8 May, 2023?", now),
            Some((date(2023, 5, 8), date(2023, 5, 9) + week))
        );
        assert_eq!(
            named_span("and on May 8th?", now),
            Some((date(2023, 5, 8), date(2023, 5, 9) + week))
        );
        assert_eq!(
            named_span("the 3rd of December", now),
            Some((date(2022, 12, 3), date(2022, 12, 4) + week)),
            "a date without a year is the latest one not after now"
        );
        assert_eq!(
            named_span("see 2023-05-08", now),
            Some((date(2023, 5, 8), date(2023, 5, 9) + week))
        );
        for d in [-1000, 0, 19_485, 60_000] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
    }

    #[test]
    fn month_words_alone_are_not_dates() {
        let now = date(2023, 12, 1);
        assert_eq!(named_span("May I ask what you did?", now), None);
        assert_eq!(named_span("They march on and on", now), None);
        assert_eq!(named_span("I have 2 cats", now), None);
    }
}
