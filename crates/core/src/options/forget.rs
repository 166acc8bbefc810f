//! `ForgetOptions`: what `forget(id, options)` and `clear(options)` take.

use super::reader::Opts;
use super::value::OptValue;
use crate::error::Result;
use crate::memory::ForgetOptions;

js_options! {
    pub struct ForgetOptionsSpec as "ForgetOptions" {
        /// Keep the facts extracted from the forgotten turns (they are forgotten with them by
        /// default).
        keepDerived: "boolean",
    }
}

pub fn forget_options(value: &OptValue) -> Result<ForgetOptions> {
    let o = Opts::new(value, "forget options")?;
    o.check_keys(ForgetOptionsSpec::KEYS)?;
    Ok(ForgetOptions {
        keep_derived: o.boolean("keepDerived")?.unwrap_or(false),
        now: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::value::from_json;
    use serde_json::json;

    #[test]
    fn keep_derived_defaults_to_false() {
        let keep = |v| forget_options(&from_json(v)).map(|o| o.keep_derived);
        assert_eq!(keep(json!({ "keepDerived": true })), Ok(true));
        assert_eq!(keep(json!(null)), Ok(false));
        assert_eq!(keep(json!({ "keepDerived": null })), Ok(false));
        let e = keep(json!({ "keepDerivd": true })).unwrap_err();
        assert_eq!(e.message, "unknown option \"keepDerivd\" in forget options (did you mean keepDerived?); known options: keepDerived");
        let e = keep(json!({ "keepDerived": "yes" })).unwrap_err();
        assert_eq!(
            e.message,
            "keepDerived must be true or false, got the string \"yes\""
        );
    }
}
