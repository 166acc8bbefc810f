//! API keys with a known prefix: AWS, GitHub (with its checksum), Anthropic, OpenAI, Google,
//! Hugging Face, Slack and Stripe.

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{hit, placeholder};
use crate::validate as v;

fn github(text: &str, s: usize, e: usize) -> Option<Hit> {
    // A token with a wrong checksum is a made-up example unless the context says otherwise.
    hit(
        s,
        e,
        if v::github_token(&text[s..e]) {
            1.0
        } else {
            0.3
        },
    )
}

/// A key of a known prefix, unless its body is filler (`sk_test_xxxx…`, `AKIAXXXX…`).
fn strong(text: &str, s: usize, e: usize) -> Option<Hit> {
    if placeholder(&text[s..e]) {
        return None;
    }
    hit(s, e, 0.95)
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(ApiKey, r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[A-Z2-7]{16}\b", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "0-9"]), seeds: &["A"], min_seeds: 1, min_len: 20 }).max_len(20).starting(&["AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "ANPA"])),
        Spec::new(ApiKey, r"\bgh[pousr]_[A-Za-z0-9]{36}\b", github)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_"]), seeds: &["_"], min_seeds: 1, min_len: 40 }).max_len(40).starting(&["gh"]))
            .context(&["token", "github", "pat", "auth"]),
        Spec::new(ApiKey, r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_"]), seeds: &["_"], min_seeds: 3, min_len: 93 }).max_len(93).starting(&["github_pat_"])),
        Spec::new(ApiKey, r"\bsk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{80,120}", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_-"]), seeds: &["-"], min_seeds: 3, min_len: 90 }).containing(&["sk-ant-"])),
        Spec::new(ApiKey, r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}|\bsk-[A-Za-z0-9]{48}\b", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_-"]), seeds: &["-"], min_seeds: 1, min_len: 45 }).containing(&["sk-"])),
        Spec::new(ApiKey, r"\bAIza[0-9A-Za-z_-]{35}", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_-"]), seeds: &["A"], min_seeds: 1, min_len: 39 }).containing(&["AIza"])),
        Spec::new(ApiKey, r"\bhf_[A-Za-z0-9]{30,40}\b", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_"]), seeds: &["_"], min_seeds: 1, min_len: 33 }).max_len(43).starting(&["hf_"])),
        Spec::new(ApiKey, r"\bxox[abposr]-[0-9A-Za-z-]{10,100}|\bxapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]{20,}|https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "-:/."]), seeds: &["-/"], min_seeds: 1, min_len: 15 }).containing(&["xox", "xapp-", "hooks.slack.com"])),
        Spec::new(ApiKey, r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,99}\b|\bwhsec_[0-9A-Za-z+/=]{24,}", strong)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "_+/="]), seeds: &["_"], min_seeds: 1, min_len: 28 }).containing(&["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"])),
    ]
}
