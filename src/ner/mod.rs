//! Token classification for personal data: a BERT model run by our own code (the engine),
//! its tokenizer, and the decoding of its per-token labels into values a user would name.

pub mod decode;
