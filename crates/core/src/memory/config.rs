//! Everything a `Memory` is configured with, validated in one place so that bad options fail
//! at construction with a message that names the option.

use crate::context::{Limits, Strategy};
use crate::error::{Error, Result};
use crate::history::DEFAULT_MAX_ENTRY_CHARS;
use crate::summary::{SummaryConfig, SummaryTrigger, DEFAULT_PROMPT};
use crate::tokens::MessageOverhead;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryConfig {
    pub strategy: Strategy,
    pub limits: Limits,
    pub system_prompt: Option<String>,
    pub overhead: MessageOverhead,
    /// Its `trigger` is what the user set (both `None` when unset); the one in force is
    /// `summary_trigger()`.
    pub summary: SummaryConfig,
    pub max_entry_chars: usize,
    /// Drop a message identical to the one right after it (double submits).
    pub dedup: bool,
}

/// Messages left verbatim after the summary unless `keepRecent` says otherwise.
pub const DEFAULT_KEEP_RECENT: usize = 6;
/// Summary trigger without `summaryTrigger` or `maxTokens`: older messages before folding.
pub const DEFAULT_TRIGGER_MESSAGES: usize = 20;
/// Window size when strategy "window" is chosen without `maxTurns`.
pub const DEFAULT_MAX_TURNS: usize = 20;

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig {
            strategy: Strategy::Full,
            limits: Limits::default(),
            system_prompt: None,
            overhead: MessageOverhead::default(),
            summary: SummaryConfig {
                trigger: SummaryTrigger {
                    messages: None,
                    tokens: None,
                },
                keep_recent: DEFAULT_KEEP_RECENT,
                prompt: DEFAULT_PROMPT.to_string(),
            },
            max_entry_chars: DEFAULT_MAX_ENTRY_CHARS,
            dedup: true,
        }
    }
}

impl MemoryConfig {
    /// Checks the options against each other and fills in defaults that depend on others.
    pub fn finish(mut self) -> Result<Self> {
        let l = &mut self.limits;
        if self.strategy.needs_budget() && l.max_tokens.is_none() {
            return Err(Error::option(format!(
                "strategy \"{}\" needs maxTokens (the model's context budget in tokens)",
                self.strategy.as_str()
            )));
        }
        if let Some(max) = l.max_tokens {
            if l.reserve_tokens >= max {
                return Err(Error::option(format!(
                    "reserveTokens ({}) must be smaller than maxTokens ({max}): it is the part \
                     of the budget kept for the reply",
                    l.reserve_tokens
                )));
            }
        }
        if l.max_turns == Some(0) {
            return Err(Error::option("maxTurns must be at least 1"));
        }
        if self.strategy == Strategy::Window && l.max_turns.is_none() {
            l.max_turns = Some(DEFAULT_MAX_TURNS);
        }
        if self.max_entry_chars == 0 {
            return Err(Error::option("maxEntryChars must be at least 1"));
        }
        self.summary.validate()?;
        Ok(self)
    }

    /// The summary trigger in force: the user's, or one derived from the budget. The derived
    /// one is computed here rather than stored by `finish`, so a budget changed by `configure`
    /// (which starts from the current config) moves it too; a stored copy would keep the old.
    pub fn summary_trigger(&self) -> SummaryTrigger {
        let t = &self.summary.trigger;
        if t.messages.is_some() || t.tokens.is_some() {
            return t.clone();
        }
        let l = &self.limits;
        match l.max_tokens {
            // Summarize before the turns would crowd the budget, leaving room to write it.
            Some(max) => SummaryTrigger {
                messages: None,
                tokens: Some((max.saturating_sub(l.reserve_tokens) * 3 / 4).max(1)),
            },
            None => SummaryTrigger {
                messages: Some(DEFAULT_TRIGGER_MESSAGES),
                tokens: None,
            },
        }
    }
}
