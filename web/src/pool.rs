//! The search threads of the threaded module: Web Workers that share its memory, each
//! lent to the library's pool (`js/helper.js` starts them). The module built without
//! atomics has one thread, and says so.

use wasm_bindgen::prelude::*;

/// Whether this module was built to share its memory with helper Workers.
#[wasm_bindgen(js_name = threaded)]
pub fn threaded() -> bool {
    cfg!(target_feature = "atomics")
}

/// Lends this Worker to the search pool; returns only if the pool has no room for it.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = lendThread)]
pub fn lend_thread() -> bool {
    minimax::search::lend_thread()
}

/// How many helper Workers are waiting for a search.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = idleHelpers)]
pub fn idle_helpers() -> usize {
    minimax::search::idle_threads()
}
