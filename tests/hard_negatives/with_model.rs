//! The same hard negatives with the PII model (optimized builds only: unoptimized, the encoder
//! takes minutes over these texts).

use super::pii_model::tagger;
use super::{check, findings_by_class, RULES_LIMITS};
use llm_memory::redact::{ModelOption, Redactor, RedactorConfig};

/// Classes and the most findings rules and model together may make on each one's messages:
/// what the shipped fine-tune, its decoder and its span checks (`redact::model`) give at this
/// commit (all but two findings are the model's; the rules' share is [`RULES_LIMITS`]). A new
/// fine-tune moves single findings between classes (this one: cryptography's Alice, Bob and
/// Mallory in a code sample, "Superzahl 7"), so retraining re-pins them. They are ceilings
/// against regressions, above the goal of 20 per 1 000; they go down as the model's spans learn
/// to leave these texts alone.
const MODEL_LIMITS: &[(&str, usize)] = &[
    ("brand", 1),
    ("place", 0),
    ("public_figure", 5),
    ("code_sample", 5),
    ("month_table", 0),
    ("version", 0),
    ("local_ip", 1),
    ("sku", 2),
    ("lotto", 2),
    ("http_status", 1),
    ("env_example", 0),
    ("order_number", 0),
    ("tracking_number", 1),
    ("timestamp", 0),
    ("hex_hash", 1),
    ("uuid", 1),
];

/// Findings per 1 000 hard-negative messages, all classes together, rules and model (19 on
/// 274 messages, measured; Rampart unchanged gives 21, and 35 before eponymous brands, thing
/// nouns, travel places and lower-case addresses were checked, 167 before the model's span checks).
const PER_1000_MODEL: usize = 70;

#[test]
fn rules_and_model_leave_hard_negatives_alone() {
    let Some(tagger) = tagger() else { return };
    assert_eq!(MODEL_LIMITS.len(), RULES_LIMITS.len());
    let config = RedactorConfig {
        model: Some(ModelOption(tagger)),
        ..RedactorConfig::default()
    };
    let redactor = Redactor::new(config).unwrap();
    let found = findings_by_class(&redactor, MODEL_LIMITS);
    check(&found, MODEL_LIMITS, PER_1000_MODEL);
}
