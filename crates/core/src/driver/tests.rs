//! The driver against an app that answers anything: every call is bounded in number and
//! time, every summary request ends exactly once, a read-only session is never summarized,
//! and each hook's answer lands where it should.

use super::*;
use crate::context::{Limits, Strategy};
use crate::history::{NewEntry, Role};
use crate::llm::Purpose;
use crate::memory::MemoryConfig;
use crate::summary::SummaryTrigger;
use crate::tokens::ApproximateCounter;
use proptest::prelude::{any, prop_assert, prop_assert_eq, prop_oneof, proptest, Just};
use proptest::strategy::Strategy as _;
use std::sync::Arc;

fn memory(strategy: Strategy, turns: usize) -> Memory {
    let config = MemoryConfig {
        strategy,
        limits: Limits {
            max_tokens: Some(4000),
            ..Limits::default()
        },
        summary: crate::summary::SummaryConfig {
            trigger: SummaryTrigger {
                messages: Some(2),
                tokens: None,
            },
            keep_recent: 2,
            ..MemoryConfig::default().summary
        },
        ..MemoryConfig::default()
    };
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    for i in 0..turns {
        let t = i as f64 * 1000.0;
        let user = format!("I moved to city number {i} and my dog is called Rex{i}.");
        m.add(Role::User, &user, NewEntry::default(), t).unwrap();
        m.add(Role::Assistant, "Noted.", NewEntry::default(), t + 1.0)
            .unwrap();
    }
    m
}

fn hooks(summarize: bool, extract: bool, llm: bool, embed: Option<Embedder>) -> Hooks {
    Hooks {
        summarize,
        extract,
        llm,
        embed,
        callback_timeout_ms: 1000.0,
        summary_timeout_ms: 500.0,
        ..Hooks::default()
    }
}

/// A good answer for what `call` asks.
fn good(call: &Call) -> Answer {
    match (&call.args, call.expects) {
        (CallArgs::Texts(texts), _) => {
            Answer::Vectors(texts.iter().map(|_| vec![1.0, 0.5]).collect())
        }
        (CallArgs::Turns(_), _) => {
            Answer::Json(r#"[{"op":"add","text":"The user has a dog called Rex."}]"#.into())
        }
        (CallArgs::Episode(_), _) => Answer::Text(EPISODE.into()),
        (CallArgs::Llm(r), _) if r.purpose == Purpose::Episode => Answer::Text(EPISODE.into()),
        (CallArgs::Llm(r), _) if r.purpose == Purpose::Extract => {
            Answer::Text(r#"[{"op":"add","text":"The user has a dog called Rex."}]"#.into())
        }
        _ => Answer::Text("The user moved several times and has a dog.".into()),
    }
}

const EPISODE: &str =
    r#"{"situation":"moving","summary":"The user moved cities.","outcome":"noted","lessons":[]}"#;

/// Runs `job` to the end with `answers` (cycled; `None` = a good answer), checking each call.
fn drive(
    job: &mut dyn Job,
    m: &mut Memory,
    hooks: &Hooks,
    answers: &[Option<Answer>],
) -> Vec<Call> {
    let mut calls = Vec::new();
    let mut now = 0.0;
    while let Some(call) = job.next(m, now) {
        let limit = hooks.callback_timeout_ms.max(hooks.summary_timeout_ms);
        assert!(
            call.wait_ms > 0.0 && call.wait_ms <= limit,
            "wait {}",
            call.wait_ms
        );
        assert!(calls.len() < 40, "too many calls: {calls:?}");
        let answer = match answers.get(calls.len() % answers.len().max(1)) {
            Some(Some(a)) => a.clone(),
            _ => good(&call),
        };
        now += 10.0;
        job.answer(m, answer, now);
        calls.push(call);
    }
    calls
}

fn any_answer() -> impl proptest::strategy::Strategy<Value = Option<Answer>> {
    prop_oneof![
        Just(None),
        Just(Some(Answer::Text("no json here".into()))),
        Just(Some(Answer::Text(String::new()))),
        Just(Some(Answer::Json("{\"not\":\"ops\"}".into()))),
        Just(Some(Answer::Wrong("a number".into()))),
        Just(Some(Answer::Failed("network down".into()))),
        Just(Some(Answer::TimedOut)),
        Just(Some(Answer::Vectors(vec![vec![1.0]]))),
    ]
}

fn any_hooks() -> impl proptest::strategy::Strategy<Value = Hooks> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0..3u8,
        any::<bool>(),
    )
        .prop_map(|(s, x, l, e, read_only)| Hooks {
            read_only,
            ..hooks(
                s,
                x,
                l,
                [None, Some(Embedder::Callback), Some(Embedder::InPage)][e as usize],
            )
        })
}

proptest! {
    #[test]
    fn a_context_turn_ends_and_settles_its_summary(
        hooks in any_hooks(),
        answers in proptest::collection::vec(any_answer(), 1..6),
        retrieval in any::<bool>(),
    ) {
        let strategy = if retrieval { Strategy::Retrieval } else { Strategy::Summary };
        let mut m = memory(strategy, 6);
        if hooks.embed.is_some() {
            m.enable_vectors(false);
        }
        let mut job = ContextJob::new(&hooks, ContextAsk::default());
        let calls = drive(&mut job, &mut m, &hooks, &answers);
        let summaries = calls.iter().filter(|c| matches!(c.args, CallArgs::Summary(_))
            || matches!(&c.args, CallArgs::Llm(r) if r.purpose == Purpose::Summary)).count();
        prop_assert!(summaries <= 2, "{summaries} summary calls");
        if hooks.read_only {
            prop_assert_eq!(summaries, 0);
        }
        // Whatever was answered, no summary request is left outstanding.
        prop_assert!(!m.summary_pending());
        prop_assert!(job.finish(&mut m).is_ok());
    }

    #[test]
    fn an_episode_ends_in_one_result(
        hooks in any_hooks(),
        answers in proptest::collection::vec(any_answer(), 1..4),
    ) {
        let mut m = memory(Strategy::Full, 3);
        match EpisodeJob::begin(&mut m, &hooks) {
            Err(e) => prop_assert!(!hooks.summarize && !hooks.llm && e.code == ErrorCode::InvalidOption),
            Ok(None) => prop_assert!(false, "three new exchanges make an episode"),
            Ok(Some(mut job)) => {
                let calls = drive(&mut job, &mut m, &hooks, &answers);
                prop_assert!(!calls.is_empty() && calls.len() <= 2);
                let stored = m.episodes().len();
                match job.finish() {
                    Ok(_) => prop_assert_eq!(stored, 1),
                    Err(e) => prop_assert!(stored == 0 && matches!(
                        e.code, ErrorCode::CallbackFailed | ErrorCode::InvalidDocument)),
                }
            }
        }
    }
}

use crate::error::ErrorCode;

#[test]
fn a_summary_given_up_on_is_used_when_it_comes_late() {
    let h = hooks(true, false, false, None);
    let mut m = memory(Strategy::Summary, 6);
    let mut job = ContextJob::new(&h, ContextAsk::default());
    let call = job.next(&mut m, 0.0).expect("a summary is due");
    assert_eq!(call.hook, Hook::Summarize);
    assert_eq!(call.wait_ms, h.summary_timeout_ms);
    job.answer(&mut m, Answer::TimedOut, 500.0);
    assert!(job.next(&mut m, 500.0).is_none());
    let built = job.finish(&mut m).unwrap();
    assert!(built
        .report
        .notes
        .iter()
        .any(|n| n.contains("still being written")));
    assert!(m.summaries().is_empty());
    settle_late(
        &mut m,
        call.late.unwrap(),
        Answer::Text("They moved a lot.".into()),
        900.0,
    );
    assert_eq!(m.summaries().len(), 1);
}

#[test]
fn an_unusable_llm_answer_is_asked_about_once_more() {
    let h = hooks(false, false, true, None);
    let mut m = memory(Strategy::Full, 2);
    let mut job = ExtractJob::asked(&m, &h).unwrap().expect("unseen turns");
    let first = job.next(&mut m, 0.0).unwrap();
    job.answer(&mut m, Answer::Text("I cannot help".into()), 10.0);
    let retry = job.next(&mut m, 10.0).expect("a retry");
    let (CallArgs::Llm(a), CallArgs::Llm(b)) = (&first.args, &retry.args) else {
        panic!("llm calls expected");
    };
    assert_eq!((a.attempt, b.attempt), (1, 2));
    // The retry waits only for what is left of the exchange's time.
    assert_eq!(retry.wait_ms, h.callback_timeout_ms - 10.0);
    job.answer(&mut m, good(&retry), 20.0);
    assert!(job.next(&mut m, 20.0).is_none());
    assert_eq!(job.outcome().applied, 1);
    assert_eq!(m.facts().len(), 1);
}

#[test]
fn a_search_with_the_model_in_the_page_embeds_a_few_waiting_items_first() {
    for (by, items) in [(Embedder::InPage, IN_PAGE_ITEMS), (Embedder::Callback, 40)] {
        let mut m = memory(Strategy::Full, 20);
        m.enable_vectors(false);
        let h = hooks(false, false, false, Some(by));
        let mut job = EmbedJob::search(&mut m, &h, "dog");
        let calls = drive(&mut job, &mut m, &h, &[None]);
        let texts: Vec<usize> = calls
            .iter()
            .map(|c| match &c.args {
                CallArgs::Texts(t) => t.len(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, vec![items, 1], "{by:?}");
        let by_hook = [
            (Embedder::InPage, Hook::Embedder),
            (Embedder::Callback, Hook::Embed),
        ];
        let hook = by_hook.iter().find(|(b, _)| *b == by).map(|(_, h)| *h);
        assert!(
            calls.iter().all(|c| Some(c.hook) == hook),
            "{by:?}: the call names who embeds"
        );
        assert!(job.finish().0.is_some());
    }
}

const IN_PAGE_ITEMS: usize = crate::memory::IN_PAGE_ITEMS_PER_SEARCH;

#[test]
fn without_hooks_nothing_is_asked_and_asking_is_refused() {
    let h = Hooks::default();
    let mut m = memory(Strategy::Summary, 6);
    let mut job = ContextJob::new(&h, ContextAsk::default());
    assert!(job.next(&mut m, 0.0).is_none());
    assert!(job.finish(&mut m).is_ok());
    assert_eq!(
        ExtractJob::asked(&m, &h).err().unwrap().code,
        ErrorCode::InvalidOption
    );
    assert_eq!(
        EpisodeJob::check(&h).unwrap_err().code,
        ErrorCode::InvalidOption
    );
    let backlog = EmbedJob::backlog(&mut m, &h, 0);
    assert_eq!(backlog.err().unwrap().code, ErrorCode::InvalidOption);
}
