//! PEM private key blocks, whole or cut off after their first lines.

use super::Spec;
use crate::entity::EntityType;
use crate::scan::gate::Gate;
use crate::scan::text::hit;

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(PrivateKey, r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:\s*[A-Za-z0-9+/=:-]+)*", |_, s, e| hit(s, e, 1.0))
            .gate(Gate::Starts(&["-----begin "])),
    ]
}
