//! Round-robin matches between the n-player searches at a clock: max^n, paranoid,
//! best-reply search and MCTS with max^n backups, on three-player Rolit or Chinese
//! Checkers. As Schadd and Winands (2011) and Nijssen and Winands set them up: a pairing
//! of two searches plays every seating of the two in the three seats (six, each with
//! one or two seats), so that each has half the seats; a game's win goes to the type of
//! its winner (a shared win in parts). Each opening (a few random plies, from the seed)
//! is played in all six seatings. Prints each pairing's share of wins for the first
//! search, with a 95% interval; 0.5 is level.
//!
//! `cargo run --release --example players -- --game rolit --ms 20 --games 300`

#[path = "../common/args.rs"]
mod args;
#[path = "chinese_checkers.rs"]
mod chinese_checkers;
#[path = "rolit.rs"]
mod rolit;

use std::time::{Duration, Instant};

use minimax::search::best_reply::BestReply;
use minimax::search::maxn::{self, MaxnOptions};
use minimax::search::maxn_mcts::{MaxnMcts, MaxnMctsOptions};
use minimax::search::paranoid::Paranoid;
use minimax::search::{Game, Method, Move, Options, search};

const USAGE: &str = "usage: players [--game rolit|rolit6|checkers] [--ms N] [--games N] \
[--pairs all|ab|mcts] [--opening N] [--seed N] [--playout-depth N] [--table-depth N]
  --game     the game, for three players (rolit: 8x8; rolit6: 6x6)   [rolit]
  --ms       milliseconds a move                                     [20]
  --games    games a pairing (rounded up to a multiple of 6)          [60]
  --pairs    ab: max^n, paranoid and best-reply search in pairs;
             mcts: MCTS against each of them; all: both             [ab]
  --opening  random plies before the searches play                   [3]
  --seed     the openings' seed                                      [1]
  --playout-depth  MCTS's playouts stop after this many plies and score by the
             evaluation (0: to the end)            [0 for Rolit, 8 for Chinese Checkers]
  --table-depth  no matches: max^n to this depth from 20 positions (10 to 29 random
             plies in), with and without its table; the nodes and times of both";

/// The searches.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Maxn,
    Paranoid,
    BestReply,
    Mcts,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Maxn => "max^n",
            Kind::Paranoid => "paranoid",
            Kind::BestReply => "best-reply",
            Kind::Mcts => "MCTS",
        }
    }
}

/// One seat's player: its search, and for MCTS its kept tree and how much of the game
/// it has seen.
struct Player {
    kind: Kind,
    mcts: MaxnMcts,
    seen: usize,
    /// Depths reached (the alpha-beta family) and searches made, for the report.
    depth: u64,
    searches: u64,
}

impl Player {
    fn new(kind: Kind) -> Player {
        Player {
            kind,
            mcts: MaxnMcts::new(),
            seen: 0,
            depth: 0,
            searches: 0,
        }
    }

    /// The move to play after `line` (the game's moves so far).
    fn choose<G: Game + Clone>(&mut self, game: &mut G, line: &[Move], clock: Clock) -> Move {
        let Clock { ms, playout_depth } = clock;
        let time = Some(Duration::from_millis(ms));
        self.searches += 1;
        match self.kind {
            Kind::Maxn => {
                let opts = MaxnOptions {
                    time_limit: time,
                    ..MaxnOptions::default()
                };
                let r = maxn::search(game, &opts).expect("max^n");
                self.depth += r.depth as u64;
                r.best_move.expect("a move")
            }
            Kind::Paranoid => {
                let mut view = Paranoid::new(game.clone()).expect("three players");
                let r = search(&mut view, &mut alpha_beta(time)).expect("paranoid");
                self.depth += r.depth as u64;
                r.best_move.expect("a move")
            }
            Kind::BestReply => {
                let mut view = BestReply::new(game.clone()).expect("three players");
                let r = search(&mut view, &mut alpha_beta(time)).expect("best-reply");
                self.depth += r.depth as u64;
                r.best_move.expect("a move")
            }
            Kind::Mcts => {
                for &mv in &line[self.seen..] {
                    self.mcts.advance(mv);
                }
                self.seen = line.len();
                let opts = MaxnMctsOptions {
                    playouts: 0,
                    time_limit: time,
                    playout_depth,
                    ..MaxnMctsOptions::default()
                };
                let r = self.mcts.search(game, &opts).expect("MCTS");
                self.depth += r.playouts;
                r.best_move.expect("a move")
            }
        }
    }
}

/// What a search is given: milliseconds a move, and MCTS's playout depth.
#[derive(Clone, Copy)]
struct Clock {
    ms: u64,
    playout_depth: u32,
}

fn alpha_beta(time: Option<Duration>) -> Options<'static> {
    Options {
        method: Method::AlphaBeta,
        time_limit: time,
        table_bytes: 16 << 20,
        ..Options::default()
    }
}

/// The six seatings of two searches in three seats: `true` seats the first.
const SEATINGS: [[bool; 3]; 6] = [
    [true, true, false],
    [true, false, true],
    [false, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, true],
];

/// SplitMix64, for the openings.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game from `start` after the opening `opening` (random plies from
/// `seed`), the seats' searches at `ms` a move; the first search's share of the win.
fn play<G: Game + Clone>(
    start: &G,
    seats: [Kind; 3],
    first: Kind,
    opening: u32,
    seed: u64,
    clock: Clock,
    stats: &mut [(u64, u64); 4],
) -> f64 {
    let mut game = start.clone();
    let mut players = seats.map(Player::new);
    let mut line = Vec::new();
    let mut scores = [0; 3];
    let mut r = seed;
    while !game.player_scores(&mut scores) {
        let mut moves = Vec::new();
        game.moves(&mut moves).expect("moves");
        let mv = if (line.len() as u32) < opening {
            r = mix(r);
            moves[(r % moves.len() as u64) as usize]
        } else {
            let p = game.player_to_move();
            players[p].choose(&mut game, &line, clock)
        };
        assert!(moves.contains(&mv), "a legal move");
        game.play(mv);
        line.push(mv);
    }
    for p in &players {
        let k = p.kind as usize;
        stats[k].0 += p.depth;
        stats[k].1 += p.searches;
    }
    let top = *scores.iter().max().unwrap();
    let winners: Vec<usize> = (0..3).filter(|&p| scores[p] == top).collect();
    winners.iter().filter(|&&p| seats[p] == first).count() as f64 / winners.len() as f64
}

/// A pairing's games: the first search's mean share and its 95% interval's half-width.
fn pairing<G: Game + Clone>(
    start: &G,
    a: Kind,
    b: Kind,
    games: usize,
    args: (u32, u64, Clock),
    stats: &mut [(u64, u64); 4],
) -> (f64, f64, usize) {
    let (opening, seed, clock) = args;
    let mut shares = Vec::new();
    for g in 0..games.div_ceil(6) * 6 {
        let seating = SEATINGS[g % 6];
        let seats = seating.map(|first| if first { a } else { b });
        let open_seed = mix(seed ^ (g / 6) as u64);
        shares.push(play(start, seats, a, opening, open_seed, clock, stats));
    }
    let n = shares.len() as f64;
    let mean = shares.iter().sum::<f64>() / n;
    let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt(), shares.len())
}

/// max^n to `depth` from 20 positions (10 to 29 random plies from the seed), without
/// and with its table: the same scores and moves, and the nodes and time of each.
fn table_check<G: Game + Clone>(start: G, name: &str, depth: u32, seed: u64) {
    let mut totals = [(0u64, 0.0f64); 2];
    let mut r = seed;
    for i in 0..20 {
        let mut game = start.clone();
        let mut scores = [0; 3];
        for _ in 0..10 + i {
            if game.player_scores(&mut scores) {
                break;
            }
            let mut moves = Vec::new();
            game.moves(&mut moves).expect("moves");
            r = mix(r);
            game.play(moves[(r % moves.len() as u64) as usize]);
        }
        let mut found = Vec::new();
        for (k, table_bytes) in [0, 16 << 20].into_iter().enumerate() {
            let opts = MaxnOptions {
                max_depth: depth,
                table_bytes,
                ..MaxnOptions::default()
            };
            let r = maxn::search(&mut game, &opts).expect("max^n");
            totals[k].0 += r.nodes;
            totals[k].1 += r.elapsed.as_secs_f64();
            found.push((r.scores, r.best_move));
        }
        assert_eq!(found[0], found[1], "the table changes nothing found");
    }
    let [(n0, t0), (n1, t1)] = totals;
    println!(
        "{name}: max^n to depth {depth} from 20 positions: without its table {n0} nodes, \
         {t0:.2} s; with it {n1} nodes ({:.2}x), {t1:.2} s ({:.2}x)",
        n1 as f64 / n0 as f64,
        t1 / t0
    );
}

fn run<G: Game + Clone>(
    start: G,
    name: &str,
    pairs: &[(Kind, Kind)],
    args: &args::Args,
    playout_depth: u32,
) {
    let ms: u64 = args.number("--ms", 20);
    let clock = Clock {
        ms,
        playout_depth: args.number("--playout-depth", playout_depth),
    };
    let games: usize = args.number("--games", 60);
    let opening: u32 = args.number("--opening", 3);
    let seed: u64 = args.number("--seed", 1);
    println!("{name}, three players, {ms} ms a move, {opening} random plies to open");
    for &(a, b) in pairs {
        let mut stats = [(0u64, 0u64); 4];
        let t = Instant::now();
        let (mean, half, n) = pairing(&start, a, b, games, (opening, seed, clock), &mut stats);
        let per = |k: Kind| {
            let (sum, count) = stats[k as usize];
            sum as f64 / count.max(1) as f64
        };
        let unit = |k: Kind| if k == Kind::Mcts { "playouts" } else { "depth" };
        println!(
            "{:>10} vs {:<10}  {:.3} ± {:.3}  ({n} games, {:.0} s; mean {} {:.1}, {} {:.1})",
            a.name(),
            b.name(),
            mean,
            half,
            t.elapsed().as_secs_f64(),
            unit(a),
            per(a),
            unit(b),
            per(b),
        );
    }
}

fn main() {
    let args = args::Args::parse(
        USAGE,
        &[
            "--game",
            "--ms",
            "--games",
            "--pairs",
            "--opening",
            "--seed",
            "--playout-depth",
            "--table-depth",
        ],
        &[],
    );
    let game = args.choice("--game", &["rolit", "rolit6", "checkers"], "rolit");
    let ab = [
        (Kind::BestReply, Kind::Maxn),
        (Kind::BestReply, Kind::Paranoid),
        (Kind::Paranoid, Kind::Maxn),
    ];
    let mcts = [
        (Kind::Mcts, Kind::Maxn),
        (Kind::Mcts, Kind::Paranoid),
        (Kind::Mcts, Kind::BestReply),
    ];
    let pairs: Vec<(Kind, Kind)> = match args.choice("--pairs", &["ab", "mcts", "all"], "ab") {
        "ab" => ab.to_vec(),
        "mcts" => mcts.to_vec(),
        _ => ab.iter().chain(&mcts).copied().collect(),
    };
    let table_depth: u32 = args.number("--table-depth", 0);
    if table_depth > 0 {
        let seed = args.number("--seed", 1);
        return match game {
            "rolit" => table_check(rolit::Rolit::new(8, 3), "Rolit 8x8", table_depth, seed),
            "rolit6" => table_check(rolit::Rolit::new(6, 3), "Rolit 6x6", table_depth, seed),
            _ => table_check(
                chinese_checkers::ChineseCheckers::new(),
                "Chinese Checkers",
                table_depth,
                seed,
            ),
        };
    }
    match game {
        "rolit" => run(rolit::Rolit::new(8, 3), "Rolit 8x8", &pairs, &args, 0),
        "rolit6" => run(rolit::Rolit::new(6, 3), "Rolit 6x6", &pairs, &args, 0),
        _ => run(
            chinese_checkers::ChineseCheckers::new(),
            "Chinese Checkers (73 cells)",
            &pairs,
            &args,
            8,
        ),
    }
}
