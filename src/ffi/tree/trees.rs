//! Trees of any shape behind an opaque handle: parsed from text, built from CSR arrays or
//! a leaf array, solved, printed back, and drawn as Graphviz DOT.

use std::collections::BTreeMap;
use std::ffi::{CString, c_char};

use crate::ffi::args::{check_line_room, non_null, slice, write_line, write_text};
use crate::ffi::boundary::status_call;
use crate::ffi::parse_error::mm_parse_error;
use crate::ffi::status::mm_status::{self, *};
use crate::ffi::tree::leaves::{
    algorithm_from, chance_method_from, mm_algorithm, mm_chance_solution, mm_stats,
};
use crate::tree::chance::solve_chance;
use crate::tree::general::pruned_subtrees;
use crate::tree::{Tree, dot, solve, text};

/// A tree of any shape (opaque). Create it with `mm_tree_parse`, `mm_tree_from_csr` or
/// `mm_tree_from_leaves`; free it with `mm_tree_free`. Nodes are numbered from 0 (the
/// root); parsed trees are numbered in preorder.
pub struct mm_tree {
    tree: Tree,
    /// The labelled nodes' labels as C strings (most trees have none).
    labels: BTreeMap<usize, CString>,
}

impl mm_tree {
    fn boxed(tree: Tree) -> *mut mm_tree {
        let labels = (0..tree.node_count())
            .filter_map(|n| {
                let label = tree.label(n)?;
                Some((n, CString::new(label).expect("labels are identifiers")))
            })
            .collect();
        Box::into_raw(Box::new(mm_tree { tree, labels }))
    }
}

/// One node of a tree, as `mm_tree_node` reports it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_node_info {
    /// The parent's index, or `SIZE_MAX` for the root.
    pub parent: usize,
    /// The node's position among its parent's children (0 = leftmost; 0 for the root).
    pub position: usize,
    /// How many children it has: 0 for a leaf.
    pub child_count: usize,
    /// A leaf's score (0 for an inner node).
    pub value: i32,
    /// The node's label, or NULL. Valid until the tree is freed.
    pub label: *const c_char,
}

/// The answer to a solved tree of any shape.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_tree_solution {
    /// The minimax value of the root.
    pub value: i32,
    /// The node index of the leaf reached by optimal play (the leftmost on ties).
    pub best_leaf: usize,
    /// How many moves the optimal line has (written to the caller's line buffer).
    pub line_len: usize,
    /// What the search did.
    pub stats: mm_stats,
}

/// Hands a new tree to the caller through `out`.
///
/// # Safety
/// `out` must be writable (it is checked for NULL).
unsafe fn give(tree: Tree, out: *mut *mut mm_tree) -> Result<(), mm_status> {
    let out = non_null(out)?;
    // SAFETY: `out` is non-NULL and the caller guarantees it is writable.
    unsafe { out.write(mm_tree::boxed(tree)) };
    Ok(())
}

/// A deterministic algorithm's code for a tree: a tree with chance nodes needs a chance
/// algorithm (`MM_ERR_GAME_CHANCE_NODE`), and those give expected values, which these
/// functions do not return (`MM_ERR_CHANCE_ALGORITHM`).
fn deterministic(tree: &Tree, code: mm_algorithm) -> Result<crate::tree::Algorithm, mm_status> {
    let algorithm = algorithm_from(code)?;
    if tree.has_chance() {
        return Err(MM_ERR_GAME_CHANCE_NODE);
    }
    Ok(algorithm)
}

/// Borrows the tree behind a handle.
///
/// # Safety
/// `tree` must be NULL or a live handle from this library.
unsafe fn borrow<'a>(tree: *const mm_tree) -> Result<&'a mm_tree, mm_status> {
    // SAFETY: the caller guarantees a live handle or NULL, which as_ref turns into None.
    unsafe { tree.as_ref() }.ok_or(MM_ERR_NULL_ARGUMENT)
}

/// Parses `len` bytes of `text` in the tree notation into a new tree. The notation:
/// a leaf is an integer with an optional sign (`-3`); an inner node is `(`, its children
/// separated by whitespace or commas, `)`, with at least one child; any node may carry a
/// label first, an identifier and `:` (`A:(B:(3 5) C:(6 9))`, `D:3`); `#` starts a comment
/// to the end of the line; the whole text is one node, the root. The first document's
/// example is `(((3 5) (6 9)) ((1 2) (0 -1)))`. A chance node is `?(` its children `)`,
/// each preceded by its weight and `:` (a finite number, at least 0; not all 0):
/// `(?(1: (3 5), 1: (6 9)) ?(1: (1 2), 1: (0 -1)))` is the textbook expectimax exercise.
///
/// On success writes the handle to `*out`. On a malformed text returns one of the
/// `MM_ERR_PARSE_*` statuses and, if `error` is not NULL, fills it with the line, column
/// and message; `*out` is untouched.
///
/// # Safety
/// `text` must hold `len` readable bytes; `out` and `error` (if not NULL) must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_parse(
    text: *const c_char,
    len: usize,
    out: *mut *mut mm_tree,
    error: *mut mm_parse_error,
) -> mm_status {
    status_call(|| {
        non_null(out)?;
        // SAFETY: the caller guarantees `len` readable bytes at `text`.
        let bytes = unsafe { slice(text.cast::<u8>(), len)? };
        let tree = match text::parse_bytes(bytes) {
            Ok(tree) => tree,
            Err(e) => {
                if !error.is_null() {
                    let where_ = mm_parse_error::new(e.line, e.column, &e.to_string());
                    // SAFETY: `error` is non-NULL and the caller guarantees it is writable.
                    unsafe { error.write(where_) };
                }
                return Err(e.kind.into());
            }
        };
        // SAFETY: `out` is writable (caller's guarantee).
        unsafe { give(tree, out) }
    })
}

/// Builds a tree from CSR arrays: node `i`'s children are
/// `children[offsets[i] .. offsets[i + 1]]`, leftmost first, and `values[i]` is node `i`'s
/// score if it is a leaf (ignored otherwise). `values_len` is the node count, and
/// `offsets_len` must be one more. Node 0 is the root; every other node must be the child
/// of exactly one node and reachable from the root.
///
/// # Safety
/// Each pointer must hold its stated number of values; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_from_csr(
    offsets: *const usize,
    offsets_len: usize,
    children: *const usize,
    children_len: usize,
    values: *const i32,
    values_len: usize,
    out: *mut *mut mm_tree,
) -> mm_status {
    status_call(|| {
        non_null(out)?;
        // SAFETY: the caller guarantees each array's length.
        let (offsets, children, values) = unsafe {
            (
                slice(offsets, offsets_len)?,
                slice(children, children_len)?,
                slice(values, values_len)?,
            )
        };
        let tree = Tree::from_csr(offsets, children, values)?;
        // SAFETY: `out` is writable (caller's guarantee).
        unsafe { give(tree, out) }
    })
}

/// `mm_tree_from_csr` with chance nodes: `is_chance[i]` (one per node, `values_len`)
/// says whether node `i` is a chance node (ignored for a leaf), and `weights[k]` (one per
/// child entry, `children_len`) is the weight of `children[k]` when its parent is a chance
/// node (ignored otherwise). A chance node's weights must be finite and non-negative and
/// not all zero, else `MM_ERR_BAD_WEIGHT`.
///
/// # Safety
/// Each pointer must hold its stated number of values; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_from_csr_chance(
    offsets: *const usize,
    offsets_len: usize,
    children: *const usize,
    children_len: usize,
    values: *const i32,
    values_len: usize,
    is_chance: *const bool,
    weights: *const f64,
    out: *mut *mut mm_tree,
) -> mm_status {
    status_call(|| {
        non_null(out)?;
        // SAFETY: the caller guarantees each array's length.
        let (offsets, children, values, chance, weights) = unsafe {
            (
                slice(offsets, offsets_len)?,
                slice(children, children_len)?,
                slice(values, values_len)?,
                slice(is_chance, values_len)?,
                slice(weights, children_len)?,
            )
        };
        let tree = Tree::from_csr_chance(offsets, children, values, chance, weights)?;
        // SAFETY: `out` is writable (caller's guarantee).
        unsafe { give(tree, out) }
    })
}

/// Builds the tree of a complete tree's leaf array (as `mm_solve_leaves` takes it), so
/// that it can be drawn or explored. Nodes are numbered level by level.
///
/// # Safety
/// `leaves` must hold `count` values; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_from_leaves(
    leaves: *const i32,
    count: usize,
    branching: usize,
    out: *mut *mut mm_tree,
) -> mm_status {
    status_call(|| {
        non_null(out)?;
        // SAFETY: the caller guarantees `count` values at `leaves`.
        let leaves = unsafe { slice(leaves, count)? };
        let tree = Tree::from_complete(leaves, branching)?;
        // SAFETY: `out` is writable (caller's guarantee).
        unsafe { give(tree, out) }
    })
}

/// Frees a tree. NULL is allowed and does nothing.
///
/// # Safety
/// `tree` must be NULL or a handle from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_free(tree: *mut mm_tree) {
    let _ = status_call(|| {
        if !tree.is_null() {
            // SAFETY: a live handle made by Box::into_raw in mm_tree::boxed, freed once.
            drop(unsafe { Box::from_raw(tree) });
        }
        Ok(())
    });
}

/// The tree's node count and height (edges on the longest root-to-leaf path: the most
/// entries an optimal line can have).
///
/// # Safety
/// `tree` must be a live handle; the out-pointers must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_size(
    tree: *const mm_tree,
    node_count: *mut usize,
    height: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let (node_count, height) = (non_null(node_count)?, non_null(height)?);
        // SAFETY: both non-NULL and writable (caller's guarantee).
        unsafe {
            node_count.write(t.tree.node_count());
            height.write(t.tree.height());
        }
        Ok(())
    })
}

/// Describes node `node` of the tree.
///
/// # Safety
/// `tree` must be a live handle; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_node(
    tree: *const mm_tree,
    node: usize,
    out: *mut mm_node_info,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let out = non_null(out)?;
        if node >= t.tree.node_count() {
            return Err(MM_ERR_NO_SUCH_NODE);
        }
        let parent = t.tree.parent(node);
        let info = mm_node_info {
            parent: parent.unwrap_or(usize::MAX),
            position: parent.map_or(0, |p| {
                t.tree.children(p).iter().position(|&c| c == node).unwrap()
            }),
            child_count: t.tree.children(node).len(),
            value: t.tree.value(node),
            label: t.labels.get(&node).map_or(std::ptr::null(), |l| l.as_ptr()),
        };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(info) };
        Ok(())
    })
}

/// Solves the tree with MAX to move at the root if `max_at_root`. On `MM_OK` fills `*out`
/// and, if `line` is not NULL, writes the optimal line into `line[0 .. out->line_len]` as
/// node indices, the root's chosen child first and the best leaf last. `line_cap` must be
/// at least the tree's height (`mm_tree_size`), else `MM_ERR_BUFFER_TOO_SMALL`. Nothing is
/// written on an error. A tree with chance nodes gets `MM_ERR_GAME_CHANCE_NODE`: see
/// `mm_tree_expectimax`.
///
/// # Safety
/// `tree` must be a live handle; `out` writable; `line`, if not NULL, `line_cap` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_solve(
    tree: *const mm_tree,
    max_at_root: bool,
    algorithm: mm_algorithm,
    out: *mut mm_tree_solution,
    line: *mut usize,
    line_cap: usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let out = non_null(out)?;
        let algorithm = deterministic(&t.tree, algorithm)?;
        check_line_room(line, line_cap, t.tree.height())?;
        let s = solve(&t.tree, max_at_root, algorithm);
        let nodes = t.tree.line_nodes(&s.line);
        // SAFETY: `line`, if not NULL, has `line_cap >= height >= nodes.len()` entries.
        unsafe { write_line(line, &nodes) };
        let solution = mm_tree_solution {
            value: s.value,
            best_leaf: nodes.last().copied().unwrap_or(0),
            line_len: nodes.len(),
            stats: s.stats.into(),
        };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(solution) };
        Ok(())
    })
}

/// Lists the roots of the subtrees that alpha-beta prunes (never enters) with MAX to move
/// at the root if `max_at_root`, in the order it cut them. `*count` always receives how
/// many there are; if `nodes` is NULL or `cap` is smaller, returns
/// `MM_ERR_BUFFER_TOO_SMALL` and writes no node. A tree with chance nodes gets
/// `MM_ERR_GAME_CHANCE_NODE` (`mm_tree_expectimax` counts what Star1 and Star2 prune).
///
/// # Safety
/// `tree` must be a live handle; `nodes` (if not NULL) must have `cap` writable entries;
/// `count` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_pruned(
    tree: *const mm_tree,
    max_at_root: bool,
    nodes: *mut usize,
    cap: usize,
    count: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let count = non_null(count)?;
        deterministic(&t.tree, crate::ffi::tree::leaves::MM_ALGORITHM_ALPHABETA)?;
        let pruned = pruned_subtrees(&t.tree, max_at_root);
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { count.write(pruned.len()) };
        if nodes.is_null() || cap < pruned.len() {
            return Err(MM_ERR_BUFFER_TOO_SMALL);
        }
        // SAFETY: `nodes` has `cap >= pruned.len()` writable entries.
        unsafe { std::ptr::copy_nonoverlapping(pruned.as_ptr(), nodes, pruned.len()) };
        Ok(())
    })
}

/// Writes the tree in the notation into `buf` (NUL-terminated), which `mm_tree_parse`
/// reads back as the same tree. `*needed` always receives the bytes needed, NUL
/// included; if `buf` is NULL or `cap` is smaller, returns `MM_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `tree` must be a live handle; `buf` (if not NULL) must have `cap` writable bytes;
/// `needed` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_print(
    tree: *const mm_tree,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL, and the buffers.
        unsafe { write_text(&text::print(&borrow(tree)?.tree), buf, cap, needed) }
    })
}

/// Solves the tree and writes a Graphviz DOT picture of the search into `buf`
/// (NUL-terminated): MAX nodes as upward triangles, MIN as downward, leaves as boxes;
/// each evaluated node's value (`<=`/`>=` for fail-soft bounds); the optimal line in red;
/// for alpha-beta, pruned branches dashed grey with the bounds that cut them. With a chance
/// algorithm, chance nodes are circles with each edge's weight and probability, every node entered
/// shows its expected value, and the nodes Star1 or Star2 pruned are dashed grey. Sizes
/// are reported as for `mm_tree_print`.
///
/// # Safety
/// As for `mm_tree_print`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_dot(
    tree: *const mm_tree,
    max_at_root: bool,
    algorithm: mm_algorithm,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let picture = match chance_method_from(algorithm) {
            Ok(method) => dot::dot_chance(&t.tree, max_at_root, method)?.0,
            Err(_) => dot::dot(&t.tree, max_at_root, deterministic(&t.tree, algorithm)?).0,
        };
        // SAFETY: the caller guarantees the buffers.
        unsafe { write_text(&picture, buf, cap, needed) }
    })
}

/// Solves a tree with chance nodes (or without) by `MM_ALGORITHM_EXPECTIMAX`, `STAR1` or
/// `STAR2` (another algorithm gets `MM_ERR_UNKNOWN_ALGORITHM`), with MAX to move at the
/// root if `max_at_root` and the sides alternating at every level, chance levels
/// included. On `MM_OK` fills `*out` and, if `line` is not NULL, writes the optimal line
/// as node indices, up to the first chance node; `line_cap` must then be at least the
/// tree's height, else `MM_ERR_BUFFER_TOO_SMALL`. A tree higher than 1000 levels gets
/// `MM_ERR_GAME_TOO_DEEP`. Nothing is written on an error.
///
/// # Safety
/// `tree` must be a live handle; `out` writable; `line`, if not NULL, `line_cap` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_tree_expectimax(
    tree: *const mm_tree,
    max_at_root: bool,
    algorithm: mm_algorithm,
    out: *mut mm_chance_solution,
    line: *mut usize,
    line_cap: usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: the caller guarantees a live handle or NULL.
        let t = unsafe { borrow(tree)? };
        let out = non_null(out)?;
        let method = chance_method_from(algorithm)?;
        check_line_room(line, line_cap, t.tree.height())?;
        let s = solve_chance(&t.tree, max_at_root, method)?;
        let nodes = t.tree.line_nodes(&s.line);
        // SAFETY: `line`, if not NULL, has `line_cap >= height >= nodes.len()` entries.
        unsafe { write_line(line, &nodes) };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write((&s).into()) };
        Ok(())
    })
}
