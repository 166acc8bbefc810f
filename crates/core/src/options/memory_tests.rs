use super::*;
use crate::error::ErrorCode;
use crate::options::value::{from_json, with};
use serde_json::json;

fn parse(v: OptValue) -> Result<MemoryOptions> {
    MemoryOptions::parse(&v, &MemoryConfig::default(), BuildParts::ALL)
}

fn refusal(v: OptValue) -> String {
    let e = parse(v).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidOption, "{}", e.message);
    e.message
}

#[test]
fn lays_the_options_over_the_base_config() {
    let o = parse(from_json(json!({
        "strategy": "tokens", "maxTokens": 2000, "reserveTokens": 500, "maxTurns": 8,
        "systemPrompt": "Be brief.", "summaryTrigger": { "messages": 10 }, "keepRecent": 4,
        "messageOverhead": { "perMessage": 4, "perToolCall": 1 },
        "sectionLimits": { "pinned": 100, "summary": null }, "maxEntryChars": 99,
        "dedup": false, "summaryTimeoutMs": 1500, "callbackTimeoutMs": 10,
        "retrieval": { "recentShare": 0.25, "minRelevance": 0.2, "maxItems": 7, "halfLifeDays": 2.5,
                       "recencyWeight": 0, "importanceWeight": 1, "lexicalWeight": 0.5,
                       "quantize": true },
        "tools": true,
    })))
    .unwrap();
    let c = &o.config;
    assert_eq!(c.strategy, Strategy::Tokens);
    assert_eq!(
        (c.limits.max_tokens, c.limits.reserve_tokens),
        (Some(2000), 500)
    );
    assert_eq!(c.limits.max_turns, Some(8));
    assert_eq!(c.system_prompt.as_deref(), Some("Be brief."));
    assert_eq!(
        (c.summary.trigger.messages, c.summary.trigger.tokens),
        (Some(10), None)
    );
    assert_eq!(c.summary.keep_recent, 4);
    assert_eq!((c.overhead.per_message, c.overhead.per_tool_call), (4, 1));
    assert_eq!(
        c.overhead.per_name,
        MemoryConfig::default().overhead.per_name
    );
    assert_eq!(
        (c.limits.pinned_max, c.limits.summary_max),
        (Some(100), None)
    );
    assert_eq!((c.max_entry_chars, c.dedup), (99, false));
    assert_eq!(o.summary_timeout_ms, Some(1500.0));
    let r = &o.recall;
    assert_eq!((r.callback_timeout_ms, r.tools), (Some(10.0), Some(true)));
    assert_eq!(
        (r.recent_share, r.max_items, r.half_life_days),
        (Some(0.25), Some(7), Some(2.5))
    );
    assert_eq!(
        (r.recency_weight, r.importance_weight),
        (Some(0.0), Some(1.0))
    );
    assert_eq!((r.lexical_weight, r.quantize), (Some(0.5), Some(true)));
    assert_eq!(r.min_relevance, Some(0.2));
}

#[test]
fn absent_undefined_and_null_keep_the_base() {
    let mut base = MemoryConfig {
        strategy: Strategy::Window,
        ..Default::default()
    };
    base.limits.max_turns = Some(3);
    for v in [
        OptValue::Undefined,
        OptValue::Null,
        from_json(json!({})),
        from_json(json!({ "strategy": null, "retrieval": null, "summaryTrigger": null })),
        with(json!({}), "maxTokens", OptValue::Undefined),
    ] {
        let o = MemoryOptions::parse(&v, &base, BuildParts::ALL).unwrap();
        assert_eq!(o.config, base);
        assert_eq!(o.recall, HookOptions::default());
        assert_eq!((o.tokenizer, o.summarize, o.redact), (None, None, None));
    }
    // An empty system prompt clears it; maxTokens given clears nothing else.
    base.system_prompt = Some("old".into());
    let o = MemoryOptions::parse(
        &from_json(json!({ "systemPrompt": "" })),
        &base,
        BuildParts::ALL,
    );
    assert_eq!(o.unwrap().config.system_prompt, None);
}

#[test]
fn hands_back_callbacks_and_instances_as_handles() {
    let mut v = from_json(json!({ "tokenizer": {}, "embedder": {}, "redact": { "types": [] } }));
    if let OptValue::Object(_, fields) = &mut v {
        for key in ["summarize", "extract", "llm"] {
            fields.push((key.into(), OptValue::Function(Handle(10 + fields.len()))));
        }
    }
    let o = parse(v).unwrap();
    assert!(o.tokenizer.is_some() && o.recall.embedder.is_some());
    assert_eq!(o.summarize, Some(Handle(13)));
    assert_eq!(
        (o.recall.extract, o.recall.llm),
        (Some(Handle(14)), Some(Handle(15)))
    );
    assert!(matches!(o.redact, Some(Redact::With(_))));
    let flags = |b| parse(from_json(json!({ "redact": b }))).unwrap().redact;
    assert_eq!(
        (flags(true), flags(false)),
        (Some(Redact::Default), Some(Redact::Off))
    );
}

#[test]
fn refuses_wrong_types_with_the_option_named() {
    let f = || OptValue::Function(Handle(9));
    let cases = [
        (json!({ "maxTokens": -5 }), "maxTokens must be a non-negative integer, got -5"),
        (json!({ "maxTokens": 1.5 }), "maxTokens must be a non-negative integer, got 1.5"),
        (json!({ "maxTokens": "2000" }), "maxTokens must be a non-negative integer, got the string \"2000\""),
        (json!({ "maxTokens": 5e9 }), "maxTokens must be a non-negative integer, got 5000000000"),
        (json!({ "strategy": "nope" }), "unknown strategy \"nope\": use \"none\", \"full\", \"window\", \"tokens\", \"summary\" or \"retrieval\""),
        (json!({ "dedup": 1 }), "dedup must be true or false, got 1"),
        (json!({ "systemPrompt": ["a"] }), "systemPrompt must be a string, got object"),
        (json!({ "summarize": "yes" }), "summarize must be a function, got the string \"yes\""),
        (json!({ "tokenizer": "gpt" }), TOKENIZER_EXPECTED),
        (json!({ "embedder": 3 }), EMBEDDER_EXPECTED),
        (json!({ "summaryTrigger": {} }), "summaryTrigger needs messages or tokens (or both)"),
        (json!({ "summaryTrigger": 5 }), "summaryTrigger must be an object"),
        (json!({ "summaryTimeoutMs": 0 }), "summaryTimeoutMs must be a positive number of milliseconds"),
        (json!({ "callbackTimeoutMs": -1 }), "callbackTimeoutMs must be a positive number of milliseconds"),
        (json!({ "retrieval": { "halfLifeDays": 0 } }), "retrieval.halfLifeDays must be a positive number of days"),
        (json!({ "retrieval": { "maxItems": 0 } }), "retrieval.maxItems must be at least 1"),
        (json!({ "retrieval": { "recencyWeight": 1.5 } }), "recencyWeight must be between 0 and 1, got 1.5"),
        (json!({ "retrieval": { "recentShare": -0.1 } }), "recentShare must be between 0 and 1, got -0.1"),
        (json!({ "redact": "yes" }), "redact must be true, false, or Redactor options ({ types, allowList, patterns, mode })"),
        (json!([1, 2]), "Memory options must be an object"),
        (json!("tokens"), "Memory options must be an object"),
    ];
    for (input, message) in cases {
        assert_eq!(refusal(from_json(input)), message);
    }
    let both = with(json!({ "embedder": {} }), "embed", f());
    assert_eq!(
        refusal(both),
        "give either embed (a callback) or embedder (an EmbedModel), not both"
    );
    let nan = with(json!({}), "summaryTimeoutMs", OptValue::Number(f64::NAN));
    assert_eq!(
        refusal(nan),
        "summaryTimeoutMs must be a finite number, got NaN"
    );
    let inf = with(json!({}), "keepRecent", OptValue::Number(f64::INFINITY));
    assert_eq!(
        refusal(inf),
        "keepRecent must be a non-negative integer, got inf"
    );
    let big = with(json!({}), "maxTurns", OptValue::Other("bigint".into()));
    assert_eq!(
        refusal(big),
        "maxTurns must be a non-negative integer, got bigint"
    );
}

#[test]
fn unknown_keys_suggest_the_closest_known_one() {
    let m = refusal(from_json(json!({ "strategy": "full", "maxTokenz": 3 })));
    assert!(m.starts_with("unknown option \"maxTokenz\" in Memory options (did you mean maxTokens?); known options: strategy, maxTokens,"), "{m}");
    let m = refusal(from_json(json!({ "messageOverhead": { "perMesage": 2 } })));
    assert_eq!(m, "unknown option \"perMesage\" in messageOverhead (did you mean perMessage?); known options: perMessage, perName, perRequest, perToolCall");
    let m = refusal(from_json(json!({ "retrieval": { "zzzzzzzz": 1 } })));
    assert!(
        m.starts_with("unknown option \"zzzzzzzz\" in retrieval; known options: recentShare,"),
        "{m}"
    );
    // An unknown key is refused even when its value is undefined.
    let m = refusal(with(json!({}), "maxToken", OptValue::Undefined));
    assert!(m.contains("(did you mean maxTokens?)"), "{m}");
}

#[test]
fn parts_left_out_of_the_build_are_refused_not_ignored() {
    let slim = |v| MemoryOptions::parse(&from_json(v), &MemoryConfig::default(), BuildParts::NONE);
    for v in [
        json!({ "redact": true }),
        json!({ "redact": {} }),
        json!({ "embedder": {} }),
        json!({ "embedder": 1 }),
    ] {
        let e = slim(v).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotInBuild);
        assert!(
            e.message.contains("import the full build (pkg/)"),
            "{}",
            e.message
        );
    }
    assert_eq!(
        slim(json!({ "redact": false })).unwrap().redact,
        Some(Redact::Off)
    );
    assert_eq!(
        slim(json!({ "redact": 2 })).unwrap_err().code,
        ErrorCode::InvalidOption
    );
}

#[test]
fn recall_options_turn_vectors_on_with_an_embedding_source() {
    let counter = std::sync::Arc::new(crate::ApproximateCounter::default());
    let mut memory = Memory::new(MemoryConfig::default(), counter).unwrap();
    let knobs = parse(from_json(
        json!({ "retrieval": { "maxItems": 3, "quantize": true } }),
    ));
    knobs.unwrap().recall.apply_to(&mut memory);
    assert!(
        !memory.recall_state().vectors_enabled(),
        "quantize alone turns nothing on"
    );
    assert_eq!(memory.recall_state().config.max_items, 3);
    let embed = with(json!({}), "embed", OptValue::Function(Handle(1)));
    parse(embed).unwrap().recall.apply_to(&mut memory);
    assert!(memory.recall_state().vectors_enabled());
    assert!(
        !memory.recall_state().config.quantize,
        "quantize is read when given"
    );
}

#[test]
fn the_interface_lists_every_key_with_its_type() {
    let ts = MemoryOptionsSpec::TS;
    assert!(ts.starts_with("export interface MemoryOptions {\n"), "{ts}");
    for key in MemoryOptionsSpec::KEYS {
        assert!(ts.contains(&format!("\n  {key}?: ")), "{key} in {ts}");
    }
    assert!(ts.contains("  /** Default: Tokenizer.approximate(). */\n  tokenizer?: Tokenizer;\n"));
    assert!(ts.contains("  retrieval?: {\n"));
    assert!(ts.contains("    halfLifeDays?: number;\n"));
}

#[test]
fn options_lay_hooks_over_hooks_and_the_embedder_given_last_embeds() {
    use crate::driver::{Embedder, Hooks};
    use crate::options::value::{from_json, with, Handle};
    use crate::options::{BuildParts, OptValue};
    let over = |h: &mut Hooks, v: OptValue| {
        let o = MemoryOptions::parse(&v, &MemoryConfig::default(), BuildParts::ALL).unwrap();
        o.lay_hooks_over(h);
    };
    let f = || OptValue::Function(Handle(9));
    let mut h = Hooks::default();
    over(
        &mut h,
        with(
            serde_json::json!({ "summaryTimeoutMs": 5 }),
            "summarize",
            f(),
        ),
    );
    assert!(h.summarize && !h.llm && h.embed.is_none());
    assert_eq!(h.summary_timeout_ms, 5.0);
    over(
        &mut h,
        with(serde_json::json!({ "callbackTimeoutMs": 7 }), "embed", f()),
    );
    assert_eq!(h.embed, Some(Embedder::Callback));
    let timeouts = (h.summary_timeout_ms, h.callback_timeout_ms);
    assert_eq!(timeouts, (5.0, 7.0), "absent keys keep theirs");
    over(&mut h, from_json(serde_json::json!({ "embedder": {} })));
    assert_eq!(h.embed, Some(Embedder::InPage));
    over(&mut h, with(serde_json::json!({}), "embed", f()));
    assert_eq!(
        h.embed,
        Some(Embedder::Callback),
        "the one given last embeds"
    );
    assert!(h.summarize, "a hook is kept until replaced");
}
