//! The project's promises beside the search: the ABI and the committed header, the
//! install and the packages, the licence, the source layout, the panic boundary.
//! One test binary of a few modules rather than a binary a file: each binary links the
//! library, and linking them was most of a cold `cargo test` (issue 68, point 7).

#[path = "../common/mod.rs"]
mod common;

mod abi;
mod cargo_c;
mod examples_cli;
mod header;
mod install;
mod layout;
mod library;
mod licence;
mod package;
mod panic_boundary;
