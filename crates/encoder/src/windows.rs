//! Overlapping windows over a token sequence longer than the model's input.
//!
//! A BERT input holds `max_tokens` tokens including `[CLS]` and `[SEP]`, so a window carries
//! `width = max_tokens - 2` text tokens. A sequence that fits is one window. A longer one gets
//! the fewest windows of exactly `width` tokens whose neighbours share at least `overlap`
//! tokens, spread evenly from the first token to the last, so every token has context on both
//! sides except at the text's own ends. Total work is about `n * width / (width - overlap)`
//! tokens: linear in the text for a fixed window.
//!
//! Which window's prediction a token takes: the window where the token is farthest from an
//! edge (the larger of its distances to the window's first and last token), ties to the earlier
//! window. Between two neighbours that is the middle of their shared tokens, so each window
//! owns one contiguous range and the owned ranges partition the sequence.

use llm_memory_core::error::{Error, Result};
use std::ops::Range;

/// One model input: the tokens it sees and the tokens whose labels are taken from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// Token indices fed to the model (between `[CLS]` and `[SEP]`).
    pub tokens: Range<usize>,
    /// Token indices whose prediction comes from this window: a sub-range of `tokens`.
    pub owned: Range<usize>,
}

/// The windows over `token_count` tokens, in order. No tokens, no windows.
pub fn windows(token_count: usize, max_tokens: usize, overlap: usize) -> Result<Windows> {
    if max_tokens < 3 {
        return Err(Error::option(format!(
            "a window of {max_tokens} tokens has no room for text besides [CLS] and [SEP]"
        )));
    }
    let width = max_tokens - 2;
    if overlap >= width {
        return Err(Error::option(format!(
            "an overlap of {overlap} tokens must be smaller than the {width} text tokens of a window"
        )));
    }
    let count = if token_count == 0 {
        0
    } else if token_count <= width {
        1
    } else {
        // Neighbours at most `width - overlap` apart: the last start is `token_count - width`.
        (token_count - width).div_ceil(width - overlap) + 1
    };
    Ok(Windows {
        token_count,
        width: width.min(token_count),
        count,
        next: 0,
    })
}

/// Iterator of the [`Window`]s of a sequence; see [`windows`].
#[derive(Debug, Clone)]
pub struct Windows {
    token_count: usize,
    width: usize,
    count: usize,
    next: usize,
}

impl Windows {
    /// First token of window `k`: evenly spaced from 0 to `token_count - width`.
    fn start(&self, k: usize) -> usize {
        if self.count <= 1 {
            0
        } else {
            // u128: `k * span` can pass usize::MAX on 32-bit wasm for long texts.
            let span = (self.token_count - self.width) as u128;
            (k as u128 * span / (self.count as u128 - 1)) as usize
        }
    }

    /// First token owned by window `k` (`k` ≥ 1): past the middle of its overlap with `k - 1`.
    /// Token `i` stays with the earlier window (start `a`) while its distance to that window's
    /// end, `a + width - 1 - i`, is at least its distance to the later window's start `b`,
    /// `i - b`: while `2i <= a + b + width - 1`.
    fn owned_from(&self, k: usize) -> usize {
        (self.start(k - 1) + self.start(k) + self.width - 1) / 2 + 1
    }
}

impl Iterator for Windows {
    type Item = Window;

    fn next(&mut self) -> Option<Window> {
        let k = self.next;
        if k >= self.count {
            return None;
        }
        self.next += 1;
        let start = self.start(k);
        let owned_start = if k == 0 { 0 } else { self.owned_from(k) };
        let owned_end = if k + 1 == self.count {
            self.token_count
        } else {
            self.owned_from(k + 1)
        };
        Some(Window {
            tokens: start..start + self.width,
            owned: owned_start..owned_end,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.count - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Windows {}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(n: usize, max_tokens: usize, overlap: usize) -> Vec<Window> {
        windows(n, max_tokens, overlap).unwrap().collect()
    }

    /// Checks the documented contract: full-width windows inside the sequence, neighbours
    /// sharing at least `overlap` tokens, owned ranges partitioning 0..n, and each token owned
    /// by a window where it is farthest from an edge.
    fn check(n: usize, max_tokens: usize, overlap: usize) {
        let ws = all(n, max_tokens, overlap);
        let width = max_tokens - 2;
        let mut next_owned = 0;
        for (k, w) in ws.iter().enumerate() {
            assert_eq!(w.tokens.len(), width.min(n), "n={n} window {k}");
            assert!(w.tokens.end <= n);
            assert_eq!(
                w.owned.start, next_owned,
                "n={n}: owned ranges must be contiguous"
            );
            assert!(w.owned.start >= w.tokens.start && w.owned.end <= w.tokens.end);
            if k > 0 {
                assert!(
                    ws[k - 1].tokens.end >= w.tokens.start + overlap,
                    "n={n}: overlap"
                );
            }
            next_owned = w.owned.end;
            let margin = |w: &Window, i: usize| (i - w.tokens.start).min(w.tokens.end - 1 - i);
            for i in w.owned.clone() {
                let best = ws
                    .iter()
                    .filter(|o| o.tokens.contains(&i))
                    .map(|o| margin(o, i))
                    .max()
                    .unwrap();
                assert_eq!(
                    margin(w, i),
                    best,
                    "n={n}: token {i} not in its best window"
                );
            }
        }
        assert_eq!(next_owned, n, "n={n}: every token owned");
    }

    #[test]
    fn empty_text_has_no_window() {
        assert!(all(0, 512, 128).is_empty());
    }

    #[test]
    fn one_token_is_one_window() {
        assert_eq!(
            all(1, 512, 128),
            vec![Window {
                tokens: 0..1,
                owned: 0..1
            }]
        );
    }

    #[test]
    fn exactly_510_tokens_fill_one_window() {
        assert_eq!(
            all(510, 512, 128),
            vec![Window {
                tokens: 0..510,
                owned: 0..510
            }]
        );
    }

    #[test]
    fn token_511_needs_a_second_window() {
        let ws = all(511, 512, 128);
        assert_eq!(ws.len(), 2);
        assert_eq!(ws[0].tokens, 0..510);
        assert_eq!(ws[1].tokens, 1..511);
        check(511, 512, 128);
    }

    #[test]
    fn contract_holds_across_lengths_and_overlaps() {
        for (max_tokens, overlap) in [(512, 128), (512, 0), (512, 509), (8, 3), (3, 0), (10, 1)] {
            for n in (0..40).chain([505, 510, 511, 512, 1019, 1020, 1021, 5000]) {
                check(n, max_tokens, overlap);
            }
        }
    }

    #[test]
    fn work_stays_linear() {
        let n = 1_000_000;
        let fed: usize = windows(n, 512, 128).unwrap().map(|w| w.tokens.len()).sum();
        // Each token is seen at most width / (width - overlap) times, plus one window of slack.
        assert!(fed <= n * 510 / 382 + 510, "{fed} tokens fed for {n}");
    }

    #[test]
    fn impossible_sizes_are_errors() {
        assert!(windows(10, 2, 0).is_err());
        assert!(windows(10, 512, 510).is_err());
    }
}
