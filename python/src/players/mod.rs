//! `search(game, method="maxn")`, `method="paranoid"` and `method="best_reply"`: a
//! Python game of more than two players (`players()`, `to_move()`, `outcome()` and `evaluate()` giving a tuple of
//! scores, optionally `player_bounds()`), searched on the calling thread.

use std::sync::atomic::AtomicI32;

use minimax::search::best_reply::BestReply;
use minimax::search::maxn::{self, MaxnOptions};
use minimax::search::paranoid::Paranoid;
use minimax::search::{Game, Method, SearchResult as RustResult};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::from_status;
use crate::exit::Running;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{Family, SearchArgs};
use crate::pygame::PyGame;
use crate::results::SearchResult;

/// Searches the Python game `game` by `family` with `args` (the engine's options for
/// paranoid, the limits and depth for max^n).
pub fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    family: Family,
    args: &SearchArgs,
) -> PyResult<SearchResult> {
    let stop = AtomicI32::new(0);
    let _running = Running::start(py, &stop);
    let deferred = Deferred::install(py)?;
    let mut map = MoveMap::default();
    let mut adapter = PyGame::new(game, args.view, &mut map, &stop, deferred.active())?;
    let players = adapter.players();
    let mover = adapter.player_to_move();
    if adapter.failed() {
        return Err(adapter.finish(Ok(())).expect_err("a method failed"));
    }
    if players < 3 {
        return Err(PyTypeError::new_err(format!(
            "method='{}' searches games of 3 to 8 players (players() gives how many); this \
             one has {players}",
            family.name()
        )));
    }
    match family {
        Family::Maxn => {
            let opts = MaxnOptions {
                max_depth: args.depth.unwrap_or(u32::MAX),
                iterative_deepening: args.deepening,
                node_limit: args.nodes,
                time_limit: args.time,
                stop: Some(&stop),
                shallow_pruning: true,
                table_bytes: args.table_bytes,
            };
            let r = maxn::search(&mut adapter, &opts);
            let unevaluated = adapter.unevaluated;
            let r = adapter.finish(r)?;
            check_evaluated(unevaluated, r.proven, r.depth)?;
            SearchResult::of_maxn(py, &map, r, mover)
        }
        Family::Paranoid => {
            let view = Paranoid::new(adapter).map_err(from_status)?;
            let r = by_engine(view, Paranoid::into_inner, args, &stop)?;
            SearchResult::new(py, &map, r)
        }
        Family::BestReply => {
            let view = BestReply::new(adapter).map_err(from_status)?;
            let mut r = by_engine(view, BestReply::into_inner, args, &stop)?;
            // The view numbers a layer of replies 0, 1, ...: of the line, only its first
            // move, the root mover's own, is a move of the game.
            r.pv.truncate(1);
            SearchResult::new(py, &map, r)
        }
    }
}

/// Searches `view`, a two-player view of a Python game, by PVS with killer moves and
/// the table read first, as a Python game's two-player search is by default; the game
/// back from the view by `inner` for its exception, if one of its methods raised.
fn by_engine<'py, 'a, V: Game>(
    mut view: V,
    inner: fn(V) -> PyGame<'py, 'a>,
    args: &SearchArgs,
    stop: &AtomicI32,
) -> PyResult<RustResult> {
    let mut args = *args;
    args.method = Method::Pvs;
    args.killers = true;
    let mut options = args.options(stop);
    options.table_first = true;
    let r = minimax::search::search(&mut view, &mut options);
    let adapter = inner(view);
    let unevaluated = adapter.unevaluated;
    let r = adapter.finish(r)?;
    check_evaluated(unevaluated, r.proven, r.depth)?;
    Ok(r)
}

/// A search that scored positions at a depth limit where the game has no `evaluate()`
/// is a `TypeError`, as for two players.
fn check_evaluated(unevaluated: bool, proven: bool, depth: u32) -> PyResult<()> {
    if unevaluated && !proven {
        return Err(PyTypeError::new_err(format!(
            "the search stopped at depth {depth} and scored positions there, but the game \
             has no evaluate(): give it one, or search without a depth or node or time limit"
        )));
    }
    Ok(())
}
