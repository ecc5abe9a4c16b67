//! Chance nodes: expectiminimax, and Ballard's *-minimax pruning (Star1, and Star2 with
//! probing; Ballard 1983, as described by Hauk, Buro and Schaeffer 2004), for games where
//! dice or a random draw decide some steps. Written from those papers' descriptions.
//!
//! Values here are expected scores in MAX's view, as `f64`: MAX nodes maximise, MIN nodes
//! minimise, chance nodes average their outcomes by probability. `Expectimax` prunes
//! nothing. `Star1` searches MAX and MIN nodes by fail-soft alpha-beta, and at a chance
//! node narrows each outcome's window by what the outcomes already searched and the score
//! bounds of the rest allow, cutting off once the average cannot enter the window.
//! `Star2` first probes one move of each outcome's position: a lower bound on a MAX
//! position (an upper on a MIN one) that often settles the chance node at once.
//!
//! A chance node's exact value is always summed in the order of its outcomes, so that
//! every method finds the same double as a plain expectimax that sums in that order.
//!
//! `mod.rs` holds the search's state; `root.rs` the root and the result; `node.rs` the
//! MAX and MIN nodes; `star.rs` the chance nodes, with Star1's windows and Star2's probes.

mod node;
mod root;
mod star;

use star::{Draw, Probe};

use crate::search::game::{Game, GameError, Move};
use crate::search::limits::{Plan, Watch};
use crate::search::options::{Options, Progress, SearchResult, SearchStats, search_table};
use crate::search::pv::Lines;
use crate::search::table::Table;

/// The principal variation's entry for a chance step: the outcome is not chosen.
pub const ANY_OUTCOME: Move = i64::MIN + 1;

/// Mixed into a chance node's hash in the table, so that a game whose hash does not tell
/// a chance node from a player's node at the same position cannot confuse the two.
const CHANCE_KEY: u64 = 0x6A09_E667_F3BC_C909;

struct Chance<'a, G: Game> {
    game: &'a mut G,
    plan: Plan,
    watch: Watch<'a>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    /// Bounds on every score and evaluation (Star1 and Star2); `(-inf, inf)` otherwise.
    lo: f64,
    hi: f64,
    /// The statistics, but for the node count, which `watch` keeps and `finish` copies in.
    stats: SearchStats,
    /// Leaves cut off by the depth limit in the current iteration (0: proven).
    horizon: u64,
    /// One more than the deepest ply a node was at: the plies whose buffers are ready.
    height: u32,
    pv: Lines,
    moves: Vec<Vec<Move>>,
    draws: Vec<Vec<Draw>>,
    /// The game's outcome list, before it is checked and turned into `Draw`s.
    listed: Vec<(Move, f64)>,
    /// A Star2 probe of the position about to be searched (at ply `.0`), handed from the
    /// chance node to it.
    hint: Option<(u32, Probe)>,
}

/// Searches a game that may have chance nodes, by `opts.method` (a chance method), on one
/// thread. See [`super::search`].
pub(crate) fn search<G: Game>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::of(game, opts);
    let (mut lent, mut own) = (opts.table.take(), None);
    let table = search_table(opts.method, &mut lent, &mut own, opts.table_bytes);
    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    let mut chance = Chance {
        game,
        plan,
        watch: Watch::new(plan, opts.stop, None),
        progress,
        table,
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
        stats: SearchStats::default(),
        horizon: 0,
        height: 0,
        pv: Lines::default(),
        moves: Vec::new(),
        draws: Vec::new(),
        listed: Vec::new(),
        hint: None,
    };
    let result = chance.run();
    opts.table = lent;
    result
}
