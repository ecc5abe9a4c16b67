//! What deepening learns from its completed iterations: the window the next one is
//! searched in first ([`Options::aspiration_windows`]), and whether it can finish in the
//! time left ([`Options::time_management`]).
//!
//! [`Options::aspiration_windows`]: crate::search::Options::aspiration_windows
//! [`Options::time_management`]: crate::search::Options::time_management

use std::time::Duration;

use super::Engine;
use crate::search::game::Game;
use crate::search::limits::Halt;
use crate::search::value::{BAND, INF};

/// Failed windows before the window is made whole: each failure widens the failing side
/// four times more, so a few suffice, and the re-search cannot loop.
const MOST_FAILURES: u32 = 3;

/// The most an iteration is taken to grow on the one before: an estimate past it is
/// noise (a tiny iteration's time).
const MOST_GROWTH: f64 = 8.0;

/// The values and times of the iterations completed so far.
#[derive(Default)]
pub(super) struct Iterations {
    /// The last two values (side to move's view), the last first.
    values: [Option<i64>; 2],
    /// The last two iterations' times, the last first.
    times: [Option<Duration>; 2],
}

impl Iterations {
    /// Notes a completed iteration's value and time.
    pub(super) fn completed(&mut self, value: i64, took: Duration) {
        self.values = [Some(value), self.values[0]];
        self.times = [Some(took), self.times[0]];
    }

    /// The window to search the next iteration in first: around the last value, as wide
    /// as the last two values differed (at least one score unit); `None` (the whole
    /// window) before two iterations, or after a proven win or loss, whose value encodes a
    /// distance and not a score.
    pub(super) fn window(&self) -> Option<(i64, i64, i64)> {
        let (Some(last), Some(before)) = (self.values[0], self.values[1]) else {
            return None;
        };
        if last % BAND != 0 || before % BAND != 0 {
            return None;
        }
        let delta = (last - before).abs().max(BAND);
        Some((last - delta, last + delta, delta))
    }

    /// Whether an iteration started `elapsed` into a search limited to `limit` would
    /// finish in time, estimated as the last iteration's time grown as much as it grew on
    /// the one before (at least twice, at most `MOST_GROWTH` times). Unknown (fewer than
    /// two iterations timed) is yes.
    pub(super) fn next_fits(&self, elapsed: Duration, limit: Duration) -> bool {
        let (Some(last), Some(before)) = (self.times[0], self.times[1]) else {
            return true;
        };
        let growth = last.as_secs_f64() / before.as_secs_f64().max(1e-9);
        let next = last.as_secs_f64() * growth.clamp(2.0, MOST_GROWTH);
        elapsed.as_secs_f64() + next <= limit.as_secs_f64()
    }
}

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The root's value at `depth`, searched first in `window` (low, high, width) and
    /// again wider on the side it failed, then in the whole window. A value strictly
    /// inside a window is the value the whole window gives.
    pub(super) fn aspirated(
        &mut self,
        depth: u32,
        root_max: bool,
        (mut lo, mut hi, mut delta): (i64, i64, i64),
    ) -> Result<i64, Halt> {
        for _ in 0..MOST_FAILURES {
            (self.horizon, self.trial_leaves) = (0, 0);
            self.pv_is_partial = false;
            let v = self.node(depth, 0, root_max, lo, hi)?;
            if v > lo && v < hi {
                return Ok(v);
            }
            delta = delta.saturating_mul(4).min(INF);
            if v <= lo {
                lo = v.saturating_sub(delta).max(-INF);
            } else {
                hi = v.saturating_add(delta).min(INF);
            }
        }
        (self.horizon, self.trial_leaves) = (0, 0);
        self.pv_is_partial = false;
        self.node(depth, 0, root_max, -INF, INF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_need_two_heuristic_values() {
        let mut it = Iterations::default();
        assert_eq!(it.window(), None);
        it.completed(5 * BAND, Duration::from_millis(1));
        assert_eq!(it.window(), None);
        it.completed(2 * BAND, Duration::from_millis(3));
        assert_eq!(it.window(), Some((-BAND, 5 * BAND, 3 * BAND)));
        it.completed(2 * BAND, Duration::from_millis(9));
        assert_eq!(
            it.window(),
            Some((BAND, 3 * BAND, BAND)),
            "at least one unit"
        );
        it.completed(7 * BAND + 3, Duration::from_millis(9));
        assert_eq!(it.window(), None, "a proven win");
    }

    #[test]
    fn the_next_iteration_fits_by_the_growth_of_the_last() {
        let ms = Duration::from_millis;
        let mut it = Iterations::default();
        assert!(it.next_fits(ms(19), ms(20)), "unknown is yes");
        it.completed(0, ms(1));
        it.completed(0, ms(3));
        // The next is estimated at 9 ms.
        assert!(it.next_fits(ms(11), ms(20)));
        assert!(!it.next_fits(ms(12), ms(20)));
        it.completed(0, ms(3));
        // Growth 1 counts as 2: 6 ms.
        assert!(it.next_fits(ms(14), ms(20)));
        assert!(!it.next_fits(ms(15), ms(20)));
    }
}
