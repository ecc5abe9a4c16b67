//! The textbook fail-soft alpha-beta as an iterative traversal of a complete binary tree,
//! its bottom nodes valued by the caller: leaves for the textbook function
//! (`binary.rs`), whole blocks of leaves for the fast path (`fast.rs`).

use super::solve::Stats;

/// The deepest binary tree a slice can hold: `2^63` leaves would not fit in memory anyway.
const MAX_BINARY_HEIGHT: usize = 63;

/// One inner node on the explicit stack: its window, its best value so far, and whether
/// its second (right) child is the one to visit next.
#[derive(Clone, Copy)]
struct Frame {
    alpha: i32,
    beta: i32,
    best: i32,
    right_next: bool,
}

/// The textbook fail-soft alpha-beta over a complete binary tree of `height` levels whose
/// bottom nodes are valued by `bottom(index, is_max)` (`is_max`: that node's side to move),
/// without recursion. With `bottom` reading a leaf this is exactly the textbook algorithm;
/// [`crate::tree::fast`](super::fast) uses it with whole blocks of leaves as the bottom nodes.
pub(crate) fn alphabeta_over(
    height: u32,
    max_at_root: bool,
    alpha: i32,
    beta: i32,
    counts: &mut Stats,
    mut bottom: impl FnMut(usize, bool) -> i32,
) -> i32 {
    let height = height as usize;
    if height == 0 {
        return bottom(0, max_at_root);
    }
    assert!(
        height <= MAX_BINARY_HEIGHT,
        "a slice cannot hold 2^{height} leaves"
    );
    let start = |alpha, beta, is_max: bool| Frame {
        alpha,
        beta,
        best: if is_max { i32::MIN } else { i32::MAX },
        right_next: false,
    };
    let mut stack = [start(0, 0, false); MAX_BINARY_HEIGHT];
    let is_max_at = |depth: usize| max_at_root ^ (depth % 2 == 1);
    let bottom_is_max = is_max_at(height);

    stack[0] = start(alpha, beta, max_at_root);
    let mut depth = 0; // the frame on top of the stack
    let mut index = 0usize; // that frame's node index within its level
    loop {
        // Visit the next child of the node on top.
        let frame = stack[depth];
        let child = index * 2 + frame.right_next as usize;
        counts.nodes += 1;
        // The child's subtree, if no more than INLINE_LEVELS deep, is valued in straight-line
        // code (as the loop would value it); a deeper child gets a frame of its own.
        let below = height - depth - 1;
        let mut val = if below > INLINE_LEVELS {
            depth += 1;
            index = child;
            stack[depth] = start(frame.alpha, frame.beta, is_max_at(depth));
            continue;
        } else {
            let (alpha, beta, is_max) = (frame.alpha, frame.beta, is_max_at(depth + 1));
            let leaf = &mut |i: usize, _: i32, _: i32, _: &mut Stats| bottom(i, bottom_is_max);
            match below {
                0 => leaf(child, alpha, beta, counts),
                1 => node2(child, is_max, alpha, beta, counts, leaf),
                2 => node2(
                    child,
                    is_max,
                    alpha,
                    beta,
                    counts,
                    &mut |i, a, b, c: &mut Stats| node2(i, !is_max, a, b, c, leaf),
                ),
                _ => node2(
                    child,
                    is_max,
                    alpha,
                    beta,
                    counts,
                    &mut |i, a, b, c: &mut Stats| {
                        node2(i, !is_max, a, b, c, &mut |j, a, b, c: &mut Stats| {
                            node2(j, is_max, a, b, c, leaf)
                        })
                    },
                ),
            }
        };
        // Hand `val` up until some node still has a child to visit.
        loop {
            let frame = &mut stack[depth];
            if is_max_at(depth) {
                frame.best = frame.best.max(val);
                frame.alpha = frame.alpha.max(frame.best);
            } else {
                frame.best = frame.best.min(val);
                frame.beta = frame.beta.min(frame.best);
            }
            let cut = frame.beta <= frame.alpha;
            if frame.right_next || cut {
                counts.cutoffs += (cut && !frame.right_next) as u64;
                val = frame.best;
                if depth == 0 {
                    return val;
                }
                depth -= 1;
                index /= 2;
            } else {
                frame.right_next = true;
                break;
            }
        }
    }
}

/// How many levels above the bottom a subtree is valued by [`node2`] in straight-line code.
const INLINE_LEVELS: usize = 3;

/// One textbook alpha-beta node with two children, valued by `child(index, alpha, beta,
/// counts)`: the first child's value, and the second's only when the first does not cut.
#[inline(always)]
fn node2(
    node: usize,
    is_max: bool,
    alpha: i32,
    beta: i32,
    counts: &mut Stats,
    child: &mut impl FnMut(usize, i32, i32, &mut Stats) -> i32,
) -> i32 {
    counts.nodes += 1;
    let first = child(node * 2, alpha, beta, counts);
    let (alpha, beta) = if is_max {
        (alpha.max(first), beta)
    } else {
        (alpha, beta.min(first))
    };
    if beta <= alpha {
        counts.cutoffs += 1;
        return first;
    }
    counts.nodes += 1;
    let second = child(node * 2 + 1, alpha, beta, counts);
    if is_max {
        first.max(second)
    } else {
        first.min(second)
    }
}
