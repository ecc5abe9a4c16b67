//! A game from C: `mm_game`, a struct of callbacks that carries its own size so that later
//! versions can add fields, and `CGame`, the adapter that makes it a [`Game`] and gives a
//! misbehaving callback its own status.

use std::ffi::{c_int, c_void};

use super::args::{non_null, read_sized, write_sized};
use super::boundary::status_call;
use super::status::mm_status::{self, *};
use crate::search::maxn::MAX_PLAYERS;
use crate::search::{Fork, Game, GameError, Move, ScoreView};

/// A game, as callbacks that all receive `context` first. Fill it with `mm_game_init`,
/// then set the callbacks. `moves`, `play`, `undo`, `outcome` and `evaluate` are required;
/// the others may be NULL. Scores are from MAX's point of view and must lie strictly
/// between `INT_MIN` and `INT_MAX`.
///
/// Threads: with `threads` of 1 (the default) every callback is called on the thread
/// that called `mm_search`, with `context`. A parallel search also calls `copy_context`
/// and `free_context` on that thread, and the other callbacks of each copy on one pool
/// thread (a copy is used by one thread at a time; the original stays on the calling
/// thread). Callbacks of different copies run at the same time: they must not share
/// mutable data without synchronising it.
///
/// A callback must return normally: `longjmp` out of it, or a C++ exception through it,
/// skips the library's frames, which is undefined behaviour (do not; catch a C++
/// exception inside the callback and report it through the context, then stop the search
/// with the `stop` flag).
///
/// The transposition table trusts `hash`: two positions with the same 64-bit hash are
/// taken for one, and a search may then take one's value for the other's, also in a
/// `proven` result. With a well-mixed hash (Zobrist's) that is about as likely as a
/// collision of random 64-bit numbers among the positions searched; a game that needs
/// certainty searches without a table (`table_bytes` 0, or no `hash`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_game {
    /// `sizeof(mm_game)`, set by `mm_game_init`: lets later versions add callbacks.
    /// The size before `copy_context` existed (its offset) is accepted too.
    pub struct_size: usize,
    /// The caller's data, passed to every callback.
    pub context: *mut c_void,
    /// Writes the legal moves, best first, into `moves` (room for `capacity`) and returns
    /// how many there are.
    pub moves: Option<
        unsafe extern "C" fn(context: *mut c_void, moves: *mut i64, capacity: usize) -> c_int,
    >,
    /// Plays a move just listed.
    pub play: Option<unsafe extern "C" fn(context: *mut c_void, mv: i64)>,
    /// Takes back the last move played.
    pub undo: Option<unsafe extern "C" fn(context: *mut c_void, mv: i64)>,
    /// Returns true and writes the final score if the game is over. A position without
    /// moves must be over: the engine does not assume a loss.
    pub outcome: Option<unsafe extern "C" fn(context: *mut c_void, score: *mut i32) -> bool>,
    /// A heuristic score for a position at the depth limit.
    pub evaluate: Option<unsafe extern "C" fn(context: *mut c_void) -> i32>,
    /// Optional: a 64-bit hash of the position; enables the transposition table.
    pub hash: Option<unsafe extern "C" fn(context: *mut c_void) -> u64>,
    /// Optional: whether MAX is to move, for games where turns do not strictly alternate.
    pub max_to_move: Option<unsafe extern "C" fn(context: *mut c_void) -> bool>,
    /// Optional: returns true and writes the range of final scores reachable with best
    /// play, if known; it narrows the search. `*lo == *hi` settles the position.
    pub bounds:
        Option<unsafe extern "C" fn(context: *mut c_void, lo: *mut i32, hi: *mut i32) -> bool>,
    /// Optional, needed for `threads` other than 1: returns a new context holding a copy of
    /// the position in `context` (called at the start of a search, in its root position),
    /// or NULL if it cannot (that thread then does not run). Without it a search runs
    /// on one thread, and says so in `threads_used` and `fewer_threads`.
    pub copy_context: Option<unsafe extern "C" fn(context: *mut c_void) -> *mut c_void>,
    /// Frees a context made by `copy_context`, when the search ends. Required with
    /// `copy_context` (else `MM_ERR_COPY_WITHOUT_FREE`).
    pub free_context: Option<unsafe extern "C" fn(copy: *mut c_void)>,
    /// Optional: whether the position is a chance node, whose next step is drawn at
    /// random from `outcomes` rather than chosen. NULL: the game has no chance nodes.
    /// Only the chance methods (`MM_SEARCH_EXPECTIMAX`, `STAR1`, `STAR2`), MCTS and
    /// `mm_maxn_search` accept a chance node; the others get `MM_ERR_GAME_CHANCE_NODE`.
    pub is_chance: Option<unsafe extern "C" fn(context: *mut c_void) -> bool>,
    /// Required with `is_chance` (else `MM_ERR_CHANCE_WITHOUT_OUTCOMES`): at a chance node, writes the outcomes into `outcomes`
    /// and their weights into `weights` (room for `capacity` of each) and returns how
    /// many there are. Weights are finite and non-negative with a positive sum; an
    /// outcome's probability is its weight over the sum, and an outcome of weight 0 is
    /// never played. Outcomes are played and undone with `play` and `undo`, like moves.
    pub outcomes: Option<
        unsafe extern "C" fn(
            context: *mut c_void,
            outcomes: *mut i64,
            weights: *mut f64,
            capacity: usize,
        ) -> c_int,
    >,
    /// Whose point of view `outcome`, `evaluate` and `bounds` take: `MM_SCORES_MAX_VIEW`
    /// (0, the default: MAX's, as in the textbook) or `MM_SCORES_SIDE_TO_MOVE` (the side
    /// to move's, as negamax games score; at MIN's turn the engine negates the score,
    /// so `INT_MIN` is refused there). Results and progress stay in MAX's view. Another
    /// value is `MM_ERR_UNKNOWN_SCORE_VIEW`.
    pub score_view: mm_score_view,
    /// Optional, for MCTS: writes a prior weight for each of the `n` moves in `moves`
    /// (the position's moves, as `moves` listed them) into `priors`, and returns true; or
    /// returns false for none. Weights are finite and non-negative with a positive sum
    /// (else `MM_ERR_GAME_BAD_PRIORS`); MCTS then chooses by
    /// PUCT (each weight over the sum is a move's probability). NULL: UCT.
    pub priors: Option<
        unsafe extern "C" fn(
            context: *mut c_void,
            moves: *const i64,
            n: usize,
            priors: *mut f64,
        ) -> bool,
    >,
    /// Optional, for quiescence search (`quiescence` in `mm_search_options`): writes the
    /// position's noisy moves into `moves` (room for `capacity`) and returns how many: a
    /// subset of its legal moves whose effect the evaluation cannot see (captures,
    /// promotions, a move that wins at once), best first. A count below 0 or above the
    /// capacity gets the statuses `moves` gets. NULL: none, and quiescence changes nothing.
    pub noisy_moves: Option<
        unsafe extern "C" fn(context: *mut c_void, moves: *mut i64, capacity: usize) -> c_int,
    >,
    /// Optional, for null-move pruning (`null_move` in `mm_search_options`): writes to
    /// `*pass` a move that passes the turn without changing the position, which `play`
    /// and `undo` take though it is not a legal move, and returns true; or returns false
    /// where the game cannot pass here. NULL: the game never passes.
    pub null_move: Option<unsafe extern "C" fn(context: *mut c_void, pass: *mut i64) -> bool>,
    /// For a game of more than two players, how many: 3 to `MM_MAX_PLAYERS` (else
    /// `MM_ERR_GAME_BAD_PLAYER`); 0 (the default) or 2 for a two-player game. Such a
    /// game is searched by `mm_maxn_search` and `mm_paranoid_search` (the two-player
    /// searches refuse it: `MM_ERR_NOT_TWO_PLAYERS`), gives `player_to_move` and
    /// `player_scores`, and may leave `outcome` and `evaluate` NULL.
    pub players: u32,
    /// With `players`: the player to move, 0 to `players - 1` (else
    /// `MM_ERR_GAME_BAD_PLAYER`).
    pub player_to_move: Option<unsafe extern "C" fn(context: *mut c_void) -> u32>,
    /// With `players`: returns true and writes each player's score into `scores` (room
    /// for `players`, zeros) if the game is over; false while it goes on.
    pub player_scores: Option<
        unsafe extern "C" fn(context: *mut c_void, scores: *mut i32, players: usize) -> bool,
    >,
    /// Optional, with `players`: writes each player's heuristic score for a position at
    /// the depth limit into `scores` (room for `players`, zeros). NULL: zeros.
    pub player_evaluations:
        Option<unsafe extern "C" fn(context: *mut c_void, scores: *mut i32, players: usize)>,
    /// Optional, with `players`: returns true and writes the least score a player can
    /// have and the most the scores can sum to (at every position, evaluations too), if
    /// the game knows them; max^n prunes with them, and a score outside them is
    /// `MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS`.
    pub player_bounds:
        Option<unsafe extern "C" fn(context: *mut c_void, lo: *mut i32, sum: *mut i32) -> bool>,
    /// Optional, for a game with hidden information: returns true and writes to `*key` a
    /// key of what the player to move has seen (its information state), equal for two
    /// positions it cannot tell apart; false where the game gives none.
    pub information_key: Option<unsafe extern "C" fn(context: *mut c_void, key: *mut u64) -> bool>,
    /// For `mm_ismcts_search`: a new context, a position consistent with what the player
    /// to move in `context` has seen, what it cannot see drawn at random from `seed`
    /// (the same seed, the same draw); NULL if it cannot (`MM_ERR_GAME_NO_SAMPLE`).
    /// `context` is left as it is; the search plays on the sample and frees it with
    /// `free_context` (required with `sample`: else `MM_ERR_SAMPLE_WITHOUT_FREE`).
    pub sample: Option<unsafe extern "C" fn(context: *mut c_void, seed: u64) -> *mut c_void>,
    /// Optional, for a game whose players do not see every move (a card put down face
    /// down): the move `mv`, legal here and about to be played by the player to move, as
    /// `player` sees it (equal for moves that player cannot tell apart). Read by
    /// multi-observer ISMCTS (`multi_observer` in `mm_ismcts_options`). NULL: every
    /// player sees every move.
    pub observed_move:
        Option<unsafe extern "C" fn(context: *mut c_void, mv: i64, player: u32) -> i64>,
    /// Optional, for Multi-ProbCut (`mm_search_options.probcut`): the stage of the game
    /// the position is in (a fit has a line per stage: the discs on the board over 10,
    /// say). NULL: stage 0 everywhere.
    pub stage: Option<unsafe extern "C" fn(context: *mut c_void) -> u32>,
}

/// Whose point of view a game's scores take: one of the `MM_SCORES_*` values.
pub type mm_score_view = u32;
/// Scores are MAX's view, whoever is to move (the default).
pub const MM_SCORES_MAX_VIEW: mm_score_view = 0;
/// Scores are the side to move's view (negamax): high is good for the side to move.
pub const MM_SCORES_SIDE_TO_MOVE: mm_score_view = 1;

impl Default for mm_game {
    /// What `mm_game_init` writes: the size, and NULL everywhere else.
    fn default() -> Self {
        mm_game {
            struct_size: size_of::<mm_game>(),
            context: std::ptr::null_mut(),
            moves: None,
            play: None,
            undo: None,
            outcome: None,
            evaluate: None,
            hash: None,
            max_to_move: None,
            bounds: None,
            copy_context: None,
            free_context: None,
            is_chance: None,
            outcomes: None,
            score_view: MM_SCORES_MAX_VIEW,
            priors: None,
            noisy_moves: None,
            null_move: None,
            players: 0,
            player_to_move: None,
            player_scores: None,
            player_evaluations: None,
            player_bounds: None,
            information_key: None,
            sample: None,
            observed_move: None,
            stage: None,
        }
    }
}

/// The size of `mm_game` before the copy callbacks (version 0.2.0's first layout).
const GAME_SIZE_WITHOUT_COPY: usize = std::mem::offset_of!(mm_game, copy_context);
/// The size of `mm_game` before the chance callbacks (version 0.2.0's last layout).
const GAME_SIZE_WITHOUT_CHANCE: usize = std::mem::offset_of!(mm_game, is_chance);
/// The size of `mm_game` before `score_view` (version 0.3.0's layout).
const GAME_SIZE_WITHOUT_VIEW: usize = std::mem::offset_of!(mm_game, score_view);
/// The size of `mm_game` before `priors` (version 0.4.0's layout).
const GAME_SIZE_WITHOUT_PRIORS: usize = std::mem::offset_of!(mm_game, priors);
/// The size of `mm_game` before the hidden-information callbacks (issue 52).
const GAME_SIZE_WITHOUT_SAMPLE: usize = std::mem::offset_of!(mm_game, information_key);
/// The size of `mm_game` before `stage` (issue 53).
const GAME_SIZE_WITHOUT_STAGE: usize = std::mem::offset_of!(mm_game, stage);

/// The sizes of the older versions of `mm_game`.
const OLDER_GAMES: [usize; 6] = [
    GAME_SIZE_WITHOUT_COPY,
    GAME_SIZE_WITHOUT_CHANCE,
    GAME_SIZE_WITHOUT_VIEW,
    GAME_SIZE_WITHOUT_PRIORS,
    GAME_SIZE_WITHOUT_SAMPLE,
    GAME_SIZE_WITHOUT_STAGE,
];

/// Fills `*game`, a struct of `size` bytes (`sizeof(mm_game)` where the caller was
/// compiled), with that size, NULL callbacks and MAX's score view; set the callbacks
/// after. The header's `mm_game_init(game)` macro calls this with `sizeof(mm_game)`; a
/// program that does not use the header (a binding from another language) passes its
/// struct's size itself. A size of an older version (80, 96, 112, 120, 184 or 208 bytes: before
/// the copy callbacks, the chance callbacks, `score_view`, `priors`, `information_key`) gets that version's
/// fields and nothing past them; a larger
/// size gets zeros past this version's fields. Any other size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `game` must point to `size` writable bytes, aligned for `mm_game`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_game_init_sized(game: *mut mm_game, size: usize) -> mm_status {
    status_call(|| {
        let game = non_null(game)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(game, mm_game::default(), size, &OLDER_GAMES) }
    })
}

/// The caller's game, read at the size it was compiled with (NULL is
/// `MM_ERR_NULL_ARGUMENT`, an unknown size `MM_ERR_BAD_STRUCT_SIZE`).
///
/// # Safety
/// `game`, if not NULL, must point to a valid `mm_game` of its `struct_size`.
pub(crate) unsafe fn read_game(game: *const mm_game) -> Result<mm_game, mm_status> {
    if game.is_null() {
        return Err(MM_ERR_NULL_ARGUMENT);
    }
    // SAFETY: non-NULL, and a valid game of its `struct_size` (caller's guarantee).
    unsafe { read_sized(game, mm_game::default(), &OLDER_GAMES, &[]) }
}

/// The callbacks that come in pairs or choices, checked: a copy needs its free, a chance
/// node its outcomes, and the score view must be one of the `MM_SCORES_*` values.
pub(crate) fn check_game(game: &mm_game) -> Result<(), mm_status> {
    if game.copy_context.is_some() && game.free_context.is_none() {
        return Err(MM_ERR_COPY_WITHOUT_FREE);
    }
    if game.sample.is_some() && game.free_context.is_none() {
        return Err(MM_ERR_SAMPLE_WITHOUT_FREE);
    }
    if game.is_chance.is_some() && game.outcomes.is_none() {
        return Err(MM_ERR_CHANCE_WITHOUT_OUTCOMES);
    }
    if !matches!(game.score_view, MM_SCORES_MAX_VIEW | MM_SCORES_SIDE_TO_MOVE) {
        return Err(MM_ERR_UNKNOWN_SCORE_VIEW);
    }
    if !matches!(game.players, 0 | 2..=MAX_PLAYERS_C) {
        return Err(MM_ERR_GAME_BAD_PLAYER);
    }
    Ok(())
}

/// The most players, as C's `players` field counts them.
const MAX_PLAYERS_C: u32 = MAX_PLAYERS as u32;

/// The callbacks as a [`Game`], checking what they return. A copy made for another
/// thread owns its context and frees it when dropped.
pub(crate) struct CGame {
    game: mm_game,
    owned: bool,
    moves: unsafe extern "C" fn(*mut c_void, *mut i64, usize) -> c_int,
    play: unsafe extern "C" fn(*mut c_void, i64),
    undo: unsafe extern "C" fn(*mut c_void, i64),
    /// NULL only in a game of more than two players, which the two-player searches
    /// never get.
    outcome: Option<unsafe extern "C" fn(*mut c_void, *mut i32) -> bool>,
    evaluate: Option<unsafe extern "C" fn(*mut c_void) -> i32>,
    buffer: Vec<i64>,
    /// The weights the `outcomes` callback writes (empty when the game has none).
    weights: Vec<f64>,
}

impl CGame {
    /// The adapter for one search: the required callbacks (NULL is
    /// `MM_ERR_NULL_ARGUMENT`) and buffers of `max_moves` entries for the callbacks to
    /// write into (`MM_ERR_OUT_OF_MEMORY` if they cannot be had).
    pub(crate) fn new(game: mm_game, max_moves: usize) -> Result<CGame, mm_status> {
        if game.players > 2 {
            return Err(MM_ERR_NOT_TWO_PLAYERS);
        }
        if game.outcome.is_none() || game.evaluate.is_none() {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        CGame::any(game, max_moves)
    }

    /// The adapter for a search of a game of more than two players (`players` 3 or
    /// more, else `MM_ERR_GAME_BAD_PLAYER`): `player_to_move` and `player_scores` are
    /// required, `outcome` and `evaluate` not.
    pub(crate) fn new_players(game: mm_game, max_moves: usize) -> Result<CGame, mm_status> {
        if game.players < 3 {
            return Err(MM_ERR_GAME_BAD_PLAYER);
        }
        if game.player_to_move.is_none() || game.player_scores.is_none() {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        CGame::any(game, max_moves)
    }

    fn any(game: mm_game, max_moves: usize) -> Result<CGame, mm_status> {
        let (Some(moves), Some(play), Some(undo)) = (game.moves, game.play, game.undo) else {
            return Err(MM_ERR_NULL_ARGUMENT);
        };
        let (outcome, evaluate) = (game.outcome, game.evaluate);
        let weights = match game.is_chance {
            Some(_) => move_buffer(max_moves)?,
            None => Vec::new(),
        };
        Ok(CGame {
            game,
            owned: false,
            moves,
            play,
            undo,
            outcome,
            evaluate,
            buffer: move_buffer(max_moves)?,
            weights,
        })
    }
}

impl CGame {
    /// The moves a listing callback (`moves` or `noisy_moves`) writes into the buffer,
    /// appended to `out`: a count below 0 or past the buffer is the game's error, and
    /// memory that cannot be had is a status, never an abort.
    fn list(
        &mut self,
        callback: unsafe extern "C" fn(*mut c_void, *mut i64, usize) -> c_int,
        out: &mut Vec<Move>,
    ) -> Result<(), GameError> {
        let cap = self.buffer.len();
        // SAFETY: as for every call below; `buffer` has `cap` writable entries.
        let n = unsafe { callback(self.game.context, self.buffer.as_mut_ptr(), cap) };
        if n < 0 {
            return Err(GameError::NegativeMoveCount);
        }
        let n = n as usize;
        if n > cap {
            return Err(GameError::TooManyMoves);
        }
        out.try_reserve(n).map_err(|_| GameError::OutOfMemory)?;
        out.extend_from_slice(&self.buffer[..n]);
        Ok(())
    }
}

// SAFETY (for every call below): the callbacks come from the caller's `mm_game`, whose
// contract is that they may be called with its `context` and valid pointers for the
// duration of `mm_search`; the buffers passed are ours and as large as stated.
impl Game for CGame {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.list(self.moves, out)
    }
    fn play(&mut self, mv: Move) {
        // SAFETY: see above.
        unsafe { (self.play)(self.game.context, mv) }
    }
    fn undo(&mut self, mv: Move) {
        // SAFETY: see above.
        unsafe { (self.undo)(self.game.context, mv) }
    }
    /// (None in a game of more than two players without `outcome`: only its own
    /// searches, which do not ask, get it.)
    fn outcome(&mut self) -> Option<i32> {
        let f = self.outcome?;
        let mut score = 0;
        // SAFETY: see above; `score` is a live local.
        unsafe { f(self.game.context, &mut score) }.then_some(score)
    }
    fn evaluate(&mut self) -> i32 {
        // SAFETY: see above.
        self.evaluate.map_or(0, |f| unsafe { f(self.game.context) })
    }
    fn players(&mut self) -> usize {
        match self.game.players {
            0 => 2,
            n => n as usize,
        }
    }
    /// (A game without `player_to_move` is a two-player one here, and none of its
    /// searches ask.)
    fn player_to_move(&mut self) -> usize {
        // SAFETY: see above.
        let p = self
            .game
            .player_to_move
            .map(|f| unsafe { f(self.game.context) });
        // A number past any player count, kept so: the search reports it.
        p.map_or(0, |p| usize::try_from(p).unwrap_or(usize::MAX))
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        let Some(f) = self.game.player_scores else {
            return false;
        };
        // SAFETY: see above; `out` has room for `out.len()` scores.
        unsafe { f(self.game.context, out.as_mut_ptr(), out.len()) }
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        if let Some(f) = self.game.player_evaluations {
            // SAFETY: see above; `out` has room for `out.len()` scores.
            unsafe { f(self.game.context, out.as_mut_ptr(), out.len()) }
        }
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        let f = self.game.player_bounds?;
        let (mut lo, mut sum) = (0, 0);
        // SAFETY: see above; `lo` and `sum` are live locals.
        unsafe { f(self.game.context, &mut lo, &mut sum) }.then_some((lo, sum))
    }
    fn stage(&mut self) -> u32 {
        // SAFETY: see above.
        self.game
            .stage
            .map_or(0, |f| unsafe { f(self.game.context) })
    }
    fn hash(&mut self) -> Option<u64> {
        // SAFETY: see above.
        self.game.hash.map(|h| unsafe { h(self.game.context) })
    }
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        match self.game.observed_move {
            // SAFETY: see above.
            Some(f) => unsafe { f(self.game.context, mv, player as u32) },
            None => mv,
        }
    }
    fn information_key(&mut self) -> Option<u64> {
        let f = self.game.information_key?;
        let mut key = 0;
        // SAFETY: see above; `key` is a live local.
        unsafe { f(self.game.context, &mut key) }.then_some(key)
    }
    fn score_view(&mut self) -> ScoreView {
        match self.game.score_view {
            MM_SCORES_SIDE_TO_MOVE => ScoreView::SideToMove,
            _ => ScoreView::Max, // mm_search refused any other value
        }
    }
    fn max_to_move(&mut self) -> Option<bool> {
        // SAFETY: see above.
        self.game
            .max_to_move
            .map(|f| unsafe { f(self.game.context) })
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let f = self.game.bounds?;
        let (mut lo, mut hi) = (0, 0);
        // SAFETY: see above; `lo` and `hi` are live locals.
        unsafe { f(self.game.context, &mut lo, &mut hi) }.then_some((lo, hi))
    }
    fn is_chance(&mut self) -> bool {
        // SAFETY: see above.
        self.game
            .is_chance
            .is_some_and(|f| unsafe { f(self.game.context) })
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let f = self.game.outcomes.ok_or(GameError::NoOutcomes)?;
        let cap = self.buffer.len().min(self.weights.len());
        let (moves, weights) = (self.buffer.as_mut_ptr(), self.weights.as_mut_ptr());
        // SAFETY: see above; both buffers have at least `cap` writable entries.
        let n = unsafe { f(self.game.context, moves, weights, cap) };
        if n < 0 {
            return Err(GameError::NegativeMoveCount);
        }
        let n = n as usize;
        if n > cap {
            return Err(GameError::TooManyMoves);
        }
        out.try_reserve(n).map_err(|_| GameError::OutOfMemory)?;
        out.extend(
            self.buffer[..n]
                .iter()
                .copied()
                .zip(self.weights[..n].iter().copied()),
        );
        Ok(())
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.game.noisy_moves {
            Some(noisy) => self.list(noisy, out),
            None => Ok(()),
        }
    }
    fn null_move(&mut self) -> Option<Move> {
        let f = self.game.null_move?;
        let mut pass = 0;
        // SAFETY: the caller's callback with its context; `pass` is a live local.
        unsafe { f(self.game.context, &mut pass) }.then_some(pass)
    }
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        let Some(f) = self.game.priors else {
            return false;
        };
        // SAFETY: the caller's callback with its context; `moves` holds `moves.len()`
        // moves and `out` has room for as many weights (the trait's contract).
        unsafe {
            f(
                self.game.context,
                moves.as_ptr(),
                moves.len().min(out.len()),
                out.as_mut_ptr(),
            )
        }
    }
}

impl CGame {
    /// A sample of this position drawn from `seed` by the game's `sample` (which
    /// `check_game` pairs with `free_context`), owning its context: `NoSample` if the
    /// game has no `sample` or it gave NULL, `OutOfMemory` if the buffers could not be had.
    pub(crate) fn sampled(&self, seed: u64) -> Result<CGame, GameError> {
        let sample = self.game.sample.ok_or(GameError::NoSample)?;
        let buffers = self.buffers().map_err(|_| GameError::OutOfMemory)?;
        // SAFETY: the caller's sample callback with its context, on the calling thread.
        let context = unsafe { sample(self.game.context, seed) };
        if context.is_null() {
            return Err(GameError::NoSample);
        }
        Ok(self.owning(context, buffers))
    }

    /// Fresh buffers of this adapter's sizes, for a copy of it (had fallibly).
    fn buffers(&self) -> Result<(Vec<i64>, Vec<f64>), mm_status> {
        Ok((
            move_buffer(self.buffer.len())?,
            move_buffer(self.weights.len())?,
        ))
    }

    /// This adapter on `context` (a copy or a sample), which it owns and frees when
    /// dropped, with `buffers` of its own.
    fn owning(&self, context: *mut c_void, (buffer, weights): (Vec<i64>, Vec<f64>)) -> CGame {
        CGame {
            game: mm_game {
                context,
                ..self.game
            },
            owned: true,
            buffer,
            weights,
            ..*self
        }
    }
}

impl Fork for CGame {
    fn fork(&self) -> Option<Self> {
        let (copy, _) = (self.game.copy_context?, self.game.free_context?);
        let buffers = self.buffers().ok()?;
        // SAFETY: the caller's copy callback with its context, on the calling thread.
        let context = unsafe { copy(self.game.context) };
        (!context.is_null()).then(|| self.owning(context, buffers))
    }
}

impl Drop for CGame {
    fn drop(&mut self) {
        if let (true, Some(free)) = (self.owned, self.game.free_context) {
            // SAFETY: a context from `copy_context`, freed once, by the callback that the
            // caller gave for it; the search that used it has ended.
            unsafe { free(self.game.context) }
        }
    }
}

// SAFETY: the header's contract: a game's callbacks may be called from a pool thread
// with a context of its own (a copy), used by one thread at a time.
unsafe impl Send for CGame {}

/// A buffer the `moves` or `outcomes` callback writes into: `max_moves` may be anything
/// a caller sets, so a failed allocation is a status rather than an abort.
fn move_buffer<T: Clone + Default>(max_moves: usize) -> Result<Vec<T>, mm_status> {
    let mut buffer = Vec::new();
    buffer
        .try_reserve_exact(max_moves)
        .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
    buffer.resize(max_moves, T::default());
    Ok(buffer)
}
