//! What the two-player views of a game of more than two players share ([`Paranoid`] and
//! [`BestReply`]): one player, the root's mover, whose scores are MAX's.
//!
//! [`Paranoid`]: super::paranoid::Paranoid
//! [`BestReply`]: super::best_reply::BestReply

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use crate::search::game::{Game, GameError};
use crate::search::players::maxn::MAX_PLAYERS;

/// The root's mover of a game of 3 to [`MAX_PLAYERS`] players, and room for its scores.
#[derive(Clone)]
pub(crate) struct RootPlayer {
    /// The player whose score is MAX's.
    pub root: usize,
    /// How many players the game has.
    pub players: usize,
    scores: [i32; MAX_PLAYERS],
    /// The game's `player_bounds` (each score's least, the sum's most), asked once.
    player_bounds: Option<(i32, i32)>,
    /// Set when a vector of scores broke `player_bounds`; shared with the copies other
    /// threads search, so that [`Game::broken`] answers on the caller's.
    lied: Arc<AtomicBool>,
}

impl RootPlayer {
    /// The player to move in `game`; [`GameError::BadPlayer`] if the game has not 3 to
    /// [`MAX_PLAYERS`] players (a two-player game is searched as it is) or its mover is
    /// out of range; reversed `player_bounds` are [`GameError::BadBounds`].
    pub(crate) fn of<G: Game>(game: &mut G) -> Result<RootPlayer, GameError> {
        let players = game.players();
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::BadPlayer);
        }
        let root = game.player_to_move();
        if root >= players {
            return Err(GameError::BadPlayer);
        }
        let player_bounds = game.player_bounds();
        if let Some((lo, sum)) = player_bounds {
            if (lo as i64) * (players as i64) > sum as i64 {
                return Err(GameError::BadBounds);
            }
        }
        Ok(RootPlayer {
            root,
            players,
            scores: [0; MAX_PLAYERS],
            player_bounds,
            lied: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The root player's score in `self.scores`, or, where the vector breaks the game's
    /// `player_bounds`, `i32::MIN`, which stops the search (the engine refuses it) with
    /// [`GameError::ScoreOutsideBounds`] once [`RootPlayer::broken`] is asked.
    fn score(&self) -> i32 {
        if let Some((lo, sum)) = self.player_bounds {
            let v = &self.scores[..self.players];
            let total: i64 = v.iter().map(|&x| x as i64).sum();
            if v.iter().any(|&x| x < lo) || total > sum as i64 {
                self.lied.store(true, Relaxed);
                return i32::MIN;
            }
        }
        self.scores[self.root]
    }

    /// The root player's final score, if the game is over.
    pub(crate) fn outcome<G: Game>(&mut self, game: &mut G) -> Option<i32> {
        self.scores = [0; MAX_PLAYERS];
        game.player_scores(&mut self.scores[..self.players])
            .then(|| self.score())
    }

    /// The root player's evaluation.
    pub(crate) fn evaluate<G: Game>(&mut self, game: &mut G) -> i32 {
        self.scores = [0; MAX_PLAYERS];
        game.player_evaluations(&mut self.scores[..self.players]);
        self.score()
    }

    /// [`GameError::ScoreOutsideBounds`] if a vector of scores broke `player_bounds`.
    pub(crate) fn broken(&self) -> Option<GameError> {
        self.lied
            .load(Relaxed)
            .then_some(GameError::ScoreOutsideBounds)
    }

    /// The game's hash with the root player (and the view, by `salt`) mixed in: a table
    /// lent to searches for different players or views keeps their values apart.
    pub(crate) fn hash<G: Game>(&self, game: &mut G, salt: u64) -> Option<u64> {
        let h = game.hash()?;
        Some(h ^ (self.root as u64 + 1).wrapping_mul(salt))
    }

    /// Whether the root player is to move (MAX). A mover out of range is taken as MIN
    /// here; the views report it as [`GameError::BadPlayer`] once its moves are asked.
    pub(crate) fn is_moving<G: Game>(&self, game: &mut G) -> bool {
        game.player_to_move() == self.root
    }

    /// The root player's scores lie between the least any player can have and what the
    /// others' least leaves of the sum.
    pub(crate) fn bounds(&self) -> Option<(i32, i32)> {
        let (lo, sum) = self.player_bounds?;
        let hi = sum as i64 - (self.players as i64 - 1) * lo as i64;
        let hi = i32::try_from(hi).ok()?;
        (lo <= hi).then_some((lo, hi))
    }
}
