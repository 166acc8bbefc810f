"""The one mapping every corpus label and every system's finding type goes through before scoring.

Corpora by other hands name entities their own way (Presidio's STREET_ADDRESS, PHONE_NUMBER, ...),
and systems report their own types (ours: UK_NINO, US_PASSPORT, ...). Both are mapped to the
evaluation classes below; a finding covers a gold span only when their classes are compatible.
"""

# Classes that are scored (recall per class; a finding of one of these is counted for precision).
SCORED = ["PERSON", "ADDRESS", "EMAIL", "PHONE", "CREDIT_CARD", "IBAN", "US_SSN", "IP_ADDRESS", "ID"]
# Values with a fixed format: what "structured recall" adds up.
STRUCTURED = ["EMAIL", "PHONE", "CREDIT_CARD", "IBAN", "US_SSN", "IP_ADDRESS"]

# National identifiers, tax, licence and account numbers: one class, since which country's
# scheme a finding names does not matter for whether the value left the device.
_ID_TYPES = {
    "US_ITIN", "US_PASSPORT", "US_DRIVER_LICENSE", "US_BANK_NUMBER", "MEDICAL_LICENSE", "UK_NHS",
    "UK_NINO", "ES_NIF", "ES_NIE", "IT_FISCAL_CODE", "IT_DRIVER_LICENSE", "IT_VAT_CODE",
    "IT_PASSPORT", "IT_IDENTITY_CARD", "PL_PESEL", "SG_NRIC_FIN", "SG_UEN", "AU_TFN", "AU_ABN",
    "AU_ACN", "AU_MEDICARE", "IN_PAN", "IN_AADHAAR", "IN_VEHICLE_REGISTRATION", "IN_VOTER",
    "IN_PASSPORT", "IN_GSTIN", "FI_PERSONAL_IDENTITY_CODE", "KR_RRN", "KR_BRN", "KR_DRIVER_LICENSE",
    "KR_PASSPORT", "KR_FRN", "TH_TNIN", "NG_NIN", "NG_VEHICLE_REGISTRATION", "SE_PERSONNUMMER",
    "DE_TAX_ID", "ID",
}

# Label or finding type → evaluation class. Types not listed keep their own name (then they are
# neither gold nor scored findings; see IGNORED_FINDINGS).
_ALIASES = {
    "STREET_ADDRESS": "ADDRESS",
    "LOCATION": "ADDRESS",  # Presidio's spaCy LOC/GPE/FAC: its nearest type to an address
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "IBAN_CODE": "IBAN",
}


def to_class(label: str) -> str:
    label = label.upper()
    if label in _ID_TYPES:
        return "ID"
    return _ALIASES.get(label, label)


def compatible(gold_class: str, finding_class: str) -> bool:
    """Whether a finding of this class redacts a gold value of that class under a fitting name.
    An SSN taken for another national id (or the reverse) is still an identifier found."""
    if gold_class == finding_class:
        return True
    return {gold_class, finding_class} <= {"US_SSN", "ID"}


# Finding classes our redactor does not have and no corpus scores: Presidio's dates, times,
# nationalities and organisations. They are dropped before scoring, so neither system is charged
# for types the other does not offer; every other finding counts, on hard negatives too.
IGNORED_FINDINGS = {"DATE_TIME", "NRP", "ORGANIZATION"}
