//! Reading an identifier's shape at a start (see [`super::national`]). Most shapes are groups
//! of digits or letters with optional separators between them ("999 999 9999", "AA 99 99 99
//! A"): those are matched against the runs found once per start ([`Runs`]), a few length
//! comparisons per format instead of a pass over the bytes. Shapes with mixed classes (the
//! codice fiscale's omocode digits, the Finnish century sign, a DEA number's initial) are read
//! byte by byte.

use super::national::Format;

/// The longest identifier, in characters without separators.
pub(super) const MAX: usize = 20;

/// A byte's class ([`class`]): a digit, an ASCII letter, or neither (0).
pub(super) const DIGIT: u8 = 1;
pub(super) const LETTER: u8 = 2;

/// A look-up per byte: the scan asks for classes a few times per digit group, where the
/// chains of range compares of `is_ascii_alphanumeric` cost several times more.
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            b'0'..=b'9' => DIGIT,
            b'A'..=b'Z' | b'a'..=b'z' => LETTER,
            _ => 0,
        };
        c += 1;
    }
    t
};

#[inline(always)]
pub(super) fn class(c: u8) -> u8 {
    CLASSES[c as usize]
}

/// A group of a simple shape: `len` digits or letters, and whether a separator may follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Group {
    pub digits: bool,
    pub len: u8,
    pub sep_after: bool,
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

/// The runs from a start, read once for every simple shape and only as far as one asks: most
/// starts fail at their second run ("2023 the …"), and reading ten runs of a sentence for them
/// cost more than the matching.
pub(super) struct Runs<'a> {
    b: &'a [u8],
    runs: [Run; 10],
    /// How many runs are read, and where the next one starts.
    n: usize,
    i: usize,
    /// No run follows the `n` read.
    done: bool,
}

impl<'a> Runs<'a> {
    pub(super) fn at(b: &'a [u8], at: usize) -> Runs<'a> {
        Runs {
            b,
            runs: [Run::default(); 10],
            n: 0,
            i: at,
            done: false,
        }
    }

    /// The runs from `at`, whose first run of `kind` the caller measured: `len` bytes, or as
    /// many as it looked at (more than MAX).
    pub(super) fn after(b: &'a [u8], at: usize, kind: u8, len: usize) -> Runs<'a> {
        let mut runs = Runs::at(b, at);
        if len > MAX {
            runs.runs[0] = Run {
                digits: kind == DIGIT,
                len: MAX as u8 + 1,
                sep: 0,
            };
            (runs.n, runs.done) = (1, true);
        } else {
            runs.push(kind, at, at + len);
        }
        runs
    }

    /// The run `r`, reading up to it.
    #[inline]
    fn get(&mut self, r: usize) -> Option<Run> {
        if r < self.n {
            return Some(self.runs[r]);
        }
        self.read_to(r)
    }

    #[inline(never)]
    fn read_to(&mut self, r: usize) -> Option<Run> {
        while self.n <= r && !self.done {
            self.read_next();
        }
        (r < self.n).then(|| self.runs[r])
    }

    fn read_next(&mut self) {
        let (b, mut i) = (self.b, self.i);
        if self.n == self.runs.len() || i >= b.len() {
            self.done = true;
            return;
        }
        let kind = class(b[i]);
        if kind == 0 {
            self.done = true;
            return;
        }
        let start = i;
        while i < b.len() && i - start <= MAX && class(b[i]) == kind {
            i += 1;
        }
        self.push(kind, start, i);
    }

    /// Adds the run `start..end` of `kind`, with the separator after it.
    fn push(&mut self, kind: u8, start: usize, end: usize) {
        let (b, mut i) = (self.b, end);
        let mut run = Run {
            digits: kind == DIGIT,
            len: (end - start) as u8,
            sep: 0,
        };
        if i + 1 < b.len() && matches!(b[i], b' ' | b'-') && class(b[i + 1]) != 0 {
            run.sep = b[i];
            i += 1;
        }
        self.runs[self.n] = run;
        self.n += 1;
        self.i = i;
        // No identifier holds a run longer than MAX: later runs do not matter.
        if run.len as usize > MAX {
            self.done = true;
        }
    }
}

/// Matches simple `groups` against `runs`: the identifier's length in bytes and the separator
/// it uses. Separators are optional, one kind (of `seps`) throughout; a group ends where its
/// run ends or, without a separator, where the next group of the same class goes on.
pub(super) fn match_runs(
    groups: &[Group],
    runs: &mut Runs,
    seps: &[u8],
) -> Option<(usize, Option<u8>)> {
    let (mut r, mut run) = (0, runs.get(0)?);
    let mut left = run.len;
    let (mut bytes, mut sep) = (0usize, None);
    for (k, g) in groups.iter().enumerate() {
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
        run = runs.get(r)?;
        left = run.len;
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
        match_runs(
            &groups(shape).unwrap(),
            &mut Runs::at(text.as_bytes(), 0),
            seps,
        )
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
