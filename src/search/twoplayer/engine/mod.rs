//! The negamax engine behind [`search`]: values from the side to move's point of view
//! internally (see `value`), one recursive node function for every method. The same
//! function runs on every thread of a parallel search (see `parallel`), sharing a table
//! and a `Team`.
//!
//! `mod.rs` holds the engine's state and starts a thread's search; `root.rs` the root:
//! the deepening loop, the exact solve's probes and the result; `deepening.rs` what the
//! loop learns from its iterations (aspiration windows, time); `node.rs` the node: the
//! table, the moves, the cut-offs; `null_move.rs` and `quiescence.rs` the two searches a
//! node may make besides its moves. The line is kept by `pv`, the limits by `limits`.

mod deepening;
mod etc;
mod iid;
mod node;
mod null_move;
mod ordering;
mod probcut;
mod quiescence;
mod root;

use std::cell::Cell;
use std::sync::atomic::AtomicI32;

use crate::search::game::{Game, GameError, Move};
use crate::search::limits::{Halt, Plan, Team, Watch};
use crate::search::options::{Method, Options, Progress, SearchResult, SearchStats, search_table};
use crate::search::pv::Lines;
use crate::search::stack;
use crate::search::table::Table;

/// One thread's search: its answer, and whether it ran to its end (false: a limit, the
/// stop flag or another thread's finish halted it).
pub(crate) struct Outcome {
    pub result: SearchResult,
    pub completed: bool,
}

/// One thread's search. `LEAN` compiles the node without what the search does not use:
/// no table, no team, and a depth limit within which the stack is never looked at (see
/// `run_thread`); `M` compiles in the method of a lean search (see `method`). All are the
/// same code (docs/changes.md, "Performance history", has the figures).
struct Engine<'a, G: Game, const LEAN: bool, const M: u8> {
    game: &'a mut G,
    plan: Plan,
    /// The limits, the stop flag and the team of a parallel search (`watch.team`).
    watch: Watch<'a>,
    /// The caller's progress callback: the first thread's only.
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    /// The statistics, but for the node count, which `watch` keeps and `finish` copies in.
    stats: SearchStats,
    /// Leaves cut off by the depth limit in the current iteration (0: the value is proven).
    horizon: u64,
    /// One more than the deepest ply a node of this search was at: the plies whose
    /// buffers are ready.
    height: u32,
    /// The principal variation found below each ply.
    pv: Lines,
    /// A move buffer per ply, reused.
    moves: PlyBuffers,
    /// The moves a parallel search put off at each ply because another thread was
    /// searching them.
    deferred: PlyBuffers,
    /// The hash of the next node, when its parent already asked for it.
    next_key: Option<u64>,
    /// The deepest ply at which a line below the current node has ended so far (its
    /// subtree's height, for proven table entries).
    reach: u32,
    /// Whether to keep the principal variation below the root: not during the exact
    /// solve's null-window tests, which need only the root's move.
    full_pv: bool,
    /// Set when the last iteration's PV is only the root's move.
    pv_is_partial: bool,
    /// The ply whose node is being searched with room made on the stack (`node` makes
    /// room there, then searches it: this tells the second call to go on).
    room_at: u32,
    /// Why the search below stopped, between a node's return and its parent's look: the
    /// recursive calls return a bare value, and the parent turns this back into an error
    /// (a `Result` returned by each call took 6-8% more time on a plain Connect Four
    /// search: docs/changes.md, "Performance history").
    halt: Option<Halt>,
    /// The move order learned so far, when the plan asks for it (never in a lean node).
    learned: Option<ordering::Learned>,
    /// The ply at which a node may not pass (null-move pruning): the one right after a
    /// pass, or the one a verification search starts at; `u32::MAX` for none.
    no_pass_at: u32,
    /// The leaves of `horizon` in the current iteration that only a trial put there: a
    /// node cut off by a pass (one each), or a late move's reduced search that was not
    /// searched again (all of its). An iteration whose horizon they all are is followed
    /// by iterations without passes or reductions, so that a search without a depth limit
    /// still proves a game whose lines all end.
    trial_leaves: u64,
    /// Whether a shallow search for a node's first move (`iid.rs`) is under way: one at a
    /// time, so that each ply holds at most two nodes' frames on the stack.
    ordering_search: bool,
}

/// A deterministic method's search on one thread: see [`super::search`].
pub(crate) fn search<G: Game>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::of(game, opts);
    let (mut lent, mut own) = (opts.table.take(), None);
    let table = search_table(opts.method, &mut lent, &mut own, opts.table_bytes);
    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    let outcome = run_thread(game, plan, opts.stop, progress, table, None);
    opts.table = lent;
    outcome.map(|o| o.result)
}

/// One thread's search, alone or in a team.
pub(crate) fn run_thread<'a, G: Game>(
    game: &'a mut G,
    plan: Plan,
    stop: Option<&'a AtomicI32>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    team: Option<&'a Team>,
) -> Result<Outcome, GameError> {
    let buffers = SCRATCH.with(|s| s.take());
    // A search that never goes `stack::EVERY` plies deep never looks at its stack. (The
    // lean node does not reduce late moves, quiesce, pass or cut by ProbCut.)
    let lean = table.is_none()
        && team.is_none()
        && plan.max_depth <= stack::EVERY
        && !(plan.late_move_reductions || plan.quiescence || plan.null_move)
        && plan.probcut.is_none();
    let (result, mut buffers) = match (lean, plan.method) {
        (true, Method::AlphaBeta) => {
            run_engine::<G, true, ALPHA_BETA>(game, plan, stop, progress, table, team, buffers)
        }
        (true, Method::Pvs) => {
            run_engine::<G, true, PVS>(game, plan, stop, progress, table, team, buffers)
        }
        (true, _) => run_engine::<G, true, ANY>(game, plan, stop, progress, table, team, buffers),
        (false, Method::Exact) => {
            run_engine::<G, false, EXACT>(game, plan, stop, progress, table, team, buffers)
        }
        (false, _) => run_engine::<G, false, ANY>(game, plan, stop, progress, table, team, buffers),
    };
    // Kept for the next search, up to a usual depth: a rare very deep search should not
    // leave its memory behind.
    buffers.0.reset();
    buffers.1.truncate(SCRATCH_PLIES);
    buffers.2.truncate(SCRATCH_PLIES);
    SCRATCH.with(|s| s.set(buffers));
    result
}

type Scratch = (Lines, PlyBuffers, PlyBuffers);

/// The method a node is compiled for: `ANY` reads it from the plan at each node. A lean
/// search, whose node is a few dozen instructions besides the game's, is compiled for
/// alpha-beta and PVS each: the method's tests then cost nothing (they were 3.5% of a
/// plain Connect Four search's instructions: docs/changes.md, "Performance history"). The
/// full node is compiled for the exact solve too, whose many small solves then skip the
/// tests of what it never does (reductions, passes, quiescence: 33 instructions a node,
/// 1.09x the time of a 5 us Connect Four solve, issue 49).
const ANY: u8 = 0;
const ALPHA_BETA: u8 = 1;
const PVS: u8 = 2;
const EXACT: u8 = 3;

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The search's method: a constant where the node is compiled for one.
    #[inline(always)]
    fn method(&self) -> Method {
        match M {
            ALPHA_BETA => Method::AlphaBeta,
            PVS => Method::Pvs,
            EXACT => Method::Exact,
            _ => self.plan.method,
        }
    }

    /// A cut-off by a trial (a pass, a ProbCut), with value `v`: one leaf at the horizon,
    /// and a trial's, so never a proof.
    fn trial_cut(&mut self, v: i64) -> i64 {
        self.horizon += 1;
        self.trial_leaves += 1;
        v
    }

    /// The horizon's leaves and the trials' among them, to put back after a search whose
    /// leaves count only through what it decides.
    fn leaf_counts(&self) -> (u64, u64) {
        (self.horizon, self.trial_leaves)
    }

    /// Puts back counts taken by [`Self::leaf_counts`].
    fn restore_leaf_counts(&mut self, (horizon, trials): (u64, u64)) {
        (self.horizon, self.trial_leaves) = (horizon, trials);
    }
}

/// `run_thread` with the node compiled lean or not, for method `M`.
fn run_engine<'a, G: Game, const LEAN: bool, const M: u8>(
    game: &'a mut G,
    plan: Plan,
    stop: Option<&'a AtomicI32>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    team: Option<&'a Team>,
    (mut pv, moves, deferred): Scratch,
) -> (Result<Outcome, GameError>, Scratch) {
    pv.reset();
    let mut engine = Engine::<G, LEAN, M> {
        game,
        plan,
        watch: Watch::new(plan, stop, team),
        progress,
        table,
        stats: SearchStats::default(),
        horizon: 0,
        height: 0,
        pv,
        moves,
        deferred,
        next_key: None,
        reach: 0,
        full_pv: true,
        pv_is_partial: false,
        room_at: 0,
        halt: None,
        learned: None,
        no_pass_at: u32::MAX,
        trial_leaves: 0,
        ordering_search: false,
    };
    let learns = !LEAN && (plan.killer_moves || plan.history_order);
    let learned = learns.then(|| ordering::Learned::new(plan.killer_moves, plan.history_order));
    let result = learned.transpose().and_then(|learned| {
        engine.learned = learned;
        engine.run()
    });
    (result, (engine.pv, engine.moves, engine.deferred))
}

/// A move list per ply: the principal variations, or the moves to search.
type PlyBuffers = Vec<Vec<Move>>;

/// How many plies of buffers a thread keeps between searches.
const SCRATCH_PLIES: usize = 128;

thread_local! {
    /// The per-ply buffers of this thread's last search, for the next one: a solver that
    /// runs many short searches (a game's moves, a test set) then allocates nothing.
    static SCRATCH: Cell<Scratch> = Cell::new(Default::default());
}
