//! The agent step log, after smolagents' memory: a task, planning steps and action steps (model
//! output, tool calls, observations, error), replayed as chat messages through a view chosen by
//! purpose. The `Summary` view is what an agent sends when it re-plans: it leaves out the model's
//! own outputs and all but the latest plan, so the planner sees facts rather than its old prose.

use super::ToolCall;
use crate::history::Role;
use crate::message::ChatMessage;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Step {
    Task {
        task: String,
    },
    Planning {
        plan: String,
    },
    #[serde(rename_all = "camelCase")]
    Action {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_output: Option<String>,
        #[serde(default)]
        tool_calls: Vec<ToolCall>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        observations: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    pub id: String,
    pub timestamp: f64,
    #[serde(flatten)]
    pub step: Step,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepView {
    /// Everything, for the next action.
    Full,
    /// No model outputs and only the latest plan, for re-planning.
    Summary,
}

impl StepView {
    pub fn parse(s: &str) -> crate::error::Result<StepView> {
        match s {
            "full" => Ok(StepView::Full),
            "summary" => Ok(StepView::Summary),
            other => Err(crate::error::Error::option(format!(
                "unknown step view {other:?}: use \"full\" or \"summary\""
            ))),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct StepLog {
    steps: Vec<StepRecord>,
    next_seq: u64,
    /// See [`super::ids`].
    prefix: String,
}

impl StepLog {
    pub fn push(&mut self, step: Step, timestamp: f64) -> String {
        self.next_seq += 1;
        let id = super::ids::mint(&self.prefix, "s", self.next_seq);
        self.steps.push(StepRecord {
            id: id.clone(),
            timestamp,
            step,
        });
        id
    }

    /// Ids from now on are `prefix + "s" + n` (see [`super::ids`]).
    pub fn set_prefix(&mut self, prefix: &str) {
        self.prefix = prefix.to_string();
    }

    /// Puts back a stored step, keeping its id; later ids continue after it.
    pub fn reload(&mut self, record: StepRecord) {
        if self.steps.iter().any(|r| r.id == record.id) {
            return;
        }
        if let Some(n) = super::ids::seq_of(&record.id, &self.prefix, "s") {
            self.next_seq = self.next_seq.max(n);
        }
        self.steps.push(record);
    }

    pub fn records(&self) -> &[StepRecord] {
        &self.steps
    }

    pub fn clear(&mut self) {
        self.steps.clear();
    }

    /// The steps as chat messages, in the order they happened, through `view`.
    pub fn messages(&self, view: StepView) -> Vec<ChatMessage> {
        render(&self.steps, view)
    }
}

/// `steps` as chat messages through `view`: the log's own, or their outgoing (redacted) forms.
pub fn render(steps: &[StepRecord], view: StepView) -> Vec<ChatMessage> {
    let latest_plan = steps
        .iter()
        .rposition(|r| matches!(r.step, Step::Planning { .. }));
    let mut out = Vec::new();
    for (i, record) in steps.iter().enumerate() {
        match &record.step {
            Step::Task { task } => {
                out.push(ChatMessage::new(Role::User, format!("New task:\n{task}")))
            }
            Step::Planning { plan } => {
                if view == StepView::Full || Some(i) == latest_plan {
                    out.push(ChatMessage::new(Role::Assistant, plan.clone()));
                }
            }
            Step::Action {
                model_output,
                tool_calls,
                observations,
                error,
            } => {
                if let (StepView::Full, Some(text)) = (view, model_output) {
                    out.push(ChatMessage::new(Role::Assistant, text.clone()));
                }
                if !tool_calls.is_empty() {
                    let calls = serde_json::to_string(tool_calls).unwrap_or_default();
                    out.push(ChatMessage::new(
                        Role::Assistant,
                        format!("Calling tools:\n{calls}"),
                    ));
                }
                if let Some(obs) = observations {
                    out.push(ChatMessage::new(Role::User, format!("Observation:\n{obs}")));
                }
                if let Some(err) = error {
                    out.push(ChatMessage::new(
                        Role::User,
                        format!(
                            "Error:\n{err}\nNow let's retry: take care not to repeat \
                             previous errors!"
                        ),
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::FunctionCall;

    fn sample() -> StepLog {
        let mut log = StepLog::default();
        log.push(
            Step::Task {
                task: "find the capital".into(),
            },
            0.0,
        );
        log.push(
            Step::Planning {
                plan: "plan A".into(),
            },
            1.0,
        );
        log.push(
            Step::Action {
                model_output: Some("I will search".into()),
                tool_calls: vec![ToolCall {
                    id: "c1".into(),
                    kind: "function".into(),
                    function: FunctionCall {
                        name: "search".into(),
                        arguments: "{\"q\":\"capital\"}".into(),
                    },
                }],
                observations: Some("Paris".into()),
                error: None,
            },
            2.0,
        );
        log.push(
            Step::Planning {
                plan: "plan B".into(),
            },
            3.0,
        );
        log
    }

    #[test]
    fn summary_view_drops_model_output_and_old_plans() {
        let log = sample();
        let full = log.messages(StepView::Full);
        let summary = log.messages(StepView::Summary);
        let texts = |m: &[ChatMessage]| m.iter().map(|m| m.content.clone()).collect::<Vec<_>>();
        assert!(texts(&full).contains(&"I will search".to_string()));
        assert!(texts(&full).contains(&"plan A".to_string()));
        let s = texts(&summary);
        assert!(!s.contains(&"I will search".to_string()));
        assert!(!s.contains(&"plan A".to_string()));
        assert!(s.contains(&"plan B".to_string()));
        assert!(s.iter().any(|t| t.contains("Observation:\nParis")));
        assert!(s.iter().any(|t| t.contains("\"search\"")));
        assert_eq!(full.len(), summary.len() + 2);
    }
}
