//! The engine's internal values: a game score from the side to move's point of view, and
//! a tie-break that prefers faster wins and slower losses, packed in one `i64` so that
//! plain comparison orders them and negation never overflows.
//!
//! `value = score * BAND + t`: `t = 0` for a heuristic or a draw, `t = +(MAX_T - ply)` for
//! a proven win reached at absolute `ply` from the root, `-(MAX_T - ply)` for a loss.

use super::game::GameError;

/// One score's band of internal values.
pub(crate) const BAND: i64 = 1 << 24;
/// The largest tie-break: every value of score `s` lies within `s * BAND ± MAX_T`, and a
/// shift by a ply count (transposition-table storage) stays inside the band.
pub(crate) const MAX_T: i64 = 1 << 22;
/// The deepest ply a search goes to: a position this many plies below the root is scored
/// if it is over (or at the depth limit), and is an error (`GameError::TooDeep`) if it
/// would have to be searched further.
pub(crate) const MAX_PLY: u32 = 1 << 20;
/// Above every value.
pub(crate) const INF: i64 = 1 << 60;

/// A final position with `score` (side to move's view) reached at `ply` from the root.
pub(crate) fn final_at(score: i64, ply: u32) -> i64 {
    score * BAND + score.signum() * (MAX_T - ply as i64)
}

/// A heuristic evaluation.
pub(crate) fn heuristic(score: i64) -> i64 {
    score * BAND
}

/// The game score inside a value.
pub(crate) fn score(v: i64) -> i64 {
    (v + BAND / 2).div_euclid(BAND)
}

fn tie(v: i64) -> i64 {
    v - score(v) * BAND
}

/// The smallest value any position of score at least `s` can have.
pub(crate) fn at_least(s: i64) -> i64 {
    s * BAND - MAX_T
}

/// The largest value any position of score at most `s` can have.
pub(crate) fn at_most(s: i64) -> i64 {
    s * BAND + MAX_T
}

/// The plies from the root to the end, for a proven win or loss.
pub(crate) fn plies_to_end(v: i64) -> Option<u32> {
    let t = tie(v).abs();
    (t >= MAX_T - MAX_PLY as i64 && t <= MAX_T).then(|| (MAX_T - t) as u32)
}

/// A value found at `ply`, made relative to its node for the transposition table.
pub(crate) fn to_table(v: i64, ply: u32) -> i64 {
    v + tie(v).signum() * ply as i64
}

/// A value from the transposition table, made absolute again at `ply`.
pub(crate) fn from_table(v: i64, ply: u32) -> i64 {
    v - tie(v).signum() * ply as i64
}

/// A final score or an evaluation must lie strictly inside `i32`, so that it can be
/// negated and widened without overflow.
pub(crate) fn check_score(score: i32) -> Result<(), GameError> {
    if score == i32::MIN || score == i32::MAX {
        Err(GameError::ScoreOutOfRange)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_round_trips() {
        // A faster win beats a slower one, a slower loss beats a faster one, and any win
        // of a higher score beats any of a lower score.
        assert!(final_at(1, 1) > final_at(1, 3));
        assert!(final_at(-1, 5) > final_at(-1, 2));
        assert!(final_at(2, 40) > final_at(1, 1));
        assert!(heuristic(1) > heuristic(0) && final_at(1, 9) > heuristic(1));
        for s in [i32::MIN as i64, -3, 0, 7, i32::MAX as i64] {
            for ply in [0, 1, 1000] {
                let v = final_at(s, ply);
                assert_eq!(score(v), s);
                assert_eq!(score(-v), -s);
                assert_eq!(from_table(to_table(v, 17), 17), v);
                assert!(at_least(s) <= v && v <= at_most(s));
            }
        }
        assert_eq!(plies_to_end(final_at(1, 3)), Some(3));
        assert_eq!(plies_to_end(heuristic(4)), None);
    }
}
