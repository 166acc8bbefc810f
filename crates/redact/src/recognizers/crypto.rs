//! Cryptocurrency wallet addresses: Bitcoin base58check and bech32 (checksums verified), and
//! Ethereum `0x` addresses near a wallet word.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::hit;
use crate::validate as v;

fn bitcoin_base58(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::crypto::base58check(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 1.0,
    })
}

fn bitcoin_bech32(text: &str, s: usize, e: usize) -> Option<Hit> {
    v::crypto::bech32(&text[s..e]).then_some(Hit {
        start: s,
        end: e,
        score: 1.0,
    })
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

fn alnum_before(b: &[u8], p: usize) -> bool {
    p > 0 && b[p - 1].is_ascii_alphanumeric()
}

/// `\b[13]…\b`, a whole run: its first digit group starts the run with `1` or `3`.
fn base58_seed(b: &[u8], p: usize) -> bool {
    matches!(b[p], b'1' | b'3') && !alnum_before(b, p)
}

/// `\b(?:bc|tb)1…`: the group after `bc` or `tb` at the start of the run.
fn bech32_seed(b: &[u8], p: usize) -> bool {
    p >= 2 && matches!(&b[p - 2..p], b"bc" | b"tb") && b[p] == b'1' && !alnum_before(b, p - 2)
}

/// `\b0x[0-9a-fA-F]{40}\b`: the run starts with `0x`.
fn hex_wallet_seed(b: &[u8], p: usize) -> bool {
    b[p] == b'0' && b.get(p + 1) == Some(&b'x') && !alnum_before(b, p)
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(
            Crypto,
            r"\b[13][1-9A-HJ-NP-Za-km-z]{25,34}\b",
            bitcoin_base58,
        )
        .gate(
            Gate::runs(RunShape {
                alphabet: ByteSet::of(&["A-Z", "a-z", "0-9"]),
                seeds: &["0-9"],
                min_seeds: 1,
                min_len: 26,
            })
            .max_len(35)
            .starting(&["1", "3"])
            .seeded_where(base58_seed),
        ),
        Spec::new(
            Crypto,
            r"\b(?:bc|tb)1[02-9ac-hj-np-z]{11,71}\b",
            bitcoin_bech32,
        )
        .gate(
            Gate::runs(RunShape {
                alphabet: ByteSet::of(&["A-Z", "a-z", "0-9"]),
                seeds: &["0-9"],
                min_seeds: 1,
                min_len: 14,
            })
            .max_len(74)
            .starting(&["bc1", "tb1"])
            .seeded_where(bech32_seed),
        ),
        Spec::new(Crypto, r"\b0x[0-9a-fA-F]{40}\b", |_, s, e| hit(s, e, 0.4))
            .gate(
                Gate::runs(RunShape {
                    alphabet: ByteSet::of(&["A-Z", "a-z", "0-9"]),
                    seeds: &["0-9"],
                    min_seeds: 1,
                    min_len: 42,
                })
                .max_len(42)
                .starting(&["0x"])
                .seeded_where(hex_wallet_seed),
            )
            .context(&[
                "wallet", "eth", "ether", "ethereum", "send", "address", "usdt", "metamask",
                "crypto",
            ]),
    ]
}
