//! The library's version, as the header's `MM_VERSION_*` macros also state it.

use std::ffi::c_char;

const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, such as "0.2.0": a static string that must not be freed. It
/// equals `MM_VERSION_STRING` when the header and the library match.
#[unsafe(no_mangle)]
pub extern "C" fn mm_version() -> *const c_char {
    VERSION.as_ptr().cast()
}
