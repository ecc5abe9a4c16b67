//! MCTS's limits hold inside long playouts (issue 40): the clock and the stop flag were
//! looked at every 64 playouts only, so that on a game whose playouts run 100,000 plies a
//! preset stop returned after 64 of them (825 ms for a 1 ms limit). They are now looked at
//! every 1,024 plies of a playout too. Counted in plies played, not timed.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{Game, GameError, Move};

/// Two moves a ply, over after 100,000 plies (a draw); counts every play, forks included.
#[derive(Clone)]
struct Long {
    ply: u32,
    plays: Arc<AtomicU64>,
}

impl Game for Long {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.ply += 1;
        self.plays.fetch_add(1, Relaxed);
    }
    fn undo(&mut self, _: Move) {
        self.ply -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.ply == 100_000).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
}

/// Plies played by a search of `Long` with `threads`, stopped by `set`.
fn plays(threads: usize, set: impl Fn(&mut MctsOptions)) -> u64 {
    let stop = AtomicI32::new(1);
    let plays = Arc::new(AtomicU64::new(0));
    let mut g = Long {
        ply: 0,
        plays: Arc::clone(&plays),
    };
    let mut o = MctsOptions {
        playouts: 0,
        threads,
        ..MctsOptions::default()
    };
    set(&mut o);
    if o.time_limit.is_none() {
        o.stop = Some(&stop);
    }
    let r = Mcts::new().search_parallel(&mut g, &mut o).unwrap();
    assert!(r.best_move.is_some());
    assert_eq!(g.ply, 0, "the game is left as it was");
    plays.load(Relaxed)
}

#[test]
fn a_preset_stop_ends_a_long_playout() {
    for threads in [1, 2] {
        let n = plays(threads, |_| {});
        // One look a thread after at most 1,024 playout plies, plus the plies down the
        // tree: before, 64 whole playouts (6.4M plies) on one thread.
        assert!(n <= threads as u64 * 1_100, "{threads} threads: {n} plies");
    }
}

#[test]
fn a_time_limit_ends_a_long_playout() {
    for threads in [1, 2] {
        let n = plays(threads, |o| o.time_limit = Some(Duration::from_nanos(1)));
        assert!(n <= threads as u64 * 1_100, "{threads} threads: {n} plies");
    }
}
