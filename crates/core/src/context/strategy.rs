//! The named presets of the one context builder.

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Only the system prompt and the latest user turn.
    None,
    /// Every turn (still capped by `maxTokens` when one is set).
    Full,
    /// The last `maxTurns` turns.
    Window,
    /// The newest turns that fit `maxTokens`.
    Tokens,
    /// A running summary of older turns plus the newest turns that fit.
    Summary,
    /// The newest turns plus the older turns, facts and episodes most relevant to the query.
    Retrieval,
}

impl Strategy {
    pub fn parse(s: &str) -> Result<Strategy> {
        Ok(match s {
            "none" => Strategy::None,
            "full" => Strategy::Full,
            "window" => Strategy::Window,
            "tokens" => Strategy::Tokens,
            "summary" => Strategy::Summary,
            "retrieval" => Strategy::Retrieval,
            other => {
                return Err(Error::option(format!(
                    "unknown strategy {:?}: use \"none\", \"full\", \"window\", \"tokens\", \
                     \"summary\" or \"retrieval\"",
                    crate::error::truncate(other, 40)
                )))
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::Full => "full",
            Strategy::Window => "window",
            Strategy::Tokens => "tokens",
            Strategy::Summary => "summary",
            Strategy::Retrieval => "retrieval",
        }
    }

    /// Whether this strategy cannot work without `maxTokens`.
    pub fn needs_budget(self) -> bool {
        matches!(
            self,
            Strategy::Tokens | Strategy::Summary | Strategy::Retrieval
        )
    }
}
