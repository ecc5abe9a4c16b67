//! The clock that time limits and elapsed times read. Native builds use the system's
//! monotonic clock. WebAssembly without an operating system (`wasm32-unknown-unknown`,
//! the browser's and Node's target) has none: there the face that loads the library
//! installs one with [`set_clock`], and until it does time stands still (time limits
//! never expire, elapsed times are zero).

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use wasm::{Instant, set_clock};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod wasm {
    use std::sync::OnceLock;
    use std::time::Duration;

    static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

    /// Installs the clock, a function giving milliseconds from a fixed origin that never
    /// go backwards (`performance.now()` in JavaScript). The first call wins.
    pub fn set_clock(now_ms: fn() -> f64) {
        let _ = CLOCK.set(now_ms);
    }

    /// A point in time, in milliseconds of the installed clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            Instant(CLOCK.get().map_or(0.0, |f| f()))
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            let ms = self.0 - earlier.0;
            if ms.is_finite() && ms > 0.0 {
                Duration::from_secs_f64(ms / 1000.0)
            } else {
                Duration::ZERO
            }
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }
}
