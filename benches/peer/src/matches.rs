//! Matches at a clock (issue 41): two players, each libminimax's engine at some settings
//! or minimax-rs 0.6's `IterativeSearch`, on one game type that both search (the same
//! evaluation and move order for both), at a fixed time a move. The games: the plain
//! Connect Four type of this benchmark and Othello 8x8 (`othello.rs`), each an `Arena`.
//! Openings are seeded random plies with no win and no threat on the board (for Connect
//! Four: no column that would win at once for either side); each is played twice, colours
//! swapped. Prints the first player's wins, draws and losses, its score with its 95%
//! interval, the Elo difference, and per player the mean depth reached and the mean and
//! largest time a move.
//!
//! minimax-rs runs with a table of equal memory, null-window search, countermoves and
//! countermove history (the settings issue 41 names; where a game has no null move, as
//! the Connect Four type has not, its countermoves are not set up), and with
//! `set_depth_or_timeout` at a bound on the plies left: with only a timeout its
//! deepening did not return near the end of a game here.

use std::time::{Duration, Instant};

use ours::search::{
    CalibrateOptions, DEFAULT_T, Game, Method, Options, ProbCut, Table, calibrate_probcut, search,
};
use peer::Evaluator;

use super::{Board, Eval, HEIGHT, WIDTH};

/// A game the matches are played on: our `Game` and minimax-rs's, on one type.
pub trait Arena: Game + Clone {
    /// minimax-rs's evaluator (and through it, its rules) for this type.
    type Peer: Evaluator<G: peer::Game<S = Self, M = u8>> + Copy + Default;
    const NAME: &'static str;
    /// Random plies in an opening.
    const OPENING_PLIES: u32;
    fn start() -> Self;
    /// The legal moves, none at the end.
    fn legal_moves(&self, out: &mut Vec<u8>);
    /// A random legal move, or `None` at the end.
    fn random_move(&self, rng: &mut Rng) -> Option<u8> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        (!moves.is_empty()).then(|| moves[(rng.next() % moves.len() as u64) as usize])
    }
    /// Whether the position may start a game: not over, no threat on the board.
    fn quiet(&self) -> bool;
    fn play_move(&mut self, mv: u8);
    fn is_legal(&self, mv: u8) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }
    /// At the end, the side to move's result: 1, 0.5 or 0.
    fn result(&self) -> Option<f64>;
    /// The stage of the game, for depths by stage (0 to 6).
    fn stage(&self) -> usize;
    /// A bound on the plies left (minimax-rs's depth bound).
    fn plies_left(&self) -> u32;
    /// The depths the ablation searches to (a few seconds each over 20 openings).
    const ABLATION_DEPTHS: [u32; 2] = [8, 10];
    /// The deepest depth of a ProbCut fit's calibration (`fit_for`).
    const FIT_DEPTH: u32 = 10;
}

/// The table memory each player gets.
const TABLE_BYTES: usize = 16 << 20;

/// SplitMix64, seeded: the same openings on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Whether a column wins at once for the side to move, or would for the other side.
fn threatened(b: &Board) -> bool {
    let other = b.with_sides_swapped();
    b.legal().any(|c| {
        let (mut x, mut y) = (*b, other);
        x.play(c as u32);
        y.play(c as u32);
        x.won_by_last() || y.won_by_last()
    })
}

impl Arena for Board {
    type Peer = Eval;
    const NAME: &'static str = "Connect Four";
    const OPENING_PLIES: u32 = 6;
    fn start() -> Board {
        Board::parse("").expect("the empty board")
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        if !self.won_by_last() {
            out.extend(self.legal());
        }
    }
    fn quiet(&self) -> bool {
        !threatened(self) && !self.won_by_last() && !self.full()
    }
    fn play_move(&mut self, mv: u8) {
        self.play(mv as u32);
    }
    fn is_legal(&self, mv: u8) -> bool {
        (mv as u32) < WIDTH && self.can_play(mv as u32)
    }
    fn result(&self) -> Option<f64> {
        if self.won_by_last() {
            Some(0.0)
        } else {
            self.full().then_some(0.5)
        }
    }
    fn stage(&self) -> usize {
        (self.stones / 6) as usize
    }
    fn plies_left(&self) -> u32 {
        WIDTH * HEIGHT - self.stones
    }
}

/// An opening of `G::OPENING_PLIES` random plies, drawn again until it is quiet.
fn opening<G: Arena>(rng: &mut Rng) -> G {
    loop {
        let mut b = G::start();
        for _ in 0..G::OPENING_PLIES {
            match b.random_move(rng) {
                Some(m) => b.play_move(m),
                None => break,
            }
        }
        if b.quiet() {
            return b;
        }
    }
}

/// One side of the match, with what it did.
#[derive(Default)]
struct Side {
    /// Moves and summed depth by stones on the board, in sixes.
    phase: [(u64, u64); 7],
    moves: u64,
    depth: u64,
    time: Duration,
    longest: Duration,
    /// Moves that took more than 1.1 times the limit.
    over: u64,
}

impl Side {
    /// The mean time a move, in milliseconds.
    fn mean_ms(&self) -> f64 {
        self.time.as_secs_f64() * 1e3 / self.moves as f64
    }
}

/// The engine's settings a player uses: `today` is the engine as it was before issue 41.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tune {
    pub killer_moves: bool,
    pub history_order: bool,
    pub late_move_reductions: bool,
    pub aspiration_windows: bool,
    pub time_management: bool,
    pub quiescence: bool,
    pub null_move: bool,
    /// Multi-ProbCut's confidence `t`, when it is on (its fit calibrated for the game and
    /// the other settings: `fit_for`).
    pub probcut: Option<f64>,
    /// Enhanced transposition cutoffs.
    pub etc: bool,
    /// Internal iterative deepening.
    pub iid: bool,
}

impl Tune {
    pub const TODAY: Tune = Tune {
        killer_moves: false,
        history_order: false,
        late_move_reductions: false,
        aspiration_windows: false,
        time_management: false,
        quiescence: false,
        null_move: false,
        probcut: None,
        etc: false,
        iid: false,
    };

    /// A setting by name: `today`, or `+` joined enhancements (`killers`, `history`,
    /// `lmr`, `aspiration`, `time`, `quiescence`, `null`, `etc`, `iid`, and `probcut` or `probcut=T`
    /// for Multi-ProbCut at confidence `T`).
    pub fn parse(name: &str) -> Option<Tune> {
        let mut t = Tune::TODAY;
        for part in name.split('+') {
            match part {
                "today" => {}
                "killers" => t.killer_moves = true,
                "history" => t.history_order = true,
                "lmr" => t.late_move_reductions = true,
                "aspiration" => t.aspiration_windows = true,
                "time" => t.time_management = true,
                "quiescence" => t.quiescence = true,
                "null" => t.null_move = true,
                "probcut" => t.probcut = Some(DEFAULT_T),
                "etc" => t.etc = true,
                "iid" => t.iid = true,
                _ => match part.strip_prefix("probcut=") {
                    Some(v) => t.probcut = Some(v.parse().ok()?),
                    None => return None,
                },
            }
        }
        Some(t)
    }

    /// The engine's options at this setting (PVS with deepening), with `fit` for
    /// ProbCut.
    pub fn options<'a>(&self, fit: Option<ProbCut>) -> Options<'a> {
        Options {
            killer_moves: self.killer_moves,
            history_order: self.history_order,
            late_move_reductions: self.late_move_reductions,
            aspiration_windows: self.aspiration_windows,
            time_management: self.time_management,
            quiescence: self.quiescence,
            null_move: self.null_move,
            probcut: fit,
            enhanced_transposition_cutoffs: self.etc,
            internal_iterative_deepening: self.iid,
            method: Method::Pvs,
            iterative_deepening: true,
            ..Options::default()
        }
    }

    /// The settings a ProbCut fit is calibrated with: these, without ProbCut and the
    /// ones that change no value (time, aspiration), named for its file.
    fn fit_name(&self) -> String {
        let mut parts = Vec::new();
        for (on, name) in [
            (self.killer_moves, "killers"),
            (self.history_order, "history"),
            (self.late_move_reductions, "lmr"),
            (self.quiescence, "quiescence"),
            (self.null_move, "null"),
        ] {
            if on {
                parts.push(name);
            }
        }
        if parts.is_empty() {
            parts.push("today");
        }
        parts.join("+")
    }
}

/// Where fits are kept between runs (`PROBCUT_DIR`, default `build/probcut`).
fn fit_dir() -> std::path::PathBuf {
    std::env::var_os("PROBCUT_DIR").map_or_else(|| "build/probcut".into(), Into::into)
}

/// The ProbCut fit a setting uses on `G`: read from its file if a run made it before,
/// else calibrated by the engine's self-play from the start (16 games, depths to
/// `G::FIT_DEPTH`, seed 1) and kept there; its `t` the setting's.
pub fn fit_for<G: Arena>(tune: &Tune) -> Option<ProbCut> {
    let t = tune.probcut?;
    let dir = fit_dir();
    let path = dir.join(format!(
        "{}-{}.txt",
        G::NAME.to_lowercase().replace(' ', "_"),
        tune.fit_name()
    ));
    let mut fit = match std::fs::read_to_string(&path) {
        Ok(text) => ProbCut::from_text(&text).expect("a fit written by this program"),
        Err(_) => {
            let began = Instant::now();
            let settings = Tune {
                probcut: None,
                ..*tune
            }
            .options(None);
            let opts = CalibrateOptions {
                max_depth: G::FIT_DEPTH,
                games: 16,
                ..CalibrateOptions::default()
            };
            let c = calibrate_probcut(&mut G::start(), &settings, &opts).expect("a legal game");
            eprintln!(
                "calibrated a ProbCut fit for {} ({}) in {:.1} s from {} positions ({} used): {}",
                G::NAME,
                tune.fit_name(),
                began.elapsed().as_secs_f64(),
                c.positions,
                c.used,
                path.display()
            );
            std::fs::create_dir_all(&dir).expect("the fits' directory");
            std::fs::write(&path, c.fit.to_text()).expect("the fit's file");
            c.fit
        }
    };
    fit.set_t(t).expect("a finite t of at least 0");
    Some(fit)
}

/// Who plays: the engine at some settings, or minimax-rs at some.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Who {
    Ours(Tune),
    MinimaxRs(TheirTune),
}

/// minimax-rs's settings beyond the ones it always has here (null-window search,
/// countermoves, countermove history): its null-move pruning (a reduction of 2) and its
/// quiescence search (8 plies), where the game's traits allow them.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TheirTune {
    pub null_move: bool,
    pub quiescence: bool,
}

impl TheirTune {
    /// `minimax-rs`, with `+null` and `+quiescence` as asked.
    pub fn parse(name: &str) -> Option<TheirTune> {
        let mut parts = name.split('+');
        if parts.next() != Some("minimax-rs") {
            return None;
        }
        let mut t = TheirTune::default();
        for part in parts {
            match part {
                "null" => t.null_move = true,
                "quiescence" => t.quiescence = true,
                _ => return None,
            }
        }
        Some(t)
    }
}

enum Player<G: Arena> {
    Ours(Box<Table>, Tune, Option<Box<ProbCut>>),
    Theirs(Box<peer::IterativeSearch<G::Peer>>, TheirTune),
}

impl<G: Arena> Player<G> {
    fn new_game(&mut self) {
        match self {
            Player::Ours(t, ..) => t.clear(),
            Player::Theirs(s, tune) => **s = theirs::<G>(*tune),
        }
    }

    /// The move chosen in `limit` (or at `depth`, if not 0), and the depth of the search
    /// that chose it.
    fn choose(&mut self, b: &G, limit: Duration, depth: u32) -> (u8, u32) {
        match self {
            Player::Ours(table, tune, fit) => {
                let mut opts = Options {
                    table: Some(table),
                    time_limit: (depth == 0).then_some(limit),
                    max_depth: if depth == 0 { u32::MAX } else { depth },
                    ..tune.options(fit.as_deref().copied())
                };
                let r = search(&mut b.clone(), &mut opts).expect("a legal game");
                (r.best_move.expect("a move") as u8, r.depth)
            }
            Player::Theirs(s, _) => {
                use peer::Strategy;
                let left = b.plies_left().min(u8::MAX as u32);
                match depth {
                    0 => s.set_depth_or_timeout(left as u8, limit),
                    d => s.set_depth_or_timeout(d.min(left) as u8, Duration::from_secs(3600)),
                }
                let m = s.choose_move(b).expect("a move");
                let stats = s.stats(&mut b.clone());
                let depth = stats
                    .split("to depth ")
                    .nth(1)
                    .and_then(|t| t.split('.').next())
                    .and_then(|d| d.trim().parse().ok())
                    .unwrap_or(0);
                (m, depth)
            }
        }
    }
}

fn theirs<G: Arena>(tune: TheirTune) -> peer::IterativeSearch<G::Peer> {
    let mut options = peer::IterativeOptions::new()
        .with_table_byte_size(TABLE_BYTES)
        .with_null_window_search(true)
        .with_countermoves()
        .with_countermove_history();
    if tune.null_move {
        options = options.with_null_move_depth(2);
    }
    if tune.quiescence {
        options = options.with_quiescence_search_depth(8);
    }
    peer::IterativeSearch::new(G::Peer::default(), options)
}

/// Plays one game from `b`, `players[first]` moving first: 1, 0.5 or 0 for player 0.
fn game<G: Arena>(
    mut b: G,
    players: &mut [Player<G>; 2],
    sides: &mut [Side; 2],
    first: usize,
    limit: Duration,
    depths: [u32; 2],
) -> f64 {
    for p in players.iter_mut() {
        p.new_game();
    }
    let mut turn = first;
    loop {
        if let Some(r) = b.result() {
            // The side to move's result.
            return if turn == 0 { r } else { 1.0 - r };
        }
        let t = Instant::now();
        let (m, depth) = players[turn].choose(&b, limit, depths[turn]);
        let took = t.elapsed();
        let s = &mut sides[turn];
        (s.moves, s.depth, s.time) = (s.moves + 1, s.depth + depth as u64, s.time + took);
        s.longest = s.longest.max(took);
        s.over += u64::from(depths[turn] == 0 && took > limit.mul_f64(1.1));
        let ph = &mut s.phase[b.stage().min(6)];
        (ph.0, ph.1) = (ph.0 + 1, ph.1 + depth as u64);
        assert!(b.is_legal(m), "a legal move");
        b.play_move(m);
        turn = 1 - turn;
    }
}

/// A match of `games` games (rounded up to pairs) at `ms` a move from openings drawn
/// with `seed`.
/// With `depths` not 0, each player searches to its fixed depth instead (a check that
/// the players are what they seem).
pub fn run<G: Arena>(ms: u64, games: usize, seed: u64, depths: [u32; 2], who: [Who; 2]) {
    let limit = Duration::from_millis(ms);
    let player = |w: Who| match w {
        Who::Ours(tune) => Player::<G>::Ours(
            Box::new(Table::new(TABLE_BYTES).expect("a table")),
            tune,
            fit_for::<G>(&tune).map(Box::new),
        ),
        Who::MinimaxRs(tune) => Player::Theirs(Box::new(theirs::<G>(tune)), tune),
    };
    let mut players = [player(who[0]), player(who[1])];
    let mut sides = [Side::default(), Side::default()];
    let mut rng = Rng(seed);
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut scores = Vec::new();
    for _ in 0..games.div_ceil(2) {
        let b: G = opening(&mut rng);
        for first in [0, 1] {
            let s = game(b.clone(), &mut players, &mut sides, first, limit, depths);
            match s {
                1.0 => wins += 1,
                0.5 => draws += 1,
                _ => losses += 1,
            }
            scores.push(s);
        }
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "{}, {ms} ms a move (depths {depths:?}: 0 is the clock), {} games ({}-ply openings, seed {seed}, colours swapped): \
         {:?} against {:?}",
        G::NAME,
        scores.len(),
        G::OPENING_PLIES,
        who[0],
        who[1]
    );
    println!(
        "  the first: {wins} wins, {draws} draws, {losses} losses: score {mean:.3} \
         (95% interval {:.3} to {:.3}), Elo {:+.0} ({:+.0} to {:+.0})",
        mean - half,
        mean + half,
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    );
    for (name, s) in ["the first", "the second"].iter().zip(&sides) {
        let phases: Vec<String> = s
            .phase
            .iter()
            .filter(|p| p.0 > 0)
            .map(|p| format!("{:.1}", p.1 as f64 / p.0 as f64))
            .collect();
        println!(
            "  {name}: mean depth {:.1} (by stage: {}), mean {:.1} ms a move, longest {:.1} ms, \
             {} of {} moves over {:.1} ms",
            s.depth as f64 / s.moves as f64,
            phases.join(" "),
            s.mean_ms(),
            s.longest.as_secs_f64() * 1e3,
            s.over,
            s.moves,
            limit.as_secs_f64() * 1.1e3
        );
    }
    println!(
        "SUMMARY match {} ms={ms} games={} score={mean:.3} half_interval={half:.3} elo={:+.0}",
        G::NAME.to_lowercase().replace(' ', "_"),
        scores.len(),
        elo(mean)
    );
    if depths == [0, 0] {
        targets(G::NAME, ms, who, scores.len(), mean, &sides[0]);
    }
}

/// The targets for a match at the clock whose first player is the engine, over at least
/// 400 games: issue 53's, a score of at least 0.60 against minimax-rs (0.58 on Connect
/// Four) and 0.60 against today's engine on Othello; issue 41's elsewhere, 0.65 against
/// today's engine (0.50 on Connect Four); at 20 ms, no move over 22 ms and a mean of at
/// least 12 ms. Prints one `TARGET` line each, met or not.
fn targets(game: &str, ms: u64, who: [Who; 2], games: usize, score: f64, first: &Side) {
    let Who::Ours(_) = who[0] else { return };
    let (against, wanted) = match who[1] {
        Who::MinimaxRs(_) if game == "Connect Four" => ("minimax-rs", 0.58),
        Who::MinimaxRs(_) => ("minimax-rs", 0.60),
        Who::Ours(t) if t == Tune::TODAY && game == "Connect Four" => ("today's engine", 0.50),
        Who::Ours(t) if t == Tune::TODAY && game == "Othello 8x8" => ("today's engine", 0.60),
        Who::Ours(t) if t == Tune::TODAY => ("today's engine", 0.65),
        Who::Ours(_) => return,
    };
    let met = |ok: bool| if ok { "met" } else { "NOT MET" };
    println!(
        "TARGET {game}, {ms} ms: score against {against} at least {wanted:.2} over at least 400 \
         games: {score:.3} over {games}: {}",
        met(score >= wanted && games >= 400)
    );
    if ms == 20 {
        let mean_ms = first.mean_ms();
        println!(
            "TARGET {game}, 20 ms: the engine's moves over 22 ms: {} of {}; its mean {mean_ms:.1} \
             ms (at least 12): {}",
            first.over,
            first.moves,
            met(first.over == 0 && mean_ms >= 12.0)
        );
    }
}

/// The enhancements one at a time and together, for the ablation.
const ABLATION: [&str; 11] = [
    "today",
    "killers",
    "history",
    "lmr",
    "aspiration",
    "quiescence",
    "null",
    "killers+history+lmr+aspiration+quiescence+null",
    "lmr+quiescence+null",
    "probcut",
    "lmr+probcut",
];

/// Nodes of PVS to two depths (8 and 10 unless the game says; a 16 MiB table, emptied
/// for each position) from
/// `positions` seeded openings, with each enhancement: what it saves or costs on this
/// game at equal depth (time management aside: it changes no node count). `rows` names
/// the settings to measure beside `today` (none: all of `ABLATION`).
pub fn ablation<G: Arena>(positions: usize, seed: u64, rows: &[String]) {
    let mut rng = Rng(seed);
    let openings: Vec<G> = (0..positions).map(|_| opening(&mut rng)).collect();
    let mut table = Table::new(TABLE_BYTES).expect("a table");
    println!(
        "{}: nodes of PVS from {positions} openings (seed {seed}), with each enhancement",
        G::NAME
    );
    let mut base = [0u64; 2];
    let rows: Vec<&str> = match rows {
        [] => ABLATION.to_vec(),
        _ => std::iter::once("today")
            .chain(rows.iter().map(String::as_str))
            .collect(),
    };
    for name in rows {
        let tune = Tune::parse(name).expect("a setting");
        let fit = fit_for::<G>(&tune);
        let mut line = format!("  {name:<32}");
        for (k, depth) in G::ABLATION_DEPTHS.into_iter().enumerate() {
            let mut total = 0;
            for b in &openings {
                table.clear();
                let mut o = Options {
                    max_depth: depth,
                    table: Some(&mut table),
                    time_management: false,
                    ..tune.options(fit)
                };
                total += search(&mut b.clone(), &mut o)
                    .expect("a legal game")
                    .stats
                    .nodes;
            }
            if base[k] == 0 {
                base[k] = total;
            }
            line += &format!(
                "  depth {depth}: {total:>10} ({:.3}x)",
                total as f64 / base[k] as f64
            );
        }
        println!("{line}");
    }
}

/// The time each side takes to search `positions` seeded positions to `depth` (the
/// engine at the setting `name`, minimax-rs at its settings here), each with a fresh table,
/// in turn position by position: the totals, their ratio (ours over theirs), and the
/// median of the positions' ratios. The positions are the match's openings played on
/// by `extra` random plies (seeded), for middle-game positions.
pub fn time_to_depth<G: Arena>(positions: usize, seed: u64, extra: u32, depth: u32, name: &str) {
    let tune = Tune::parse(name).expect("the engine's setting");
    let mut rng = Rng(seed);
    let mut boards = Vec::new();
    while boards.len() < positions {
        let mut b: G = opening(&mut rng);
        for _ in 0..extra {
            match b.random_move(&mut rng) {
                Some(m) => b.play_move(m),
                None => break,
            }
        }
        if b.quiet() {
            boards.push(b);
        }
    }
    let mut ours = Player::<G>::Ours(
        Box::new(Table::new(TABLE_BYTES).expect("a table")),
        tune,
        fit_for::<G>(&tune).map(Box::new),
    );
    let mut theirs = Player::<G>::Theirs(
        Box::new(theirs::<G>(TheirTune::default())),
        TheirTune::default(),
    );
    let (mut t_ours, mut t_theirs, mut ratios) = (0.0, 0.0, Vec::new());
    let forever = Duration::from_secs(3600);
    for b in &boards {
        let time = |p: &mut Player<G>| {
            p.new_game();
            let t = Instant::now();
            let (_, reached) = p.choose(b, forever, depth);
            (t.elapsed().as_secs_f64(), reached)
        };
        let (a, da) = time(&mut ours);
        let (t, dt) = time(&mut theirs);
        if da != depth || dt != depth {
            // One side proved the result first, and stopped.
            continue;
        }
        (t_ours, t_theirs) = (t_ours + a, t_theirs + t);
        ratios.push(a / t);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "{}: time to depth {depth} from {} of {positions} positions ({} random plies past the \
         openings, seed {seed}; the others proven sooner by a side), one at a time, fresh \
         tables: ours ({}) {:.3} s, minimax-rs {:.3} s: ratio {:.3} (median of the \
         positions' ratios {:.3})",
        G::NAME,
        ratios.len(),
        extra,
        name,
        t_ours,
        t_theirs,
        t_ours / t_theirs,
        ratios[ratios.len() / 2]
    );
}
