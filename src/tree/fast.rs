//! The fast exact search over a complete binary tree's leaf array.
//!
//! Pruning never changes the minimax value, so this is alpha-beta, but over blocks: a
//! subtree of `2^BLOCK_HEIGHT` contiguous leaves is valued whole by a branch-free level
//! reduction that the compiler vectorizes, and alpha-beta runs over the tree of blocks
//! above it. Where nothing can be pruned it degrades to a streaming pass over the array.
//! Extra memory is one block buffer and one frame per level: `O(height)`.

use super::solve::{Solution, Stats};
use super::traversal::alphabeta_over;

/// Subtrees of `2^BLOCK_HEIGHT` leaves are valued whole.
pub const BLOCK_HEIGHT: u32 = 8;
const BLOCK: usize = 1 << BLOCK_HEIGHT;

/// Fail-soft alpha-beta over the `2^height` `leaves` with MAX to move at the root if
/// `is_max`. For `alpha < beta` it returns the exact value when that lies inside
/// `(alpha, beta)`, and otherwise a bound on the same side of the window as the value (a
/// result `<= alpha` is at least the value, one `>= beta` at most). The full window
/// `(i32::MIN, i32::MAX)` gives the exact minimax value. `stats` gains what was done.
pub fn search(
    leaves: &[i32],
    height: u32,
    is_max: bool,
    alpha: i32,
    beta: i32,
    stats: &mut Stats,
) -> i32 {
    debug_assert_eq!(leaves.len(), 1usize << height);
    if height <= BLOCK_HEIGHT {
        stats.nodes += 2 * leaves.len() as u64 - 1;
        stats.leaves += leaves.len() as u64;
        return block_value(leaves, is_max);
    }
    let mut blocks = 0u64;
    let value = alphabeta_over(
        height - BLOCK_HEIGHT,
        is_max,
        alpha,
        beta,
        stats,
        |i, block_is_max| {
            blocks += 1;
            block_value(&leaves[i * BLOCK..(i + 1) * BLOCK], block_is_max)
        },
    );
    // alphabeta_over counted each block's root; add the nodes below it.
    stats.nodes += blocks * (2 * BLOCK as u64 - 2);
    stats.leaves += blocks * BLOCK as u64;
    value
}

/// The value and the optimal line (leftmost on ties) of the tree over `2^height` `leaves`.
/// The line is found with null-window searches: at a MAX node of value `v` the left child
/// is on the line exactly when its value is at least `v`, which a search with the window
/// `(v - 1, v)` decides while pruning most of the subtree (and likewise at a MIN node).
pub fn solve(leaves: &[i32], height: u32, is_max: bool) -> Solution {
    let mut stats = Stats::default();
    let value = search(leaves, height, is_max, i32::MIN, i32::MAX, &mut stats);
    let mut line = Vec::with_capacity(height as usize);
    let (mut node, mut side) = (leaves, is_max);
    for h in (0..height).rev() {
        let (left, right) = node.split_at(node.len() / 2);
        // `value` cannot be passed by a child at a MAX node (or undercut at a MIN node),
        // so the test is whether the left child reaches it; at i32::MIN / i32::MAX it
        // trivially does, and the window below would overflow.
        let left_on_line = if side {
            value == i32::MIN || search(left, h, !side, value - 1, value, &mut stats) >= value
        } else {
            value == i32::MAX || search(left, h, !side, value, value + 1, &mut stats) <= value
        };
        line.push(if left_on_line { 0 } else { 1 });
        node = if left_on_line { left } else { right };
        side = !side;
    }
    Solution { value, line, stats }
}

/// The exact minimax value of a complete binary subtree (`leaves.len()` a power of two,
/// at most `BLOCK`) with MAX to move at its root if `is_max`, without branches.
fn block_value(leaves: &[i32], is_max: bool) -> i32 {
    let mut n = leaves.len();
    if n == 1 {
        return leaves[0];
    }
    let height = n.trailing_zeros();
    // The side to move just above the leaves, then alternating up to the root.
    let mut max_level = is_max ^ (height % 2 == 0);
    let (mut a, mut b) = ([0i32; BLOCK / 2], [0i32; BLOCK / 2]);
    let (mut src, mut dst) = (&mut a, &mut b);
    reduce(leaves, &mut src[..n / 2], max_level);
    n /= 2;
    while n > 1 {
        max_level = !max_level;
        reduce(&src[..n], &mut dst[..n / 2], max_level);
        std::mem::swap(&mut src, &mut dst);
        n /= 2;
    }
    src[0]
}

/// `dst[i] = max or min of src[2i], src[2i + 1]`.
#[inline(always)]
fn reduce(src: &[i32], dst: &mut [i32], max: bool) {
    if max {
        for (d, pair) in dst.iter_mut().zip(src.chunks_exact(2)) {
            *d = pair[0].max(pair[1]);
        }
    } else {
        for (d, pair) in dst.iter_mut().zip(src.chunks_exact(2)) {
            *d = pair[0].min(pair[1]);
        }
    }
}
