//! Paranoid search (Sturtevant and Korf, 2000, from their description): in a game of more
//! than two players, the root's mover assumes that every other player plays against it.
//! That makes a two-player game of it (MAX the root's mover, MIN the others, the score
//! the root mover's), which the two-player engine searches with everything it has:
//! alpha-beta, PVS, the table, the enhancements, threads, and an exact solve of the
//! score the root's mover can be sure of.

use crate::search::game::{Fork, Game, GameError, Move, ScoreView};
use crate::search::players::root_player::RootPlayer;

/// A game of n players seen as the two-player game of its root's mover (MAX) against
/// the others (MIN), for [`search`](crate::search::search) and
/// [`search_parallel`](crate::search::search_parallel). Scores are the root mover's: the value
/// a search finds is what it can be sure of whatever the others do.
pub struct Paranoid<G> {
    game: G,
    me: RootPlayer,
}

impl<G: Game> Paranoid<G> {
    /// The paranoid view of `game`, for the player to move now. [`GameError::BadPlayer`]
    /// if the game has not 3 to [`MAX_PLAYERS`](crate::search::maxn::MAX_PLAYERS) players (a
    /// two-player game is searched as it is) or its mover is out of range.
    /// A vector of scores (final or evaluated) outside the game's `player_bounds` stops
    /// the search with [`GameError::ScoreOutsideBounds`], as max^n does.
    pub fn new(mut game: G) -> Result<Paranoid<G>, GameError> {
        let me = RootPlayer::of(&mut game)?;
        Ok(Paranoid { game, me })
    }

    /// The player whose score this view maximises.
    pub fn root_player(&self) -> usize {
        self.me.root
    }

    /// The game, in its current position.
    pub fn game(&mut self) -> &mut G {
        &mut self.game
    }

    /// The game back.
    pub fn into_inner(self) -> G {
        self.game
    }
}

/// A copy for another thread: the game's own.
impl<G: Fork> Fork for Paranoid<G> {
    fn fork(&self) -> Option<Self> {
        Some(Paranoid {
            game: self.game.fork()?,
            me: self.me.clone(),
        })
    }
}

impl<G: Game> Game for Paranoid<G> {
    /// The game's moves, once its mover is known to be one of its players.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.game.player_to_move() >= self.me.players {
            return Err(GameError::BadPlayer);
        }
        self.game.moves(out)
    }

    fn play(&mut self, mv: Move) {
        self.game.play(mv)
    }

    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }

    fn outcome(&mut self) -> Option<i32> {
        self.me.outcome(&mut self.game)
    }

    fn evaluate(&mut self) -> i32 {
        self.me.evaluate(&mut self.game)
    }

    fn hash(&mut self) -> Option<u64> {
        self.me.hash(&mut self.game, 0x9E37_79B9_7F4A_7C15)
    }

    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.me.is_moving(&mut self.game))
    }

    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.me.bounds()
    }

    fn score_view(&mut self) -> ScoreView {
        ScoreView::Max
    }

    fn broken(&mut self) -> Option<GameError> {
        self.me.broken()
    }

    fn is_chance(&mut self) -> bool {
        self.game.is_chance()
    }

    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.game.outcomes(out)
    }

    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.noisy_moves(out)
    }

    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        self.game.priors(moves, out)
    }
}
