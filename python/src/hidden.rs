//! `ismcts(game, ...)`: information-set MCTS over a Python game with hidden information,
//! whose `sample(rng)` returns a position consistent with what the player to move has
//! seen (a new game object; `rng` is a `random.Random` seeded by the search). Each
//! iteration plays on its own sample, so the game itself is never played on.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use minimax::search::ScoreView;
use minimax::search::ismcts::{Ismcts, IsmctsOptions, IsmctsResult};
use minimax::search::maxn_mcts::PlayerReward;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options;
use crate::pygame::{PyGame, optional};
use crate::results::MctsResult;

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
    let sample = optional(game, "sample")?.ok_or_else(|| {
        PyTypeError::new_err(
            "ismcts() needs a game with sample(rng), which returns a position consistent \
             with what the player to move has seen",
        )
    })?;
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
        rng.call_method1("seed", (run.sample_seed(),))?;
        let obj = sample.call1((&rng,))?;
        if obj.is(game) {
            // The search plays on a sample and never takes its moves back.
            return Err(PyValueError::new_err(
                "sample(rng) returned the game itself: it returns a new game, which the \
                 search plays on",
            ));
        }
        let mut g = PyGame::new(&obj, view, &mut map, &stop, deferred.active())?;
        let r = run.iterate(&mut g);
        g.finish(r)?;
    }
    let mut root = PyGame::new(game, view, &mut map, &stop, deferred.active())?;
    let r = run.result(&mut root);
    let r: IsmctsResult = root.finish(r)?;
    MctsResult::of_ismcts(py, &map, r)
}
