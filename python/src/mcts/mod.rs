//! `Mcts`: Monte Carlo tree search that keeps its tree between moves.

use std::sync::atomic::AtomicI32;

use minimax::search::Game;
use minimax::search::maxn_mcts::MaxnMcts;
use minimax::search::mcts::{Mcts as Tree, Reward};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::cgame::{self, CTree};
use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{self, MctsArgs};
use crate::pygame::{PyGame, optional};
use crate::results::MctsResult;

/// Monte Carlo tree search (UCT, or PUCT with a game's `priors()`), with a solver that
/// proves wins and losses, keeping its tree between searches: after a move is played,
/// `advance(move)` keeps what the search learnt below it.
#[pyclass(module = "libminimax")]
pub struct Mcts {
    tree: Tree,
    /// The tree for games of more than two players (max^n backups).
    players: MaxnMcts,
    /// The tree for games written in C (the library's `mm_mcts`), made on first use.
    c_tree: Option<CTree>,
    map: MoveMap,
    /// The options the object was made with; each search sets its limits and threads.
    args: MctsArgs,
    /// Whether `advance` was called since the last search: the root is then known to be
    /// the game's position even where the game has no hash.
    advanced: bool,
}

#[pymethods]
impl Mcts {
    /// `reward` is "sign" (a win 1, a draw 0.5, a loss 0; a cut-off playout's
    /// evaluation `e` gives `1 / (1 + exp(-e / eval_scale))`) or "scaled" (scores
    /// scaled into [0, 1] by the game's `bounds()`). `playout_depth` 0 plays to the end.
    #[new]
    #[pyo3(signature = (
        *, exploration = std::f64::consts::SQRT_2, reward = "sign", eval_scale = 1.0,
        playout_depth = 0, max_nodes = 1 << 22, seed = 0x5EED, open_loop = false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        exploration: f64,
        reward: &str,
        eval_scale: f64,
        playout_depth: u32,
        max_nodes: usize,
        seed: u64,
        open_loop: bool,
    ) -> PyResult<Self> {
        if !(exploration >= 0.0 && exploration.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "exploration={exploration} is not a finite number at least 0"
            )));
        }
        let reward = match reward {
            "sign" if eval_scale > 0.0 && eval_scale.is_finite() => {
                Reward::Sign { scale: eval_scale }
            }
            "sign" => {
                return Err(PyValueError::new_err(format!(
                    "eval_scale={eval_scale} is not a finite number above 0"
                )));
            }
            "scaled" => Reward::Scaled,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "reward='{reward}' is not 'sign' or 'scaled'"
                )));
            }
        };
        Ok(Mcts {
            tree: Tree::new(),
            players: MaxnMcts::new(),
            c_tree: None,
            map: MoveMap::default(),
            advanced: false,
            args: MctsArgs {
                playouts: 0,
                time: None,
                threads: 1,
                max_at_root: true,
                exploration,
                reward,
                playout_depth,
                max_nodes,
                seed,
                open_loop,
            },
        })
    }

    /// Searches `game` from its position, which must be the tree's root: the last
    /// search's position with the moves given to `advance` since (else the tree is
    /// cleared when the root does not match). Stops after `playouts` (default 10,000
    /// when no `time` is given) or `time` seconds. `threads` applies to native games.
    #[pyo3(signature = (game, playouts = None, time = None, threads = 1, max_at_root = true))]
    fn search(
        &mut self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        playouts: Option<u64>,
        time: Option<f64>,
        threads: i64,
        max_at_root: bool,
    ) -> PyResult<MctsResult> {
        let time_limit = options::seconds(time)?;
        let playouts = match (playouts, time_limit) {
            (Some(0), _) => {
                return Err(PyValueError::new_err(
                    "playouts=0: a playout limit is at least 1 (None for none)",
                ));
            }
            (Some(p), _) => p,
            (None, None) => 10_000,
            (None, Some(_)) => 0,
        };
        let threads = options::thread_count(threads)?;
        let args = MctsArgs {
            playouts,
            time: time_limit,
            threads,
            max_at_root,
            ..self.args
        };
        if let Some(result) = games::mcts(game, &mut self.tree, &mut self.players, &args)? {
            return Ok(result);
        }
        if let Some(result) = cgame::mcts(game, &mut self.c_tree, &args)? {
            return MctsResult::new(py, &self.map, result);
        }
        let stop = AtomicI32::new(0);
        let _running = Running::start(py, &stop);
        let deferred = Deferred::install(py)?;
        let advanced = std::mem::replace(&mut self.advanced, false);
        if !advanced && !has_hash(game)? {
            // Nothing says the position is the tree's root: a tree kept from another
            // position would answer for that one.
            self.tree.clear();
            self.players.clear();
        }
        if self.tree.nodes() == 0 && self.players.nodes() == 0 {
            // A tree started afresh needs none of the moves the map holds.
            self.map = MoveMap::default();
        }
        let view = minimax::search::ScoreView::Max;
        let mut adapter = PyGame::new(game, view, &mut self.map, &stop, deferred.active())?;
        let players = adapter.players();
        if players > 2 && !adapter.failed() {
            // More than two players: max^n backups, on the calling thread.
            let mover = adapter.player_to_move();
            let mut opts = args.player_options(&stop);
            opts.threads = 1;
            let result = self.players.search(&mut adapter, &opts);
            let unevaluated = adapter.unevaluated;
            let result = adapter.finish(result)?;
            if unevaluated {
                self.players.clear();
                return Err(no_evaluate());
            }
            return MctsResult::of_players(py, &self.map, result, mover);
        }
        if adapter.failed() {
            return Err(adapter.finish(Ok(())).expect_err("a method failed"));
        }
        let result = self.tree.search(&mut adapter, &mut args.options(&stop));
        let unevaluated = adapter.unevaluated;
        let result = adapter.finish(result)?;
        if unevaluated {
            self.tree.clear();
            return Err(no_evaluate());
        }
        MctsResult::new(py, &self.map, result)
    }

    /// Keeps the subtree of `move`, just played from the root; a move the tree does not
    /// hold clears it.
    fn advance(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.map.number(r#move)?;
        self.tree.advance(n);
        self.players.advance(n);
        self.advanced = true;
        if let Some(c) = &mut self.c_tree {
            c.advance(n);
        }
        Ok(())
    }

    /// Forgets the tree, and the move objects it held.
    fn clear(&mut self) {
        self.tree.clear();
        self.players.clear();
        self.map = MoveMap::default();
        self.advanced = false;
        if let Some(c) = &mut self.c_tree {
            c.clear();
        }
    }

    /// Nodes in the tree (of Rust and Python games; a C game's tree is the library's
    /// `mm_mcts`, whose count each result gives).
    #[getter]
    fn nodes(&self) -> usize {
        self.tree.nodes() + self.players.nodes()
    }
}

/// Playouts cut off where the game has no `evaluate()`: a `TypeError`.
fn no_evaluate() -> PyErr {
    PyTypeError::new_err(
        "playouts stopped at playout_depth and scored positions there, but the game has no \
         evaluate(): give it one, or play playouts to the end (playout_depth=0)",
    )
}

/// Whether a Python game gives a hash of this position (`hash()` there and not `None`).
fn has_hash(game: &Bound<'_, PyAny>) -> PyResult<bool> {
    match optional(game, "hash")? {
        Some(f) => Ok(!f.call0()?.is_none()),
        None => Ok(false),
    }
}
