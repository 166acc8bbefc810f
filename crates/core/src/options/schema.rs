//! `js_options!`: an options object declared once, with each field's JS name, TypeScript type
//! and doc line. From the declaration come the key list the reader checks against (with "did
//! you mean") and the interface text of the `.d.ts`, so the two cannot drift; the typed
//! parse beside it reads only declared keys (`Opts` asserts it in debug builds).
//!
//! The interface text is built at compile time from string parts, some of them other
//! declarations' constants (a nested object's type), which `concat!` cannot take: hence the
//! small `const fn` joiner below.

/// The length of the joined parts.
pub const fn joined_len(parts: &[&[&str]]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            n += parts[i][j].len();
            j += 1;
        }
        i += 1;
    }
    n
}

/// The parts joined, as bytes; `N` is `joined_len(parts)`.
pub const fn join<const N: usize>(parts: &[&[&str]]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            let bytes = parts[i][j].as_bytes();
            let mut k = 0;
            while k < bytes.len() {
                out[at] = bytes[k];
                at += 1;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// Joined `&str` parts are UTF-8; this only turns the bytes back into text.
pub const fn text(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => panic!("joined option text is not UTF-8"),
    }
}

/// Declares an options object:
///
/// ```ignore
/// js_options! {
///     /// The options of `context()`.
///     pub struct ContextSpec as "ContextOptions" {
///         /// What the turn is about; used by retrieval strategies.
///         query: "string",
///         session: "string" required,
///         retrieval: (RetrievalSpec::TS_INLINE),
///     }
/// }
/// ```
///
/// gives `ContextSpec::KEYS` (`["query", ...]`) and `ContextSpec::TS` (`export interface
/// ContextOptions { ... }`, `as "Name" extends "Base"` adds the base). `struct X inline`
/// instead gives `X::TS_INLINE`, the `{ ... }` type of a field one level down. Fields are
/// optional unless marked `required`; their doc comments become the field's JSDoc.
macro_rules! js_options {
    (
        $(#[doc = $d0:literal] $(#[doc = $dn:literal])*)?
        $vis:vis struct $spec:ident as $name:literal $(extends $base:literal)? {
            $( $(#[doc = $f0:literal] $(#[doc = $fn_:literal])*)? $field:ident : $ty:tt $($req:ident)? ),* $(,)?
        }
    ) => {
        $(#[doc = $d0] $(#[doc = $dn])*)?
        $vis struct $spec;

        impl $spec {
            /// The keys, as JS spells them.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];
            /// `export interface ...` for the `.d.ts`.
            pub const TS: &'static str = js_options!(@join [
                &[$("/**", $d0, $("\n * ", $dn,)* " */\n",)?
                  "export interface ", $name, $(" extends ", $base,)? " {\n"],
                $( js_options!(@field "  " [$(#[doc = $f0] $(#[doc = $fn_])*)?] $field $ty $($req)?), )*
                &["}\n"],
            ]);
        }
    };
    (
        $(#[doc = $d0:literal] $(#[doc = $dn:literal])*)?
        $vis:vis struct $spec:ident inline {
            $( $(#[doc = $f0:literal] $(#[doc = $fn_:literal])*)? $field:ident : $ty:tt $($req:ident)? ),* $(,)?
        }
    ) => {
        $(#[doc = $d0] $(#[doc = $dn])*)?
        $vis struct $spec;

        impl $spec {
            /// The keys, as JS spells them.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];
            /// `{ ... }`, the type of a field of a top-level interface.
            pub const TS_INLINE: &'static str = js_options!(@join [
                &["{\n"],
                $( js_options!(@field "    " [$(#[doc = $f0] $(#[doc = $fn_])*)?] $field $ty $($req)?), )*
                &["  }"],
            ]);
        }
    };
    (@field $indent:literal [$(#[doc = $f0:literal] $(#[doc = $fn_:literal])*)?] $field:ident $ty:tt $($req:ident)?) => {
        &[
            $($indent, "/**", $f0, $("\n", $indent, " * ", $fn_,)* " */\n",)?
            $indent, stringify!($field), js_options!(@mark $($req)?), ": ", $ty, ";\n",
        ]
    };
    (@mark) => { "?" };
    (@mark required) => { "" };
    (@join [$($part:expr),* $(,)?]) => {{
        const PARTS: &[&[&str]] = &[$($part),*];
        const LEN: usize = $crate::options::schema::joined_len(PARTS);
        const BYTES: [u8; LEN] = $crate::options::schema::join(PARTS);
        $crate::options::schema::text(&BYTES)
    }};
}

#[cfg(test)]
mod tests {
    js_options! {
        /// Shown above the interface.
        pub struct Inner inline {
            /// One line.
            a: "number",
            b: "string" required,
        }
    }

    js_options! {
        /// Two
        /// lines.
        pub struct Outer as "OuterOptions" extends "BaseOptions" {
            /// First line,
            /// second line.
            name: "string" required,
            nested: (Inner::TS_INLINE),
            plain: "boolean",
        }
    }

    #[test]
    fn keys_and_interface_come_from_one_declaration() {
        assert_eq!(Outer::KEYS, ["name", "nested", "plain"]);
        assert_eq!(Inner::KEYS, ["a", "b"]);
        assert_eq!(
            Outer::TS,
            "/** Two\n *  lines. */\nexport interface OuterOptions extends BaseOptions {\n  \
             /** First line,\n   *  second line. */\n  name: string;\n  nested?: {\n    \
             /** One line. */\n    a?: number;\n    b: string;\n  };\n  plain?: boolean;\n}\n"
        );
    }
}
