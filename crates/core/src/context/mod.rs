//! Deciding what the model sees: the builder, its strategies, the message shape and the report.

pub mod builder;
pub mod excerpt;
pub mod fates;
pub mod input;
pub mod report;
pub mod retrieved;
pub mod sections;
pub mod split;
pub mod strategy;
mod walk;

pub use crate::message::ChatMessage;
pub use builder::{build, BuiltContext};
pub use input::{BuildInput, Detail, Limits, PinnedFact, SummaryInput};
pub use report::ContextReport;
pub use retrieved::{RetrievalInput, RetrievedItem, RetrievedSource};
pub use strategy::Strategy;
