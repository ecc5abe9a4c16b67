//! The clock: JavaScript's, which the library reads too (`set_clock` at start).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, never going backwards (pages and Node alike).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The clock, in milliseconds.
pub fn now() -> f64 {
    performance_now()
}
