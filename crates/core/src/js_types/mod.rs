//! The TypeScript declarations of the data the core hands to JavaScript (messages, context
//! reports, stored sessions, recall results), written once beside the types they describe. The
//! JS face puts them into `pkg/*.d.ts`; the tests here check each interface against what serde
//! really writes, so a renamed or added field cannot leave the declarations behind.

pub const MESSAGES: &str = include_str!("messages.d.ts");
pub const CONTEXT: &str = include_str!("context.d.ts");
pub const STORE: &str = include_str!("store.d.ts");
pub const RECALL: &str = include_str!("recall.d.ts");
pub const FORGET: &str = include_str!("forget.d.ts");

pub mod shape;
#[cfg(test)]
mod tests;
