//! Monte Carlo tree search in Rust (issue 21): the solver's proofs against known values
//! (tic-tac-toe is a draw; Pons' Connect Four end-game set with its scores; exact scores
//! against the engine's exact solve), seeded runs that repeat, tree reuse, the memory
//! bound, chance nodes, and misbehaving games.

use crate::shared::games;
use crate::shared::pons;

use games::{Bits, ConnectFour, DiceDuel, TicTacToe};
use minimax::search::mcts::{Mcts, MctsOptions, Reward, mcts};
use minimax::search::{Game, GameError, Method, Move, Options, search};

fn opts(playouts: u64) -> MctsOptions<'static> {
    MctsOptions {
        playouts,
        ..MctsOptions::default()
    }
}

/// The solver's node limit for the proofs of win, draw or loss below: the tree stops
/// growing there.
const PROOF_NODES: usize = 100_000;
/// The limit for proofs of exact scores, which need more.
const EXACT_NODES: usize = 2_000_000;

#[test]
fn the_solver_proves_tic_tac_toe_a_draw() {
    let mut g = TicTacToe::new();
    let r = mcts(
        &mut g,
        &mut MctsOptions {
            playouts: 0, // until proven
            max_nodes: PROOF_NODES,
            ..MctsOptions::default()
        },
    )
    .unwrap();
    let proof = r.proven.expect("proven");
    assert_eq!((proof.reward, proof.score), (0.5, Some(0)));
    assert!(!r.tree_full);
    println!(
        "tic-tac-toe proven a draw: {} playouts, {} nodes",
        r.playouts, r.nodes
    );
    assert_eq!(g.cells, [0; 9], "the game is left as it was");
    // Every root move is proven too: a draw or a loss for X, by the engine's values.
    games::tic_tac_toe_proofs_agree(&r.root);
}

#[test]
fn the_solver_proves_50_end_games_with_their_published_results() {
    let (mut most_nodes, mut playouts) = (0, 0);
    for (moves, score) in pons::end_games(50) {
        let mut g = Bits::from_moves(&moves).unwrap();
        let r = mcts(
            &mut g,
            &mut MctsOptions {
                playouts: 0,
                max_nodes: PROOF_NODES,
                ..MctsOptions::default()
            },
        )
        .unwrap();
        let proof = r.proven.unwrap_or_else(|| panic!("{moves}: not proven"));
        assert!(!r.tree_full, "{moves}: proven within {PROOF_NODES} nodes");
        // The reward is the side to move's; the file's score is too.
        let expected = 0.5 + 0.5 * score.signum() as f64;
        assert_eq!(proof.reward, expected, "{moves}: file says {score}");
        if score > 0 {
            // A proven win's move wins: the engine agrees on the position after it.
            let mv = r.best_move.unwrap();
            let mut after = ConnectFour::from_moves(&moves).unwrap();
            after.play(mv);
            let mut o = Options {
                method: Method::Exact,
                ..Options::default()
            };
            let v = search(&mut after, &mut o).unwrap().value;
            let mover_is_max = moves.len() % 2 == 0;
            assert_eq!(
                v.signum(),
                if mover_is_max { 1 } else { -1 },
                "{moves}: {mv}"
            );
        }
        most_nodes = most_nodes.max(r.nodes);
        playouts += r.playouts;
    }
    println!("50 end games proven: at most {most_nodes} nodes, {playouts} playouts in all");
}

#[test]
fn scaled_rewards_prove_exact_scores() {
    // Late positions of Pons' set with Pons' scores: the proof's score is the engine's
    // exact value.
    let mut most = 0;
    for (moves, _) in pons::end_games(12) {
        let mut g = ConnectFour::from_moves(&moves).unwrap();
        let mut o = Options {
            method: Method::Exact,
            ..Options::default()
        };
        let exact = search(&mut g, &mut o).unwrap().value;
        let r = mcts(
            &mut g,
            &mut MctsOptions {
                playouts: 0,
                max_nodes: EXACT_NODES,
                reward: Reward::Scaled,
                ..MctsOptions::default()
            },
        )
        .unwrap();
        let proof = r.proven.unwrap_or_else(|| panic!("{moves}: not proven"));
        assert_eq!(proof.score, Some(exact), "{moves}");
        most = most.max(r.nodes);
    }
    println!("12 exact scores proven: at most {most} nodes");
}

#[test]
fn one_seed_on_one_thread_repeats_itself() {
    let run = |seed| {
        let mut g = Bits::from_moves("4453").unwrap();
        let r = mcts(
            &mut g,
            &mut MctsOptions {
                playouts: 3_000,
                seed,
                ..MctsOptions::default()
            },
        )
        .unwrap();
        (r.best_move, r.root, r.nodes)
    };
    let (a, b, c) = (run(1), run(1), run(2));
    assert_eq!(a, b);
    assert_ne!(a.1, c.1, "another seed plays other playouts");
    let visits: u64 = a.1.iter().map(|m| m.visits).sum();
    assert_eq!(visits, 3_000, "every playout went through one root move");
}

#[test]
fn the_tree_is_kept_across_moves_and_bounded() {
    let mut g = Bits::new();
    let mut m = Mcts::new();
    let r = m.search(&mut g, &mut opts(5_000)).unwrap();
    let best = r.best_move.unwrap();
    let kept = r.root.iter().find(|s| s.mv == best).unwrap().visits;
    m.advance(best);
    g.play(best);
    let before = m.nodes();
    assert!(before > 1 && (before as u64) < r.nodes);
    // The next search starts from what the last one learnt about this position.
    let r2 = m.search(&mut g, &mut opts(5_000)).unwrap();
    let root_visits: u64 = r2.root.iter().map(|s| s.visits).sum();
    assert!(root_visits >= kept - 1 + 5_000 - 1, "{root_visits} {kept}");
    // A move the tree does not hold forgets it.
    m.advance(99);
    assert_eq!(m.nodes(), 0);
    // The bound: the tree stops growing, the search goes on and answers.
    let r = mcts(
        &mut Bits::new(),
        &mut MctsOptions {
            playouts: 5_000,
            max_nodes: 100,
            ..MctsOptions::default()
        },
    )
    .unwrap();
    assert!(r.tree_full && r.nodes <= 100 && r.playouts == 5_000);
    assert!(r.best_move.is_some());
}

#[test]
fn chance_nodes_are_sampled_and_the_best_move_is_expectimaxs() {
    // After each roll of the first turn, MCTS picks a move of the best expected value.
    let mut agree = 0;
    for roll in 1..=6 {
        let mut g = DiceDuel::new(4);
        g.play(roll);
        let mut values = Vec::new();
        for mv in [0, 1] {
            g.play(mv);
            let o = &mut Options {
                method: Method::Expectimax,
                ..Options::default()
            };
            values.push(search(&mut g, o).unwrap().expected.unwrap());
            g.undo(mv);
        }
        let r = mcts(
            &mut g,
            &mut MctsOptions {
                playouts: 20_000,
                reward: Reward::Scaled,
                ..MctsOptions::default()
            },
        )
        .unwrap();
        let chosen = values[r.best_move.unwrap() as usize];
        let best = values[0].max(values[1]);
        if let Some(p) = r.proven {
            // Proven through the chance nodes: the expected score (-10 to 10).
            assert!((-10.0 + 20.0 * p.reward - best).abs() < 1e-5, "roll {roll}");
        }
        agree += (chosen == best || (best - chosen).abs() < 0.05) as u32;
        assert_eq!(
            (g.turn, g.roll),
            (0, roll as i32),
            "the game is left as it was"
        );
    }
    assert!(agree >= 5, "{agree} of 6 rolls");
}

/// A game that misbehaves in one chosen way.
struct Bad {
    fault: u8,
    depth: u32,
}

impl Game for Bad {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.fault != 0 {
            out.extend([0, 1]);
        }
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.depth += 1;
    }
    fn undo(&mut self, _: Move) {
        self.depth -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        match self.fault {
            2 if self.depth == 3 => Some(i32::MIN),
            _ if self.depth == 3 => Some(1),
            _ => None,
        }
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn is_chance(&mut self) -> bool {
        self.fault == 3 && self.depth == 1
    }
}

#[test]
fn misbehaving_games_get_errors_and_are_left_as_found() {
    for (fault, error) in [
        (0, GameError::NoMovesNotOver),
        (2, GameError::ScoreOutOfRange),
        (3, GameError::NoOutcomes),
    ] {
        let mut g = Bad { fault, depth: 0 };
        assert_eq!(
            mcts(&mut g, &mut opts(100)).unwrap_err(),
            error,
            "fault {fault}"
        );
        assert_eq!(g.depth, 0, "fault {fault}: the game is back at its start");
    }
    let mut g = Bad { fault: 1, depth: 0 };
    let mut scaled = MctsOptions {
        reward: Reward::Scaled,
        ..opts(10)
    };
    assert_eq!(
        mcts(&mut g, &mut scaled).unwrap_err(),
        GameError::NeedsBounds
    );
    let mut chance_root = Bad { fault: 3, depth: 1 };
    assert_eq!(
        mcts(&mut chance_root, &mut opts(10)).unwrap_err(),
        GameError::ChanceRoot
    );
}

/// A needle: MAX picks one of 50 numbers; 37 wins at once, any other lets MIN choose a
/// win (0) or a draw (1). The game may give priors at the root: 0.9 on 37.
#[derive(Clone)]
struct Needle {
    picked: Option<Move>,
    answered: Option<Move>,
    priors: Option<[f64; 3]>, // (on 37, on the others, a weight to poison one move with)
}

impl Needle {
    fn new(priors: Option<[f64; 3]>) -> Self {
        Needle {
            picked: None,
            answered: None,
            priors,
        }
    }
}

impl Game for Needle {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.picked {
            None => out.extend(0..50),
            Some(_) => out.extend([0, 1]),
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        match self.picked {
            None => self.picked = Some(mv),
            Some(_) => self.answered = Some(mv),
        }
    }
    fn undo(&mut self, _: Move) {
        match self.answered {
            Some(_) => self.answered = None,
            None => self.picked = None,
        }
    }
    fn outcome(&mut self) -> Option<i32> {
        match (self.picked, self.answered) {
            (Some(37), _) => Some(1),
            (_, Some(0)) => Some(-1),
            (_, Some(_)) => Some(0),
            _ => None,
        }
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        let Some([needle, other, poison]) = self.priors.filter(|_| self.picked.is_none()) else {
            return false; // none below the root: UCT there
        };
        for (p, &mv) in out.iter_mut().zip(moves) {
            *p = if mv == 37 { needle } else { other };
        }
        out[0] = poison;
        true
    }
}

#[test]
fn priors_steer_the_search_by_puct() {
    let until_proven = || MctsOptions {
        playouts: 0,
        ..MctsOptions::default()
    };
    // Without priors, UCT adds the root's moves in their order: the needle, 37, is
    // found with the 38th playout.
    let r = mcts(&mut Needle::new(None), &mut until_proven()).unwrap();
    assert_eq!((r.best_move, r.playouts), (Some(37), 38));
    assert_eq!(
        (r.nodes, r.depth),
        (39, 1),
        "the root and its first 38 moves"
    );
    assert_eq!(r.proven.map(|p| p.reward), Some(1.0));
    // A prior of 0.9 on it: PUCT tries it first, and the proof takes one playout.
    let priors = Some([0.9, 0.1 / 49.0, 0.1 / 49.0]);
    let r = mcts(&mut Needle::new(priors), &mut until_proven()).unwrap();
    assert_eq!((r.best_move, r.playouts), (Some(37), 1));
    // The same on two threads.
    let mut g = Needle::new(priors);
    let mut o = MctsOptions {
        threads: 2,
        ..until_proven()
    };
    let r = Mcts::new().search_parallel(&mut g, &mut o).unwrap();
    assert_eq!(r.best_move, Some(37));
    assert!(r.proven.is_some() && r.playouts <= 2, "{}", r.playouts);
    // Weights are scaled: 9 and 1 are 0.9 and 0.1; a poor prior only delays the proof.
    let r = mcts(&mut Needle::new(Some([9.0, 1.0, 1.0])), &mut until_proven()).unwrap();
    assert_eq!(r.playouts, 1);
    let r = mcts(&mut Needle::new(Some([0.0, 1.0, 1.0])), &mut until_proven()).unwrap();
    assert_eq!(r.best_move, Some(37));
    assert!(
        r.playouts > 38,
        "a zero prior puts the needle last: {}",
        r.playouts
    );
    // Priors that are not weights are the game's error, with a status of their own
    // (not the chance weights', whose message names a chance node).
    for poison in [-1.0, f64::NAN, f64::INFINITY] {
        let mut g = Needle::new(Some([0.5, 0.5, poison]));
        let e = mcts(&mut g, &mut until_proven()).unwrap_err();
        assert_eq!(e, GameError::BadPriors);
        assert_eq!((g.picked, g.answered), (None, None), "left as found");
    }
    let mut g = Needle::new(Some([0.0, 0.0, 0.0]));
    assert_eq!(
        mcts(&mut g, &mut until_proven()).unwrap_err(),
        GameError::BadPriors
    );
}

/// A game without a hash: `moves` a ply, over after two plies (a draw).
struct Plain {
    moves: [Move; 2],
    ply: u32,
}

impl Game for Plain {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(self.moves);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.ply += 1;
    }
    fn undo(&mut self, _: Move) {
        self.ply -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.ply == 2).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
}

#[test]
fn a_kept_tree_searched_on_another_game_is_cleared() {
    // Issue 40: with no hash to tell the roots apart, the tree of one game answered for
    // another with a move that game does not have. The root's moves are now checked.
    let mut m = Mcts::new();
    let mut first = Plain {
        moves: [0, 1],
        ply: 0,
    };
    m.search(&mut first, &mut opts(100)).unwrap();
    let stop = std::sync::atomic::AtomicI32::new(1);
    let mut other = Plain {
        moves: [100, 200],
        ply: 0,
    };
    let o = &mut MctsOptions {
        playouts: 0,
        stop: Some(&stop),
        ..MctsOptions::default()
    };
    let r = m.search(&mut other, o).unwrap();
    assert!(
        [100, 200].contains(&r.best_move.unwrap()),
        "{:?}",
        r.best_move
    );
    assert!(r.root.iter().all(|s| s.mv >= 100), "{:?}", r.root);
}
