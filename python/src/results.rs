//! The answers, as immutable Python objects whose moves are the game's own objects.

use minimax::search::ismcts::IsmctsResult;
use minimax::search::maxn::MaxnResult;
use minimax::search::maxn_mcts::MaxnMctsResult as PlayersMcts;
use minimax::search::mcts::MctsResult as RustMcts;
use minimax::search::pimc::PimcResult as RustPimc;
use minimax::search::{ANY_OUTCOME, FewerThreads, Move, SearchResult as RustResult};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::moves::MoveMap;

/// What a search found. Values are in MAX's view (the first player's, or whoever
/// `max_to_move()` says is MAX), whatever view the game scores in.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct SearchResult {
    /// The move to play; `None` if the game is over (or the root is a chance position).
    pub best_move: Py<PyAny>,
    /// The value, in MAX's view (a chance search's expectation, rounded).
    pub value: i32,
    /// A chance search's expected value; `None` for the other methods.
    pub expected: Option<f64>,
    /// Whether `value` is exact at `depth` (else a bound, or no iteration finished).
    pub exact: bool,
    /// Whether `value` is the game's true value.
    pub proven: bool,
    /// For a proven value, the plies to the end along `pv`.
    pub plies_to_end: Option<u32>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// The principal variation, `best_move` first (`None` for a chance step).
    pub pv: Py<PyTuple>,
    /// Positions visited.
    pub nodes: u64,
    /// Positions scored (final or at the depth limit).
    pub leaves: u64,
    /// Wall time of the call, in seconds.
    pub elapsed: f64,
    /// Threads that searched.
    pub threads: usize,
    /// Why fewer threads searched than asked for, or `None`.
    pub fewer_threads: Option<&'static str>,
    /// max^n's scores, one a player (`value` is the first mover's; where chance steps
    /// average them, rounded); `None` for the other methods.
    pub scores: Option<Py<PyTuple>>,
    /// max^n's values, one a player: `scores` as floats, or their expectation over
    /// chance steps; `None` for the other methods.
    pub values: Option<Py<PyTuple>>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "SearchResult(best_move={}, value={}, depth={}, proven={}, nodes={}, pv={})",
            self.best_move.bind(py).repr()?,
            self.value,
            self.depth,
            if self.proven { "True" } else { "False" },
            self.nodes,
            self.pv.bind(py).repr()?
        ))
    }
}

/// Why a search ran on fewer threads, in a few words (`NotParallel` comes only of a
/// Python game, which is searched by the one-thread functions).
pub fn fewer(why: Option<FewerThreads>) -> Option<&'static str> {
    Some(match why? {
        FewerThreads::NotParallel => "a Python game is searched on the calling thread",
        FewerThreads::Minimax => "plain minimax runs on one thread",
        FewerThreads::ChanceMethod => "the chance methods run on one thread",
        FewerThreads::NoHash => "the game has no hash(), which threads share work by",
        FewerThreads::NoTable => "no table (table_mb too small, or no memory for it)",
        FewerThreads::NoCopy => "the game gave no copy of itself",
        FewerThreads::NoSystemThread => "the system would not start another thread",
        _ => "memory for another thread could not be had",
    })
}

/// A move as the game's object; `None` for none.
fn object(py: Python<'_>, map: &MoveMap, mv: Option<Move>) -> PyResult<Py<PyAny>> {
    Ok(match mv {
        Some(m) if m != ANY_OUTCOME => map.object(py, m)?.unbind(),
        _ => py.None(),
    })
}

impl SearchResult {
    pub fn new(py: Python<'_>, map: &MoveMap, r: RustResult) -> PyResult<Self> {
        let pv =
            r.pv.iter()
                .map(|&m| object(py, map, Some(m)))
                .collect::<PyResult<Vec<_>>>()?;
        Ok(SearchResult {
            best_move: object(py, map, r.best_move)?,
            value: r.value,
            expected: r.expected,
            exact: r.exact,
            proven: r.proven,
            plies_to_end: r.plies_to_end,
            depth: r.depth,
            pv: PyTuple::new(py, pv)?.unbind(),
            nodes: r.stats.nodes,
            leaves: r.stats.leaves,
            elapsed: r.stats.elapsed.as_secs_f64(),
            threads: r.threads,
            fewer_threads: fewer(r.fewer_threads),
            scores: None,
            values: None,
        })
    }

    /// A max^n search's answer: `value` is the score of the player to move at the root.
    pub fn of_maxn(py: Python<'_>, map: &MoveMap, r: MaxnResult, mover: usize) -> PyResult<Self> {
        let pv =
            r.pv.iter()
                .map(|&m| object(py, map, Some(m)))
                .collect::<PyResult<Vec<_>>>()?;
        Ok(SearchResult {
            best_move: object(py, map, r.best_move)?,
            value: r.scores.get(mover).copied().unwrap_or(0),
            expected: None,
            exact: r.exact,
            proven: r.proven,
            plies_to_end: r.proven.then_some(r.pv.len() as u32),
            depth: r.depth,
            pv: PyTuple::new(py, pv)?.unbind(),
            nodes: r.nodes,
            leaves: r.leaves,
            elapsed: r.elapsed.as_secs_f64(),
            threads: 1,
            fewer_threads: None,
            scores: Some(PyTuple::new(py, &r.scores)?.unbind()),
            values: Some(PyTuple::new(py, &r.values)?.unbind()),
        })
    }
}

/// What MCTS knows of one move at the root.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct MoveStats {
    /// The move.
    #[pyo3(name = "move")]
    pub mv: Py<PyAny>,
    /// How often the search chose it.
    pub visits: u64,
    /// Its mean reward for the side to move at the root, in [0, 1].
    pub mean: f64,
    /// Its proven reward for the side to move at the root, or `None`.
    pub proven: Option<f64>,
    /// In a game of more than two players, each player's mean reward after it (else
    /// `None`).
    pub means: Option<Py<PyTuple>>,
}

#[pymethods]
impl MoveStats {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "MoveStats(move={}, visits={}, mean={:.4})",
            self.mv.bind(py).repr()?,
            self.visits,
            self.mean
        ))
    }
}

/// What an MCTS search found. Rewards are for the side to move at the root: 1 a win, 0.5
/// a draw, 0 a loss.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct MctsResult {
    /// A proven win if there is one, else the most visited move.
    pub best_move: Py<PyAny>,
    /// The best move's mean (or proven) reward.
    pub value: f64,
    /// Whether the root's value is proven.
    pub proven: bool,
    /// The proven reward of best play, or `None`.
    pub proven_reward: Option<f64>,
    /// The proven exact score in MAX's view, where the proof gives one.
    pub proven_score: Option<i32>,
    /// Every root move the tree holds, in the game's order.
    pub root: Py<PyTuple>,
    /// Playouts in this search.
    pub playouts: u64,
    /// Nodes in the tree.
    pub nodes: u64,
    /// The deepest tree node below the root.
    pub depth: u32,
    /// Seconds the search took.
    pub elapsed: f64,
    /// Threads that searched.
    pub threads: usize,
    /// Why fewer threads searched than asked for, or `None`.
    pub fewer_threads: Option<&'static str>,
    /// Whether the tree reached its node limit.
    pub tree_full: bool,
    /// In a game of more than two players, each player's mean (or proven) reward after
    /// the best move (else `None`).
    pub values: Option<Py<PyTuple>>,
    /// In a game of more than two players, each player's proven reward at the root, if
    /// proven (else `None`).
    pub proven_rewards: Option<Py<PyTuple>>,
}

#[pymethods]
impl MctsResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "MctsResult(best_move={}, value={:.4}, proven={}, playouts={}, nodes={})",
            self.best_move.bind(py).repr()?,
            self.value,
            if self.proven { "True" } else { "False" },
            self.playouts,
            self.nodes
        ))
    }
}

impl MctsResult {
    pub fn new(py: Python<'_>, map: &MoveMap, r: RustMcts) -> PyResult<Self> {
        let root = r
            .root
            .iter()
            .map(|s| {
                Py::new(
                    py,
                    MoveStats {
                        mv: object(py, map, Some(s.mv))?,
                        visits: s.visits,
                        mean: s.mean,
                        proven: s.proven,
                        means: None,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(MctsResult {
            best_move: object(py, map, r.best_move)?,
            value: r.value,
            proven: r.proven.is_some(),
            proven_reward: r.proven.map(|p| p.reward),
            proven_score: r.proven.and_then(|p| p.score),
            root: PyTuple::new(py, root)?.unbind(),
            playouts: r.playouts,
            nodes: r.nodes,
            depth: r.depth,
            elapsed: r.elapsed.as_secs_f64(),
            threads: r.threads,
            fewer_threads: fewer(r.fewer_threads),
            tree_full: r.tree_full,
            values: None,
            proven_rewards: None,
        })
    }

    /// The result of an ISMCTS search: rewards are the root mover's.
    pub fn of_ismcts(py: Python<'_>, map: &MoveMap, r: IsmctsResult) -> PyResult<Self> {
        let mut value = 0.0;
        let root = r
            .root
            .iter()
            .map(|s| {
                if Some(s.mv) == r.best_move {
                    value = s.mean;
                }
                Py::new(
                    py,
                    MoveStats {
                        mv: object(py, map, Some(s.mv))?,
                        visits: s.visits,
                        mean: s.mean,
                        proven: None,
                        means: None,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(MctsResult {
            best_move: object(py, map, r.best_move)?,
            value,
            proven: false,
            proven_reward: None,
            proven_score: None,
            root: PyTuple::new(py, root)?.unbind(),
            playouts: r.iterations,
            nodes: r.nodes as u64,
            depth: 0,
            elapsed: r.elapsed.as_secs_f64(),
            threads: 1,
            fewer_threads: None,
            tree_full: false,
            values: None,
            proven_rewards: None,
        })
    }

    /// The result of an n-player search whose root's mover is `mover`: rewards for it
    /// where a two-player result has the side to move's, and every player's beside them.
    pub fn of_players(
        py: Python<'_>,
        map: &MoveMap,
        r: PlayersMcts,
        mover: usize,
    ) -> PyResult<Self> {
        let mine = |v: &[f64]| v.get(mover).copied().unwrap_or(0.0);
        let root = r
            .root
            .iter()
            .map(|s| {
                Py::new(
                    py,
                    MoveStats {
                        mv: object(py, map, Some(s.mv))?,
                        visits: s.visits,
                        mean: mine(&s.means),
                        proven: s.proven.as_deref().map(mine),
                        means: Some(PyTuple::new(py, &s.means)?.unbind()),
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        let proven_rewards = match &r.proven {
            Some(p) => Some(PyTuple::new(py, p)?.unbind()),
            None => None,
        };
        Ok(MctsResult {
            best_move: object(py, map, r.best_move)?,
            value: mine(&r.values),
            proven: r.proven.is_some(),
            proven_reward: r.proven.as_deref().map(mine),
            proven_score: None,
            root: PyTuple::new(py, root)?.unbind(),
            playouts: r.playouts,
            nodes: r.nodes,
            depth: 0,
            elapsed: r.elapsed.as_secs_f64(),
            threads: r.threads,
            fewer_threads: fewer(r.fewer_threads),
            tree_full: r.tree_full,
            values: Some(PyTuple::new(py, &r.values)?.unbind()),
            proven_rewards,
        })
    }
}

/// A root move's figures over PIMC's samples.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct PimcMove {
    /// The move.
    #[pyo3(name = "move")]
    pub mv: Py<PyAny>,
    /// Its mean value over the samples, in MAX's view.
    pub mean: f64,
    /// The samples in which it was best (a tie's vote split).
    pub votes: f64,
}

#[pymethods]
impl PimcMove {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "PimcMove(move={}, mean={:.4}, votes={})",
            self.mv.bind(py).repr()?,
            self.mean,
            self.votes
        ))
    }
}

/// What PIMC found: values in MAX's view, as the search of each sample gave them.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct PimcResult {
    /// The move to play; `None` if the game is over.
    pub best_move: Py<PyAny>,
    /// `best_move`'s mean value over the samples.
    pub value: f64,
    /// Every root move, in the game's order.
    pub root: Py<PyTuple>,
    /// Samples searched.
    pub samples: usize,
    /// Whether every search was exact (each child's value proven).
    pub proven: bool,
    /// Positions visited, over every search.
    pub nodes: u64,
    /// Wall time of the call, in seconds.
    pub elapsed: f64,
}

#[pymethods]
impl PimcResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "PimcResult(best_move={}, value={:.4}, samples={}, proven={})",
            self.best_move.bind(py).repr()?,
            self.value,
            self.samples,
            if self.proven { "True" } else { "False" },
        ))
    }
}

impl PimcResult {
    pub fn new(py: Python<'_>, map: &MoveMap, r: RustPimc) -> PyResult<Self> {
        let mut value = 0.0;
        let root = r
            .moves
            .iter()
            .map(|m| {
                if Some(m.mv) == r.best_move {
                    value = m.mean;
                }
                Py::new(
                    py,
                    PimcMove {
                        mv: object(py, map, Some(m.mv))?,
                        mean: m.mean,
                        votes: m.votes,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PimcResult {
            best_move: object(py, map, r.best_move)?,
            value,
            root: PyTuple::new(py, root)?.unbind(),
            samples: r.samples,
            proven: r.proven,
            nodes: r.nodes,
            elapsed: r.elapsed.as_secs_f64(),
        })
    }
}
