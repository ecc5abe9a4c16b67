//! The exceptions: one `GameError` subclass per status a game can cause, carrying the
//! library's message; memory that cannot be had is `MemoryError`, and options the
//! library refuses are `ValueError`.

use minimax::search::GameError as Status;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    libminimax,
    GameError,
    PyException,
    "A game broke the engine's contract and the search stopped; each status has a subclass."
);
create_exception!(
    libminimax,
    ScoreOutOfRangeError,
    GameError,
    "A score was -2**31 or 2**31 - 1 in a deterministic search (or out of range in the side to move's view)."
);
create_exception!(
    libminimax,
    NoMovesNotOverError,
    GameError,
    "A position had no moves but `outcome()` said the game was not over."
);
create_exception!(
    libminimax,
    BadBoundsError,
    GameError,
    "`bounds()` gave a lower bound above the upper one, or out of range."
);
create_exception!(
    libminimax,
    TooDeepError,
    GameError,
    "A line went deeper than the engine's ply limit."
);
create_exception!(
    libminimax,
    NoOutcomesError,
    GameError,
    "A chance position listed no outcomes."
);
create_exception!(
    libminimax,
    BadWeightError,
    GameError,
    "An outcome's weight was negative, NaN or infinite."
);
create_exception!(
    libminimax,
    ZeroWeightsError,
    GameError,
    "A chance position's weights summed to zero."
);
create_exception!(
    libminimax,
    WeightSumOverflowError,
    GameError,
    "A chance position's weights were finite but their sum overflowed."
);
create_exception!(
    libminimax,
    ChanceNodeError,
    GameError,
    "A deterministic method met a chance position: use expectimax, star1, star2 or MCTS."
);
create_exception!(
    libminimax,
    NeedsBoundsError,
    GameError,
    "Star1, Star2 and MCTS with scaled rewards need `bounds()`."
);
create_exception!(
    libminimax,
    ChanceRootError,
    GameError,
    "MCTS was asked to search from a chance position."
);
create_exception!(
    libminimax,
    BadPriorsError,
    GameError,
    "`priors()` gave a negative, NaN or infinite weight, or a bad sum."
);
create_exception!(
    libminimax,
    ScoreOutsideBoundsError,
    GameError,
    "A score lay outside the bounds the game gave at the root."
);
create_exception!(
    libminimax,
    TooManyMovesError,
    GameError,
    "A game listed more moves than the room it was given (C games)."
);
create_exception!(
    libminimax,
    NegativeMoveCountError,
    GameError,
    "A game gave a negative move count (C games)."
);

create_exception!(
    libminimax,
    BadActionIndexError,
    GameError,
    "Batched MCTS: `action_index()` put a legal move outside the action space, or two on one index."
);
create_exception!(
    libminimax,
    BadEvaluationError,
    GameError,
    "Batched MCTS: the evaluator gave a value outside [-1, 1] or NaN, or bad logits."
);

create_exception!(
    libminimax,
    BadPlayerError,
    GameError,
    "An n-player game gave a player count outside 2 to 8, or a player to move outside it."
);

create_exception!(
    libminimax,
    NoSampleError,
    GameError,
    "A hidden-information search needed the game to draw what the player to move cannot see (sample()), and it could not."
);

create_exception!(
    libminimax,
    BadSampleError,
    GameError,
    "A hidden-information search was given a sample (sample()) that is not of the position: other moves at the root, or over where the position is not."
);

create_exception!(
    libminimax,
    NoPassError,
    GameError,
    "Best-reply search needed the game to pass the turn (null_move()) where it gave no pass."
);

/// Every status a search reports as a `GameError`.
pub const ALL: [Status; 27] = [
    Status::TooManyMoves,
    Status::NegativeMoveCount,
    Status::ScoreOutOfRange,
    Status::NoMovesNotOver,
    Status::BadBounds,
    Status::TooDeep,
    Status::NoOutcomes,
    Status::BadWeight,
    Status::ZeroWeights,
    Status::ChanceNode,
    Status::NeedsBounds,
    Status::WeightSumOverflow,
    Status::BadExploration,
    Status::BadEvalScale,
    Status::ChanceRoot,
    Status::BadPriors,
    Status::ScoreOutsideBounds,
    Status::OutOfMemory,
    Status::BadActionIndex,
    Status::BadEvaluation,
    Status::EvaluatorFailed,
    Status::BadBatchOptions,
    Status::BadPlayer,
    Status::NoPass,
    Status::NoSample,
    Status::BadSample,
    Status::TreeTooSmall,
];

/// The exception for a status, with the library's message.
pub fn from_status(status: Status) -> PyErr {
    let message = status.to_string();
    match status {
        Status::OutOfMemory => PyMemoryError::new_err(message),
        Status::BadExploration
        | Status::BadEvalScale
        | Status::BadBatchOptions
        | Status::TreeTooSmall => PyValueError::new_err(message),
        Status::EvaluatorFailed => PyRuntimeError::new_err(message),
        Status::BadActionIndex => BadActionIndexError::new_err(message),
        Status::BadEvaluation => BadEvaluationError::new_err(message),
        Status::BadPlayer => BadPlayerError::new_err(message),
        Status::NoPass => NoPassError::new_err(message),
        Status::NoSample => NoSampleError::new_err(message),
        Status::BadSample => BadSampleError::new_err(message),
        Status::ScoreOutOfRange => ScoreOutOfRangeError::new_err(message),
        Status::NoMovesNotOver => NoMovesNotOverError::new_err(message),
        Status::BadBounds => BadBoundsError::new_err(message),
        Status::TooDeep => TooDeepError::new_err(message),
        Status::NoOutcomes => NoOutcomesError::new_err(message),
        Status::BadWeight => BadWeightError::new_err(message),
        Status::ZeroWeights => ZeroWeightsError::new_err(message),
        Status::WeightSumOverflow => WeightSumOverflowError::new_err(message),
        Status::ChanceNode => ChanceNodeError::new_err(message),
        Status::NeedsBounds => NeedsBoundsError::new_err(message),
        Status::ChanceRoot => ChanceRootError::new_err(message),
        Status::BadPriors => BadPriorsError::new_err(message),
        Status::ScoreOutsideBounds => ScoreOutsideBoundsError::new_err(message),
        Status::TooManyMoves => TooManyMovesError::new_err(message),
        Status::NegativeMoveCount => NegativeMoveCountError::new_err(message),
    }
}

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GameError", py.get_type::<GameError>())?;
    m.add(
        "ScoreOutOfRangeError",
        py.get_type::<ScoreOutOfRangeError>(),
    )?;
    m.add("NoMovesNotOverError", py.get_type::<NoMovesNotOverError>())?;
    m.add("BadBoundsError", py.get_type::<BadBoundsError>())?;
    m.add("TooDeepError", py.get_type::<TooDeepError>())?;
    m.add("NoOutcomesError", py.get_type::<NoOutcomesError>())?;
    m.add("BadWeightError", py.get_type::<BadWeightError>())?;
    m.add("ZeroWeightsError", py.get_type::<ZeroWeightsError>())?;
    m.add(
        "WeightSumOverflowError",
        py.get_type::<WeightSumOverflowError>(),
    )?;
    m.add("ChanceNodeError", py.get_type::<ChanceNodeError>())?;
    m.add("NeedsBoundsError", py.get_type::<NeedsBoundsError>())?;
    m.add("ChanceRootError", py.get_type::<ChanceRootError>())?;
    m.add("BadPriorsError", py.get_type::<BadPriorsError>())?;
    m.add(
        "ScoreOutsideBoundsError",
        py.get_type::<ScoreOutsideBoundsError>(),
    )?;
    m.add("TooManyMovesError", py.get_type::<TooManyMovesError>())?;
    m.add("BadActionIndexError", py.get_type::<BadActionIndexError>())?;
    m.add("BadEvaluationError", py.get_type::<BadEvaluationError>())?;
    m.add("BadPlayerError", py.get_type::<BadPlayerError>())?;
    m.add("NoPassError", py.get_type::<NoPassError>())?;
    m.add("NoSampleError", py.get_type::<NoSampleError>())?;
    m.add("BadSampleError", py.get_type::<BadSampleError>())?;
    m.add(
        "NegativeMoveCountError",
        py.get_type::<NegativeMoveCountError>(),
    )?;
    Ok(())
}
