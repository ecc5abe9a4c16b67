//! Room on the stack for deep searches. The searches recurse once a ply, and a game may
//! have lines of up to the engine's ply limit (2^20 plies): far more than a thread's
//! stack holds (8 MiB on a main thread, 2 MiB on a helper). Every `EVERY` plies a search
//! makes sure that it has `RED_ZONE` bytes left, and if not goes on in a fresh stack
//! segment of `SEGMENT` bytes (with `stacker`, rustc's own answer to the same problem),
//! on the same thread, so that the callbacks' threads stay as the header says. A
//! shallow search never leaves the thread's own stack.

/// How often, in plies, a search looks at its stack.
pub(crate) const EVERY: u32 = 16;

/// The stack a search wants left before it goes `EVERY` plies deeper: room for those
/// plies' frames (a few hundred bytes each in a release build, a few KiB in a debug one)
/// and for the game's callbacks.
const RED_ZONE: usize = 1 << 20;

/// The size of a fresh segment: its pages are mapped as the search touches them.
const SEGMENT: usize = 32 << 20;

/// Runs `f` with at least `RED_ZONE` bytes of stack, in a fresh segment if need be.
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// The deepest ply a recursive search goes to. Where the stack grows (above), the
/// engine's ply limit. In WebAssembly it cannot: `stacker` does nothing there, and the
/// engine's frames are on the JavaScript engine's own stack (about 1 MB in browsers and
/// on Node's main thread), which held 1,200 plies of a line searched through a
/// JavaScript game and not 1,500 (Node 20, 2026-12-02; docs/web.md, "Limits"): so
/// 1,000 there, and a deeper line is `GameError::TooDeep`.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) const MAX_DEPTH: u32 = crate::search::value::MAX_PLY;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) const MAX_DEPTH: u32 = 1000;
