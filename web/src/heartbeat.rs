//! A game that beats while it is searched: every few hundred moves played it reads the
//! clock, and every `every` milliseconds calls the search's `beat` with the moves played
//! so far, which sends a progress report and says whether to stop (a cancelled search,
//! where the page shares memory with the Worker). The engine's own progress comes only
//! at the end of an iteration, which can take far longer than a page may wait to hear.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use minimax::search::{Game, GameError, Leaf, Move, ScoreView};

/// Moves played between two looks at the clock.
const LOOK_EVERY: u32 = 256;

type Beat = Box<dyn FnMut(u64) -> bool>;

thread_local! {
    /// This thread's beat, while a search runs: kept by the thread rather than by the
    /// game, so that the game stays a plain value a parallel search can copy to its
    /// helper threads (which beat nothing).
    static BEAT: RefCell<Option<Beat>> = const { RefCell::new(None) };
}

/// This thread's beat for as long as it lives.
pub struct Pulse(());

impl Pulse {
    /// `beat(played)`, called at the heartbeat's pace, says whether to stop.
    pub fn install(beat: impl FnMut(u64) -> bool + 'static) -> Pulse {
        BEAT.with(|b| *b.borrow_mut() = Some(Box::new(beat)));
        Pulse(())
    }
}

impl Drop for Pulse {
    fn drop(&mut self) {
        BEAT.with(|b| *b.borrow_mut() = None);
    }
}

/// `game`, beating.
pub struct Heartbeat<G> {
    game: G,
    stop: Arc<AtomicI32>,
    /// False in a copy for another thread.
    beats: bool,
    every: f64,
    last: f64,
    played: u64,
    left: u32,
}

impl<G: Game> Heartbeat<G> {
    /// Calls this thread's [`Pulse`] every `every_ms` milliseconds; when it answers
    /// true, `stop` is set.
    pub fn new(game: G, every_ms: f64, stop: Arc<AtomicI32>) -> Self {
        Heartbeat {
            game,
            stop,
            beats: true,
            every: every_ms,
            last: crate::clock::now(),
            played: 0,
            left: LOOK_EVERY,
        }
    }

    fn beat(&mut self) {
        self.played += 1;
        self.left -= 1;
        if self.left != 0 {
            return;
        }
        self.left = LOOK_EVERY;
        if !self.beats {
            return;
        }
        let now = crate::clock::now();
        if now - self.last >= self.every {
            self.last = now;
            let played = self.played;
            // (A beat that reached into another search on this thread finds it busy.)
            let stop = BEAT.with(|b| match b.try_borrow_mut() {
                Ok(mut slot) => slot.as_mut().is_some_and(|beat| beat(played)),
                Err(_) => false,
            });
            if stop {
                self.stop.store(1, Relaxed);
            }
        }
    }
}

/// A copy for a helper thread: the same position, and no beat.
impl<G: Clone> Clone for Heartbeat<G> {
    fn clone(&self) -> Self {
        Heartbeat {
            game: self.game.clone(),
            stop: self.stop.clone(),
            beats: false,
            every: self.every,
            last: self.last,
            played: 0,
            left: LOOK_EVERY,
        }
    }
}

/// Every method the game's own, so that the search is the one it would be without the
/// heartbeat, node for node.
impl<G: Game> Game for Heartbeat<G> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.beat();
        self.game.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.game.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.game.evaluate()
    }
    fn stage(&mut self) -> u32 {
        self.game.stage()
    }
    fn leaf(&mut self) -> Leaf {
        self.game.leaf()
    }
    fn hash(&mut self) -> Option<u64> {
        self.game.hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.game.max_to_move()
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.game.bounds()
    }
    fn score_view(&mut self) -> ScoreView {
        self.game.score_view()
    }
    fn broken(&mut self) -> Option<GameError> {
        self.game.broken()
    }
    fn is_chance(&mut self) -> bool {
        self.game.is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.game.outcomes(out)
    }
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        self.game.priors(moves, out)
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.noisy_moves(out)
    }
    fn null_move(&mut self) -> Option<Move> {
        self.game.null_move()
    }
    fn players(&mut self) -> usize {
        self.game.players()
    }
    fn player_to_move(&mut self) -> usize {
        self.game.player_to_move()
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        self.game.player_scores(out)
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        self.game.player_evaluations(out)
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        self.game.player_bounds()
    }
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        self.beat();
        self.game.playout(seed, out)
    }
    fn information_key(&mut self) -> Option<u64> {
        self.game.information_key()
    }
    fn sample(&mut self, seed: u64) -> bool {
        self.game.sample(seed)
    }
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        self.game.observed_move(mv, player)
    }
}
