//! Gives the shared library its soname and generates the C header into OUT_DIR.
//! `tests/header.rs` compares that header with the committed `include/minimax.h`.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libminimax.so.{major}");
    }

    // The tests compile the C examples with the `cc` crate, which needs the target triple.
    println!("cargo:rustc-env=MM_TARGET={}", env::var("TARGET").unwrap());

    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let mut config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let version = env::var("CARGO_PKG_VERSION").unwrap();
    config.after_includes = Some(format!(
        "\n#define MM_VERSION_MAJOR {major}\n#define MM_VERSION_MINOR {}\n#define MM_VERSION_PATCH {}\n\
         #define MM_VERSION_STRING \"{version}\"",
        env::var("CARGO_PKG_VERSION_MINOR").unwrap(),
        env::var("CARGO_PKG_VERSION_PATCH").unwrap(),
    ));
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("minimax.h");
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header")
        .write_to_file(out);
}
