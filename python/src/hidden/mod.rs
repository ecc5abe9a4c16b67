//! `ismcts(game, ...)` and `pimc(game, ...)`: information-set MCTS and perfect-information
//! Monte Carlo over a Python game with hidden information, whose `sample(rng)` returns a
//! position consistent with what the player to move has seen (a new game object; `rng`
//! is a `random.Random` seeded by the search). Each iteration or sample plays on its own
//! object, so the game itself is never played on.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use minimax::search::ismcts::{Ismcts, IsmctsOptions, IsmctsResult};
use minimax::search::maxn_mcts::PlayerReward;
use minimax::search::pimc::{Combine, Pimc, Valued, sample_seed};
use minimax::search::{Game, ScoreView};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::from_status;
use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{self, SearchArgs};
use crate::pygame::{PyGame, optional};
use crate::results::{MctsResult, PimcResult};

/// The rewards `ismcts()` takes, by name.
pub fn reward(name: &str) -> PyResult<PlayerReward> {
    match name {
        "win" => Ok(PlayerReward::Win),
        "scaled" => Ok(PlayerReward::Scaled),
        _ => Err(PyValueError::new_err(format!(
            "reward='{name}' is not 'win' (the top score shares 1) or 'scaled' (scores \
             scaled into [0, 1] by player_bounds())"
        ))),
    }
}

/// Single-observer information-set MCTS (Cowling, Powley and Whitehouse) from the view of
/// the player to move in `game`, for 2 to 8 players: `iterations` (default 10,000 when
/// no `time` is given) or `time` seconds, each on a sample the game draws; the most
/// visited move is the answer. Rewards are the root mover's, in [0, 1]. `multi_observer`:
/// a tree a player, each seeing moves as the game's `observed_move(m, player)` shows
/// them (MO-ISMCTS, for games where players do not see every move).
#[pyfunction]
#[pyo3(signature = (
    game, iterations = None, time = None, *, exploration = 0.7, reward = "win", seed = 0,
    max_nodes = 1 << 20, multi_observer = false
))]
#[allow(clippy::too_many_arguments)]
pub fn ismcts(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    iterations: Option<u64>,
    time: Option<f64>,
    exploration: f64,
    reward: &str,
    seed: u64,
    max_nodes: usize,
    multi_observer: bool,
) -> PyResult<MctsResult> {
    let time_limit = options::seconds(time)?;
    let iterations = match (iterations, time_limit) {
        (Some(0), _) => {
            return Err(PyValueError::new_err(
                "iterations=0: an iteration limit is at least 1 (None for none)",
            ));
        }
        (Some(n), _) => n,
        (None, None) => 10_000,
        (None, Some(_)) => 0,
    };
    if !(exploration >= 0.0 && exploration.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "exploration={exploration} is not a finite number at least 0"
        )));
    }
    let opts = IsmctsOptions {
        iterations,
        time_limit,
        exploration,
        reward: self::reward(reward)?,
        seed,
        max_nodes: max_nodes.max(1),
        multi_observer,
    };
    if let Some(r) = games::ismcts(py, game, &opts)? {
        return Ok(r);
    }
    let sample = sampler(game, "ismcts")?;
    if multi_observer && optional(game, "observed_move")?.is_none() {
        return Err(PyTypeError::new_err(
            "multi_observer=True needs the game's observed_move(move, player): how each \
             player sees a move (without it every player would see every move, which is \
             single-observer ISMCTS)",
        ));
    }
    let rng = py.import("random")?.getattr("Random")?.call1((seed,))?;
    let stop = AtomicI32::new(0);
    let _running = Running::start(py, &stop);
    let deferred = Deferred::install(py)?;
    let mut map = MoveMap::default();
    let view = ScoreView::Max;
    let mut root = PyGame::new(game, view, &mut map, &stop, deferred.active())?;
    let run = Ismcts::new(&mut root, &opts);
    let mut run = root.finish(run)?;
    while run.running() && stop.load(Relaxed) == 0 {
        let obj = draw(game, &sample, &rng, run.sample_seed())?;
        let mut g = PyGame::new(&obj, view, &mut map, &stop, deferred.active())?;
        let r = run.iterate(&mut g);
        g.finish(r)?;
    }
    let mut root = PyGame::new(game, view, &mut map, &stop, deferred.active())?;
    let r = run.result(&mut root);
    let r: IsmctsResult = root.finish(r)?;
    MctsResult::of_ismcts(py, &map, r)
}

/// The game's `sample` method, which `search` needs (a game without it is
/// `NoSampleError`, as the library's status for a game that cannot sample).
fn sampler<'py>(game: &Bound<'py, PyAny>, search: &str) -> PyResult<Bound<'py, PyAny>> {
    optional(game, "sample")?.ok_or_else(|| {
        crate::errors::NoSampleError::new_err(format!(
            "{search}() needs a game with sample(rng), which returns a position consistent \
             with what the player to move has seen; this game has no sample()"
        ))
    })
}

/// A sample drawn with `rng` seeded by `seed`: a new game (never `game` itself, which the
/// search would play on).
fn draw<'py>(
    game: &Bound<'py, PyAny>,
    sample: &Bound<'py, PyAny>,
    rng: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    rng.call_method1("seed", (seed,))?;
    let obj = sample.call1((rng,))?;
    if obj.is(game) {
        return Err(PyValueError::new_err(
            "sample(rng) returned the game itself: it returns a new game, which the \
             search plays on",
        ));
    }
    Ok(obj)
}

/// Perfect-information Monte Carlo (Levy; Ginsberg's GIB) over a two-player Python game
/// with hidden information: `samples` positions drawn by the game's `sample(rng)`, in
/// each every root move searched as if nothing were hidden (the engine's `method`, to
/// `depth` or `nodes` a search, as `search()` takes them), the move chosen by its mean
/// value over the samples (`combine="mean"`) or by the samples that rank it first
/// (`"votes"`). Values are in MAX's view.
#[pyfunction]
#[pyo3(signature = (
    game, samples = 20, depth = None, *, method = "alphabeta", nodes = None,
    combine = "mean", seed = 0, max_at_root = true, table_mb = 16.0
))]
#[allow(clippy::too_many_arguments)]
pub fn pimc(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    samples: usize,
    depth: Option<i64>,
    method: &str,
    nodes: Option<&Bound<'_, PyAny>>,
    combine: &str,
    seed: u64,
    max_at_root: bool,
    table_mb: f64,
) -> PyResult<PimcResult> {
    if samples == 0 {
        return Err(PyValueError::new_err(
            "samples=0: PIMC draws at least 1 sample",
        ));
    }
    let depth = match depth {
        None => None,
        Some(d) if d >= 0 => Some(u32::try_from(d).unwrap_or(u32::MAX)),
        Some(d) => return Err(PyValueError::new_err(format!("depth={d} is negative"))),
    };
    let combine = match combine {
        "mean" => Combine::Mean,
        "votes" => Combine::Votes,
        _ => {
            return Err(PyValueError::new_err(format!(
                "combine='{combine}' is not 'mean' (the best mean value) or 'votes' (the \
                 most samples in which the move is best)"
            )));
        }
    };
    let nodes = options::node_limit(nodes)?;
    let args = SearchArgs {
        method: options::method(method)?,
        depth,
        time: None,
        nodes,
        threads: 1,
        table_bytes: options::table_bytes(table_mb)?,
        view: ScoreView::Max,
        max_at_root,
        killers: true,
        history: false,
        lmr: false,
        aspiration: false,
        time_management: false,
        quiescence: false,
        null_move: false,
        refine_distance: true,
        deepening: depth.is_none() || nodes != 0,
        probcut: None,
        etc: false,
        iid: false,
    };
    let sample = sampler(game, "pimc")?;
    let rng = py.import("random")?.getattr("Random")?.call1((seed,))?;
    let stop = AtomicI32::new(0);
    let _running = Running::start(py, &stop);
    let deferred = Deferred::install(py)?;
    let mut map = MoveMap::default();
    let mut root = PyGame::new(game, args.view, &mut map, &stop, deferred.active())?;
    let players = root.players();
    if players != 2 {
        root.finish(Ok(()))?;
        return Err(PyTypeError::new_err(format!(
            "pimc() searches games of two players; this one has {players}: search a game \
             of more players with hidden information by ismcts()"
        )));
    }
    let run = Pimc::new(&mut root, max_at_root);
    let mut run = root.finish(run)?;
    // Each child searched as `search()` searches a Python game: the table read first.
    let mut value = |g: &mut PyGame, max: bool| {
        let mut o = args.options(&stop);
        o.max_at_root = max;
        o.table_first = true;
        minimax::search::search(g, &mut o).map(|r| Valued::from(&r))
    };
    for i in 0..samples {
        let obj = draw(game, &sample, &rng, sample_seed(seed, i))?;
        let mut g = PyGame::new(&obj, args.view, &mut map, &stop, deferred.active())?;
        let r = run.add(&mut g, 1.0, &mut value);
        g.finish(r)?;
    }
    let r = run.result(combine).map_err(from_status)?;
    PimcResult::new(py, &map, r)
}
