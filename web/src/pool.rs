//! The search threads of the threaded module: Web Workers that share its memory, each
//! lent to the library's pool (`js/helper.js` starts them). The module built without
//! atomics has none of this.

#[cfg(target_feature = "atomics")]
use wasm_bindgen::prelude::*;

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
