//! Gives the shared library its soname and, with the `capi` feature (the C face: cargo-c
//! builds with it; `make lib` does not), generates the C header into OUT_DIR. Without the
//! feature, cbindgen is not built at all: a Rust crate that depends on this one gets none
//! of it. `tests/project/header.rs` compares the committed `include/minimax.h` with the same
//! recipe (`header.rs`), run from a dev-dependency.

use std::env;

#[cfg(feature = "capi")]
#[path = "header.rs"]
mod header;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=header.rs");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    let minor = env::var("CARGO_PKG_VERSION_MINOR").unwrap();
    // While the version is 0.x, each minor version is its own ABI (cargo-c's convention):
    // libminimax.so.0.4; from 1.0 on, the major version alone.
    let soname = if major == "0" {
        format!("libminimax.so.0.{minor}")
    } else {
        format!("libminimax.so.{major}")
    };
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
    // The tests link programs to the library by this name.
    println!("cargo:rustc-env=MM_SONAME={soname}");
    // The tests compile the C examples with the `cc` crate, which needs the target triple.
    println!("cargo:rustc-env=MM_TARGET={}", env::var("TARGET").unwrap());

    #[cfg(feature = "capi")]
    {
        let crate_dir = std::path::PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
        let patch = env::var("CARGO_PKG_VERSION_PATCH").unwrap();
        let text = header::generate(&crate_dir, &major, &minor, &patch);
        let out = std::path::PathBuf::from(env::var("OUT_DIR").unwrap()).join("minimax.h");
        std::fs::write(out, text).expect("OUT_DIR is writable");
    }
}
