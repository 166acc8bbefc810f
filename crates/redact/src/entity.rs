//! The kinds of sensitive data the redactor knows. A kind names what the data *is*, and its
//! upper-case name doubles as the placeholder stem (`[EMAIL_1]`), the JSON tag (`"EMAIL"`) and
//! the option value (`types: ["EMAIL"]`), so one spelling is used everywhere.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The one list of built-in types. Each row is `Variant "NAME" "description"`; the macro makes
/// the enum, [`EntityType::BUILT_IN`], [`EntityType::as_str`], [`ENTITY_TABLE`] (which
/// `Redactor.types` returns) and [`TYPESCRIPT`] (the closed union in the `.d.ts`). The README's
/// table and the demo are checked against `Redactor.types` (tests/js/entity-types.test.mjs).
/// Adding a type is one row here; its recognizer produces the variant.
macro_rules! entity_types {
    (
        common { $($c:ident $c_name:literal $c_text:literal,)* }
        national { $($n:ident $n_name:literal $n_text:literal,)* }
    ) => {
        /// A built-in entity type, or a custom one declared with `patterns: [{ name, regex }]`.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EntityType {
            $($c,)*
            // National identifiers, tax and licence numbers, named as Presidio names them.
            $($n,)*
            /// A user-declared pattern; the name is upper-case ASCII (validated in the config).
            Custom(String),
        }

        /// Every built-in type with what it finds, in the order they are documented.
        pub const ENTITY_TABLE: &[EntityInfo] = &[
            $(EntityInfo { kind: EntityType::$c, name: $c_name, description: $c_text, national: false },)*
            $(EntityInfo { kind: EntityType::$n, name: $n_name, description: $n_text, national: true },)*
        ];

        /// The TypeScript of the built-in names: a closed union, so `tsc` flags a misspelled one.
        pub const TYPESCRIPT: &str = concat!(
            "\n/** A built-in entity type; `Redactor.types` lists them with what each finds. */\n",
            "export type BuiltInEntityType =",
            $("\n  | \"", $c_name, "\"",)*
            $("\n  | \"", $n_name, "\"",)*
            ";\n",
        );

        impl EntityType {
            /// Every built-in type, in the order they are documented.
            pub const BUILT_IN: &'static [EntityType] = &[$(EntityType::$c,)* $(EntityType::$n,)*];

            pub fn as_str(&self) -> &str {
                match self {
                    $(EntityType::$c => $c_name,)*
                    $(EntityType::$n => $n_name,)*
                    EntityType::Custom(name) => name,
                }
            }
        }
    };
}

/// One row of the entity table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntityInfo {
    #[serde(rename = "type")]
    pub kind: EntityType,
    #[serde(skip)]
    pub name: &'static str,
    pub description: &'static str,
    /// A national identifier, tax, licence or account number: found after its label unless its
    /// shape alone is distinctive.
    pub national: bool,
}

entity_types! {
    common {
        Email "EMAIL" "E-mail address, internationalized or spelled out (\"john [at] example [dot] com\")",
        Phone "PHONE" "Phone number: with a country code, nine digits or more, or a context word on its line",
        CreditCard "CREDIT_CARD" "Payment card number that passes the Luhn check",
        Iban "IBAN" "International bank account number that passes mod-97; in lower case only when written without spaces",
        UsSsn "US_SSN" "US Social Security number",
        IpAddress "IP_ADDRESS" "IPv4 or IPv6 address",
        MacAddress "MAC_ADDRESS" "MAC address",
        Url "URL" "URL that carries credentials or a token",
        Crypto "CRYPTO" "Crypto wallet address (base58check, bech32)",
        ApiKey "API_KEY" "API key or token of a known provider (AWS, GitHub, OpenAI, Anthropic, Google, Hugging Face, Slack, Stripe)",
        Jwt "JWT" "JSON Web Token",
        PrivateKey "PRIVATE_KEY" "PEM private key",
        Password "PASSWORD" "Password or PIN: an assignment (`password=`, `DB_PASS`) or said in a sentence",
        DateOfBirth "DATE_OF_BIRTH" "Date of birth",
        Person "PERSON" "Person's name, after a cue or a listed given name followed by a surname",
        Address "ADDRESS" "Street address with a house number, or a post office box",
    }
    national {
        UsItin "US_ITIN" "US individual taxpayer identification number",
        UsPassport "US_PASSPORT" "US passport number, after its label",
        UsDriverLicense "US_DRIVER_LICENSE" "US driver's licence number, after its label",
        UsBankNumber "US_BANK_NUMBER" "US bank account number, after its label",
        MedicalLicense "MEDICAL_LICENSE" "DEA registration number",
        UkNhs "UK_NHS" "UK NHS number",
        UkNino "UK_NINO" "UK National Insurance number",
        EsNif "ES_NIF" "Spanish NIF (DNI) tax number",
        EsNie "ES_NIE" "Spanish foreigner identity number (NIE)",
        ItFiscalCode "IT_FISCAL_CODE" "Italian fiscal code (codice fiscale)",
        PlPesel "PL_PESEL" "Polish PESEL number",
        SgNricFin "SG_NRIC_FIN" "Singapore NRIC or FIN",
        AuTfn "AU_TFN" "Australian tax file number",
        AuAbn "AU_ABN" "Australian business number",
        AuAcn "AU_ACN" "Australian company number",
        AuMedicare "AU_MEDICARE" "Australian Medicare card number",
        InPan "IN_PAN" "Indian permanent account number (PAN)",
        InAadhaar "IN_AADHAAR" "Indian Aadhaar number",
        FiPersonalIdentityCode "FI_PERSONAL_IDENTITY_CODE" "Finnish personal identity code",
        KrRrn "KR_RRN" "Korean resident registration number",
        ThTnin "TH_TNIN" "Thai national identification number",
        IdNumber "ID_NUMBER" "ID, tax, passport or licence number of any country after its label (\"my BSN is …\") in a format no other type reads",
    }
}

impl EntityType {
    /// What a built-in type finds (`None` for a custom one).
    pub fn description(&self) -> Option<&'static str> {
        ENTITY_TABLE
            .iter()
            .find(|row| row.kind == *self)
            .map(|row| row.description)
    }

    /// Parses a built-in name (case-insensitive). Custom names are resolved by the config,
    /// which knows which ones were declared.
    pub fn built_in(name: &str) -> Option<EntityType> {
        EntityType::BUILT_IN
            .iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(name))
            .cloned()
    }

    /// Whether `name` is usable as a custom type name: it becomes a placeholder stem, so it must
    /// survive the placeholder grammar (`[A-Z][A-Z0-9_]*`, not ending in `_`) and not shadow a
    /// built-in name.
    pub fn is_valid_custom_name(name: &str) -> bool {
        let bytes = name.as_bytes();
        !bytes.is_empty()
            && bytes.len() <= 40
            && bytes[0].is_ascii_uppercase()
            && bytes
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
            && !name.ends_with('_')
            && EntityType::built_in(name).is_none()
    }
}

impl fmt::Display for EntityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for EntityType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Deserializes any name: built-in names map to their variant, anything else that is a valid
/// custom name becomes `Custom`. The config checks custom names against the declared patterns.
impl<'de> Deserialize<'de> for EntityType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if let Some(t) = EntityType::built_in(&name) {
            return Ok(t);
        }
        if EntityType::is_valid_custom_name(&name) {
            return Ok(EntityType::Custom(name));
        }
        Err(serde::de::Error::custom(format!(
            "unknown entity type {name:?}; expected one of {} or a declared custom pattern name",
            EntityType::BUILT_IN
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_json() {
        for t in EntityType::BUILT_IN.iter() {
            let json = serde_json::to_string(t).unwrap();
            let back: EntityType = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, t);
        }
        assert_eq!(
            EntityType::built_in("credit_card"),
            Some(EntityType::CreditCard)
        );
    }

    #[test]
    fn the_table_names_each_type_once_as_a_placeholder_stem() {
        let mut seen = std::collections::HashSet::new();
        for row in ENTITY_TABLE {
            assert_eq!(row.kind.as_str(), row.name);
            assert!(seen.insert(row.name), "{} is listed twice", row.name);
            // A built-in name must read as a stem of `[NAME_1]`, as custom names must.
            let stem = row
                .name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
            assert!(
                stem && !row.name.ends_with('_'),
                "{} is not a placeholder stem",
                row.name
            );
            assert!(!row.description.is_empty() && row.description.len() < 160);
            assert!(!EntityType::is_valid_custom_name(row.name));
        }
        assert_eq!(EntityType::BUILT_IN.len(), ENTITY_TABLE.len());
        assert!(EntityType::BUILT_IN
            .iter()
            .zip(ENTITY_TABLE)
            .all(|(t, row)| *t == row.kind));
    }

    #[test]
    fn the_typescript_union_lists_every_built_in_name() {
        let quoted: Vec<&str> = TYPESCRIPT.split('"').skip(1).step_by(2).collect();
        let names: Vec<&str> = EntityType::BUILT_IN.iter().map(|t| t.as_str()).collect();
        assert_eq!(quoted, names);
        assert!(!TYPESCRIPT.contains("string"), "the union must stay closed");
    }

    #[test]
    fn rows_serialize_as_redactor_types_returns_them() {
        let json = serde_json::to_value(&ENTITY_TABLE[0]).unwrap();
        assert_eq!(json["type"], "EMAIL");
        assert_eq!(json["national"], false);
        assert_eq!(EntityType::UkNhs.description(), Some("UK NHS number"));
        assert_eq!(EntityType::Custom("TICKET".into()).description(), None);
    }

    #[test]
    fn custom_names_are_checked() {
        assert!(EntityType::is_valid_custom_name("TICKET"));
        assert!(EntityType::is_valid_custom_name("EMPLOYEE_ID2"));
        assert!(!EntityType::is_valid_custom_name("ticket"));
        assert!(!EntityType::is_valid_custom_name("EMAIL"));
        assert!(!EntityType::is_valid_custom_name("BAD_"));
        assert!(!EntityType::is_valid_custom_name(""));
        assert!(serde_json::from_str::<EntityType>("\"not a type\"").is_err());
    }
}
