//! The declared shapes of what the JS face hands out from the redactor (`redactor.d.ts`),
//! against what it really writes.

use crate::{entity::ENTITY_TABLE, Redactor, RedactorConfig, TYPESCRIPT_API};
use llm_memory_core::js_types::shape::{check, interfaces};

#[test]
fn entity_types_and_the_vault_are_as_declared() {
    let ts = interfaces(TYPESCRIPT_API);
    for info in serde_json::to_value(ENTITY_TABLE)
        .unwrap()
        .as_array()
        .unwrap()
    {
        check(&ts, "EntityTypeInfo", info, &[]);
    }
    let mut r = Redactor::new(RedactorConfig::default()).unwrap();
    r.redact("Mail ann@example.com");
    let vault = r.vault().to_value();
    check(&ts, "VaultDocument", &vault, &[]);
    for entry in vault["entries"].as_array().unwrap() {
        check(&ts, "VaultEntry", entry, &[]);
    }
    // Every option the declaration names is one the configuration accepts.
    for (option, _) in &ts["RedactorOptions"] {
        let value = match option.as_str() {
            "types" | "allowList" | "patterns" => "[]",
            "mode" => "\"mask\"",
            "model" => continue,
            _ => "0.5",
        };
        let json = format!("{{\"{option}\":{value}}}");
        assert!(
            RedactorConfig::from_json(&json).is_ok(),
            "{option} is refused"
        );
    }
}
