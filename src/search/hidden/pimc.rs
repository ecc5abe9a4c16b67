//! Perfect-information Monte Carlo (PIMC; Levy 1989, Ginsberg's GIB 2001, from their
//! descriptions): in a two-player game with hidden information, draw positions
//! consistent with what the player to move has seen ([`Game::sample`]), search each as
//! if everything were open, and choose the move that does best over them: by its mean
//! value, or by how many samples rank it first (votes).
//!
//! Every root move is searched in every sample, so that the moves' values are
//! comparable: the child position, by a search the caller gives (any method: the
//! engine's [`search`](crate::search::search) with its options, MCTS, a chance method), whose
//! value is in MAX's view, as everywhere.
//!
//! ```
//! # #[path = "../../../examples/hidden/whist.rs"] mod whist;
//! use minimax::search::pimc::{self, PimcOptions, Valued};
//! use minimax::search::{Method, Options, search};
//!
//! let game = whist::Whist::deal(3, 4, 3, 7);
//! let mut opts = Options { method: Method::Exact, ..Options::default() };
//! let exact = |g: &mut whist::Whist, max: bool| {
//!     opts.max_at_root = max;
//!     search(g, &mut opts).map(|r| Valued::from(&r))
//! };
//! let r = pimc::search_sampled(&game, &PimcOptions::default(), exact).unwrap();
//! assert!(r.proven && r.best_move.is_some() && r.samples == 20);
//! ```

use crate::search::clock::Instant;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use crate::search::game::{Game, GameError, Move, sample_fits};
use crate::search::memory::room;
use crate::search::options::SearchResult;
use crate::search::pool;
use crate::search::rng::Rng;

/// A sample's child position searched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Valued {
    /// Its value in MAX's view (an expectation where chance steps average it).
    pub value: f64,
    /// Whether the value is the position's true value.
    pub proven: bool,
    /// Positions the search visited.
    pub nodes: u64,
}

impl From<&SearchResult> for Valued {
    fn from(r: &SearchResult) -> Valued {
        Valued {
            value: r.expected.unwrap_or(r.value as f64),
            proven: r.proven,
            nodes: r.stats.nodes,
        }
    }
}

/// How the samples' values choose the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Combine {
    /// The best mean value over the samples (the default).
    #[default]
    Mean,
    /// The most samples in which the move is best (a tie among best moves splits the
    /// sample's vote); ties between moves go to the better mean.
    Votes,
}

/// How PIMC samples and chooses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PimcOptions {
    /// Positions drawn (at least 1).
    pub samples: usize,
    /// Sample `i` is drawn with the seed SplitMix64 gives after `seed + i`.
    pub seed: u64,
    /// How the samples' values choose the move.
    pub combine: Combine,
}

impl Default for PimcOptions {
    fn default() -> Self {
        PimcOptions {
            samples: 20,
            seed: 0,
            combine: Combine::Mean,
        }
    }
}

/// A root move's figures over the samples.
#[derive(Debug, Clone, PartialEq)]
pub struct PimcMove {
    /// The move.
    pub mv: Move,
    /// Its mean value, in MAX's view.
    pub mean: f64,
    /// The samples in which it was best (a tie's vote split).
    pub votes: f64,
}

/// What PIMC found.
#[derive(Debug, Clone, PartialEq)]
pub struct PimcResult {
    /// The move to play, or `None` if the game is over.
    pub best_move: Option<Move>,
    /// Every root move, in the game's order.
    pub moves: Vec<PimcMove>,
    /// Samples searched.
    pub samples: usize,
    /// Whether every search was exact (each child's value proven).
    pub proven: bool,
    /// Positions visited, over every search.
    pub nodes: u64,
    /// The wall time of the call.
    pub elapsed: Duration,
}

/// PIMC from `game`'s position: `pimc.samples` copies, each drawn by [`Game::sample`]
/// (a game that cannot: [`GameError::NoSample`]), their children valued by `value`
/// (given a child and whether MAX moves there, for games that do not say).
pub fn search_sampled<G: Game + Clone>(
    game: &G,
    pimc: &PimcOptions,
    value: impl FnMut(&mut G, bool) -> Result<Valued, GameError>,
) -> Result<PimcResult, GameError> {
    let mut samples = draw(game, pimc)?;
    search_samples(&mut samples, pimc.combine, true, value)
}

/// As [`search_sampled`], the samples searched on `threads` threads as
/// [`search_samples_parallel`] does: the same answer as one thread's.
pub fn search_sampled_parallel<G: Game + Clone + Send>(
    game: &G,
    pimc: &PimcOptions,
    threads: usize,
    value: impl Fn(&mut G, bool) -> Result<Valued, GameError> + Sync,
) -> Result<PimcResult, GameError> {
    let mut samples = draw(game, pimc)?;
    search_samples_parallel(&mut samples, pimc.combine, true, threads, value)
}

/// The seed sample `i` is drawn with under the options' `seed` (the same seed, the
/// same samples).
pub fn sample_seed(seed: u64, i: usize) -> u64 {
    Rng::new(seed.wrapping_add(i as u64)).next_u64()
}

/// `pimc.samples` copies of `game`, each redealt by [`Game::sample`], weighted alike;
/// the first checked by [`check_sample`] (each search holds the others to it).
fn draw<G: Game + Clone>(game: &G, pimc: &PimcOptions) -> Result<Vec<(G, f64)>, GameError> {
    let mut samples = Vec::new();
    room(&mut samples, pimc.samples.max(1))?;
    for i in 0..pimc.samples.max(1) {
        let mut g = game.clone();
        if !g.sample(sample_seed(pimc.seed, i)) {
            return Err(GameError::NoSample);
        }
        samples.push((g, 1.0));
    }
    check_sample(&mut game.clone(), &mut samples[0].0)?;
    Ok(samples)
}

/// [`GameError::BadSample`] unless `sample` is a sample of `position`: over only where
/// the position is, and with the same legal moves at the root (in any order). PIMC
/// searches every root move in every sample, so a sample with other moves would answer
/// with a move the position does not have. The searches take the root's moves from the
/// first sample and hold every sample to them: a driver checks the first against the
/// position.
pub fn check_sample<G: Game, S: Game>(position: &mut G, sample: &mut S) -> Result<(), GameError> {
    if position.outcome().is_some() {
        return Ok(());
    }
    let mut moves = Vec::new();
    room(&mut moves, 32)?;
    position.moves(&mut moves)?;
    sample_fits(sample, &moves, false)
}

/// PIMC over the positions given, each with its weight (every deal enumerated, say,
/// each weighted by its probability), their children valued by `value` as in
/// [`search_sampled`]; `max_at_root`: whether MAX moves at the root, for games that do
/// not say. The moves are the first position's, which every position must list alike
/// (the same moves in the same order: a position of the same information state).
pub fn search_samples<G: Game>(
    samples: &mut [(G, f64)],
    combine: Combine,
    max_at_root: bool,
    mut value: impl FnMut(&mut G, bool) -> Result<Valued, GameError>,
) -> Result<PimcResult, GameError> {
    let Some((first, _)) = samples.first_mut() else {
        return Ok(empty(0, Instant::now()));
    };
    let mut run = Pimc::new(first, max_at_root)?;
    for (g, weight) in samples.iter_mut() {
        run.add(g, *weight, &mut value)?;
    }
    run.result(combine)
}

/// PIMC driven one sample at a time, for a driver whose samples cannot all be had at
/// once (a Python game's): [`Pimc::new`] at the root, [`Pimc::add`] for each sample
/// (a position of the root's information state, which it leaves as it was), then
/// [`Pimc::result`]. [`search_samples`] is such a driver.
pub struct Pimc {
    /// The root's moves and whether MAX moves there; `None` if the game is over.
    root: Option<(Vec<Move>, bool)>,
    rows: Vec<Row>,
    weights: Vec<f64>,
    start: Instant,
}

impl Pimc {
    /// A search from `root` (its moves are every sample's); `max_at_root`: whether MAX
    /// moves there, for games that do not say.
    pub fn new<G: Game>(root: &mut G, max_at_root: bool) -> Result<Pimc, GameError> {
        let start = Instant::now();
        Ok(Pimc {
            root: root_moves(root, max_at_root)?,
            rows: Vec::new(),
            weights: Vec::new(),
            start,
        })
    }

    /// Each root move of `sample` valued by `value`, counted with `weight`.
    pub fn add<G: Game>(
        &mut self,
        sample: &mut G,
        weight: f64,
        value: &mut impl FnMut(&mut G, bool) -> Result<Valued, GameError>,
    ) -> Result<(), GameError> {
        room(&mut self.rows, 1)?;
        room(&mut self.weights, 1)?;
        let row = match &self.root {
            Some((moves, max)) => row(sample, moves, *max, value)?,
            None => (Vec::new(), 0, true),
        };
        self.rows.push(row);
        self.weights.push(weight);
        Ok(())
    }

    /// The move the samples added so far choose by `combine`.
    pub fn result(&self, combine: Combine) -> Result<PimcResult, GameError> {
        match &self.root {
            Some((moves, max)) => {
                combined(&self.weights, moves, *max, &self.rows, combine, self.start)
            }
            None => Ok(empty(self.rows.len(), self.start)),
        }
    }
}

/// As [`search_samples`], on `threads` threads (this one and pool helpers; fewer where
/// the system gives fewer), each taking the next sample not yet taken. The answer is the
/// one thread's: the values are combined in the samples' order.
pub fn search_samples_parallel<G: Game + Send>(
    samples: &mut [(G, f64)],
    combine: Combine,
    max_at_root: bool,
    threads: usize,
    value: impl Fn(&mut G, bool) -> Result<Valued, GameError> + Sync,
) -> Result<PimcResult, GameError> {
    let start = Instant::now();
    let root = match samples.first_mut() {
        Some((first, _)) => root_moves(first, max_at_root)?,
        None => None,
    };
    let Some((moves, max)) = root else {
        return Ok(empty(samples.len(), start));
    };
    let n = samples.len();
    let mut slots = Vec::new();
    room(&mut slots, n)?;
    slots.extend(samples.iter_mut().map(|s| Mutex::new((&mut s.0, None))));
    let next = AtomicUsize::new(0);
    let work = |_: usize| {
        let mut value = |g: &mut G, max: bool| value(g, max);
        loop {
            let i = next.fetch_add(1, Relaxed);
            let Some(slot) = slots.get(i) else { break };
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            let (g, out) = &mut *slot;
            *out = Some(row(&mut **g, &moves, max, &mut value));
        }
    };
    pool::with_helpers(threads.max(1) - 1, &work, || work(0));
    let mut rows = Vec::new();
    room(&mut rows, n)?;
    for slot in slots {
        let (_, out) = slot.into_inner().unwrap_or_else(|e| e.into_inner());
        // (A sample left without a row: its search panicked on a helper.)
        rows.push(out.expect("a PIMC sample's search panicked")?);
    }
    let mut weights = Vec::new();
    room(&mut weights, n)?;
    weights.extend(samples.iter().map(|s| s.1));
    combined(&weights, &moves, max, &rows, combine, start)
}

/// A sample's children's values, the positions searched, and whether all are proven.
type Row = (Vec<f64>, u64, bool);

/// The result of a search that had nothing to do (no samples, or the game over).
fn empty(samples: usize, start: Instant) -> PimcResult {
    PimcResult {
        best_move: None,
        moves: Vec::new(),
        samples,
        proven: true,
        nodes: 0,
        elapsed: start.elapsed(),
    }
}

/// `first`'s moves and whether MAX moves there; `None` when the game is over.
fn root_moves<G: Game>(
    first: &mut G,
    max_at_root: bool,
) -> Result<Option<(Vec<Move>, bool)>, GameError> {
    if first.outcome().is_some() {
        return Ok(None);
    }
    let mut moves = Vec::new();
    room(&mut moves, 32)?;
    first.moves(&mut moves)?;
    if moves.is_empty() {
        return Err(GameError::NoMovesNotOver);
    }
    Ok(Some((moves, first.max_to_move().unwrap_or(max_at_root))))
}

/// Each root move of the sample `g` valued by `value`.
fn row<G: Game>(
    g: &mut G,
    moves: &[Move],
    max: bool,
    value: &mut impl FnMut(&mut G, bool) -> Result<Valued, GameError>,
) -> Result<Row, GameError> {
    // Each sample lists the root's moves (the first sample's, or the position's).
    sample_fits(g, moves, false)?;
    let mut values = Vec::new();
    room(&mut values, moves.len())?;
    let (mut nodes, mut proven) = (0, true);
    for &mv in moves {
        g.play(mv);
        // A game that does not say whose turn it is alternates: the child is the
        // other side's.
        let r = value(g, !max);
        g.undo(mv);
        let r = r?;
        nodes += r.nodes;
        proven &= r.proven;
        values.push(r.value);
    }
    Ok((values, nodes, proven))
}

/// The samples' rows combined, in the samples' order: each move's weighted mean and
/// votes, and the move chosen by `combine`.
fn combined(
    weights: &[f64],
    moves: &[Move],
    max: bool,
    rows: &[Row],
    combine: Combine,
    start: Instant,
) -> Result<PimcResult, GameError> {
    let mut result = empty(weights.len(), start);
    room(&mut result.moves, moves.len())?;
    result.moves.extend(moves.iter().map(|&mv| PimcMove {
        mv,
        mean: 0.0,
        votes: 0.0,
    }));
    let total: f64 = weights.iter().sum();
    for ((values, nodes, proven), weight) in rows.iter().zip(weights) {
        result.nodes += nodes;
        result.proven &= proven;
        let best = values.iter().copied().fold(
            if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            |b, v| if max { b.max(v) } else { b.min(v) },
        );
        let tied = values.iter().filter(|&&v| v == best).count() as f64;
        for (m, &v) in result.moves.iter_mut().zip(values) {
            m.mean += *weight / total * v;
            if v == best {
                m.votes += 1.0 / tied;
            }
        }
    }
    // The first best in the game's order: by the mean, or by votes then the mean.
    let better = |a: &PimcMove, b: &PimcMove| {
        let by_mean = if max {
            a.mean > b.mean
        } else {
            a.mean < b.mean
        };
        match combine {
            Combine::Mean => by_mean,
            Combine::Votes => a.votes > b.votes || (a.votes == b.votes && by_mean),
        }
    };
    let mut best = &result.moves[0];
    for m in &result.moves[1..] {
        if better(m, best) {
            best = m;
        }
    }
    result.best_move = Some(best.mv);
    result.elapsed = start.elapsed();
    Ok(result)
}
