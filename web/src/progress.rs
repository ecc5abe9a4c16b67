//! A beat of a long search: the report goes to `onProgress`, and `shouldStop` says
//! whether the caller cancelled the search.

use wasm_bindgen::JsValue;

use crate::options::SearchOptions;

/// Sends the report `make` builds (only when someone listens) and answers whether to stop.
pub fn beat(o: &SearchOptions, make: impl FnOnce() -> JsValue) -> bool {
    if let Some(f) = &o.on_progress {
        let _ = f.call1(&JsValue::NULL, &make());
    }
    should_stop(o)
}

/// Whether the caller cancelled the search (`shouldStop` answered true).
pub fn should_stop(o: &SearchOptions) -> bool {
    match &o.should_stop {
        Some(f) => f.call0(&JsValue::NULL).is_ok_and(|v| v.is_truthy()),
        None => false,
    }
}
