//! The node: the negamax search of one position within a window, with the table, the
//! game's bounds, the move order and, in a team, the moves put off for another thread.

use super::Engine;
use super::quiescence::QUIESCENCE_PLIES;
use crate::search::game::{Game, GameError, Leaf, Move, NO_MOVE, move_first};
use crate::search::limits::Halt;
use crate::search::memory::{lengthen, room};
use crate::search::options::Method;
use crate::search::stack;
use crate::search::table::{Bound, Entry};
use crate::search::twoplayer::abdada;
use crate::search::value::{self, INF, check_score};

/// A node's best value and move so far, and its raised alpha.
struct Best {
    value: i64,
    mv: Move,
    alpha: i64,
}

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The game's score bounds from the side to move's point of view.
    pub(super) fn side_bounds(&mut self, max_side: bool) -> Result<Option<(i64, i64)>, Halt> {
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
    pub(super) fn node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        let v = self.node_bare(depth, ply, max_side, alpha, beta);
        self.unbare(v)
    }

    /// `node`'s recursive call: on a halt, any value, with the halt in `self.halt`.
    fn node_bare(&mut self, depth: u32, ply: u32, max_side: bool, alpha: i64, beta: i64) -> i64 {
        if !LEAN && ply % stack::EVERY == 0 && ply > 0 && ply != self.room_at {
            // (Lean: the depth limit keeps every node but the leaves above ply EVERY.)
            return self.node_with_room(depth, ply, max_side, alpha, beta);
        }
        let v = self.node_here::<false>(depth, ply, max_side, alpha, beta);
        self.bare(v)
    }

    /// A value, or the halt kept for the parent to take.
    #[inline(always)]
    fn bare(&mut self, v: Result<i64, Halt>) -> i64 {
        v.unwrap_or_else(|h| {
            self.halt = Some(h);
            0
        })
    }

    /// The value a bare call returned, or the halt it left: `bare` undone.
    #[inline(always)]
    fn unbare(&mut self, v: i64) -> Result<i64, Halt> {
        self.halt.take().map_or(Ok(v), Err)
    }

    /// `node_bare`, with room on the stack for the next `stack::EVERY` plies. Out of
    /// line, and calling `node_bare` again rather than its body, so that the body has one
    /// inlined copy (two kept `children` out of line: more calls, and 8% more time, on
    /// Connect Four).
    #[cold]
    #[inline(never)]
    fn node_with_room(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> i64 {
        let room_before = std::mem::replace(&mut self.room_at, ply);
        let v = stack::with_room(|| self.node_bare(depth, ply, max_side, alpha, beta));
        self.room_at = room_before;
        v
    }

    /// `node`, on the stack it is on; `FRONTIER` as in `node_body`.
    #[inline(always)]
    fn node_here<const FRONTIER: bool>(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        if LEAN {
            // `reach` serves the table's proven entries only.
            return self.node_body::<FRONTIER>(depth, ply, max_side, alpha, beta);
        }
        let reach_before = self.reach;
        self.reach = ply;
        let v = self.node_body::<FRONTIER>(depth, ply, max_side, alpha, beta);
        self.reach = self.reach.max(reach_before);
        v
    }

    /// Whether a node searched `depth` plies deep is a leaf, which neither clears a line
    /// nor readies buffers: its parent takes its move alone, with no line below. (A
    /// search to no depth limit never reaches depth 0: it learns its height from the
    /// game's ends.)
    #[inline(always)]
    fn lineless(depth: u32) -> bool {
        depth == 0
    }

    /// Makes the buffers of ply `ply` ready, the first time the search reaches it.
    /// Each ply's move list gets room for 64 moves, had fallibly, so that a game listing
    /// no more than that into it needs no memory: memory that cannot be had is
    /// [`GameError::OutOfMemory`], never an abort.
    #[cold]
    pub(super) fn grow(&mut self, ply: u32) -> Result<(), GameError> {
        let p = ply as usize;
        lengthen(&mut self.moves, p + 1, Vec::new)?;
        lengthen(&mut self.deferred, p + 1, Vec::new)?;
        room(&mut self.moves[p], 64)?;
        self.pv.reach(p)?;
        if let Some(learned) = self.learned.as_mut() {
            learned.reach(p)?;
        }
        self.height = ply + 1;
        Ok(())
    }

    /// A node one ply above the leaves (most of a depth-limited search's inner nodes),
    /// in a function of its own with its loop over the leaves inlined: one frame, not two.
    #[inline(never)]
    fn frontier(&mut self, ply: u32, max_side: bool, alpha: i64, beta: i64) -> i64 {
        let v = self.node_here::<true>(1, ply, max_side, alpha, beta);
        self.bare(v)
    }

    /// `node`, with `self.reach` counting from this node; `FRONTIER`: a node one ply above
    /// the leaves, whose loop over its children is inlined with the leaves in it.
    #[inline(always)]
    fn node_body<const FRONTIER: bool>(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, Halt> {
        let given_key = if LEAN { None } else { self.next_key.take() };
        self.watch.tick()?;
        let p = ply as usize;
        if !Self::lineless(depth) {
            if ply >= self.height {
                self.grow(ply)?;
            }
            self.pv.clear(p);
        }
        // The table's slot is fetched from memory while the game answers the questions
        // below: its cache miss is most of a node's time otherwise. A node one ply above
        // the leaves leaves the table alone unless asked (`Options::table_frontier`), and
        // a leaf unless the table comes first (`Options::table_first`).
        // (`table_first` implies `table_frontier`: limits.rs.)
        let key = match self.table {
            Some(table) if !LEAN && (depth > 1 || depth == 1 && self.plan.table_frontier) => {
                let key = given_key.or_else(|| self.game.hash());
                if let Some(k) = key {
                    table.prefetch(k, max_side);
                }
                key
            }
            Some(_) if !LEAN && depth == 0 && self.plan.table_first && !self.quiesces() => {
                given_key.or_else(|| self.game.hash())
            }
            _ => None,
        };
        if !LEAN && self.plan.table_first {
            if let Some(v) = self.table_first(key, depth, ply, max_side, alpha, beta) {
                return Ok(v);
            }
        }
        // The key a leaf's value is kept under (only when the table comes first).
        let leaf_key = if depth == 0 { key } else { None };
        // At the depth limit the game answers whether it is over and, if not, its
        // evaluation in one call (`Game::leaf`), which a game may make cheaper than two.
        let mut evaluation = None;
        let over = if depth == 0 && !self.quiesces() {
            match self.game.leaf() {
                Leaf::Over(score) => Some(score),
                Leaf::Heuristic(e) => {
                    evaluation = Some(e);
                    None
                }
            }
        } else {
            self.game.outcome()
        };
        if let Some(score) = over {
            let score = self.plan.side_score(score, max_side)?;
            self.stats.leaves += 1;
            let v = value::final_at(score, ply);
            if let Some(k) = leaf_key {
                self.keep_leaf(k, v, ply, max_side, true);
            }
            return Ok(v);
        }
        if self.game.is_chance() {
            return Err(GameError::ChanceNode.into());
        }
        let method = self.method();
        let prune = method != Method::Minimax;
        // The range the game's bounds give this node's value, to check a proven value.
        let mut told = None;
        if prune && ply > 0 {
            if let Some((lo, hi)) = self.side_bounds(max_side)? {
                if lo == hi {
                    self.stats.leaves += 1;
                    self.reach = ply + 1;
                    let v = value::final_at(lo, ply + 1);
                    if let Some(k) = leaf_key {
                        self.keep_leaf(k, v, ply, max_side, true);
                    }
                    return Ok(v);
                }
                // The value is at least `floor` and at most `ceiling`: when that settles
                // the window's question (ties included), answer at once, else narrow it.
                let (floor, ceiling) = (value::at_least(lo), value::at_most(hi));
                told = Some((floor, ceiling));
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
            if self.quiesces() {
                return self.quiesce(ply, max_side, alpha, beta, QUIESCENCE_PLIES);
            }
            let e = evaluation.unwrap_or_else(|| self.game.evaluate());
            let e = self.plan.side_score(e, max_side)?;
            self.stats.leaves += 1;
            self.horizon += 1;
            let v = value::heuristic(e);
            if let Some(k) = leaf_key {
                self.keep_leaf(k, v, ply, max_side, false);
            }
            return Ok(v);
        }
        if ply >= stack::MAX_DEPTH {
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
                if let Some(v) = self.table_cut(&e, depth, ply, alpha, beta) {
                    self.moves[p] = moves;
                    return Ok(v);
                }
                // Only a proven bound narrows the window. A heuristic one may disagree
                // with this search (late move reductions and null moves make a value
                // depend on the window it was searched in): a proven fail-low below an
                // alpha it raised would reach the parent inside the parent's window,
                // taken as exact, and prove a wrong value (issue 49). A proven bound
                // cannot disagree with a proven result.
                if ply > 0 && e.fits(depth) && e.proven {
                    let v = value::from_table(e.value, ply);
                    match e.bound {
                        Bound::Lower => alpha = alpha.max(v - 1),
                        Bound::Upper => beta = beta.min(v + 1),
                        _ => {}
                    }
                }
            }
        }

        if !LEAN && self.plan.enhanced_transposition_cutoffs && listed.is_ok() {
            if let Some(v) = self.etc_cut(&moves, depth, ply, max_side, beta) {
                self.moves[p] = moves;
                return Ok(v);
            }
        }
        // (The method's test, a constant where the node is compiled for one, comes after
        // the plan's flag, which is off in most searches.)
        if !LEAN
            && self.plan.null_move
            && matches!(self.method(), Method::AlphaBeta | Method::Pvs)
            && listed.is_ok()
        {
            // The list goes back to its slot meanwhile: the verification searches this
            // position at this ply again (and lists the same moves there).
            self.moves[p] = moves;
            let cut = self.null_cut(depth, ply, max_side, beta);
            moves = std::mem::take(&mut self.moves[p]);
            if !matches!(cut, Ok(None)) {
                self.moves[p] = moves;
                return cut.map(|v| v.expect("a cut-off's value"));
            }
        }
        if !LEAN && self.plan.probcut.is_some() && listed.is_ok() {
            // As for a pass: the list goes back to its slot while the node searches
            // itself shallower at this ply.
            self.moves[p] = moves;
            let cut = self.probcut(depth, ply, max_side, alpha, beta);
            moves = std::mem::take(&mut self.moves[p]);
            if !matches!(cut, Ok(None)) {
                self.moves[p] = moves;
                return cut.map(|v| v.expect("a cut-off's value"));
            }
        }
        if !LEAN
            && self.plan.internal_iterative_deepening
            && table_move == NO_MOVE
            && listed.is_ok()
        {
            // As for a pass: the list goes back to its slot while the node searches
            // itself shallower at this ply.
            self.moves[p] = moves;
            let found = self.shallow_move(key, depth, ply, max_side, alpha, beta);
            moves = std::mem::take(&mut self.moves[p]);
            match found {
                Ok(mv) => table_move = mv,
                Err(h) => {
                    self.moves[p] = moves;
                    return Err(h);
                }
            }
        }
        let searched = match listed {
            Err(e) => Err(e.into()),
            Ok(()) if moves.is_empty() => Err(GameError::NoMovesNotOver.into()),
            Ok(()) => {
                move_first(&mut moves, table_move);
                if !LEAN && depth >= 2 {
                    if let Some(learned) = &self.learned {
                        let first = usize::from(table_move != NO_MOVE && moves[0] == table_move);
                        learned.order(&mut moves[first..], p, max_side);
                    }
                }
                if FRONTIER {
                    self.children_body::<true>(&moves, depth, ply, max_side, alpha, beta)
                } else {
                    self.children(&moves, depth, ply, max_side, alpha, beta)
                }
            }
        };
        self.moves[p] = moves;
        let (best, best_move, horizon_before) = searched?;
        if let Some((floor, ceiling)) = told {
            // From final scores alone (no evaluation below), a value past the bounds (a
            // fail-soft bound past them too) shows that they lied: what they cut off
            // elsewhere may be wrong.
            if (best > ceiling || best < floor) && self.horizon == horizon_before {
                return Err(GameError::ScoreOutsideBounds.into());
            }
        }

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

    /// The value of a table entry for this node, when it answers the window's question
    /// (its depth fits, and its bound settles it).
    #[inline(always)]
    fn table_cut(&mut self, e: &Entry, depth: u32, ply: u32, alpha: i64, beta: i64) -> Option<i64> {
        if ply == 0 || !e.fits(depth) || (self.plan.proven_entries_only && !e.proven) {
            return None;
        }
        let v = value::from_table(e.value, ply);
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        };
        if !usable {
            return None;
        }
        if e.proven {
            self.reach = self.reach.max(ply + e.depth);
        } else {
            self.horizon += 1;
        }
        Some(v)
    }

    /// The table's answer for this node before the game is asked anything
    /// (`Options::table_first`), if it has one. The node reads the table again after
    /// (for its move, and a proven bound's window): twice is cheap for a game whose
    /// questions cost microseconds.
    #[inline(never)]
    fn table_first(
        &mut self,
        key: Option<u64>,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Option<i64> {
        let (key, table) = (key?, self.table?);
        self.stats.table_probes += 1;
        let e = table.probe(key, max_side, false)?;
        let v = self.table_cut(&e, depth, ply, alpha, beta)?;
        self.stats.table_hits += 1;
        Some(v)
    }

    /// Keeps a leaf's value `v`, exact (a final score, or the evaluation at the depth
    /// limit), under `key` when the leaves use the table (`Options::table_first`).
    #[cold]
    #[inline(never)]
    fn keep_leaf(&self, key: u64, v: i64, ply: u32, max_side: bool, proven: bool) {
        if let Some(table) = self.table {
            table.store(Entry {
                key,
                value: value::to_table(v, ply),
                best: NO_MOVE,
                // As a node's: the plies to the final positions (none, or one where the
                // bounds settled it).
                depth: if proven { self.reach - ply } else { 0 },
                bound: Bound::Exact,
                proven,
                max_side,
                expected: false,
            });
        }
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
        self.children_body::<false>(moves, depth, ply, max_side, alpha, beta)
    }

    /// `children`, inlined; `FRONTIER`: the moves lead to lean leaves, scored inline.
    #[inline(always)]
    fn children_body<const FRONTIER: bool>(
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
                let v = self
                    .search_move::<FRONTIER>(mv, i, None, depth, ply, max_side, best.alpha, beta)?;
                let v = v.expect("searched when not put off");
                if self.take(&mut best, v, mv, depth, ply, beta) {
                    self.count_cutoff(i + 1 < moves.len());
                    self.learn(ply, mv, max_side, depth);
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
            let v =
                self.search_move::<false>(mv, i, busy, depth, ply, max_side, best.alpha, beta)?;
            let Some(v) = v else { continue };
            if self.take(best, v, mv, depth, ply, beta) {
                self.count_cutoff(i + 1 < moves.len() || !deferred.is_empty());
                self.learn(ply, mv, max_side, depth);
                return Ok(());
            }
        }
        for (i, &mv) in deferred.iter().enumerate() {
            let v =
                self.search_move::<false>(mv, 1, None, depth, ply, max_side, best.alpha, beta)?;
            let v = v.expect("searched when not put off");
            if self.take(best, v, mv, depth, ply, beta) {
                self.count_cutoff(i + 1 < deferred.len());
                self.learn(ply, mv, max_side, depth);
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
    fn search_move<const FRONTIER: bool>(
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
                    room(defer, 1)?;
                    defer.push(mv);
                    return Ok(None);
                }
            }
            claim = key.map(abdada::Claim::new);
            self.next_key = key;
        }
        let child_max = self.game.max_to_move().unwrap_or(!max_side);
        let cut = if FRONTIER {
            0
        } else {
            self.reduction(i, depth, ply, alpha)
        };
        let searched = if cut > 0 {
            // A late move, first searched shallower with a null window; again at full
            // depth (as below) only if it beats alpha. The horizon the reduced search
            // reached counts as a trial's if it stands (all of it: the trials within it
            // are among its leaves, not added again), and not at all if searched again.
            let (horizon, trials) = self.leaf_counts();
            self.child::<false>(depth - cut, ply, child_max, max_side, alpha, alpha + 1)
                .and_then(|v| match v > alpha {
                    true => {
                        self.restore_leaf_counts((horizon, trials));
                        self.full_depth::<FRONTIER>(i, depth, ply, child_max, max_side, alpha, beta)
                    }
                    false => {
                        self.trial_leaves = trials + (self.horizon - horizon);
                        Ok(v)
                    }
                })
        } else {
            self.full_depth::<FRONTIER>(i, depth, ply, child_max, max_side, alpha, beta)
        };
        drop(claim);
        if !LEAN {
            self.next_key = None;
        }
        self.game.undo(mv);
        searched.map(Some)
    }

    /// The plies by which the `i`-th move of a node `depth` plies from the leaves is
    /// searched shallower first ([`Options::late_move_reductions`]): none for the first
    /// three moves, near the leaves, at the root, without a finite alpha, or in an exact
    /// solve or plain minimax.
    ///
    /// [`Options::late_move_reductions`]: crate::search::Options::late_move_reductions
    #[inline(always)]
    fn reduction(&self, i: usize, depth: u32, ply: u32, alpha: i64) -> u32 {
        let late = !LEAN && self.plan.late_move_reductions && i >= 3 && depth >= 3 && ply > 0;
        if !late || alpha <= -INF || !matches!(self.method(), Method::AlphaBeta | Method::Pvs) {
            return 0;
        }
        if i >= 8 && depth >= 6 { 2 } else { 1 }
    }

    /// A move's search at full depth: PVS's null window and re-search after the first
    /// move, or the whole window.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn full_depth<const FRONTIER: bool>(
        &mut self,
        i: usize,
        depth: u32,
        ply: u32,
        child_max: bool,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, Halt> {
        let method = self.method();
        if method == Method::Pvs && i > 0 && alpha > -INF {
            self.child::<FRONTIER>(depth, ply, child_max, max_side, alpha, alpha + 1)
                .and_then(|v| {
                    // Fail-soft: v is only a lower bound, so the re-search keeps alpha.
                    if v > alpha && v < beta {
                        self.child::<FRONTIER>(depth, ply, child_max, max_side, alpha, beta)
                    } else {
                        Ok(v)
                    }
                })
        } else if method != Method::Minimax {
            self.child::<FRONTIER>(depth, ply, child_max, max_side, alpha, beta)
        } else {
            self.child::<FRONTIER>(depth, ply, child_max, max_side, -INF, INF)
        }
    }

    /// Takes a move's value into the node's best; true when the rest can be cut off.
    #[inline(always)]
    fn take(&mut self, best: &mut Best, v: i64, mv: Move, depth: u32, ply: u32, beta: i64) -> bool {
        if v > best.value {
            best.value = v;
            best.mv = mv;
            // Only an exact value has a line worth keeping: a bound's line is never a
            // parent's, so this skips the PV's upkeep at most nodes. The root keeps its move
            // always.
            let exact = v > best.alpha && v < beta;
            if ply == 0 || (self.full_pv && exact) {
                let below = self.full_pv && !Self::lineless(depth - 1);
                self.pv.set(ply as usize, mv, below);
            }
        }
        if self.method() == Method::Minimax {
            return false;
        }
        best.alpha = best.alpha.max(v);
        best.alpha >= beta
    }

    /// Learns from a cut-off by `mv` (with [`Options::killer_moves`] or
    /// [`Options::history_order`]).
    ///
    /// [`Options::killer_moves`]: crate::search::Options::killer_moves
    /// [`Options::history_order`]: crate::search::Options::history_order
    #[inline(always)]
    fn learn(&mut self, ply: u32, mv: Move, max_side: bool, depth: u32) {
        if !LEAN {
            if let Some(learned) = self.learned.as_mut() {
                learned.cutoff(ply as usize, mv, max_side, depth);
            }
        }
    }

    /// Counts a cut-off that left moves unsearched (`more`): after `take`'s decision, so
    /// that `more` is worked out only at a cut-off (in `take`, at every move, it cost 2%
    /// of a plain search's instructions: callgrind, Connect Four).
    #[inline(always)]
    fn count_cutoff(&mut self, more: bool) {
        if more {
            self.stats.cutoffs += 1;
        }
    }

    /// A child's value from the parent's point of view, within the parent's window.
    #[inline(always)]
    pub(super) fn child<const FRONTIER: bool>(
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
        // A frontier node scores its leaves (most nodes of a depth-limited search) here,
        // without a call, and is itself a function of its own, so that deeper nodes' loop
        // stays small (docs/changes.md, "Performance history", has the figures). The full
        // engine's exact solves never reach depth 1; its frontier is never where a node
        // makes room on the stack, which `node_bare` does.
        let v = if FRONTIER {
            self.node_here::<false>(0, ply + 1, child_max, a, b)?
        } else {
            let v = if depth == 2 && (LEAN || (ply + 1) % stack::EVERY != 0) {
                self.frontier(ply + 1, child_max, a, b)
            } else {
                self.node_bare(depth - 1, ply + 1, child_max, a, b)
            };
            self.unbare(v)?
        };
        Ok(if child_max == max_side { v } else { -v })
    }
}
