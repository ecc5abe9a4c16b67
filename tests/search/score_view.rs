//! Scores from the side to move (`ScoreView::SideToMove`, C's `MM_SCORES_SIDE_TO_MOVE`):
//! the same games scored the other way give the same answers, by every method, on one
//! thread and two. The side-to-move versions are wrappers that negate the MAX-view
//! scores at MIN's turn, tracking the turn as the engine documents it.

use crate::shared::games;

use games::{ConnectFour, TicTacToe};
use minimax::search::{
    Game, GameError, Method, Move, Options, ScoreView, SearchResult, search, search_parallel,
};

/// `G` scored from the side to move's view.
#[derive(Clone)]
struct SideView<G> {
    game: G,
    /// Whether MAX is to move, one entry a ply from the root.
    turns: Vec<bool>,
}

impl<G: Game> SideView<G> {
    fn new(mut game: G) -> Self {
        let root = game.max_to_move().unwrap_or(true);
        SideView {
            game,
            turns: vec![root],
        }
    }
    fn max_turn(&self) -> bool {
        *self.turns.last().unwrap()
    }
    fn view(&self, s: i32) -> i32 {
        if self.max_turn() { s } else { -s }
    }
}

impl<G: Game> Game for SideView<G> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        let before = self.max_turn();
        self.game.play(mv);
        let now = self.game.max_to_move().unwrap_or(!before);
        self.turns.push(now);
    }
    fn undo(&mut self, mv: Move) {
        self.turns.pop();
        self.game.undo(mv);
    }
    fn outcome(&mut self) -> Option<i32> {
        self.game.outcome().map(|s| self.view(s))
    }
    fn evaluate(&mut self) -> i32 {
        let e = self.game.evaluate();
        self.view(e)
    }
    fn hash(&mut self) -> Option<u64> {
        self.game.hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.game.max_to_move()
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let (lo, hi) = self.game.bounds()?;
        Some(if self.max_turn() {
            (lo, hi)
        } else {
            (-hi, -lo)
        })
    }
    fn is_chance(&mut self) -> bool {
        self.game.is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.game.outcomes(out)
    }
    fn score_view(&mut self) -> ScoreView {
        ScoreView::SideToMove
    }
}

type Answer = (i32, Option<Move>, bool, Option<u32>, Option<f64>);

fn answer(r: SearchResult) -> Answer {
    (r.value, r.best_move, r.proven, r.plies_to_end, r.expected)
}

fn both<G: Game + Clone + Send + 'static>(game: &G, opts: impl Fn() -> Options<'static>) {
    let mut max_view = game.clone();
    let mut side_view = SideView::new(game.clone());
    let a = search(&mut max_view, &mut opts()).unwrap();
    let b = search(&mut side_view, &mut opts()).unwrap();
    assert_eq!(
        answer(a.clone()),
        answer(b),
        "one thread, {:?}",
        opts().method
    );
    // On two threads the move may be another of equal value.
    let mut o = opts();
    o.threads = 2;
    let c = search_parallel(&mut SideView::new(game.clone()), &mut o).unwrap();
    assert_eq!((c.value, c.proven), (a.value, a.proven), "two threads");
}

#[test]
fn side_to_move_scores_give_maxs_answers() {
    // Tic-tac-toe from positions a few moves in, by every deterministic method.
    let mut positions = 0;
    for first in 0..9 {
        for second in (0..9).filter(|&s| s != first) {
            let mut t = TicTacToe::new();
            t.play(first);
            t.play(second);
            for method in [
                Method::Minimax,
                Method::AlphaBeta,
                Method::Pvs,
                Method::Exact,
            ] {
                both(&t, || Options {
                    method,
                    table_bytes: 1 << 16,
                    ..Options::default()
                });
            }
            t.play((0..9).find(|&c| c != first && c != second).unwrap());
            both(&t, || Options {
                method: Method::AlphaBeta,
                ..Options::default()
            });
            positions += 2;
        }
    }
    assert_eq!(positions, 144);
    // Connect Four (bounds and max_to_move), depth-limited: evaluations at the horizon.
    let mut c = ConnectFour::new();
    for mv in [3, 3, 2, 4, 4, 2] {
        c.play(mv);
        for method in [Method::AlphaBeta, Method::Pvs, Method::Exact] {
            both(&c, || Options {
                method,
                max_depth: 6,
                table_bytes: 1 << 20,
                ..Options::default()
            });
        }
    }
}

/// A chance game: a die of weights 1, 2, 3 (faces 1 to 3) between two moves; each move
/// adds to MAX's total or takes from it, the game ends after four plies.
#[derive(Clone, Default)]
struct DiceRace {
    plies: Vec<Move>,
}

impl Game for DiceRace {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([1, 2]);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.plies.push(mv);
    }
    fn undo(&mut self, _: Move) {
        self.plies.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        // MAX moves at plies 0 and 2 (by alternation: chance plies count), MIN never: the
        // chance plies 1 and 3 stand for MIN's turns.
        (self.plies.len() == 4).then(|| {
            let p = &self.plies;
            (p[0] * p[1] - p[2] * p[3] + 2 * p[1]) as i32
        })
    }
    fn evaluate(&mut self) -> i32 {
        self.plies.iter().sum::<i64>() as i32
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-20, 20))
    }
    fn is_chance(&mut self) -> bool {
        self.plies.len() % 2 == 1
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend([(1, 1.0), (2, 2.0), (3, 3.0)]);
        Ok(())
    }
}

#[test]
fn side_to_move_scores_in_chance_searches() {
    for method in [Method::Expectimax, Method::Star1, Method::Star2] {
        for depth in [2, 3, u32::MAX] {
            both(&DiceRace::default(), || Options {
                method,
                max_depth: depth,
                ..Options::default()
            });
        }
    }
    // At MIN's turn a side-to-move score of i32::MIN cannot be negated: refused.
    #[derive(Clone)]
    struct Extreme(u8);
    impl Game for Extreme {
        fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
            out.push(0);
            Ok(())
        }
        fn play(&mut self, _: Move) {
            self.0 += 1;
        }
        fn undo(&mut self, _: Move) {
            self.0 -= 1;
        }
        fn outcome(&mut self) -> Option<i32> {
            (self.0 == 1).then_some(i32::MIN) // MIN to move here
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
        fn score_view(&mut self) -> ScoreView {
            ScoreView::SideToMove
        }
    }
    let mut o = Options {
        method: Method::Expectimax,
        ..Options::default()
    };
    let r = search(&mut Extreme(0), &mut o);
    assert_eq!(r.unwrap_err(), GameError::ScoreOutOfRange);
}
