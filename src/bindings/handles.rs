//! One registry of handles for the JS objects whose Rust side another call takes out of an
//! options object (`new Memory({ tokenizer, embedder, redact: { model } })`): wasm-bindgen
//! cannot borrow a class instance out of a plain object, so each instance carries a number
//! (`__llmMemoryHandle`) that maps here to a weak reference, which dies with the JS object.
//! Handles are unique across kinds and a lookup checks the kind, so an `EmbedModel` given
//! where a `Tokenizer` belongs is refused instead of finding some tokenizer with its number.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsValue;

/// A weak reference the registry can hold: `std::sync::Weak` or `std::rc::Weak` of any type.
pub trait WeakRef: Any {
    type Strong;
    fn upgrade_ref(&self) -> Option<Self::Strong>;
}

impl<T: ?Sized + 'static> WeakRef for std::sync::Weak<T> {
    type Strong = std::sync::Arc<T>;
    fn upgrade_ref(&self) -> Option<Self::Strong> {
        self.upgrade()
    }
}

impl<T: ?Sized + 'static> WeakRef for std::rc::Weak<T> {
    type Strong = std::rc::Rc<T>;
    fn upgrade_ref(&self) -> Option<Self::Strong> {
        self.upgrade()
    }
}

/// An entry, with a way to tell whether its object is still alive without knowing its type.
struct Entry {
    weak: Box<dyn Any>,
    alive: fn(&dyn Any) -> bool,
}

thread_local! {
    static HANDLES: RefCell<(u32, HashMap<u32, Entry>)> = RefCell::new((0, HashMap::new()));
}

/// The property a JS object carries its handle in.
pub const HANDLE_PROPERTY: &str = "__llmMemoryHandle";

/// Registers `weak` and returns its handle; entries whose objects died are dropped here.
pub fn register<W: WeakRef>(weak: W) -> u32 {
    fn alive<W: WeakRef>(any: &dyn Any) -> bool {
        any.downcast_ref::<W>()
            .is_some_and(|w| w.upgrade_ref().is_some())
    }
    HANDLES.with(|h| {
        let mut h = h.borrow_mut();
        h.0 += 1;
        let id = h.0;
        h.1.retain(|_, e| (e.alive)(e.weak.as_ref()));
        h.1.insert(
            id,
            Entry {
                weak: Box::new(weak),
                alive: alive::<W>,
            },
        );
        id
    })
}

/// The live Rust side of a JS object registered as a `W`, or `None` (not one, or freed).
pub fn find<W: WeakRef>(value: &JsValue) -> Option<W::Strong> {
    let handle = js_sys::Reflect::get(value, &HANDLE_PROPERTY.into())
        .ok()?
        .as_f64()?;
    HANDLES.with(|h| {
        h.borrow()
            .1
            .get(&(handle as u32))?
            .weak
            .downcast_ref::<W>()?
            .upgrade_ref()
    })
}
