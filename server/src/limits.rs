//! Request limits: sizes of a push and a page, and a token bucket per user for the request rate.
//! The sizes are the protocol's, shared with the client (`llm_memory_sync::limits`); the rate is
//! the server's option.

use crate::error::ApiError;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub use llm_memory_sync::limits::*;

/// How long a request body may take to arrive.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Requests per second per user, with bursts up to `burst`.
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// Buckets kept before full (idle) ones are dropped.
const MAX_TRACKED_USERS: usize = 100_000;

impl RateLimiter {
    /// `per_second` 0 turns the limit off.
    pub fn new(per_second: f64, burst: f64) -> RateLimiter {
        RateLimiter {
            per_second,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from the user's bucket, or answers 429 with the seconds to wait.
    pub fn check(&self, user: &str, now: Instant) -> Result<(), ApiError> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= MAX_TRACKED_USERS {
            let (rate, burst) = (self.per_second, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(user.to_string()).or_insert((self.burst, now));
        *tokens = (*tokens + now.saturating_duration_since(*at).as_secs_f64() * self.per_second)
            .min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            return Ok(());
        }
        let wait = ((1.0 - *tokens) / self.per_second).ceil().max(1.0) as u64;
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests; retry in {wait} s"),
        );
        e.retry_after_s = Some(wait);
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_user_past_the_burst_waits_and_others_do_not() {
        let limiter = RateLimiter::new(2.0, 3.0);
        let t0 = Instant::now();
        for _ in 0..3 {
            limiter.check("a", t0).unwrap();
        }
        let refused = limiter.check("a", t0).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.retry_after_s, Some(1));
        limiter.check("b", t0).unwrap();
        limiter.check("a", t0 + Duration::from_millis(600)).unwrap();
    }
}
