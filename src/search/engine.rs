//! The negamax engine behind [`search`]: values from the side to move's point of view
//! internally (see `value`), one recursive node function for every method. The same
//! function runs on every thread of a parallel search (see `parallel`), sharing a table
//! and a `Team`.

use std::cell::Cell;
use std::sync::atomic::AtomicI32;

use super::abdada;
use super::game::{Game, GameError, Move, NO_MOVE, first_move, move_first};
use super::limits::{Halt, Plan, Team, Watch};
use super::options::{Method, Options, Progress, SearchResult, SearchStats, search_table};
use super::pv::Lines;
use super::stack;
use super::table::{Bound, Entry, Table};
use super::value::{self, INF, MAX_PLY, check_score};

/// A node's best value and move so far, and its raised alpha.
struct Best {
    value: i64,
    mv: Move,
    alpha: i64,
}

/// One thread's search: its answer, and whether it ran to its end (false: a limit, the
/// stop flag or another thread's finish halted it).
pub(crate) struct Outcome {
    pub result: SearchResult,
    pub completed: bool,
}

/// One thread's search. `LEAN` compiles the node without what the search does not use:
/// no table, no team, and a depth limit within which the stack is never looked at (see
/// `run_thread`). Both are the same code; the lean one plays 1.3-1.5x more moves a second
/// on a plain game (docs/performance.md).
struct Engine<'a, G: Game, const LEAN: bool> {
    game: &'a mut G,
    plan: Plan,
    /// The limits, the stop flag and the team of a parallel search (`watch.team`).
    watch: Watch<'a>,
    /// The caller's progress callback: the first thread's only.
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
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
    // A search that never goes `stack::EVERY` plies deep never looks at its stack.
    let lean = table.is_none() && team.is_none() && plan.max_depth <= stack::EVERY;
    let (result, mut buffers) = if lean {
        run_engine::<G, true>(game, plan, stop, progress, table, team, buffers)
    } else {
        run_engine::<G, false>(game, plan, stop, progress, table, team, buffers)
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

/// `run_thread` with the node compiled lean or not.
fn run_engine<'a, G: Game, const LEAN: bool>(
    game: &'a mut G,
    plan: Plan,
    stop: Option<&'a AtomicI32>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    team: Option<&'a Team>,
    (mut pv, moves, deferred): Scratch,
) -> (Result<Outcome, GameError>, Scratch) {
    pv.reset();
    let mut engine = Engine::<G, LEAN> {
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
    };
    let result = engine.run();
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

impl<G: Game, const LEAN: bool> Engine<'_, G, LEAN> {
    fn run(&mut self) -> Result<Outcome, GameError> {
        let root_max = self.game.max_to_move().unwrap_or(self.plan.max_at_root);
        let sign = if root_max { 1 } else { -1 };
        let mut result = SearchResult::unfinished(None);
        if let Some(score) = self.game.outcome() {
            let score = self.plan.max_view(score, root_max)?;
            check_score(score)?;
            result.value = score;
            (result.exact, result.proven, result.plies_to_end) = (true, true, Some(0));
            return Ok(self.finish(result, true));
        }
        // Unlimited is one ply past the limit, so that a line longer than the limit is an
        // error rather than a heuristic value.
        let max_depth = self.plan.max_depth.clamp(1, MAX_PLY + 1);
        let first = if self.plan.iterative_deepening {
            1
        } else {
            max_depth
        };
        let mut completed = true;
        for depth in first..=max_depth {
            self.horizon = 0;
            self.pv_is_partial = false;
            let outcome = match self.plan.method {
                Method::Exact => self.exact(depth, root_max),
                _ => self.node(depth, 0, root_max, -INF, INF),
            };
            let v = match outcome {
                Ok(v) => v,
                Err(Halt::Limit) => {
                    completed = false;
                    break;
                }
                Err(Halt::Game(e)) => return Err(e),
            };
            let proven = self.horizon == 0;
            result.pv = self.pv.to_vec(0);
            result.best_move = result.pv.first().copied();
            result.value = max_view(sign, v);
            result.exact = true;
            result.proven = proven;
            let along_pv = (!self.pv_is_partial).then_some(result.pv.len() as u32);
            result.plies_to_end = value::plies_to_end(v).or(along_pv).filter(|_| proven);
            // A search without deepening to an unlimited depth reports how deep it went.
            result.depth = if depth > MAX_PLY {
                self.height - 1
            } else {
                depth
            };
            let elapsed = self.plan.start.elapsed();
            match (self.watch.team, self.progress.as_mut()) {
                // In a team, each depth is reported once, in order, from the caller's
                // thread: the iterations the other threads completed before this one too.
                (Some(team), report) => {
                    let (nodes, pv) = (self.stats.nodes, &result.pv);
                    team.record(result.depth, result.value, nodes, elapsed, pv);
                    if let Some(report) = report {
                        team.report_upto(u32::MAX, *report);
                    }
                }
                (None, Some(report)) => report(&Progress {
                    depth: result.depth,
                    value: result.value,
                    expected: None,
                    nodes: self.stats.nodes,
                    elapsed,
                    pv: &result.pv,
                }),
                (None, None) => {}
            }
            if proven {
                break;
            }
        }
        if result.best_move.is_none() {
            // Stopped before any iteration finished: still answer with a legal move, and
            // still hold the game to its contract.
            let first = first_move(self.game)?;
            result.best_move = Some(first);
            result.pv = vec![first];
        }
        Ok(self.finish(result, completed))
    }

    fn finish(&mut self, mut result: SearchResult, completed: bool) -> Outcome {
        self.stats.elapsed = self.plan.start.elapsed();
        result.stats = self.stats;
        Outcome { result, completed }
    }

    /// The exact value at `depth`: null-window tests at score boundaries narrow the range
    /// (toward 0 first, as good solvers do), then an optional search within the score's
    /// band finds the fastest win or slowest loss.
    fn exact(&mut self, depth: u32, root_max: bool) -> Result<i64, Halt> {
        // Without the game's bounds, every score (MAX's view) strictly inside int32.
        let (min, max) = (i32::MIN as i64 + 1, i32::MAX as i64 - 1);
        // Within the game's bounds the probes bisect a range one score wider on each
        // side: for Connect Four that is Pons' root range, and it needed fewer nodes on
        // most of his sets and on 300 random positions (docs/performance.md).
        let (mut lo, mut hi) = match self.side_bounds(root_max)? {
            Some((lo, hi)) if lo < hi => (lo - 1, hi + 1),
            Some(b) => b,
            None if root_max => (min, max),
            None => (-max, -min),
        };
        let mut proof: Option<Vec<Move>> = None; // the PV of the last fail-high search
        self.full_pv = false;
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let (alpha, beta) = (value::at_most(med), value::at_least(med + 1));
            let r = self.node(depth, 0, root_max, alpha, beta);
            let r = r.inspect_err(|_| self.full_pv = true)?;
            if r <= alpha {
                hi = med.min(value::score(r));
            } else {
                lo = (med + 1).max(value::score(r));
                proof = Some(self.pv.to_vec(0));
            }
        }
        self.full_pv = true;
        match proof {
            Some(pv) if !(self.plan.refine_distance && lo != 0) => {
                // The move that proved `lo` is a best move; its distance was not sought,
                // and the PV holds only that move.
                self.pv.set_line(0, &pv);
                self.pv_is_partial = true;
                Ok(value::heuristic(lo))
            }
            _ => self.node(
                depth,
                0,
                root_max,
                value::at_least(lo) - 1,
                value::at_most(lo) + 1,
            ),
        }
    }

    /// The game's score bounds from the side to move's point of view.
    fn side_bounds(&mut self, max_side: bool) -> Result<Option<(i64, i64)>, Halt> {
        let Some(bounds) = self.game.bounds() else {
            return Ok(None);
        };
        let (lo, hi) = self.plan.max_view_bounds(bounds, max_side)?;
        // Bounds are scores: like every score, strictly between INT_MIN and INT_MAX.
        if lo > hi || check_score(lo).is_err() || check_score(hi).is_err() {
            return Err(GameError::BadBounds.into());
        }
        let (lo, hi) = (lo as i64, hi as i64);
        Ok(Some(if max_side { (lo, hi) } else { (-hi, -lo) }))
    }

    /// The value of the position (side to move: MAX if `max_side`) searched `depth` plies
    /// deep within `(alpha, beta)`, fail-soft, from the side to move's point of view.
    fn node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        if !LEAN && ply % stack::EVERY == 0 && ply > 0 {
            // (Lean: the depth limit keeps every node but the leaves above ply EVERY.)
            return self.node_with_room(depth, ply, max_side, alpha, beta);
        }
        self.node_here(depth, ply, max_side, alpha, beta)
    }

    /// `node`, with room on the stack for the next `stack::EVERY` plies. Out of line, so
    /// that the other nodes' code stays small.
    #[cold]
    #[inline(never)]
    fn node_with_room(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        stack::with_room(|| self.node_here(depth, ply, max_side, alpha, beta))
    }

    /// `node`, on the stack it is on.
    #[inline(always)]
    fn node_here(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        if LEAN {
            // `reach` serves the table's proven entries only.
            return self.node_body(depth, ply, max_side, alpha, beta);
        }
        let reach_before = self.reach;
        self.reach = ply;
        let v = self.node_body(depth, ply, max_side, alpha, beta);
        self.reach = self.reach.max(reach_before);
        v
    }

    /// Makes the buffers of ply `ply` ready, the first time the search reaches it.
    #[cold]
    fn grow(&mut self, ply: u32) {
        let p = ply as usize;
        if self.moves.len() <= p {
            self.moves.resize_with(p + 1, Vec::new);
            self.deferred.resize_with(p + 1, Vec::new);
        }
        self.pv.reach(p);
        self.height = ply + 1;
    }

    /// `node`, with `self.reach` counting from this node.
    #[inline(always)]
    fn node_body(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, Halt> {
        self.stats.nodes += 1;
        let given_key = if LEAN { None } else { self.next_key.take() };
        self.watch.check(self.stats.nodes)?;
        let p = ply as usize;
        if ply >= self.height {
            self.grow(ply);
        }
        self.pv.clear(p);
        // The table's slot is fetched from memory while the game answers the questions
        // below: its cache miss is most of a node's time otherwise.
        let key = match self.table {
            Some(table) if !LEAN && depth > 0 => {
                let key = given_key.or_else(|| self.game.hash());
                if let Some(k) = key {
                    table.prefetch(k);
                }
                key
            }
            _ => None,
        };
        if let Some(score) = self.game.outcome() {
            let score = self.plan.side_score(score, max_side)?;
            self.stats.leaves += 1;
            return Ok(value::final_at(score, ply));
        }
        if self.game.is_chance() {
            return Err(GameError::ChanceNode.into());
        }
        let method = self.plan.method;
        let prune = method != Method::Minimax;
        if prune && ply > 0 {
            if let Some((lo, hi)) = self.side_bounds(max_side)? {
                if lo == hi {
                    self.stats.leaves += 1;
                    self.reach = ply + 1;
                    return Ok(value::final_at(lo, ply + 1));
                }
                // The value is at least `floor` and at most `ceiling`: when that settles
                // the window's question (ties included), answer at once, else narrow it.
                let (floor, ceiling) = (value::at_least(lo), value::at_most(hi));
                if floor >= beta {
                    return Ok(floor);
                }
                if ceiling <= alpha {
                    return Ok(ceiling);
                }
                alpha = alpha.max(floor - 1);
                beta = beta.min(ceiling + 1);
            }
        }
        if depth == 0 {
            let e = self.plan.side_score(self.game.evaluate(), max_side)?;
            self.stats.leaves += 1;
            self.horizon += 1;
            return Ok(value::heuristic(e));
        }
        if ply >= MAX_PLY {
            return Err(GameError::TooDeep.into());
        }

        // The moves are listed before the table is read: the game's work overlaps the
        // table slot's arrival from memory (a cutoff from the table then wastes it).
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        let listed = self.game.moves(&mut moves);
        let mut table_move = NO_MOVE;
        if let (Some(key), Some(table)) = (key, self.table) {
            self.stats.table_probes += 1;
            if let Some(e) = table.probe(key, max_side, false) {
                self.stats.table_hits += 1;
                table_move = e.best;
                if ply > 0 && e.fits(depth) {
                    let v = value::from_table(e.value, ply);
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => v >= beta,
                        Bound::Upper => v <= alpha,
                    };
                    if usable {
                        if e.proven {
                            self.reach = self.reach.max(ply + e.depth);
                        } else {
                            self.horizon += 1;
                        }
                        self.moves[p] = moves;
                        return Ok(v);
                    }
                    match e.bound {
                        Bound::Lower => alpha = alpha.max(v - 1),
                        Bound::Upper => beta = beta.min(v + 1),
                        _ => {}
                    }
                }
            }
        }

        let searched = listed.map_err(Halt::from).and_then(|()| {
            if moves.is_empty() {
                return Err(GameError::NoMovesNotOver.into());
            }
            move_first(&mut moves, table_move);
            self.children(&moves, depth, ply, max_side, alpha, beta)
        });
        self.moves[p] = moves;
        let (best, best_move, horizon_before) = searched?;

        if let (Some(key), Some(table)) = (key, self.table) {
            let proven = self.horizon == horizon_before;
            let bound = Bound::of(best, alpha, beta);
            table.store(Entry {
                key,
                value: value::to_table(best, ply),
                best: if bound == Bound::Upper {
                    NO_MOVE
                } else {
                    best_move
                },
                depth: if proven { self.reach - ply } else { depth },
                bound,
                proven,
                max_side,
                expected: false,
            });
        }
        Ok(best)
    }

    /// Searches the moves of a node; returns the best value, its move, and the horizon
    /// count before the node's children were searched. In a team, a move after the first
    /// whose position another thread is searching now is put off to a second pass (ABDADA,
    /// Weill 1996, in Kerrigan's simplified form): by then that thread's result is usually
    /// in the shared table.
    fn children(
        &mut self,
        moves: &[Move],
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<(i64, Move, u64), Halt> {
        let horizon_before = self.horizon;
        let mut best = Best {
            value: -INF,
            mv: NO_MOVE,
            alpha,
        };
        let share = !LEAN && self.watch.team.is_some() && abdada::shares(depth, ply);
        if !share {
            for (i, &mv) in moves.iter().enumerate() {
                let v = self.search_move(mv, i, None, depth, ply, max_side, best.alpha, beta)?;
                let v = v.expect("searched when not put off");
                if self.take(&mut best, v, mv, i + 1 < moves.len(), ply, beta) {
                    break;
                }
            }
            return Ok((best.value, best.mv, horizon_before));
        }
        let p = ply as usize;
        let mut deferred = std::mem::take(&mut self.deferred[p]);
        deferred.clear();
        let searched =
            self.shared_children(moves, &mut deferred, &mut best, depth, ply, max_side, beta);
        self.deferred[p] = deferred;
        searched.map(|()| (best.value, best.mv, horizon_before))
    }

    /// `children` in a team: a first pass that puts off the moves other threads are on,
    /// then the moves put off.
    #[allow(clippy::too_many_arguments)]
    fn shared_children(
        &mut self,
        moves: &[Move],
        deferred: &mut Vec<Move>,
        best: &mut Best,
        depth: u32,
        ply: u32,
        max_side: bool,
        beta: i64,
    ) -> Result<(), Halt> {
        for (i, &mv) in moves.iter().enumerate() {
            let busy = if i == 0 { None } else { Some(&mut *deferred) };
            let v = self.search_move(mv, i, busy, depth, ply, max_side, best.alpha, beta)?;
            let Some(v) = v else { continue };
            let more = i + 1 < moves.len() || !deferred.is_empty();
            if self.take(best, v, mv, more, ply, beta) {
                return Ok(());
            }
        }
        for (i, &mv) in deferred.iter().enumerate() {
            let v = self.search_move(mv, 1, None, depth, ply, max_side, best.alpha, beta)?;
            let v = v.expect("searched when not put off");
            if self.take(best, v, mv, i + 1 < deferred.len(), ply, beta) {
                break;
            }
        }
        Ok(())
    }

    /// Plays `mv` (the `i`-th move), searches it, and takes it back. With `defer`, a move
    /// whose position another thread is searching is added there and not searched
    /// (`None`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        mv: Move,
        i: usize,
        defer: Option<&mut Vec<Move>>,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<Option<i64>, Halt> {
        self.game.play(mv);
        let mut claim = None;
        if !LEAN && self.watch.team.is_some() && abdada::shares(depth, ply) {
            let key = self.game.hash();
            if let (Some(defer), Some(k)) = (defer, key) {
                if abdada::is_busy(k) {
                    self.game.undo(mv);
                    defer.push(mv);
                    return Ok(None);
                }
            }
            claim = key.map(abdada::Claim::new);
            self.next_key = key;
        }
        let child_max = self.game.max_to_move().unwrap_or(!max_side);
        let method = self.plan.method;
        let searched = if method == Method::Pvs && i > 0 && alpha > -INF {
            self.child(depth, ply, child_max, max_side, alpha, alpha + 1)
                .and_then(|v| {
                    // Fail-soft: v is only a lower bound, so the re-search keeps alpha.
                    if v > alpha && v < beta {
                        self.child(depth, ply, child_max, max_side, alpha, beta)
                    } else {
                        Ok(v)
                    }
                })
        } else if method != Method::Minimax {
            self.child(depth, ply, child_max, max_side, alpha, beta)
        } else {
            self.child(depth, ply, child_max, max_side, -INF, INF)
        };
        drop(claim);
        if !LEAN {
            self.next_key = None;
        }
        self.game.undo(mv);
        searched.map(Some)
    }

    /// Takes a move's value into the node's best; true when the rest can be cut off
    /// (`more`: moves remain, for the statistics).
    #[inline(always)]
    fn take(&mut self, best: &mut Best, v: i64, mv: Move, more: bool, ply: u32, beta: i64) -> bool {
        if v > best.value {
            best.value = v;
            best.mv = mv;
            // Only an exact value has a line worth keeping: a bound's line is never a
            // parent's, so this skips the PV's upkeep at most nodes. The root keeps its move
            // always.
            let exact = v > best.alpha && v < beta;
            if ply == 0 || (self.full_pv && exact) {
                self.pv.set(ply as usize, mv, self.full_pv);
            }
        }
        if self.plan.method == Method::Minimax {
            return false;
        }
        best.alpha = best.alpha.max(v);
        if best.alpha >= beta {
            if more {
                self.stats.cutoffs += 1;
            }
            return true;
        }
        false
    }

    /// A child's value from the parent's point of view, within the parent's window.
    #[inline(always)]
    fn child(
        &mut self,
        depth: u32,
        ply: u32,
        child_max: bool,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        let (a, b) = if child_max == max_side {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        // A leaf (most nodes) is scored here, without the call: the node's code for depth
        // 0 is a few lines once inlined.
        let v = if depth == 1 {
            self.node_here(0, ply + 1, child_max, a, b)
        } else {
            self.node(depth - 1, ply + 1, child_max, a, b)
        }?;
        Ok(if child_max == max_side { v } else { -v })
    }
}

/// A root value as the score in MAX's view. Every score the engine meets lies strictly
/// inside int32, and so does this; the clamp only keeps that promise to C should a
/// value ever stray.
pub(crate) fn max_view(sign: i64, v: i64) -> i32 {
    let score = sign * value::score(v);
    debug_assert!(
        score > i32::MIN as i64 && score < i32::MAX as i64,
        "{score}"
    );
    score.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1) as i32
}
