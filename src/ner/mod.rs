//! The token-classification model's text side.

pub mod windows;
pub mod wordpiece;
