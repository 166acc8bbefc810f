use crate::mailbox::{shared_with_tabs, Mailbox};
use llm_memory_core::store::layout::StorageKind;
use std::rc::Rc;

#[test]
fn messages_before_the_store_wait_and_come_in_order() {
    let mailbox = Mailbox::<&str, String>::default();
    assert!(mailbox.arrived("first").is_none());
    assert!(mailbox.arrived("second").is_none());
    let store = Rc::new("store".to_string());
    assert_eq!(mailbox.hand_to(&store), ["first", "second"]);
    let (to, message) = mailbox.arrived("third").expect("the store hears it");
    assert_eq!((to.as_str(), message), ("store", "third"));
    drop((to, store));
    assert!(
        mailbox.arrived("fourth").is_none(),
        "a freed store hears nothing"
    );
}

#[test]
fn only_storage_other_tabs_share_has_a_mailbox() {
    assert!(shared_with_tabs(StorageKind::IndexedDb));
    assert!(shared_with_tabs(StorageKind::LocalStorage));
    assert!(!shared_with_tabs(StorageKind::Memory));
}
