//! How the n-player searches (max^n, n-player MCTS, ISMCTS) read a game's scores: one
//! score a player, from `player_scores` and `player_evaluations`, or for a two-player
//! game from `outcome` and `evaluate` as (MAX's, MIN's); each vector held to
//! `player_bounds`; and how the MCTS families turn them into rewards.

use crate::search::game::{Game, GameError, ScoreView};

/// The most players a game may have.
pub const MAX_PLAYERS: usize = 8;

/// A vector of scores, one per player (the first `players` used).
pub(crate) type Scores = [i32; MAX_PLAYERS];

/// A game's players and how its scores are read, fixed at the root.
#[derive(Clone, Copy)]
pub(crate) struct Scoring {
    pub players: usize,
    /// Two players: the game scores through `outcome` and `evaluate`, in this view.
    two: Option<ScoreView>,
    /// Each score's least and the sum's most, where the game gives them and they were
    /// asked for.
    pub bounds: Option<(i64, i64)>,
}

impl Scoring {
    /// The game's count of players (2 to [`MAX_PLAYERS`]: else [`GameError::BadPlayer`]);
    /// with `bounds`, its `player_bounds` where it has more than two (reversed ones are
    /// [`GameError::BadBounds`]).
    pub fn of<G: Game>(game: &mut G, bounds: bool) -> Result<Scoring, GameError> {
        let players = game.players();
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::BadPlayer);
        }
        let two = (players == 2).then(|| game.score_view());
        let bounds = if bounds && players > 2 {
            match game.player_bounds() {
                Some((lo, sum)) if (lo as i64) * (players as i64) <= sum as i64 => {
                    Some((lo as i64, sum as i64))
                }
                Some(_) => return Err(GameError::BadBounds),
                None => None,
            }
        } else {
            None
        };
        Ok(Scoring {
            players,
            two,
            bounds,
        })
    }

    /// The player to move; `ply` counts the players' moves from the root, for two-player
    /// games without `max_to_move` that alternate (player 0, MAX, moving at the root).
    pub fn mover<G: Game>(&self, game: &mut G, ply: u32) -> Result<usize, GameError> {
        if self.two.is_some() {
            return Ok(match game.max_to_move() {
                Some(max) => usize::from(!max),
                None => (ply % 2) as usize,
            });
        }
        let p = game.player_to_move();
        if p < self.players {
            Ok(p)
        } else {
            Err(GameError::BadPlayer)
        }
    }

    /// A two-player score, in the game's view, as the vector (MAX's, MIN's).
    fn two_scores(&self, score: i32, mover: usize, out: &mut Scores) -> Result<(), GameError> {
        let max = match self.two {
            Some(ScoreView::SideToMove) if mover == 1 => {
                score.checked_neg().ok_or(GameError::ScoreOutOfRange)?
            }
            _ => score,
        };
        out[0] = max;
        out[1] = max.checked_neg().ok_or(GameError::ScoreOutOfRange)?;
        Ok(())
    }

    /// Whether the position is final, its scores then written to `out` (and checked
    /// against the bounds).
    pub fn final_scores<G: Game>(
        &self,
        game: &mut G,
        ply: u32,
        out: &mut Scores,
    ) -> Result<bool, GameError> {
        if self.two.is_some() {
            let Some(score) = game.outcome() else {
                return Ok(false);
            };
            let mover = self.mover(game, ply)?;
            self.two_scores(score, mover, out)?;
            return Ok(true);
        }
        out[..self.players].fill(0);
        if !game.player_scores(&mut out[..self.players]) {
            return Ok(false);
        }
        self.check(out)?;
        Ok(true)
    }

    /// The game's evaluations of a position where a line stops early, into `out`.
    pub fn evaluations<G: Game>(
        &self,
        game: &mut G,
        ply: u32,
        out: &mut Scores,
    ) -> Result<(), GameError> {
        if self.two.is_some() {
            let score = game.evaluate();
            let mover = self.mover(game, ply)?;
            return self.two_scores(score, mover, out);
        }
        out[..self.players].fill(0);
        game.player_evaluations(&mut out[..self.players]);
        self.check(out)
    }

    /// Whether the game is a two-player one, scored through `outcome` and `evaluate`.
    pub fn is_two(&self) -> bool {
        self.two.is_some()
    }

    /// Holds a vector of scores to the game's bounds.
    pub fn check(&self, out: &Scores) -> Result<(), GameError> {
        if self.two.is_some() {
            // Two-player bounds are only for scaling (an evaluation may lie outside).
            return Ok(());
        }
        if let Some((lo, sum)) = self.bounds {
            let v = &out[..self.players];
            if v.iter().any(|&x| (x as i64) < lo) || v.iter().map(|&x| x as i64).sum::<i64>() > sum
            {
                return Err(GameError::ScoreOutsideBounds);
            }
        }
        Ok(())
    }
}

/// How final scores (and a cut-off playout's evaluations) become each player's reward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerReward {
    /// The players with the top score share a reward of 1 (a sole winner has 1); the
    /// others have 0.
    Win,
    /// Each score scaled into [0, 1] by the game's `player_bounds` (two players: its
    /// `bounds`; needed: else
    /// [`GameError::NeedsBounds`]): the least a player can have is 0, all the sum 1.
    Scaled,
}

/// One reward a player.
pub(crate) type Rewards = [f64; MAX_PLAYERS];

/// A search's fixed parts: how scores are read and turned into rewards.
#[derive(Clone, Copy)]
pub(crate) struct Convert {
    pub scoring: Scoring,
    pub reward: PlayerReward,
}

impl Convert {
    /// The game's scoring (with its bounds) and `reward`, which for
    /// [`PlayerReward::Scaled`] needs bounds that leave a range
    /// ([`GameError::NeedsBounds`], [`GameError::BadBounds`]).
    pub fn of<G: Game>(game: &mut G, reward: PlayerReward) -> Result<Convert, GameError> {
        let mut scoring = Scoring::of(game, true)?;
        if scoring.two.is_some() && reward == PlayerReward::Scaled {
            // Two players' scores (s, -s) over the game's `bounds` (lo, hi): each at
            // least min(lo, -hi), their sum 0.
            scoring.bounds = game
                .bounds()
                .map(|(lo, hi)| ((lo as i64).min(-(hi as i64)), 0));
        }
        if reward == PlayerReward::Scaled {
            match scoring.bounds {
                None => return Err(GameError::NeedsBounds),
                Some((lo, sum)) if sum == lo * scoring.players as i64 => {
                    return Err(GameError::BadBounds);
                }
                Some(_) => {}
            }
        }
        Ok(Convert { scoring, reward })
    }

    /// Each player's reward for a vector of scores: with [`PlayerReward::Win`] the top
    /// scorers share 1; with [`PlayerReward::Scaled`] each score over the range the
    /// game's bounds leave it.
    pub fn rewards(&self, scores: &Scores, out: &mut Rewards) {
        let n = self.scoring.players;
        match (self.reward, self.scoring.bounds) {
            (PlayerReward::Scaled, Some((lo, sum))) => {
                let range = (sum - n as i64 * lo) as f64;
                for p in 0..n {
                    out[p] = ((scores[p] as i64 - lo) as f64 / range).clamp(0.0, 1.0);
                }
            }
            _ => {
                let top = scores[..n].iter().copied().max().unwrap_or(0);
                let winners = scores[..n].iter().filter(|&&s| s == top).count();
                for p in 0..n {
                    out[p] = if scores[p] == top {
                        1.0 / winners as f64
                    } else {
                        0.0
                    };
                }
            }
        }
    }
}
