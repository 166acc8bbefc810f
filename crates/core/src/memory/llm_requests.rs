//! The engine's requests for the app's `llm` callback: a summary, a fact extraction or an
//! episode, each written from what is sent (redacted when a redactor is set, like everything
//! else that leaves), with the reader of its answer. The driver (`crate::driver`) asks for the
//! `llm` call, feeds each answer to the exchange (which may ask once more), and hands the
//! result to the same `complete_summary` / `finish_extraction` / `complete_episode` the app's
//! own hooks use, so timeouts, late answers and failures behave as they do there.

use super::{ExtractRequest, Memory};
use crate::history::Role;
use crate::llm::extract::{self, KnownFact, ParsedOps};
use crate::llm::prompts::{
    EPISODE_PLACEHOLDERS, EPISODE_SHAPE, EXTRACT_SHAPE, JSON_SYSTEM, RETRY_PROMPT,
    SUMMARY_RETRY_PROMPT, SUMMARY_SYSTEM,
};
use crate::llm::{
    LlmExchange, LlmMessage, LlmRequest, Purpose, Step, EPISODE_MAX_TOKENS, SUMMARY_MAX_TOKENS,
};
use crate::recall::episodes::EpisodeRequest;
use crate::recall::facts::FactStatus;
use crate::summary::SummaryRequest;

/// A fact extraction through `llm`: the exchange and the ids its answer may name.
#[derive(Debug, Clone)]
pub struct ExtractExchange {
    exchange: LlmExchange,
    known_ids: Vec<String>,
    /// The turns as asked about, to tell a fact they state from a copy of the prompt's example.
    turns: String,
}

impl ExtractExchange {
    pub fn request(&self) -> &LlmRequest {
        self.exchange.request()
    }

    /// Reads one answer against the facts that were listed (see `LlmExchange::answer`).
    pub fn answer(&mut self, answer: &str) -> Step<ParsedOps> {
        let ids: Vec<&str> = self.known_ids.iter().map(String::as_str).collect();
        let turns = &self.turns;
        self.exchange
            .answer(answer, |a| extract::parse(a, &ids, turns))
    }
}

impl Memory {
    /// The `llm` request for a summary the engine asked for (`begin_summary`): its prompt,
    /// already written from the turns as sent, after a short system message.
    pub(crate) fn summary_exchange(&self, request: &SummaryRequest) -> LlmExchange {
        let limits = &self.config.limits;
        let cap = limits.summary_max.or(limits
            .max_tokens
            .map(|m| m.saturating_sub(limits.reserve_tokens) / 2));
        let max_tokens = cap.map_or(SUMMARY_MAX_TOKENS, |c| c.clamp(16, SUMMARY_MAX_TOKENS));
        let messages = vec![
            LlmMessage::new(Role::System, SUMMARY_SYSTEM),
            LlmMessage::new(Role::User, request.prompt.clone()),
        ];
        LlmExchange::new(
            LlmRequest::new(Purpose::Summary, messages, max_tokens, false),
            SUMMARY_RETRY_PROMPT,
            "",
        )
    }

    /// The `llm` request for a fact extraction (`begin_extraction`): the current facts and the
    /// new turns, both as sent.
    pub(crate) fn extraction_exchange(&self, request: &ExtractRequest) -> ExtractExchange {
        let current: Vec<_> = self
            .facts()
            .iter()
            .filter(|f| f.status == FactStatus::Active)
            .map(|f| (f.id.clone(), self.sent_text(&f.text).0.into_owned()))
            .collect();
        let known: Vec<KnownFact<'_>> = current
            .iter()
            .map(|(id, text)| KnownFact { id, text })
            .collect();
        let turns: Vec<(&str, &str)> = request
            .turns
            .iter()
            .map(|e| (e.role.as_str(), e.content.as_str()))
            .collect();
        ExtractExchange {
            exchange: LlmExchange::new(
                extract::request(&known, &turns),
                RETRY_PROMPT,
                EXTRACT_SHAPE,
            ),
            known_ids: current.into_iter().map(|(id, _)| id).collect(),
            turns: turns
                .iter()
                .map(|(_, text)| *text)
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The `llm` request for an episode (`begin_episode`); its answer is read by
    /// `episode_answer_problem` and stored by `complete_episode`.
    pub(crate) fn episode_exchange(&self, request: &EpisodeRequest) -> LlmExchange {
        let messages = vec![
            LlmMessage::new(Role::System, JSON_SYSTEM),
            LlmMessage::new(Role::User, request.prompt.clone()),
        ];
        LlmExchange::new(
            LlmRequest::new(Purpose::Episode, messages, EPISODE_MAX_TOKENS, true),
            RETRY_PROMPT,
            EPISODE_SHAPE,
        )
    }
}

/// Why an episode answer cannot be stored, for the retry; `Ok` with the answer when it can.
pub fn episode_answer(answer: &str) -> Result<String, String> {
    let parsed = crate::recall::episodes::parse_answer(answer).map_err(|e| e.message)?;
    let summary = parsed.summary.trim().trim_end_matches('.');
    if EPISODE_PLACEHOLDERS
        .iter()
        .any(|p| summary.eq_ignore_ascii_case(p.trim_end_matches('.')))
    {
        return Err(format!(
            "\"summary\" repeats the prompt's placeholder ({summary:?}): describe what happened \
             in the conversation"
        ));
    }
    Ok(answer.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::test_chat::{exchange, memory};
    use super::*;
    use crate::history::NewEntry;
    use crate::memory::{ExtractAnswer, MemoryConfig};
    use crate::recall::facts::NewFact;
    use crate::tokens::ApproximateCounter;
    use std::sync::Arc;

    #[test]
    fn extraction_lists_current_facts_and_applies_the_answer() {
        let mut m = memory();
        let lisbon = m
            .remember("The user lives in Lisbon", NewFact::default(), 0.5)
            .unwrap()
            .id;
        exchange(&mut m, "I moved to Porto last week", "Exciting!", 1.0);
        let request = m.begin_extraction().unwrap();
        let mut x = m.extraction_exchange(&request);
        let prompt = &x.request().messages[1].content;
        assert!(
            prompt.contains(&format!("[{lisbon}] The user lives in Lisbon")),
            "{prompt}"
        );
        assert!(
            prompt.contains("user: I moved to Porto last week"),
            "{prompt}"
        );
        let answer = format!(
            "```json\n{{'facts': [{{'op': 'update', 'id': '{lisbon}', 'text': 'The user lives in Porto'}},]}}\n```"
        );
        let parsed = match x.answer(&answer) {
            Step::Done(p) => p,
            other => panic!("{other:?}"),
        };
        let out = m.finish_extraction(&request, ExtractAnswer::Ops(&parsed), 3.0);
        assert_eq!(out.applied, 1, "{:?}", out.notes);
        let active: Vec<_> = m
            .facts()
            .iter()
            .filter(|f| f.status == FactStatus::Active)
            .map(|f| f.text.as_str())
            .collect();
        assert_eq!(active, ["The user lives in Porto"]);
    }

    #[test]
    fn an_unusable_extraction_marks_the_turns_seen_with_a_note() {
        let mut m = memory();
        exchange(&mut m, "I have a cat", "Cute!", 1.0);
        let request = m.begin_extraction().unwrap();
        let out = m.finish_extraction(
            &request,
            ExtractAnswer::Unusable("the answer had no JSON object in it"),
            3.0,
        );
        assert_eq!(out.applied, 0);
        assert!(out.notes[0].contains("no JSON object"), "{:?}", out.notes);
        assert!(m.facts().is_empty());
        assert!(m.begin_extraction().is_none(), "not asked again");
    }
    #[test]
    fn summary_requests_fit_the_summary_cap() {
        let mut config = MemoryConfig {
            strategy: crate::context::Strategy::Summary,
            ..Default::default()
        };
        config.limits.max_tokens = Some(200);
        config.summary.trigger.messages = Some(2);
        config.summary.keep_recent = 1;
        let mut m = Memory::new(
            config.finish().unwrap(),
            Arc::new(ApproximateCounter::default()),
        )
        .unwrap();
        for i in 0..3 {
            exchange(
                &mut m,
                &format!("question {i}"),
                &format!("answer {i}"),
                i as f64 * 2.0,
            );
        }
        m.add(Role::User, "next", NewEntry::default(), 10.0)
            .unwrap();
        let request = m.begin_summary().expect("the trigger is reached");
        let x = m.summary_exchange(&request);
        assert_eq!(
            x.request().max_tokens,
            100,
            "half of what the budget leaves"
        );
        assert!(x.request().messages[1].content.contains("question 0"));
        assert!(!x.request().json);
    }

    #[test]
    fn episode_answers_are_checked_before_they_are_stored() {
        assert!(episode_answer("{'summary': 'Booked a table', 'importance': 0.3,}").is_ok());
        let why = episode_answer("{\"outcome\": \"done\"}").unwrap_err();
        assert!(why.contains("summary"), "{why}");
        // As SmolLM2-135M answered: the shape's placeholder back.
        let copied =
            r#"{"summary": "What happened, one or two sentences", "actions": ["what was done"]}"#;
        assert!(episode_answer(copied).unwrap_err().contains("placeholder"));
    }
}
