//! The search enhancements of issue 41 that need the game's help: quiescence search (the
//! game's noisy moves) and null-move pruning (the game's pass), on a Connect Four of this
//! file whose side to move is its own field, so that a pass is a move `play` and `undo`
//! take. Quiescence is checked against a plain minimax with stand-pat quiescence written
//! apart; null-move pruning against exhaustive search, for what it must never change
//! (proven values), and for what it is for (fewer nodes to a depth).

use minimax::search::{Game, GameError, Method, Move, Options, search};

const PASS: Move = 99;

/// Connect Four with the side to move as a field: 1 (MAX, the first player) or -1.
#[derive(Clone)]
struct Passing {
    board: [[i8; 6]; 7],
    heights: [usize; 7],
    to_move: i8,
    played: Vec<Move>,
    /// Whether `null_move` offers a pass.
    passes: bool,
    /// Whether `noisy_moves` lists the moves that win at once.
    noisy: bool,
}

impl Passing {
    fn new() -> Passing {
        Passing {
            board: [[0; 6]; 7],
            heights: [0; 7],
            to_move: 1,
            played: Vec::new(),
            passes: true,
            noisy: true,
        }
    }

    /// Whether the stone in column `c`'s top is part of four.
    fn four_at(&self, c: usize) -> bool {
        let r = self.heights[c] - 1;
        let p = self.board[c][r];
        [(1i32, 0i32), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| {
                let run = |sign: i32| {
                    (1..4)
                        .take_while(|&k| {
                            let (cc, rr) = (c as i32 + sign * dc * k, r as i32 + sign * dr * k);
                            (0..7).contains(&cc)
                                && (0..6).contains(&rr)
                                && self.board[cc as usize][rr as usize] == p
                        })
                        .count()
                };
                1 + run(1) + run(-1) >= 4
            })
    }

    fn stones(&self) -> usize {
        self.heights.iter().sum()
    }

    /// Moves that win at once, for the side to move.
    fn winning(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.moves(&mut moves).unwrap();
        moves
            .into_iter()
            .filter(|&m| {
                self.play(m);
                let won = self.outcome().is_some_and(|s| s != 0);
                self.undo(m);
                won
            })
            .collect()
    }
}

impl Game for Passing {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            [3, 2, 4, 1, 5, 0, 6]
                .into_iter()
                .filter(|&c| self.heights[c as usize] < 6),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        if mv != PASS {
            let c = mv as usize;
            self.board[c][self.heights[c]] = self.to_move;
            self.heights[c] += 1;
        }
        self.played.push(mv);
        self.to_move = -self.to_move;
    }
    fn undo(&mut self, mv: Move) {
        assert_eq!(self.played.pop(), Some(mv), "undo takes back the last move");
        if mv != PASS {
            let c = mv as usize;
            self.heights[c] -= 1;
            self.board[c][self.heights[c]] = 0;
        }
        self.to_move = -self.to_move;
    }
    /// 100 for a win by the first player, -100 by the second, 0 for a draw.
    fn outcome(&mut self) -> Option<i32> {
        match self.played.last() {
            Some(&m) if m != PASS && self.four_at(m as usize) => {
                Some(100 * self.board[m as usize][self.heights[m as usize] - 1] as i32)
            }
            _ => (self.stones() == 42).then_some(0),
        }
    }
    /// Stones in the centre column, first player minus second, and in the columns beside
    /// it at half weight.
    fn evaluate(&mut self) -> i32 {
        let col = |c: usize| self.board[c].iter().map(|&s| s as i32).sum::<i32>();
        2 * col(3) + col(2) + col(4)
    }
    fn hash(&mut self) -> Option<u64> {
        let mut h = (self.to_move + 1) as u64;
        for column in &self.board {
            for &s in column {
                h = h.wrapping_mul(3).wrapping_add((s + 1) as u64);
            }
        }
        Some(h)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.to_move == 1)
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.noisy {
            out.extend(self.winning());
        }
        Ok(())
    }
    fn null_move(&mut self) -> Option<Move> {
        self.passes.then_some(PASS)
    }
}

/// Positions `plies` random moves in (no game over), from a fixed seed.
fn positions(count: usize, plies: std::ops::RangeInclusive<usize>, seed: u64) -> Vec<Passing> {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Passing::new();
        let n = plies.start() + next() % (plies.end() - plies.start() + 1);
        let mut ok = true;
        for _ in 0..n {
            let mut moves = Vec::new();
            g.moves(&mut moves).unwrap();
            let m = moves[next() % moves.len()];
            g.play(m);
            if g.outcome().is_some() {
                ok = false;
                break;
            }
        }
        if ok {
            out.push(g);
        }
    }
    out
}

/// Minimax to `depth` (MAX's view), each leaf scored by quiescence: the better for the
/// side to move of its evaluation and its noisy moves' values, recursively. Written apart
/// from the engine: no pruning, no table.
fn reference(g: &mut Passing, depth: u32) -> i32 {
    minimax_quiescing(g, depth, 32)
}

/// Plain minimax to `depth` (MAX's view), leaves scored by `evaluate` alone.
fn plain_minimax(g: &mut Passing, depth: u32) -> i32 {
    minimax_quiescing(g, depth, 0)
}

/// Minimax to `depth`, each leaf's quiescence at most `plies` deep.
fn minimax_quiescing(g: &mut Passing, depth: u32, plies: u32) -> i32 {
    fn quiet(g: &mut Passing, left: u32) -> i32 {
        if let Some(s) = g.outcome() {
            return s;
        }
        let max = g.to_move == 1;
        let mut best = g.evaluate();
        if left == 0 {
            return best;
        }
        for m in g.winning() {
            g.play(m);
            let v = quiet(g, left - 1);
            g.undo(m);
            best = if max { best.max(v) } else { best.min(v) };
        }
        best
    }
    if let Some(s) = g.outcome() {
        return s;
    }
    if depth == 0 {
        return quiet(g, plies);
    }
    let max = g.to_move == 1;
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best = if max { i32::MIN } else { i32::MAX };
    for m in moves {
        g.play(m);
        let v = minimax_quiescing(g, depth - 1, plies);
        g.undo(m);
        best = if max { best.max(v) } else { best.min(v) };
    }
    best
}

/// Exhaustive alpha-beta (MAX's view, fail-hard within `(alpha, beta)`), for late
/// positions: plain negamax over the rules, written apart from the engine.
fn exhaustive(g: &mut Passing, mut alpha: i32, beta: i32) -> i32 {
    let side = g.to_move as i32;
    if let Some(s) = g.outcome() {
        return side * s;
    }
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    for m in moves {
        g.play(m);
        let v = -exhaustive(g, -beta, -alpha);
        g.undo(m);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

fn opts(method: Method, depth: u32, table: bool) -> Options<'static> {
    Options {
        method,
        max_depth: depth,
        table_bytes: if table { 1 << 20 } else { 0 },
        ..Options::default()
    }
}

#[test]
fn quiescence_gives_the_value_of_minimax_with_stand_pat_quiescence() {
    let mut differed = 0;
    for (k, start) in positions(40, 8..=24, 1).iter().enumerate() {
        for depth in 1..=3 {
            let mut g = start.clone();
            g.passes = false;
            let want = reference(&mut g, depth);
            for method in [Method::AlphaBeta, Method::Pvs] {
                for table in [false, true] {
                    let mut o = opts(method, depth, table);
                    o.quiescence = true;
                    let r = search(&mut g, &mut o).unwrap();
                    assert_eq!(
                        r.value, want,
                        "position {k} depth {depth} {method:?} table {table}"
                    );
                    assert!(!r.proven || r.value.abs() == 100 || r.value == 0);
                    o.quiescence = false;
                    let plain = search(&mut g, &mut o).unwrap();
                    differed += usize::from(plain.value != want);
                }
            }
            assert_eq!(
                g.played.len(),
                start.played.len(),
                "the game is left as it was"
            );
        }
    }
    // The positions are ones where quiescence matters (a win left on the board).
    assert!(differed > 0, "quiescence changed no value");
}

#[test]
fn null_moves_and_the_other_enhancements_keep_proven_values() {
    // Late positions, labelled by exhaustive search; solved with no depth limit (each
    // iteration a depth limit) and every enhancement on: passes may cut off nodes while
    // lines go past the depth, but the answer must end proven and right.
    let mut cut = 0;
    for (k, start) in positions(12, 24..=28, 2).iter().enumerate() {
        let mut g = start.clone();
        let label = g.to_move as i32 * exhaustive(&mut g, -101, 101);
        for method in [Method::AlphaBeta, Method::Pvs] {
            let mut o = opts(method, u32::MAX, true);
            o.null_move = true;
            o.quiescence = true;
            o.late_move_reductions = true;
            o.aspiration_windows = true;
            o.killer_moves = true;
            o.history_order = true;
            o.node_limit = 50_000_000; // a failure to prove must not hang the test
            let r = search(&mut g, &mut o).unwrap();
            assert!(r.proven, "position {k} {method:?}: {r:?}");
            assert_eq!(r.value, label, "position {k} {method:?}");
            // Whether passes cut anything here: the same search without them differs.
            o.null_move = false;
            cut += usize::from(search(&mut g, &mut o).unwrap().stats.nodes != r.stats.nodes);
        }
        // An exact solve ignores them all: the same nodes with and without.
        let mut o = opts(Method::Exact, u32::MAX, true);
        let plain = search(&mut g, &mut o).unwrap();
        (o.null_move, o.quiescence, o.late_move_reductions) = (true, true, true);
        let enhanced = search(&mut g, &mut o).unwrap();
        assert_eq!(plain.value, label);
        assert_eq!(
            (plain.value, plain.stats.nodes),
            (enhanced.value, enhanced.stats.nodes)
        );
    }
    assert!(cut > 0, "no pass cut anything: the test tests nothing");
}

#[test]
fn null_moves_search_fewer_nodes_to_a_depth_only_where_the_game_passes() {
    let starts = positions(10, 4..=12, 3);
    let nodes = |passes: bool, null_move: bool| -> u64 {
        starts
            .iter()
            .map(|s| {
                let mut g = s.clone();
                g.passes = passes;
                let mut o = opts(Method::Pvs, 9, true);
                o.null_move = null_move;
                search(&mut g, &mut o).unwrap().stats.nodes
            })
            .sum()
    };
    let (off, on) = (nodes(true, false), nodes(true, true));
    assert!((on as f64) < 0.9 * off as f64, "{on} with, {off} without");
    // A game that does not pass: the option changes nothing.
    assert_eq!(nodes(false, true), nodes(false, false));
}

#[test]
fn internal_iterative_deepening_keeps_each_depths_value() {
    // Depths 6 and 7: nodes below the root 5 plies or more from the leaves search
    // themselves shallower first where the table has no move for them.
    let mut reordered = 0;
    for (k, start) in positions(8, 6..=14, 4).iter().enumerate() {
        for depth in [6, 7] {
            let mut g = start.clone();
            g.passes = false;
            let want = plain_minimax(&mut g, depth);
            for method in [Method::AlphaBeta, Method::Pvs] {
                for deepening in [false, true] {
                    let mut o = opts(method, depth, true);
                    o.iterative_deepening = deepening;
                    let plain = search(&mut g, &mut o).unwrap();
                    o.internal_iterative_deepening = true;
                    let r = search(&mut g, &mut o).unwrap();
                    let at = format!("position {k} depth {depth} {method:?} deepening {deepening}");
                    assert_eq!(r.value, want, "{at}");
                    assert_eq!(plain.value, want, "{at}");
                    reordered += usize::from(r.stats.nodes != plain.stats.nodes);
                }
            }
            assert_eq!(
                g.played.len(),
                start.played.len(),
                "the game is left as it was"
            );
        }
    }
    assert!(
        reordered > 0,
        "no search searched otherwise: the test tests nothing"
    );
}
