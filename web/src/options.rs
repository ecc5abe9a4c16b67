//! A search's options, read from a JavaScript object. Every key is checked: an unknown
//! one (a misspelt `timeMS`) or a value of the wrong type or range is a `MinimaxError`
//! with code `BAD_OPTION` naming the key, the value and what it takes.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{Code, error};
use crate::jsgame::describe;

/// The keys a search takes.
const KEYS: &[&str] = &[
    "method",
    "depth",
    "timeMs",
    "nodes",
    "playouts",
    "tableBytes",
    "keepTable",
    "iterativeDeepening",
    "refineDistance",
    "seed",
    "exploration",
    "onProgress",
    "progressMs",
    "shouldStop",
    "threads",
];

/// The methods, as `method` spells them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    AlphaBeta,
    Pvs,
    Exact,
    Minimax,
    Mcts,
}

/// The default table: 64 MiB.
pub const TABLE_BYTES: f64 = (64 << 20) as f64;

/// What the search was asked.
#[derive(Clone)]
pub struct SearchOptions {
    pub method: Method,
    /// Depth limit, plies (`u32::MAX`: none).
    pub depth: u32,
    pub time_ms: Option<f64>,
    /// Alpha-beta's node limit (0: none).
    pub nodes: u64,
    /// MCTS's playouts (`None`: its default, or until the time limit).
    pub playouts: Option<u64>,
    pub table_bytes: usize,
    /// Whether the table keeps what earlier searches stored (false: cleared first).
    pub keep_table: bool,
    pub iterative_deepening: bool,
    pub refine_distance: bool,
    pub seed: u64,
    pub exploration: f64,
    pub on_progress: Option<Function>,
    pub progress_ms: f64,
    /// Called at each beat; a true answer stops the search (a cancelled search).
    pub should_stop: Option<Function>,
    /// Threads to search on: more than one only in the threaded module, with helper
    /// Workers lent to its pool, and for a game compiled in.
    pub threads: usize,
}

fn bad(key: &str, v: &JsValue, takes: &str) -> JsValue {
    error(
        Code::BadOption,
        format!("the option {key} is {}: it takes {takes}", describe(v)),
    )
}

/// A number option within `lo..=hi`, integer if `integer`.
fn number(
    key: &str,
    v: &JsValue,
    lo: f64,
    hi: f64,
    integer: bool,
    takes: &str,
) -> Result<f64, JsValue> {
    match v.as_f64() {
        Some(x) if x >= lo && x <= hi && (!integer || x.fract() == 0.0) => Ok(x),
        _ => Err(bad(key, v, takes)),
    }
}

impl SearchOptions {
    /// Reads `obj` (`undefined` or `null`: every default).
    pub fn read(obj: &JsValue) -> Result<SearchOptions, JsValue> {
        let mut o = SearchOptions {
            method: Method::AlphaBeta,
            depth: u32::MAX,
            time_ms: None,
            nodes: 0,
            playouts: None,
            table_bytes: TABLE_BYTES as usize,
            keep_table: false,
            iterative_deepening: true,
            refine_distance: true,
            seed: 0x5EED,
            exploration: std::f64::consts::SQRT_2,
            on_progress: None,
            progress_ms: 100.0,
            should_stop: None,
            threads: 1,
        };
        if obj.is_undefined() || obj.is_null() {
            return Ok(o);
        }
        if !obj.is_object() {
            return Err(error(
                Code::BadOption,
                format!(
                    "the options are {}: an object, as {{ method: \"alphabeta\", timeMs: 1000 }}",
                    describe(obj)
                ),
            ));
        }
        let keys = Object::keys(obj.unchecked_ref::<Object>());
        for key in keys.iter() {
            let key = key.as_string().unwrap_or_default();
            let v = Reflect::get(obj, &key.as_str().into())?;
            if v.is_undefined() {
                continue;
            }
            match key.as_str() {
                "method" => {
                    o.method = match v.as_string().as_deref() {
                        Some("alphabeta") => Method::AlphaBeta,
                        Some("pvs") => Method::Pvs,
                        Some("exact") => Method::Exact,
                        Some("minimax") => Method::Minimax,
                        Some("mcts") => Method::Mcts,
                        _ => {
                            return Err(bad(
                                "method",
                                &v,
                                "\"alphabeta\", \"pvs\", \"exact\", \"minimax\" or \"mcts\"",
                            ));
                        }
                    }
                }
                "depth" => {
                    o.depth = number(
                        &key,
                        &v,
                        1.0,
                        1e6,
                        true,
                        "an integer from 1 to 1000000 (plies)",
                    )? as u32
                }
                "timeMs" => {
                    o.time_ms = Some(number(
                        &key,
                        &v,
                        0.0,
                        1e12,
                        false,
                        "a number of milliseconds, 0 or more",
                    )?)
                }
                "nodes" => {
                    o.nodes = number(&key, &v, 1.0, 9e15, true, "a positive integer")? as u64
                }
                "playouts" => {
                    o.playouts =
                        Some(number(&key, &v, 1.0, 9e15, true, "a positive integer")? as u64)
                }
                "tableBytes" => {
                    o.table_bytes = number(
                        &key,
                        &v,
                        0.0,
                        4e9,
                        true,
                        "an integer of bytes up to 4e9 (0: no table)",
                    )? as usize
                }
                "keepTable" | "iterativeDeepening" | "refineDistance" => {
                    let b = v.as_bool().ok_or_else(|| bad(&key, &v, "true or false"))?;
                    match key.as_str() {
                        "keepTable" => o.keep_table = b,
                        "iterativeDeepening" => o.iterative_deepening = b,
                        _ => o.refine_distance = b,
                    }
                }
                "seed" => {
                    o.seed = number(&key, &v, 0.0, 9e15, true, "a non-negative integer")? as u64
                }
                "exploration" => {
                    o.exploration = number(&key, &v, 0.0, 1e6, false, "a number, 0 or more")?
                }
                "progressMs" => {
                    o.progress_ms = number(
                        &key,
                        &v,
                        1.0,
                        1e9,
                        false,
                        "a number of milliseconds, 1 or more",
                    )?
                }
                "threads" => {
                    o.threads = number(
                        &key,
                        &v,
                        1.0,
                        minimax::search::MAX_THREADS as f64,
                        true,
                        "an integer from 1 to 256",
                    )? as usize
                }
                "onProgress" | "shouldStop" => {
                    let f = v
                        .dyn_into::<Function>()
                        .map_err(|v| bad(&key, &v, "a function"))?;
                    if key == "onProgress" {
                        o.on_progress = Some(f);
                    } else {
                        o.should_stop = Some(f);
                    }
                }
                _ => {
                    return Err(error(
                        Code::BadOption,
                        format!("no option {key:?}: the options are {}", KEYS.join(", ")),
                    ));
                }
            }
        }
        if o.method != Method::Mcts && o.playouts.is_some() {
            return Err(error(
                Code::BadOption,
                "the option playouts is MCTS's: alpha-beta's limit is nodes",
            ));
        }
        Ok(o)
    }

    /// The time limit.
    pub fn time_limit(&self) -> Option<std::time::Duration> {
        self.time_ms
            .map(|ms| std::time::Duration::from_secs_f64(ms / 1000.0))
    }
}

/// The method's name, as `method` spells it.
pub fn name(m: Method) -> &'static str {
    match m {
        Method::AlphaBeta => "alphabeta",
        Method::Pvs => "pvs",
        Method::Exact => "exact",
        Method::Minimax => "minimax",
        Method::Mcts => "mcts",
    }
}
