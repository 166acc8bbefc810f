//! Reading an identifier's shape at a start (see [`super`]). Which shapes a start can
//! begin is looked up first, from its first two runs ([`Admitting`]). Most shapes are groups
//! of digits or letters with optional separators between them ("999 999 9999", "AA 99 99 99
//! A"): those are matched against the runs read once per start ([`Runs`]), a few length
//! comparisons per format instead of a pass over the bytes. Shapes with mixed classes (the
//! codice fiscale's omocode digits, the Finnish century sign, a DEA number's initial) are read
//! byte by byte.

use super::Format;

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

/// Which of up to 32 formats starting with the same class (digits, or letters) a start can
/// begin, bit `k` for the `k`th format: by the length of the start's run of that class and the
/// byte after it, then by the run after that ([`Admitting::get`]). Most starts are a short
/// number before `:`, `.` or `/`, or a number and a word ("2023 the"): two looks here rule them
/// out for every format at once, where reading each shape cost more than all the rest of the
/// scan. A format is ruled out only where it could not read its shape.
#[derive(Default)]
pub(super) struct Admitting {
    /// By the first run's length and [`next_kind`].
    first: Vec<[u32; NEXT_KINDS]>,
    /// By the first run's length, the second's class and its length.
    second: Vec<[[u32; SECOND_MAX + 1]; 3]>,
}

impl Admitting {
    pub(super) fn add(&mut self, k: usize, format: &Format) {
        assert!(k < 32, "at most 32 formats start with one class");
        if self.first.is_empty() {
            self.first = vec![[0; NEXT_KINDS]; 32];
            self.second = vec![[[0; SECOND_MAX + 1]; 3]; 32];
        }
        let (first, second) = match groups(format.shape) {
            Some(groups) => grouped_runs(&groups, format.seps),
            None => read_runs(format.shape.as_bytes(), format.seps),
        };
        for (run, admitting) in self.first.iter_mut().enumerate() {
            for (kind, lengths) in first.iter().enumerate() {
                if lengths >> run & 1 != 0 {
                    admitting[kind] |= 1 << k;
                }
            }
        }
        for (run, admitting) in self.second.iter_mut().enumerate() {
            for (class, lengths) in second[run].iter().enumerate() {
                for (len, admitting) in admitting[class].iter_mut().enumerate() {
                    if lengths >> len & 1 != 0 {
                        *admitting |= 1 << k;
                    }
                }
            }
        }
    }

    /// The formats (as bits) that can start at `at`, where a run of `run` bytes of their
    /// class begins. The second run is the one after the byte that ends the first when that is
    /// a separator or a dot, else from that byte on.
    #[inline]
    pub(super) fn get(&self, b: &[u8], at: usize, run: usize) -> u32 {
        let next = next_kind(b.get(at + run));
        let admitting = self.first.get(run).map_or(0, |kinds| kinds[next]);
        if admitting == 0 {
            return 0;
        }
        let (class, len) = run_at(b, at + run + matches!(next, 1..=3) as usize);
        admitting & self.second[run][class as usize][len]
    }
}

/// How many kinds of byte after a start's first run [`Admitting`] tells apart.
const NEXT_KINDS: usize = 5;

/// The byte after a start's first run, as the shapes read it: the end of the text, a space or
/// a dash (the separators), a dot (a DNI in thousands), or any other byte.
fn next_kind(next: Option<&u8>) -> usize {
    match next {
        None => 0,
        Some(b' ') => 1,
        Some(b'-') => 2,
        Some(b'.') => 3,
        Some(_) => 4,
    }
}

/// The second runs [`Admitting`] tells apart are at most this long (longer ones count as this
/// long; no group sum is).
const SECOND_MAX: usize = MAX + 1;

/// The run of digits or letters at `from`: its class (0 for none) and length (at most
/// [`SECOND_MAX`]).
fn run_at(b: &[u8], from: usize) -> (u8, usize) {
    match b.get(from).map(|&c| class(c)) {
        Some(kind @ (DIGIT | LETTER)) => {
            let len = b[from..]
                .iter()
                .take(SECOND_MAX)
                .take_while(|&&c| class(c) == kind)
                .count();
            (kind, len)
        }
        _ => (0, 0),
    }
}

/// Bits `n` for a run `n` bytes long: what a start's first run can be, by [`next_kind`], and
/// for each first run, what the second can be, by its class (0 none, [`DIGIT`], [`LETTER`]).
type StartRuns = ([u32; NEXT_KINDS], [[u32; 3]; 32]);

/// The runs a simple shape can start with ([`match_runs`]). A run ends
/// where a group of its class does: the last one (anything may follow), one before a separator
/// of `seps`, or one before a group of the other class written without a separator
/// (`12345678Z`). The second run then holds the next groups of its class, up to the last or
/// another such end.
fn grouped_runs(groups: &[Group], seps: &[u8]) -> StartRuns {
    let (mut first, mut second) = ([0u32; NEXT_KINDS], [[u32::MAX; 3]; 32]);
    let ends = |k: usize| {
        groups
            .get(k + 1)
            .is_none_or(|n| groups[k].sep_after || n.digits != groups[k].digits)
    };
    let mut len = 0;
    for (j, g) in groups.iter().enumerate() {
        if g.digits != groups[0].digits {
            break;
        }
        len += g.len as usize;
        let bit = 1u32 << len.min(31);
        let Some(next) = groups.get(j + 1) else {
            first.iter_mut().for_each(|m| *m |= bit);
            break;
        };
        if g.sep_after {
            for sep in seps {
                first[next_kind(Some(sep))] |= bit;
            }
        }
        if next.digits != g.digits {
            first[next_kind(Some(&b'a'))] |= bit;
        }
        let mut lengths = 0u32;
        let mut then = 0;
        for (k, h) in groups.iter().enumerate().skip(j + 1) {
            if h.digits != next.digits {
                break;
            }
            then += h.len as usize;
            if ends(k) {
                lengths |= 1 << then.min(31);
            }
        }
        let class = if next.digits { DIGIT } else { LETTER };
        second[len.min(31)] = [0; 3];
        second[len.min(31)][class as usize] = lengths;
    }
    (first, second)
}

/// The runs a shape read byte by byte ([`read`]) can start with.
fn read_runs(shape: &[u8], seps: &[u8]) -> StartRuns {
    let mut second = [[u32::MAX; 3]; 32];
    if shape.get(1) == Some(&b'+') {
        // A repeated class stands for the numbers known only by their label, 7 to 17 long.
        return ([(7..=17).fold(0, |m, n| m | 1 << n); NEXT_KINDS], second);
    }
    let digit = shape[0] == b'9';
    // Letters may stand where the shape takes a letter or a digit (an omocode codice
    // fiscale).
    let same = |c: u8| {
        if digit {
            c == b'9'
        } else {
            matches!(c, b'A' | b'@')
        }
    };
    let first = shape.iter().take_while(|&&c| same(c) && c != b'@').count();
    let (mut longest, mut stop) = (0, shape.len());
    for (i, &c) in shape.iter().enumerate() {
        match c {
            c if same(c) => longest += 1,
            b' ' if digit => {}
            _ => {
                stop = i;
                break;
            }
        }
    }
    let mut out = [(first..=longest.min(31)).fold(0, |m, n| m | 1 << n); NEXT_KINDS];
    // A first group shorter than the run written without separators must end at one.
    if shape.get(first) == Some(&b' ') && first < longest {
        for (kind, next) in [None, Some(&b' '), Some(&b'-'), Some(&b'.'), Some(&b'a')]
            .into_iter()
            .enumerate()
        {
            if !next.is_none_or(|c| seps.contains(c)) {
                out[kind] &= !(1 << first);
            }
        }
    }
    // The longest run is followed by what the shape reads next (nothing: anything may follow).
    let follows: &[usize] = match shape.get(stop) {
        Some(b'.') => &[3],
        Some(b'C') => &[2, 4],
        Some(b'9' | b'A' | b'@') => &[4],
        _ => &[0, 1, 2, 3, 4],
    };
    for (kind, lengths) in out.iter_mut().enumerate() {
        if !follows.contains(&kind) {
            *lengths &= !(1 << longest.min(31));
        }
    }
    // After a dot that must be there, the digits up to the next one (`12.345.678-Z`).
    if shape.get(stop) == Some(&b'.') && digit {
        let digits = shape[stop + 1..].iter().take_while(|&&c| c == b'9').count();
        if shape.get(stop + 1 + digits) == Some(&b'.') {
            second[longest.min(31)] = [0, 1 << digits, 0];
        }
    }
    (out, second)
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
