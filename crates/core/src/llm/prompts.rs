//! Every prompt the library writes for a language model, in one place to review: the running
//! summary, fact extraction (Mem0-style add / update / delete / none against the current
//! facts), episodes, and the retry after an unusable answer. Each JSON prompt states the
//! shape it asks for; `PROMPT_VERSION` changes whenever a prompt's wording or shape does, and
//! is handed to the app's `llm` callback with every request (to log, or to key a cache on).

/// Bumped whenever a prompt below changes.
pub const PROMPT_VERSION: &str = "2026-12-01.1";

/// The default `summaryPrompt` template: `{summary}` is the previous summary, `{turns}` the
/// turns folded in. Used by the `summarize` callback as by `llm`.
pub const SUMMARY_PROMPT: &str = "Progressively summarize the conversation below, adding onto \
the previous summary and returning a new summary. Keep names, numbers, dates, decisions, \
preferences and open questions; drop pleasantries. Write plain prose in the third person.

Previous summary:
{summary}

New lines of conversation:
{turns}

New summary:";

/// The system message before a summary prompt sent through `llm`.
pub const SUMMARY_SYSTEM: &str = "You write short, faithful summaries of conversations. Answer \
with the summary text only: no title, no preamble, no list of what you did.";

/// The episode prompt: `{turns}` is the stretch of conversation the episode covers.
pub const EPISODE_PROMPT: &str = "Describe the conversation below as one episode for a \
memory of past experiences. Answer with JSON only, in this shape:
{\"summary\": \"what happened, one or two sentences\", \"actions\": [\"what was done\", ...], \
\"outcome\": \"how it ended\", \"importance\": 0.5}
importance is 0 (trivial) to 1 (must remember).

Conversation:
{turns}";

/// The JSON shape the episode prompt asks for, repeated in its retry.
pub const EPISODE_SHAPE: &str = "{\"summary\": \"...\", \"actions\": [\"...\"], \"outcome\": \
\"...\", \"importance\": 0.5}";

/// The system message before JSON prompts sent through `llm`.
pub const JSON_SYSTEM: &str = "You are a careful assistant that answers with one JSON object \
and nothing else: no code fence, no comment before or after it.";

/// The fact extraction prompt. `{facts}` lists the current facts as `[id] text` lines,
/// `{turns}` the new turns.
pub const EXTRACT_PROMPT: &str = "You keep a list of facts about the user: stable personal \
details, preferences, plans, relationships, and what they asked you to remember. Compare the \
new turns with the current facts and decide, for each piece of information in them:
- \"add\": a new fact not in the list (write it as a short sentence about the user);
- \"update\": it changes or completes a current fact (give that fact's id and the new text);
- \"delete\": it says a current fact is no longer true (give that fact's id);
- \"none\": nothing worth remembering (greetings, questions, small talk).
Use only ids from the list. Keep each fact to one short sentence. Copy names, numbers and \
placeholders such as <EMAIL_1> exactly as written.

Answer with JSON only, in this shape:
{\"facts\": [{\"op\": \"add\", \"text\": \"The user lives in Porto\"}, {\"op\": \"update\", \
\"id\": \"f2\", \"text\": \"The user works at Acme as a designer\"}, {\"op\": \"delete\", \
\"id\": \"f3\"}]}
Answer {\"facts\": []} when there is nothing to store.

Current facts:
{facts}

New turns:
{turns}";

/// The example facts in `EXTRACT_PROMPT`, each with a word the turns must contain for a fact
/// with that exact text to be believed: small models copy the example instead of reading the
/// turns, and "The user lives in Porto" must not become a fact about someone in Oslo.
pub const EXTRACT_EXAMPLES: &[(&str, &str)] = &[
    ("The user lives in Porto", "Porto"),
    ("The user works at Acme as a designer", "Acme"),
];

/// The placeholder texts of `EPISODE_PROMPT`'s shape, which an episode must not repeat.
pub const EPISODE_PLACEHOLDERS: &[&str] = &[
    "what happened, one or two sentences",
    "what was done",
    "how it ended",
];

/// The JSON shape the extraction prompt asks for, repeated in its retry.
pub const EXTRACT_SHAPE: &str = "{\"facts\": [{\"op\": \"add\" | \"update\" | \"delete\" | \
\"none\", \"id\": \"f1 (update and delete only)\", \"text\": \"...\"}]}";

/// What the model is told after an unusable answer; `{error}` says what was wrong, `{shape}`
/// repeats what was asked.
pub const RETRY_PROMPT: &str = "Your answer could not be used: {error}. Answer again with \
JSON only, in this shape:
{shape}";

/// What the model is told after an empty summary.
pub const SUMMARY_RETRY_PROMPT: &str = "Your answer could not be used: {error}. Write the \
summary again as plain prose, a few sentences.";

/// Fills `{name}` placeholders of `template` in one pass, so a value that itself contains
/// `{turns}` or `{facts}` (a user may type that) is never substituted again.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    'scan: while let Some(pos) = rest.find('{') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        for (name, value) in values {
            if let Some(after) = tail
                .strip_prefix('{')
                .and_then(|t| t.strip_prefix(name))
                .and_then(|t| t.strip_prefix('}'))
            {
                out.push_str(value);
                rest = after;
                continue 'scan;
            }
        }
        out.push('{');
        rest = &tail[1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_each_placeholder_once() {
        let out = fill(
            EXTRACT_PROMPT,
            &[
                ("facts", "[f1] The user likes {turns}"),
                ("turns", "user: hi"),
            ],
        );
        assert!(out.contains("[f1] The user likes {turns}"), "{out}");
        assert!(out.contains("New turns:\nuser: hi"), "{out}");
        assert!(!out.contains("{facts}"));
    }

    #[test]
    fn the_json_prompts_state_their_shape() {
        for (prompt, key) in [
            (EXTRACT_PROMPT, "\"facts\""),
            (EPISODE_PROMPT, "\"summary\""),
        ] {
            assert!(prompt.contains("Answer with JSON only"), "{prompt}");
            assert!(prompt.contains(key), "{prompt}");
        }
        assert!(SUMMARY_PROMPT.contains("{turns}") && SUMMARY_PROMPT.contains("{summary}"));
        assert!(RETRY_PROMPT.contains("{error}") && RETRY_PROMPT.contains("{shape}"));
    }

    #[test]
    fn the_example_lists_match_the_prompts() {
        for (text, marker) in EXTRACT_EXAMPLES {
            assert!(
                EXTRACT_PROMPT.contains(text) && text.contains(marker),
                "{text}"
            );
        }
        for p in EPISODE_PLACEHOLDERS {
            assert!(EPISODE_PROMPT.contains(p), "{p}");
        }
    }
}
