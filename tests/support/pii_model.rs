//! The PII model for integration tests: `models/pii-ner.bin` (`make model`), loaded once per
//! test binary. Without the file a test skips (prints why) unless `CI` is set, where `make test`
//! has fetched it and its absence is a failure.

use llm_memory::ner::Tagger;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub fn tagger() -> Option<Arc<Tagger>> {
    static TAGGER: OnceLock<Option<Arc<Tagger>>> = OnceLock::new();
    TAGGER
        .get_or_init(|| {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/pii-ner.bin");
            match std::fs::read(&path) {
                Ok(bytes) => Some(Arc::new(
                    Tagger::from_bytes(&bytes).expect("models/pii-ner.bin loads"),
                )),
                Err(e) if std::env::var_os("CI").is_none() => {
                    eprintln!(
                        "SKIPPED: {} not readable ({e}); run `make model` to test with the PII model",
                        path.display()
                    );
                    None
                }
                Err(e) => panic!(
                    "{} is missing in CI ({e}): make test runs make model first",
                    path.display()
                ),
            }
        })
        .clone()
}
