//! The scanning engine: what every recognizer reads of a text, and nothing about any entity
//! type. Recognizers (in [`super::recognizers`]) describe their formats with these parts; this
//! folder finds where in a text those formats can occur, cheaply, once per text.
//!
//! - [`prescan`]: one pass over the text (sixteen bytes at a time, [`classes`]) for the digit
//!   groups, capitals, white space, long runs and word starts ([`starts`]) the gates share;
//!   [`literals`] marks which key prefixes each long run holds.
//! - [`gate`]: where a regex can match ([`near`] for keyword gates), so the regex searches only
//!   those windows. A format's own test of a run (three dots for IPv4) lives with its recognizer.
//! - [`context`]: context words near a match; [`code`]: where a text is code (fences, inline
//!   code, string literals), and [`code_lines`] with lines of code too, for the model's pass;
//!   [`skip`] and [`text`]: small text helpers.

pub(crate) mod classes;
pub(crate) mod code;
pub(crate) mod code_lines;
pub(crate) mod context;
pub(crate) mod gate;
#[cfg(test)]
pub(crate) mod gate_texts;
pub(crate) mod literals;
pub(crate) mod near;
pub(crate) mod prescan;
pub(crate) mod skip;
pub(crate) mod starts;
pub(crate) mod text;

/// Whether the vector byte classifier of this build agrees with the byte-by-byte one for every
/// byte value in every lane: the wasm tests run it where simd128 is compiled in.
#[doc(hidden)]
pub fn byte_classes_agree() -> bool {
    (0..16).all(|lane| {
        (0..=255u8).all(|b| {
            let mut block = [b'a'; 16];
            block[lane] = b;
            block[(lane + 7) % 16] = 0xff - b;
            classes::classify(&block) == classes::classify_bytes(&block)
        })
    })
}
