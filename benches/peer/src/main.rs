//! libminimax against minimax-rs 0.6 (the Rust peer; MIT, a dependency of this benchmark
//! only) in one process, on one plain Connect Four type that both libraries search: the
//! same positions (Pons' sets), the same move order (centre first), the same evaluation
//! (stones weighted by column), no threat ordering and no score bounds. It prints time
//! and node ratios (ours over theirs) and checks that the values agree. `mcts.rs` compares
//! MCTS with treant and minimax-rs on this type and on Hex (`hex.rs`).
//!
//! The board is a bitboard as John Tromp and Pascal Pons describe it in their published
//! write-ups (a column of 6 cells plus a sentinel bit, the side to move's stones and all
//! stones): written here from that description.
//!
//! Usage: peer-bench [--data DIR] [--positions N] [--exact N] (`--exact 0` skips the
//! exact solves); `peer-bench --match MS [--game G] [--games N] [--seed S]` plays a
//! match at `MS` milliseconds a move instead (`matches.rs`), on Connect Four, Othello or
//! Breakthrough.

extern crate ours as minimax; // the name examples/common/othello.rs uses

mod breakthrough;
mod hex;
mod matches;
mod mcts;
mod othello;
mod rng;

use std::cell::Cell;
use std::time::{Duration, Instant};

use ours::search::{
    Game, GameError, Method, Move, Options, ScoreView, Table, search, search_parallel,
};
use peer::{Evaluation, Evaluator, Strategy, Winner};

const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
/// The centre first, then outwards: both libraries try moves in this order.
const ORDER: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];
/// Our score for a won game (theirs is `BEST_EVAL`); evaluations stay far below it.
const WIN: i32 = 1000;

fn bottom(col: u32) -> u64 {
    1 << (col * (HEIGHT + 1))
}
fn top(col: u32) -> u64 {
    1 << (HEIGHT - 1 + col * (HEIGHT + 1))
}
fn column(col: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (col * (HEIGHT + 1))
}

/// Whether `stones` hold four in a row, by shifting the board along each direction.
fn four(stones: u64) -> bool {
    [1, HEIGHT, HEIGHT + 1, HEIGHT + 2].iter().any(|&d| {
        let pairs = stones & (stones >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// A Connect Four position: the side to move's stones, all stones, and the count.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    me: u64,
    mask: u64,
    pub stones: u32,
}

thread_local! {
    /// Moves played on this thread: the node count of both libraries, counted alike.
    static PLAYED: Cell<u64> = const { Cell::new(0) };
}

fn played() -> u64 {
    PLAYED.with(Cell::get)
}

impl Board {
    fn parse(moves: &str) -> Option<Board> {
        let mut b = Board {
            me: 0,
            mask: 0,
            stones: 0,
        };
        for c in moves.bytes() {
            let col = c.checked_sub(b'1')? as u32;
            if col >= WIDTH || !b.can_play(col) || b.won_by_last() {
                return None;
            }
            b.play(col);
        }
        Some(b)
    }
    pub fn can_play(&self, col: u32) -> bool {
        self.mask & top(col) == 0
    }
    pub fn play(&mut self, col: u32) {
        PLAYED.with(|p| p.set(p.get() + 1));
        self.me ^= self.mask;
        self.mask |= self.mask + bottom(col);
        self.stones += 1;
    }
    fn undo(&mut self, col: u32) {
        let stones = self.mask & column(col);
        let highest = 1u64 << (63 - stones.leading_zeros());
        self.mask ^= highest;
        self.me ^= self.mask;
        self.stones -= 1;
    }
    /// Whether the side that just moved made four.
    pub fn won_by_last(&self) -> bool {
        four(self.me ^ self.mask)
    }
    pub fn full(&self) -> bool {
        self.stones == WIDTH * HEIGHT
    }
    pub fn legal(&self) -> impl Iterator<Item = u8> + '_ {
        ORDER.into_iter().filter(|&c| self.can_play(c as u32))
    }
    /// The side to move's stones weighted by column (3 in the centre, 2 and 1 beside it),
    /// minus the opponent's.
    fn evaluate(&self) -> i32 {
        let weight = |s: u64| {
            3 * (s & column(3)).count_ones()
                + 2 * (s & (column(2) | column(4))).count_ones()
                + (s & (column(1) | column(5))).count_ones()
        };
        weight(self.me) as i32 - weight(self.me ^ self.mask) as i32
    }
    /// The same stones with the other side to move (for finding threats).
    fn with_sides_swapped(&self) -> Board {
        Board {
            me: self.me ^ self.mask,
            ..*self
        }
    }
    /// A hash of the position (`me + mask` is unique), mixed.
    fn hash(&self) -> u64 {
        let mut h = (self.me + self.mask).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 31;
        h
    }
}

/// Ours: scores from the side to move, as minimax-rs's are.
impl Game for Board {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(self.legal().map(Move::from));
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        Board::play(self, mv as u32);
    }
    fn undo(&mut self, mv: Move) {
        Board::undo(self, mv as u32);
    }
    fn outcome(&mut self) -> Option<i32> {
        if self.won_by_last() {
            Some(-WIN)
        } else {
            self.full().then_some(0)
        }
    }
    fn evaluate(&mut self) -> i32 {
        Board::evaluate(self)
    }
    fn hash(&mut self) -> Option<u64> {
        Some(Board::hash(self))
    }
    /// The stones on the board in sevens (0 to 6), for ProbCut's fits.
    fn stage(&mut self) -> u32 {
        self.stones / 7
    }
    fn score_view(&mut self) -> ScoreView {
        ScoreView::SideToMove
    }
}

/// Theirs.
pub struct C4;

impl peer::Game for C4 {
    type S = Board;
    type M = u8;
    fn generate_moves(s: &Board, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        moves.extend(s.legal());
        None
    }
    fn apply(s: &mut Board, m: u8) -> Option<Board> {
        s.play(m as u32);
        None
    }
    fn undo(s: &mut Board, m: u8) {
        s.undo(m as u32);
    }
    fn get_winner(s: &Board) -> Option<Winner> {
        if s.won_by_last() {
            Some(Winner::PlayerJustMoved)
        } else if s.full() {
            Some(Winner::Draw)
        } else {
            None
        }
    }
    fn zobrist_hash(s: &Board) -> u64 {
        s.hash()
    }
}

#[derive(Clone, Copy, Default)]
pub struct Eval;

impl Evaluator for Eval {
    type G = C4;
    fn evaluate(&self, s: &Board) -> Evaluation {
        s.evaluate() as Evaluation
    }
}

/// Their value in our terms: a win or a loss is ±WIN.
fn theirs_as_ours(v: Evaluation) -> i32 {
    if v == peer::BEST_EVAL {
        WIN
    } else if v <= peer::WORST_EVAL {
        -WIN
    } else {
        v as i32
    }
}

/// Time and nodes of one side of a comparison.
#[derive(Default, Clone, Copy)]
struct Cost {
    time: Duration,
    nodes: u64,
}

impl Cost {
    fn add(&mut self, time: Duration, nodes: u64) {
        self.time += time;
        self.nodes += nodes;
    }
    fn per_second(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64()
    }
}

/// Runs `f`, returning its answer with the time and the moves played on this thread.
fn measure<T>(f: impl FnOnce() -> T) -> (T, Duration, u64) {
    let (n, t) = (played(), Instant::now());
    let out = f();
    (out, t.elapsed(), played() - n)
}

pub struct Report {
    lines: Vec<String>,
    met: usize,
    targets: usize,
}

impl Report {
    pub fn target(&mut self, name: &str, ratio: f64, at_most: bool, bound: f64) {
        let ok = if at_most {
            ratio <= bound
        } else {
            ratio >= bound
        };
        let rule = if at_most { "at most" } else { "at least" };
        let line = format!(
            "TARGET {name}: {ratio:.2}x ({rule} {bound:.2}x) {}",
            if ok { "met" } else { "NOT MET" }
        );
        println!("{line}");
        self.lines.push(line);
        self.targets += 1;
        self.met += ok as usize;
    }
}

fn load(dir: &str, set: &str, n: usize) -> Vec<Board> {
    let path = format!("{dir}/{set}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| Board::parse(l.split_whitespace().next()?))
        .filter(|b| !b.won_by_last() && !b.full())
        .take(n)
        .collect()
}

/// How often each position is searched by each side in the plain and deepening runs,
/// alternately: the fastest run counts. The machine's noise only ever slows a run down, so the fastest is
/// the steadiest figure; for minimax-rs, whose root order is random, it is also its
/// luckiest order, which favours it.
const REPEATS: usize = 3;

/// Fixed depth without a table: our alpha-beta against their `Negamax`, and the floor.
/// Their root order is random, so their node count varies from run to run: their time
/// is taken at their mean node count over the runs (what a user waits for on average)
/// and their best speed (the machine's noise only slows a run down); their fastest runs,
/// which are also their luckiest orders, are printed beside it.
fn plain(positions: &[Board], depth: u32, report: &mut Report) {
    let (mut us, mut them, mut luckiest) = (Cost::default(), Cost::default(), Cost::default());
    let mut floor = Cost::default();
    for b in positions {
        let mut opts = Options {
            method: Method::AlphaBeta,
            max_depth: depth,
            iterative_deepening: false,
            table_bytes: 0,
            ..Options::default()
        };
        let (mut ours, mut fl) = (None::<Cost>, None::<Cost>);
        let (mut fastest, mut best_speed, mut their_nodes) = (None::<Cost>, 0f64, 0u64);
        for _ in 0..REPEATS {
            let (r, t, n) = measure(|| search(&mut b.clone(), &mut opts).unwrap());
            if ours.is_none_or(|c| t < c.time) {
                ours = Some(Cost { time: t, nodes: n });
            }
            let mut negamax = peer::Negamax::new(Eval, depth as u8);
            let (_, t, n) = measure(|| negamax.choose_move(b));
            if fastest.is_none_or(|c| t < c.time) {
                fastest = Some(Cost { time: t, nodes: n });
            }
            best_speed = best_speed.max(n as f64 / t.as_secs_f64());
            their_nodes += n;
            let theirs = theirs_as_ours(negamax.root_value());
            assert_eq!(r.value, theirs, "depth {depth}, {b:?}: the values differ");
            let (v, t, n) = measure(|| floor_search(*b, depth));
            assert_eq!(
                v, r.value,
                "depth {depth}, {b:?}: the floor's value differs"
            );
            if fl.is_none_or(|c| t < c.time) {
                fl = Some(Cost { time: t, nodes: n });
            }
        }
        let o = ours.unwrap();
        us.add(o.time, o.nodes);
        let mean_nodes = their_nodes / REPEATS as u64;
        them.add(
            Duration::from_secs_f64(mean_nodes as f64 / best_speed),
            mean_nodes,
        );
        let f = fastest.unwrap();
        luckiest.add(f.time, f.nodes);
        let fl = fl.unwrap();
        floor.add(fl.time, fl.nodes);
    }
    println!(
        "plain alpha-beta, depth {depth}, no table: ours {:.3} s, {:.1}M nodes ({:.1}M/s); \
         theirs {:.3} s at their mean of {:.1}M nodes ({:.1}M/s; their fastest runs, their \
         luckiest root orders: {:.3} s, {:.1}M nodes); values agree\n  \
         the floor over our trait: {:.3} s ({:.1}M/s); ours plays {:.2}x its moves a second, \
         the floor {:.2}x minimax-rs's",
        us.time.as_secs_f64(),
        us.nodes as f64 / 1e6,
        us.per_second() / 1e6,
        them.time.as_secs_f64(),
        them.nodes as f64 / 1e6,
        them.per_second() / 1e6,
        luckiest.time.as_secs_f64(),
        luckiest.nodes as f64 / 1e6,
        floor.time.as_secs_f64(),
        floor.per_second() / 1e6,
        us.per_second() / floor.per_second(),
        floor.per_second() / them.per_second(),
    );
    let time = us.time.as_secs_f64() / them.time.as_secs_f64();
    report.target(&format!("plain depth {depth} time"), time, true, 1.0);
    let speed = us.per_second() / them.per_second();
    report.target(&format!("plain depth {depth} nodes/s"), speed, false, 1.0);
}

/// The table memory both get in the deepening and parallel runs.
const TABLE_BYTES: usize = 64 << 20;

/// Iterative deepening with a table of equal memory: ours (PVS) against `IterativeSearch`;
/// on `threads` 2, against `ParallelSearch`. Each position is searched `REPEATS` times by
/// each side, alternately, each time with an empty table, and the fastest run of each
/// counts, as in `plain`: a search here takes 1-5 ms, so that one timer tick or page
/// fault in one run moves the ratio by several percent.
fn deepening(positions: &[Board], depth: u32, threads: usize, report: &mut Report) {
    let (mut us, mut them) = (Cost::default(), Cost::default());
    // Ours with the table one ply above the leaves too (`table_frontier`, off by default).
    let mut frontier = Cost::default();
    let mut differ = 0;
    let mut table = Table::new(TABLE_BYTES).expect("a table");
    table.prefault(); // mapped once, outside the timing (theirs is allocated outside it too)
    // Ours with `table_frontier` gets a table of its own, on one thread only.
    let mut other_table = (threads == 1).then(|| {
        let mut t = Table::new(TABLE_BYTES).expect("a table");
        t.prefault();
        t
    });
    for b in positions {
        let (mut ours, mut theirs_best) = (None::<Cost>, None::<Cost>);
        let mut ours_frontier = None::<Cost>;
        for _ in 0..REPEATS {
            table.clear();
            let mut opts = Options {
                method: Method::Pvs,
                max_depth: depth,
                iterative_deepening: true,
                table: Some(&mut table),
                threads,
                ..Options::default()
            };
            let (r, t, n) = measure(|| search_parallel(&mut b.clone(), &mut opts).unwrap());
            if ours.is_none_or(|c| t < c.time) {
                ours = Some(Cost { time: t, nodes: n });
            }
            let options = peer::IterativeOptions::new().with_table_byte_size(TABLE_BYTES);
            let (theirs, t, n) = if threads == 1 {
                let mut s = peer::IterativeSearch::new(Eval, options);
                s.set_max_depth(depth as u8);
                let (_, t, n) = measure(|| s.choose_move(b));
                (s.root_value(), t, n)
            } else {
                let par = peer::ParallelOptions::new().with_num_threads(threads);
                let mut s = peer::ParallelSearch::new(Eval, options, par);
                s.set_max_depth(depth as u8);
                let (_, t, n) = measure(|| s.choose_move(b));
                (s.root_value(), t, n)
            };
            if theirs_best.is_none_or(|c| t < c.time) {
                theirs_best = Some(Cost { time: t, nodes: n });
            }
            differ += (r.value != theirs_as_ours(theirs)) as usize;
            if let Some(other_table) = other_table.as_mut() {
                // On a table of its own, after theirs: no run finds the lines of the one
                // before it in the cache (theirs makes a new table each time, which
                // flushes it), since a search that did would run at several times its
                // speed from memory.
                other_table.clear();
                let mut opts = Options {
                    method: Method::Pvs,
                    max_depth: depth,
                    iterative_deepening: true,
                    table: Some(other_table),
                    table_frontier: true,
                    ..Options::default()
                };
                let (_, t, n) = measure(|| search(&mut b.clone(), &mut opts).unwrap());
                if ours_frontier.is_none_or(|c| t < c.time) {
                    ours_frontier = Some(Cost { time: t, nodes: n });
                }
            }
        }
        let (o, t) = (ours.unwrap(), theirs_best.unwrap());
        us.add(o.time, o.nodes);
        them.add(t.time, t.nodes);
        if let Some(f) = ours_frontier {
            frontier.add(f.time, f.nodes);
        }
    }
    let what = if threads == 1 {
        "deepening".to_string()
    } else {
        format!("{threads} threads")
    };
    // On more threads, nodes are counted on the calling thread only: time is the measure.
    println!(
        "{what}, depth {depth}, {} MiB tables, fastest of {REPEATS} runs a position: ours \
         {:.3} s; theirs {:.3} s; values differ in {differ} of {} runs (a table's \
         depth-limited values may)",
        TABLE_BYTES >> 20,
        us.time.as_secs_f64(),
        them.time.as_secs_f64(),
        positions.len() * REPEATS,
    );
    if threads == 1 {
        println!(
            "  ours with the table one ply above the leaves too (table_frontier): {:.3} s, \
             {:.2}M nodes against {:.2}M without ({:.2}x its time)",
            frontier.time.as_secs_f64(),
            frontier.nodes as f64 / 1e6,
            us.nodes as f64 / 1e6,
            us.time.as_secs_f64() / frontier.time.as_secs_f64(),
        );
    }
    let time = us.time.as_secs_f64() / them.time.as_secs_f64();
    let bound = if threads == 1 { 1.0 } else { 0.8 };
    report.target(&format!("{what} depth {depth} time"), time, true, bound);
}

/// Exact solving of the plain type on 1 and 2 threads (ours only), with the round trip of
/// a cache line between two threads before and after: what sharing the table costs on
/// this machine varies several-fold with it (docs/performance.md).
fn exact(positions: &[Board], report: &mut Report) {
    let mut times = [Duration::ZERO; 2];
    let mut values = [Vec::new(), Vec::new()];
    let mut table = Table::new(TABLE_BYTES).expect("a table");
    table.prefault();
    let trip_before = round_trip();
    // Alternating, a position at a time, so that the machine's drift falls on both.
    for b in positions {
        for (i, threads) in [1, 2].into_iter().enumerate() {
            table.clear();
            let mut opts = Options {
                method: Method::Exact,
                iterative_deepening: false,
                table: Some(&mut table),
                threads,
                ..Options::default()
            };
            let (r, t, _) = measure(|| search_parallel(&mut b.clone(), &mut opts).unwrap());
            assert!(r.proven);
            times[i] += t;
            values[i].push(r.value.signum());
        }
    }
    assert_eq!(values[0], values[1], "1 and 2 threads give the same values");
    println!(
        "exact solve, {} positions, plain type: 1 thread {:.3} s, 2 threads {:.3} s; a cache \
         line's round trip between two threads: {:.0} ns before, {:.0} ns after",
        positions.len(),
        times[0].as_secs_f64(),
        times[1].as_secs_f64(),
        trip_before.as_secs_f64() * 1e9,
        round_trip().as_secs_f64() * 1e9
    );
    let speedup = times[0].as_secs_f64() / times[1].as_secs_f64();
    report.target("exact solve speed-up on 2 threads", speedup, false, 1.5);
}

/// A match player by name: `minimax-rs` (with `+null`, `+quiescence`), or the engine's
/// settings (`today`, or `killers`, `history`, `lmr`, `aspiration`, `time`,
/// `quiescence`, `null` joined by `+`).
fn who_of(name: &str) -> matches::Who {
    match name {
        _ if name.starts_with("minimax-rs") => matches::Who::MinimaxRs(
            matches::TheirTune::parse(name).expect("minimax-rs, +null, +quiescence"),
        ),
        _ => matches::Who::Ours(matches::Tune::parse(name).unwrap_or_else(|| {
            panic!("a player: minimax-rs, today, or killers, history, lmr, aspiration, time, quiescence, null joined by +")
        })),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut n, mut n_exact) = ("../shared/data/connect4".to_string(), 20, 50);
    let (mut match_ms, mut games, mut seed, mut depths) = (None, 400, 1, [0, 0]);
    let mut ablation = false;
    let mut rows = Vec::new();
    let (mut to_depth, mut extra) = (None, 14);
    let mut first = "today".to_string();
    let mut arena = "connect4".to_string();
    let mut who = [
        matches::Who::Ours(matches::Tune::TODAY),
        matches::Who::MinimaxRs(matches::TheirTune::default()),
    ];
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match a.as_str() {
            "--data" => dir = value(),
            "--positions" => n = value().parse().expect("a count"),
            "--exact" => n_exact = value().parse().expect("a count"),
            "--match" => match_ms = Some(value().parse().expect("milliseconds a move")),
            "--games" => games = value().parse().expect("a count"),
            "--seed" => seed = value().parse().expect("a seed"),
            "--ablation" => ablation = true,
            "--to-depth" => to_depth = Some(value().parse().expect("a depth")),
            "--extra" => extra = value().parse().expect("a count"),
            "--rows" => rows = value().split(',').map(String::from).collect(),
            "--game" => arena = value(),
            "--first" => {
                first = value();
                who[0] = who_of(&first);
            }
            "--second" => who[1] = who_of(&value()),
            "--depths" => {
                let v = value();
                let mut d = v.split(',').map(|x| x.parse().expect("a depth"));
                depths = [d.next().expect("ours"), d.next().expect("theirs")];
            }
            _ => panic!(
                "usage: peer-bench [--data DIR] [--positions N] [--exact N] \\
                 [--ablation [--game G] [--games N] [--rows P,Q]] [--to-depth D [--game G] [--games N] [--extra PLIES] [--first P]] [--match MS [--game connect4|othello|breakthrough] [--games N] [--seed S] [--first P] [--second P] [--depths D1,D2]]"
            ),
        }
    }
    if let Some(depth) = to_depth {
        let tune = &first;
        match arena.as_str() {
            "connect4" => matches::time_to_depth::<Board>(games, seed, extra, depth, tune),
            "othello" => {
                matches::time_to_depth::<othello::Othello>(games, seed, extra, depth, tune)
            }
            _ => panic!("a game: connect4 or othello"),
        }
        return;
    }
    if ablation {
        match arena.as_str() {
            "connect4" => matches::ablation::<Board>(games, seed, &rows),
            "othello" => matches::ablation::<othello::Othello>(games, seed, &rows),
            "breakthrough" => matches::ablation::<breakthrough::Breakthrough>(games, seed, &rows),
            _ => panic!("a game: connect4, othello or breakthrough"),
        }
        return;
    }
    if let Some(ms) = match_ms {
        match arena.as_str() {
            "connect4" => matches::run::<Board>(ms, games, seed, depths, who),
            "othello" => matches::run::<othello::Othello>(ms, games, seed, depths, who),
            "breakthrough" => {
                matches::run::<breakthrough::Breakthrough>(ms, games, seed, depths, who)
            }
            _ => panic!("a game: connect4, othello or breakthrough"),
        }
        return;
    }
    // Early positions (Test_L1_R2: 0 to 14 stones played, 14 to 28 moves left) for the
    // depth-limited runs, which then stop at the depth rather than at the game's end.
    let early = load(&dir, "Test_L1_R2", n);
    println!(
        "libminimax against minimax-rs 0.6, {} positions of Test_L1_R2; ratios are ours over theirs",
        early.len()
    );
    let mut report = Report {
        lines: Vec::new(),
        met: 0,
        targets: 0,
    };
    if std::env::var_os("PEER_MCTS_ONLY").is_some() {
        mcts::compare_all(&early, &mut report);
        return;
    }
    // PEER_DEPTHS=10 (say) runs the plain searches at those depths only, for profiling.
    let plain_depths: Vec<u32> = match std::env::var("PEER_DEPTHS") {
        Ok(d) => d.split(',').map(|x| x.parse().expect("depths")).collect(),
        Err(_) => vec![10, 12],
    };
    for depth in plain_depths {
        plain(&early, depth, &mut report);
    }
    if std::env::var_os("PEER_PLAIN_ONLY").is_some() {
        return; // for profiling the node alone
    }
    for depth in [10, 12] {
        deepening(&early, depth, 1, &mut report);
    }
    deepening(&early, 12, 2, &mut report);
    if n_exact > 0 {
        exact(&load(&dir, "Test_L2_R2", n_exact), &mut report);
    }
    mcts::compare_all(&early, &mut report);
    println!(
        "SUMMARY peer: {} of {} targets met",
        report.met, report.targets
    );
}

/// The floor of any engine over our `Game` trait: a bare fail-soft negamax through the
/// same calls (outcome, evaluate, moves, play, undo) with the same value encoding and
/// score checks as ours, and nothing else (no statistics, no line, no limits). A game's
/// error is kept beside the value, as our node keeps it, not returned in a `Result`
/// (which costs more). Measured beside ours, it says how much of a node's cost is the
/// engine's and how much the trait's; it is not a search the library offers.
struct Floor<'a, G> {
    game: &'a mut G,
    buffers: Vec<Vec<Move>>,
    error: Option<GameError>,
}

impl<G: Game> Floor<'_, G> {
    /// A score as our engine takes it: never `i32::MIN` or `i32::MAX`.
    fn checked(&mut self, s: i32) -> i64 {
        if s == i32::MIN || s == i32::MAX {
            self.error = Some(GameError::ScoreOutOfRange);
        }
        s as i64
    }

    /// The value; on an error, any value, with the error in `self.error`.
    fn node(&mut self, depth: u32, ply: u32, mut alpha: i64, beta: i64) -> i64 {
        if let Some(s) = self.game.outcome() {
            let s = self.checked(s);
            return s * (1 << 24) + s.signum() * ((1 << 22) - ply as i64);
        }
        if depth == 0 {
            let e = self.game.evaluate();
            return self.checked(e) * (1 << 24);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        moves.clear();
        let mut best = i64::MIN + 1;
        match self.game.moves(&mut moves) {
            Err(e) => self.error = Some(e),
            Ok(()) => {
                for &m in &moves {
                    self.game.play(m);
                    let v = -self.node(depth - 1, ply + 1, -beta, -alpha);
                    self.game.undo(m);
                    if self.error.is_some() {
                        break;
                    }
                    best = best.max(v);
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply as usize] = moves;
        best
    }
}

fn floor_search(mut b: Board, depth: u32) -> i32 {
    let buffers = vec![Vec::new(); depth as usize + 1];
    let mut floor = Floor {
        game: &mut b,
        buffers,
        error: None,
    };
    let v = floor.node(depth, 0, -(1 << 60), 1 << 60);
    assert_eq!(floor.error, None, "the plain type breaks no contract");
    ((v + (1 << 23)) >> 24) as i32
}

/// The time a cache line takes to go from one thread to another and back, the median of
/// five runs of 100,000 round trips: two threads pass a counter back and forth, each
/// waiting for the other's increment. Sharing a tree or a table costs about this at every
/// line both threads write, and on this virtual machine it varies several-fold with where
/// the host places the two cores.
pub fn round_trip() -> Duration {
    use std::sync::atomic::{AtomicU64, Ordering::Acquire, Ordering::Release};
    const TRIPS: u64 = 100_000;
    #[repr(align(128))]
    struct Line(AtomicU64);
    let mut runs: Vec<Duration> = (0..5)
        .map(|_| {
            let line = Line(AtomicU64::new(0));
            std::thread::scope(|s| {
                s.spawn(|| {
                    for i in 0..TRIPS {
                        while line.0.load(Acquire) != 2 * i + 1 {
                            std::hint::spin_loop();
                        }
                        line.0.store(2 * i + 2, Release);
                    }
                });
                let start = Instant::now();
                for i in 0..TRIPS {
                    line.0.store(2 * i + 1, Release);
                    while line.0.load(Acquire) != 2 * i + 2 {
                        std::hint::spin_loop();
                    }
                }
                start.elapsed() / TRIPS as u32
            })
        })
        .collect();
    runs.sort();
    runs[2]
}
