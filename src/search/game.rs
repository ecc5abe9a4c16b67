//! What a game gives the engine: the `Game` trait, its moves and score view, the errors of
//! a game that breaks its contract, and `Fork` for the copies a parallel search needs.

/// Puts `first` in front of `moves` if it is one of them (a table's or a probe's move;
/// `NO_MOVE` is none), the others keeping their order.
pub(crate) fn move_first(moves: &mut [Move], first: Move) {
    if first != NO_MOVE {
        if let Some(i) = moves.iter().position(|&m| m == first) {
            moves[..=i].rotate_right(1);
        }
    }
}

/// The first legal move, the answer of a search stopped before any iteration finished:
/// still a legal move, and the game still held to its contract (no moves and not over is
/// an error). The list is had fallibly, with room for 64 moves as a ply's list is.
pub(crate) fn first_move<G: Game>(game: &mut G) -> Result<Move, GameError> {
    let mut moves = Vec::new();
    moves.try_reserve(64).map_err(|_| GameError::OutOfMemory)?;
    game.moves(&mut moves)?;
    moves.first().copied().ok_or(GameError::NoMovesNotOver)
}

/// Whether a sample of a hidden-information position is one: not over where the position
/// is not (`over` is whether the position is), and the same legal moves at the root as
/// `root` lists, in any order ([`GameError::BadSample`] else). One list of room is had
/// fallibly.
pub(crate) fn sample_fits<S: Game>(
    sample: &mut S,
    root: &[Move],
    over: bool,
) -> Result<(), GameError> {
    if over {
        return Ok(());
    }
    if sample.outcome().is_some() || sample.is_chance() {
        return Err(GameError::BadSample);
    }
    let mut moves = Vec::new();
    moves
        .try_reserve(root.len().max(1))
        .map_err(|_| GameError::OutOfMemory)?;
    sample.moves(&mut moves)?;
    same_moves(&moves, root)
}

/// [`GameError::BadSample`] unless `listed` (a sample's moves at the root) holds the
/// moves of `root`, in any order; the copies a different order needs are had fallibly.
pub(crate) fn same_moves(listed: &[Move], root: &[Move]) -> Result<(), GameError> {
    if listed == root {
        return Ok(());
    }
    let sorted = |moves: &[Move]| {
        let mut v = Vec::new();
        v.try_reserve(moves.len())
            .map_err(|_| GameError::OutOfMemory)?;
        v.extend_from_slice(moves);
        v.sort_unstable();
        Ok::<_, GameError>(v)
    };
    if sorted(listed)? == sorted(root)? {
        Ok(())
    } else {
        Err(GameError::BadSample)
    }
}

/// Whose point of view a game's scores take ([`Game::score_view`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreView {
    /// MAX's: a position good for MAX scores high whoever is to move there.
    #[default]
    Max,
    /// The side to move's (negamax): a position good for the side to move there scores
    /// high. At MIN's turn the engine negates the score, so `i32::MIN` is refused there
    /// (`GameError::ScoreOutOfRange`, or `BadBounds` for bounds).
    SideToMove,
}

/// A move: any integer the game chooses.
pub type Move = i64;

/// No move: a table entry's or a probe's best move when it has none.
pub(crate) const NO_MOVE: Move = i64::MIN;

/// A position at the depth limit ([`Game::leaf`]): over, with its final score, or scored
/// by the evaluation; MAX's view, or the side to move's as the game's
/// [`ScoreView`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The game is over: `outcome`'s score.
    Over(i32),
    /// The game goes on: `evaluate`'s score.
    Heuristic(i32),
}

/// A game the engine can search. The engine calls `play` and `undo` in pairs and leaves
/// the game as it found it, also when the search stops early or fails.
pub trait Game {
    /// Appends the legal moves of the position to `out` (which is empty), in the order the
    /// engine should try them: good moves first make alpha-beta fast.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError>;
    /// Plays `mv`, one of the moves just listed.
    fn play(&mut self, mv: Move);
    /// Takes back `mv`, the last move played.
    fn undo(&mut self, mv: Move);
    /// The final score from MAX's point of view if the game is over, else `None`. A game
    /// with no legal moves must say it is over: the engine assumes no outcome. Scores lie
    /// strictly inside `i32` (not `i32::MIN` or `i32::MAX`: the deterministic methods
    /// negate them); the chance methods, which never negate, take any `i32`.
    fn outcome(&mut self) -> Option<i32>;
    /// A heuristic score from MAX's point of view, for positions at the depth limit; in
    /// the same range as `outcome`'s.
    fn evaluate(&mut self) -> i32;
    /// The part of the game the position is in, for what is measured apart in each
    /// (Multi-ProbCut's fit, [`Options::probcut`](super::Options::probcut)): a few
    /// numbers from 0 (the default, 0 everywhere: one stage). Othello's stage by the
    /// discs on the board, say: a shallow search predicts a deep one far better in the
    /// opening than near the end.
    fn stage(&mut self) -> u32 {
        0
    }
    /// A position at the depth limit of the alpha-beta family's search, in one call:
    /// [`Leaf::Over`] with `outcome`'s score if the game is over, else [`Leaf::Heuristic`]
    /// with `evaluate`'s. The default asks the two in turn; a game that learns both from
    /// the same work (Othello's mobility says whether the game is over and is part of
    /// its evaluation) answers at once, and must agree with them.
    fn leaf(&mut self) -> Leaf {
        match self.outcome() {
            Some(score) => Leaf::Over(score),
            None => Leaf::Heuristic(self.evaluate()),
        }
    }
    /// A hash of the position: enables the transposition table.
    fn hash(&mut self) -> Option<u64> {
        None
    }
    /// Whether MAX is to move, for games where turns do not strictly alternate (passes,
    /// extra turns). `None`: the sides alternate.
    fn max_to_move(&mut self) -> Option<bool> {
        None
    }
    /// The range of final scores (MAX's view) reachable from the position with best play
    /// by both sides, if the game knows one: it narrows alpha-beta's window. `lo == hi`
    /// settles the position at that score without searching it, as if it ended a ply later.
    /// A proven value outside the root's bounds is [`GameError::ScoreOutsideBounds`], in
    /// every method. Star1 and Star2, and MCTS with scaled rewards, take the root's bounds
    /// as the range of every final score (and, for the Stars, every evaluation): one
    /// outside them is that error too.
    fn bounds(&mut self) -> Option<(i32, i32)> {
        None
    }
    /// Whose point of view `outcome`, `evaluate` and `bounds` take: MAX's (the default,
    /// as in the textbook) or the side to move's (negamax's, as minimax-rs and easyAI
    /// games score). Asked once, at the start of a search. Results and progress stay in
    /// MAX's view either way (MAX is the side to move at the root unless `max_to_move` or
    /// `Options::max_at_root` says otherwise).
    fn score_view(&mut self) -> ScoreView {
        ScoreView::Max
    }
    /// The contract the game broke, for a game (a view of another, as
    /// [`Paranoid`](super::paranoid::Paranoid)) that stops a search by giving a score of
    /// `i32::MIN`: the search then reports this in place of
    /// [`GameError::ScoreOutOfRange`]. `None` by default.
    fn broken(&mut self) -> Option<GameError> {
        None
    }
    /// Whether the position is a chance node: its next step is drawn at random from
    /// [`Game::outcomes`] rather than chosen by a player. Only the chance methods
    /// ([`Expectimax`](super::Method::Expectimax), [`Star1`](super::Method::Star1),
    /// [`Star2`](super::Method::Star2)), MCTS and max^n search such games.
    fn is_chance(&mut self) -> bool {
        false
    }
    /// At a chance node, appends the outcomes to `out` (which is empty) with their
    /// weights: each finite and non-negative, summing to a positive value; an outcome's
    /// probability is its weight over the sum. Outcomes are played and undone like moves.
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let _ = out;
        Ok(())
    }
    /// For MCTS: a prior weight for each of `moves` (this position's moves, as `moves`
    /// listed them), written to `out` (as long as `moves`, zeros), from a policy the
    /// program has (a network, a rule of thumb); true if it wrote them. Weights are
    /// finite and non-negative with a positive sum ([`GameError::BadPriors`] else); MCTS
    /// uses them as probabilities (each over
    /// the sum) in PUCT. The default, false: no priors, and MCTS uses UCT.
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        let _ = (moves, out);
        false
    }
    /// For quiescence search ([`Options::quiescence`](super::Options::quiescence)): appends
    /// to `out` (which is empty) the position's noisy moves, a subset of its legal moves
    /// whose effect the evaluation cannot see (captures, promotions, a move that wins at
    /// once), best first. Searched past the depth limit until none is left, each position
    /// scored at least by `evaluate` (the side to move may stand pat). The default lists
    /// none: quiescence then changes nothing.
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let _ = out;
        Ok(())
    }
    /// For null-move pruning ([`Options::null_move`](super::Options::null_move)): a move
    /// that passes the turn without changing the position, which `play` and `undo` take
    /// though it is not one of the legal moves; `None` (the default) where the game
    /// cannot pass, or not here (the engine then does not try it).
    fn null_move(&mut self) -> Option<Move> {
        None
    }
    /// How many players the game has: 2 (the default) to
    /// [`MAX_PLAYERS`](super::maxn::MAX_PLAYERS). The n-player searches
    /// ([`maxn`](super::maxn), [`Paranoid`](super::paranoid::Paranoid)) ask it once, at the
    /// start; the two-player methods never do. A game of more than two players gives the
    /// four methods below, and writes `outcome` and `evaluate` as it likes (say `None` and
    /// 0): the n-player searches do not ask them.
    fn players(&mut self) -> usize {
        2
    }
    /// In a game of more than two players, the player to move: 0 to `players() - 1`.
    fn player_to_move(&mut self) -> usize {
        0
    }
    /// In a game of more than two players: at a final position, each player's score,
    /// written to `out` (one a player, zeros), and true; false while the game goes on.
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        let _ = out;
        false
    }
    /// In a game of more than two players: each player's heuristic score for a position
    /// at the depth limit, written to `out` (one a player, zeros; left so by default).
    fn player_evaluations(&mut self, out: &mut [i32]) {
        let _ = out;
    }
    /// In a game of more than two players: the least score a player can have and the
    /// most the scores can sum to, at every position (final scores and evaluations
    /// alike), if the game knows them; max^n prunes with them, and a score outside them is
    /// [`GameError::ScoreOutsideBounds`]. Asked once, at the start.
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        None
    }
    /// In a game of more than two players: a playout made by the game itself, for the
    /// n-player MCTS ([`maxn_mcts`](super::maxn_mcts)) and ISMCTS
    /// ([`ismcts`](super::ismcts), on its sample): play on from here to a final
    /// position, each move drawn uniformly among the legal ones and each chance outcome by
    /// its weight (or by a policy of the game's own), from `seed`; write each player's
    /// final scores to `out` (one a player, zeros) as `player_scores` would there; leave
    /// the position as it was found; and return true. False (the default): the engine
    /// plays out through `moves`, `play` and `undo`. Worth it where a step through those
    /// costs more than the game's own rules: a playout on a copy of a small state needs
    /// no undo and no lists of moves.
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        let _ = (seed, out);
        false
    }
    /// In a game with hidden information: a key for what the player to move has seen
    /// (its information state), equal for two positions it cannot tell apart. `None`
    /// (the default): the game does not say.
    fn information_key(&mut self) -> Option<u64> {
        None
    }
    /// In a game with hidden information: replaces what the player to move cannot see
    /// with an assignment drawn at random from `seed`, consistent with what it has seen
    /// (a determinization: same `information_key`), and returns true; false (the
    /// default) if the game cannot. Each seed gives one draw, the same every time; the
    /// hidden-information searches call it on a copy of the root, and never undo a move
    /// made before it.
    fn sample(&mut self, seed: u64) -> bool {
        let _ = seed;
        false
    }
    /// In a game where players do not see every move: the move `mv`, legal here and
    /// about to be played by the player to move, as `player` sees it (equal for moves
    /// that player cannot tell apart: a card passed face down, say). The mover sees its
    /// own move as it is. The default: every player sees every move.
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        let _ = player;
        mv
    }
}

/// A game borrowed mutably is the game: `&mut dyn Game` and `&mut G` are searched as
/// the game behind them, every method its own (a list of games of different types, as
/// `&mut dyn Game`s, can be calibrated together). A method added to `Game` must be
/// forwarded here too, or a borrowed game would answer with its default.
impl<G: Game + ?Sized> Game for &mut G {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        (**self).moves(out)
    }
    fn play(&mut self, mv: Move) {
        (**self).play(mv)
    }
    fn undo(&mut self, mv: Move) {
        (**self).undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        (**self).outcome()
    }
    fn evaluate(&mut self) -> i32 {
        (**self).evaluate()
    }
    fn stage(&mut self) -> u32 {
        (**self).stage()
    }
    fn leaf(&mut self) -> Leaf {
        (**self).leaf()
    }
    fn hash(&mut self) -> Option<u64> {
        (**self).hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        (**self).max_to_move()
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        (**self).bounds()
    }
    fn score_view(&mut self) -> ScoreView {
        (**self).score_view()
    }
    fn broken(&mut self) -> Option<GameError> {
        (**self).broken()
    }
    fn is_chance(&mut self) -> bool {
        (**self).is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        (**self).outcomes(out)
    }
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        (**self).priors(moves, out)
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        (**self).noisy_moves(out)
    }
    fn null_move(&mut self) -> Option<Move> {
        (**self).null_move()
    }
    fn players(&mut self) -> usize {
        (**self).players()
    }
    fn player_to_move(&mut self) -> usize {
        (**self).player_to_move()
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        (**self).player_scores(out)
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        (**self).player_evaluations(out)
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        (**self).player_bounds()
    }
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        (**self).playout(seed, out)
    }
    fn information_key(&mut self) -> Option<u64> {
        (**self).information_key()
    }
    fn sample(&mut self, seed: u64) -> bool {
        (**self).sample(seed)
    }
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        (**self).observed_move(mv, player)
    }
}

/// The sum of weights a game gave (chance outcomes' or priors'), held to the contract:
/// each finite and not negative ([`GameError::BadWeight`]), the sum finite
/// ([`GameError::WeightSumOverflow`]) and positive ([`GameError::ZeroWeights`]).
pub(crate) fn weights_total(weights: impl Iterator<Item = f64>) -> Result<f64, GameError> {
    let mut total = 0.0;
    for w in weights {
        if !w.is_finite() || w < 0.0 {
            return Err(GameError::BadWeight);
        }
        total += w;
    }
    if !total.is_finite() {
        return Err(GameError::WeightSumOverflow);
    }
    if total == 0.0 {
        return Err(GameError::ZeroWeights);
    }
    Ok(total)
}

/// The index drawn by `u` from weights summing to the scale of `u` (probabilities
/// and `u` in `[0, 1)`, or weights and `u` times their sum); the last on rounding.
pub(crate) fn pick(probs: impl Iterator<Item = f64>, u: f64) -> Option<usize> {
    let mut acc = 0.0;
    let mut last = None;
    for (i, p) in probs.enumerate() {
        acc += p;
        last = Some(i);
        if u < acc {
            return Some(i);
        }
    }
    last
}

/// A game that broke its contract. The search stops and reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameError {
    /// The move list did not fit the capacity it was given.
    TooManyMoves,
    /// The move count was negative.
    NegativeMoveCount,
    /// A score or evaluation was `i32::MIN` or `i32::MAX` (in a deterministic search).
    ScoreOutOfRange,
    /// A position had no legal moves but the game did not say it was over.
    NoMovesNotOver,
    /// `bounds` gave a lower bound above the upper bound (or, in a deterministic search,
    /// `i32::MIN` or `i32::MAX`).
    BadBounds,
    /// The search went deeper than the engine's ply limit.
    TooDeep,
    /// A chance node listed no outcomes.
    NoOutcomes,
    /// An outcome's weight was negative, NaN or infinite.
    BadWeight,
    /// A chance node's weights summed to zero.
    ZeroWeights,
    /// A deterministic method met a chance node: use a chance method.
    ChanceNode,
    /// Star1 and Star2 need the game's score bounds, and the game gave none (C:
    /// `MM_ERR_NEEDS_BOUNDS`).
    NeedsBounds,
    /// A chance node's weights were each finite, but their sum overflows an `f64`.
    WeightSumOverflow,
    /// MCTS's exploration constant was negative or not finite (C:
    /// `MM_ERR_BAD_EXPLORATION`).
    BadExploration,
    /// [`Reward::Sign`](super::mcts::Reward::Sign)'s scale was not positive and finite
    /// (C: `MM_ERR_BAD_EVAL_SCALE`).
    BadEvalScale,
    /// MCTS was asked to search from a chance node (C: `MM_ERR_CHANCE_ROOT`).
    ChanceRoot,
    /// The game's priors had a negative, NaN or infinite weight, or summed to zero or
    /// overflowed (C: `MM_ERR_GAME_BAD_PRIORS`).
    BadPriors,
    /// A final score (or, for Star1 and Star2, an evaluation) lay outside the bounds the
    /// game gave at the root (C: `MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS`).
    ScoreOutsideBounds,
    /// Memory the search needed could not be had (C: `MM_ERR_OUT_OF_MEMORY`).
    OutOfMemory,
    /// Batched MCTS: the game mapped a legal move to an index outside its action space,
    /// or to one another legal move has (C: `MM_ERR_GAME_BAD_ACTION_INDEX`).
    BadActionIndex,
    /// Batched MCTS: the evaluator gave a value that is NaN or outside [-1, 1], or a NaN
    /// or +infinite logit for a legal move, or -infinite logits for every one (C:
    /// `MM_ERR_BAD_EVALUATION`).
    BadEvaluation,
    /// Batched MCTS: the evaluator reported that it failed (C: `MM_ERR_EVALUATOR_FAILED`;
    /// in Python its exception is raised).
    EvaluatorFailed,
    /// Batched MCTS: an option out of its range (a batch size, a leaf count or a
    /// simulation count of 0, a game count that is not the forest's, a noise or Gumbel
    /// setting that is not finite and positive; C: `MM_ERR_BAD_BATCH_OPTIONS`).
    BadBatchOptions,
    /// An n-player game said it has fewer than 2 or more than
    /// [`MAX_PLAYERS`](super::maxn::MAX_PLAYERS) players, or that a player outside
    /// `0..players()` is to move (C: `MM_ERR_GAME_BAD_PLAYER`).
    BadPlayer,
    /// Best-reply search needed the game to pass the turn ([`Game::null_move`]) where it
    /// gave no pass (C: `MM_ERR_GAME_NO_PASS`).
    NoPass,
    /// A hidden-information search needed the game to draw the hidden part of a
    /// position ([`Game::sample`]) and it could not (C: `MM_ERR_GAME_NO_SAMPLE`).
    NoSample,
    /// A hidden-information search was given a sample that is not of the position: its
    /// moves at the root differ from the position's, or it is over where the position is
    /// not (C: `MM_ERR_GAME_BAD_SAMPLE`).
    BadSample,
    /// Batched MCTS: `max_nodes` cannot hold a root and its children, so the search could
    /// never expand it (C: `MM_ERR_BATCH_TREE_TOO_SMALL`).
    TreeTooSmall,
}

impl GameError {
    /// The name [`GameError::NeedsBounds`] had before 0.4.0, kept so that code written
    /// for it still builds.
    #[deprecated(
        since = "0.4.0",
        note = "renamed NeedsBounds, as C's MM_ERR_NEEDS_BOUNDS"
    )]
    #[allow(non_upper_case_globals)]
    pub const NoBounds: GameError = GameError::NeedsBounds;
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GameError::TooManyMoves => "the game listed more moves than the room it was given",
            GameError::NegativeMoveCount => "the game gave a negative move count",
            GameError::ScoreOutOfRange => "the game gave a score of i32::MIN or i32::MAX",
            GameError::NoMovesNotOver => "a position has no moves but the game is not over",
            GameError::BadBounds => "the game's score bounds are reversed or out of range",
            GameError::TooDeep => "the game has a line longer than MAX_PLIES plies",
            GameError::NoOutcomes => "a chance node listed no outcomes",
            GameError::BadWeight => "a chance node gave a negative, NaN or infinite weight",
            GameError::ZeroWeights => "a chance node's weights sum to zero",
            GameError::ChanceNode => "a deterministic method met a chance node",
            GameError::NeedsBounds => {
                "Star1, Star2 and MCTS with scaled rewards need the game's score bounds"
            }
            GameError::WeightSumOverflow => {
                "a chance node's weights are each finite but their sum overflows"
            }
            GameError::BadExploration => "MCTS's exploration is negative or not finite",
            GameError::BadEvalScale => "MCTS's Reward::Sign scale is not positive and finite",
            GameError::ChanceRoot => "MCTS was asked to search from a chance node",
            GameError::BadPriors => {
                "the game's priors have a negative, NaN or infinite weight, or a bad sum"
            }
            GameError::ScoreOutsideBounds => {
                "the game gave a score outside the bounds it gave at the root"
            }
            GameError::OutOfMemory => "memory the search needed could not be had",
            GameError::BadActionIndex => {
                "the game mapped a legal move outside its action space or onto another's index"
            }
            GameError::BadEvaluation => {
                "the evaluator gave a value outside [-1, 1] or NaN, or bad logits for the legal moves"
            }
            GameError::EvaluatorFailed => "the evaluator reported that it failed",
            GameError::BadBatchOptions => {
                "a batched MCTS option is out of range (a count of 0, Gumbel's considered below 2, a bad noise or Gumbel setting)"
            }
            GameError::BadPlayer => {
                "the game gave a player count outside 2 to 8, or a player to move outside it"
            }
            GameError::NoPass => {
                "best-reply search needs the game to pass the turn (null_move), and it gave no pass"
            }
            GameError::NoSample => {
                "a hidden-information search needs the game to draw what the player to move cannot see (sample), and it could not"
            }
            GameError::BadSample => {
                "the game's sample is not of the position: its moves at the root differ, or it is over where the position is not"
            }
            GameError::TreeTooSmall => {
                "batched MCTS's max_nodes cannot hold a root and its children (it needs at least 1 + the root's moves)"
            }
        })
    }
}

/// A `GameError` is an error like any other: `?` turns it into a `Box<dyn Error>`.
impl std::error::Error for GameError {}

/// A game whose position can be copied for another search thread. Every `Clone` game
/// is one; a game whose copy can fail (a C game's copy callback) says `None`.
pub trait Fork: Sized {
    /// A copy of the game in its current position, or `None` if none can be made.
    fn fork(&self) -> Option<Self>;
}

impl<T: Clone> Fork for T {
    fn fork(&self) -> Option<Self> {
        Some(self.clone())
    }
}
