//! The JavaScript face: one file per exported class, thin wrappers over the core. The only
//! module that touches wasm-bindgen, js-sys, web-sys and serde-wasm-bindgen.

mod errors;
