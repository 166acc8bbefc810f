//! The kinds of sensitive data the redactor knows. A kind names what the data *is*, and its
//! upper-case name doubles as the placeholder stem (`[EMAIL_1]`), the JSON tag (`"EMAIL"`) and
//! the option value (`types: ["EMAIL"]`), so one spelling is used everywhere.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A built-in entity type, or a custom one declared with `patterns: [{ name, regex }]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityType {
    Email,
    Phone,
    CreditCard,
    Iban,
    UsSsn,
    IpAddress,
    MacAddress,
    Url,
    Crypto,
    ApiKey,
    Jwt,
    PrivateKey,
    Password,
    DateOfBirth,
    Person,
    Address,
    /// National identifiers, tax and licence numbers, named as Presidio names them.
    UsItin,
    UsPassport,
    UsDriverLicense,
    UsBankNumber,
    MedicalLicense,
    UkNhs,
    UkNino,
    EsNif,
    EsNie,
    ItFiscalCode,
    PlPesel,
    SgNricFin,
    AuTfn,
    AuAbn,
    AuAcn,
    AuMedicare,
    InPan,
    InAadhaar,
    FiPersonalIdentityCode,
    KrRrn,
    ThTnin,
    /// An identity, tax or licence number stated after its label ("my BSN is …", "ID number:
    /// …", "Personalausweis …") in a format no type above reads.
    IdNumber,
    /// A user-declared pattern; the name is upper-case ASCII (validated in the config).
    Custom(String),
}

impl EntityType {
    /// Every built-in type, in the order they are documented.
    pub const BUILT_IN: [EntityType; 38] = [
        EntityType::Email,
        EntityType::Phone,
        EntityType::CreditCard,
        EntityType::Iban,
        EntityType::UsSsn,
        EntityType::IpAddress,
        EntityType::MacAddress,
        EntityType::Url,
        EntityType::Crypto,
        EntityType::ApiKey,
        EntityType::Jwt,
        EntityType::PrivateKey,
        EntityType::Password,
        EntityType::DateOfBirth,
        EntityType::Person,
        EntityType::Address,
        EntityType::UsItin,
        EntityType::UsPassport,
        EntityType::UsDriverLicense,
        EntityType::UsBankNumber,
        EntityType::MedicalLicense,
        EntityType::UkNhs,
        EntityType::UkNino,
        EntityType::EsNif,
        EntityType::EsNie,
        EntityType::ItFiscalCode,
        EntityType::PlPesel,
        EntityType::SgNricFin,
        EntityType::AuTfn,
        EntityType::AuAbn,
        EntityType::AuAcn,
        EntityType::AuMedicare,
        EntityType::InPan,
        EntityType::InAadhaar,
        EntityType::FiPersonalIdentityCode,
        EntityType::KrRrn,
        EntityType::ThTnin,
        EntityType::IdNumber,
    ];

    pub fn as_str(&self) -> &str {
        match self {
            EntityType::Email => "EMAIL",
            EntityType::Phone => "PHONE",
            EntityType::CreditCard => "CREDIT_CARD",
            EntityType::Iban => "IBAN",
            EntityType::UsSsn => "US_SSN",
            EntityType::IpAddress => "IP_ADDRESS",
            EntityType::MacAddress => "MAC_ADDRESS",
            EntityType::Url => "URL",
            EntityType::Crypto => "CRYPTO",
            EntityType::ApiKey => "API_KEY",
            EntityType::Jwt => "JWT",
            EntityType::PrivateKey => "PRIVATE_KEY",
            EntityType::Password => "PASSWORD",
            EntityType::DateOfBirth => "DATE_OF_BIRTH",
            EntityType::Person => "PERSON",
            EntityType::Address => "ADDRESS",
            EntityType::UsItin => "US_ITIN",
            EntityType::UsPassport => "US_PASSPORT",
            EntityType::UsDriverLicense => "US_DRIVER_LICENSE",
            EntityType::UsBankNumber => "US_BANK_NUMBER",
            EntityType::MedicalLicense => "MEDICAL_LICENSE",
            EntityType::UkNhs => "UK_NHS",
            EntityType::UkNino => "UK_NINO",
            EntityType::EsNif => "ES_NIF",
            EntityType::EsNie => "ES_NIE",
            EntityType::ItFiscalCode => "IT_FISCAL_CODE",
            EntityType::PlPesel => "PL_PESEL",
            EntityType::SgNricFin => "SG_NRIC_FIN",
            EntityType::AuTfn => "AU_TFN",
            EntityType::AuAbn => "AU_ABN",
            EntityType::AuAcn => "AU_ACN",
            EntityType::AuMedicare => "AU_MEDICARE",
            EntityType::InPan => "IN_PAN",
            EntityType::InAadhaar => "IN_AADHAAR",
            EntityType::FiPersonalIdentityCode => "FI_PERSONAL_IDENTITY_CODE",
            EntityType::KrRrn => "KR_RRN",
            EntityType::ThTnin => "TH_TNIN",
            EntityType::IdNumber => "ID_NUMBER",
            EntityType::Custom(name) => name,
        }
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
