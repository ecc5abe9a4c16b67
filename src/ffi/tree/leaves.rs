//! The checked API for complete trees stored as a leaf array: every argument validated,
//! and a solution with the optimal line and statistics.

use crate::ffi::args::{check_line_room, non_null, slice, write_line};
use crate::ffi::boundary::status_call;
use crate::ffi::status::mm_status::{self, *};
use crate::search::Method;
use crate::tree::chance::{ChanceSolution, leaves_expectimax};
use crate::tree::{Algorithm, CompleteTree, Solution, Stats, height_of};

/// An algorithm choice for the checked API: one of the `MM_ALGORITHM_*` values.
#[allow(non_camel_case_types)]
pub type mm_algorithm = u32;
/// Plain minimax: visits every node (the teaching reference).
pub const MM_ALGORITHM_MINIMAX: mm_algorithm = 0;
/// The textbook fail-soft alpha-beta: children left to right, cut when `beta <= alpha`.
pub const MM_ALGORITHM_ALPHABETA: mm_algorithm = 1;
/// The fastest exact method for the tree: the same value and optimal line, with
/// statistics that count every search it made (the line's included).
pub const MM_ALGORITHM_FASTEST: mm_algorithm = 2;
/// The algorithm to use when in doubt: `MM_ALGORITHM_FASTEST`.
pub const MM_ALGORITHM_DEFAULT: mm_algorithm = MM_ALGORITHM_FASTEST;
/// For trees with chance nodes (`mm_expectimax_leaves`, `mm_tree_expectimax`,
/// `mm_tree_dot`): plain expectiminimax, which visits every node.
pub const MM_ALGORITHM_EXPECTIMAX: mm_algorithm = 3;
/// Expectiminimax with alpha-beta and Ballard's Star1 pruning at chance nodes (the
/// lowest and highest leaf are its bounds).
pub const MM_ALGORITHM_STAR1: mm_algorithm = 4;
/// Star1 with Star2's probing.
pub const MM_ALGORITHM_STAR2: mm_algorithm = 5;

/// The longest optimal line an `mm_solution` holds: a tree of `2^64` leaves would not fit
/// in memory, so every leaf array's height is below it.
pub const MM_MAX_LINE: usize = 64;

/// What a search did.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_stats {
    /// Nodes entered, the root and the leaves included.
    pub nodes: u64,
    /// Leaves whose value was read.
    pub leaves: u64,
    /// Inner nodes left before their last child because `beta <= alpha`.
    pub cutoffs: u64,
}

/// The answer to a solved tree.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_solution {
    /// The minimax value of the root.
    pub value: i32,
    /// The index of the leaf reached when both sides play optimally (the leftmost on ties).
    pub best_leaf: usize,
    /// How many entries of `line` are used: the tree's height.
    pub line_len: usize,
    /// The optimal line: the child index (0 = leftmost) chosen at each level, root first.
    pub line: [usize; MM_MAX_LINE],
    /// What the search did.
    pub stats: mm_stats,
}

/// The answer to a tree with chance nodes.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_chance_solution {
    /// The expected value of the root, MAX's view.
    pub value: f64,
    /// How many moves the optimal line has, up to the first chance node (where the next
    /// step is drawn, not chosen); written to the caller's line buffer.
    pub line_len: usize,
    /// What the search did.
    pub stats: mm_stats,
    /// How many nodes the search never entered (pruned, or below a pruned node).
    pub pruned: usize,
}

pub(crate) fn algorithm_from(code: mm_algorithm) -> Result<Algorithm, mm_status> {
    match code {
        MM_ALGORITHM_MINIMAX => Ok(Algorithm::Minimax),
        MM_ALGORITHM_ALPHABETA => Ok(Algorithm::AlphaBeta),
        MM_ALGORITHM_FASTEST => Ok(Algorithm::Fastest),
        MM_ALGORITHM_EXPECTIMAX | MM_ALGORITHM_STAR1 | MM_ALGORITHM_STAR2 => {
            Err(MM_ERR_CHANCE_ALGORITHM)
        }
        _ => Err(MM_ERR_UNKNOWN_ALGORITHM),
    }
}

/// The engine's method for a chance algorithm; a deterministic one is not accepted here.
pub(crate) fn chance_method_from(code: mm_algorithm) -> Result<Method, mm_status> {
    match code {
        MM_ALGORITHM_EXPECTIMAX => Ok(Method::Expectimax),
        MM_ALGORITHM_STAR1 => Ok(Method::Star1),
        MM_ALGORITHM_STAR2 => Ok(Method::Star2),
        _ => Err(MM_ERR_UNKNOWN_ALGORITHM),
    }
}

impl From<&ChanceSolution> for mm_chance_solution {
    fn from(s: &ChanceSolution) -> Self {
        mm_chance_solution {
            value: s.value,
            line_len: s.line.len(),
            stats: s.stats.into(),
            pruned: s.visited.iter().filter(|v| !**v).count(),
        }
    }
}

fn to_c(tree: &CompleteTree<'_>, s: &Solution) -> mm_solution {
    let mut line = [0; MM_MAX_LINE];
    line[..s.line.len()].copy_from_slice(&s.line);
    mm_solution {
        value: s.value,
        best_leaf: tree.leaf_index(&s.line),
        line_len: s.line.len(),
        line,
        stats: s.stats.into(),
    }
}

impl From<Stats> for mm_stats {
    fn from(s: Stats) -> Self {
        mm_stats {
            nodes: s.nodes,
            leaves: s.leaves,
            cutoffs: s.cutoffs,
        }
    }
}

/// Solves the complete tree whose `count` leaves are `leaves` (leftmost first), where
/// every inner node has `branching` children and MAX moves at the root if `max_at_root`.
/// `count` must be `branching^h` for some `h >= 0`; 1 means the root is a leaf.
///
/// Returns `MM_OK` and fills `*out`, or an error status and leaves `*out` untouched:
/// `MM_ERR_NULL_ARGUMENT`, `MM_ERR_BRANCHING_TOO_SMALL` (0 or 1), `MM_ERR_NO_LEAVES`,
/// `MM_ERR_LEAF_COUNT_NOT_A_POWER`, `MM_ERR_TOO_MANY_LEAVES`, `MM_ERR_UNKNOWN_ALGORITHM`,
/// `MM_ERR_CHANCE_ALGORITHM` (for expected values, see `mm_expectimax_leaves`).
///
/// # Safety
/// `leaves` must point to `count` readable `int32_t`s, and `out` to a writable
/// `mm_solution`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_solve_leaves(
    leaves: *const i32,
    count: usize,
    branching: usize,
    max_at_root: bool,
    algorithm: mm_algorithm,
    out: *mut mm_solution,
) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        if leaves.is_null() {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let algorithm = algorithm_from(algorithm)?;
        // SAFETY: the caller guarantees `count` readable int32_t at `leaves`.
        let leaves = unsafe { slice(leaves, count)? };
        let tree = CompleteTree::new(leaves, branching)?;
        let solution = to_c(&tree, &tree.solve(max_at_root, algorithm));
        // SAFETY: `out` is non-NULL (checked) and the caller guarantees it is writable.
        unsafe { out.write(solution) };
        Ok(())
    })
}

/// Solves the complete tree of a leaf array (as `mm_solve_leaves` takes it) with every
/// MIN level turned into a chance level of equal weights: MAX, chance, MAX, ... from a
/// MAX root (chance, MIN, chance, ... from a MIN root), by `MM_ALGORITHM_EXPECTIMAX`,
/// `STAR1` or `STAR2` (another algorithm gets `MM_ERR_UNKNOWN_ALGORITHM`). On `MM_OK`
/// fills `*out` and, if `line` is not NULL, writes the optimal line's child positions
/// (0 = leftmost) up to the first chance level; `line_cap` must then be at least the
/// tree's height, else `MM_ERR_BUFFER_TOO_SMALL`. Other errors as for `mm_solve_leaves`.
/// Nothing is written on an error.
///
/// # Safety
/// `leaves` must hold `count` values; `out` must be writable; `line`, if not NULL,
/// `line_cap` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_expectimax_leaves(
    leaves: *const i32,
    count: usize,
    branching: usize,
    max_at_root: bool,
    algorithm: mm_algorithm,
    out: *mut mm_chance_solution,
    line: *mut usize,
    line_cap: usize,
) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        if leaves.is_null() {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let method = chance_method_from(algorithm)?;
        // SAFETY: the caller guarantees `count` readable int32_t at `leaves`.
        let leaves = unsafe { slice(leaves, count)? };
        let height = height_of(leaves.len(), branching)? as usize;
        check_line_room(line, line_cap, height)?;
        let s = leaves_expectimax(leaves, branching, max_at_root, method)?;
        // SAFETY: `line`, if not NULL, has `line_cap >= height >= s.line.len()` entries.
        unsafe { write_line(line, &s.line) };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write((&s).into()) };
        Ok(())
    })
}
