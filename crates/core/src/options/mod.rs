//! The option objects of the JS API, each declared once (`js_options!`): from a declaration
//! come the key list unknown keys are checked against, the TypeScript interface of the `.d.ts`,
//! and beside it the typed parse with every check ("halfLifeDays must be a positive number of
//! days"). The face only turns a JS value into an `OptValue` tree, calls the parse, and maps
//! the handles it gets back to its functions and class instances.

#[macro_use]
pub mod schema;
pub mod assets;
pub mod context;
pub mod entry;
pub mod facts;
pub mod forget;
pub mod memory;
pub mod reader;
pub mod session;
pub mod value;

pub use reader::Opts;
pub use value::{Handle, OptValue};

use crate::error::{Error, ErrorCode};

/// Which optional parts the running build has: the options of a part left out are refused
/// with `NOT_IN_BUILD` rather than ignored (pkg-core has none of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildParts {
    pub redact: bool,
    pub embedder: bool,
    pub sync: bool,
}

impl BuildParts {
    pub const ALL: BuildParts = BuildParts {
        redact: true,
        embedder: true,
        sync: true,
    };
    pub const NONE: BuildParts = BuildParts {
        redact: false,
        embedder: false,
        sync: false,
    };
}

/// `NOT_IN_BUILD` for an option or class this build leaves out, naming the build that has it.
pub fn not_in_build(what: &str) -> Error {
    Error::new(
        ErrorCode::NotInBuild,
        format!("{what} is not in this build (pkg-core): import the full build (pkg/) to use it"),
    )
}
