//! Status codes: their values are part of the ABI, so they are explicit and never reused.

use std::ffi::{CStr, c_char, c_int};

use crate::search::GameError;
use crate::tree::text::ParseErrorKind;
use crate::tree::{CsrError, TreeError};

/// The outcome of a call. `MM_OK` is 0; every other value names one error. Values are
/// fixed forever: new codes get new numbers, and a retired number is never given again.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mm_status {
    /// Success.
    MM_OK = 0,
    /// The library hit an internal error (a Rust panic) and stopped it at the boundary.
    MM_ERR_PANIC = 1,
    /// A required pointer argument was NULL.
    MM_ERR_NULL_ARGUMENT = 2,
    /// The tree height (`h` or `height`) was negative.
    MM_ERR_NEGATIVE_HEIGHT = 3,
    /// The tree height was above `MM_MAX_HEIGHT`, so `2^height` would not fit in an `int`.
    MM_ERR_HEIGHT_TOO_LARGE = 4,
    /// `depth` was negative.
    MM_ERR_NEGATIVE_DEPTH = 5,
    /// `depth` was greater than the tree height.
    MM_ERR_DEPTH_BEYOND_HEIGHT = 6,
    /// `nodeIndex` was outside `[0, 2^depth)`.
    MM_ERR_NODE_OUT_OF_RANGE = 7,
    /// The leaf count was zero.
    MM_ERR_NO_LEAVES = 8,
    /// The branching factor was 0 or 1; it must be at least 2.
    MM_ERR_BRANCHING_TOO_SMALL = 9,
    /// The leaf count was not `branching^h` for any `h >= 0`.
    MM_ERR_LEAF_COUNT_NOT_A_POWER = 10,
    /// The leaf count was larger than any array in memory can be.
    MM_ERR_TOO_MANY_LEAVES = 11,
    /// The algorithm was not one of the `MM_ALGORITHM_*` values (the tree functions), or
    /// the search method not one of the `MM_SEARCH_*` values (`mm_search`).
    MM_ERR_UNKNOWN_ALGORITHM = 12,
    /// The tree text has a `)` without its `(`, or a `(` never closed.
    MM_ERR_PARSE_UNBALANCED = 13,
    /// The tree text has `()`: an inner node needs at least one child.
    MM_ERR_PARSE_EMPTY_LIST = 14,
    /// The tree text has a token that is neither an integer nor a label.
    MM_ERR_PARSE_BAD_TOKEN = 15,
    /// The tree text has an integer outside `int32_t`.
    MM_ERR_PARSE_INTEGER_RANGE = 16,
    /// The tree text uses a label twice.
    MM_ERR_PARSE_DUPLICATE_LABEL = 17,
    /// The tree text goes on after the root's end.
    MM_ERR_PARSE_TRAILING_TEXT = 18,
    /// The tree text has no node where one must be (empty text, or a label with nothing after it).
    MM_ERR_PARSE_MISSING_NODE = 19,
    /// CSR offsets are not `node_count + 1` values rising from 0 to the child count.
    MM_ERR_CSR_BAD_OFFSETS = 20,
    /// A CSR child index is not a node.
    MM_ERR_CSR_CHILD_OUT_OF_RANGE = 21,
    /// The CSR arrays do not form one tree rooted at node 0.
    MM_ERR_CSR_NOT_A_TREE = 22,
    /// The caller's buffer is too small; the size needed was reported.
    MM_ERR_BUFFER_TOO_SMALL = 23,
    /// The node index is not a node of the tree.
    MM_ERR_NO_SUCH_NODE = 24,
    /// The game's move callback returned more moves than the capacity it was given.
    MM_ERR_GAME_TOO_MANY_MOVES = 25,
    /// The game's move callback returned a negative count.
    MM_ERR_GAME_NEGATIVE_MOVE_COUNT = 26,
    /// The game scored or evaluated a position as `INT_MIN` or `INT_MAX`.
    MM_ERR_GAME_SCORE_OUT_OF_RANGE = 27,
    /// A position had no legal moves but the game did not say it was over.
    MM_ERR_GAME_NO_MOVES = 28,
    /// The game's bounds callback gave a lower bound above the upper bound, or INT_MIN or
    /// INT_MAX.
    MM_ERR_GAME_BAD_BOUNDS = 29,
    /// The game has a line longer than `MM_MAX_PLIES` (2^20) plies, which the search would
    /// have to follow.
    MM_ERR_GAME_TOO_DEEP = 30,
    /// The search options are not valid: `max_moves` is 0. (A `struct_size` this library
    /// does not know is `MM_ERR_BAD_STRUCT_SIZE`, too many threads
    /// `MM_ERR_TOO_MANY_THREADS`.)
    MM_ERR_BAD_OPTIONS = 31,
    /// Memory for a transposition table or a move buffer could not be allocated.
    MM_ERR_OUT_OF_MEMORY = 32,
    /// A struct's `struct_size` was not a size this library knows: 0, below the oldest
    /// version's, between two versions' sizes, or larger than this version's with
    /// non-zero bytes in the part it does not know (fields it would have to ignore).
    MM_ERR_BAD_STRUCT_SIZE = 33,
    /// The table given in the options is in use by another search (on another thread, or
    /// the search whose callback is calling): a table serves one search at a time.
    MM_ERR_TABLE_BUSY = 34,
    /// A chance node of the game listed no outcomes.
    MM_ERR_GAME_NO_OUTCOMES = 35,
    /// A chance node of the game gave a weight that is negative, NaN or infinite.
    MM_ERR_GAME_BAD_WEIGHT = 36,
    /// A chance node of the game gave weights that sum to zero.
    MM_ERR_GAME_ZERO_WEIGHTS = 37,
    /// A deterministic method (`MM_SEARCH_MINIMAX` to `MM_SEARCH_EXACT`, or a tree's
    /// `MM_ALGORITHM_MINIMAX` to `FASTEST`) met a chance node: search games and trees with
    /// chance nodes by expectimax, Star1 or Star2.
    MM_ERR_GAME_CHANCE_NODE = 38,
    /// Star1 and Star2 need score bounds (the game's `bounds` callback, or a tree's
    /// leaves), and there were none.
    MM_ERR_NEEDS_BOUNDS = 39,
    /// A tree's chance node has a weight that is negative, NaN or infinite, or weights
    /// that sum to zero.
    MM_ERR_BAD_WEIGHT = 40,
    /// The tree text has a bad weight: a chance node's child without one (`w: node`), a
    /// weight that is not a finite non-negative number, weights that sum to zero, or a
    /// weight outside a chance node's list.
    MM_ERR_PARSE_BAD_WEIGHT = 41,
    /// A chance algorithm (`MM_ALGORITHM_EXPECTIMAX`, `STAR1`, `STAR2`) was given to a
    /// function that returns an integer value: expected values come from
    /// `mm_expectimax_leaves` and `mm_tree_expectimax`.
    MM_ERR_CHANCE_ALGORITHM = 42,
    /// `mm_table_new` was asked for fewer than 64 bytes, less than one bucket of entries.
    MM_ERR_TABLE_TOO_SMALL = 43,
    /// `mm_search_options.threads` was above `MM_MAX_THREADS`.
    MM_ERR_TOO_MANY_THREADS = 44,
    /// The game sets `copy_context` but not `free_context`: a copy made for another
    /// thread could never be freed.
    MM_ERR_COPY_WITHOUT_FREE = 45,
    /// The game sets `is_chance` but not `outcomes`: a chance node's draws could not be
    /// listed.
    MM_ERR_CHANCE_WITHOUT_OUTCOMES = 46,
    /// A chance node of the game gave weights that are each finite but whose sum
    /// overflows a double.
    MM_ERR_GAME_WEIGHT_SUM_OVERFLOW = 47,
    /// The game's `score_view` is not one of the `MM_SCORES_*` values.
    MM_ERR_UNKNOWN_SCORE_VIEW = 48,
    /// The MCTS search object is in use by another search (on another thread, or in a
    /// callback of its own search).
    MM_ERR_MCTS_BUSY = 49,
    /// The MCTS options' `reward` is not one of the `MM_MCTS_REWARD_*` values.
    MM_ERR_UNKNOWN_REWARD = 50,
    /// The MCTS options' `exploration` is negative, NaN or infinite.
    MM_ERR_BAD_EXPLORATION = 51,
    /// The MCTS options' `eval_scale` is not a positive finite number.
    MM_ERR_BAD_EVAL_SCALE = 52,
    /// MCTS was asked to search from a chance node: it searches from a position where a
    /// player moves (the chance methods take chance roots).
    MM_ERR_CHANCE_ROOT = 53,
    /// The game's `priors` gave a weight that is negative, NaN or infinite, or weights
    /// that sum to zero or overflow.
    MM_ERR_GAME_BAD_PRIORS = 54,
    /// The game gave a final score (or, to Star1 and Star2, an evaluation) outside the
    /// bounds its `bounds` callback gave at the root.
    MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS = 55,
    /// Batched MCTS: the game's `action_index` put a legal move outside its action space,
    /// or two legal moves on one index.
    MM_ERR_GAME_BAD_ACTION_INDEX = 56,
    /// Batched MCTS: the evaluator gave a value that is NaN or outside [-1, 1], or a NaN
    /// or +infinite logit for a legal move, or -infinite logits for all of them.
    MM_ERR_BAD_EVALUATION = 57,
    /// Batched MCTS: the evaluator returned a failure.
    MM_ERR_EVALUATOR_FAILED = 58,
    /// Batched MCTS: an option out of its range (a count of 0, a bad noise or Gumbel
    /// setting, a game count that is not the forest's).
    MM_ERR_BAD_BATCH_OPTIONS = 59,
    /// An n-player game gave a player count outside 2 to 8, or a player to move outside
    /// its players.
    MM_ERR_GAME_BAD_PLAYER = 60,
    /// A game of more than two players (`players` in `mm_game`) given to a two-player
    /// search: use `mm_maxn_search` or `mm_paranoid_search`.
    MM_ERR_NOT_TWO_PLAYERS = 61,
    /// Best-reply search needed the game to pass the turn (`null_move`) where it gave no
    /// pass.
    MM_ERR_GAME_NO_PASS = 62,
    /// A hidden-information search needed the game to draw what the player to move
    /// cannot see (`sample`), and it could not.
    MM_ERR_GAME_NO_SAMPLE = 63,
    /// The game sets `sample` without `free_context`, which frees the samples it makes.
    MM_ERR_SAMPLE_WITHOUT_FREE = 64,
    /// A ProbCut pair that cannot be used: depths not `1 <= shallow < deep <= 63`, a
    /// slope not finite and above 0, or an offset or spread not finite (the spread at
    /// least 0).
    MM_ERR_PROBCUT_BAD_PAIR = 65,
    /// A ProbCut fit already holds its most pairs (96).
    MM_ERR_PROBCUT_TOO_MANY_PAIRS = 66,
    /// A ProbCut fit already has a pair for the same stage and two depths.
    MM_ERR_PROBCUT_DUPLICATE_PAIR = 67,
    /// A ProbCut confidence `t` that is not finite and at least 0.
    MM_ERR_PROBCUT_BAD_CONFIDENCE = 68,
    /// The text given to `mm_probcut_parse` is not a fit as `mm_probcut_print` writes one.
    MM_ERR_PARSE_PROBCUT = 69,
    /// A hidden-information search was given a sample (by the game's `sample`) that is
    /// not of the position: other legal moves at the root, or over where the position is
    /// not.
    MM_ERR_GAME_BAD_SAMPLE = 70,
    /// Batched MCTS: `max_nodes` cannot hold a root and its children (it needs at least
    /// 1 + the root's moves).
    MM_ERR_BATCH_TREE_TOO_SMALL = 71,
    /// The `onnx` feature: the model's file could not be read.
    MM_ERR_ONNX_IO = 72,
    /// The `onnx` feature: the bytes are not an ONNX model that the library can run.
    MM_ERR_ONNX_NOT_A_MODEL = 73,
    /// The `onnx` feature: the model's input is not one float tensor
    /// `[batch, observation_size]`.
    MM_ERR_ONNX_BAD_INPUT = 74,
    /// The `onnx` feature: the model's outputs are not `value` `[batch]` (or
    /// `[batch, 1]`) and `logits` `[batch, action_count]`.
    MM_ERR_ONNX_BAD_OUTPUT = 75,
    /// The `onnx` feature: the model's sizes are not the encoding's.
    MM_ERR_ONNX_WRONG_GAME = 76,
}

use mm_status::*;

/// Every status, in value order (the tests check that values are distinct).
const ALL: [mm_status; 77] = [
    MM_OK,
    MM_ERR_PANIC,
    MM_ERR_NULL_ARGUMENT,
    MM_ERR_NEGATIVE_HEIGHT,
    MM_ERR_HEIGHT_TOO_LARGE,
    MM_ERR_NEGATIVE_DEPTH,
    MM_ERR_DEPTH_BEYOND_HEIGHT,
    MM_ERR_NODE_OUT_OF_RANGE,
    MM_ERR_NO_LEAVES,
    MM_ERR_BRANCHING_TOO_SMALL,
    MM_ERR_LEAF_COUNT_NOT_A_POWER,
    MM_ERR_TOO_MANY_LEAVES,
    MM_ERR_UNKNOWN_ALGORITHM,
    MM_ERR_PARSE_UNBALANCED,
    MM_ERR_PARSE_EMPTY_LIST,
    MM_ERR_PARSE_BAD_TOKEN,
    MM_ERR_PARSE_INTEGER_RANGE,
    MM_ERR_PARSE_DUPLICATE_LABEL,
    MM_ERR_PARSE_TRAILING_TEXT,
    MM_ERR_PARSE_MISSING_NODE,
    MM_ERR_CSR_BAD_OFFSETS,
    MM_ERR_CSR_CHILD_OUT_OF_RANGE,
    MM_ERR_CSR_NOT_A_TREE,
    MM_ERR_BUFFER_TOO_SMALL,
    MM_ERR_NO_SUCH_NODE,
    MM_ERR_GAME_TOO_MANY_MOVES,
    MM_ERR_GAME_NEGATIVE_MOVE_COUNT,
    MM_ERR_GAME_SCORE_OUT_OF_RANGE,
    MM_ERR_GAME_NO_MOVES,
    MM_ERR_GAME_BAD_BOUNDS,
    MM_ERR_GAME_TOO_DEEP,
    MM_ERR_BAD_OPTIONS,
    MM_ERR_OUT_OF_MEMORY,
    MM_ERR_BAD_STRUCT_SIZE,
    MM_ERR_TABLE_BUSY,
    MM_ERR_GAME_NO_OUTCOMES,
    MM_ERR_GAME_BAD_WEIGHT,
    MM_ERR_GAME_ZERO_WEIGHTS,
    MM_ERR_GAME_CHANCE_NODE,
    MM_ERR_NEEDS_BOUNDS,
    MM_ERR_BAD_WEIGHT,
    MM_ERR_PARSE_BAD_WEIGHT,
    MM_ERR_CHANCE_ALGORITHM,
    MM_ERR_TABLE_TOO_SMALL,
    MM_ERR_TOO_MANY_THREADS,
    MM_ERR_COPY_WITHOUT_FREE,
    MM_ERR_CHANCE_WITHOUT_OUTCOMES,
    MM_ERR_GAME_WEIGHT_SUM_OVERFLOW,
    MM_ERR_UNKNOWN_SCORE_VIEW,
    MM_ERR_MCTS_BUSY,
    MM_ERR_UNKNOWN_REWARD,
    MM_ERR_BAD_EXPLORATION,
    MM_ERR_BAD_EVAL_SCALE,
    MM_ERR_CHANCE_ROOT,
    MM_ERR_GAME_BAD_PRIORS,
    MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS,
    MM_ERR_GAME_BAD_ACTION_INDEX,
    MM_ERR_BAD_EVALUATION,
    MM_ERR_EVALUATOR_FAILED,
    MM_ERR_BAD_BATCH_OPTIONS,
    MM_ERR_GAME_BAD_PLAYER,
    MM_ERR_NOT_TWO_PLAYERS,
    MM_ERR_GAME_NO_PASS,
    MM_ERR_GAME_NO_SAMPLE,
    MM_ERR_SAMPLE_WITHOUT_FREE,
    MM_ERR_PROBCUT_BAD_PAIR,
    MM_ERR_PROBCUT_TOO_MANY_PAIRS,
    MM_ERR_PROBCUT_DUPLICATE_PAIR,
    MM_ERR_PROBCUT_BAD_CONFIDENCE,
    MM_ERR_PARSE_PROBCUT,
    MM_ERR_GAME_BAD_SAMPLE,
    MM_ERR_BATCH_TREE_TOO_SMALL,
    MM_ERR_ONNX_IO,
    MM_ERR_ONNX_NOT_A_MODEL,
    MM_ERR_ONNX_BAD_INPUT,
    MM_ERR_ONNX_BAD_OUTPUT,
    MM_ERR_ONNX_WRONG_GAME,
];

impl mm_status {
    /// The fixed message for this status.
    pub fn message(self) -> &'static CStr {
        match self {
            MM_OK => c"success",
            MM_ERR_PANIC => c"internal error: the library stopped a panic at the C boundary",
            MM_ERR_NULL_ARGUMENT => c"a required pointer argument is NULL",
            MM_ERR_NEGATIVE_HEIGHT => c"the tree height is negative",
            MM_ERR_HEIGHT_TOO_LARGE => c"the tree height is above MM_MAX_HEIGHT (30)",
            MM_ERR_NEGATIVE_DEPTH => c"the depth is negative",
            MM_ERR_DEPTH_BEYOND_HEIGHT => c"the depth is greater than the tree height",
            MM_ERR_NODE_OUT_OF_RANGE => c"the node index is outside [0, 2^depth)",
            MM_ERR_NO_LEAVES => c"the leaf count is zero",
            MM_ERR_BRANCHING_TOO_SMALL => c"the branching factor must be at least 2",
            MM_ERR_LEAF_COUNT_NOT_A_POWER => {
                c"the leaf count is not a power of the branching factor"
            }
            MM_ERR_TOO_MANY_LEAVES => c"the leaf count is larger than any array can be",
            MM_ERR_UNKNOWN_ALGORITHM => {
                c"the algorithm is not an MM_ALGORITHM_* value (trees) or an MM_SEARCH_* method (mm_search)"
            },
            MM_ERR_PARSE_UNBALANCED => c"the tree text has unbalanced parentheses",
            MM_ERR_PARSE_EMPTY_LIST => c"the tree text has an empty list '()'",
            MM_ERR_PARSE_BAD_TOKEN => {
                c"the tree text has a token that is not an integer or a label"
            }
            MM_ERR_PARSE_INTEGER_RANGE => c"the tree text has an integer outside int32_t",
            MM_ERR_PARSE_DUPLICATE_LABEL => c"the tree text uses a label twice",
            MM_ERR_PARSE_TRAILING_TEXT => c"the tree text goes on after the end of the tree",
            MM_ERR_PARSE_MISSING_NODE => c"the tree text is missing a node",
            MM_ERR_CSR_BAD_OFFSETS => {
                c"the CSR offsets are not node_count + 1 values rising from 0 to the child count"
            }
            MM_ERR_CSR_CHILD_OUT_OF_RANGE => c"a CSR child index is not a node",
            MM_ERR_CSR_NOT_A_TREE => c"the CSR arrays do not form one tree rooted at node 0",
            MM_ERR_BUFFER_TOO_SMALL => c"the buffer is too small",
            MM_ERR_NO_SUCH_NODE => c"the node index is not a node of the tree",
            MM_ERR_GAME_TOO_MANY_MOVES => {
                c"the game listed more moves than the capacity it was given"
            }
            MM_ERR_GAME_NEGATIVE_MOVE_COUNT => c"the game returned a negative move count",
            MM_ERR_GAME_SCORE_OUT_OF_RANGE => c"the game gave a score of INT_MIN or INT_MAX",
            MM_ERR_GAME_NO_MOVES => c"a position has no moves but the game does not say it is over",
            MM_ERR_GAME_BAD_BOUNDS => {
                c"the game's score bounds have the lower above the upper, or INT_MIN or INT_MAX"
            }
            MM_ERR_GAME_TOO_DEEP => c"the game has a line longer than MM_MAX_PLIES plies",
            MM_ERR_BAD_OPTIONS => c"the search options' max_moves is 0; a search needs room for a move",
            MM_ERR_OUT_OF_MEMORY => c"the memory asked for could not be allocated",
            MM_ERR_BAD_STRUCT_SIZE => c"struct_size is not a size of the struct this library knows",
            MM_ERR_TABLE_BUSY => c"the table is in use by another search",
            MM_ERR_GAME_NO_OUTCOMES => c"a chance node of the game listed no outcomes",
            MM_ERR_GAME_BAD_WEIGHT => {
                c"a chance node of the game gave a negative, NaN or infinite weight"
            }
            MM_ERR_TABLE_TOO_SMALL => c"mm_table_new needs at least 64 bytes (one bucket)",
            MM_ERR_TOO_MANY_THREADS => c"threads is above MM_MAX_THREADS (256)",
            MM_ERR_COPY_WITHOUT_FREE => c"the game sets copy_context without free_context",
            MM_ERR_CHANCE_WITHOUT_OUTCOMES => c"the game sets is_chance without outcomes",
            MM_ERR_GAME_WEIGHT_SUM_OVERFLOW => {
                c"a chance node of the game gave finite weights whose sum overflows"
            }
            MM_ERR_UNKNOWN_SCORE_VIEW => c"the game's score_view is not an MM_SCORES_* value",
            MM_ERR_MCTS_BUSY => c"the MCTS search object is in use by another search",
            MM_ERR_UNKNOWN_REWARD => c"the MCTS reward is not an MM_MCTS_REWARD_* value",
            MM_ERR_BAD_EXPLORATION => {
                c"the MCTS options' exploration is negative, NaN or infinite; it must be finite and at least 0"
            }
            MM_ERR_BAD_EVAL_SCALE => {
                c"the MCTS options' eval_scale is not positive and finite"
            }
            MM_ERR_CHANCE_ROOT => {
                c"MCTS was asked to search from a chance node; search from a position where a player moves"
            }
            MM_ERR_GAME_BAD_PRIORS => {
                c"the game's priors for MCTS have a negative, NaN or infinite weight, or sum to zero or overflow"
            }
            MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS => {
                c"the game gave a score outside the bounds its bounds callback gave at the root"
            }
            MM_ERR_GAME_BAD_ACTION_INDEX => {
                c"the game's action_index put a legal move outside its action space, or two on one index"
            }
            MM_ERR_BAD_EVALUATION => {
                c"the evaluator gave a value outside [-1, 1] or NaN, or NaN, +infinite or all -infinite logits for the legal moves"
            }
            MM_ERR_EVALUATOR_FAILED => c"the evaluator returned a failure",
            MM_ERR_BAD_BATCH_OPTIONS => {
                c"a batched MCTS option is out of range: a count of 0, Gumbel's considered below 2, a bad noise or Gumbel setting, or a game count that is not the forest's"
            }
            MM_ERR_GAME_BAD_PLAYER => {
                c"the game gave a player count outside 2 to 8, or a player to move outside its players"
            }
            MM_ERR_NOT_TWO_PLAYERS => {
                c"a game of more than two players was given to a two-player search: use mm_maxn_search or mm_paranoid_search"
            }
            MM_ERR_GAME_NO_PASS => {
                c"best-reply search needs the game to pass the turn (null_move), and it gave no pass"
            }
            MM_ERR_PROBCUT_BAD_PAIR => {
                c"the ProbCut pair needs 1 <= shallow < deep <= 63, a finite slope above 0, a finite offset and a finite sigma of at least 0"
            }
            MM_ERR_PROBCUT_TOO_MANY_PAIRS => c"the ProbCut fit already holds its most pairs (96)",
            MM_ERR_PROBCUT_DUPLICATE_PAIR => {
                c"the ProbCut fit already has a pair for that stage and those two depths"
            }
            MM_ERR_PROBCUT_BAD_CONFIDENCE => {
                c"the ProbCut confidence t is not a finite number at least 0"
            }
            MM_ERR_PARSE_PROBCUT => {
                c"the text is not a ProbCut fit as mm_probcut_print writes one"
            }
            MM_ERR_GAME_BAD_SAMPLE => {
                c"the game's sample is not of the position: its moves at the root differ, or it is over where the position is not"
            }
            MM_ERR_BATCH_TREE_TOO_SMALL => {
                c"batched MCTS's max_nodes cannot hold a root and its children (it needs at least 1 + the root's moves)"
            }
            MM_ERR_ONNX_IO => c"the ONNX model's file could not be read",
            MM_ERR_ONNX_NOT_A_MODEL => {
                c"the bytes are not an ONNX model the library can run (tract could not read or prepare it)"
            }
            MM_ERR_ONNX_BAD_INPUT => {
                c"the ONNX model's input is not one float tensor [batch, observation_size]"
            }
            MM_ERR_ONNX_BAD_OUTPUT => {
                c"the ONNX model's outputs are not value [batch] or [batch, 1] and logits [batch, action_count]"
            }
            MM_ERR_ONNX_WRONG_GAME => {
                c"the ONNX model's observation size or logits a position are not the encoding's"
            }
            MM_ERR_SAMPLE_WITHOUT_FREE => {
                c"the game sets sample without free_context, which frees the samples it makes"
            }
            MM_ERR_GAME_NO_SAMPLE => {
                c"a hidden-information search needs the game to draw what the player to move cannot see (sample), and it could not"
            }
            MM_ERR_GAME_ZERO_WEIGHTS => c"a chance node of the game gave weights summing to zero",
            MM_ERR_GAME_CHANCE_NODE => {
                c"a deterministic method met a chance node; use expectimax, Star1 or Star2"
            }
            MM_ERR_NEEDS_BOUNDS => {
                c"Star1, Star2 and MCTS with scaled rewards need the game's score bounds, and it gave none"
            }
            MM_ERR_BAD_WEIGHT => {
                c"a chance node's weight is negative, NaN or infinite, or its weights sum to zero"
            }
            MM_ERR_PARSE_BAD_WEIGHT => c"the tree text has a missing or bad weight",
            MM_ERR_CHANCE_ALGORITHM => {
                c"a chance algorithm gives an expected value: use mm_expectimax_leaves or mm_tree_expectimax"
            }
        }
    }
}

impl From<TreeError> for mm_status {
    fn from(e: TreeError) -> Self {
        match e {
            TreeError::NoLeaves => MM_ERR_NO_LEAVES,
            TreeError::BranchingTooSmall => MM_ERR_BRANCHING_TOO_SMALL,
            TreeError::LeafCountNotAPower => MM_ERR_LEAF_COUNT_NOT_A_POWER,
            TreeError::DepthBeyondHeight => MM_ERR_DEPTH_BEYOND_HEIGHT,
            TreeError::NodeOutOfRange => MM_ERR_NODE_OUT_OF_RANGE,
            TreeError::OutOfMemory => MM_ERR_OUT_OF_MEMORY,
        }
    }
}

impl From<CsrError> for mm_status {
    fn from(e: CsrError) -> Self {
        match e {
            CsrError::NoNodes => MM_ERR_NO_LEAVES,
            CsrError::BadOffsets => MM_ERR_CSR_BAD_OFFSETS,
            CsrError::ChildOutOfRange => MM_ERR_CSR_CHILD_OUT_OF_RANGE,
            CsrError::NotATree => MM_ERR_CSR_NOT_A_TREE,
            CsrError::BadWeight => MM_ERR_BAD_WEIGHT,
            CsrError::OutOfMemory => MM_ERR_OUT_OF_MEMORY,
        }
    }
}

impl From<GameError> for mm_status {
    fn from(e: GameError) -> Self {
        match e {
            GameError::TooManyMoves => MM_ERR_GAME_TOO_MANY_MOVES,
            GameError::NegativeMoveCount => MM_ERR_GAME_NEGATIVE_MOVE_COUNT,
            GameError::ScoreOutOfRange => MM_ERR_GAME_SCORE_OUT_OF_RANGE,
            GameError::NoMovesNotOver => MM_ERR_GAME_NO_MOVES,
            GameError::BadBounds => MM_ERR_GAME_BAD_BOUNDS,
            GameError::TooDeep => MM_ERR_GAME_TOO_DEEP,
            GameError::NoOutcomes => MM_ERR_GAME_NO_OUTCOMES,
            GameError::BadWeight => MM_ERR_GAME_BAD_WEIGHT,
            GameError::ZeroWeights => MM_ERR_GAME_ZERO_WEIGHTS,
            GameError::ChanceNode => MM_ERR_GAME_CHANCE_NODE,
            GameError::NeedsBounds => MM_ERR_NEEDS_BOUNDS,
            GameError::WeightSumOverflow => MM_ERR_GAME_WEIGHT_SUM_OVERFLOW,
            GameError::BadExploration => MM_ERR_BAD_EXPLORATION,
            GameError::BadEvalScale => MM_ERR_BAD_EVAL_SCALE,
            GameError::ChanceRoot => MM_ERR_CHANCE_ROOT,
            GameError::BadPriors => MM_ERR_GAME_BAD_PRIORS,
            GameError::ScoreOutsideBounds => MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS,
            GameError::BadActionIndex => MM_ERR_GAME_BAD_ACTION_INDEX,
            GameError::BadEvaluation => MM_ERR_BAD_EVALUATION,
            GameError::EvaluatorFailed => MM_ERR_EVALUATOR_FAILED,
            GameError::BadBatchOptions => MM_ERR_BAD_BATCH_OPTIONS,
            GameError::BadPlayer => MM_ERR_GAME_BAD_PLAYER,
            GameError::NoPass => MM_ERR_GAME_NO_PASS,
            GameError::NoSample => MM_ERR_GAME_NO_SAMPLE,
            GameError::BadSample => MM_ERR_GAME_BAD_SAMPLE,
            GameError::TreeTooSmall => MM_ERR_BATCH_TREE_TOO_SMALL,
            GameError::OutOfMemory => MM_ERR_OUT_OF_MEMORY,
        }
    }
}

impl From<ParseErrorKind> for mm_status {
    fn from(e: ParseErrorKind) -> Self {
        match e {
            ParseErrorKind::Unbalanced => MM_ERR_PARSE_UNBALANCED,
            ParseErrorKind::EmptyList => MM_ERR_PARSE_EMPTY_LIST,
            ParseErrorKind::BadToken => MM_ERR_PARSE_BAD_TOKEN,
            ParseErrorKind::IntegerOutOfRange => MM_ERR_PARSE_INTEGER_RANGE,
            ParseErrorKind::DuplicateLabel => MM_ERR_PARSE_DUPLICATE_LABEL,
            ParseErrorKind::TrailingText => MM_ERR_PARSE_TRAILING_TEXT,
            ParseErrorKind::MissingNode => MM_ERR_PARSE_MISSING_NODE,
            ParseErrorKind::BadWeight => MM_ERR_PARSE_BAD_WEIGHT,
        }
    }
}

/// A static, NUL-terminated message for a status code; never NULL. A code that is not a
/// status gets "unknown status code". The string must not be freed.
#[unsafe(no_mangle)]
pub extern "C" fn mm_error_message(code: c_int) -> *const c_char {
    ALL.iter()
        .find(|s| **s as c_int == code)
        .map_or(c"unknown status code", |s| s.message())
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_pinned() {
        // These numbers are the ABI: this list may grow, but no line may change.
        let pinned = [
            (MM_OK, 0),
            (MM_ERR_PANIC, 1),
            (MM_ERR_NULL_ARGUMENT, 2),
            (MM_ERR_NEGATIVE_HEIGHT, 3),
            (MM_ERR_HEIGHT_TOO_LARGE, 4),
            (MM_ERR_NEGATIVE_DEPTH, 5),
            (MM_ERR_DEPTH_BEYOND_HEIGHT, 6),
            (MM_ERR_NODE_OUT_OF_RANGE, 7),
            (MM_ERR_NO_LEAVES, 8),
            (MM_ERR_BRANCHING_TOO_SMALL, 9),
            (MM_ERR_LEAF_COUNT_NOT_A_POWER, 10),
            (MM_ERR_TOO_MANY_LEAVES, 11),
            (MM_ERR_UNKNOWN_ALGORITHM, 12),
            (MM_ERR_PARSE_UNBALANCED, 13),
            (MM_ERR_PARSE_EMPTY_LIST, 14),
            (MM_ERR_PARSE_BAD_TOKEN, 15),
            (MM_ERR_PARSE_INTEGER_RANGE, 16),
            (MM_ERR_PARSE_DUPLICATE_LABEL, 17),
            (MM_ERR_PARSE_TRAILING_TEXT, 18),
            (MM_ERR_PARSE_MISSING_NODE, 19),
            (MM_ERR_CSR_BAD_OFFSETS, 20),
            (MM_ERR_CSR_CHILD_OUT_OF_RANGE, 21),
            (MM_ERR_CSR_NOT_A_TREE, 22),
            (MM_ERR_BUFFER_TOO_SMALL, 23),
            (MM_ERR_NO_SUCH_NODE, 24),
            (MM_ERR_GAME_TOO_MANY_MOVES, 25),
            (MM_ERR_GAME_NEGATIVE_MOVE_COUNT, 26),
            (MM_ERR_GAME_SCORE_OUT_OF_RANGE, 27),
            (MM_ERR_GAME_NO_MOVES, 28),
            (MM_ERR_GAME_BAD_BOUNDS, 29),
            (MM_ERR_GAME_TOO_DEEP, 30),
            (MM_ERR_BAD_OPTIONS, 31),
            (MM_ERR_OUT_OF_MEMORY, 32),
            (MM_ERR_BAD_STRUCT_SIZE, 33),
            (MM_ERR_TABLE_BUSY, 34),
            (MM_ERR_GAME_NO_OUTCOMES, 35),
            (MM_ERR_GAME_BAD_WEIGHT, 36),
            (MM_ERR_GAME_ZERO_WEIGHTS, 37),
            (MM_ERR_GAME_CHANCE_NODE, 38),
            (MM_ERR_NEEDS_BOUNDS, 39),
            (MM_ERR_BAD_WEIGHT, 40),
            (MM_ERR_PARSE_BAD_WEIGHT, 41),
            (MM_ERR_CHANCE_ALGORITHM, 42),
            (MM_ERR_TABLE_TOO_SMALL, 43),
            (MM_ERR_TOO_MANY_THREADS, 44),
            (MM_ERR_COPY_WITHOUT_FREE, 45),
            (MM_ERR_CHANCE_WITHOUT_OUTCOMES, 46),
            (MM_ERR_GAME_WEIGHT_SUM_OVERFLOW, 47),
            (MM_ERR_UNKNOWN_SCORE_VIEW, 48),
            (MM_ERR_MCTS_BUSY, 49),
            (MM_ERR_UNKNOWN_REWARD, 50),
            (MM_ERR_BAD_EXPLORATION, 51),
            (MM_ERR_BAD_EVAL_SCALE, 52),
            (MM_ERR_CHANCE_ROOT, 53),
            (MM_ERR_GAME_BAD_PRIORS, 54),
            (MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS, 55),
            (MM_ERR_GAME_BAD_ACTION_INDEX, 56),
            (MM_ERR_BAD_EVALUATION, 57),
            (MM_ERR_EVALUATOR_FAILED, 58),
            (MM_ERR_BAD_BATCH_OPTIONS, 59),
            (MM_ERR_GAME_BAD_PLAYER, 60),
            (MM_ERR_NOT_TWO_PLAYERS, 61),
            (MM_ERR_GAME_NO_PASS, 62),
            (MM_ERR_GAME_NO_SAMPLE, 63),
            (MM_ERR_SAMPLE_WITHOUT_FREE, 64),
            (MM_ERR_PROBCUT_BAD_PAIR, 65),
            (MM_ERR_PROBCUT_TOO_MANY_PAIRS, 66),
            (MM_ERR_PROBCUT_DUPLICATE_PAIR, 67),
            (MM_ERR_PROBCUT_BAD_CONFIDENCE, 68),
            (MM_ERR_PARSE_PROBCUT, 69),
            (MM_ERR_GAME_BAD_SAMPLE, 70),
            (MM_ERR_BATCH_TREE_TOO_SMALL, 71),
            (MM_ERR_ONNX_IO, 72),
            (MM_ERR_ONNX_NOT_A_MODEL, 73),
            (MM_ERR_ONNX_BAD_INPUT, 74),
            (MM_ERR_ONNX_BAD_OUTPUT, 75),
            (MM_ERR_ONNX_WRONG_GAME, 76),
        ];
        assert_eq!(pinned.len(), ALL.len());
        for (status, value) in pinned {
            assert_eq!(status as c_int, value, "{status:?}");
        }
    }

    #[test]
    fn every_status_has_its_own_message() {
        let mut seen = std::collections::HashSet::new();
        for s in ALL {
            // SAFETY: mm_error_message always returns a pointer into a static C string.
            let msg = unsafe { CStr::from_ptr(mm_error_message(s as c_int)) };
            assert_eq!(msg, s.message());
            assert!(seen.insert(msg.to_owned()), "{s:?} repeats a message");
        }
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(mm_error_message(-1)) };
        assert_eq!(unknown, c"unknown status code");
    }
}
