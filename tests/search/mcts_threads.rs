//! MCTS on threads (issue 21): the shared tree gives the same proofs as one thread (the
//! tic-tac-toe draw, Connect Four end games whose results the exact solver gives), the
//! playout limit holds exactly for the whole search, the tree is kept across moves, and a
//! search on fewer threads says why. `make tsan` runs these under ThreadSanitizer.

use crate::shared::games;

use games::{Bits, ConnectFour, NoCopy, TicTacToe};
use minimax::search::mcts::{Mcts, MctsOptions, Reward};
use minimax::search::{FewerThreads, Game, GameError, Move};

fn threads(n: usize, playouts: u64) -> MctsOptions<'static> {
    MctsOptions {
        playouts,
        threads: n,
        ..MctsOptions::default()
    }
}

#[test]
fn two_threads_prove_tic_tac_toe_a_draw() {
    let mut g = TicTacToe::new();
    let r = Mcts::new()
        .search_parallel(&mut g, &mut threads(2, 0))
        .unwrap();
    assert_eq!(r.threads, 2);
    assert_eq!(r.fewer_threads, None);
    let proof = r.proven.expect("proven");
    assert_eq!((proof.reward, proof.score), (0.5, Some(0)));
    assert_eq!(g.cells, [0; 9], "the caller's game is left as it was");
    // A game of nine plies: the tree is as deep as nine moves at most.
    assert!((2..=9).contains(&r.depth), "{}", r.depth);
    // Every proven root move agrees with the engine.
    games::tic_tac_toe_proofs_agree(&r.root);
}

#[test]
fn two_threads_prove_end_games_as_the_exact_solver_values_them() {
    for (moves, exact) in games::valued_positions(20, 28, 28, 0x5EED) {
        // Win, draw or loss, for the side to move (the engine's value is MAX's, the
        // first player's).
        let mut g = Bits::from_moves(&moves).unwrap();
        let r = Mcts::new()
            .search_parallel(&mut g, &mut threads(2, 0))
            .unwrap();
        let proof = r.proven.unwrap_or_else(|| panic!("{moves}: not proven"));
        let side = if moves.len() % 2 == 0 { exact } else { -exact };
        assert_eq!(proof.reward, 0.5 + 0.5 * side.signum() as f64, "{moves}");
        // The exact score, with scaled rewards.
        let mut g = ConnectFour::from_moves(&moves).unwrap();
        let mut o = MctsOptions {
            reward: Reward::Scaled,
            max_nodes: 2_000_000,
            ..threads(2, 0)
        };
        let r = Mcts::new().search_parallel(&mut g, &mut o).unwrap();
        let proof = r.proven.unwrap_or_else(|| panic!("{moves}: not proven"));
        assert_eq!(proof.score, Some(exact), "{moves}");
    }
}

#[test]
fn the_playout_limit_holds_for_the_whole_search_and_the_tree_is_kept() {
    let mut g = Bits::new();
    let mut m = Mcts::new();
    let r = m.search_parallel(&mut g, &mut threads(2, 20_000)).unwrap();
    assert_eq!((r.threads, r.playouts), (2, 20_000));
    let visits: u64 = r.root.iter().map(|s| s.visits).sum();
    assert_eq!(visits, 20_000, "every playout went through one root move");
    assert_eq!(r.nodes as usize, m.nodes());
    assert!(r.nodes <= 20_001, "at most a node a playout");
    assert!(!r.tree_full, "room for every playout's node");
    // The kept subtree is searched on: one thread, then two again.
    let best = r.best_move.unwrap();
    let kept = r.root.iter().find(|s| s.mv == best).unwrap().visits;
    m.advance(best);
    g.play(best);
    let r1 = m.search(&mut g, &mut threads(1, 1_000)).unwrap();
    let r2 = m.search_parallel(&mut g, &mut threads(2, 1_000)).unwrap();
    let visits: u64 = r2.root.iter().map(|s| s.visits).sum();
    assert!(visits + 2 >= kept + 2_000, "{visits} {kept}");
    assert!(r2.nodes > r1.nodes);
    // The memory bound holds on threads too.
    let r = Mcts::new()
        .search_parallel(
            &mut Bits::new(),
            &mut MctsOptions {
                max_nodes: 300,
                ..threads(2, 5_000)
            },
        )
        .unwrap();
    assert!(r.tree_full && r.nodes <= 300 && r.playouts == 5_000);
}

#[test]
fn fewer_threads_say_why() {
    // `search` runs on one thread.
    let r = Mcts::new()
        .search(&mut Bits::new(), &mut threads(2, 100))
        .unwrap();
    assert_eq!(
        (r.threads, r.fewer_threads),
        (1, Some(FewerThreads::NotParallel))
    );
    // A game that gives no copy of itself.
    let r = Mcts::new()
        .search_parallel(&mut NoCopy(Bits::new()), &mut threads(2, 100))
        .unwrap();
    assert_eq!(
        (r.threads, r.fewer_threads),
        (1, Some(FewerThreads::NoCopy))
    );
    assert_eq!(r.playouts, 100);
}

#[test]
fn an_error_on_any_thread_is_reported_and_the_game_left_as_found() {
    // Every copy fails after some moves; the caller's game is left as it was.
    let mut g = Failing {
        inner: Bits::new(),
        fail_after: 3_000,
        calls: 0,
    };
    let before = (g.inner.me, g.inner.mask, g.inner.stones);
    let mut m = Mcts::new();
    let e = m
        .search_parallel(&mut g, &mut threads(2, 100_000))
        .unwrap_err();
    assert_eq!(e, GameError::NoMovesNotOver);
    assert_eq!((g.inner.me, g.inner.mask, g.inner.stones), before);
    assert_eq!(m.nodes(), 0, "a failed search on threads clears the tree");
}

/// A game whose `moves` gives nothing after `fail_after` calls (on each copy).
#[derive(Clone)]
struct Failing {
    inner: Bits,
    fail_after: u64,
    calls: u64,
}

impl Game for Failing {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.calls += 1;
        if self.calls > self.fail_after {
            return Ok(());
        }
        self.inner.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.inner.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.inner.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.inner.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.inner.max_to_move()
    }
}
