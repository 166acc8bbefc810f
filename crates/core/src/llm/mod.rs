//! Requests for the app's one `llm` callback and what their answers mean. The core writes the
//! messages (prompts in `prompts`), reads the answer (`json` tolerates what small models
//! return), and when an answer is unusable asks once more with the reason; the driver
//! (`crate::driver`) sequences the calls and the JS face only makes them. Everything here is plain data: no JS, no clock.

pub mod extract;
pub mod json;
pub mod prompts;

use crate::message::Role;
use serde::Serialize;

pub use prompts::PROMPT_VERSION;

/// What a request is for; handed to the callback as `purpose`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    Summary,
    Extract,
    Episode,
}

/// Reply lengths asked for (`maxTokens`): enough for the answer each prompt wants, small
/// enough that a slow local model answers in reasonable time.
pub const SUMMARY_MAX_TOKENS: usize = 400;
pub const EXTRACT_MAX_TOKENS: usize = 400;
pub const EPISODE_MAX_TOKENS: usize = 300;

/// One chat message of a request, in the OpenAI shape apps already send.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmMessage {
    pub role: Role,
    pub content: String,
}

impl LlmMessage {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        LlmMessage {
            role,
            content: content.into(),
        }
    }
}

/// What the binding hands to `llm(messages, info)`: `messages`, and the rest as `info`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LlmRequest {
    #[serde(skip)]
    pub messages: Vec<LlmMessage>,
    pub purpose: Purpose,
    pub max_tokens: usize,
    /// The answer should be JSON (an app may turn on its API's JSON mode).
    pub json: bool,
    /// 1 for the first call, 2 for the retry after an unusable answer.
    pub attempt: u8,
    pub prompt_version: &'static str,
}

impl LlmRequest {
    pub fn new(purpose: Purpose, messages: Vec<LlmMessage>, max_tokens: usize, json: bool) -> Self {
        LlmRequest {
            messages,
            purpose,
            max_tokens,
            json,
            attempt: 1,
            prompt_version: PROMPT_VERSION,
        }
    }
}

/// The next step after an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<T> {
    /// The answer was usable.
    Done(T),
    /// It was not: ask again with this request (the answer and the reason appended).
    Retry(LlmRequest),
    /// It was not, after the retry too: the last reason.
    GaveUp(String),
}

/// A request and its one retry. The parse function turns the answer text into a value or a
/// reason the model can read ("the answer had no JSON object in it").
#[derive(Debug, Clone)]
pub struct LlmExchange {
    request: LlmRequest,
    retry_template: &'static str,
    shape: &'static str,
}

impl LlmExchange {
    /// `retry_template` has `{error}` (and `{shape}`, filled with `shape`).
    pub fn new(request: LlmRequest, retry_template: &'static str, shape: &'static str) -> Self {
        LlmExchange {
            request,
            retry_template,
            shape,
        }
    }

    pub fn request(&self) -> &LlmRequest {
        &self.request
    }

    /// Reads `answer` with `parse`; an unusable first answer becomes a retry that shows the
    /// model its answer and what was wrong with it.
    pub fn answer<T>(
        &mut self,
        answer: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Step<T> {
        match parse(answer) {
            Ok(value) => Step::Done(value),
            Err(reason) if self.request.attempt == 1 => {
                let mut retry = self.request.clone();
                retry.attempt = 2;
                retry.messages.push(LlmMessage::new(
                    Role::Assistant,
                    crate::error::truncate(answer, 2000),
                ));
                retry.messages.push(LlmMessage::new(
                    Role::User,
                    prompts::fill(
                        self.retry_template,
                        &[("error", &reason), ("shape", self.shape)],
                    ),
                ));
                self.request = retry.clone();
                Step::Retry(retry)
            }
            Err(reason) => Step::GaveUp(reason),
        }
    }
}

/// A summary answer as text to store: fences, a "Summary:" heading and surrounding quotes
/// dropped. Empty text is refused (and retried).
pub fn parse_summary(answer: &str) -> Result<String, String> {
    let mut text = answer.trim();
    if let Some(end) = text.find("</think>") {
        text = text[end + 8..].trim();
    }
    text = text
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    for heading in ["New summary:", "Summary:", "**Summary:**", "## Summary"] {
        if text
            .get(..heading.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(heading))
        {
            text = text[heading.len()..].trim();
        }
    }
    let mut text = text.trim_matches('"').trim();
    // The default prompt's "(none yet)" for a first summary, echoed back.
    if text.get(..11).is_some_and(|s| {
        s.eq_ignore_ascii_case("(none yet)\n") || s.eq_ignore_ascii_case("(none yet) ")
    }) {
        text = text[11..].trim();
    }
    if text.is_empty() {
        return Err("the summary was empty".to_string());
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exchange() -> LlmExchange {
        let request = LlmRequest::new(
            Purpose::Extract,
            vec![LlmMessage::new(Role::User, "extract")],
            100,
            true,
        );
        LlmExchange::new(request, prompts::RETRY_PROMPT, prompts::EXTRACT_SHAPE)
    }

    #[test]
    fn a_usable_answer_is_done() {
        let mut x = exchange();
        assert_eq!(
            x.answer("{}", json::parse_json).map_done(),
            Some(serde_json::json!({}))
        );
    }

    #[test]
    fn an_unusable_answer_is_retried_once_with_its_reason() {
        let mut x = exchange();
        let Step::Retry(retry) = x.answer("I found no facts.", json::parse_json) else {
            panic!("expected a retry");
        };
        assert_eq!(retry.attempt, 2);
        assert_eq!(retry.messages.len(), 3);
        assert_eq!(retry.messages[1].role, Role::Assistant);
        assert_eq!(retry.messages[1].content, "I found no facts.");
        let ask = &retry.messages[2].content;
        assert!(ask.contains("the answer had no JSON object in it"), "{ask}");
        assert!(ask.contains("\"facts\""), "the shape is repeated: {ask}");
        match x.answer("still nothing", json::parse_json) {
            Step::GaveUp(reason) => assert!(reason.contains("no JSON"), "{reason}"),
            other => panic!("expected to give up, got {other:?}"),
        }
    }

    #[test]
    fn summaries_lose_their_wrapping() {
        assert_eq!(
            parse_summary("Summary: Ana lives in Porto.").unwrap(),
            "Ana lives in Porto."
        );
        assert_eq!(
            parse_summary("\"Ana likes tea.\"").unwrap(),
            "Ana likes tea."
        );
        assert_eq!(
            parse_summary("New summary:\n\nAna moved.").unwrap(),
            "Ana moved."
        );
        assert!(parse_summary("  ").is_err());
        assert_eq!(parse_summary("(None yet)\n\nUser: hi").unwrap(), "User: hi");
        assert!(parse_summary("<think>hmm</think>").is_err());
    }

    impl<T> Step<T> {
        fn map_done(self) -> Option<T> {
            match self {
                Step::Done(v) => Some(v),
                _ => None,
            }
        }
    }
}
