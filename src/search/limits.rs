//! What every search family shares: the plan of a search (its options as plain values),
//! why a search halts, the team of threads, and the watch on the limits and the stop flag.

use crate::search::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::game::{Game, GameError, Move, ScoreView};
use super::memory::room;
use super::options::{Method, Options, Progress};
use super::probcut::ProbCut;
use super::value::check_score;

/// Why a search stopped before its end.
pub(crate) enum Halt {
    /// A limit or the stop flag: the last completed iteration stands.
    Limit,
    /// The game broke its contract.
    Game(GameError),
}

impl From<GameError> for Halt {
    fn from(e: GameError) -> Self {
        Halt::Game(e)
    }
}

/// What every thread of a search needs to know of the options: plain values, copied.
#[derive(Clone, Copy)]
pub(crate) struct Plan {
    pub method: Method,
    pub max_depth: u32,
    pub iterative_deepening: bool,
    pub node_limit: u64,
    pub time_limit: Option<Duration>,
    pub max_at_root: bool,
    pub refine_distance: bool,
    /// Whether a node at depth 1 uses the table ([`Options::table_frontier`]).
    pub table_frontier: bool,
    /// Whether a node reads the table first ([`Options::table_first`]).
    pub table_first: bool,
    /// [`Options::killer_moves`].
    pub killer_moves: bool,
    /// [`Options::history_order`].
    pub history_order: bool,
    /// [`Options::late_move_reductions`].
    pub late_move_reductions: bool,
    /// [`Options::aspiration_windows`].
    pub aspiration_windows: bool,
    /// [`Options::time_management`].
    pub time_management: bool,
    /// [`Options::quiescence`].
    pub quiescence: bool,
    /// [`Options::null_move`].
    pub null_move: bool,
    /// [`Options::probcut`].
    pub probcut: Option<ProbCut>,
    /// [`Options::enhanced_transposition_cutoffs`].
    pub enhanced_transposition_cutoffs: bool,
    /// [`Options::internal_iterative_deepening`].
    pub internal_iterative_deepening: bool,
    /// Whether the table answers only with proven entries: an unlimited search's last
    /// depth searched again without trials must not take back their values.
    pub proven_entries_only: bool,
    /// Whether the game's scores are the side to move's ([`ScoreView::SideToMove`]).
    pub side_view: bool,
    /// When the search was called: the time limit and `elapsed` count from here, table
    /// set-up included.
    pub start: Instant,
}

impl Plan {
    /// The plan of a search of `game` with `opts`: asks the game whose view its scores
    /// take.
    pub(crate) fn of<G: Game>(game: &mut G, opts: &Options<'_>) -> Plan {
        let mut plan = Plan::new(opts);
        plan.side_view = game.score_view() == ScoreView::SideToMove;
        plan
    }

    /// A score of the game's, in MAX's view: a side-to-move score at MIN's turn is
    /// negated (`i32::MIN` cannot be).
    pub(crate) fn max_view(&self, score: i32, max_side: bool) -> Result<i32, GameError> {
        if !self.side_view || max_side {
            return Ok(score);
        }
        score.checked_neg().ok_or(GameError::ScoreOutOfRange)
    }

    /// A score of the game's (a final score or an evaluation) from the side to move's
    /// point of view, checked to lie strictly inside `i32`: the engine's hot path, with no
    /// negation to undo for a side-to-move game.
    #[inline(always)]
    pub(crate) fn side_score(&self, score: i32, max_side: bool) -> Result<i64, GameError> {
        check_score(score)?;
        let s = score as i64;
        Ok(if self.side_view || max_side { s } else { -s })
    }

    /// The game's bounds, in MAX's view.
    pub(crate) fn max_view_bounds(
        &self,
        (lo, hi): (i32, i32),
        max_side: bool,
    ) -> Result<(i32, i32), GameError> {
        if !self.side_view || max_side {
            return Ok((lo, hi));
        }
        let neg = |v: i32| v.checked_neg().ok_or(GameError::BadBounds);
        Ok((neg(hi)?, neg(lo)?))
    }

    fn new(opts: &Options<'_>) -> Plan {
        Plan {
            method: opts.method,
            max_depth: opts.max_depth,
            iterative_deepening: opts.iterative_deepening,
            node_limit: opts.node_limit,
            time_limit: opts.time_limit,
            max_at_root: opts.max_at_root,
            refine_distance: opts.refine_distance,
            table_frontier: opts.table_frontier || opts.table_first,
            table_first: opts.table_first,
            killer_moves: opts.killer_moves,
            history_order: opts.history_order,
            late_move_reductions: opts.late_move_reductions,
            aspiration_windows: opts.aspiration_windows,
            time_management: opts.time_management,
            quiescence: opts.quiescence,
            null_move: opts.null_move,
            probcut: opts.probcut,
            enhanced_transposition_cutoffs: opts.enhanced_transposition_cutoffs,
            internal_iterative_deepening: opts.internal_iterative_deepening,
            proven_entries_only: false,
            side_view: false,
            start: Instant::now(),
        }
    }
}

/// What the threads of one search share besides the table.
#[derive(Default)]
pub(crate) struct Team {
    halt: AtomicBool,
    nodes: AtomicU64,
    /// Each depth's first completed iteration, by whichever thread: depth `i + 1` at `i`.
    /// Every thread completes its depths in order, so the depths have no gap.
    iterations: Mutex<Vec<Iteration>>,
    /// The deepest iteration reported to the caller's progress callback.
    reported: AtomicU32,
}

/// A completed iteration of a team's search, for the progress reports.
pub(crate) struct Iteration {
    pub depth: u32,
    pub value: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

impl Iteration {
    pub(crate) fn progress(&self) -> Progress<'_> {
        Progress {
            depth: self.depth,
            value: self.value,
            expected: None,
            nodes: self.nodes,
            elapsed: self.elapsed,
            pv: &self.pv,
        }
    }
}

impl Team {
    /// Keeps a thread's completed iteration if no thread completed its depth before;
    /// [`GameError::OutOfMemory`] if memory for it cannot be had.
    pub(crate) fn record(
        &self,
        depth: u32,
        value: i32,
        nodes: u64,
        elapsed: Duration,
        pv: &[Move],
    ) -> Result<(), GameError> {
        let mut done = self
            .iterations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if done.last().map_or(0, |i| i.depth) < depth {
            let nodes = nodes.max(self.nodes.load(Relaxed));
            let mut line = Vec::new();
            room(&mut line, pv.len())?;
            line.extend_from_slice(pv);
            room(&mut done, 1)?;
            done.push(Iteration {
                depth,
                value,
                nodes,
                elapsed,
                pv: line,
            });
        }
        Ok(())
    }

    /// Calls `report` on each completed iteration not yet reported, up to depth `upto`,
    /// in order of depth: each depth once, whichever thread completed it.
    pub(crate) fn report_upto(&self, upto: u32, report: &mut dyn FnMut(&Progress)) {
        let done = self
            .iterations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let from = self.reported.load(Relaxed);
        for it in done.iter().filter(|i| i.depth > from && i.depth <= upto) {
            report(&it.progress());
            self.reported.store(it.depth, Relaxed);
        }
    }

    /// The deepest iteration reported so far.
    pub(crate) fn reported(&self) -> u32 {
        self.reported.load(Relaxed)
    }

    /// Adds a thread's new nodes to the count; returns the total.
    pub(crate) fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Relaxed) + n
    }
    pub(crate) fn halted(&self) -> bool {
        self.halt.load(Relaxed)
    }
    pub(crate) fn halt(&self) {
        self.halt.store(true, Relaxed);
    }
}

/// The most nodes between two looks at the clock and the stop flag.
const MOST_BETWEEN_LOOKS: u64 = 256;

/// The time aimed for between two looks: fast nodes are looked at every
/// `MOST_BETWEEN_LOOKS`, slow ones (a game whose callbacks take long) as often as every
/// node, so that a time limit or the stop flag is noticed within about this long plus one
/// node's time.
const LOOK_EVERY: Duration = Duration::from_micros(100);

/// One thread's watch on the limits, the stop flag and its team.
pub(crate) struct Watch<'a> {
    /// The plan's limits: nodes (0: none), time, and when the search started.
    node_limit: u64,
    time_limit: Option<Duration>,
    start: Instant,
    stop: Option<&'a AtomicI32>,
    /// The threads of a parallel search; `None` on one thread.
    pub team: Option<&'a Team>,
    /// Nodes already added to the team's count.
    synced: u64,
    /// The node count at which `tick` next looks.
    next_look: u64,
    /// Nodes left before that look: the search's node count is `next_look - left`, so
    /// that counting a node and checking it is one decrement and one branch (a count and
    /// a comparison with the next look were 2.5% of a plain search's instructions).
    left: u64,
    /// The node count and the time at the last look.
    last_nodes: u64,
    last_time: Instant,
}

impl<'a> Watch<'a> {
    pub(crate) fn new(plan: Plan, stop: Option<&'a AtomicI32>, team: Option<&'a Team>) -> Self {
        Watch {
            node_limit: plan.node_limit,
            time_limit: plan.time_limit,
            start: plan.start,
            stop,
            team,
            synced: 0,
            next_look: 1,
            left: 1,
            last_nodes: 0,
            last_time: plan.start,
        }
    }

    /// Whether anything can stop the search before its end: a node or time limit, or a
    /// stop flag.
    pub(crate) fn can_halt(&self) -> bool {
        self.node_limit != 0 || self.time_limit.is_some() || self.stop.is_some()
    }

    /// Counts a node, and says whether the search must halt there: the first node looks,
    /// then one node in up to 256, and the node past the limit.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> Result<(), Halt> {
        self.left -= 1;
        if self.left != 0 {
            return Ok(());
        }
        self.look(self.next_look)
    }

    /// The nodes counted so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.next_look - self.left
    }

    /// Looks at the limits at the `nodes`-th node. After a halt, the next node looks
    /// again (and halts again).
    #[cold]
    fn look(&mut self, nodes: u64) -> Result<(), Halt> {
        let looked = self.look_at(nodes);
        if looked.is_err() {
            (self.next_look, self.left) = (nodes + 1, 1);
        }
        looked
    }

    fn look_at(&mut self, nodes: u64) -> Result<(), Halt> {
        let limit = self.node_limit;
        if limit != 0 && nodes > limit {
            return self.halt();
        }
        if let Some(team) = self.team {
            let total = team.add_nodes(nodes - self.synced);
            self.synced = nodes;
            if team.halted() || (limit != 0 && total > limit) {
                return self.halt();
            }
        }
        let now = Instant::now();
        let late = self
            .time_limit
            .is_some_and(|t| now.duration_since(self.start) >= t);
        if late || self.stop.is_some_and(|s| s.load(Relaxed) != 0) {
            return self.halt();
        }
        // As many nodes as took about LOOK_EVERY since the last look.
        let (done, took) = (nodes - self.last_nodes, now.duration_since(self.last_time));
        let pace = done as u128 * LOOK_EVERY.as_nanos() / took.as_nanos().max(1);
        let between = (pace as u64).clamp(1, MOST_BETWEEN_LOOKS);
        (self.last_nodes, self.last_time) = (nodes, now);
        self.next_look = nodes.saturating_add(between);
        if limit != 0 {
            // A limit of u64::MAX is as good as none.
            self.next_look = self.next_look.min(limit.saturating_add(1));
        }
        self.left = self.next_look - nodes;
        Ok(())
    }

    /// Stops this thread, and the others of its team.
    pub(crate) fn halt(&self) -> Result<(), Halt> {
        if let Some(team) = self.team {
            team.halt();
        }
        Err(Halt::Limit)
    }
}
