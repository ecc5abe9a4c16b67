//! Calibrating Multi-ProbCut's fit (`probcut.rs`) on the user's own game: each position
//! is searched with deepening to the deepest depth asked for, and each completed
//! iteration's value is a sample of that depth's value; a least-squares line per depth
//! pair then predicts the deep value from the shallow one (Buro 1997 fits his pairs so,
//! on positions of the game at hand).
//!
//! The positions are the program's own, or those of the engine's self-play from the
//! game's current position: a few seeded random plies, then the move each position's
//! calibration search chose, until the game ends or a search proves its result. A
//! position whose search proves its value is left out (a proof is not a heuristic value).
//! Everything is seeded and bounded by depths and node counts, never the clock: one
//! calibration gives the same fit on every machine.

use crate::search::game::{Game, GameError, Move};
use crate::search::memory::{lengthen, room};
use crate::search::options::{Method, Options};
use crate::search::probcut::{MAX_DEEP, ProbCut, ProbCutPair};
use crate::search::rng::Rng;
use crate::search::table::Table;
use crate::search::twoplayer::engine;

/// How a fit is calibrated ([`calibrate_probcut`](crate::search::calibrate_probcut)). The fit
/// comes with `t` at [`DEFAULT_T`](crate::search::DEFAULT_T); set another with
/// [`ProbCut::set_t`](crate::search::ProbCut::set_t).
#[derive(Clone, Debug, PartialEq)]
pub struct CalibrateOptions {
    /// The depth pairs `(deep, shallow)` to fit; empty for [`default_pairs`] up to
    /// `max_depth`. The fit leaves out a pair that cannot be used (see
    /// [`ProbCutPair::is_valid`]), and at each stage one with fewer than [`MIN_SAMPLES`]
    /// samples; [`ProbCut::pairs`] lists what it kept.
    pub pairs: Vec<(u32, u32)>,
    /// The deepest search (default 10): the deepest depth of the default pairs.
    pub max_depth: u32,
    /// Self-play games (default 8), when no positions are given.
    pub games: u32,
    /// Random plies at the start of each self-play game (default 6), seeded.
    pub random_plies: u32,
    /// The most plies of a self-play game after its random ones (default 200).
    pub max_plies: u32,
    /// The random plies' seed (default 1).
    pub seed: u64,
    /// The most nodes one position's search may visit (default 0: no limit); a search
    /// stopped by it gives the depths it completed.
    pub node_limit: u64,
    /// The table's size for each position's search, emptied between positions (default
    /// 16 MiB).
    pub table_bytes: usize,
}

impl Default for CalibrateOptions {
    fn default() -> Self {
        CalibrateOptions {
            pairs: Vec::new(),
            max_depth: 10,
            games: 8,
            random_plies: 6,
            max_plies: 200,
            seed: 1,
            node_limit: 0,
            table_bytes: 16 << 20,
        }
    }
}

/// The pairs fitted unless others are asked for: for each deep depth from 3 to
/// `max_depth` (at most [`MAX_DEEP`]), the shallow depth about half as deep with the same
/// parity (an odd depth's value and an even one's differ by the side that moved last, as
/// in Othello).
pub fn default_pairs(max_depth: u32) -> Vec<(u32, u32)> {
    (3..=max_depth.min(MAX_DEEP))
        .map(|deep| {
            let half = deep / 2;
            let shallow = if half % 2 == deep % 2 { half } else { half - 1 };
            (deep, shallow.max(1))
        })
        .collect()
}

/// Each position's stage, and its values by depth, side to move's view (index 0
/// unused).
struct Samples(Vec<(u32, Vec<Option<f64>>)>);

/// The fewest samples a stage's pair is fitted from: with fewer, that stage is not cut at
/// that depth.
pub const MIN_SAMPLES: usize = 20;

/// The fit of `opts`'s pairs over the samples, each stage apart (a pair with fewer than
/// [`MIN_SAMPLES`] samples at a stage, or no usable line, is left out there). Robustly:
/// samples far from the others (past 10 median absolute deviations from the median, in
/// either depth's value) are dropped first, then
/// those past 4 sigmas of the line, until none is. A value near a won or lost end is a
/// final score's, not a heuristic's, and would pull the line and its spread far off.
fn fit(samples: &Samples, opts: &CalibrateOptions) -> Result<ProbCut, GameError> {
    // The confidence is the caller's to set on the fit (`ProbCut::set_t`, which refuses
    // one that cannot be used): the calibration measures, and `t` is chosen by matches.
    let mut fit = ProbCut::default();
    let mut stages = gather(samples.0.iter().map(|s| s.0))?;
    stages.sort_unstable();
    stages.dedup();
    let pairs = pairs(opts)?;
    for stage in stages {
        for &(deep, shallow) in &pairs {
            if let Some(pair) = fit_pair(samples, stage, deep, shallow)? {
                // Too many pairs: the first ones asked for are kept.
                let _ = fit.add(pair);
            }
        }
    }
    Ok(fit)
}

/// The items of `items`, in a vector whose memory was had fallibly (memory that cannot be
/// had is [`GameError::OutOfMemory`], never an abort).
fn gather<T>(items: impl Iterator<Item = T> + Clone) -> Result<Vec<T>, GameError> {
    let mut v = Vec::new();
    room(&mut v, items.clone().count())?;
    v.extend(items);
    Ok(v)
}

/// One stage's pair, fitted robustly.
fn fit_pair(
    samples: &Samples,
    stage: u32,
    deep: u32,
    shallow: u32,
) -> Result<Option<ProbCutPair>, GameError> {
    let mut kept = gather(
        samples
            .0
            .iter()
            .filter(|s| s.0 == stage)
            .filter_map(|(_, v)| {
                let at = |d: u32| *v.get(d as usize)?;
                Some((at(shallow)?, at(deep)?))
            }),
    )?;
    let near_x = near(gather(kept.iter().map(|p| p.0))?)?;
    let near_y = near(gather(kept.iter().map(|p| p.1))?)?;
    kept.retain(|&(x, y)| near_x(x) && near_y(y));
    if kept.len() < MIN_SAMPLES {
        return Ok(None);
    }
    let mut line = ProbCutPair::fit(stage, deep, shallow, &kept);
    while let Some(p) = line {
        let before = kept.len();
        kept.retain(|&(x, y)| (y - p.a * x - p.b).abs() <= 4.0 * p.sigma);
        if kept.len() == before || kept.len() < MIN_SAMPLES {
            break;
        }
        line = ProbCutPair::fit(stage, deep, shallow, &kept);
    }
    Ok(line)
}

/// Whether a value is within 10 median absolute deviations of the median of `values`.
fn near(mut values: Vec<f64>) -> Result<impl Fn(f64) -> bool, GameError> {
    let median = |v: &mut [f64]| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let m = median(&mut values);
    for v in values.iter_mut() {
        *v = (*v - m).abs();
    }
    let mad = median(&mut values);
    Ok(move |v: f64| (v - m).abs() <= 10.0 * mad.max(1.0))
}

/// The pairs to fit: those asked for that can be used (`1 <= shallow < deep <=
/// MAX_DEEP`), or the default ones.
fn pairs(opts: &CalibrateOptions) -> Result<Vec<(u32, u32)>, GameError> {
    if opts.pairs.is_empty() {
        return gather(default_pairs(opts.max_depth).into_iter());
    }
    let usable =
        |&&(deep, shallow): &&(u32, u32)| 1 <= shallow && shallow < deep && deep <= MAX_DEEP;
    gather(opts.pairs.iter().filter(usable).copied())
}

/// The deepest depth any pair needs (at most `MAX_DEEP`).
fn deepest(opts: &CalibrateOptions) -> Result<u32, GameError> {
    Ok(pairs(opts)?.iter().map(|p| p.0).max().unwrap_or(0))
}

/// A calibration: the fit, and the positions it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// The fit.
    pub fit: ProbCut,
    /// Positions searched (those already over are not; nor is one the stop flag cut
    /// short).
    pub positions: u32,
    /// Of them, those whose values were used (not proven).
    pub used: u32,
}

/// One position's search: its stage, its values by depth from the side to move's view
/// (index 0 unused), whether it proved the position's value, and its best move.
struct Sampled {
    stage: u32,
    values: Vec<Option<f64>>,
    proven: bool,
    best: Option<Move>,
    /// Whether the settings' stop flag ended the search (its values are then left out).
    stopped: bool,
}

/// Whether `settings`' stop flag is set.
fn stopped(settings: &Options<'_>) -> bool {
    settings
        .stop
        .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed) != 0)
}

/// Searches the position to the deepest depth the pairs need; `max_here` is whether MAX
/// is to move, for a game without `max_to_move`.
fn sample<G: Game>(
    game: &mut G,
    settings: &Options<'_>,
    opts: &CalibrateOptions,
    table: &mut Table,
    max_here: bool,
) -> Result<Sampled, GameError> {
    let depth = deepest(opts)?;
    let sign = if game.max_to_move().unwrap_or(max_here) {
        1.0
    } else {
        -1.0
    };
    let stage = game.stage();
    let mut values = Vec::new();
    lengthen(&mut values, depth as usize + 1, || None)?;
    let mut record = |p: &crate::search::options::Progress| {
        if let Some(v) = values.get_mut(p.depth as usize) {
            *v = Some(sign * p.value as f64);
        }
    };
    table.clear();
    let method = match settings.method {
        Method::AlphaBeta => Method::AlphaBeta,
        _ => Method::Pvs,
    };
    let mut o = Options {
        method,
        max_depth: depth,
        iterative_deepening: true,
        table: Some(table),
        node_limit: opts.node_limit,
        stop: settings.stop,
        progress: Some(&mut record),
        max_at_root: max_here,
        killer_moves: settings.killer_moves,
        history_order: settings.history_order,
        late_move_reductions: settings.late_move_reductions,
        quiescence: settings.quiescence,
        null_move: settings.null_move,
        ..Options::default()
    };
    let result = engine::search(game, &mut o)?;
    Ok(Sampled {
        stage,
        values,
        proven: result.proven,
        best: result.best_move,
        stopped: stopped(settings),
    })
}

/// Calibrates a fit from the positions given, searched as `settings` says (its method,
/// alpha-beta or PVS, its enhancements, and `max_at_root` for a game without
/// `max_to_move`; its limits, table and callbacks are not used). Its stop flag ends the
/// calibration early: the fit is then of the positions searched before the flag was set.
pub fn calibrate_probcut_positions<G: Game>(
    positions: &mut [G],
    settings: &Options<'_>,
    opts: &CalibrateOptions,
) -> Result<Calibration, GameError> {
    let mut table = Table::new(opts.table_bytes).ok_or(GameError::OutOfMemory)?;
    let mut samples = Samples(Vec::new());
    let mut searched = 0;
    for game in positions.iter_mut() {
        if game.outcome().is_some() {
            continue;
        }
        let s = sample(game, settings, opts, &mut table, settings.max_at_root)?;
        if s.stopped {
            break;
        }
        searched += 1;
        if !s.proven {
            room(&mut samples.0, 1)?;
            samples.0.push((s.stage, s.values));
        }
    }
    Ok(Calibration {
        fit: fit(&samples, opts)?,
        positions: searched,
        used: samples.0.len() as u32,
    })
}

/// Calibrates a fit by the engine's self-play from `game`'s position, which is left as
/// it was; searched as in [`calibrate_probcut_positions`] (`max_at_root` says who moves
/// first, for a game without `max_to_move`: turns then alternate).
pub fn calibrate_probcut<G: Game>(
    game: &mut G,
    settings: &Options<'_>,
    opts: &CalibrateOptions,
) -> Result<Calibration, GameError> {
    let mut table = Table::new(opts.table_bytes).ok_or(GameError::OutOfMemory)?;
    let mut samples = Samples(Vec::new());
    let mut rng = Rng::new(opts.seed);
    let (mut line, mut moves) = (Vec::new(), Vec::new());
    let mut positions = 0;
    let mut played = Ok(());
    for _ in 0..opts.games {
        played = self_play_game(
            game,
            settings,
            opts,
            &mut table,
            &mut rng,
            (&mut line, &mut moves),
            &mut samples,
            &mut positions,
        );
        while let Some(mv) = line.pop() {
            game.undo(mv);
        }
        if played.is_err() || stopped(settings) {
            break;
        }
    }
    played?;
    Ok(Calibration {
        fit: fit(&samples, opts)?,
        positions,
        used: samples.0.len() as u32,
    })
}

/// One self-play game, its moves left in `line` for the caller to undo.
#[allow(clippy::too_many_arguments)]
fn self_play_game<G: Game>(
    game: &mut G,
    settings: &Options<'_>,
    opts: &CalibrateOptions,
    table: &mut Table,
    rng: &mut Rng,
    (line, moves): (&mut Vec<Move>, &mut Vec<Move>),
    samples: &mut Samples,
    positions: &mut u32,
) -> Result<(), GameError> {
    // Whether MAX is to move, for a game without `max_to_move`: turns alternate.
    let mut max_here = settings.max_at_root;
    for _ in 0..opts.random_plies {
        if game.outcome().is_some() {
            return Ok(());
        }
        if game.is_chance() {
            return Err(GameError::ChanceNode);
        }
        moves.clear();
        room(moves, 64)?;
        game.moves(moves)?;
        if moves.is_empty() {
            return Err(GameError::NoMovesNotOver);
        }
        let mv = moves[rng.below(moves.len())];
        room(line, 1)?;
        game.play(mv);
        line.push(mv);
        max_here = !max_here;
    }
    for _ in 0..opts.max_plies {
        if game.outcome().is_some() {
            return Ok(());
        }
        let s = sample(game, settings, opts, table, max_here)?;
        if s.stopped {
            return Ok(());
        }
        *positions += 1;
        if s.proven {
            return Ok(());
        }
        room(&mut samples.0, 1)?;
        samples.0.push((s.stage, s.values));
        let Some(mv) = s.best else { return Ok(()) };
        room(line, 1)?;
        game.play(mv);
        line.push(mv);
        max_here = !max_here;
    }
    Ok(())
}
