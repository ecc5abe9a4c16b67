//! The errors JavaScript sees: an `Error` named `MinimaxError` with a `code` a program
//! can test and a message that names what was wrong. The worker passes them on as they
//! are, and the package's `MinimaxError` class carries the same fields.

use minimax::search::GameError;
use wasm_bindgen::JsValue;

/// What went wrong, as the `code` field spells it.
#[derive(Clone, Copy, Debug)]
pub enum Code {
    /// No such game compiled in, or a bad size.
    BadGame,
    /// A position string that cannot be read or played.
    BadPosition,
    /// A move that is not legal.
    IllegalMove,
    /// An option of the wrong type or out of range.
    BadOption,
    /// A user's game threw, or returned what the protocol does not allow.
    GameError,
    /// The search's memory (its table or tree) could not be had.
    OutOfMemory,
    /// The line went deeper than the module's stack allows.
    TooDeep,
}

impl Code {
    fn as_str(self) -> &'static str {
        match self {
            Code::BadGame => "BAD_GAME",
            Code::BadPosition => "BAD_POSITION",
            Code::IllegalMove => "ILLEGAL_MOVE",
            Code::BadOption => "BAD_OPTION",
            Code::GameError => "GAME_ERROR",
            Code::OutOfMemory => "OUT_OF_MEMORY",
            Code::TooDeep => "TOO_DEEP",
        }
    }
}

/// A `MinimaxError` with `code` and `message`.
pub fn error(code: Code, message: impl AsRef<str>) -> JsValue {
    let e = js_sys::Error::new(message.as_ref());
    e.set_name("MinimaxError");
    let _ = js_sys::Reflect::set(&e, &"code".into(), &code.as_str().into());
    e.into()
}

/// The engine's error as a `MinimaxError`, its message the library's own.
pub fn from_game_error(e: GameError) -> JsValue {
    match e {
        GameError::OutOfMemory => error(
            Code::OutOfMemory,
            "the search's memory could not be had: ask for a smaller table (tableBytes) or tree",
        ),
        GameError::TooDeep => error(
            Code::TooDeep,
            "the line went deeper than 1000 plies, the most the WebAssembly build searches \
             (its frames are on the JavaScript engine's stack, about 1 MB)",
        ),
        _ => error(Code::GameError, e.to_string()),
    }
}
