//! `Game::leaf` (issue 53): at the depth limit the engine asks the game once, with
//! `outcome` and `evaluate` for the positions above it; a game that answers `leaf` itself
//! gets the same values as one that answers the two.

use std::cell::Cell;

use minimax::search::{Game, GameError, Leaf, Method, Move, Options, search};

/// Nim-like: take 1 to 3 from a pile; taking the last loses (MAX's view: +1 when MIN took
/// it). The evaluation is the pile mod 4 with a sign by side, so that depth-limited
/// values differ from the proven ones.
struct Pile {
    left: i64,
    max_to_move: bool,
    /// Whether `leaf` is answered here (else the default asks the two).
    own_leaf: bool,
    calls: Calls,
}

#[derive(Default)]
struct Calls {
    outcome: Cell<u64>,
    evaluate: Cell<u64>,
    leaf: Cell<u64>,
}

fn bump(c: &Cell<u64>) {
    c.set(c.get() + 1);
}

impl Pile {
    fn over(&self) -> Option<i32> {
        // The side to move faces an empty pile: the other side took the last and lost.
        (self.left == 0).then_some(if self.max_to_move { 1 } else { -1 })
    }
    fn heuristic(&self) -> i32 {
        let s = (self.left % 4) as i32 - 1;
        if self.max_to_move { s } else { -s }
    }
}

impl Game for Pile {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend((1..=3).filter(|&n| n <= self.left));
        Ok(())
    }
    fn play(&mut self, n: Move) {
        self.left -= n;
        self.max_to_move = !self.max_to_move;
    }
    fn undo(&mut self, n: Move) {
        self.left += n;
        self.max_to_move = !self.max_to_move;
    }
    fn outcome(&mut self) -> Option<i32> {
        bump(&self.calls.outcome);
        self.over()
    }
    fn evaluate(&mut self) -> i32 {
        bump(&self.calls.evaluate);
        self.heuristic()
    }
    fn leaf(&mut self) -> Leaf {
        if !self.own_leaf {
            return match self.outcome() {
                Some(s) => Leaf::Over(s),
                None => Leaf::Heuristic(self.evaluate()),
            };
        }
        bump(&self.calls.leaf);
        match self.over() {
            Some(s) => Leaf::Over(s),
            None => Leaf::Heuristic(self.heuristic()),
        }
    }
}

fn run(own_leaf: bool, left: i64, depth: u32, method: Method) -> (i32, Option<Move>, Calls) {
    let mut game = Pile {
        left,
        max_to_move: true,
        own_leaf,
        calls: Calls::default(),
    };
    let mut o = Options {
        method,
        max_depth: depth,
        table_bytes: 0,
        ..Options::default()
    };
    let r = search(&mut game, &mut o).unwrap();
    (r.value, r.best_move, game.calls)
}

#[test]
fn the_depth_limit_asks_the_game_once_and_the_values_agree() {
    for left in [5, 9, 14, 21] {
        for depth in [1, 2, 4, 7] {
            for method in [Method::Minimax, Method::AlphaBeta, Method::Pvs] {
                let (v, m, two) = run(false, left, depth, method);
                let (w, n, one) = run(true, left, depth, method);
                assert_eq!((v, m), (w, n), "{left} {depth} {method:?}");
                // Every position at the limit asked once; none asked for its evaluation
                // apart, and the positions above it asked only `outcome`.
                assert!(one.leaf.get() > 0);
                assert_eq!(one.evaluate.get(), 0);
                assert_eq!(one.outcome.get() + one.leaf.get(), two.outcome.get());
            }
        }
    }
}
