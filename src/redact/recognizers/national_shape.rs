//! Reading an identifier's shape at a start (see [`super::national`]). Most shapes are groups
//! of digits or letters with optional separators between them ("999 999 9999", "AA 99 99 99
//! A"): those are matched against the runs found once per start ([`Runs`]), a few length
//! comparisons per format instead of a pass over the bytes. Shapes with mixed classes (the
//! codice fiscale's omocode digits, the Finnish century sign, a DEA number's initial) are read
//! byte by byte.

use super::national::Format;

/// The longest identifier, in characters without separators.
pub(super) const MAX: usize = 20;

/// A group of a simple shape: `len` digits or letters, and whether a separator may follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Group {
    digits: bool,
    len: u8,
    sep_after: bool,
}

/// A simple shape's groups (at most eight), or `None` for a shape read byte by byte.
pub(super) fn groups(shape: &str) -> Option<Vec<Group>> {
    let mut out: Vec<Group> = Vec::new();
    for c in shape.bytes() {
        match c {
            b'9' | b'A' => {
                let digits = c == b'9';
                match out.last_mut() {
                    Some(g) if g.digits == digits && !g.sep_after => g.len += 1,
                    _ => out.push(Group {
                        digits,
                        len: 1,
                        sep_after: false,
                    }),
                }
            }
            b' ' => out.last_mut()?.sep_after = true,
            _ => return None,
        }
    }
    (out.len() <= 8).then_some(out)
}

/// A run of digits or letters, and the separator (`' '` or `'-'`, 0 for none) between it and
/// the next run.
#[derive(Clone, Copy, Default)]
struct Run {
    digits: bool,
    len: u8,
    sep: u8,
}

/// The runs from a start, read once for every simple shape.
pub(super) struct Runs {
    runs: [Run; 10],
    n: usize,
}

impl Runs {
    pub(super) fn at(b: &[u8], at: usize) -> Runs {
        let mut runs = [Run::default(); 10];
        let (mut n, mut i) = (0, at);
        while n < runs.len() && i < b.len() {
            let digits = b[i].is_ascii_digit();
            if !digits && !b[i].is_ascii_alphabetic() {
                break;
            }
            let start = i;
            let same = |c: u8| {
                if digits {
                    c.is_ascii_digit()
                } else {
                    c.is_ascii_alphabetic()
                }
            };
            while i < b.len() && i - start <= MAX && same(b[i]) {
                i += 1;
            }
            let mut run = Run {
                digits,
                len: (i - start) as u8,
                sep: 0,
            };
            if i + 1 < b.len() && matches!(b[i], b' ' | b'-') && b[i + 1].is_ascii_alphanumeric() {
                run.sep = b[i];
                i += 1;
            }
            runs[n] = run;
            n += 1;
            // No identifier holds a run longer than MAX: later runs do not matter.
            if run.len as usize > MAX {
                break;
            }
        }
        Runs { runs, n }
    }
}

/// Matches simple `groups` against `runs`: the identifier's length in bytes and the separator
/// it uses. Separators are optional, one kind (of `seps`) throughout; a group ends where its
/// run ends or, without a separator, where the next group of the same class goes on.
pub(super) fn match_runs(
    groups: &[Group],
    runs: &Runs,
    seps: &[u8],
) -> Option<(usize, Option<u8>)> {
    let (mut r, mut left) = (0, runs.runs.first().filter(|_| runs.n > 0)?.len);
    let (mut bytes, mut sep) = (0usize, None);
    for (k, g) in groups.iter().enumerate() {
        let run = runs.runs[r];
        if run.digits != g.digits || left < g.len {
            return None;
        }
        left -= g.len;
        bytes += g.len as usize;
        if k + 1 == groups.len() {
            return (left == 0).then_some((bytes, sep));
        }
        if left > 0 {
            continue;
        }
        // The run ends here: the next group starts the next run, after its separator.
        if run.sep != 0 {
            if !g.sep_after || !seps.contains(&run.sep) || sep.is_some_and(|s| s != run.sep) {
                return None;
            }
            sep = Some(run.sep);
            bytes += 1;
        }
        r += 1;
        if r == runs.n {
            return None;
        }
        left = runs.runs[r].len;
    }
    None
}

/// The characters of `b[at..end]` without separators, letters upper-cased.
pub(super) fn chars_of(b: &[u8], at: usize, end: usize, out: &mut [u8; MAX]) -> usize {
    let mut n = 0;
    for &c in &b[at..end] {
        if c.is_ascii_alphanumeric() && n < MAX {
            out[n] = c.to_ascii_uppercase();
            n += 1;
        }
    }
    n
}

#[inline(always)]
fn fits(class: u8, c: u8) -> bool {
    match class {
        b'9' => c.is_ascii_digit(),
        b'A' => c.is_ascii_alphabetic(),
        b'@' => c.is_ascii_alphanumeric(),
        // Letters in either case: a code typed in lower case (`050922a140n`).
        b'C' => matches!(c.to_ascii_uppercase(), b'+' | b'-' | b'A'..=b'F' | b'U'..=b'Y'),
        _ => false,
    }
}

/// Reads `format`'s shape at `at`: the end, the characters (into `out`, letters upper-cased)
/// and the separator used.
pub(super) fn read(
    b: &[u8],
    at: usize,
    format: &Format,
    out: &mut [u8; MAX],
) -> Option<(usize, usize, Option<u8>)> {
    let shape = format.shape.as_bytes();
    let (mut i, mut n, mut sep) = (at, 0, None);
    let mut k = 0;
    while k < shape.len() {
        let class = shape[k];
        if class == b'.' {
            // A dot that must be there (a DNI written in thousands, `12.345.678-Z`).
            if b.get(i) != Some(&b'.') {
                return None;
            }
            i += 1;
            k += 1;
            continue;
        }
        if class == b' ' {
            // A separator counts only between two parts of the identifier.
            if let (Some(&c), Some(&next)) = (b.get(i), b.get(i + 1)) {
                if format.seps.contains(&c)
                    && sep.is_none_or(|s| s == c)
                    && fits(shape[k + 1], next)
                {
                    sep = Some(c);
                    i += 1;
                }
            }
            k += 1;
            continue;
        }
        let repeat = shape.get(k + 1) == Some(&b'+');
        let start = n;
        while let Some(&c) = b.get(i) {
            if n == MAX || !fits(class, c) {
                break;
            }
            out[n] = c.to_ascii_uppercase();
            n += 1;
            i += 1;
            if !repeat {
                break;
            }
        }
        if n == start {
            return None;
        }
        k += if repeat { 2 } else { 1 };
    }
    Some((i, n, sep))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matched(shape: &str, seps: &[u8], text: &str) -> Option<(usize, Option<u8>)> {
        match_runs(&groups(shape).unwrap(), &Runs::at(text.as_bytes(), 0), seps)
    }

    #[test]
    fn groups_match_with_and_without_separators() {
        assert_eq!(
            matched("999 999 9999", b" -", "943 476 5919"),
            Some((12, Some(b' ')))
        );
        assert_eq!(
            matched("999 999 9999", b" -", "9434765919 x"),
            Some((10, None))
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943-476 5919"),
            None,
            "two kinds"
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943 476 59190"),
            None,
            "too long"
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943 4765 919"),
            None,
            "regrouped"
        );
        assert_eq!(
            matched("AA 99 99 99 A", b" ", "AB 12 34 56 C"),
            Some((13, Some(b' ')))
        );
        assert_eq!(matched("AA 99 99 99 A", b" ", "AB123456C"), Some((9, None)));
        assert_eq!(
            matched("A 9999999 A", b"-", "X-1234567-L"),
            Some((11, Some(b'-')))
        );
        assert_eq!(
            matched("99999999 A", b"-", "12345678 Z"),
            None,
            "space is no NIF separator"
        );
        assert_eq!(matched("99999999 A", b"-", "12345678Z"), Some((9, None)));
    }
}
