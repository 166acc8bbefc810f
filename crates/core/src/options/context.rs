//! `ContextOptions`: what `context()` takes for one turn.

use super::reader::Opts;
use super::value::OptValue;
use crate::context::Detail;
use crate::error::{Error, Result};

js_options! {
    pub struct ContextOptionsSpec as "ContextOptions" {
        /// What the turn is about; used by retrieval strategies.
        query: "string",
        /// Count the memory tools' schemas against this context's budget (default: the tools
        /// option).
        tools: "boolean",
        /// "sent" (default): `report.entries` lists the entries sent and `report.ranges` the
        /// rest, so a turn costs what it sends however long the history; "all": every entry is
        /// listed, each with its own reason (work proportional to the history).
        detail: "ReportDetail",
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextOptions {
    pub query: Option<String>,
    /// `None`: as the memory's `tools` option says.
    pub tools: Option<bool>,
    pub detail: Detail,
}

impl ContextOptions {
    pub fn parse(value: &OptValue) -> Result<Self> {
        let o = Opts::new(value, "context options")?;
        o.check_keys(ContextOptionsSpec::KEYS)?;
        let detail = match o.string("detail")?.as_deref() {
            None | Some("sent") => Detail::Sent,
            Some("all") => Detail::All,
            Some(other) => {
                return Err(Error::option(format!(
                    "detail must be \"sent\" or \"all\", got {:?}",
                    crate::error::truncate(other, 40)
                )))
            }
        };
        Ok(ContextOptions {
            query: o.string("query")?,
            tools: o.boolean("tools")?,
            detail,
        })
    }
}

/// What `context()` asks the driver for.
impl From<ContextOptions> for crate::driver::ContextAsk {
    fn from(o: ContextOptions) -> Self {
        crate::driver::ContextAsk {
            query: o.query,
            tools: o.tools,
            detail: o.detail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::value::from_json;
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<ContextOptions> {
        ContextOptions::parse(&from_json(v))
    }

    #[test]
    fn reads_each_option_and_defaults_to_the_sent_entries() {
        let o = parse(json!({ "query": "paris", "tools": true, "detail": "all" })).unwrap();
        assert_eq!(o.query.as_deref(), Some("paris"));
        assert_eq!((o.tools, o.detail), (Some(true), Detail::All));
        for absent in [OptValue::Undefined, OptValue::Null] {
            let o = ContextOptions::parse(&absent).unwrap();
            assert_eq!((o.query, o.tools, o.detail), (None, None, Detail::Sent));
        }
        let nulls = parse(json!({ "query": null, "detail": null })).unwrap();
        assert_eq!((nulls.query, nulls.detail), (None, Detail::Sent));
    }

    #[test]
    fn refuses_with_a_message_naming_the_option() {
        let cases = [
            (json!({ "detail": "some" }), "detail must be \"sent\" or \"all\", got \"some\""),
            (json!({ "query": 3 }), "query must be a string, got 3"),
            (json!({ "tools": "yes" }), "tools must be true or false, got the string \"yes\""),
            (json!({ "qurey": "x" }), "unknown option \"qurey\" in context options (did you mean query?); known options: query, tools, detail"),
            (json!([1]), "context options must be an object"),
        ];
        for (input, message) in cases {
            let e = parse(input).unwrap_err();
            assert_eq!(
                (e.code, e.message.as_str()),
                (crate::ErrorCode::InvalidOption, message)
            );
        }
    }
}
