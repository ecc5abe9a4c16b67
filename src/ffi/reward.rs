//! How the MCTS families turn a game's final scores into rewards, from C: `mm_mcts_reward`,
//! which `mm_mcts`, `mm_maxn_mcts_search` and `mm_ismcts_search` take.

use crate::ffi::status::mm_status::{self, *};
use crate::search::maxn_mcts::PlayerReward;

/// How final scores become rewards in MCTS: one of the `MM_MCTS_REWARD_*` values.
pub type mm_mcts_reward = u32;
/// The score's sign: a win 1, a draw 0.5, a loss 0 (MCTS-Solver proves wins, draws and
/// losses). A cut-off playout's evaluation `e` gives `1 / (1 + exp(-e / eval_scale))`.
pub const MM_MCTS_REWARD_SIGN: mm_mcts_reward = 0;
/// The score scaled into [0, 1] by the game's `bounds` (needed, else
/// `MM_ERR_NEEDS_BOUNDS`); proofs are then exact scores.
pub const MM_MCTS_REWARD_SCALED: mm_mcts_reward = 1;

/// The n-player reward an `MM_MCTS_REWARD_*` value names (another is
/// `MM_ERR_UNKNOWN_REWARD`): sign is the top scorers' shared win, scaled the scores over
/// the game's bounds.
pub(crate) fn player_reward(reward: mm_mcts_reward) -> Result<PlayerReward, mm_status> {
    match reward {
        MM_MCTS_REWARD_SIGN => Ok(PlayerReward::Win),
        MM_MCTS_REWARD_SCALED => Ok(PlayerReward::Scaled),
        _ => Err(MM_ERR_UNKNOWN_REWARD),
    }
}
