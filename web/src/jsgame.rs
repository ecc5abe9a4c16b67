//! A JavaScript object as the engine's `Game`, with the Python protocol's shape:
//! `moves()`, `play(m)`, `undo(m)`, `outcome()`, and optionally `evaluate()`, `hash()`
//! and `maxToMove()`. Moves are integers. Its methods are looked up once. The first
//! exception one throws, or the first value the protocol does not allow, is kept, the
//! search is asked to stop, and the adapter then plays nothing more: it only takes back
//! the moves that were really played, so that the object is back in its position when
//! the error reaches the caller.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use js_sys::{Function, Reflect};
use minimax::search::{Game, GameError, Move};
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{Code, error};

/// The largest integer a JavaScript number holds exactly.
const SAFE: f64 = 9_007_199_254_740_991.0;

/// The object's methods.
struct Methods {
    moves: Function,
    play: Function,
    undo: Function,
    outcome: Function,
    evaluate: Option<Function>,
    hash: Option<Function>,
    max_to_move: Option<Function>,
}

/// `obj[name]` if it is a function; `undefined` and `null` are `None`, anything else an
/// error.
fn method(obj: &JsValue, name: &str) -> Result<Option<Function>, JsValue> {
    let f = Reflect::get(obj, &name.into())?;
    if f.is_undefined() || f.is_null() {
        return Ok(None);
    }
    f.dyn_into::<Function>().map(Some).map_err(|v| {
        error(
            Code::GameError,
            format!("the game's {name} is {}, not a method", describe(&v)),
        )
    })
}

fn required(obj: &JsValue, name: &str) -> Result<Function, JsValue> {
    method(obj, name)?.ok_or_else(|| {
        error(
            Code::GameError,
            format!(
                "a game needs moves(), play(m), undo(m) and outcome(); this one has no {name}()"
            ),
        )
    })
}

/// A short description of a value for a message.
pub fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return format!("the string {s:?}");
    }
    let text: String = js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| format!("{v:?}"));
    let text = if text.len() > 60 {
        format!("{}...", &text[..57])
    } else {
        text
    };
    format!("{} {text}", v.js_typeof().as_string().unwrap_or_default())
}

/// A user's game searched on this thread.
pub struct JsGame<'a> {
    obj: JsValue,
    f: Methods,
    stop: &'a AtomicI32,
    /// The first error.
    error: Option<JsValue>,
    /// For each move the engine played and has not taken back: whether the object did.
    applied: Vec<bool>,
    /// Whether the engine asked for an evaluation the game has no `evaluate()` for.
    pub unevaluated: bool,
}

impl<'a> JsGame<'a> {
    /// The adapter for `obj`; an object without the required methods is an error.
    pub fn new(obj: &JsValue, stop: &'a AtomicI32) -> Result<Self, JsValue> {
        if !obj.is_object() {
            return Err(error(
                Code::GameError,
                format!(
                    "the game is {}, not an object with moves(), play(m), undo(m) and outcome()",
                    describe(obj)
                ),
            ));
        }
        let f = Methods {
            moves: required(obj, "moves")?,
            play: required(obj, "play")?,
            undo: required(obj, "undo")?,
            outcome: required(obj, "outcome")?,
            evaluate: method(obj, "evaluate")?,
            hash: method(obj, "hash")?,
            max_to_move: method(obj, "maxToMove")?,
        };
        Ok(JsGame {
            obj: obj.clone(),
            f,
            stop,
            error: None,
            applied: Vec::new(),
            unevaluated: false,
        })
    }

    /// The search's result, or the game's first error in place of the engine's.
    pub fn finish<T>(mut self, result: Result<T, GameError>) -> Result<T, JsValue> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        result.map_err(crate::errors::from_game_error)
    }

    /// Keeps the first error and asks the search to stop.
    fn fail(&mut self, e: JsValue) {
        if self.error.is_none() {
            self.error = Some(match e.dyn_ref::<js_sys::Error>() {
                // The game's own exception, as it threw it.
                Some(_) => e,
                None => error(Code::GameError, format!("the game threw {}", describe(&e))),
            });
        }
        self.stop.store(1, Relaxed);
    }

    /// Calls the method `pick` chooses, if the game has it and no error came before.
    /// (Picked, not cloned: a clone of a JavaScript value is a call into JavaScript, and
    /// these are called at every node.)
    fn call0(&mut self, pick: impl Fn(&Methods) -> Option<&Function>) -> Option<JsValue> {
        if self.error.is_some() {
            return None;
        }
        let called = pick(&self.f)?.call0(&self.obj);
        match called {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// A score `name()` returned: an integer that fits in 32 bits.
    fn score(&mut self, v: &JsValue, name: &str) -> Option<i32> {
        match v.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() <= i32::MAX as f64 => Some(x as i32),
            _ => {
                let e = error(
                    Code::GameError,
                    format!(
                        "{name}() returned {}: a score is an integer between -2147483647 and 2147483647{}",
                        describe(v),
                        if name == "outcome" {
                            " (null while the game goes on)"
                        } else {
                            ""
                        }
                    ),
                );
                self.fail(e);
                None
            }
        }
    }
}

impl Game for JsGame<'_> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let Some(v) = self.call0(|f| Some(&f.moves)) else {
            // Unwinding after an error: the status is replaced by it.
            return Err(GameError::NoMovesNotOver);
        };
        let Some(list) = v.dyn_ref::<js_sys::Array>() else {
            self.fail(error(
                Code::GameError,
                format!(
                    "moves() returned {}: it returns an array of integers",
                    describe(&v)
                ),
            ));
            return Err(GameError::NoMovesNotOver);
        };
        if out.try_reserve(list.length() as usize).is_err() {
            return Err(GameError::OutOfMemory);
        }
        for m in list.iter() {
            match m.as_f64() {
                Some(x) if x.fract() == 0.0 && x.abs() <= SAFE => out.push(x as Move),
                _ => {
                    self.fail(error(
                        Code::GameError,
                        format!("moves() listed {}: moves are integers (number them, as an index into your own list of moves)", describe(&m)),
                    ));
                    return Err(GameError::NoMovesNotOver);
                }
            }
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        let played = self.error.is_none() && {
            match self.f.play.call1(&self.obj, &JsValue::from_f64(mv as f64)) {
                Ok(_) => true,
                Err(e) => {
                    self.fail(e);
                    false
                }
            }
        };
        self.applied.push(played);
    }

    fn undo(&mut self, mv: Move) {
        if self.applied.pop() == Some(true) {
            // Taken back even after an error, so that the object is where it started.
            if let Err(e) = self.f.undo.call1(&self.obj, &JsValue::from_f64(mv as f64)) {
                self.fail(e);
            }
        }
    }

    fn outcome(&mut self) -> Option<i32> {
        let v = self.call0(|f| Some(&f.outcome))?;
        if v.is_null() || v.is_undefined() {
            return None;
        }
        self.score(&v, "outcome")
    }

    fn evaluate(&mut self) -> i32 {
        if self.f.evaluate.is_none() {
            self.unevaluated = true;
            return 0;
        }
        match self.call0(|f| f.evaluate.as_ref()) {
            Some(v) => self.score(&v, "evaluate").unwrap_or(0),
            None => 0,
        }
    }

    fn hash(&mut self) -> Option<u64> {
        let v = self.call0(|f| f.hash.as_ref())?;
        if v.is_null() || v.is_undefined() {
            return None;
        }
        if let Some(x) = v.as_f64() {
            if x.fract() == 0.0 && x.abs() <= SAFE {
                return Some(x as i64 as u64);
            }
        }
        if v.is_bigint() {
            // Taken modulo 2**64.
            let low = js_sys::BigInt::as_uint_n(64.0, &v.clone().unchecked_into());
            if let Ok(x) = u64::try_from(low) {
                return Some(x);
            }
        }
        self.fail(error(
            Code::GameError,
            format!(
                "hash() returned {}: it returns an integer or a BigInt (null for no hash)",
                describe(&v)
            ),
        ));
        None
    }

    fn max_to_move(&mut self) -> Option<bool> {
        let v = self.call0(|f| f.max_to_move.as_ref())?;
        match v.as_bool() {
            Some(b) => Some(b),
            None => {
                self.fail(error(
                    Code::GameError,
                    format!(
                        "maxToMove() returned {}: it returns true or false",
                        describe(&v)
                    ),
                ));
                None
            }
        }
    }
}
