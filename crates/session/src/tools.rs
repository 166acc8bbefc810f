//! A model's call of a memory tool (`callTool`). A tool call always answers with a JSON
//! string the model can read, never an exception: the app passes it straight back to the
//! model, which can correct its arguments or try later.

use llm_memory_core::memory::Memory;

/// Why the memory could not take the call, before the tool ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Another tab writes this session (or a newer version stored it).
    ReadOnly,
    /// The memory is in use by the caller's own code (a callback re-entering it).
    Busy,
}

/// Runs the call on `memory` (`Err` when it cannot take calls now), with the name and the
/// arguments as the face read them (`None`: not a string, not JSON). Returns the tool's
/// answer and whether the memory may have changed (then the caller stores it).
pub fn call_tool(
    memory: Result<&mut Memory, Refusal>,
    name: Option<&str>,
    args: Option<&str>,
    now: f64,
) -> (String, bool) {
    let (name, args) = match (name, args) {
        (None, _) => return (error_result("the tool name must be a string"), false),
        (_, None) => {
            return (
                error_result("arguments must be a JSON string or an object"),
                false,
            )
        }
        (Some(name), Some(args)) => (name, args),
    };
    match memory {
        Err(Refusal::ReadOnly) => (
            error_result("memory is read-only in this tab; nothing was changed"),
            false,
        ),
        Err(Refusal::Busy) => (error_result("memory is busy; try the call again"), false),
        Ok(memory) => (memory.call_tool(name, args, now), true),
    }
}

fn error_result(msg: &str) -> String {
    serde_json::json!({ "error": msg }).to_string()
}
