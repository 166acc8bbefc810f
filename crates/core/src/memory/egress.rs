//! Redaction at the egress: with a redactor, every byte a context sends passes through it:
//! turns, tool arguments, the system prompt, pinned facts, retrieved memories, the agent step
//! log's views and the prompt handed to the summarizer. The history itself keeps the real text on the device. An entry's
//! outgoing form is computed once, when it is counted, so budgets are measured on what is
//! actually sent. The vault (placeholder -> value) is stored with the session as a record
//! that never enters any context.

use super::redacting::{Counts, Redacting, StreamRestore, VaultErasure};
use super::Memory;
use crate::history::steps::{Step, StepRecord, StepView};
use crate::history::Entry;
use crate::store::Record;
use crate::summary::SummaryRecord;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

pub const VAULT_KIND: &str = crate::store::records::kind::VAULT;

/// The redactor and the outgoing forms it produced, keyed by entry id.
pub(super) struct Egress {
    redactor: RefCell<Box<dyn Redacting>>,
    entries: RefCell<HashMap<String, (Entry, Counts)>>,
    /// The vault revision last stored: it is written again only when it changed.
    saved_vault_revision: u64,
}

impl Egress {
    pub(super) fn forget_entries(&self) {
        self.entries.borrow_mut().clear();
    }
}

impl Memory {
    /// Sets (or removes) the redactor. A vault stored with the session is taken over, so
    /// placeholders from earlier turns keep their values.
    pub fn set_redactor(&mut self, redactor: Option<Box<dyn Redacting>>) {
        self.egress = redactor.map(|mut r| {
            if let Some(v) = self.foreign.iter().find(|r| r.kind == VAULT_KIND) {
                // A stored vault that does not parse is left as it is stored, unused.
                let _ = r.set_vault_value(&v.data);
            }
            let saved_vault_revision = r.vault_revision();
            Egress {
                redactor: RefCell::new(r),
                entries: RefCell::new(HashMap::new()),
                saved_vault_revision,
            }
        });
        self.count_system_prompt();
        self.recount();
        // The steps' values join the vault now, as the entries' do, so it is stored with them.
        for r in self.steps.records() {
            self.sent_step(&r.step);
        }
        self.save_vault();
    }

    pub fn redacts(&self) -> bool {
        self.egress.is_some()
    }

    /// The outgoing form of an entry (cached), or `None` without a redactor.
    pub(super) fn sent_entry(&self, e: &Entry) -> Option<Entry> {
        let egress = self.egress.as_ref()?;
        if let Some((sent, _)) = egress.entries.borrow().get(&e.id) {
            return Some(sent.clone());
        }
        let mut r = egress.redactor.borrow_mut();
        let (content, mut counts) = match e.role {
            crate::history::Role::User => r.redact_typed(&e.content),
            _ => r.redact_outgoing(&e.content),
        };
        let mut sent = e.clone();
        sent.content = content;
        for call in &mut sent.tool_calls {
            let (args, c) = r.redact_outgoing(&call.function.arguments);
            call.function.arguments = args;
            merge(&mut counts, &c);
        }
        if let Some(name) = &sent.name {
            let (redacted, c) = r.redact_outgoing(name);
            if redacted != *name {
                sent.name = Some(name_safe(&redacted));
                merge(&mut counts, &c);
            }
        }
        sent.metadata = None;
        egress
            .entries
            .borrow_mut()
            .insert(e.id.clone(), (sent.clone(), counts));
        Some(sent)
    }

    /// The outgoing form of free text (system prompt, pinned facts, memories).
    pub(super) fn sent_text<'a>(&self, text: &'a str) -> (Cow<'a, str>, Counts) {
        match &self.egress {
            Some(e) => {
                let (t, c) = e.redactor.borrow_mut().redact_outgoing(text);
                (Cow::Owned(t), c)
            }
            None => (Cow::Borrowed(text), Counts::new()),
        }
    }

    /// Text as it may leave the device (redacted with a redactor): what the app's callbacks
    /// that call out (`embed`) are given.
    pub(crate) fn outgoing_text(&self, text: &str) -> String {
        self.sent_text(text).0.into_owned()
    }

    /// The entries as sent: redacted copies with a redactor, the history itself without.
    pub(super) fn sent_entries(&self) -> Cow<'_, [Entry]> {
        match &self.egress {
            None => Cow::Borrowed(self.history.entries()),
            Some(_) => Cow::Owned(
                self.history
                    .entries()
                    .iter()
                    .map(|e| self.sent_entry(e).unwrap_or_else(|| e.clone()))
                    .collect(),
            ),
        }
    }

    /// What was redacted in an entry's outgoing form.
    pub(super) fn entry_redactions(&self, id: &str) -> Option<Counts> {
        let egress = self.egress.as_ref()?;
        let entries = egress.entries.borrow();
        entries
            .get(id)
            .map(|(_, c)| c.clone())
            .filter(|c| !c.is_empty())
    }

    /// Another tab stored its vault: its values this tab lacks join this tab's vault, so the
    /// next store keeps both tabs' values (the record is one per session, last writer wins)
    /// and turns the other tab added are redacted as it redacted them.
    pub(super) fn merge_remote_vault(&mut self, record: &Record) {
        let Some(egress) = &self.egress else {
            return;
        };
        // Values that tab erased go here too (it forgot what held them), before its new ones
        // come in: the count of values before the merge is what finds the new ones.
        let Ok(erased) = egress
            .redactor
            .borrow_mut()
            .adopt_vault_erasures(&record.data)
        else {
            return;
        };
        if erased > 0 {
            egress.entries.borrow_mut().clear();
            self.recount();
        }
        let Some(egress) = &self.egress else {
            return;
        };
        let before = self.vault_len();
        if egress
            .redactor
            .borrow_mut()
            .merge_vault(&record.data)
            .unwrap_or(0)
            > 0
        {
            self.redact_again_for_values_since(before);
        }
    }

    /// Removes the vault values `removed_texts` held (all with `None`) that none of
    /// `kept_texts` holds; the vault is stored by the caller.
    pub(super) fn erase_vault_values_in<'a>(
        &self,
        removed_texts: Option<&[&str]>,
        kept_texts: impl IntoIterator<Item = &'a str>,
    ) -> VaultErasure {
        match &self.egress {
            Some(e) => e
                .redactor
                .borrow_mut()
                .erase_vault_values(removed_texts, &mut kept_texts.into_iter()),
            None => Default::default(),
        }
    }

    /// How many values the vault holds, to tell when a redaction taught it new ones.
    pub(super) fn vault_len(&self) -> usize {
        self.egress
            .as_ref()
            .map_or(0, |e| e.redactor.borrow().vault_len())
    }

    /// Earlier entries whose outgoing form was made before the vault learned values they hold
    /// ("Mason Cole called", then "my name is Mason Cole") are redacted again and recounted, so
    /// the name is not sent raw from the first turn on every later request.
    pub(super) fn redact_again_for_values_since(&mut self, since: usize) {
        let Some(egress) = &self.egress else {
            return;
        };
        let stale: Vec<usize> = {
            let r = egress.redactor.borrow();
            let Some(holds) = r.learned_since(since) else {
                return;
            };
            self.history
                .entries()
                .iter()
                .enumerate()
                .filter(|(_, e)| {
                    holds(&e.content)
                        || e.tool_calls.iter().any(|c| holds(&c.function.arguments))
                        || e.name.as_deref().is_some_and(&holds)
                })
                .map(|(i, _)| i)
                .collect()
        };
        for i in stale {
            let e = self.history.entries()[i].clone();
            self.drop_sent_entry(&e.id);
            self.entry_tokens[i] = self.message_tokens(&e);
        }
    }

    pub(super) fn drop_sent_entry(&self, id: &str) {
        if let Some(e) = &self.egress {
            e.entries.borrow_mut().remove(id);
        }
    }

    /// Puts placeholders back: the real values, for showing a model's reply to the user.
    pub fn restore_text(&self, text: &str) -> String {
        match &self.egress {
            Some(e) => e.redactor.borrow().restore(text),
            None => text.to_string(),
        }
    }

    pub fn stream_restorer(&self) -> Option<Box<dyn StreamRestore>> {
        self.egress
            .as_ref()
            .map(|e| e.redactor.borrow().stream_restorer())
    }

    /// Stores the vault when it gained values since it was last stored.
    pub fn save_vault(&mut self) {
        let Some(egress) = &mut self.egress else {
            return;
        };
        let r = egress.redactor.borrow();
        let revision = r.vault_revision();
        if revision == egress.saved_vault_revision {
            return;
        }
        let record = vault_record(r.vault_value());
        drop(r);
        egress.saved_vault_revision = revision;
        self.foreign.retain(|r| r.kind != VAULT_KIND);
        self.foreign.push(record.clone());
        if let Some(c) = &mut self.changes {
            c.push(crate::store::RecordOp::Put(record));
        }
    }
}

/// The stored form of a vault.
fn vault_record(vault: serde_json::Value) -> Record {
    Record {
        kind: VAULT_KIND.into(),
        id: VAULT_KIND.into(),
        order: 0.0,
        data: vault,
    }
}

impl Memory {
    /// The vault as this memory holds it now (merged with other tabs' and devices'), or `None`
    /// without a redactor.
    pub(super) fn merged_vault_record(&self) -> Option<Record> {
        let egress = self.egress.as_ref()?;
        let record = vault_record(egress.redactor.borrow().vault_value());
        Some(record)
    }

    /// The step log as chat messages, as sent: with a redactor, every step's text is redacted
    /// (the log keeps the real text). Placeholders are stable through the vault, so the forms
    /// are recomputed rather than cached.
    pub fn step_messages(&self, view: StepView) -> Vec<crate::context::ChatMessage> {
        if self.egress.is_none() {
            return self.steps.messages(view);
        }
        let sent: Vec<StepRecord> = self
            .steps
            .records()
            .iter()
            .map(|r| StepRecord {
                step: self.sent_step(&r.step),
                ..r.clone()
            })
            .collect();
        crate::history::steps::render(&sent, view)
    }

    /// A step's outgoing form. The task is what the user typed (look-alike placeholders are
    /// marked, as in a user turn); plans, model outputs, tool arguments, observations and
    /// errors come from the model and its tools, whose placeholders must reach it unchanged.
    pub(super) fn sent_step(&self, step: &Step) -> Step {
        let Some(egress) = &self.egress else {
            return step.clone();
        };
        let mut r = egress.redactor.borrow_mut();
        let mut outgoing = |t: &str| r.redact_outgoing(t).0;
        match step {
            Step::Task { task } => Step::Task {
                task: r.redact_typed(task).0,
            },
            Step::Planning { plan } => Step::Planning {
                plan: outgoing(plan),
            },
            Step::Action {
                model_output,
                tool_calls,
                observations,
                error,
            } => Step::Action {
                model_output: model_output.as_deref().map(&mut outgoing),
                tool_calls: tool_calls
                    .iter()
                    .map(|c| {
                        let mut c = c.clone();
                        c.function.arguments = outgoing(&c.function.arguments);
                        c
                    })
                    .collect(),
                observations: observations.as_deref().map(&mut outgoing),
                error: error.as_deref().map(&mut outgoing),
            },
        }
    }

    /// Pinned facts as sent, and what was redacted from them.
    pub(super) fn sent_pinned(&self) -> (Vec<crate::context::PinnedFact>, Counts) {
        let mut counts = Counts::new();
        let pinned = self
            .pinned
            .iter()
            .map(|p| {
                let (text, c) = self.sent_text(&p.text);
                merge(&mut counts, &c);
                crate::context::PinnedFact {
                    id: p.id.clone(),
                    text: text.into_owned(),
                }
            })
            .collect();
        (pinned, counts)
    }

    /// A summary as sent: redacted with a redactor. Summarizers see placeholders, but one may
    /// still write real values (one that restores its input on the device), and a summary
    /// written before redaction was turned on holds them.
    pub(super) fn sent_summary<'a>(
        &self,
        record: &'a SummaryRecord,
    ) -> (Cow<'a, SummaryRecord>, Counts) {
        match self.sent_text(&record.text) {
            (Cow::Borrowed(_), counts) => (Cow::Borrowed(record), counts),
            (Cow::Owned(text), counts) => (
                Cow::Owned(SummaryRecord {
                    text,
                    ..record.clone()
                }),
                counts,
            ),
        }
    }

    /// Adds what was redacted to the report: per entry sent, and totals over everything sent
    /// (`other`: the pinned facts and the summary).
    pub(super) fn report_redactions(
        &self,
        built: &mut crate::context::BuiltContext,
        other: &Counts,
    ) {
        if self.egress.is_none() {
            return;
        }
        let mut totals = Counts::new();
        for e in &mut built.report.entries {
            if matches!(
                e.status,
                crate::context::report::EntryStatus::Included
                    | crate::context::report::EntryStatus::Retrieved
            ) {
                e.redacted = self.entry_redactions(&e.id);
                if let Some(c) = &e.redacted {
                    merge(&mut totals, c);
                }
            }
        }
        if let Some((_, c)) = &self.system_sent {
            merge(&mut totals, c);
        }
        merge(&mut totals, other);
        built.report.redactions = totals;
    }
}

/// A redacted `name` as chat APIs accept one (`^[a-zA-Z0-9_-]{1,64}$`): `[EMAIL_1]` goes out as
/// `EMAIL_1`, anything else outside that set as `_`.
fn name_safe(redacted: &str) -> String {
    redacted
        .chars()
        .filter(|&c| c != '[' && c != ']')
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect()
}

pub(super) fn merge(into: &mut Counts, from: &Counts) {
    for (k, n) in from {
        *into.entry(k.clone()).or_insert(0) += n;
    }
}
