#![cfg(not(target_arch = "wasm32"))]
//! Strategy "retrieval" end to end on the engine: an old fact comes back when the query asks
//! for it, as a dated `[Memory]` section in chronological order with its score in the report;
//! corrections win over stale values; episodes and facts join; tool schemas count.

use llm_memory::context::report::{EntryStatus, Reason, SectionKind};
use llm_memory::driver::{record_episode_now, EmbedJob};
use llm_memory::memory::ContextExtras;
use llm_memory::memory::Persistence as _;
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;

const MINUTE: f64 = 60_000.0;

fn memory(max_tokens: usize) -> Memory {
    let mut config = MemoryConfig {
        strategy: Strategy::Retrieval,
        system_prompt: Some("You are a helpful assistant.".into()),
        ..Default::default()
    };
    config.limits.max_tokens = Some(max_tokens);
    Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap()
}

fn chat(m: &mut Memory, turns: &[(&str, &str)], start: usize) {
    for (i, (u, a)) in turns.iter().enumerate() {
        let t = (start + i) as f64 * MINUTE;
        m.add(Role::User, u, NewEntry::default(), t).unwrap();
        m.add(Role::Assistant, a, NewEntry::default(), t + 1.0)
            .unwrap();
    }
}

fn filler(m: &mut Memory, n: usize, start: usize) {
    for i in 0..n {
        let t = (start + i) as f64 * MINUTE;
        let u =
            format!("Let us talk about topic number {i}, something about gardening and weather.");
        m.add(Role::User, &u, NewEntry::default(), t).unwrap();
        m.add(
            Role::Assistant,
            "Sure, happy to chat about that.",
            NewEntry::default(),
            t + 1.0,
        )
        .unwrap();
    }
}

#[test]
fn an_old_turn_comes_back_when_asked_for() {
    let mut m = memory(600);
    chat(
        &mut m,
        &[(
            "My sister's name is Ottoline and she lives in Reykjavik.",
            "Lovely name!",
        )],
        0,
    );
    filler(&mut m, 200, 1);
    m.add(
        Role::User,
        "Remind me, where does my sister Ottoline live?",
        NewEntry::default(),
        300.0 * MINUTE,
    )
    .unwrap();
    let built = m.context(None).unwrap();
    let r = &built.report;
    assert!(r.total_tokens <= 600);
    let mem = built
        .messages
        .iter()
        .find(|m| m.content.starts_with("[Memory]"))
        .expect("a memory section");
    assert!(
        mem.content
            .contains("(1970-01-01) user: My sister's name is Ottoline"),
        "{}",
        mem.content
    );
    assert_eq!(r.entries[0].status, EntryStatus::Retrieved);
    assert_eq!(r.entries[0].reason, Reason::Relevant);
    assert!(r.entries[0].score.unwrap() > 0.0);
    assert!(r
        .sections
        .iter()
        .any(|s| s.name == SectionKind::Retrieved && s.items >= 1));
    assert!(r.headline.contains("memor"), "{}", r.headline);
    // The memory section sits between the system prompt and the recent turns.
    assert_eq!(built.messages[1].content, mem.content);
    assert_eq!(
        built.messages.last().unwrap().content,
        "Remind me, where does my sister Ottoline live?"
    );
}

#[test]
fn corrections_are_retrieved_with_the_stale_value_and_facts_supersede() {
    let mut m = memory(800);
    chat(&mut m, &[("My favourite tea is oolong.", "Noted.")], 0);
    filler(&mut m, 100, 1);
    chat(
        &mut m,
        &[("Correction: my favourite tea is now rooibos.", "Updated!")],
        101,
    );
    filler(&mut m, 100, 102);
    m.remember("My favourite tea is oolong", Default::default(), 0.0)
        .unwrap();
    let newer = m
        .remember(
            "My favourite tea is rooibos",
            Default::default(),
            101.0 * MINUTE,
        )
        .unwrap();
    assert_eq!(newer.superseded, vec!["f1".to_string()]);
    m.add(
        Role::User,
        "Which favourite tea should you buy me?",
        NewEntry::default(),
        300.0 * MINUTE,
    )
    .unwrap();
    let built = m.context(None).unwrap();
    let mem = built
        .messages
        .iter()
        .find(|m| m.content.starts_with("[Memory]"))
        .unwrap();
    assert!(mem.content.contains("rooibos"));
    // The superseded fact is never sent; the newer turn comes after the older one.
    assert!(
        !mem.content
            .contains("- (1970-01-01) My favourite tea is oolong"),
        "{}",
        mem.content
    );
    let old = mem.content.find("oolong");
    let new = mem.content.find("now rooibos").unwrap();
    assert!(old.is_none_or(|o| o < new));
    assert!(built
        .report
        .retrieved
        .iter()
        .any(|x| x.kind == "fact" && x.id == "f2"));
}

#[test]
fn episodes_join_and_tools_count() {
    let mut m = memory(900);
    chat(
        &mut m,
        &[(
            "Help me plan the Kyoto trip in April",
            "Booked the ryokan in Gion.",
        )],
        0,
    );
    let ep = record_episode(
        &mut m,
        r#"{"summary":"Planned a Kyoto trip","actions":["booked ryokan in Gion"],"outcome":"done","importance":0.8}"#,
        2.0 * MINUTE,
    );
    filler(&mut m, 60, 3);
    m.add(
        Role::User,
        "What did we book for the Kyoto trip?",
        NewEntry::default(),
        100.0 * MINUTE,
    )
    .unwrap();
    let plain = m.context(None).unwrap();
    assert!(plain.messages.iter().any(|x| x
        .content
        .starts_with("[Past episode]\n- (1970-01-01) Planned a Kyoto trip")));
    assert!(plain.report.retrieved.iter().any(|x| x.id == ep.id));
    let with_tools = m
        .context_with(
            None,
            &ContextExtras {
                tools: true,
                ..Default::default()
            },
        )
        .unwrap();
    let tools = with_tools
        .report
        .sections
        .iter()
        .find(|s| s.name == SectionKind::Tools)
        .unwrap();
    assert_eq!(tools.items, 4);
    assert!(tools.tokens > 100);
    assert!(with_tools.report.total_tokens <= 900);
    assert!(
        with_tools.messages.len() < plain.messages.len() || with_tools.report.total_tokens < 900
    );
}

#[test]
fn forgetting_and_clearing_follow_the_index() {
    let mut m = memory(400);
    chat(&mut m, &[("The wifi password is hunter2", "Saved.")], 0);
    filler(&mut m, 30, 1);
    m.forget("e1", Default::default()).unwrap();
    m.add(
        Role::User,
        "what is the wifi password?",
        NewEntry::default(),
        99.0 * MINUTE,
    )
    .unwrap();
    let built = m.context(None).unwrap();
    assert!(!built.messages.iter().any(|x| x.content.contains("hunter2")));
    m.clear(Default::default());
    assert!(m.recall_state().is_empty());
}

#[test]
fn facts_and_episodes_survive_a_reload_and_reach_other_tabs() {
    let mut m = memory(800);
    m.track_changes();
    chat(
        &mut m,
        &[("Plan the Lisbon offsite", "Booked the venue.")],
        0,
    );
    m.remember("Team offsite is in Lisbon", Default::default(), 1.0)
        .unwrap();
    m.remember("Team offsite is in Porto", Default::default(), 2.0)
        .unwrap();
    record_episode(&mut m, r#"{"summary":"Planned the offsite"}"#, 3.0);
    let ops = m.take_changes();
    assert!(ops
        .iter()
        .any(|op| matches!(op, llm_memory::store::RecordOp::Put(r) if r.kind == "fact")));

    // A reload: the records come back through persistence.
    let mut reloaded = memory(800);
    reloaded.load_records(m.records()).unwrap();
    let active: Vec<&str> = reloaded
        .facts()
        .iter()
        .filter(|f| f.status == llm_memory::recall::facts::FactStatus::Active)
        .map(|f| f.text.as_str())
        .collect();
    assert_eq!(active, vec!["Team offsite is in Porto"]);
    assert_eq!(reloaded.fact_history("f1").unwrap().len(), 2);
    assert_eq!(reloaded.episodes().len(), 1);
    let next = reloaded
        .remember("Offsite budget: 5000 EUR", Default::default(), 4.0)
        .unwrap();
    assert_eq!(next.id, "f3", "ids continue after the stored ones");
    m.add(
        Role::User,
        "where is the offsite?",
        NewEntry::default(),
        9.0,
    )
    .unwrap();
    reloaded
        .add(
            Role::User,
            "where is the offsite?",
            NewEntry::default(),
            9.0,
        )
        .unwrap();
    let a = m.context(None).unwrap();
    let b = reloaded.context(None).unwrap();
    let has =
        |c: &llm_memory::BuiltContext| c.messages.iter().any(|x| x.content.contains("is in Porto"));
    assert!(has(&a) && has(&b));

    // Another tab's change arrives as record operations.
    let mut other = memory(800);
    other.load_records(m.records()).unwrap();
    m.track_changes();
    m.update_fact("f2", "Team offsite is in Faro", 5.0).unwrap();
    other.apply_remote(m.take_changes()).unwrap();
    assert_eq!(other.facts()[1].text, "Team offsite is in Faro");
}

#[test]
fn embeddings_are_stored_in_chunks_and_a_reload_embeds_nothing_again() {
    let mut m = memory(800);
    m.enable_vectors(false);
    m.track_changes();
    for i in 0..600 {
        m.remember(
            &format!("Fact number {i} is true"),
            Default::default(),
            i as f64,
        )
        .unwrap();
    }
    // Embedded in rounds of 100, as an app's idle-time work would.
    let mut puts = Vec::new();
    while m.pending_embeddings() > 0 {
        let pending = m.recall_state().pending_embeddings(m.entries(), 100);
        let items: Vec<u32> = pending.iter().map(|p| p.0).collect();
        let texts: Vec<String> = pending.iter().map(|p| p.1.clone()).collect();
        let vectors: Vec<Vec<f32>> = items.iter().map(|&i| vec![1.0, i as f32]).collect();
        m.set_embeddings(&items, &texts, &vectors).unwrap();
        puts.extend(m.take_changes().into_iter().filter_map(|op| match op {
            llm_memory::store::RecordOp::Put(r) if r.kind == "vectors" => Some(r.id),
            _ => None,
        }));
    }
    // 600 = 256 + 256 + 88: two full chunks, and the open one rewritten as it grew.
    let stored: Vec<_> = m
        .records()
        .into_iter()
        .filter(|r| r.kind == "vectors")
        .collect();
    let sizes: Vec<usize> = stored
        .iter()
        .map(|r| r.data["ids"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [256, 256, 88]);
    assert!(puts.len() <= 9, "one write per round and chunk: {puts:?}");

    // Reload: every vector comes back, so nothing waits but a fact whose text changed.
    let mut records = m.records();
    for r in &mut records {
        if r.kind == "fact" && r.id == "f3" {
            r.data["fact"]["text"] = "Fact number 2 changed".into();
            r.data["fact"]["updatedAt"] = 99999.0.into();
        }
    }
    let mut back = memory(800);
    back.enable_vectors(false);
    back.track_changes();
    back.load_records(records).unwrap();
    assert_eq!(back.pending_embeddings(), 1);
    let waiting = back.recall_state().pending_embeddings(back.entries(), 5000);
    assert_eq!(waiting[0].1, "Fact number 2 changed");
    // Its new vector fills the open chunk (v3) instead of starting a fourth record.
    back.set_embeddings(&[waiting[0].0], &[waiting[0].1.clone()], &[vec![0.5, 0.5]])
        .unwrap();
    let ids: Vec<String> = back
        .take_changes()
        .into_iter()
        .filter_map(|op| match op {
            llm_memory::store::RecordOp::Put(r) if r.kind == "vectors" => Some(format!(
                "{}:{}",
                r.id,
                r.data["ids"].as_array().unwrap().len()
            )),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["v3:89"]);
}

#[test]
fn the_tool_exchange_in_progress_is_sent_before_memories_take_the_budget() {
    use llm_memory::history::{FunctionCall, ToolCall};
    use llm_memory::recall::facts::NewFact;
    let mut m = memory(600);
    for i in 0..40 {
        let fact = format!("The weather station number {i} reports about the weather daily.");
        m.remember(&fact, NewFact::default(), i as f64).unwrap();
    }
    filler(&mut m, 50, 1);
    let t = 100.0 * MINUTE;
    m.add(
        Role::User,
        "What is the weather report today?",
        NewEntry::default(),
        t,
    )
    .unwrap();
    let call = ToolCall {
        id: "call1".into(),
        kind: "function".into(),
        function: FunctionCall {
            name: "weather_report".into(),
            arguments: "{}".into(),
        },
    };
    let calls = NewEntry {
        tool_calls: vec![call],
        ..Default::default()
    };
    m.add(Role::Assistant, "", calls, t + 1.0).unwrap();
    // A long result: more than half of what the budget leaves, less than all of it.
    let result = "Sunny with light wind, weather stable. ".repeat(40);
    let extra = NewEntry {
        tool_call_id: Some("call1".into()),
        ..Default::default()
    };
    m.add(Role::Tool, &result, extra, t + 2.0).unwrap();
    let built = m.context(None).unwrap();
    let roles: Vec<Role> = built.messages.iter().map(|m| m.role).collect();
    assert!(
        roles.ends_with(&[Role::User, Role::Assistant, Role::Tool]),
        "the call and its result are sent: {roles:?} ({})",
        built.report.headline
    );
    assert!(built.report.total_tokens <= 600);
}

#[test]
fn the_report_gives_each_memory_its_word_part_and_its_meaning_part() {
    let mut m = memory(600);
    m.enable_vectors(false);
    // Two old facts: one shares a word with the question, the other only its meaning (the
    // toy vectors put "Porto" and "based" on one axis, "cello" on another).
    chat(
        &mut m,
        &[("I moved to Porto last spring.", "Nice city!")],
        0,
    );
    chat(&mut m, &[("I play the cello on weekends.", "Lovely.")], 1);
    filler(&mut m, 100, 2);
    m.add(
        Role::User,
        "Where am I based? And do I still play the cello?",
        NewEntry::default(),
        200.0 * MINUTE,
    )
    .unwrap();
    let axis = |t: &str| match (
        t.contains("Porto") || t.contains("based"),
        t.contains("cello"),
    ) {
        (true, true) => vec![1.0, 1.0, 0.0],
        (true, false) => vec![1.0, 0.0, 0.1],
        (false, true) => vec![0.0, 1.0, 0.1],
        _ => vec![0.0, 0.0, 1.0],
    };
    let pending = m.recall_state().pending_embeddings(m.entries(), 1000);
    let items: Vec<u32> = pending.iter().map(|p| p.0).collect();
    let texts: Vec<String> = pending.iter().map(|p| p.1.clone()).collect();
    let vectors: Vec<Vec<f32>> = texts.iter().map(|t| axis(t)).collect();
    m.set_embeddings(&items, &texts, &vectors).unwrap();
    let extras = ContextExtras {
        query_vector: Some(axis("based cello")),
        ..Default::default()
    };
    let built = m.context_with(None, &extras).unwrap();
    let find = |word: &str| {
        let id = m
            .entries()
            .iter()
            .find(|e| e.content.contains(word))
            .unwrap()
            .id
            .clone();
        built
            .report
            .retrieved
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{word} not retrieved: {:?}", built.report.retrieved))
            .clone()
    };
    let porto = find("Porto");
    let cello = find("cello on weekends");
    assert_eq!(porto.bm25, None, "no word of the question");
    assert!(porto.cosine.unwrap() > 0.6, "{porto:?}");
    assert!(
        cello.bm25.unwrap() > 0.0 && cello.cosine.unwrap() > 0.6,
        "{cello:?}"
    );
    // Every memory says why it is there: a signal of its own, or the hit it is a neighbour of.
    for r in &built.report.retrieved {
        assert!(
            r.score > 0.0 && (r.bm25.is_some() || r.cosine.is_some() || r.neighbour_of.is_some()),
            "{r:?}"
        );
    }
    // Without a query vector, there is no meaning part.
    let words_only = m.context(None).unwrap();
    assert!(words_only
        .report
        .retrieved
        .iter()
        .all(|r| r.cosine.is_none()));
}

#[test]
fn the_embedder_never_costs_the_best_match_by_words() {
    // The only turn with the question's rare word points away from the question by meaning;
    // two others share its common words and point at it. Room for about one memory: words alone
    // send the rare-word turn, and turning vectors on must not trade it away.
    let run = |vectors: bool, budget: usize| {
        let mut m = memory(budget);
        if vectors {
            m.enable_vectors(false);
        }
        chat(
            &mut m,
            &[("My locker code is 4417 at the Zamboni rink.", "Noted.")],
            0,
        );
        chat(
            &mut m,
            &[("The code at the rink changed again.", "Ok.")],
            100,
        );
        chat(
            &mut m,
            &[("Rink code talk again, the usual rink code.", "Sure.")],
            200,
        );
        filler(&mut m, 30, 300);
        m.add(
            Role::User,
            "What is the code at the Zamboni rink?",
            NewEntry::default(),
            400.0 * MINUTE,
        )
        .unwrap();
        let mut extras = ContextExtras::default();
        if vectors {
            let axis = |t: &str| {
                if t.contains("4417") {
                    vec![0.0, 1.0]
                } else if t.contains("Rink code") || t.contains("changed") || t.contains('?') {
                    vec![1.0, 0.0]
                } else {
                    vec![0.3, 0.3]
                }
            };
            let mut job = EmbedJob::context(&mut m, &EmbedJob::native_hooks(), None);
            job.run_with(&mut m, |texts| texts.iter().map(|t| axis(t)).collect());
            extras.query_vector = job.finish().0;
        }
        let built = m.context_with(None, &extras).unwrap();
        built
            .messages
            .iter()
            .any(|msg| msg.content.contains("4417"))
    };
    for budget in (60..=120).step_by(5) {
        if run(false, budget) {
            assert!(run(true, budget), "lost with vectors at {budget} tokens");
        }
    }
    assert!(run(false, 120), "words alone send the rare-word turn");
}

/// Records an episode the app's `summarize` answers with `json`.
fn record_episode(m: &mut Memory, json: &str, now: f64) -> llm_memory::recall::episodes::Episode {
    record_episode_now(m, now, |_| json.to_string())
        .unwrap()
        .expect("turns to cover")
}

/// What another tab stored is searchable at once: no read needs a refresh first, and a turn
/// forgotten there while another was added (the same count of turns) is gone from the index.
#[test]
fn another_tabs_turns_are_searched_without_a_refresh() {
    let search = |m: &Memory, text: &str| -> Vec<String> {
        let q = llm_memory::recall::RecallQuery {
            text,
            vector: None,
            k: 5,
            kinds: Vec::new(),
            category: None,
            exclude: None,
        };
        m.recall(&q, 10.0 * MINUTE)
            .into_iter()
            .map(|r| r.id)
            .collect()
    };
    let mut a = memory(800);
    let mut b = memory(800);
    a.track_changes();
    chat(
        &mut a,
        &[("My bicycle is a green Bianchi.", "Nice bike!")],
        0,
    );
    b.apply_remote(a.take_changes()).unwrap();
    let bianchi = search(&b, "Bianchi bicycle");
    assert_eq!(
        bianchi.first().map(String::as_str),
        Some(a.entries()[0].id.as_str())
    );

    let gone = a.entries()[0].id.clone();
    a.forget(&gone, Default::default()).unwrap();
    chat(&mut a, &[("The kayak is red.", "Noted.")], 2);
    b.apply_remote(a.take_changes()).unwrap();
    assert_eq!(b.entries().len(), a.entries().len());
    assert!(!search(&b, "Bianchi bicycle").contains(&gone));
    assert!(!search(&b, "red kayak").is_empty());
}
