//! Deciding what the model sees: the builder, its strategies, the message shape and the report.

pub mod builder;
pub mod message;
pub mod report;
pub mod retrieved;
pub mod sections;
pub mod strategy;
pub mod units;

pub use builder::{build, BuildInput, BuiltContext, Limits, PinnedFact, SummaryInput};
pub use message::ChatMessage;
pub use report::ContextReport;
pub use retrieved::{RetrievalInput, RetrievedItem, RetrievedSource};
pub use strategy::Strategy;
