//! One solver for every explicit tree shape: plain minimax or fail-soft alpha-beta, with the
//! optimal line of play and statistics, on an explicit stack (no recursion, any depth).

/// A finite game tree whose leaves carry scores from MAX's point of view.
pub trait GameTree {
    /// A handle on one node.
    type Node: Copy;
    /// The root.
    fn root(&self) -> Self::Node;
    /// The leaf's score, or `None` for an inner node.
    fn leaf_value(&self, node: Self::Node) -> Option<i32>;
    /// How many children an inner node has (at least one).
    fn child_count(&self, node: Self::Node) -> usize;
    /// The `i`-th child of an inner node, leftmost first.
    fn child(&self, node: Self::Node, i: usize) -> Self::Node;
}

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// Visits every node: the teaching reference.
    Minimax,
    /// The textbook fail-soft alpha-beta: children left to right, cut when `beta <= alpha`.
    AlphaBeta,
    /// The fastest exact method for the shape (for complete binary trees,
    /// [`fast`](crate::tree::fast)); elsewhere alpha-beta. Its statistics count all the
    /// searches it made, the ones that find the optimal line included.
    Fastest,
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes entered, the root and the leaves included.
    pub nodes: u64,
    /// Leaves whose score was read.
    pub leaves: u64,
    /// Inner nodes left before their last child because `beta <= alpha`.
    pub cutoffs: u64,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The minimax value of the root.
    pub value: i32,
    /// The optimal line: the child index chosen at each level from the root down to a leaf.
    /// On ties it is the leftmost optimal child, as the textbook order finds it.
    pub line: Vec<usize>,
    /// What the search did.
    pub stats: Stats,
}

struct Frame<N> {
    node: N,
    is_max: bool,
    alpha: i32,
    beta: i32,
    /// The window the node was entered with.
    entry_alpha: i32,
    entry_beta: i32,
    best: i32,
    next_child: usize,
    child_count: usize,
    /// The best child's line, deepest move first, with this node's choice last.
    line: Vec<usize>,
}

/// Watches a search: what each node returned and where alpha-beta cut.
pub trait Trace<N> {
    /// `node` returned `value`, having been entered with the window `(alpha, beta)`: the
    /// value is exact if it lies inside, else a fail-soft bound (`<= alpha`: at least the
    /// value; `>= beta`: at most). Plain minimax reports the full window.
    fn value(&mut self, node: N, value: i32, alpha: i32, beta: i32);
    /// `node` stopped with `alpha >= beta` (its bounds then) before child `first_pruned`.
    fn cut(&mut self, node: N, first_pruned: usize, alpha: i32, beta: i32);
}

/// The trace that records nothing.
pub struct NoTrace;

impl<N> Trace<N> for NoTrace {
    fn value(&mut self, _: N, _: i32, _: i32, _: i32) {}
    fn cut(&mut self, _: N, _: usize, _: i32, _: i32) {}
}

/// Solves `tree` with MAX to move at the root if `max_at_root`.
pub fn solve<T: GameTree>(tree: &T, max_at_root: bool, algorithm: Algorithm) -> Solution {
    solve_traced(tree, max_at_root, algorithm, &mut NoTrace)
}

/// [`solve`], telling `trace` what each node returned and where the search cut.
pub fn solve_traced<T: GameTree>(
    tree: &T,
    max_at_root: bool,
    algorithm: Algorithm,
    trace: &mut impl Trace<T::Node>,
) -> Solution {
    let prune = algorithm != Algorithm::Minimax;
    let window = |alpha, beta| {
        if prune {
            (alpha, beta)
        } else {
            (i32::MIN, i32::MAX)
        }
    };
    let mut stats = Stats::default();
    let root = tree.root();
    stats.nodes = 1;
    if let Some(value) = tree.leaf_value(root) {
        trace.value(root, value, i32::MIN, i32::MAX);
        stats.leaves = 1;
        return Solution {
            value,
            line: Vec::new(),
            stats,
        };
    }
    // Frames stay allocated when popped so that their line buffers are reused.
    let mut stack: Vec<Frame<T::Node>> = Vec::new();
    let mut top = 0;
    enter(&mut stack, top, tree, root, max_at_root, i32::MIN, i32::MAX);
    loop {
        let frame = &mut stack[top];
        let i = frame.next_child;
        frame.next_child += 1;
        let child = tree.child(frame.node, i);
        stats.nodes += 1;
        let mut val = match tree.leaf_value(child) {
            Some(v) => {
                stats.leaves += 1;
                let (a, b) = window(frame.alpha, frame.beta);
                trace.value(child, v, a, b);
                v
            }
            None => {
                let (alpha, beta, is_max) = (frame.alpha, frame.beta, !frame.is_max);
                top += 1;
                enter(&mut stack, top, tree, child, is_max, alpha, beta);
                continue;
            }
        };
        // `val` is the value of child `i` of the frame on top, whose own line (if it is an
        // inner node) sits in the frame just above. Hand it up until a node has more to visit.
        let mut child_is_leaf = true;
        loop {
            let (lower, upper) = stack.split_at_mut(top + 1);
            let frame = &mut lower[top];
            let i = frame.next_child - 1;
            let improves = i == 0
                || if frame.is_max {
                    val > frame.best
                } else {
                    val < frame.best
                };
            if improves {
                frame.best = val;
                if child_is_leaf {
                    frame.line.clear();
                } else {
                    std::mem::swap(&mut frame.line, &mut upper[0].line);
                }
                frame.line.push(i);
            }
            if frame.is_max {
                frame.alpha = frame.alpha.max(frame.best);
            } else {
                frame.beta = frame.beta.min(frame.best);
            }
            let cut = prune && frame.beta <= frame.alpha;
            let done = frame.next_child == frame.child_count;
            if cut && !done {
                stats.cutoffs += 1;
                trace.cut(frame.node, frame.next_child, frame.alpha, frame.beta);
            }
            if !(cut || done) {
                break;
            }
            val = frame.best;
            let (a, b) = window(frame.entry_alpha, frame.entry_beta);
            trace.value(frame.node, val, a, b);
            if top == 0 {
                let mut line = std::mem::take(&mut stack[0].line);
                line.reverse();
                return Solution {
                    value: val,
                    line,
                    stats,
                };
            }
            top -= 1;
            child_is_leaf = false;
        }
    }
}

fn enter<T: GameTree>(
    stack: &mut Vec<Frame<T::Node>>,
    top: usize,
    tree: &T,
    node: T::Node,
    is_max: bool,
    alpha: i32,
    beta: i32,
) {
    let child_count = tree.child_count(node);
    assert!(child_count > 0, "an inner node has at least one child");
    let best = if is_max { i32::MIN } else { i32::MAX };
    let line = if top < stack.len() {
        std::mem::take(&mut stack[top].line)
    } else {
        Vec::new()
    };
    let frame = Frame {
        node,
        is_max,
        alpha,
        beta,
        entry_alpha: alpha,
        entry_beta: beta,
        best,
        next_child: 0,
        child_count,
        line,
    };
    if top == stack.len() {
        stack.push(frame);
    } else {
        stack[top] = frame;
        stack[top].line.clear();
    }
}
