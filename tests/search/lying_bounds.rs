//! One status for a game whose `bounds` lie, in every method (issue 40): a game whose
//! every final score is 1000 while its bounds say [-10, 10] got `MM_OK` and a proven 10
//! from MCTS with scaled rewards and from the exact solve (alpha-beta said 1000, and
//! Star1 a status about reversed bounds). Now each method says
//! `GameError::ScoreOutsideBounds` (C: `MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS`), and bounds
//! that hold still give the true value. Also: MCTS options that are not valid are errors
//! that name them, not panics.

use crate::shared::games;

use games::NoCopy;
use minimax::search::mcts::{Mcts, MctsOptions, Reward};
use minimax::search::{Game, GameError, Method, Move, Options, search};

/// Three plies of two moves, every final score `score`; `bounds` at every position; with
/// `coin`, a fair coin after the first move (for the chance methods).
struct Liar {
    ply: u32,
    score: i32,
    bounds: (i32, i32),
    coin: bool,
}

impl Game for Liar {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.ply += 1;
    }
    fn undo(&mut self, _: Move) {
        self.ply -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.ply == 3).then_some(self.score)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some(self.bounds)
    }
    fn is_chance(&mut self) -> bool {
        self.coin && self.ply == 1
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend([(0, 1.0), (1, 1.0)]);
        Ok(())
    }
}

fn liar(score: i32, coin: bool) -> Liar {
    Liar {
        ply: 0,
        score,
        bounds: (-10, 10),
        coin,
    }
}

#[test]
fn every_search_method_reports_a_score_outside_the_bounds() {
    let methods = [
        (Method::Minimax, false),
        (Method::AlphaBeta, false),
        (Method::Pvs, false),
        (Method::Exact, false),
        (Method::Expectimax, true),
        (Method::Star1, true),
        (Method::Star2, true),
    ];
    for (method, coin) in methods {
        let o = || Options {
            method,
            ..Options::default()
        };
        let r = search(&mut liar(1000, coin), &mut o());
        assert_eq!(r.unwrap_err(), GameError::ScoreOutsideBounds, "{method:?}");
        // Bounds that hold: the true value.
        let r = search(&mut liar(7, coin), &mut o()).unwrap();
        assert_eq!(r.value, 7, "{method:?}");
    }
}

#[test]
fn mcts_with_scaled_rewards_reports_a_score_outside_the_bounds() {
    for coin in [false, true] {
        let o = || MctsOptions {
            playouts: 1_000,
            reward: Reward::Scaled,
            ..MctsOptions::default()
        };
        let r = Mcts::new().search(&mut liar(1000, coin), &mut o());
        assert_eq!(r.unwrap_err(), GameError::ScoreOutsideBounds);
        let mut g = liar(7, coin);
        let r = Mcts::new().search(&mut g, &mut o()).unwrap();
        assert_eq!(r.proven.and_then(|p| p.score), Some(7));
        assert_eq!(g.ply, 0, "the game is left as it was");
    }
}

#[test]
fn mcts_options_that_are_not_valid_are_errors_that_name_them() {
    let cases = [
        (f64::NAN, 1.0, GameError::BadExploration),
        (-1.0, 1.0, GameError::BadExploration),
        (f64::INFINITY, 1.0, GameError::BadExploration),
        (1.0, 0.0, GameError::BadEvalScale),
        (1.0, f64::NAN, GameError::BadEvalScale),
        (1.0, f64::INFINITY, GameError::BadEvalScale),
    ];
    for (exploration, scale, want) in cases {
        let mut o = MctsOptions {
            exploration,
            reward: Reward::Sign { scale },
            ..MctsOptions::default()
        };
        let r = Mcts::new().search(&mut liar(7, false), &mut o);
        assert_eq!(r.unwrap_err(), want, "{exploration} {scale}");
        let r = Mcts::new().search_parallel(&mut NoCopy(liar(7, false)), &mut o);
        assert_eq!(r.unwrap_err(), want, "on threads: {exploration} {scale}");
    }
    // A chance node at the root has its own error, not the deterministic methods'.
    let mut g = liar(7, true);
    g.ply = 1;
    let r = Mcts::new().search(&mut g, &mut MctsOptions::default());
    assert_eq!(r.unwrap_err(), GameError::ChanceRoot);
    assert_ne!(
        GameError::ChanceRoot.to_string(),
        GameError::ChanceNode.to_string()
    );
}
