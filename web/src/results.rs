//! Results and reports as plain JavaScript objects, built field by field.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// An object being filled.
pub struct Fields(Object);

impl Fields {
    pub fn new() -> Fields {
        Fields(Object::new())
    }
    pub fn val(self, key: &str, v: JsValue) -> Fields {
        let _ = Reflect::set(&self.0, &key.into(), &v);
        self
    }
    pub fn num(self, key: &str, v: f64) -> Fields {
        self.val(key, JsValue::from_f64(v))
    }
    pub fn str(self, key: &str, v: &str) -> Fields {
        self.val(key, JsValue::from_str(v))
    }
    pub fn bool(self, key: &str, v: bool) -> Fields {
        self.val(key, JsValue::from_bool(v))
    }
    /// `null` for `None`.
    pub fn opt(self, key: &str, v: Option<f64>) -> Fields {
        self.val(key, v.map_or(JsValue::NULL, JsValue::from_f64))
    }
    pub fn done(self) -> JsValue {
        self.0.into()
    }
}

/// An array of moves.
pub fn moves(line: &[f64]) -> JsValue {
    line.iter()
        .map(|&m| JsValue::from_f64(m))
        .collect::<Array>()
        .into()
}
