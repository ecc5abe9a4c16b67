//! Perfect-information Monte Carlo (PIMC; Levy 1989, Ginsberg's GIB 2001, from their
//! descriptions): in a two-player game with hidden information, draw positions
//! consistent with what the player to move has seen ([`Game::sample`]), search each as
//! if everything were open, and choose the move that does best over them: by its mean
//! value, or by how many samples rank it first (votes).
//!
//! Every root move is searched in every sample, so that the moves' values are
//! comparable: the child position, by a search the caller gives (any method: the
//! engine's [`search`](super::search) with its options, MCTS, a chance method), whose
//! value is in MAX's view, as everywhere.
//!
//! ```
//! # #[path = "../../examples/hidden/whist.rs"] mod whist;
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

use std::time::{Duration, Instant};

use super::game::{Game, GameError, Move};
use super::mcts::rng::Rng;
use super::memory::room;
use super::options::SearchResult;

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
    let mut samples = Vec::new();
    room(&mut samples, pimc.samples.max(1))?;
    for i in 0..pimc.samples.max(1) {
        let mut g = game.clone();
        if !g.sample(Rng::new(pimc.seed.wrapping_add(i as u64)).next_u64()) {
            return Err(GameError::NoSample);
        }
        samples.push((g, 1.0));
    }
    search_samples(&mut samples, pimc.combine, true, value)
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
    let start = Instant::now();
    let mut result = PimcResult {
        best_move: None,
        moves: Vec::new(),
        samples: samples.len(),
        proven: true,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    let Some((first, _)) = samples.first_mut() else {
        return Ok(result);
    };
    if first.outcome().is_some() {
        result.elapsed = start.elapsed();
        return Ok(result);
    }
    let mut moves = Vec::new();
    room(&mut moves, 32)?;
    first.moves(&mut moves)?;
    if moves.is_empty() {
        return Err(GameError::NoMovesNotOver);
    }
    let max = first.max_to_move().unwrap_or(max_at_root);
    room(&mut result.moves, moves.len())?;
    result.moves.extend(moves.iter().map(|&mv| PimcMove {
        mv,
        mean: 0.0,
        votes: 0.0,
    }));
    let total: f64 = samples.iter().map(|s| s.1).sum();
    let mut values = Vec::new();
    room(&mut values, moves.len())?;
    for (g, weight) in samples.iter_mut() {
        values.clear();
        for &mv in &moves {
            g.play(mv);
            // A game that does not say whose turn it is alternates: the child is the
            // other side's.
            let r = value(g, !max);
            g.undo(mv);
            let r = r?;
            result.nodes += r.nodes;
            result.proven &= r.proven;
            values.push(r.value);
        }
        let best = values.iter().copied().fold(
            if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            |b, v| if max { b.max(v) } else { b.min(v) },
        );
        let tied = values.iter().filter(|&&v| v == best).count() as f64;
        for (m, &v) in result.moves.iter_mut().zip(&values) {
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
