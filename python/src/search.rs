//! `search()`: a native game natively, any other object through the game protocol.

use std::sync::atomic::AtomicI32;

use minimax::search::{Game, Method};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::cgame;
use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{self, SearchArgs};
use crate::players;
use crate::probcut::PyProbCut;
use crate::pygame::PyGame;
use crate::results::SearchResult;

/// A `TypeError` for a Python game with `sample()` (it hides information) searched as if
/// nothing were hidden, unless the caller says so (`see_hidden=True`).
fn refuse_hidden(game: &Bound<'_, PyAny>, see_hidden: bool) -> PyResult<()> {
    if !see_hidden && crate::pygame::optional(game, "sample")?.is_some() {
        return Err(PyTypeError::new_err(
            "the game has sample(): it hides information, and search() would read what the \
             player to move cannot see; search it with pimc() or ismcts(), or pass \
             see_hidden=True to search the position as if everything were open",
        ));
    }
    Ok(())
}

/// Searches `game` from its position and returns the best move and the value (in MAX's
/// view). `game` is a native game (`libminimax.games`), searched without the GIL, or any
/// object with `moves()`, `play(m)`, `undo(m)`, `outcome()` and `evaluate()` (and
/// optionally `hash()`, `max_to_move()`, `bounds()`, `is_chance()`, `outcomes()`,
/// `noisy_moves()`, `null_move()`, `stage()`), searched on the calling thread. An exception in one of
/// its methods stops the search and is raised again, the game back in its position.
/// `method` and `killers` left out are "alphabeta" and no killer moves for a native
/// game, "pvs" with killer moves for a Python one. A Python game of more than two
/// players (`players()`, `to_move()`, tuples of scores) is searched by `method="maxn"`
/// or `method="paranoid"` (docs/python.md). `probcut` (a `ProbCut`, from
/// `calibrate_probcut()`) cuts a node off where its fit predicts the deep search's result
/// from a shallow one with confidence (Multi-ProbCut), and `etc` looks a node's children
/// up in the table before searching them (enhanced transposition cut-offs), and `iid`
/// has a node the table gives no move search itself shallower first, for the move to
/// try first (internal iterative deepening): for depth-limited alpha-beta and PVS; none
/// changes a proven value. A Python game with `sample()` hides information: `search`
/// refuses it unless `see_hidden=True` (`pimc()` and `ismcts()` search it).
#[pyfunction]
#[pyo3(signature = (
    game, method = None, depth = None, time = None, nodes = None, threads = 1,
    table_mb = 16.0, *, view = "max", max_at_root = true, killers = None,
    history = false, lmr = false, aspiration = false, time_management = false,
    quiescence = false, null_move = false, refine_distance = true, deepening = None,
    probcut = None, etc = false, iid = false, see_hidden = false
))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    method: Option<&str>,
    depth: Option<i64>,
    time: Option<f64>,
    nodes: Option<&Bound<'_, PyAny>>,
    threads: i64,
    table_mb: f64,
    view: &str,
    max_at_root: bool,
    killers: Option<bool>,
    history: bool,
    lmr: bool,
    aspiration: bool,
    time_management: bool,
    quiescence: bool,
    null_move: bool,
    refine_distance: bool,
    deepening: Option<bool>,
    probcut: Option<&Bound<'_, PyProbCut>>,
    etc: bool,
    iid: bool,
    see_hidden: bool,
) -> PyResult<SearchResult> {
    let depth = match depth {
        None => None,
        Some(d) if d >= 0 => Some(u32::try_from(d).unwrap_or(u32::MAX)),
        Some(d) => return Err(PyValueError::new_err(format!("depth={d} is negative"))),
    };
    let nodes = options::node_limit(nodes)?;
    let family = options::family(method);
    let two_player_method = if family.is_some() { None } else { method };
    let mut args = SearchArgs {
        method: options::method(two_player_method.unwrap_or("alphabeta"))?,
        depth,
        time: options::seconds(time)?,
        nodes,
        threads: options::thread_count(threads)?,
        table_bytes: options::table_bytes(table_mb)?,
        view: options::view(view)?,
        max_at_root,
        killers: killers.unwrap_or(false),
        history,
        lmr,
        aspiration,
        time_management,
        quiescence,
        null_move,
        refine_distance,
        // Deepening by default only where a limit can stop the search, or where no
        // depth is given (it stops at the first proof): at a given depth with no limit,
        // the shallower iterations only add nodes (1.2x easyAI's time on a connect-3
        // written for both, 0.8x without them).
        deepening: deepening.unwrap_or(depth.is_none() || time.is_some() || nodes != 0),
        // Copied now: the fit is not held while the search runs (another thread may
        // change it).
        probcut: probcut.map(|p| p.borrow().fit),
        etc,
        iid,
    };
    if let Some(family) = family {
        if let Some(result) = games::players_search(game, family, &args)? {
            return Ok(result);
        }
        if game.cast::<cgame::CGame>().is_ok() {
            return Err(PyTypeError::new_err(format!(
                "method='{}' searches Python and native games of 3 to 8 players; this C game has two",
                method.unwrap_or_default()
            )));
        }
        refuse_hidden(game, see_hidden)?;
        return players::search(py, game, family, &args);
    }
    let mut map = MoveMap::default();
    if let Some(n) = games::has_players(game)?.filter(|&n| n > 2) {
        return Err(options::not_two_players(n));
    }
    if let Some(result) = games::search(game, &args)? {
        return SearchResult::new(py, &map, result);
    }
    if let Some(result) = cgame::search(game, &args)? {
        return SearchResult::new(py, &map, result);
    }
    // A Python game's node costs microseconds, where PVS and killer moves cost
    // nanoseconds: by default they order its moves (on the newcomer's games of
    // benches/newcomer_bench.py, 0.59x the calls to the game in all, and fewer on 8 of 9).
    if method.is_none() {
        args.method = Method::Pvs;
    }
    if killers.is_none() {
        args.killers = true;
    }
    refuse_hidden(game, see_hidden)?;
    let stop = AtomicI32::new(0);
    let _running = Running::start(py, &stop);
    let deferred = Deferred::install(py)?;
    let mut adapter = PyGame::new(game, args.view, &mut map, &stop, deferred.active())?;
    let players = adapter.players();
    if players != 2 {
        if adapter.failed() {
            return Err(adapter.finish(Ok(())).expect_err("a method failed"));
        }
        return Err(options::not_two_players(players));
    }
    let mut options = args.options(&stop);
    // A Python game's node costs microseconds, a table probe nanoseconds: every node
    // reads the table first, those near the depth limit too (`table_first` implies
    // `table_frontier`), so that a position met again is not scored again (as easyAI's
    // Negamax does at every node).
    options.table_first = true;
    let result = minimax::search::search(&mut adapter, &mut options);
    let unevaluated = adapter.unevaluated;
    let result = adapter.finish(result)?;
    if unevaluated && !result.proven {
        return Err(PyTypeError::new_err(format!(
            "the search stopped at depth {} and scored positions there, but the game has no \
             evaluate(): give it one, or search without a depth or node or time limit",
            result.depth
        )));
    }
    SearchResult::new(py, &map, result)
}
