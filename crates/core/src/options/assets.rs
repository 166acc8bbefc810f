//! The options of loading an asset (`Tokenizer.fromUrl`, `NerModel.fromUrl`,
//! `EmbedModel.fromUrl`), of the idle-time embedding (`embedPending`) and of rendering a chat
//! template (`Tokenizer.countChat`, `renderChat`).

use super::reader::Opts;
use super::value::{Handle, OptValue};
use crate::error::{Error, Result};

js_options! {
    pub struct LoadOptionsSpec as "LoadOptions" {
        /// Called as the file downloads (`total` is undefined when the server does not say),
        /// and once with the whole size when it comes from the cache.
        onProgress: "(progress: { loaded: number; total?: number }) => void",
        /// Keep the file in IndexedDB under its URL and load it from there next time (default
        /// true). Give a new file a new URL (a version in the path).
        cache: "boolean",
        /// Stops the download: the promise rejects with `ABORTED`.
        signal: "AbortSignal",
    }
}

/// A `fromUrl`'s options: the progress callback and the signal are the face's to check and
/// call.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadOptions {
    pub on_progress: Option<Handle>,
    pub cache: bool,
    pub signal: Option<Handle>,
}

impl LoadOptions {
    pub fn parse(value: &OptValue, what: &str) -> Result<LoadOptions> {
        let o = Opts::new(value, what)?;
        o.check_keys(LoadOptionsSpec::KEYS)?;
        Ok(LoadOptions {
            on_progress: o.function("onProgress")?,
            cache: o.boolean("cache")?.unwrap_or(true),
            signal: o.instance("signal", "signal must be an AbortSignal")?,
        })
    }
}

js_options! {
    pub struct EmbedPendingOptionsSpec as "EmbedPendingOptions" {
        /// Most waiting items to embed in this call (default 16).
        limit: "number",
    }
}

/// Items `embedPending()` embeds when given no `limit`: about a tenth of a second of the
/// in-page model's work, short enough to run between a Worker's messages.
pub const DEFAULT_PENDING_LIMIT: usize = 16;

/// `embedPending({ limit })`: how many waiting items to embed.
pub fn pending_limit(value: &OptValue) -> Result<usize> {
    let o = Opts::new(value, "embedPending options")?;
    o.check_keys(EmbedPendingOptionsSpec::KEYS)?;
    match o.uint("limit")?.unwrap_or(DEFAULT_PENDING_LIMIT) {
        0 => Err(Error::option("embedPending's limit must be at least 1")),
        n => Ok(n),
    }
}

js_options! {
    pub struct ChatTemplateOptionsSpec as "ChatTemplateOptions" {
        /// Append the header that opens the assistant's reply, as sent for a completion
        /// (default true).
        addGenerationPrompt: "boolean",
    }
}

/// `countChat` / `renderChat`'s options: whether to add the reply header.
pub fn add_generation_prompt(value: &OptValue) -> Result<bool> {
    let o = Opts::new(value, "chat template options")?;
    o.check_keys(ChatTemplateOptionsSpec::KEYS)?;
    Ok(o.boolean("addGenerationPrompt")?.unwrap_or(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn object(fields: Vec<(&str, OptValue)>) -> OptValue {
        OptValue::Object(
            Handle(0),
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    #[test]
    fn load_options_default_to_caching_and_refuse_unknown_keys() {
        let o = LoadOptions::parse(&OptValue::Undefined, "fromUrl options").unwrap();
        assert_eq!((o.cache, o.on_progress, o.signal), (true, None, None));
        let typo = object(vec![("onprogress", OptValue::Function(Handle(1)))]);
        let e = LoadOptions::parse(&typo, "fromUrl options").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOption);
        assert!(e.message.contains("onProgress"), "{}", e.message);
        let bad = object(vec![("signal", OptValue::Number(1.0))]);
        assert!(LoadOptions::parse(&bad, "x")
            .unwrap_err()
            .message
            .contains("AbortSignal"));
    }

    #[test]
    fn an_embedding_limit_is_a_positive_integer() {
        assert_eq!(
            pending_limit(&OptValue::Undefined).unwrap(),
            DEFAULT_PENDING_LIMIT
        );
        assert_eq!(
            pending_limit(&object(vec![("limit", OptValue::Number(3.0))])).unwrap(),
            3
        );
        for bad in [0.0, -1.0, 1.5] {
            let e = pending_limit(&object(vec![("limit", OptValue::Number(bad))])).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidOption, "{bad}");
        }
        let off = object(vec![("addGenerationPrompt", OptValue::Bool(false))]);
        assert!(!add_generation_prompt(&off).unwrap());
        assert!(add_generation_prompt(&OptValue::Undefined).unwrap());
    }
}
