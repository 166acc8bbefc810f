//! When to try a failed push or pull again: exponential, capped, with jitter so that many
//! devices coming back at once do not knock together.

/// First retry after this, doubling per failure.
pub const FIRST_RETRY_MS: f64 = 1_000.0;
/// Never wait longer than this between attempts.
pub const MAX_RETRY_MS: f64 = 60_000.0;

/// Delay before attempt `failures + 1`; `unit` is a random number in [0, 1) from the caller
/// (the core has no randomness). A server's Retry-After, when longer, wins.
pub fn retry_delay_ms(failures: u32, unit: f64, retry_after_ms: Option<f64>) -> f64 {
    let exp = FIRST_RETRY_MS * 2f64.powi(failures.saturating_sub(1).min(16) as i32);
    let capped = exp.min(MAX_RETRY_MS);
    // Half fixed, half random: never sooner than half the step.
    let jittered = capped * (0.5 + 0.5 * unit.clamp(0.0, 1.0));
    match retry_after_ms {
        Some(r) if r > jittered => r.min(MAX_RETRY_MS * 5.0),
        _ => jittered,
    }
}
